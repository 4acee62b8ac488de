"""Running a league's seasons over the API, and its season report: the ``ledger season
...`` commands (start, schedule, play-offs, close), recording a match directly (``ledger
match record``: the commissioner need not go through the report workflow), and the report
``ledger report`` writes, in each of its formats.

Every write here is the commissioner's (an admin's too); every one runs as the account
(``guard.Call.write``). The report is the one the pages offer for download
(``pages_reads.season_report``): one way to make it, whoever asks.
"""

from __future__ import annotations

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field

from ledger.application.commands import (
    CloseSeason,
    OrderStarDraft,
    RecordMatch,
    SchedulePlayoffs,
    ScheduleSeason,
    StartSeason,
)
from ledger.application.context import Context
from ledger.application.reports import MatchReport
from ledger.application.seasons import as_they_stand, signable_stars, star_draft, unsigned_stars
from ledger.application.service import LeagueLedger
from ledger.domain.values import Division, Given
from ledger.reports.render import FORMATS
from ledger.reports.service import report_format
from ledger.web import pages_reads
from ledger.web.api_writes import Body, Written, receipt
from ledger.web.guard import Calling, Guarded, needs
from ledger.web.pages_render import ledger_of, shown_league
from ledger.web.problems import PROBLEMS

router = APIRouter(route_class=Guarded, responses=PROBLEMS, tags=["seasons"])

SEASON = "/api/leagues/{league}/season"
Reason = Field(default=None, min_length=1, max_length=2000)


class NewDivision(Body):
    name: str = Field(min_length=1, max_length=120)
    teams: list[Given] = Field(min_length=1, max_length=64)


class Start(Body):
    divisions: list[NewDivision] = Field(min_length=1, max_length=16)
    playoff_teams: int = Field(default=0, ge=0, le=64)
    """How many teams qualify for the play-offs."""
    name: str = Field(default="", max_length=120)
    reason: str | None = Reason


class Started(Written):
    season: int
    as_they_stand: list[str]
    """The teams that played before and did not re-draft for this season, so play on as
    they stand (an edition with re-drafts; none has to, and none can once it starts)."""


@router.post(SEASON + "/start", status_code=201)
@needs("start_season")
def start(call: Calling, league: str, body: Start, response: Response) -> Started:
    """Start the next season with its divisions (``ledger season start``)."""
    divisions = [Division(name=d.name, teams=tuple(d.teams)) for d in body.divisions]
    kept: list[str] = []

    def started(ledger: LeagueLedger, by: str) -> int:
        kept[:] = as_they_stand(ledger.context(league), divisions)  # before the start
        command = StartSeason(league, divisions, playoff_teams=body.playoff_teams, name=body.name)
        return ledger.handle(command, by=by, reason=body.reason)

    season = call.write(started)
    return Started(**receipt(call, response), season=season, as_they_stand=kept)


class Schedule(Body):
    legs: int = Field(default=1, ge=1, le=4)
    """Times each pair meets (2: home and away)."""
    reason: str | None = Reason


class Scheduled(Written):
    fixtures: int


@router.post(SEASON + "/schedule", status_code=201)
@needs("schedule")
def schedule(call: Calling, league: str, body: Schedule, response: Response) -> Scheduled:
    """A round robin in every division of the current season (``ledger season schedule``)."""
    count = call.write(
        lambda ledger, by: ledger.handle(
            ScheduleSeason(league, legs=body.legs), by=by, reason=body.reason
        )
    )
    return Scheduled(**receipt(call, response), fixtures=count)


class Playoffs(Body):
    dungeon_bowl: bool = False
    """Play the final as one multi-player Dungeon Bowl match of all qualifiers."""
    reason: str | None = Reason


@router.post(SEASON + "/playoffs", status_code=201)
@needs("draw_playoffs")
def playoffs(call: Calling, league: str, body: Playoffs, response: Response) -> Scheduled:
    """Draw the play-offs, or their next round, from the results so far."""
    count = call.write(
        lambda ledger, by: ledger.handle(
            SchedulePlayoffs(league, dungeon_bowl=body.dungeon_bowl), by=by, reason=body.reason
        )
    )
    return Scheduled(**receipt(call, response), fixtures=count)


class Closing(Body):
    without_playoffs: bool = False
    """Close a season started with play-offs before their final: places by the table."""
    reason: str | None = Reason


