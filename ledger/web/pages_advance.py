"""The advancement form: a player spends SPP, or takes his Star Player Roll, from a page,
as ``ledger team advance`` and the API's ``.../advancements`` do (``AdvancePlayer``).

What is offered (``pages_advance_offers``) is what the league's edition answers, never a
rule read here: the kinds are the ruleset's (``Ruleset.advancement_kinds``: the
Advancement Table's columns in BB2025 and BB2020, the Star Player Roll in LRB6, ZAL,
gold4 and dz3), each priced by the ruleset (``Ruleset.advancement``) and shown, not
offered, with the command's sentence when the command would refuse it now (too few SPP,
no roll due). The skill pick-list holds the skills the ruleset accepts for each kind, SPP
aside (a Star Player Roll: on a roll without a double, then on a double), the traits
apart from the skills (a trait is always in force, and many are failings); where no skill
passes without more dice (ZAL's Ageing Roll), it lists the edition's skills and the
command decides. The characteristics are those some roll lets the ruleset raise (gold4's
profiles have no PA, its tables raise none), else the player's profile's. The dice are
those rolled at the table, or rolled by the ledger when asked (the CLI's ``--roll``). A
random skill's rolls typed in and sent without a skill come back as the choice they give
(the skill list narrowed to it, ``dice_choice``), for the coach to send with the same
dice. The ledger's dice, when they leave a choice, are recorded as a roll before it
(``advance_rolls``): the form then asks only what the roll leaves to choose, and a
refusal never shows the ledger's dice. The POST runs ``AdvancePlayer`` with what was
chosen; its refusal is shown beside the field it is about.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.advance_rolls import RANDOM, Choice, Waiting, choice_waiting, waiting
from ledger.application.commands import AdvancePlayer
from ledger.application.service import LeagueLedger
from ledger.domain.events import AdvancementKind, AdvancementRolled, PlayerAdvanced
from ledger.domain.state import PlayerRow
from ledger.domain.values import CHARACTERISTICS, Characteristic, DiceRoll
from ledger.errors import ChoiceNeeded, InvalidAdvancement, LedgerError, UnknownPlayer
from ledger.rules.asked import Closing
from ledger.rules.protocol import Ruleset
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_advance_offers import (
    KIND_NAMES,
    Asking,
    DieField,
    SkillGroup,
    SkillOffer,
    categories,
    dice_choice,
    die_fields,
    kind_offers,
    skill_fields,
    skill_groups,
    stat_offers,
    worth,
)
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

router = APIRouter(route_class=PageRoute, include_in_schema=False)

GIVEN = "What the dice give"
"""The skill list's one group once a random skill's rolls are in."""

ADVANCE_FIELDS = {
    "choice-needed": "skill",
    "unknown-player": "form",
    "invalid-input": "dice",
    "advancement-due": "form",
}


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
    choice: tuple[SkillOffer, ...] = (),
) -> HTMLResponse:
    """The form; ``choice``: what the dice sent give, the skill list narrowed to it. A
    player whose roll the ledger recorded takes his advancement from it: the form asks
    only what it leaves to choose (``roll_choice``)."""
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    row = found.queries.team(team)
    who = player_of(found, team, player)
    asking = Asking(found.ruleset, who, row)
    kinds = kind_offers(asking)
    waits, roll_gives = waiting(who), ""
    if waits is not None:
        groups, stats, offered = roll_choice(ledger, league, asking, waits)
        roll_gives = offered.said()
    else:
        groups = [SkillGroup(GIVEN, choice)] if choice else skill_groups(asking, kinds)
        stats = stat_offers(asking)
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
        groups=groups,
        choice=[offer.name for offer in choice],
        stats=stats,
        categories=categories(asking),
        dice=die_fields(found.ruleset, skill_fields(values)),
        targets=found.ruleset.characteristic_targets,
        waits=waits,
        roll_gives=roll_gives,
        values=values,
        errors=errors,
    )


def roll_choice(
    ledger: LeagueLedger, league: str, asking: Asking, waits: Waiting
) -> tuple[list[SkillGroup], tuple[Characteristic, ...], Choice]:
    """The skills and characteristics the recorded roll lets him take (a random skill's
    one or two; a characteristic roll's, or any skill he may take instead)."""
    offered = choice_waiting(ledger.context(league), asking.team, asking.player, waits)
    label = "Or a skill instead" if offered.stats else GIVEN
    skills = tuple(SkillOffer(name, worth(asking, waits.kind, name)) for name in offered.skills)
    return [SkillGroup(label, skills)], offered.stats, offered


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


def chosen(
    league: str, team: str, player: str, values: Mapping[str, str], ruleset: Ruleset
) -> AdvancePlayer:
    kind = values.get("kind", "").strip()
    if kind not in KIND_NAMES:
        offered = ", ".join(KIND_NAMES[k] for k in ruleset.advancement_kinds)
        sent = f", not '{kind[:30]}'" if kind else ""
        raise FieldInvalid("kind", f"choose the kind of advancement ({offered}){sent}")
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
        dice=rolls_of(values, die_fields(ruleset, skill_fields(values))),
        category=values.get("category", "").strip() or None,
        roll_missing=values.get("roll_missing", "") == "1",
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
    if asking.refusal(changed, asking.plenty) != said:
        return field
    return "category" if column_at_fault(asking, event, said) else "dice"


def column_at_fault(asking: Asking, event: PlayerAdvanced, said: str) -> bool:
    """Whether a random skill's refusal is about its Skill Table column: it changes with
    another column of his."""
    if event.kind not in RANDOM:
        return False
    columns = (code for code, _ in categories(asking) if code != event.category)
    tried = (event.model_copy(update={"category": code}) for code in columns)
    return any(asking.refusal(other, asking.plenty) != said for other in tried)


@router.post("/leagues/{league}/teams/{team}/players/{player}/advance")
@needs("advance")
async def advance(request: Request, league: str, team: str, player: str, call: Calling) -> Response:
    values = await values_of(request)
    kept = dict(values)
    sent: list[AdvancePlayer] = []
    answers: list[PlayerAdvanced | AdvancementRolled] = []

    def command(ledger: LeagueLedger, by: str) -> None:
        found = reads.open_league(ledger, league)
        sent.append(chosen(league, team, player, kept, found.ruleset))
        answers.append(valid(lambda: ledger.handle(sent[-1], by=by)))

    try:
        await run_in_threadpool(call.write, command)
    except LedgerError as error:
        # the ledger's dice are not shown with a refusal: shown, they would be known
        # before the advancement they are for is chosen (``advance_rolls``)
        return await run_in_threadpool(refused, request, sent, values, error)
    if answers and isinstance(answers[-1], AdvancementRolled):
        return see_other(f"/leagues/{league}/teams/{team}/players/{player}/advance#rolled")
    return see_other(f"/leagues/{league}/players/{player}?advanced=1")  # saying what he took


def refused(
    request: Request, sent: Sequence[AdvancePlayer], values: Mapping[str, str], error: LedgerError
) -> HTMLResponse:
    """The form again: with the skills the dice give to choose from when a random skill's
    rolls came without one (the next step, no refusal: 200); else with the refusal beside
    the field it is about."""
    slugs = request.path_params
    league, team, player = slugs["league"], slugs["team"], slugs["player"]
    errors, status = errors_of(error, ADVANCE_FIELDS), status_of(error)
    choice: tuple[SkillOffer, ...] = ()
    if isinstance(error, InvalidAdvancement) and not isinstance(error, ChoiceNeeded) and sent:
        ledger, asked = ledger_of(request), sent[-1]
        choice = given(ledger, asked)
        if choice and asked.skill is None:
            errors, status = {}, 200
        else:
            errors = {field_at_fault(ledger, asked, error.message): (error.code, error.message)}
    return advance_form(request, league, team, player, values, errors, status, choice)


def given(ledger: LeagueLedger, command: AdvancePlayer) -> tuple[SkillOffer, ...]:
    """The skills the command's dice let the player take (a random skill's rolls)."""
    found = reads.open_league(ledger, command.league)
    player = player_of(found, command.team, command.player)
    asking = Asking(found.ruleset, player, found.queries.team(command.team))
    return dice_choice(asking, command.kind, command.dice, command.category)


# --- where the form is linked from ----------------------------------------------------------


def must_advance(found: reads.League, team: str) -> list[PlayerRow]:
    """The team's players the edition says must take an advancement before the team closes
    its post-game sequence (BB2025: SPP enough for a characteristic improvement)."""
    row = found.queries.team(team)
    players = found.queries.roster(team).players
    return [p for p in players if found.ruleset.problems(Closing(row, [p]))]
