"""The ledger's roll for an advancement, recorded before the coach chooses.

At the table a coach fixes what he rolls for before he sees the dice: the category of a
random skill, then two D6 on its Skill Table column (seed 001, 'New Skills'); the SPP of
a characteristic improvement, then the D8 (seed 001, 'Characteristic Improvements': "the
SPP spent for making a Characteristic Improvement roll is still spent" if he takes a
skill instead). The ledger's dice for an advancement are the same on every try
(``keyed_dice``) and the same for every column, so a roll shown and not kept would let a
coach read what each column gives before choosing one. So when the ledger's dice leave
the coach a choice, the roll is recorded (``AdvancementRolled``) and the player's next
advancement is taken from it: of its kind and category, with its dice. A commissioner
who finds the roll made in error voids it (``ledger correct N --void``).

Dice the coaches roll at the table and enter are recorded with the advancement, as they
always were: the history says whose dice each were.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from ledger.application.context import Context
from ledger.application.keyed_dice import KeyedDice
from ledger.application.skill_rolls import skill_rolls, skills_given
from ledger.domain import events as ev
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import CHARACTERISTICS, Characteristic, DiceRoll
from ledger.errors import ChoiceNeeded, NotAllowed
from ledger.rules.asked import Advancing
from ledger.rules.problems import RESULT_EITHER_WAY
from ledger.rules.schema import category_said
from ledger.words import one_of, possessive, rolls_said, words

ROLLED_FIRST = ("characteristic", "random_primary", "random_secondary")
"""The kinds whose dice are rolled after the kind (and column) is fixed, and leave a
choice: the Star Player Roll of the older editions is the only kind of its editions, so
there is no other to choose once it is rolled."""
RANDOM = ("random_primary", "random_secondary")


@dataclass(frozen=True)
class Waiting:
    """A player's recorded roll, not yet taken (``PlayerRow.rolled``)."""

    kind: ev.AdvancementKind
    category: str | None
    dice: tuple[DiceRoll, ...]
    seq: int

    def said(self) -> str:
        """``random primary skill in category G: random_skill 3,4 and 1,6 (event 87)``"""
        column = f" in category {category_said(self.category)}" if self.category else ""
        kind = ev.ADVANCEMENT_NAMES.get(self.kind, words(self.kind))
        return f"{kind}{column}: {rolls_said(self.pairs())} (event {self.seq})"

    def pairs(self) -> list[tuple[str, tuple[int, ...]]]:
        return [(d.purpose, d.values) for d in self.dice]


def waiting(player: PlayerRow) -> Waiting | None:
    """The ledger's roll recorded for his next advancement, if one waits."""
    if not player.rolled:
        return None
    row = player.rolled
    return Waiting(
        kind=cast(ev.AdvancementKind, row["kind"]),
        category=row.get("category"),
        dice=tuple(DiceRoll.model_validate(d) for d in row["dice"]),
        seq=int(row["seq"]),
    )


def from_waiting(
    player: PlayerRow, roll: Waiting, proposed: ev.PlayerAdvanced
) -> ev.PlayerAdvanced:
    """``proposed`` taken from the roll that waits: of its kind and column, with its dice
    (dice sent again as they were rolled are the same roll; others are refused)."""
    if (proposed.kind, proposed.category or None) != (roll.kind, roll.category):
        raise NotAllowed(
            f"{player.name}'s next advancement is taken from the ledger's roll for a"
            f" {roll.said()}; a commissioner voids a roll made in error"
        )
    if proposed.dice and [(d.purpose, d.values) for d in proposed.dice] != roll.pairs():
        raise NotAllowed(
            f"{player.name}'s dice are rolled already, for a {roll.said()}: they stand,"
            " leave the dice out"
        )
    return proposed.model_copy(update={"dice": roll.dice})


def refuse_unchosen(
    c: Context, team: TeamRow, player: PlayerRow, roll: Waiting, event: ev.PlayerAdvanced
) -> None:
    """A roll that waits, sent again without a choice, is refused naming what it gives
    (the edition's own sentence would ask for its dice, which stand)."""
    if event.skill or event.characteristic:
        return
    if choice := choice_of(c, team, player, event):
        raise ChoiceNeeded(
            f"the ledger's roll for {possessive(player.name)} {roll.said()} gives"
            f" {choice.said()}: choose what he takes"
        )


def refuse_table_dice(c: Context, event: ev.PlayerAdvanced) -> None:
    """In a league whose advancements the ledger rolls (``AdvancementDiceSet``), dice
    typed in are refused: only the ledger's own values, sent back by the form, stand."""
    if typed := [d for d in event.dice if d.source != "ledger"]:
        raise NotAllowed(
            f"the advancements of {c.league.name} are rolled by the ledger: leave out"
            f" {rolls_said((d.purpose, d.values) for d in typed)}, and the ledger rolls"
        )


