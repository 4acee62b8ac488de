"""Match reports submitted by the coaches: each one's row in ``rm_submissions``.

Only the submission's own row changes here. The match itself is recorded by the
``MatchRecorded`` that follows a confirmation or an approval, folded like any other, so a
report that waits, is disputed, rejected or withdrawn leaves every figure of the league alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.domain import events as ev
from ledger.domain.state import SubmissionRow


def report_submitted(f: Any, e: ev.ReportSubmitted) -> None:
    report = e.report
    f.store.put(
        SubmissionRow.build(
            league_id=f.league_id,
            submission=e.submission,
            match_id=e.match,
            team=e.team,
            home=side_team(report, "home"),
            away=side_team(report, "away"),
            others=tuple(str(side.get("team", "")) for side in report.get("others", ())),
            report=report,
            roll_missing=e.roll_missing,
            submitted_seq=e.seq,
            submitted_at=e.timestamp.isoformat(),
            submitted_by=e.recorded_by,
            account=e.account,
        )
    )
    number = e.submission.removeprefix("s")
    league = f.league()
    if number.isdigit() and int(number) >= league.next_submission:
        f.store.change(league, next_submission=int(number) + 1)


def side_team(report: dict[str, Any], side: str) -> str:
    found = report.get(side)
    return str(found.get("team", "")) if isinstance(found, dict) else ""


def submission(f: Any, submission_id: str) -> SubmissionRow:
    row: SubmissionRow | None = f.store.get(SubmissionRow, f.league_id, submission_id)
    if row is None:
        raise LookupError(f"no submitted report '{submission_id}'")
    return row


def report_confirmed(f: Any, e: ev.ReportConfirmed) -> None:
    row = submission(f, e.submission)
    f.store.change(row, status="confirmed", answered_by=e.team, decided_seq=e.seq)


def report_disputed(f: Any, e: ev.ReportDisputed) -> None:
    row = submission(f, e.submission)
    f.store.change(row, status="disputed", answered_by=e.team, dispute=e.reason)


def report_approved(f: Any, e: ev.ReportApproved) -> None:
    row = submission(f, e.submission)
    f.store.change(row, status="approved", decided_seq=e.seq)


def report_rejected(f: Any, e: ev.ReportRejected) -> None:
    row = submission(f, e.submission)
    f.store.change(row, status="rejected", decided_seq=e.seq, rejection=e.reason)


def report_withdrawn(f: Any, e: ev.ReportWithdrawn) -> None:
    row = submission(f, e.submission)
    f.store.change(row, status="withdrawn", decided_seq=e.seq, rejection=e.reason)


SUBMISSION_APPLIERS: dict[type[ev.LedgerEvent], Callable[[Any, Any], None]] = {
    ev.ReportSubmitted: report_submitted,
    ev.ReportConfirmed: report_confirmed,
    ev.ReportDisputed: report_disputed,
    ev.ReportApproved: report_approved,
    ev.ReportRejected: report_rejected,
    ev.ReportWithdrawn: report_withdrawn,
}
