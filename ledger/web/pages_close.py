"""A coach closes their team's post-game sequence from the match page: the dice the
league's rules still ask of the team, each with what it is for, or the ledger rolls them.
The same command as ``ledger match close`` and the API (``CloseMatch``); a
die whose need depends on another's result (BB2025 Expensive Mistakes: the D6, then the
amount's D3 or 2D6) appears once the die before it is entered.

The form links what comes first (hiring, buying, each player's advancement); once closed,
the match page shows what each side's post-game came to (``post_game``), as ``ledger match
show`` reads it from the read models.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application import closing
from ledger.application.commands import CloseMatch
from ledger.application.service import LeagueLedger
from ledger.domain.state import MatchRow, PlayerRow, TeamRow
from ledger.errors import InvalidDice, LedgerError, UnknownTeam
from ledger.reports.match_model import SideSheet
from ledger.reports.match_sheet import match_sheet
from ledger.rules.protocol import DiceNeed
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_advance import must_advance
from ledger.web.pages_advance_offers import Asking, kind_offers
from ledger.web.pages_forms import (
    Calling,
    Errors,
    dice_values,
    errors_of,
    see_other,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, may, page, who
from ledger.web.problems import status_of
from ledger.words import possessive

router = APIRouter(route_class=PageRoute, include_in_schema=False)

DIE = "die-"
"""The form field of a die: ``die-PURPOSE``."""
TEAM_FORMS = (("hire", "Hire a player", "hire"), ("buy", "Buy re-rolls, staff, fans", "buy"))
"""The team's forms the close form links, as (the action each needs, its label, its path
under the team's): what a team does after a game, before it closes."""


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
    _, wanted = closing.close_rolls(c, c.team(team), entries, lambda need: None)
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
    asked: Mapping[str, str] | None = None,
) -> HTMLResponse:
    """``asked``: the question beside each die the dice entered call for next."""
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    closing.check_closes(found.ruleset)  # no form for a close the command refuses
    row = reads.match_row(found, match)
    names = found.team_names()
    if team not in (row.home, row.away, *row.others):  # no form for a close the command refuses
        raise UnknownTeam(f"{names.get(team, team)} did not play {reads.match_title(row, names)}")
    closed = team in row.closed
    side = found.queries.team(team)
    title = reads.match_title(row, names)
    wanted = [] if closed else needs_shown(ledger, league, team, values)
    due = [] if closed else must_advance(found, team)
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
        team=side,
        closed=closed,
        needs=wanted,
        due=due,
        first=[] if closed else first_steps(request, found, side, due),
        values=values,
        errors=errors,
        asked=asked or {},
    )


def next_dice(
    ledger: LeagueLedger, league: str, team: str, values: Mapping[str, str]
) -> dict[str, str]:
    """The dice the dice entered call for next, which the form did not ask yet, each with
    its question (BB2025 Expensive Mistakes: a D6 of 1 with 205,000 in the treasury is a
    catastrophe: "Catastrophe incident! Roll 2D6 for the expensive mistakes amount, and
    enter it here."). The next step of the sequence, as the docs describe it, not a
    mistake; none when a die the form asked was left empty (that is one). The form asked
    the dice no entry leads to, and those it was sent with."""
    wanted = needs_shown(ledger, league, team, values)
    first = {n.purpose for n in close_needs(ledger, league, team, {})}
    new = [n for n in wanted if n.purpose not in first and DIE + n.purpose not in values]
    if any(n not in new and not values.get(DIE + n.purpose, "").strip() for n in wanted):
        return {}
    return {n.purpose: question(n) for n in new}


def question(need: DiceNeed) -> str:
    why = need.why[:1].upper() + need.why[1:]
    return f"{why}! Roll {need.dice} for the {need.purpose.replace('_', ' ')}, and enter it here."


def first_steps(
    request: Request, league: reads.League, team: TeamRow, due: Sequence[PlayerRow]
) -> list[tuple[str, str]]:
    """What the form asks done before closing, as links where the account may: hiring,
    buying, each player who may spend SPP now (but those ``due``, listed apart), and the
    team's page."""
    me, base = who(request), f"/leagues/{league.slug}/teams/{team.team_id}"
    steps = [
        (label, f"{base}/{path}")
        for action, label, path in TEAM_FORMS
        if may(me, league.row, action, team.team_id)
    ]
    if may(me, league.row, "advance", team.team_id):
        shown = {p.player_id for p in due}
        steps += [
            (f"Advance {p.name} ({p.spp} SPP)", f"{base}/players/{p.player_id}/advance")
            for p in advancing(league, team)
            if p.player_id not in shown
        ]
    return [*steps, (f"{possessive(team.name)} page", base)]


def advancing(league: reads.League, team: TeamRow) -> list[PlayerRow]:
    """The team's players who may spend SPP now (``may_advance``)."""
    players = league.queries.roster(team.team_id).players
    return [p for p in players if may_advance(league, team, p)]


def may_advance(league: reads.League, team: TeamRow, player: PlayerRow) -> bool:
    """Whether the edition would let ``player`` take an advancement now (SPP enough, a
    roll due), asked as the advancement form asks it: a kind it offers, not only shows
    (``kind_offers``)."""
    if player.status != "active" or player.kind != "regular":
        return False
    return any(not offer.refused for offer in kind_offers(Asking(league.ruleset, player, team)))


def post_game(ledger: LeagueLedger, league: reads.League, row: MatchRow) -> dict[str, SideSheet]:
    """Each side's post-game, by team: the treasury lines of the report and of its close
    (winnings, Expensive Mistakes... with the ruleset's own notes), its fans before and
    after, and the event that closed it; none for a match not played."""
    if row.status != "played":
        return {}
    return {side.team_id: side for side in match_sheet(ledger, league.queries, row.match_id).sides}


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
        asked: dict[str, str] = {}
        if isinstance(error, InvalidDice) and values.get("roll_missing") != "1":
            asked = await run_in_threadpool(next_dice, ledger_of(request), league, team, values)
        if asked:  # the next question, asked as the form asks the first die: 200
            form = partial(close_form, request, league, match, team, values, {}, 200, asked)
            return await run_in_threadpool(form)
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
    return see_other(f"/leagues/{league}/matches/{match}?closed={quote(team)}")  # says it
