"""A coach closes their team's post-game sequence from the match page: the dice the
league's rules still ask of the team, each with what it is for, or the ledger rolls them.
The same command as ``ledger match close`` and the API (``CloseMatch``); a
die whose need depends on another's result (BB2025 Expensive Mistakes: the D6, then the
amount's D3 or 2D6) appears once the die before it is entered.
"""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application import matches
from ledger.application.commands import CloseMatch
from ledger.application.service import LeagueLedger
from ledger.errors import LedgerError
from ledger.rules.protocol import DiceNeed
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_advance import must_advance
from ledger.web.pages_forms import Calling, Errors, errors_of, see_other, values_of
from ledger.web.pages_render import PageRoute, ledger_of, page
from ledger.web.pages_report import dice_values
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)

DIE = "die-"
"""The form field of a die: ``die-PURPOSE``."""


def entries_of(values: Mapping[str, str]) -> dict[str, int | list[int]]:
    """The dice entered, by purpose (empty fields are dice not rolled yet)."""
    found: dict[str, int | list[int]] = {}
    for key, text in values.items():
        if not key.startswith(DIE):
            continue
        rolled = dice_values(text, key.removeprefix(DIE))
        if rolled is not None:  # a 0 is entered, and refused as a roll: not a roll missing
            found[key.removeprefix(DIE)] = rolled
    return found


def close_needs(
    ledger: LeagueLedger, league: str, team: str, entries: Mapping[str, int | list[int]]
) -> list[DiceNeed]:
    c = ledger.context(league)
    _, wanted = matches.close_rolls(c, c.team(team), entries, lambda need: None)
    return wanted


def needs_shown(
    ledger: LeagueLedger, league: str, team: str, values: Mapping[str, str]
) -> list[DiceNeed]:
    """The dice to ask for: those the entries that hold lead to, taken in the order the
    rules ask for them. An entry that does not hold (not a number, the wrong count of
    dice) is left out of the reckoning, but its field stays, with what was typed, and the
    error beside the dice says what is wrong."""
    typed = {k.removeprefix(DIE): t for k, t in values.items() if k.startswith(DIE)}
    holding: dict[str, int | list[int]] = {}
    wanted = close_needs(ledger, league, team, holding)
    while taken := [n.purpose for n in wanted if n.purpose in typed and n.purpose not in holding]:
        for purpose in taken:
            try:
                entry = entries_of({DIE + purpose: typed.pop(purpose)})
                close_needs(ledger, league, team, {**holding, **entry})
            except LedgerError:
                continue
            holding.update(entry)
        wanted = close_needs(ledger, league, team, holding)
    return wanted


def close_form(
    request: Request,
    league: str,
    match: str,
    team: str,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    row = reads.match_row(found, match)
    names = found.team_names()
    closed = team in row.closed
    title = f"{names.get(row.home, row.home)} v {names.get(row.away, row.away)}"
    wanted = [] if closed else needs_shown(ledger, league, team, values)
    return page(
        request,
        "close.html.j2",
        status=status,
        title=f"Close the post-game sequence: {names.get(team, team)}",
        crumbs=[
            ("Leagues", "/"),
            (found.row.name, f"/leagues/{league}"),
            (title, f"/leagues/{league}/matches/{match}"),
        ],
        league=found,
        match=row,
        team=found.queries.team(team),
        closed=closed,
        needs=wanted,
        due=[] if closed else must_advance(found, team),
        values=values,
        errors=errors,
    )


@router.get("/leagues/{league}/matches/{match}/teams/{team}/close")
@needs("close_post_game")
def close_page(request: Request, league: str, match: str, team: str) -> HTMLResponse:
    return close_form(request, league, match, team, {}, {})


@router.post("/leagues/{league}/matches/{match}/teams/{team}/close")
@needs("close_post_game")
async def close(request: Request, league: str, match: str, team: str, call: Calling) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> None:
        roll = values.get("roll_missing") == "1"
        ledger.handle(
            CloseMatch(league, match, [team], dice=entries_of(values), roll_missing=roll), by=by
        )

    try:
        await run_in_threadpool(call.write, command)
    except LedgerError as error:
        fields = {"invalid-dice": "dice", "invalid-input": "dice"}
        return await run_in_threadpool(
            close_form,
            request,
            league,
            match,
            team,
            values,
            errors_of(error, fields),
            status_of(error),
        )
    return see_other(f"/leagues/{league}/matches/{match}")
