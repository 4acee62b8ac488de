"""The appearance fees form (4th edition, ``Feature.APPEARANCE_FEES``): a team pays its
players' fees for a match to come from a page, as ``ledger match fees`` and the API's
``.../appearance-fees`` do (``PayAppearanceFees``).

What is offered is the application's answer (``match_facts.fee_terms``, read from the same
rows the command decides with): each player who may play and asks a fee, with the fee and
whether it is paid, and room for the freebooted stars of the report to come, named by
their hireling row and their cost (4th edition Q&A: freebooted stars charge a fee too).
The match page links the form for a fixture; the report form links it for a game without
one, whose id the form proposes, and the page links back to that report form. A refusal
is the form again, as filled, with the command's sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.commands import PayAppearanceFees
from ledger.application.match_facts import FeeTerms, fee_terms
from ledger.application.service import LeagueLedger
from ledger.errors import LedgerError
from ledger.rules.protocol import Feature
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

PATH = "/leagues/{league}/matches/{match}/teams/{team}/fees"
PAY = "pay-"
"""The form field of a player who asks a fee: ``pay-PLAYER``, ticked to pay it."""
STARS = 2
"""Freebooted star rows the form offers (a team rarely fields more in one game)."""


def fee_path(league: str, match: str, team: str, game: reads.Game | None = None) -> str:
    """The form's address; for a game without a fixture, with the game, so that the page
    links back to its report form."""
    path = f"/leagues/{league}/matches/{match}/teams/{team}/fees"
    if game is None or game.fixture:
        return path
    return f"{path}?{urlencode({'home': game.home, 'away': game.away, 'kind': game.kind})}"


def paying(request: Request, league: reads.League, match: str, teams: tuple[str, ...]) -> list[str]:
    """The teams of a game to come whose fees the account may pay, where the edition
    charges appearance fees (the match page and the report form link the form for each)."""
    if Feature.APPEARANCE_FEES not in league.ruleset.features:
        return []
    me = who(request)
    return [t for t in teams if may(me, league.row, "appearance_fees", t)]


def back_of(league: reads.League, terms: FeeTerms, match: str, query: Mapping[str, str]) -> str:
    """Where the page leads back to: the fixture's page, or the report form of the game
    without one the form was opened from (its teams checked, so the link is the league's
    own), else the team's page."""
    if terms.match is not None:
        return f"/leagues/{league.slug}/matches/{terms.match.match_id}"
    home, away, kind = (query.get(k, "") for k in ("home", "away", "kind"))
    known = league.team_names()
    if home in known and away in known and terms.team.team_id in (home, away):
        return f"/leagues/{league.slug}/report?" + urlencode(
            {"home": home, "away": away, "kind": kind or "friendly", "match": match}
        )
    return f"/leagues/{league.slug}/teams/{terms.team.team_id}"


def fees_form(
    request: Request,
    league: str,
    match: str,
    team: str,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    """The form; when the team may not pay now, the error page with the reason."""
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    terms = fee_terms(ledger.context(league), match, team)
    names = found.team_names()
    title = reads.match_title(terms.match, names) if terms.match is not None else match
    back = back_of(found, terms, match, request.query_params)
    return page(
        request,
        "fees.html.j2",
        status=status,
        title=f"Appearance fees of {terms.team.name}",
        crumbs=[
            ("Leagues", "/"),
            (found.row.name, f"/leagues/{league}"),
            (title, back),
        ],
        league=found,
        terms=terms,
        match_id=match,
        back=back,
        back_label="Back to the report" if "/report?" in back else "Back",
        stars=range(1, STARS + 1),
        values=values,
        errors=errors,
    )


@router.get(PATH)
@needs("appearance_fees")
def fees_page(request: Request, league: str, match: str, team: str) -> HTMLResponse:
    return fees_form(request, league, match, team, {}, {})


def chosen(terms: FeeTerms, values: Mapping[str, str]) -> list[str]:
    """The players ticked, and each freebooted star as ``HIRELING=COST`` (the command's
    own reference), in the form's order."""
    only_offered(values, PAY, (a.player.player_id for a in terms.asking), "a player", "form")
    refs = [a.player.player_id for a in terms.asking if values.get(PAY + a.player.player_id)]
    for row in range(1, STARS + 1):
        line = values.get(f"star-{row}", "").strip()
        cost = number(values, f"star-{row}-cost", "the star's cost", low=1, high=10_000_000)
        if line and cost is None:
            raise FieldInvalid(
                f"star-{row}-cost", f"give {line}'s cost: his fee is reckoned from it"
            )
        if cost is not None and not line:
            raise FieldInvalid(f"star-{row}", "name the star's hireling row (home-h1...)")
        if line:
            refs.append(f"{line}={cost}")
    if not refs:
        raise FieldInvalid(
            "form", "tick a player or name a freebooted star: there is no fee to pay"
        )
    return refs


@router.post(PATH)
@needs("appearance_fees")
async def pay(request: Request, league: str, match: str, team: str, call: Calling) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> None:
        terms = fee_terms(ledger.context(league), match, team)
        valid(
            lambda: ledger.handle(
                PayAppearanceFees(league, match, team, chosen(terms, values)), by=by
            )
        )

    try:
        await run_in_threadpool(call.write, command)
    except LedgerError as error:
        errors = errors_of(error, {})  # atop the form: the sum, a fee paid, the match
        return await run_in_threadpool(
            fees_form, request, league, match, team, values, errors, status_of(error)
        )
    return see_other(str(request.url.path) + (f"?{request.url.query}" if request.url.query else ""))
