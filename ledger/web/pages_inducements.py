"""The inducements form: a team buys its inducements for a fixture from a page, as ``ledger
match inducements`` and the API's ``.../inducements`` do (``BuyInducements``).

What is offered is the application's answer (``inducements.inducement_terms``, which the
command decides with): whether the team may buy now (the side of higher value for the
game goes first), the edition's inducements for the team with each price and limit, and
what it may spend (petty cash, and at most so much of its treasury, with the rules'
reason). The match page links the form, for a fixture not yet played, for each team the
account acts for that may buy now. A refusal is the form again, as filled, with the
command's sentence beside the count it is about, or beside the budget.
"""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.commands import BuyInducements
from ledger.application.inducements import Terms, inducement_terms, priced
from ledger.application.service import LeagueLedger
from ledger.domain.state import MatchRow
from ledger.errors import LedgerError
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_forms import (
    Calling,
    Errors,
    FieldInvalid,
    errors_of,
    number,
    only_offered,
    see_other,
    valid,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, may, page, who
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)

PATH = "/leagues/{league}/matches/{match}/teams/{team}/inducements"
COUNT = "count-"
"""The form field of an inducement: ``count-ITEM``, how many to buy."""
INDUCE_FIELDS = {"insufficient-treasury": "budget"}


def open_to(ledger: LeagueLedger, league: str, match: str, team: str) -> bool:
    """Whether the team may buy its inducements for the fixture now, as the command
    decides it."""
    try:
        inducement_terms(ledger.context(league), match, team)
    except LedgerError:
        return False
    return True


def inducing(request: Request, league: reads.League, row: MatchRow) -> list[str]:
    """The teams of a fixture not yet played that the account may buy inducements for now
    (the match page links the form for each)."""
    if row.status != "scheduled":
        return []
    me, ledger = who(request), ledger_of(request)
    teams = (row.home, row.away)
    return [
        t
        for t in teams
        if may(me, league.row, "inducements", t) and open_to(ledger, league.slug, row.match_id, t)
    ]


def induce_form(
    request: Request,
    league: str,
    match: str,
    team: str,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    """The form; when the team may not buy now, the error page with the reason."""
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    terms = inducement_terms(ledger.context(league), match, team)
    row = terms.match
    names = found.team_names()
    title = reads.match_title(row, names)
    return page(
        request,
        "inducements.html.j2",
        status=status,
        title=f"Inducements for {terms.team.name}",
        crumbs=[
            ("Leagues", "/"),
            (found.row.name, f"/leagues/{league}"),
            (title, f"/leagues/{league}/matches/{match}"),
        ],
        league=found,
        terms=terms,
        offer=sorted(terms.offer.values(), key=lambda item: item.name),
        label=found.ruleset.game_value_label,
        values=values,
        errors=errors,
    )


@router.get(PATH)
@needs("inducements")
def induce_page(request: Request, league: str, match: str, team: str) -> HTMLResponse:
    return induce_form(request, league, match, team, {}, {})


def wanted(terms: Terms, values: Mapping[str, str]) -> dict[str, int]:
    """Each inducement and how many, as counted in the form (empty or 0: none)."""
    only_offered(values, COUNT, terms.offer, "an inducement", "form")
    counts = {}
    for item in terms.offer.values():
        if count := number(values, COUNT + item.id, item.name, low=0):
            counts[item.id] = count
    return counts


def field_at_fault(terms: Terms, command: BuyInducements, error: LedgerError) -> Errors:
    """Where the refusal is shown: beside the count the command's own pricing refuses with
    this very sentence (over the inducement's limit); else by its code."""
    if error.code == "invalid-input" and not isinstance(error, FieldInvalid):
        for item, count in command.wanted.items():
            try:
                priced(terms, item, count)
            except LedgerError as refused:
                if refused.message == error.message:
                    return {COUNT + item: (error.code, error.message)}
    return errors_of(error, INDUCE_FIELDS)


@router.post(PATH)
@needs("inducements")
async def induce(request: Request, league: str, match: str, team: str, call: Calling) -> Response:
    values = await values_of(request)
    sent: list[tuple[Terms, BuyInducements]] = []

    def command(ledger: LeagueLedger, by: str) -> None:
        terms = inducement_terms(ledger.context(league), match, team)
        sent.append((terms, BuyInducements(league, match, team, wanted(terms, values))))
        valid(lambda: ledger.handle(sent[-1][1], by=by))

    try:
        await run_in_threadpool(call.write, command)
    except LedgerError as error:
        errors = field_at_fault(*sent[-1], error) if sent else errors_of(error, INDUCE_FIELDS)
        return await run_in_threadpool(
            induce_form, request, league, match, team, values, errors, status_of(error)
        )
    return see_other(f"/leagues/{league}/matches/{match}")
