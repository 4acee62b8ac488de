"""A season's fixtures and results (``/leagues/{league}/fixtures``, ``?season=N`` for an
earlier one): its table, then every match by round, played or still to play, each a link
to its page; the league's other seasons a link away. What ``ledger standings --season``
and ``GET /api/leagues/{league}/matches?season=`` read, for whoever may read the league.
"""

from __future__ import annotations

from itertools import groupby
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from ledger.domain.state import MatchRow
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_render import PageRoute, page, shown_league

router = APIRouter(route_class=PageRoute, include_in_schema=False)


@router.get("/leagues/{league}/fixtures")
@needs("read", remembered=True)
def fixtures_page(
    request: Request,
    league: str,
    season: Annotated[int | None, Query(ge=1, le=10_000)] = None,
) -> HTMLResponse:
    found = shown_league(request, league)
    seasons = found.queries.seasons()
    # the standings refuse a season the league has not had (UnknownSeason, a 404 page)
    standings = found.queries.standings(season) if seasons or season else None
    chosen = standings.season if standings else None
    matches = found.queries.matches(chosen) if chosen is not None else []
    return page(
        request,
        "fixtures.html.j2",
        title=f"Season {chosen}" if chosen else "Fixtures",
        crumbs=reads.crumbs(found),
        league=found,
        season=chosen,
        seasons=seasons,
        standings=standings,
        rounds=rounds_of(matches),
        names=found.team_names(),
    )


def rounds_of(matches: list[MatchRow]) -> list[tuple[str, list[MatchRow]]]:
    """The season's matches by round, in fixture order, each headed as the league page
    names its round ("Round 3", "Final"): the regular season's rounds, its games of no
    round (friendlies), then the play-offs (whose rounds count from 1 again)."""
    in_order = sorted(matches, key=playoff)  # stable: fixture order within each part
    found = []
    for (_, round_), group in groupby(in_order, key=lambda m: (playoff(m), m.round)):
        games = list(group)
        found.append((heading(reads.round_name(games)) if round_ else "Other games", games))
    return found


def playoff(match: MatchRow) -> bool:
    return match.stage != "regular"


def heading(name: str) -> str:
    return f"Round {name}" if name.isdigit() else name[:1].upper() + name[1:]
