"""Answering a submitted match report: the opposing coach confirms or disputes it, the
commissioner approves or rejects it (ledger/application/submissions.py).

The report's page shows it as submitted and the buttons the account may use; each button
posts one step, run as the account, for the team it answers for (``answering_team``,
authorized before the step). A refused step shows the report's page again with the
ledger's sentence beside the form it came from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application import commands as cmd
from ledger.application import submissions
from ledger.application.context import decided
from ledger.application.service import LeagueLedger
from ledger.domain.events import MatchRecorded
from ledger.domain.state import MatchRow, SubmissionRow
from ledger.domain.values import Casualty
from ledger.errors import LedgerError
from ledger.reports.match_sheet import hireling_position
from ledger.web import pages_reads as reads
from ledger.web.guard import Call, needs
from ledger.web.pages_forms import (
    Calling,
    Errors,
    FieldInvalid,
    errors_of,
    see_other,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, may, page, who
from ledger.web.pages_report_form import EVERY_STAT
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)


def submission_page_of(
    request: Request,
    league: str,
    submission: str,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    row = submissions.find(ledger, league, submission)
    me = who(request)
    answering = submissions.answering_team(me, league, row) if me else row.away
    waiting = row.status == "submitted"
    report = row.report
    names = found.team_names()
    teams = " v ".join(names.get(t, t) for t in (row.home, row.away, *row.others))
    return page(
        request,
        "submission.html.j2",
        status=status,
        title=f"Report: {teams}",
        crumbs=reads.crumbs(found),
        league=found,
        row=row,
        # a report of a game the books do not hold yet (no fixture, not recorded) names a
        # match with no page: its id is shown, not linked
        match_page=found.view.get(MatchRow, found.row.league_id, row.match_id) is not None,
        report=report,
        score=score_of(report),
        names=names,
        players=found.player_names(mentioned(report)),
        stats=EVERY_STAT,
        positions=hireling_positions(found, report),
        outcomes=outcomes(ledger, league, row) if row.status in submissions.PENDING else [],
        answering=answering,
        may_answer=waiting
        and answering != row.team
        and may(me, found.row, "answer_report", answering),
        may_decide=row.status in submissions.PENDING and may(me, found.row, "decide_report"),
        may_correct=row.status in submissions.SENT_AGAIN
        and may(me, found.row, "submit_report", row.team),
        may_withdraw=row.status in submissions.PENDING
        and may(me, found.row, "submit_report", row.team),
        values=values,
        errors=errors,
    )


def outcomes(ledger: LeagueLedger, league: str, row: SubmissionRow) -> list[Casualty | None]:
    """What each casualty of a waiting report comes to under the league's edition, as it
    would be recorded now (its plan run, nothing written): the coach who answers reads
    "badly hurt", not only "casualty 8". None for a casualty the ledger is to roll (its
    roll is made when the report is recorded, not shown before), and for all of them when
    the report would be refused now (its answer says why)."""
    command = cmd.RecordMatch(league, submissions.report_of(row), roll_missing=row.roll_missing)
    try:
        [recorded] = decided(ledger.plan_of(command), ledger.context(league))
    except LedgerError:
        return []
    assert isinstance(recorded, MatchRecorded)
    return [
        None if any(d.source == "ledger" for d in casualty.dice) else casualty
        for casualty in recorded.casualties
    ]


def score_of(report: Mapping[str, Any]) -> tuple[int, int]:
    def side(key: str) -> int:
        sheet = report.get(key, {})
        given = sheet.get("touchdowns")
        return (
            int(given)
            if given is not None
            else sum(int(p.get("touchdowns", 0)) for p in sheet.get("players", []))
        )

    return side("home"), side("away")


def hireling_positions(league: reads.League, report: Mapping[str, Any]) -> dict[str, str]:
    """Each hireling's position (or star) by the name the edition prints, by his id."""
    return {
        h["id"]: hireling_position(
            league.queries, side["team"], h.get("kind", ""), h.get("position"), h.get("star")
        )
        for side in (report.get("home", {}), report.get("away", {}))
        for h in side.get("hirelings", [])
    }


def mentioned(report: Mapping[str, Any]) -> set[str]:
    ids = {p["player"] for key in ("home", "away") for p in report.get(key, {}).get("players", [])}
    for c in report.get("casualties", []):
        ids |= {c["victim"], *([c["by"]] if c.get("by") else [])}
    return ids


