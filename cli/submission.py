"""``ledger submission ...``: coaches' match reports, answered by the opposing coach or
decided by the commissioner (docs/commissioners-guide.md, "Reports from the coaches").

``ledger report`` is the season report; these are the reports of single matches that a
coach submits instead of the commissioner recording them with ``ledger match record``.
"""

from __future__ import annotations

from pathlib import Path

import click

from cli.main import Session, pass_session
from cli.output import print_json, say, table
from ledger.application import submissions
from ledger.application.commands import (
    ApproveReport,
    ConfirmReport,
    DisputeReport,
    RejectReport,
    SubmitReport,
    WithdrawReport,
)
from ledger.application.reports import read_report
from ledger.domain.state import SubmissionRow

TEAM = click.option("--team", required=True, help="The team you answer (or submit) for.")


@click.group()
def submission() -> None:
    """Match reports submitted by coaches: submit, confirm, dispute, approve, reject, withdraw."""


@submission.command("submit")
@click.argument("report", type=click.Path(path_type=Path))
@TEAM
@click.option(
    "--roll",
    "roll_missing",
    is_flag=True,
    help="Let the ledger roll (and record) any post-game die the report leaves out, when the"
    " match is recorded.",
)
@click.option("--reason", help="A note kept in the log.")
@pass_session
def submit(
    session: Session, report: Path, team: str, roll_missing: bool, reason: str | None
) -> None:
    """Submit the match REPORT (a YAML or JSON file; see docs/match-report.md) for TEAM:
    checked now as 'ledger match record' checks it, recorded once the opposing coach
    confirms it or the commissioner approves it."""
    parsed = read_report(report)
    submitted = session.ledger().handle(
        SubmitReport(session.league(), team, parsed, roll_missing=roll_missing),
        by=session.user,
        reason=reason,
    )
    say(
        f"Submitted report {submitted} of match {parsed.match}: {parsed.home.team} v"
        f" {parsed.away.team}, waiting for the opposing coach."
    )


@submission.command("list")
@click.option("--all", "everything", is_flag=True, help="Also the answered and decided ones.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def list_(session: Session, everything: bool, as_json: bool) -> None:
    """The reports waiting for the opposing coach or the commissioner (--all: every one)."""
    ledger, league = session.ledger(), session.league()
    ledger.catch_up()  # what other processes recorded since these tables were written
    states = None if everything else submissions.PENDING
    rows = submissions.submissions(ledger, league, states)
    if as_json:
        print_json([submissions.summary(row) for row in rows])
        return
    if not rows:
        say("No report is waiting." if not everything else "No report was submitted.")
        return
    headers = ["id", "match", "teams", "by", "submitted", "status", "why"]
    say(table(headers, [line(row) for row in rows]))


def line(row: SubmissionRow) -> list[object]:
    teams = " v ".join((row.home, row.away, *row.others))
    why = row.dispute if row.status == "disputed" else row.rejection
    return [
        row.submission,
        row.match_id,
        teams,
        row.team,
        row.submitted_at[:16].replace("T", " "),
        row.status,
        why or "",
    ]


@submission.command("confirm")
@click.argument("submission_id", metavar="ID")
@TEAM
@pass_session
def confirm(session: Session, submission_id: str, team: str) -> None:
    """TEAM, the opposing side, confirms report ID: the match is recorded at once."""
    match_id = session.ledger().handle(
        ConfirmReport(session.league(), submission_id, team), by=session.user
    )
    say(f"{team} confirmed report {submission_id}: recorded match {match_id}.")


@submission.command("dispute")
@click.argument("submission_id", metavar="ID")
@TEAM
@click.option("--reason", required=True, help="What is wrong with it (the commissioner reads it).")
@pass_session
def dispute(session: Session, submission_id: str, team: str, reason: str) -> None:
    """TEAM, the opposing side, disputes report ID: it waits for the commissioner."""
    session.ledger().handle(
        DisputeReport(session.league(), submission_id, team), by=session.user, reason=reason
    )
    say(f"{team} disputed report {submission_id}: the commissioner approves or rejects it.")


@submission.command("approve")
@click.argument("submission_id", metavar="ID")
@click.option("--reason", help="A note kept in the log.")
@pass_session
def approve(session: Session, submission_id: str, reason: str | None) -> None:
    """The commissioner approves report ID (disputed or not): the match is recorded."""
    match_id = session.ledger().handle(
        ApproveReport(session.league(), submission_id), by=session.user, reason=reason
    )
    say(f"Approved report {submission_id}: recorded match {match_id}.")


@submission.command("reject")
@click.argument("submission_id", metavar="ID")
@click.option("--reason", required=True, help="Why (the coaches read it).")
@pass_session
def reject(session: Session, submission_id: str, reason: str) -> None:
    """The commissioner rejects report ID: nothing of it is recorded but the rejection."""
    session.ledger().handle(
        RejectReport(session.league(), submission_id), by=session.user, reason=reason
    )
    say(f"Rejected report {submission_id}; a corrected report may be submitted.")


@submission.command("withdraw")
@click.argument("submission_id", metavar="ID")
@TEAM
@click.option("--reason", help="Why (kept in the log; the opposing coach reads it).")
@pass_session
def withdraw(session: Session, submission_id: str, team: str, reason: str | None) -> None:
    """TEAM, which submitted report ID, takes it back while it waits: nothing of it is
    recorded, and a corrected report may be submitted."""
    session.ledger().handle(
        WithdrawReport(session.league(), submission_id, team), by=session.user, reason=reason
    )
    say(f"{team} withdrew report {submission_id}; a corrected report may be submitted.")


COMMANDS = [submission]
