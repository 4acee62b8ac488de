"""Signing a hireling after his game: the hiring step of the post-game sequence, from the
match page, as ``ledger team hire TEAM POSITION NAME --journeyman ID --match MATCH``.

A journeyman or mercenary who played may join the roster for good and keeps the SPP he
earned in that game (seed 001 'Hiring, Firing and Temporarily Retiring' step 5; seed 000
rules 3k and 8a; seed 004 'Freebooters'); one not signed leaves with them. The form shows
what he earned (the fold's figure on the match's row) and the price the edition asks of
the team now; the command checks everything again and its sentence is shown beside the
form when it refuses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.commands import HirePlayer
from ledger.application.service import LeagueLedger
from ledger.application.teams import hire_price
from ledger.domain.state import MatchRow
from ledger.errors import LedgerError, UnknownPlayer
from ledger.reports.match_sheet import hireling_position
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_forms import (
    Calling,
    Errors,
    errors_of,
    number,
    see_other,
    team_crumbs,
    valid,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, page
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)

SIGN_FIELDS = {"number-taken": "number", "invalid-input": "form"}
PATH = "/leagues/{league}/teams/{team}/sign/{match}/{hireling}"


def signed_hirelings(row: MatchRow) -> dict[str, str]:
    """The match's hirelings their team signed after it, by hireling id: the player each
    became (the fold records it on his line of the match's row)."""
    return {h: str(kept["signed"]) for h, kept in row.hirelings.items() if kept.get("signed")}


def played(league: reads.League, team: str, match: str, hireling: str) -> dict[str, Any]:
    """What the fold kept of the hireling in that match (his name, kind, position, SPP)."""
    row = reads.match_row(league, match)
    kept = row.hirelings.get(hireling)
    if kept is None or kept.get("team") != team or row.status != "played":
        raise UnknownPlayer(f"no hireling '{hireling}' played for {team} in match {match}")
    return kept


def signing(
    league: str,
    team: str,
    match: str,
    hireling: str,
    kept: Mapping[str, Any],
    number: int | None = None,
) -> HirePlayer:
    """The command that signs him: ``ledger team hire TEAM POSITION NAME --journeyman ID
    --match MATCH``."""
    position = str(kept.get("star") or kept.get("position") or "")
    name = str(kept.get("name", ""))
    return HirePlayer(league, team, position, name, number=number, journeyman=hireling, match=match)


def asked(ledger: LeagueLedger, command: HirePlayer) -> tuple[int | None, Errors]:
    """What the edition charges to sign him now (ZAL adds the rise for his SPP), from the
    command's own planning; when it would refuse him (signed already, a full roster), its
    reason instead. A treasury short of the price is said when the form is sent."""
    try:
        return hire_price(ledger.context(command.league), command), {}
    except LedgerError as error:
        return None, errors_of(error, SIGN_FIELDS)


def sign_form(
    request: Request,
    league: str,
    team: str,
    match: str,
    hireling: str,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    row = found.queries.team(team)
    kept = played(found, team, match, hireling)
    signed_as = signed_hirelings(reads.match_row(found, match)).get(hireling)
    price, refused = (
        (None, {}) if signed_as else asked(ledger, signing(league, team, match, hireling, kept))
    )
    kind = str(kept.get("kind", ""))
    return page(
        request,
        "sign.html.j2",
        status=status,
        title=f"Sign {kept.get('name')} for {row.name}",
        crumbs=team_crumbs(found, row),
        league=found,
        team=row,
        match=match,
        hired=kept,
        position=hireling_position(
            found.queries, team, kind, kept.get("position"), kept.get("star")
        ),
        price=price,
        signed_as=signed_as,
        source=found.ruleset.hireling_spp_source or None,
        values=values,
        errors=errors or refused,
    )


@router.get(PATH)
@needs("hire")
def sign_page(request: Request, league: str, team: str, match: str, hireling: str) -> HTMLResponse:
    return sign_form(request, league, team, match, hireling, {}, {})


@router.post(PATH)
@needs("hire")
async def sign(
    request: Request, league: str, team: str, match: str, hireling: str, call: Calling
) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> str:
        kept = played(reads.open_league(ledger, league), team, match, hireling)
        shirt = number(values, "number", "a shirt number", low=1)
        command = signing(league, team, match, hireling, kept, shirt)
        return str(valid(lambda: ledger.handle(command, by=by)))

    try:
        player = await run_in_threadpool(call.write, command)
    except LedgerError as error:
        return await run_in_threadpool(
            sign_form,
            request,
            league,
            team,
            match,
            hireling,
            values,
            errors_of(error, SIGN_FIELDS),
            status_of(error),
        )
    return see_other(f"/leagues/{league}/players/{player}")
