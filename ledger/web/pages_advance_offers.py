"""What the advancement form offers (``pages_advance``), each asked of the league's
edition: the kinds of advancement with their price or the command's refusal, the skills
each kind accepts (traits apart), the characteristics some roll may raise, and the dice
fields the rolls are entered in."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations_with_replacement, product
from typing import Any, cast

from ledger.application.advance_rolls import RANDOM
from ledger.application.skill_rolls import PLENTY, SKILL_ROLLS, skills_given
from ledger.domain.events import ADVANCEMENT_NAMES, AdvancementKind, PlayerAdvanced
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import CHARACTERISTICS, Characteristic, DiceRoll, dice_shape
from ledger.errors import LedgerError
from ledger.rules.asked import Advancing
from ledger.rules.protocol import Ruleset
from ledger.rules.schema import SKILL_CATEGORIES

KIND_NAMES: Mapping[str, str] = {k: n[:1].upper() + n[1:] for k, n in ADVANCEMENT_NAMES.items()}
"""The kinds as the form's list names them."""
TRAITS = "{label}: traits, which must always be used (some only hinder)"
"""A group's traits (the catalogue's category T), apart from its skills: a trait is no
choice once taken (seed 002, Traits: "a player must follow the rules for a trait if they
apply, and cannot choose to ignore the trait"), and many are failings (Stupid, Wild
Animal, Take Root)."""
ROLL_HINTS = {
    "star_roll": "Both dice, as rolled: their total, and a double, decide what may be taken."
}


@dataclass(frozen=True)
class KindOffer:
    """A kind of advancement: its SPP as the player's next one, and the command's sentence
    when it would refuse it now (shown, not offered)."""

    kind: str
    name: str
    cost: int | None
    refused: str = ""


@dataclass(frozen=True)
class SkillOffer:
    name: str
    worth: int
    """What the skill adds to the player's value."""


@dataclass(frozen=True)
class SkillGroup:
    label: str
    offers: tuple[SkillOffer, ...]


@dataclass(frozen=True)
class DieField:
    """A roll the form asks for: field ``die-KEY``, the purpose and dice it is recorded as,
    and the kinds the ledger rolls it for when asked (none: a roll the rules ask for only
    after another's result, such as ZAL's ageing effect, is entered)."""

    key: str
    purpose: str
    dice: str
    label: str
    hint: str
    rolled_for: tuple[str, ...] = ()


@dataclass(frozen=True)
class Asking:
    """What the form asks the ruleset about one player: the event a choice would be, and
    the first sentence of its refusal (empty: the command would take it)."""

    ruleset: Ruleset
    player: PlayerRow
    team: TeamRow

    @cached_property
    def plenty(self) -> PlayerRow:
        return self.player.model_copy(update={"spp": PLENTY, "spp_earned": PLENTY})

    def event(
        self,
        kind: str,
        skill: str | None = None,
        dice: tuple[DiceRoll, ...] = (),
        characteristic: Characteristic | None = None,
    ) -> PlayerAdvanced:
        return PlayerAdvanced(
            team=self.team.team_id,
            player=self.player.player_id,
            kind=cast(AdvancementKind, kind),
            skill=skill,
            characteristic=characteristic,
            dice=dice,
        )

    def refusal(self, event: PlayerAdvanced, player: PlayerRow | None = None) -> str:
        asked = Advancing(player or self.player, self.team, event)
        found = answered(lambda: [p.sentence for p in self.ruleset.problems(asked)])
        if isinstance(found, str):
            return found
        return found[0] if found else ""

    def cost(self, kind: str, skill: str | None = None) -> tuple[int, int] | None:
        """The SPP and the value a choice costs and adds, as the ruleset prices it."""
        priced = answered(lambda: self.ruleset.advancement(self.player, self.event(kind, skill)))
        return None if isinstance(priced, str) else (priced.spp_cost, priced.value_increase)


def answered(ask: Callable[[], Any]) -> Any:
    """What the ruleset answers, or the sentence of the error it raises instead (a player
    whose position the edition does not know: a star)."""
    try:
        return ask()
    except LedgerError as error:
        return error.message


