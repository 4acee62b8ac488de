"""The re-draft form: a coach takes the team into the next season from a page (seed 001
'Off-season and Re-drafting'), as ``ledger team redraft`` and the API's ``.../redraft``
do (``Redraft``).

Everything shown is the application's answer (``redrafts.redraft_offer``, from the
functions the command decides with): whether the team may re-draft now, each player's
re-hire price, the re-rolls and staff it may carry at their standard cost, the Re-draft
Budget and how it is made up, and the Rest & Relaxation rolls asked, which are entered as
rolled at the table or rolled by the ledger. The team page links the form only when the
command's own check (``redrafts.redraft_turn``) lets the team re-draft; a refusal of the
POST is the form again, as filled, with the command's sentence beside the field.
"""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.commands import Redraft
from ledger.application.context import Context
from ledger.application.redrafts import (
    Entries,
    RedraftOffer,
    carried,
    redraft_offer,
    redraft_turn,
)
from ledger.application.service import LeagueLedger
from ledger.errors import LedgerError
from ledger.rules.protocol import DiceNeed
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_forms import (
    Calling,
    Errors,
    FieldInvalid,
    dice_values,
    errors_of,
    number,
    only_offered,
    see_other,
    team_crumbs,
    valid,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, page
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)

PATH = "/leagues/{league}/teams/{team}/redraft"
KEEP, CARRY, DIE, NONE = "keep-", "carry-", "die-", "rehire-none"
"""Form fields: ``keep-PLAYER`` (a checkbox), ``rehire-none`` (none of them kept, said
so: no one ticked by mistake lets the roster go), ``carry-ITEM`` (how many), and
``die-PURPOSE-PLAYER`` (a roll, as rolled at the table)."""
REDRAFT_FIELDS = {
    "insufficient-treasury": "budget",
    "invalid-dice": "dice",
    "invalid-input": "dice",
    "not-allowed": "keep",
    "unknown-player": "keep",
    "player-not-in-team": "keep",
}


def die_key(need: DiceNeed) -> str:
    return f"{DIE}{need.purpose}-{need.subject}"


def offered(found: reads.League, team: str) -> bool:
    """Whether the team may re-draft now, as the command decides it: the team page links
    the form only then. Asked of the league as the page shows it (its row, the guard's),
    not of a league read again."""
    context = Context(view=found.view, league=found.row, ruleset=found.ruleset)
    try:
        redraft_turn(context, team)
    except LedgerError:
        return False
    return True


def redraft_form(
    request: Request,
    league: str,
    team: str,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    """The form; when the team may not re-draft now, the error page with the reason."""
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    offer = redraft_offer(ledger.context(league), team)
    return page(
        request,
        "redraft.html.j2",
        status=status,
        title=f"Re-draft {offer.team.name} for season {offer.season}",
        crumbs=team_crumbs(found, offer.team),
        league=found,
        offer=offer,
        targets=found.ruleset.characteristic_targets,
        die_key=die_key,
        values=values,
        errors=errors,
    )


@router.get(PATH)
@needs("redraft")
def redraft_page(request: Request, league: str, team: str) -> HTMLResponse:
    return redraft_form(request, league, team, {}, {})


def chosen(offer: RedraftOffer, league: str, values: Mapping[str, str]) -> Redraft:
    """The command the form asks for: the players ticked, what is carried, the rolls
    entered (a field left empty is a roll not made yet)."""
    rehires = {r.player.player_id for r in offer.rehires}
    only_offered(values, KEEP, rehires, "a player to re-hire", "keep")
    only_offered(values, CARRY, {held.item.id for held in offer.carry}, "an item to carry", "form")
    rolls = {die_key(need).removeprefix(DIE) for need in offer.dice}
    only_offered(values, DIE, rolls, "a roll", "dice")
    keep = [r.player.player_id for r in offer.rehires if values.get(KEEP + r.player.player_id)]
    none = values.get(NONE) == "1"
    if offer.rehires and not keep and not none:  # one click would let the whole roster go
        raise FieldInvalid(
            "keep", "tick the players to re-hire, or 'Re-hire none of them' to draft anew"
        )
    if keep and none:
        raise FieldInvalid("keep", "players are ticked and 'Re-hire none of them' too")
    carry = {}
    for held in offer.carry:
        label = f"{held.item.name} to carry"
        if count := number(values, CARRY + held.item.id, label, low=0):
            carry[held.item.id] = count
    dice: Entries = {}
    for need in offer.dice:
        rolled = dice_values(values.get(die_key(need), ""), need.purpose)
        if rolled is not None and need.subject is not None:  # each roll is a player's
            dice.setdefault(need.purpose, {})[need.subject] = rolled
    roll = values.get("roll_missing") == "1"
    return Redraft(league, offer.team.team_id, keep=keep, carry=carry, dice=dice, roll_missing=roll)


def field_at_fault(ledger: LeagueLedger, command: Redraft, error: LedgerError) -> Errors:
    """Where the refusal is shown: a carry the command's own check refuses with this very
    sentence is shown beside its count; any other by its code."""
    if error.code == "invalid-input" and not isinstance(error, FieldInvalid):
        c = ledger.context(command.league)
        team = c.team(command.team)
        for item, count in (command.carry or {}).items():
            try:
                carried(c, team, item, count)
            except LedgerError as refused:
                if refused.message == error.message:
                    return {CARRY + item: (error.code, error.message)}
    return errors_of(error, REDRAFT_FIELDS)


@router.post(PATH)
@needs("redraft")
async def redraft(request: Request, league: str, team: str, call: Calling) -> Response:
    values = await values_of(request)
    sent: list[Redraft] = []

    def command(ledger: LeagueLedger, by: str) -> None:
        sent.append(chosen(redraft_offer(ledger.context(league), team), league, values))
        valid(lambda: ledger.handle(sent[-1], by=by))

    try:
        await run_in_threadpool(call.write, command)
    except LedgerError as error:
        errors = errors_of(error, REDRAFT_FIELDS)
        if sent:
            errors = await run_in_threadpool(field_at_fault, ledger_of(request), sent[-1], error)
        return await run_in_threadpool(
            redraft_form, request, league, team, values, errors, status_of(error)
        )
    return see_other(f"/leagues/{league}/teams/{team}")
