"""The Spike! long-term contracts' star draft from a page (seed 003, 'Long Term Contracts'),
as ``ledger season star-draft`` and ``ledger season sign`` and the API's
``.../season/star-draft`` and ``.../teams/{team}/star`` run it (``OrderStarDraft``,
``SignStar``).

Anyone who reads the league sees where the draft stands: the order, the star each team
signed, whose turn it is, and the stars nobody signed, which any team may still induce
for one game ('Unsigned Star Players': "the League Commissioner should have a list of
these Star Players that is easily accessible to all coaches"). The commissioner sets the
order: the hat draw of the new teams, by the ledger or as drawn at the table, then the
teams of the last season from the bottom of its table up ('Subsequent Seasons'). The coach
of the team whose turn it is (or the commissioner) signs its star from those the command
would take. A refused POST is the page again, as filled, with the command's sentence
beside its field; done, the page again, at the next turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.commands import OrderStarDraft, SignStar
from ledger.application.context import Context
from ledger.application.seasons import (
    StarDraft,
    draft_pools,
    signable_stars,
    star_draft,
    unsigned_stars,
)
from ledger.application.service import LeagueLedger
from ledger.errors import LedgerError
from ledger.rules.schema import StarPlayer, pair_name
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_forms import (
    Calling,
    Errors,
    FieldInvalid,
    errors_of,
    reason_of,
    see_other,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, may, page, who
from ledger.web.pages_season_start import SEASON
from ledger.web.problems import status_of
from ledger.words import ordinal

router = APIRouter(route_class=PageRoute, include_in_schema=False)

PATH = SEASON + "/star-draft"
DRAWN = "drawn-"
"""The table's hat draw: ``drawn-N`` names the team drawn N-th."""
FIELDS = {"invalid-input": "drawn", "unknown-position": "star", "not-allowed": "star"}


@dataclass(frozen=True)
class DraftPage:
    """What the page shows of the current season's star draft, or why there is none."""

    draft: StarDraft | None
    refused: str
    hat: tuple[str, ...] = ()
    """The teams drawn from the hat (new to the league's seasons), until the order is set."""
    ranked: tuple[str, ...] = ()
    """The last season's teams, as they finished it, until the order is set."""
    signable: tuple[StarPlayer, ...] = ()
    unsigned: tuple[StarPlayer, ...] = ()


def context_of(found: reads.League) -> Context:
    return Context(view=found.view, league=found.row, ruleset=found.ruleset)


def draft_now(found: reads.League) -> StarDraft | None:
    """The current season's star draft; None where the league runs none (no contracts, no
    open season): its home then links no draft page."""
    try:
        return star_draft(context_of(found))
    except LedgerError:
        return None


def draft_page(found: reads.League) -> DraftPage:
    context = context_of(found)
    try:
        draft = star_draft(context)
    except LedgerError as error:
        return DraftPage(None, error.message)
    season = found.queries.season_row(draft.season)
    ranked, hat = draft_pools(context, season) if season and not draft.order else ([], [])
    return DraftPage(
        draft,
        "",
        tuple(hat),
        tuple(reversed(ranked)),
        tuple(signable_stars(context, draft)),
        tuple(unsigned_stars(context, draft)),
    )


def draft_form(
    request: Request, league: str, values: Mapping[str, str], errors: Errors, status: int = 200
) -> HTMLResponse:
    found = reads.open_league(ledger_of(request), league)
    shown = draft_page(found)
    me, turn = who(request), shown.draft.turn if shown.draft else None
    return page(
        request,
        "star_draft.html.j2",
        status=status,
        title=f"Star draft, season {shown.draft.season}" if shown.draft else "Star draft",
        crumbs=reads.crumbs(found),
        league=found,
        shown=shown,
        names=found.team_names(),
        stars=star_names(found),
        may_order=may(me, found.row, "star_draft"),
        may_sign=turn is not None and may(me, found.row, "sign_star", turn),
        values=values,
        errors=errors,
    )


def star_names(found: reads.League) -> dict[str, str]:
    """Each star's name, a pair's under its priced star (``Grak & Crumbleberry``)."""
    stars = found.ruleset.catalogue.stars()
    return {s.id: pair_name(s, stars) for s in stars.values()}


@router.get(PATH)
@needs("read")
def draft_view(request: Request, league: str) -> HTMLResponse:
    return draft_form(request, league, {}, {})


def hat_draw(values: Mapping[str, str]) -> list[str] | None:
    """The hat draw as the form gives it: None lets the ledger draw; as drawn at the
    table, the teams in the order of the ``drawn-N`` fields (the command checks that
    they are exactly the teams to draw)."""
    if values.get("draw", "ledger") == "ledger":
        return None
    picks = sorted(
        (int(key.removeprefix(DRAWN)), team.strip())
        for key, team in values.items()
        if key.startswith(DRAWN) and key.removeprefix(DRAWN).isdigit()
    )
    missing = [n for n, team in picks if not team]
    if missing:
        raise FieldInvalid("drawn", f"name the team drawn {ordinal(missing[0])}")
    return [team for _, team in picks]


async def written(
    request: Request, league: str, call: Calling, values: Mapping[str, str], command: Any
) -> Response:
    """Run ``command`` as the account: the page again, as filled, with the command's
    sentence beside its field when refused; done, the page at the draft's next turn."""
    try:
        await run_in_threadpool(call.write, command)
    except LedgerError as error:
        errors = errors_of(error, FIELDS)
        return await run_in_threadpool(
            draft_form, request, league, values, errors, status_of(error)
        )
    return see_other(f"/leagues/{league}/season/star-draft")


@router.post(PATH)
@needs("star_draft")
async def order(request: Request, league: str, call: Calling) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> None:
        reason = reason_of(values, "reason", "the order")
        ledger.handle(OrderStarDraft(league, drawn=hat_draw(values)), by=by, reason=reason)

    return await written(request, league, call, values, command)


@router.post(PATH + "/{team}")
@needs("sign_star")
async def sign(request: Request, league: str, team: str, call: Calling) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> None:
        star = values.get("star", "").strip()
        if not star:
            raise FieldInvalid("star", "choose the star to sign")
        reason = reason_of(values, "reason", "the signing")
        ledger.handle(SignStar(league, team, star), by=by, reason=reason)

    return await written(request, league, call, values, command)
