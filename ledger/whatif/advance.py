"""Fitting a recorded advancement to the target edition's way of advancing.

BB2025 buys advancements with SPP (a chosen primary skill, a characteristic with its D8);
LRB6/ZAL, gold4 and dz3 give a Star Player Roll at each SPP level. The replay offers the
target's own advancement check (the question ``ledger team advance`` asks) a list of
candidates, most faithful first, and takes the first it allows:

1. the recorded choice, in the target's terms (a skill renamed by the mapping tables, or the
   same characteristic), with the target's dice: rolls the log holds for the same purpose
   and dice are reused, the others drawn from the replay's seeded generator;
2. for a roll edition, what the roll itself gives (a 4+6 must be taken as +1 MA in dz3);
   for BB2025, another characteristic the D8 allows;
3. the fallback skills of ledger/whatif/mappings/skills.yaml, in order.

When the target refuses the recorded choice and a different one for the same reason (the
player has too few SPP there, or no Star Player Roll is due yet), the advancement is not
a matter of choice: it waits (``defer``) until the target allows it.

Worked example: a BB2025 Lineman takes Block as a chosen primary skill at 6 SPP. Replayed
under dz3 he has 6 SPP too (an Experienced player, one Star Player Roll due): the roll is
drawn, say 2+5 = 7, a skill of his categories, so he takes Block. Drawn 4+6 = 10 (no
double) he must take +1 MA instead, which the replay lists as a divergence.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from ledger.domain.events import PlayerAdvanced
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import Characteristic, DiceRoll
from ledger.errors import InvalidAdvancement
from ledger.rules.asked import Advancing
from ledger.rules.dice import DiceBox
from ledger.rules.problems import Problem
from ledger.rules.protocol import Ruleset
from ledger.whatif import mapping

SPEND_SKILL_KINDS = ("random_primary", "chosen_primary", "chosen_secondary")
STATS: tuple[Characteristic, ...] = ("ma", "st", "ag", "av", "pa")


@dataclass(frozen=True)
class Choice:
    kind: str
    skill: str | None = None
    characteristic: Characteristic | None = None

    def describe(self) -> str:
        if self.skill:
            return self.skill
        return f"+1 {self.characteristic.upper()}" if self.characteristic else "nothing"


@dataclass(frozen=True)
class Attempt:
    """What the target allows of a recorded advancement, now."""

    event: PlayerAdvanced | None
    """The advancement to apply; ``None`` when the target allows none now."""
    problems: tuple[Problem, ...] = ()
    """Why the recorded choice is refused (the reason of a divergence, the first its code)."""
    simulated: tuple[DiceRoll, ...] = ()
    """The rolls of ``event`` the log did not hold."""
    choice_matters: bool = True
    """False when the refusal does not depend on what was taken (too few SPP, no roll
    due): the advancement then waits."""


def recorded_choice(event: PlayerAdvanced) -> Choice:
    return Choice(event.kind, event.skill, event.characteristic)


class Roll(NamedTuple):
    """A roll a candidate needs: its purpose and its dice (the target's
    ``advancement_dice``)."""

    purpose: str
    dice: str


Wanted = tuple[Roll, ...]
"""The rolls a candidate needs, by purpose and dice."""


@dataclass
class Fitter:
    source: Ruleset
    target: Ruleset
    box: DiceBox

    @cached_property
    def rolls(self) -> bool:
        """Whether the target gives Star Player Rolls rather than spending SPP."""
        return not self.target.spends_spp

    @cached_property
    def star_roll_sets(self) -> tuple[Wanted, ...]:
        """The sets of rolls a Star Player Roll is read with in the target, in the order
        they are tried (``Ruleset.star_roll_sets``)."""
        dice = self.target.advancement_dice
        return tuple(
            tuple(Roll(purpose=p, dice=dice[p]) for p in purposes)
            for purposes in self.target.star_roll_sets
        )

    @cached_property
    def keeps_category(self) -> bool:
        """Whether a skill's category means the same in the target (same list family)."""
        return mapping.same_family(self.source.id, self.target.id)

    @cached_property
    def characteristic_roll(self) -> tuple[Roll, ...]:
        """The roll a spend edition's characteristic takes: the edition's own die (a D8 in
        bb2025, a D16 in bb2020), if it has one."""
        die = self.target.advancement_dice.get("characteristic")
        return (Roll(purpose="characteristic", dice=die),) if die else ()

    def attempt(self, event: PlayerAdvanced, player: PlayerRow, team: TeamRow) -> Attempt:
        choices = self.choices(event)
        first = next(choices, None)
        if first is None:
            unknown = "no advancement the target edition knows was recorded"
            return Attempt(None, (Problem(InvalidAdvancement, unknown),))
        trial = Trial(self, event, player, team)
        refused: list[Problem] = []
        independent = True
        for rolls in trial.dice_sets(first):
            problems = trial.check(first, rolls)
            if not problems:
                return self.chosen(event, first, rolls)
            refused = refused or problems
            independent = independent and trial.not_a_choice(first, rolls, problems)
        if independent:
            return Attempt(None, tuple(refused), choice_matters=False)
        for choice in choices:
            for rolls in trial.dice_sets(choice):
                if not trial.check(choice, rolls):
                    found = self.chosen(event, choice, rolls)
                    return Attempt(found.event, tuple(refused), found.simulated)
        return Attempt(None, tuple(refused))

    def check(
        self,
        event: PlayerAdvanced,
        choice: Choice,
        rolls: tuple[DiceRoll, ...],
        player: PlayerRow,
        team: TeamRow,
    ) -> list[Problem]:
        return self.target.problems(Advancing(player, team, self.build(event, choice, rolls)))

    def build(
        self, event: PlayerAdvanced, choice: Choice, rolls: tuple[DiceRoll, ...]
    ) -> PlayerAdvanced:
        update = {
            "kind": choice.kind,
            "skill": choice.skill,
            "characteristic": choice.characteristic,
            "category": event.category if self.keeps_category else None,
            "dice": rolls,
        }
        return event.model_copy(update=update)  # unvalidated: built for every candidate

    def chosen(self, event: PlayerAdvanced, choice: Choice, rolls: tuple[DiceRoll, ...]) -> Attempt:
        simulated = tuple(r for r in rolls if r not in event.dice)
        return Attempt(self.build(event, choice, rolls), (), simulated)

    # --- the candidates -----------------------------------------------------------------------

    def choices(self, event: PlayerAdvanced) -> Iterator[Choice]:
        if not self.rolls:
            yield from self.spend_choices(event)
        else:
            yield from self.roll_choices(event)

    def spend_choices(self, event: PlayerAdvanced) -> Iterator[Choice]:
        if event.characteristic is not None:
            yield Choice("characteristic", characteristic=event.characteristic)
            yield from (Choice("characteristic", characteristic=s) for s in STATS)
            yield from (Choice("characteristic", skill=f) for f in mapping.fallback_skills())
            return
        if not event.skill:
            return
        kinds = (event.kind,) if event.kind in SPEND_SKILL_KINDS else SPEND_SKILL_KINDS[1:]
        yield from (Choice(kind, skill=event.skill) for kind in kinds)
        yield from (Choice(kinds[0], skill=f) for f in mapping.fallback_skills())

    def roll_choices(self, event: PlayerAdvanced) -> Iterator[Choice]:
        if event.skill or event.characteristic:
            yield Choice("star_roll", event.skill, event.characteristic)
        yield from (Choice("star_roll", characteristic=s) for s in STATS)
        yield from (Choice("star_roll", skill=f) for f in mapping.fallback_skills())
        yield Choice("star_roll")

    def probe(self, first: Choice) -> Choice:
        """A different choice of the same kind, to tell a refusal of the choice from one of
        the advancement itself."""
        if self.rolls:
            return Choice(first.kind)
        if first.characteristic is not None:
            other = next(s for s in STATS if s != first.characteristic)
            return Choice(first.kind, characteristic=other)
        other_skill = next(f for f in mapping.fallback_skills() if f != first.skill)
        return Choice(first.kind, skill=other_skill)

    # --- the dice -----------------------------------------------------------------------------

    def wanted(self, choice: Choice) -> tuple[Wanted, ...]:
        """The sets of rolls a candidate may be read with, in the order they are tried."""
        if self.rolls:
            return self.star_roll_sets
        return (self.characteristic_roll if choice.kind == "characteristic" else (),)

    def with_rolls(self, event: PlayerAdvanced, wanted: tuple[Roll, ...]) -> tuple[DiceRoll, ...]:
        """The event's own rolls, and those the target needs that it lacks (drawn)."""
        found = list(event.dice)
        for roll in (self.roll(event, w) for w in wanted):
            if roll not in found:
                found.append(roll)
        return tuple(found)

    def roll(self, event: PlayerAdvanced, wanted: Roll) -> DiceRoll:
        for roll in event.dice:
            if roll.purpose == wanted.purpose and roll.dice == wanted.dice:
                return roll
        self.box.event = event.seq
        values = self.box.draw(wanted.purpose, wanted.dice, event.player)
        # Drawn for these dice, so it fits them: no validation, once per sample and roll.
        return DiceRoll.model_construct(
            purpose=wanted.purpose,
            dice=wanted.dice,
            values=values,
            subject=event.player,
            source="ledger",
        )


