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
from ledger.application.context import draft
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.state import MatchRow, PlayerRow, TeamRow
from ledger.errors import LedgerError, UnknownPlayer
from ledger.projections.gather import hire_rows
from ledger.reports.match_sheet import hireling_position, read_event
from ledger.rules.asked import Hiring
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

SIGN_FIELDS = {"name-taken": "number", "invalid-input": "form"}
PATH = "/leagues/{league}/teams/{team}/sign/{match}/{hireling}"


def signed_hirelings(ledger: LeagueLedger, league: reads.League, row: MatchRow) -> dict[str, str]:
    """The match's hirelings their team signed after it, by hireling id: the player each
    became (a ``PlayerHired`` naming the hireling and the match)."""
    if row.recorded_seq is None:
        return {}
    signed = {h: signed_as(ledger, league, row, h, kept) for h, kept in row.hirelings.items()}
    return {h: player for h, player in signed.items() if player is not None}


def signed_as(
    ledger: LeagueLedger, league: reads.League, row: MatchRow, hireling: str, kept: dict[str, Any]
) -> str | None:
    """Only the team's later hires whose summary names him are read from the log; any
    later hire may be his (seed 000 rule 3k: "after the game (or later during the season)")."""
    for ref in league.queries.history(f"team:{kept.get('team', '')}"):
        named = str(kept.get("name", "")) in ref.summary
        if ref.event_type != "PlayerHired" or ref.voided or ref.seq < (row.recorded_seq or 0):
            continue
        hired = read_event(ledger, league.queries, ref.seq) if named else None
        if isinstance(hired, ev.PlayerHired) and (hired.from_match, hired.hireling) == (
            row.match_id,
            hireling,
        ):
            return hired.player
    return None


def played(league: reads.League, team: str, match: str, hireling: str) -> dict[str, Any]:
    """What the fold kept of the hireling in that match (his name, kind, position, SPP)."""
    row = reads.match_row(league, match)
    kept = row.hirelings.get(hireling)
    if kept is None or kept.get("team") != team or row.status != "played":
        raise UnknownPlayer(f"no hireling '{hireling}' played for {team} in match {match}")
    return kept


def asked_price(league: reads.League, team: TeamRow, match: str, hireling: str) -> int | None:
    """What the edition charges to sign him now (ZAL adds the rise for his SPP); None when
    it cannot be said before the command runs (the command then says why it refuses)."""
    kept = league.view.get(MatchRow, league.row.league_id, match)
    info = kept.hirelings.get(hireling, {}) if kept is not None else {}
    star = info.get("star") if info.get("kind") == "star" else None
    fields = {
        "team": team.team_id,
        "player": "p0",
        "name": str(info.get("name", "")),
        "position": str(star or info.get("position") or ""),
        "kind": str(info.get("kind", "journeyman")),
        "hireling": hireling,
        "from_match": match,
        "star": star,
        "price": 0,
    }
    players = league.view.select(PlayerRow, league_id=league.row.league_id, team_id=team.team_id)
    try:
        hired = draft(ev.PlayerHired, fields)
        rows = hire_rows(league.view, team.league_id, team, hired, players)
        return league.ruleset.price(Hiring(hired, rows))
    except LedgerError:
        return None


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
    found = reads.open_league(ledger_of(request), league)
    row = found.queries.team(team)
    kept = played(found, team, match, hireling)
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
        price=asked_price(found, row, match, hireling),
        source=found.ruleset.hireling_spp_source or None,
        values=values,
        errors=errors,
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
        position = str(kept.get("star") or kept.get("position") or "")
        name = str(kept.get("name", ""))
        return str(
            valid(
                lambda: ledger.handle(
                    HirePlayer(
                        league, team, position, name, number=shirt, journeyman=hireling, match=match
                    ),
                    by=by,
                )
            )
        )

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