def kind_offers(asking: Asking) -> list[KindOffer]:
    offers = []
    for kind in asking.ruleset.advancement_kinds:
        priced = asking.cost(kind)
        bare = asking.event(kind)
        now, plenty = asking.refusal(bare), asking.refusal(bare, asking.plenty)
        refused = now if now and now != plenty else ""
        cost = priced[0] if priced else None
        offers.append(KindOffer(kind, KIND_NAMES.get(kind, kind), cost, refused))
    return offers


def star_roll(values: tuple[int, int]) -> tuple[DiceRoll, ...]:
    return (DiceRoll(purpose="star_roll", dice="2D6", values=values),)


def probes(
    asking: Asking, kinds: Sequence[KindOffer]
) -> list[tuple[str, str, tuple[DiceRoll, ...]]]:
    """The questions a skill pick-list is made of: each chosen kind; a Star Player Roll's
    skill on a roll that gives one, then on a double."""
    found: list[tuple[str, str, tuple[DiceRoll, ...]]] = []
    for offer in kinds:
        if offer.kind.startswith("chosen_"):
            spp = f" ({offer.cost} SPP)" if offer.cost else ""
            found.append((f"{offer.name}{spp}", offer.kind, ()))
        elif offer.kind == "star_roll":
            found.append(
                ("Star Player Roll: on a roll that gives a skill", "star_roll", star_roll((1, 2)))
            )
            found.append(("Star Player Roll: on a double only", "star_roll", star_roll((1, 1))))
    return found


def skill_groups(asking: Asking, kinds: Sequence[KindOffer]) -> list[SkillGroup]:
    skills = asking.ruleset.catalogue.skills()
    names = [s.name for s in skills]
    traits = {s.name for s in skills if s.category == "T"}
    groups, seen = [], set(asking.player.skills)
    for label, kind, dice in probes(asking, kinds):
        taken = [
            n
            for n in names
            if n not in seen and not asking.refusal(asking.event(kind, n, dice), asking.plenty)
        ]
        seen.update(taken)
        for named, among in ((label, False), (TRAITS.format(label=label), True)):
            offers = tuple(
                SkillOffer(n, worth(asking, kind, n)) for n in taken if (n in traits) == among
            )
            if offers:
                groups.append(SkillGroup(named, offers))
    if groups:
        return groups
    rest = tuple(SkillOffer(n, 0) for n in names if n not in seen)
    return [SkillGroup("The edition's skills (the roll decides which may be taken)", rest)]


def dice_choice(
    asking: Asking, kind: str, dice: tuple[DiceRoll, ...], category: str | None
) -> tuple[SkillOffer, ...]:
    """What a random advancement's rolls let him take, as he stands (his SPP too): each
    skill of the edition the ruleset accepts with these dice, the rules asked and never
    read here (BB2025: one of the two rolled; BB2020: the first he lacks). Nothing for
    another kind, or dice that give nothing he may take."""
    if kind not in RANDOM or not dice:
        return ()
    rolled = asking.event(kind, dice=dice).model_copy(update={"category": category})
    given = skills_given(asking.ruleset, asking.team, asking.player, rolled)
    return tuple(SkillOffer(name, worth(asking, kind, name)) for name in given)


def worth(asking: Asking, kind: str, skill: str) -> int:
    priced = asking.cost(kind, skill)
    return priced[1] if priced else 0


def stat_offers(asking: Asking) -> tuple[Characteristic, ...]:
    """The characteristics some roll lets the ruleset raise for him (SPP aside); where none
    passes without more dice (ZAL's Ageing Roll), those his profile has, for the command to
    decide."""
    rolls = stat_rolls(asking.ruleset)

    def raised(stat: Characteristic) -> bool:
        events = (asking.event(kind, dice=dice, characteristic=stat) for kind, dice in rolls)
        return any(not asking.refusal(event, asking.plenty) for event in events)

    found = tuple(stat for stat in CHARACTERISTICS if raised(stat))
    if found or not rolls:
        return found
    return tuple(stat for stat in CHARACTERISTICS if getattr(asking.player, stat) is not None)