@dataclass
class Trial:
    """One attempt's questions, each asked once. A set of dice is drawn once, however many
    candidates read it: drawn again it would be the same roll (the generator is seeded by
    the event, the purpose and the player), only slower. The probe's answer and that of
    the recorded choice read without dice are asked only when they may still decide."""

    fitter: Fitter
    event: PlayerAdvanced
    player: PlayerRow
    team: TeamRow
    drawn: dict[Wanted, tuple[DiceRoll, ...]] = field(default_factory=dict)
    undiced: list[Problem] | None = None
    """The first choice's refusal without dice, once asked."""
    probe: Choice | None = None
    """Another choice of the first's kind (``Fitter.probe``), once made."""

    def dice_sets(self, choice: Choice) -> Iterator[tuple[DiceRoll, ...]]:
        for wanted in self.fitter.wanted(choice):
            rolls = self.drawn.get(wanted)
            if rolls is None:
                rolls = self.drawn[wanted] = self.fitter.with_rolls(self.event, wanted)
            yield rolls

    def check(self, choice: Choice, rolls: tuple[DiceRoll, ...]) -> list[Problem]:
        return self.fitter.check(self.event, choice, rolls, self.player, self.team)

    def not_a_choice(
        self, first: Choice, rolls: tuple[DiceRoll, ...], problems: list[Problem]
    ) -> bool:
        """Whether ``first`` was refused before the dice are read and whatever is taken."""
        if self.undiced is None:
            self.undiced = self.check(first, ())
        if problems != self.undiced:
            return False
        if self.probe is None:
            self.probe = self.fitter.probe(first)
        return problems == self.check(self.probe, rolls)
