"""The league's leaderboards page (``/leagues/{league}/leaders``): the players ahead on one
of the boards ``ledger leaders --stat`` and ``GET /api/leagues/{league}/leaders`` read
(``Queries.leaders``: SPP, touchdowns, casualties...), the others a link away.

Guarded as every read page (who may read the league); the board is the read models'
answer, ranked as the command ranks it (players level on the stat share a place).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from ledger.projections.queries import LeaderStat
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_render import PageRoute, page, shown_league

router = APIRouter(route_class=PageRoute, include_in_schema=False)

BOARDS: dict[str, str] = {
    "spp": "SPP",
    "touchdowns": "Touchdowns",
    "casualties": "Casualties",
    "completions": "Completions",
    "interceptions": "Interceptions",
    "kills": "Kills",
    "mvps": "MVPs",
    "games": "Games",
}
"""Each board's name on the page, in the order the page lists them: every one of
``STAT_COLUMNS`` (tests/service/test_pages_leaders.py checks it)."""

SHOWN, MORE = 10, 50
"""The players a board shows (``ledger leaders``' default), and how many on asking more."""


@router.get("/leagues/{league}/leaders")
@needs("read", remembered=True)
def leaders_page(
    request: Request,
    league: str,
    stat: LeaderStat = "spp",
    limit: Annotated[int, Query(ge=1, le=500)] = SHOWN,
) -> HTMLResponse:
    found = shown_league(request, league)
    board = found.queries.leaders(stat, limit)
    return page(
        request,
        "leaders.html.j2",
        title="Leaders",
        crumbs=reads.crumbs(found),
        league=found,
        boards=BOARDS,
        stat=stat,
        board=board,
        names=found.team_names(),
        more=MORE if len(board) == limit < MORE else None,
    )