SECTIONS = {"answer_report": "answer", "decide_report": "decision", "submit_report": "withdraw"}
"""Where the page shows a refusal of each kind of step."""


@router.get("/leagues/{league}/submissions/{submission}")
@needs("read", members_only=True)
def submission_page(request: Request, league: str, submission: str) -> HTMLResponse:
    return submission_page_of(request, league, submission, {}, {})


async def answer(
    request: Request,
    league: str,
    submission: str,
    call: Call,
    action: str,
    field: str,
    step: Callable[[LeagueLedger, str, SubmissionRow, Mapping[str, str]], object],
) -> Response:
    """Run one step of the workflow on ``submission`` as the account; the report's page
    again, with the error beside ``field`` when refused."""
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> object:
        row = submissions.find(ledger, league, submission)
        if action == "answer_report":
            call.authorize_team(action, submissions.answering_team(call.principal, league, row))
        elif action == "submit_report":  # its own team takes it back
            call.authorize_team(action, row.team)
        return step(ledger, by, row, values)

    try:
        await run_in_threadpool(call.write, command)
    except LedgerError as error:
        shown = {
            ("reject_reason" if field == "reject_reason" else "reason"): values.get("reason", "")
        }
        return await run_in_threadpool(
            submission_page_of,
            request,
            league,
            submission,
            shown,
            errors_of(
                error,
                {"invalid-input": field},
                SECTIONS[action],
            ),
            status_of(error),
        )
    return see_other(f"/leagues/{league}/submissions/{submission}")


def reason_of(values: Mapping[str, str], field: str, sentence: str) -> str:
    """The form's reason, or ``sentence`` beside ``field`` when it is left empty: said as
    a form says it (the command's own refusal names the command line's flag)."""
    reason = values.get("reason", "").strip()
    if not reason:
        raise FieldInvalid(field, sentence)
    return reason


@router.post("/leagues/{league}/submissions/{submission}/confirm")
@needs("answer_report", team_in_body=True)
async def confirm(request: Request, league: str, submission: str, call: Calling) -> Response:
    return await answer(
        request,
        league,
        submission,
        call,
        "answer_report",
        "answer",
        lambda ledger, by, row, _: ledger.handle(
            cmd.ConfirmReport(
                league, submission, submissions.answering_team(call.principal, league, row)
            ),
            by=by,
        ),
    )


@router.post("/leagues/{league}/submissions/{submission}/dispute")
@needs("answer_report", team_in_body=True)
async def dispute(request: Request, league: str, submission: str, call: Calling) -> Response:
    return await answer(
        request,
        league,
        submission,
        call,
        "answer_report",
        "reason",
        lambda ledger, by, row, values: ledger.handle(
            cmd.DisputeReport(
                league, submission, submissions.answering_team(call.principal, league, row)
            ),
            by=by,
            reason=reason_of(
                values, "reason", "a dispute needs a reason: the commissioner reads it"
            ),
        ),
    )


@router.post("/leagues/{league}/submissions/{submission}/approve")
@needs("decide_report")
async def approve(request: Request, league: str, submission: str, call: Calling) -> Response:
    return await answer(
        request,
        league,
        submission,
        call,
        "decide_report",
        "decision",
        lambda ledger, by, _row, _values: ledger.handle(
            cmd.ApproveReport(league, submission), by=by
        ),
    )


@router.post("/leagues/{league}/submissions/{submission}/reject")
@needs("decide_report")
async def reject(request: Request, league: str, submission: str, call: Calling) -> Response:
    return await answer(
        request,
        league,
        submission,
        call,
        "decide_report",
        "reject_reason",
        lambda ledger, by, _row, values: ledger.handle(
            cmd.RejectReport(league, submission),
            by=by,
            reason=reason_of(
                values, "reject_reason", "a rejection needs a reason: the coaches read it"
            ),
        ),
    )


@router.post("/leagues/{league}/submissions/{submission}/withdraw")
@needs("submit_report", team_in_body=True)
async def withdraw(request: Request, league: str, submission: str, call: Calling) -> Response:
    return await answer(
        request,
        league,
        submission,
        call,
        "submit_report",
        "withdraw",
        lambda ledger, by, row, values: ledger.handle(
            cmd.WithdrawReport(league, submission, row.team),
            by=by,
            reason=values.get("reason", "").strip() or None,  # optional: what was wrong
        ),
    )