def missing_rolls(
    c: Context, team: TeamRow, player: PlayerRow, event: ev.PlayerAdvanced, dice: KeyedDice
) -> tuple[DiceRoll, ...]:
    """The ledger's dice ``event`` is made with and was not given: a characteristic
    improvement's die (the edition's: a D8 in bb2025, a D16 in bb2020), a random skill's
    Skill Table rolls (``skill_rolls``: again past a skill he has), a Star Player Roll's
    (``star_rolls``)."""
    given = {r.purpose for r in event.dice}
    die = c.ruleset.advancement_dice.get("characteristic")
    if event.kind == "characteristic" and die and "characteristic" not in given:
        return (dice.roll("characteristic", die, player.player_id),)
    if event.kind in RANDOM and "random_skill" not in given:
        return skill_rolls(c, team, player, event, dice)
    if event.kind == "star_roll":
        return star_rolls(c, team, player, event, dice)
    return ()


def star_rolls(
    c: Context, team: TeamRow, player: PlayerRow, event: ev.PlayerAdvanced, dice: KeyedDice
) -> tuple[DiceRoll, ...]:
    """A Star Player Roll's dice not given, by the edition's sets (``star_roll_sets``):
    the set its check finds least wrong, the first of equals. So ZAL's ageing effect is
    rolled only when the Ageing Roll fails (ZAL 19), and a roll refused for another reason
    (no choice made yet, SPP short) is refused for that reason alone."""
    given = {r.purpose for r in event.dice}
    best: tuple[int, tuple[DiceRoll, ...]] | None = None
    for purposes in c.ruleset.star_roll_sets:
        rolled = tuple(
            dice.roll(p, c.ruleset.advancement_dice[p], player.player_id)
            for p in purposes
            if p not in given
        )
        trial = event.model_copy(update={"dice": event.dice + rolled})
        wrong = len(c.ruleset.problems(Advancing(player, team, trial)))
        if best is None or wrong < best[0]:
            best = (wrong, rolled)
    return best[1] if best else ()


def rolled_by_ledger(event: ev.PlayerAdvanced) -> bool:
    """Whether the advancement's dice are the ledger's and leave a choice after them."""
    return event.kind in ROLLED_FIRST and any(d.source == "ledger" for d in event.dice)


@dataclass(frozen=True)
class Choice:
    """What a roll lets the player take: characteristics, and skills (a random skill's
    rolls give one or two; a characteristic roll lets any skill he may take stand
    instead)."""

    stats: tuple[Characteristic, ...]
    skills: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.stats or self.skills)

    def said(self) -> str:
        if stats := [f"+{s.upper()}" for s in self.stats]:
            instead = " (or a skill instead)" if self.skills else ""
            return one_of(stats) + instead
        return one_of(self.skills)


def choice_of(c: Context, team: TeamRow, player: PlayerRow, event: ev.PlayerAdvanced) -> Choice:
    """What the event's dice let the player take, as the edition answers (his SPP as they
    are): nothing when he cannot take the advancement at all."""
    bare = event.model_copy(update={"skill": None, "characteristic": None})
    stats: tuple[Characteristic, ...] = ()
    if event.kind in RESULT_EITHER_WAY:
        stats = tuple(
            s
            for s in CHARACTERISTICS
            if not c.ruleset.problems(
                Advancing(player, team, bare.model_copy(update={"characteristic": s}))
            )
        )
    return Choice(stats, tuple(skills_given(c.ruleset, team, player, bare)))


def refuse_star_roll_unchosen(
    c: Context, team: TeamRow, player: PlayerRow, event: ev.PlayerAdvanced
) -> None:
    """A Star Player Roll the ledger rolled, sent without a choice, is refused naming its
    dice and what they give. It is not recorded first (``ROLLED_FIRST``): there is no
    other kind or column to choose, and its dice are the same on every try
    (``keyed_dice``), so the same command with the choice takes them."""
    if event.kind != "star_roll" or event.skill or event.characteristic:
        return
    if not any(d.source == "ledger" for d in event.dice):
        return
    if choice := choice_of(c, team, player, event):
        rolled = rolls_said((d.purpose, d.values) for d in event.dice)
        raise ChoiceNeeded(
            f"the ledger's Star Player Roll for {player.name} ({rolled}) gives"
            f" {choice.said()}: name what he takes, and the same dice stand"
        )


def choice_waiting(c: Context, team: TeamRow, player: PlayerRow, roll: Waiting) -> Choice:
    """What the player's waiting roll lets him take."""
    asked = ev.PlayerAdvanced(
        team=team.team_id,
        player=player.player_id,
        kind=roll.kind,
        category=roll.category,
        dice=roll.dice,
    )
    return choice_of(c, team, player, asked)


def after_the_roll(
    c: Context, team: TeamRow, player: PlayerRow, event: ev.PlayerAdvanced
) -> ev.PlayerAdvanced | ev.AdvancementRolled | None:
    """What to record instead of ``event``, refused as it stands, when the ledger rolled
    its dice: the advancement with the one skill they give, if it names none (seed 001,
    'New Skills': "If you roll the same Skill both times, you must choose that one"); else
    the roll, when they leave a choice (none made, or one they do not give); else nothing,
    and the refusal stands (he cannot take the advancement whatever the dice)."""
    if not rolled_by_ledger(event):
        return None
    choice = choice_of(c, team, player, event)
    if not choice:
        return None
    if not choice.stats and len(choice.skills) == 1 and event.skill is None:
        return event.model_copy(update={"skill": choice.skills[0]})
    return ev.AdvancementRolled(
        team=event.team,
        player=event.player,
        kind=event.kind,
        category=event.category,
        dice=event.dice,
    )
