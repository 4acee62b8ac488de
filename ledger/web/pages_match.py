"""A match's page: its report as it stands (amended or not), each side's post-game, what
the account may do about it next (submit, buy inducements, pay fees, close its post-game
sequence, correct it), and its history."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from ledger.domain.state import MatchRow
from ledger.reports.match_sheet import hireling_sheets
from ledger.web import pages_close, pages_fees, pages_inducements, pages_sign
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_render import (
    PageRoute,
    ledger_of,
    may,
    may_submit,
    page,
    role_named,
    shown_league,
    who,
)

router = APIRouter(route_class=PageRoute, include_in_schema=False)


@router.get("/leagues/{league}/matches/{match}")
@needs("read", remembered=True)
def match_page(
    request: Request,
    league: str,
    match: str,
    corrected: bool = False,
    closed: Annotated[str | None, Query(max_length=200)] = None,
) -> HTMLResponse:
    """``corrected``: just corrected (the correction form lands here); ``closed``: the team
    whose post-game sequence was just closed (the close form lands here), said with what
    the close moved."""
    ledger = ledger_of(request)
    found = shown_league(request, league)
    row = reads.match_row(found, match)
    history = found.queries.history(f"match:{match}")
    event, amended_by = reads.report_as_held(ledger, found, row, history)
    lines = found.queries.match_games(event) if event is not None else []
    ids = event.named_players() if event is not None else set()
    names = found.team_names()
    me = who(request)
    waiting = reads.waiting_reports(found).get(match) if role_named(request) else None
    post = pages_close.post_game(ledger, found, row) if event is not None else {}
    return page(
        request,
        "match.html.j2",
        title=reads.match_title(row, names),
        crumbs=reads.crumbs(found),
        league=found,
        match=row,
        event=event,
        amended_by=amended_by,
        lines=lines,
        names=names,
        players=found.player_names(ids),
        hired=hireling_sheets(found.queries, row, event) if event is not None else [],
        signed=pages_sign.signed_hirelings(row),
        may_sign=[t for t in (row.home, row.away) if may(me, found.row, "hire", t)],
        hired_source=found.ruleset.hireling_spp_source or None,
        others=reads.other_achievements(event) if event is not None else [],
        post_game=post,
        just_closed=post.get(closed) if closed and closed in row.closed else None,
        history=history,
        waiting=waiting,
        my_teams=me.teams_in(league) if me else (),
        may_submit=row.status == "scheduled"
        and waiting is None
        and may_submit(request, found, row.home, row.away, *row.others),
        may_correct=row.status == "played" and may(me, found.row, "correct"),
        corrected=corrected and row.status == "played",
        closable=closable(request, found, row),
        inducing=pages_inducements.inducing(request, found, row),
        paying=pages_fees.paying(request, found, row.match_id, (row.home, row.away, *row.others))
        if row.status == "scheduled"
        else [],
    )


def closable(request: Request, league: reads.League, row: MatchRow) -> list[str]:
    """The teams of a played match whose post-game sequence the account may close now."""
    if row.status != "played" or not league.ruleset.post_game_closes:
        return []
    me = who(request)
    teams = (row.home, row.away, *row.others)
    return [t for t in teams if t not in row.closed and may(me, league.row, "close_post_game", t)]
