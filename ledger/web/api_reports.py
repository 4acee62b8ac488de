"""The match report workflow over the API (ledger/application/submissions.py).

A coach submits the report of a match their team played (the documented report format,
docs/match-report.md, as JSON); the opposing coach confirms it (the match is recorded at
once) or disputes it; the commissioner approves or rejects a waiting one. Which team the
account acts for is read from the report (or the submission) and authorized before the
step runs; all the steps' events record the account, as every write of the API does.
"""

from __future__ import annotations

from fastapi import APIRouter, Query, Request, Response
from pydantic import Field

from ledger.application import commands as cmd
from ledger.application import submissions
from ledger.application.reports import MatchReport
from ledger.application.service import LeagueLedger
from ledger.domain.state import LeagueRow, SubmissionRow
from ledger.errors import UnknownSubmission
from ledger.web.api import AFTER, LIMIT, Page, page
from ledger.web.api_writes import Body, Written, receipt
from ledger.web.auth import memo, service_of
from ledger.web.guard import Call, Calling, Guarded, needs
from ledger.web.problems import PROBLEMS

router = APIRouter(route_class=Guarded, responses=PROBLEMS, tags=["reports"])

BASE = "/api/leagues/{league}/reports"
Status = Query(default=None, pattern="^(submitted|disputed|confirmed|approved|rejected|withdrawn)$")


class Submitted(Written):
    submission: str


class Recorded(Written):
    match: str | None = None
    """The recorded match's id, when the step recorded it."""


@router.get(BASE)
@needs("read", remembered=True, members_only=True)
def reports(
    request: Request,
    league: str,
    status: str | None = Status,
    limit: int = LIMIT,
    after: int | None = AFTER,
) -> Page[SubmissionRow]:
    """The league's submitted reports, oldest first: the pending ones are ``submitted``
    (waiting for the opponent) and ``disputed`` (waiting for the commissioner)."""
    row: LeagueRow = memo(request)["league_row"]
    rows = service_of(request).reads().select(SubmissionRow, league_id=row.league_id)
    chosen = sorted((r for r in rows if status in (None, r.status)), key=lambda r: r.submitted_seq)
    return page(chosen, limit, after)


@router.get(BASE + "/{submission}")
@needs("read", remembered=True, members_only=True)
def report(request: Request, league: str, submission: str) -> SubmissionRow:
    row: LeagueRow = memo(request)["league_row"]
    found = service_of(request).reads().get(SubmissionRow, row.league_id, submission)
    if found is None:
        raise UnknownSubmission(f"no report '{submission}' in league {league}")
    return found


@router.post(BASE, status_code=201)
@needs("submit_report", team_in_body=True)
def submit(
    call: Calling,
    league: str,
    body: MatchReport,
    response: Response,
    roll_missing: bool = Query(default=False, description="The ledger rolls dice not given."),
) -> Submitted:
    """Submit the report of a match your team played: checked at once as ``ledger match
    record`` checks it, then kept until the opposing coach answers."""
    team = submissions.submitting_team(call.principal, league, body)
    call.authorize_team("submit_report", team)
    made = call.write(
        lambda ledger, by: ledger.handle(
            cmd.SubmitReport(league, team, body, roll_missing=roll_missing), by=by
        )
    )
    return Submitted(**receipt(call, response), submission=made)


def answering(call: Call, league: str, submission: str, ledger: LeagueLedger) -> str:
    """The opposing team the account answers for, authorized (inside the write: the
    submission is read as the unit sees it)."""
    team = submissions.answering_team(
        call.principal, league, submissions.find(ledger, league, submission)
    )
    call.authorize_team("answer_report", team)
    return team


@router.post(BASE + "/{submission}/confirm", status_code=201)
@needs("answer_report", team_in_body=True)
def confirm(call: Calling, league: str, submission: str, response: Response) -> Recorded:
    """The opposing coach confirms the report: the match is recorded at once."""

    def step(ledger: LeagueLedger, by: str) -> str:
        team = answering(call, league, submission, ledger)
        return ledger.handle(cmd.ConfirmReport(league, submission, team), by=by)

    match = call.write(step)  # before the receipt: its version is the one the write left
    return Recorded(**receipt(call, response), match=match)


class Reason(Body):
    reason: str = Field(min_length=1, max_length=2000)


@router.post(BASE + "/{submission}/dispute", status_code=201)
@needs("answer_report", team_in_body=True)
def dispute(
    call: Calling, league: str, submission: str, body: Reason, response: Response
) -> Written:
    """The opposing coach disputes the report, saying why: it waits for the commissioner."""

    def step(ledger: LeagueLedger, by: str) -> None:
        team = answering(call, league, submission, ledger)
        ledger.handle(cmd.DisputeReport(league, submission, team), by=by, reason=body.reason)

    call.write(step)
    return Written(**receipt(call, response))


class Decision(Body):
    reason: str | None = Field(default=None, min_length=1, max_length=2000)


@router.post(BASE + "/{submission}/approve", status_code=201)
@needs("decide_report")
def approve(
    call: Calling, league: str, submission: str, response: Response, body: Decision | None = None
) -> Recorded:
    """The commissioner approves a waiting report: the match is recorded."""
    reason = body.reason if body else None
    match = call.write(
        lambda ledger, by: ledger.handle(
            cmd.ApproveReport(league, submission), by=by, reason=reason
        )
    )
    return Recorded(**receipt(call, response), match=match)


@router.post(BASE + "/{submission}/reject", status_code=201)
@needs("decide_report")
def reject(
    call: Calling, league: str, submission: str, body: Reason, response: Response
) -> Written:
    """The commissioner rejects a waiting report, saying why: nothing of it is recorded."""
    call.write(
        lambda ledger, by: ledger.handle(
            cmd.RejectReport(league, submission), by=by, reason=body.reason
        )
    )
    return Written(**receipt(call, response))  # nothing recorded: no match to name


@router.post(BASE + "/{submission}/withdraw", status_code=201)
@needs("submit_report", team_in_body=True)
def withdraw(
    call: Calling, league: str, submission: str, response: Response, body: Decision | None = None
) -> Written:
    """The team that submitted the report takes it back while it waits (a mistake seen
    after sending it): nothing of it is recorded, and a corrected one may be submitted."""

    def step(ledger: LeagueLedger, by: str) -> None:
        team = submissions.find(ledger, league, submission).team
        call.authorize_team("submit_report", team)
        reason = body.reason if body else None
        ledger.handle(cmd.WithdrawReport(league, submission, team), by=by, reason=reason)

    call.write(step)
    return Written(**receipt(call, response))  # nothing recorded: no match to name