def stat_rolls(ruleset: Ruleset) -> list[tuple[str, tuple[DiceRoll, ...]]]:
    """Every roll a characteristic may be improved on: a Star Player Roll's 2D6 (each pair
    once: the total and a double decide) and each face of a characteristic roll's die."""
    kinds = ruleset.advancement_kinds
    found = []
    if "star_roll" in kinds:
        pairs = combinations_with_replacement(range(1, 7), 2)
        found += [("star_roll", star_roll((a, b))) for a, b in pairs]
    if "characteristic" in kinds and (die := ruleset.advancement_dice.get("characteristic")):
        count, sides = dice_shape(die)
        faces = product(range(1, sides + 1), repeat=count)
        found += [
            ("characteristic", (DiceRoll(purpose="characteristic", dice=die, values=f),))
            for f in faces
        ]
    return found


def skill_fields(values: Mapping[str, str]) -> int:
    """How many Skill Table rolls the form shows: the two the ledger rolls at the least,
    and every one more it rolled past a skill the player has (``skill_rolls``)."""
    sent = [int(found[1]) for key in values if (found := SKILL_FIELD.fullmatch(key))]
    return max(SKILL_ROLLS, *sent) if sent else SKILL_ROLLS


SKILL_FIELD = re.compile(r"die-random_skill-([1-9])")


def die_fields(ruleset: Ruleset, skill_rolls: int = SKILL_ROLLS) -> list[DieField]:
    """The rolls the edition's advancements are made with: the characteristic die (BB2025
    a D8, BB2020 a D16), a random skill's Skill Table rolls (``skill_rolls`` of them), a
    Star Player Roll's 2D6 and what else the edition rolls with it (ZAL's Ageing Roll, and
    its effect)."""
    kinds = ruleset.advancement_kinds
    fields = []
    if "characteristic" in kinds and (die := ruleset.advancement_dice.get("characteristic")):
        hint = "Decides which characteristic may be improved."
        label = f"Characteristic roll ({die})"
        fields.append(
            DieField("characteristic", "characteristic", die, label, hint, ("characteristic",))
        )
    if any(k in kinds for k in RANDOM):
        for n in range(1, skill_rolls + 1):
            hint = "Two dice: the first picks the half of the column, the second the skill."
            label = f"Skill Table roll {n} (2D6)"
            key = f"random_skill-{n}"
            fields.append(DieField(key, "random_skill", "2D6", label, hint, RANDOM))
    if "star_roll" in kinds:
        fields += roll_fields(ruleset)
    return fields


def roll_fields(ruleset: Ruleset) -> list[DieField]:
    """A Star Player Roll's 2D6 and the rolls the edition makes with it
    (``Ruleset.star_roll_sets``): the first set is what every roll needs, and the ledger
    rolls those when asked; one the rules ask for only after another's result (ZAL's
    ageing effect) is entered, or rolled by the command when it is needed."""
    sets = ruleset.star_roll_sets or (("star_roll",),)
    first = set(sets[0])
    fields = []
    for purpose in dict.fromkeys(p for group in sets for p in group):
        dice = ruleset.advancement_dice.get(purpose, "2D6")
        name = KIND_NAMES.get(purpose, purpose.replace("_", " ").capitalize())
        hint = ROLL_HINTS.get(purpose, "Both dice, as rolled, when the rules ask for it.")
        kinds = ("star_roll",) if purpose in first else ()
        fields.append(DieField(purpose, purpose, dice, f"{name} ({dice})", hint, kinds))
    return fields


def categories(asking: Asking) -> list[tuple[str, str]]:
    """A random skill's Skill Table column: the player's primary categories (and his
    secondary ones where a random secondary skill may be taken)."""
    kinds = asking.ruleset.advancement_kinds
    if not any(k in kinds for k in RANDOM):
        return []
    position = answered(
        lambda: asking.ruleset.catalogue.position(asking.player.roster, asking.player.position)
    )
    if isinstance(position, str):
        return []
    found = list(position.primary)
    if "random_secondary" in kinds:
        found += [c for c in position.secondary if c not in found]
    return [(c, SKILL_CATEGORIES.get(c, c)) for c in found]