@router.post(SEASON + "/close", status_code=201)
@needs("close_season")
def close(call: Calling, league: str, response: Response, body: Closing | None = None) -> Written:
    """Close the current season: prizes and the League Trophy are awarded."""
    body = body or Closing()
    command = CloseSeason(league, without_playoffs=body.without_playoffs)
    call.write(lambda ledger, by: ledger.handle(command, by=by, reason=body.reason))
    return Written(**receipt(call, response))


# --- the Spike! long-term contracts' star draft (seed 003, 'Long Term Contracts') -----------


class StarDraftNow(BaseModel):
    """Where the current season's star draft stands."""

    season: int
    order: list[str]
    """The teams in the order they sign (empty until the commissioner sets it)."""
    signed: dict[str, str]
    """The star each team has signed this season, by team."""
    next: str | None
    """The team that signs next (null before the order is set and once all have)."""
    signable: list[str]
    """The stars the next team may sign now."""
    unsigned: list[str]
    """The stars no team has signed: any team may still induce them for one game."""


@router.get(SEASON + "/star-draft", tags=["seasons"])
@needs("read", remembered=True)
def star_draft_now(request: Request, league: str) -> StarDraftNow:
    """The star draft of a league with long-term contracts (``ledger season star-draft``
    and ``sign`` make it); 409 where the league has none."""
    found = shown_league(request, league)
    context = Context(view=found.view, league=found.row, ruleset=found.ruleset)
    draft = star_draft(context)
    return StarDraftNow(
        season=draft.season,
        order=list(draft.order),
        signed=dict(draft.signed),
        next=draft.turn,
        signable=[s.id for s in signable_stars(context, draft)],
        unsigned=[s.id for s in unsigned_stars(context, draft)],
    )


class DrawStars(Body):
    drawn: list[Given] | None = Field(default=None, max_length=64)
    """The hat draw as made at the table (every team in a first season, the new teams
    afterwards); left out, the ledger draws."""
    reason: str | None = Reason


class StarOrder(Written):
    order: list[str]


@router.post(SEASON + "/star-draft", status_code=201)
@needs("star_draft")
def order_star_draft(call: Calling, league: str, body: DrawStars, response: Response) -> StarOrder:
    """Set the order in which the season's teams sign a star: the hat draw, then the
    teams of the last season from its bottom up (``ledger season star-draft``)."""
    order = call.write(
        lambda ledger, by: ledger.handle(
            OrderStarDraft(league, drawn=body.drawn), by=by, reason=body.reason
        )
    )
    return StarOrder(**receipt(call, response), order=order)


class Recorded(Written):
    match: str


@router.post("/api/leagues/{league}/matches", status_code=201, tags=["matches"])
@needs("record_match")
def record(
    call: Calling,
    league: str,
    body: MatchReport,
    response: Response,
    roll_missing: bool = Query(default=False, description="The ledger rolls dice not given."),
    reason: str | None = Query(default=None, min_length=1, max_length=2000),
) -> Recorded:
    """Record a match report directly (the commissioner; coaches submit theirs to
    ``.../reports``), checked as ``ledger match record`` checks it."""
    match = call.write(
        lambda ledger, by: ledger.handle(
            RecordMatch(league, body, roll_missing=roll_missing), by=by, reason=reason
        )
    )
    return Recorded(**receipt(call, response), match=match)


# --- the season report -----------------------------------------------------------------------

REPORT_MEDIA = {fmt: pages_reads.MEDIA[fmt] for fmt in FORMATS}


@router.get(
    "/api/leagues/{league}/report.{fmt}",
    tags=["leagues"],
    response_class=Response,
    responses={200: {"content": {m: {} for m in REPORT_MEDIA.values()}}},
)
@needs("read", remembered=True)
def season_report(request: Request, league: str, fmt: str) -> Response:
    """The latest season's report as ``ledger report --format FMT`` writes it: ``html``
    (one page, opens offline), ``md``, ``json``, or ``csv`` (its tables in one zip)."""
    chosen = report_format(fmt, None)
    made = pages_reads.season_report(ledger_of(request), shown_league(request, league), chosen)
    disposition = f'attachment; filename="{made.filename}"'
    return Response(
        made.content, media_type=made.media_type, headers={"Content-Disposition": disposition}
    )
