"""Firing a player, temporarily retiring one, and letting bought staff go, from the pages:
``ledger team fire``, ``team retire`` and ``team release`` (the API's ``.../fire``,
``.../retire`` and ``.../releases``), each the application's command (``FirePlayer``,
``RetirePlayer``, ``Release``) run as the account.

The player page offers "Fire" and, where the edition has it (``Ruleset.features``: BB2025's
'Temporarily Retiring'), "Temporarily retire" to those who may act for his team; each opens
a page that asks to confirm, with an optional reason. What the page says the move would do
is the ruleset's answer: the team's figures (TV, CTV, TR) with and without him, as the
edition counts them. Whether the command would take it now is the command's own answer
(its plan, run and recorded nowhere: ``pages_forms.refusal``): when it would refuse (a
player who has no Lasting Injury, a BB2025 team left with fewer than 11 to play), the
page shows its sentence instead of the button. The buy page lists what the team holds to
let go (``pages_forms.release_offers``); its release form posts here. A refusal is the
form again with the command's sentence, nothing written; success goes to the team page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.commands import FirePlayer, Release, RetirePlayer
from ledger.application.service import LeagueLedger
from ledger.domain.state import ON_ROSTER, PlayerRow, TeamRow
from ledger.errors import LedgerError, UnknownPlayer
from ledger.rules.protocol import Feature, Ruleset
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_forms import (
    Calling,
    Errors,
    buy_form,
    count,
    errors_of,
    reason_of,
    refusal,
    required,
    see_other,
    team_crumbs,
    valid,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, may, page, who
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)

PLAYER = "/leagues/{league}/teams/{team}/players/{player}"
MOVE_FIELDS = {"invalid-input": "reason"}
RELEASE_FIELDS = {"invalid-input": "release_count"}


@dataclass(frozen=True)
class Move:
    """Firing or temporarily retiring: the access action (and the path's last word), what
    the button says, what the move is called, the command, and the mechanic an edition
    must have for it."""

    action: str
    verb: str
    noun: str
    command: Callable[[str, str, str], FirePlayer | RetirePlayer]
    feature: Feature | None = None
    status: str = ""
    """What the player's status becomes (the fold's ``player_status``): how the page asks
    the ruleset for the team's figures after it. Empty: he leaves the roster."""


MOVES: Mapping[str, Move] = {
    "fire": Move("fire", "Fire", "firing", FirePlayer),
    "retire": Move(
        "retire",
        "Temporarily retire",
        "temporary retirement",
        RetirePlayer,
        Feature.TEMPORARY_RETIREMENT,
        "retired",
    ),
}


def has(ruleset: Ruleset, move: Move) -> bool:
    return move.feature is None or move.feature in ruleset.features


@dataclass(frozen=True)
class MoveOffer:
    """A move the player page offers: its confirmation page, or the command's sentence when
    it would refuse now (shown, not offered)."""

    verb: str
    href: str
    refused: str


def player_moves(request: Request, league: reads.League, player: PlayerRow) -> list[MoveOffer]:
    """What the account may do with the player from his page: none for a player no longer
    on the roster, or for a reader who does not act for his team."""
    if player.status not in ON_ROSTER:
        return []
    me, ledger, team = who(request), ledger_of(request), player.team_id
    offers = []
    for move in MOVES.values():
        if has(league.ruleset, move) and may(me, league.row, move.action, team):
            command = move.command(league.slug, team, player.player_id)
            href = f"/leagues/{league.slug}/teams/{team}/players/{player.player_id}/{move.action}"
            offers.append(MoveOffer(move.verb, href, refusal(ledger, command)))
    return offers


# --- the confirmation page -----------------------------------------------------------------


def figures_after(
    ruleset: Ruleset, team: TeamRow, players: Sequence[PlayerRow], player: PlayerRow, move: Move
) -> dict[str, int]:
    """The team's figures as the edition counts them once the move is made."""
    him = player.player_id
    if move.status:
        changed = player.model_copy(update={"status": move.status})
        after = [changed if p.player_id == him else p for p in players]
    else:
        after = [p for p in players if p.player_id != him]
    return ruleset.team_values(team, after)


def move_form(
    request: Request,
    league: str,
    team: str,
    player: str,
    move: Move,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    row = found.queries.team(team)
    him = found.queries.player(player)
    if him.team_id != row.team_id:  # a page of no use: the command would refuse him
        theirs = found.queries.team(him.team_id).name
        raise UnknownPlayer(f"{him.name} is a player of {theirs}, not of {row.name}")
    players = found.queries.roster(team).players
    return page(
        request,
        "roster_move.html.j2",
        status=status,
        title=f"{move.verb} {him.name}",
        crumbs=[*team_crumbs(found, row), (him.name, f"/leagues/{league}/players/{him.player_id}")],
        league=found,
        team=row,
        player=him,
        move=move,
        refused=refusal(ledger, move.command(league, team, player)),
        before=row.values,
        after=figures_after(found.ruleset, row, players, him, move),
        labels=found.ruleset.value_labels,
        values=values,
        errors=errors,
    )


async def run_move(
    request: Request, league: str, team: str, player: str, move: Move, call: Calling
) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> None:
        reason = reason_of(values, "reason", f"the {move.noun}")
        sent = move.command(league, team, player)
        valid(lambda: ledger.handle(sent, by=by, reason=reason))

    try:
        await run_in_threadpool(call.write, command)
    except LedgerError as error:
        errors = errors_of(error, MOVE_FIELDS)
        return await run_in_threadpool(
            move_form, request, league, team, player, move, values, errors, status_of(error)
        )
    return see_other(f"/leagues/{league}/teams/{team}?done=1")


@router.get(PLAYER + "/fire")
@needs("fire")
def fire_page(request: Request, league: str, team: str, player: str) -> HTMLResponse:
    return move_form(request, league, team, player, MOVES["fire"], {}, {})


@router.post(PLAYER + "/fire")
@needs("fire")
async def fire(request: Request, league: str, team: str, player: str, call: Calling) -> Response:
    return await run_move(request, league, team, player, MOVES["fire"], call)


@router.get(PLAYER + "/retire")
@needs("retire")
def retire_page(request: Request, league: str, team: str, player: str) -> HTMLResponse:
    return move_form(request, league, team, player, MOVES["retire"], {}, {})


@router.post(PLAYER + "/retire")
@needs("retire")
async def retire(request: Request, league: str, team: str, player: str, call: Calling) -> Response:
    return await run_move(request, league, team, player, MOVES["retire"], call)


# --- letting staff go (the form is on the buy page) ----------------------------------------


@router.post("/leagues/{league}/teams/{team}/release")
@needs("release")
async def release(request: Request, league: str, team: str, call: Calling) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> None:
        item = required(values, "release_item", "choose what to let go")
        many = count(values, "release_count", "how many")
        reason = reason_of(values, "release_reason", "the release")
        valid(lambda: ledger.handle(Release(league, team, item, many), by=by, reason=reason))

    try:
        await run_in_threadpool(call.write, command)
    except LedgerError as error:
        errors = errors_of(error, RELEASE_FIELDS, "release_item")
        return await run_in_threadpool(
            buy_form, request, league, team, values, errors, status_of(error)
        )
    return see_other(f"/leagues/{league}/teams/{team}?done=1")
