"""The advancement form: a player spends SPP, or takes his Star Player Roll, from a page,
as ``ledger team advance`` and the API's ``.../advancements`` do (``AdvancePlayer``).

What is offered is what the league's edition answers, never a rule read here: the kinds
are the ruleset's (``Ruleset.advancement_kinds``: the Advancement Table's columns in
BB2025 and BB2020, the Star Player Roll in LRB6, ZAL, gold4 and dz3), each priced by the
ruleset (``Ruleset.advancement``) and shown, not offered, with the command's sentence
when the command would refuse it now (too few SPP, no roll due). The skill pick-list
holds the skills the ruleset accepts for each kind, SPP aside (a Star Player Roll: on a
roll without a double, then on a double), the traits apart from the skills (a trait is
always in force, and many are failings); where no skill passes without more dice (ZAL's
Ageing Roll), it lists the edition's skills and the command decides. The characteristics
are those some roll lets the ruleset raise (gold4's profiles have no PA, its tables raise
none), else the player's profile's. The dice are those rolled at the table, or rolled by
the ledger when asked (the CLI's ``--roll``); a refusal keeps them in the form, so a
coach chooses among the skills the rolls give and sends the same dice again, as the CLI's
sentence asks. The POST runs ``AdvancePlayer`` with what was chosen; its refusal is shown
beside the field it is about.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations_with_replacement, product
from typing import Any, cast

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.commands import AdvancePlayer
from ledger.application.service import LeagueLedger
from ledger.domain.events import AdvancementKind, PlayerAdvanced
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import CHARACTERISTICS, Characteristic, DiceRoll, dice_shape
from ledger.errors import InvalidAdvancement, LedgerError, UnknownPlayer
from ledger.rules.asked import Advancing, Closing
from ledger.rules.dice import fresh_roll
from ledger.rules.protocol import Ruleset
from ledger.rules.schema import SKILL_CATEGORIES
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_forms import (
    Calling,
    Errors,
    FieldInvalid,
    dice_values,
    errors_of,
    see_other,
    team_crumbs,
    valid,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, page
from ledger.web.problems import status_of
from ledger.whatif import mapping

router = APIRouter(route_class=PageRoute, include_in_schema=False)

KIND_NAMES: Mapping[str, str] = {
    "random_primary": "Random primary skill",
    "chosen_primary": "Chosen primary skill",
    "random_secondary": "Random secondary skill",
    "chosen_secondary": "Chosen secondary skill",
    "characteristic": "Characteristic improvement",
    "star_roll": "Star Player Roll",
}
RANDOM = ("random_primary", "random_secondary")
TRAITS = "{label}: traits, which must always be used (some only hinder)"
"""A group's traits (the catalogue's category T), apart from its skills: a trait is no
choice once taken (seed 002, Traits: "a player must follow the rules for a trait if they
apply, and cannot choose to ignore the trait"), and many are failings (Stupid, Wild
Animal, Take Root)."""
ROLL_HINTS = {
    "star_roll": "Both dice, as rolled: their total, and a double, decide what may be taken."
}
SKILL_ROLLS = 2
"""A random skill's Skill Table rolls the ledger makes when asked (the CLI's ``--roll``):
BB2025 rolls twice and the coach chooses."""
PLENTY = 10**6
"""SPP enough for any advancement: what a pick-list asks the rules with, so that a skill
is listed for what it is, not for what the player can pay now (the kind says that)."""
ADVANCE_FIELDS = {
    "unknown-player": "form",
    "invalid-input": "dice",
    "advancement-due": "form",
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


def die_fields(ruleset: Ruleset) -> list[DieField]:
    """The rolls the edition's advancements are made with: the characteristic die (BB2025
    a D8, BB2020 a D16), a random skill's Skill Table rolls, a Star Player Roll's 2D6 and
    what else the edition rolls with it (ZAL's Ageing Roll, and its effect)."""
    kinds = ruleset.advancement_kinds
    fields = []
    if "characteristic" in kinds and (die := ruleset.advancement_dice.get("characteristic")):
        hint = "Decides which characteristic may be improved."
        label = f"Characteristic roll ({die})"
        fields.append(
            DieField("characteristic", "characteristic", die, label, hint, ("characteristic",))
        )
    if any(k in kinds for k in RANDOM):
        for n in range(1, SKILL_ROLLS + 1):
            hint = "Two dice: the first picks the half of the column, the second the skill."
            label = f"Skill Table roll {n} (2D6)"
            key = f"random_skill-{n}"
            fields.append(DieField(key, "random_skill", "2D6", label, hint, RANDOM))
    if "star_roll" in kinds:
        fields += roll_fields(ruleset)
    return fields


def roll_fields(ruleset: Ruleset) -> list[DieField]:
    """A Star Player Roll's 2D6 and the rolls the edition makes with it, as the what-if
    mapping lists them (docs/whatif.md): the first set is what every roll needs."""
    scheme = mapping.scheme(ruleset.id)
    sets = (
        scheme.dice
        if scheme and scheme.dice
        else ((mapping.Roll(purpose="star_roll", dice="2D6"),),)
    )
    first = {r.purpose for r in sets[0]}
    rolls = {r.purpose: r.dice for group in sets for r in group}
    fields = []
    for purpose, dice in rolls.items():
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


def player_of(found: reads.League, team: str, player: str) -> PlayerRow:
    row = found.queries.player(player)
    if row.team_id != team:
        raise UnknownPlayer(f"{row.name} does not play for {team}")
    return row


def advance_form(
    request: Request,
    league: str,
    team: str,
    player: str,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
    rolled: Sequence[str] = (),
) -> HTMLResponse:
    found = reads.open_league(ledger_of(request), league)
    row = found.queries.team(team)
    who = player_of(found, team, player)
    asking = Asking(found.ruleset, who, row)
    kinds = kind_offers(asking)
    return page(
        request,
        "advance.html.j2",
        status=status,
        title=f"Advance {who.name}",
        crumbs=[*team_crumbs(found, row), (who.name, f"/leagues/{league}/players/{who.player_id}")],
        league=found,
        team=row,
        player=who,
        kinds=kinds,
        groups=skill_groups(asking, kinds),
        stats=stat_offers(asking),
        categories=categories(asking),
        dice=die_fields(found.ruleset),
        targets=found.ruleset.characteristic_targets,
        rolled=rolled,
        values=values,
        errors=errors,
    )


@router.get("/leagues/{league}/teams/{team}/players/{player}/advance")
@needs("advance")
def advance_page(request: Request, league: str, team: str, player: str) -> HTMLResponse:
    return advance_form(request, league, team, player, {}, {})


# --- the choice, as the command takes it ----------------------------------------------------


def rolls_of(values: Mapping[str, str], fields: Sequence[DieField]) -> tuple[DiceRoll, ...]:
    rolls = []
    for field in fields:
        entered = dice_values(values.get(f"die-{field.key}", ""), field.purpose)
        if entered is None:
            continue
        numbers = tuple(entered) if isinstance(entered, list) else (entered,)
        rolls.append(roll_of(field, numbers))
    return tuple(rolls)


def roll_of(field: DieField, numbers: tuple[int, ...]) -> DiceRoll:
    """A roll as entered; dice that are not the field's (a 9 on a D8) are refused beside
    the dice with the sentence the API gives."""
    made: DiceRoll = valid(lambda: DiceRoll(purpose=field.purpose, dice=field.dice, values=numbers))
    return made


def ledger_rolls(
    kind: str, values: dict[str, str], fields: Sequence[DieField], subject: str
) -> list[str]:
    """The rolls the kind is made with that were left empty, rolled by the ledger and put
    in the form, so that a refusal shows them and the coach can send them again."""
    said = []
    for field in fields:
        key = f"die-{field.key}"
        if kind in field.rolled_for and not values.get(key, "").strip():
            rolled = fresh_roll(field.purpose, field.dice, subject)
            values[key] = " ".join(str(v) for v in rolled.values)
            said.append(f"{field.label}: {values[key]}")
    return said


def chosen(
    league: str, team: str, player: str, values: Mapping[str, str], ruleset: Ruleset
) -> AdvancePlayer:
    kind = values.get("kind", "").strip()
    if kind not in KIND_NAMES:
        offered = ", ".join(ruleset.advancement_kinds)
        raise FieldInvalid("kind", f"choose the kind of advancement ({offered}), not '{kind[:30]}'")
    stat = values.get("characteristic", "").strip().lower() or None
    if stat is not None and stat not in CHARACTERISTICS:
        raise FieldInvalid("characteristic", f"'{stat[:10]}' is not a characteristic")
    return AdvancePlayer(
        league,
        team,
        player,
        cast(AdvancementKind, kind),
        skill=values.get("skill", "").strip() or None,
        characteristic=stat,
        dice=rolls_of(values, die_fields(ruleset)),
        category=values.get("category", "").strip() or None,
    )


def field_at_fault(ledger: LeagueLedger, command: AdvancePlayer, said: str) -> str:
    """Which field the command's refusal (``said``) is about, as the rules answer it: the
    kind, when a player with SPP enough would not be refused so (he cannot pay, or no roll
    is due); the choice, when the refusal changes without it (or, none made, with one);
    else the dice, or the column they are rolled on."""
    found = reads.open_league(ledger, command.league)
    player = player_of(found, command.team, command.player)
    asking = Asking(found.ruleset, player, found.queries.team(command.team))
    event = asking.event(command.kind, command.skill, command.dice).model_copy(
        update={"characteristic": command.characteristic, "category": command.category}
    )
    plenty = asking.refusal(event, asking.plenty)
    if plenty != said or command.kind not in found.ruleset.advancement_kinds:
        return "kind"
    if command.characteristic is not None:
        changed = event.model_copy(update={"characteristic": None})
        field = "characteristic"
    else:
        other = next((s.name for s in found.ruleset.catalogue.skills()), "")
        changed = event.model_copy(update={"skill": None if command.skill else other})
        field = "skill"
    return field if asking.refusal(changed, asking.plenty) != said else "dice"


@router.post("/leagues/{league}/teams/{team}/players/{player}/advance")
@needs("advance")
async def advance(request: Request, league: str, team: str, player: str, call: Calling) -> Response:
    values = await values_of(request)
    kept = dict(values)
    sent: list[AdvancePlayer] = []
    rolled: list[str] = []

    def command(ledger: LeagueLedger, by: str) -> None:
        found = reads.open_league(ledger, league)
        if kept.pop("roll_missing", "") == "1":
            who = player_of(found, team, player).player_id
            rolled[:] = ledger_rolls(kept.get("kind", ""), kept, die_fields(found.ruleset), who)
        sent.append(chosen(league, team, player, kept, found.ruleset))
        valid(lambda: ledger.handle(sent[-1], by=by))

    try:
        await run_in_threadpool(call.write, command)
    except LedgerError as error:
        errors = errors_of(error, ADVANCE_FIELDS)
        if isinstance(error, InvalidAdvancement) and sent:
            fault = await run_in_threadpool(
                field_at_fault, ledger_of(request), sent[-1], error.message
            )
            errors = {fault: (error.code, error.message)}
        return await run_in_threadpool(
            advance_form, request, league, team, player, kept, errors, status_of(error), rolled
        )
    return see_other(f"/leagues/{league}/players/{player}")


# --- where the form is linked from ----------------------------------------------------------


def must_advance(found: reads.League, team: str) -> list[PlayerRow]:
    """The team's players the edition says must take an advancement before the team closes
    its post-game sequence (BB2025: SPP enough for a characteristic improvement)."""
    row = found.queries.team(team)
    players = found.queries.roster(team).players
    return [p for p in players if found.ruleset.problems(Closing(row, [p]))]
