"""The match report workflow of a league's coaches (DESIGN.md decision 8).

A coach submits the report of a match their team played (``SubmitReport``): it is
checked at once exactly as ``ledger match record`` would check it, so a mistake is seen
while the game is fresh, and kept as a submission. The opposing coach confirms it
(``ConfirmReport``: the match is recorded at once) or disputes it with a reason
(``DisputeReport``); the commissioner approves a waiting report, disputed or not
(``ApproveReport``: recorded), or rejects it with a reason (``RejectReport``). These are
commands like any other (``LeagueLedger.handle``), and their handlers are here. Recording
goes through the very plan of ``ledger match record``, drafted with the answer: the
answer and the match are appended together, or neither. Until then a submission changes
no figure of the league, only its own row.

Who may do which is the caller's to check (ledger/application/access.py actions
``submit_report``, ``answer_report``, ``decide_report``); ``submitting_team`` and
``answering_team`` say which team a principal acts for.

Worked example: ``ledger.handle(SubmitReport("test", "reavers", report), by="Anna")``
returns ``"s1"``; then ``ledger.handle(ConfirmReport("test", "s1", "rats"), by="Ratty")``
records the report's match and returns its id; the standings now count it, as if the
commissioner had recorded it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ledger.application import matches
from ledger.application.access import Principal
from ledger.application.commands import (
    ApproveReport,
    ConfirmReport,
    DisputeReport,
    RecordMatch,
    RejectReport,
    SubmitReport,
    WithdrawReport,
)
from ledger.application.context import (
    Context,
    Drafts,
    check_length,
    check_reason,
    when_played,
)
from ledger.application.mistakes import Found
from ledger.application.reports import MatchReport
from ledger.domain import events as ev
from ledger.domain.state import REPORTS_WAITING, LeagueView, MatchRow, SubmissionRow
from ledger.domain.values import validation_problems
from ledger.errors import (
    InvalidInput,
    LedgerError,
    MalformedReport,
    NotAllowed,
    UnknownSubmission,
)

if TYPE_CHECKING:
    from ledger.application.service import LeagueLedger

PENDING = REPORTS_WAITING
"""The states of a report that waits for an answer or a decision."""
SENT_AGAIN = ("rejected", "withdrawn")
"""The states of a report not recorded, whose team may correct it and send it again."""

STANDING = {
    "submitted": "waits for the opposing coach to confirm or dispute it",
    "disputed": "was disputed: the commissioner approves or rejects it",
    "confirmed": "was already confirmed",
    "approved": "was already approved",
    "rejected": "was rejected: submit a corrected report instead",
    "withdrawn": "was withdrawn: submit a corrected report instead",
}


# --- plans: what each step records, checked against the league -------------------------


def plan_submit(c: Context, command: SubmitReport) -> Drafts:
    report, team, roll_missing = command.report, command.team, command.roll_missing
    check_length(c.reason, "a submission")
    teams = teams_of(report)
    if team not in teams:
        raise NotAllowed(
            f"{c.team_name(team)} did not play the match this report records"
            f" ({' v '.join(c.team_name(t) for t in teams)})"
        )
    found = Found()
    with found.at("match"):
        check_nothing_waiting(c, named(report))
        check_no_twin(c, teams, named(report))
    # Every check of 'ledger match record', now; the match is recorded only once the
    # report is confirmed or approved (and checked again then, against the league as it is).
    with found.at():
        matches.plan_record(c, RecordMatch(c.league.slug, report, roll_missing=roll_missing))
    found.refuse()
    return [
        ev.ReportSubmitted(
            submission=next_id(c),
            match=named(report),
            team=team,
            report=report.model_dump(mode="json", exclude_defaults=True),
            roll_missing=roll_missing,
        )
    ]


def plan_confirm(c: Context, command: ConfirmReport) -> Drafts:
    submission, team = command.submission, command.team
    row = waiting(c, submission, ("submitted",))
    check_opponent(c, row, team, c.account)
    if row.others:
        raise NotAllowed(
            f"{described(c, row)} is of a match of {2 + len(row.others)} teams: one opponent"
            " cannot confirm it for the others, the commissioner approves it"
        )
    answer = ev.ReportConfirmed(submission=submission, match=row.match_id, team=team)
    return [answer, recorded(c, row, f"confirmed by {c.team_name(team)}")]


def plan_dispute(c: Context, command: DisputeReport) -> Drafts:
    check_reason(c.reason, "a dispute", "the commissioner reads it")
    row = waiting(c, command.submission, ("submitted",))
    check_opponent(c, row, command.team, c.account)
    return [ev.ReportDisputed(submission=row.submission, match=row.match_id, team=command.team)]


def plan_approve(c: Context, command: ApproveReport) -> Drafts:
    check_length(c.reason, "an approval")
    row = waiting(c, command.submission, PENDING)
    answer = ev.ReportApproved(submission=row.submission, match=row.match_id)
    return [answer, recorded(c, row, "approved by the commissioner")]


def plan_reject(c: Context, command: RejectReport) -> Drafts:
    check_reason(c.reason, "a rejection", "the coaches read it")
    row = waiting(c, command.submission, PENDING)
    return [ev.ReportRejected(submission=row.submission, match=row.match_id)]


def plan_withdraw(c: Context, command: WithdrawReport) -> Drafts:
    """Its own team takes a report back while it waits, disputed or not (a mistake seen
    after sending it): the opposing coach need not dispute it, nor the commissioner reject
    it, for a corrected one to be sent."""
    check_length(c.reason, "a withdrawal")
    row = waiting(c, command.submission, PENDING)
    if command.team != row.team:
        raise NotAllowed(
            f"{c.team_name(row.team)} submitted {described(c, row)}: only they withdraw it"
            " (the opposing coach disputes it)"
        )
    return [ev.ReportWithdrawn(submission=row.submission, match=row.match_id, team=row.team)]


def recorded(c: Context, row: SubmissionRow, why: str) -> ev.LedgerEvent:
    """The match of a confirmed or approved report, checked as 'ledger match record'
    checks it, against the league as it is now (a player may have been hurt or fired
    since the report was submitted, or the commissioner may have recorded the match). It
    is recorded with the answer, in one append, and says why in its own reason."""
    try:
        command = RecordMatch(c.league.slug, report_of(row), roll_missing=row.roll_missing)
        (match,) = matches.plan_record(c, command)
    except LedgerError as error:  # its mistakes kept, each at its place (mistakes.py)
        raise type(error)(
            f"{described(c, row)} cannot be recorded as it stands: {error.message}"
            " (nothing was recorded; the commissioner may reject it for a corrected one)"
        ) from error.__cause__
    by = c.team_name(row.team)
    return match.model_copy(update={"reason": f"report {row.submission} of {by}, {why}"})


# --- checks --------------------------------------------------------------------------------


def teams_of(report: MatchReport) -> list[str]:
    return [side.team for side in (report.home, report.away, *report.others)]


def opponents_of(row: SubmissionRow) -> list[str]:
    return [t for t in (row.home, row.away, *row.others) if t != row.team]


def next_id(c: Context) -> str:
    """``s1``, ``s2``...: one more than the league's highest submission so far (the
    fold keeps the number on the league's row, so no submission is read for it)."""
    return f"s{c.league.next_submission}"


def named(report: MatchReport) -> str:
    """The match a submitted report names (a report file may leave it to the ledger)."""
    if report.match is None:
        raise InvalidInput(
            "a submitted report names its match: the fixture's id, or an id of your choosing"
            " for a friendly"
        )
    return report.match


def check_nothing_waiting(c: Context, match_id: str) -> None:
    for row in c.view.select(SubmissionRow, league_id=c.league_id, match_id=match_id):
        if row.status in PENDING:
            raise NotAllowed(
                f"{described(c, row)}, submitted by {c.team_name(row.team)},"
                f" {STANDING[row.status]}; a second report waits until it is answered"
            )


def check_no_twin(c: Context, teams: Sequence[str], match_id: str) -> None:
    twin = waiting_twin(c.view, c.league_id, teams, match_id)
    if twin is not None:
        raise NotAllowed(
            f"{described(c, twin)}, submitted by {c.team_name(twin.team)},"
            f" {STANDING[twin.status]}; another report of the same teams' game waits until"
            " it is answered or withdrawn"
        )


def waiting_twin(
    view: LeagueView, league_id: str, teams: Sequence[str], match_id: str
) -> SubmissionRow | None:
    """A waiting report of the same teams' game, where neither game has a fixture: the
    form proposes a new match id each time it is opened, so a coach who went Back and
    sent it again would leave two reports of one game, both to be confirmed."""
    if view.get(MatchRow, league_id, match_id) is not None:
        return None  # a fixture's report waits by its id (check_nothing_waiting)
    for row in listed(view, league_id, PENDING):
        if sorted((row.home, row.away, *row.others)) != sorted(teams) or row.match_id == match_id:
            continue
        if view.get(MatchRow, league_id, row.match_id) is None:
            return row
    return None


def described(c: Context, row: SubmissionRow) -> str:
    """A submitted report as a sentence names it: by its game, ``the report of Reikland
    Reavers v Grudgebearers (round 1)``, not by its id or its match's."""
    teams = " v ".join(c.team_name(t) for t in (row.home, row.away, *row.others))
    return f"the report of {teams} ({game_of(c, row)})"


def game_of(c: Context, row: SubmissionRow) -> str:
    """Which game of the two teams: a fixture's round or play-off stage, else its kind."""
    match = c.match(row.match_id)
    if match is not None:
        return when_played(match)
    kind = str(row.report.get("kind", "league"))
    return "league game" if kind == "league" else kind


def submission_in(c: Context, submission: str) -> SubmissionRow:
    row = c.view.get(SubmissionRow, c.league_id, submission)
    if row is None:
        known = c.view.select(SubmissionRow, league_id=c.league_id)
        raise UnknownSubmission(
            f"no submitted report '{submission}' in league {c.league.slug}",
            given=submission,
            known=[r.submission for r in known],
        )
    return row


def waiting(c: Context, submission: str, states: Sequence[str]) -> SubmissionRow:
    """The submission, which must be in one of ``states``."""
    row = submission_in(c, submission)
    if row.status not in states:
        decided = f" (event {row.decided_seq})" if row.decided_seq else ""
        raise NotAllowed(f"{described(c, row)} {STANDING[row.status]}{decided}")
    return row


def check_opponent(c: Context, row: SubmissionRow, team: str, account: str | None) -> None:
    """Only the opposing team answers a report, and not from the account that sent it (a
    coach of both teams leaves the answer to the commissioner)."""
    opponents = " or ".join(c.team_name(t) for t in opponents_of(row))
    report = described(c, row)
    if team == row.team:
        raise NotAllowed(
            f"{c.team_name(team)} submitted {report}: the opposing coach ({opponents})"
            " confirms or disputes it"
        )
    if team not in opponents_of(row):
        raise NotAllowed(
            f"{c.team_name(team)} did not play that game: only {opponents} answers {report}"
        )
    if account is not None and account == row.account:
        raise NotAllowed(
            f"{account} submitted {report} and cannot answer it too: the commissioner approves it"
        )


def report_of(row: SubmissionRow) -> MatchReport:
    """The report as submitted (it was checked then; an imported log may hold anything)."""
    try:
        return MatchReport.model_validate(row.report)
    except ValidationError as error:
        raise MalformedReport(
            f"report {row.submission} as stored is not a match report: {validation_problems(error)}"
        ) from None


# --- reading ---------------------------------------------------------------------------------


def submissions(
    ledger: LeagueLedger, league: str, states: Sequence[str] | None = None
) -> list[SubmissionRow]:
    """The league's submitted reports (those in ``states``, if given), oldest first."""
    return listed(ledger.view(), ledger.league_row(league).league_id, states)


def listed(
    view: LeagueView, league_id: str, states: Sequence[str] | None = None
) -> list[SubmissionRow]:
    """``submissions`` of the league ``league_id`` as ``view`` holds it (a page passes the
    league it has read already)."""
    if states is None:
        chosen = view.select(SubmissionRow, league_id=league_id)
    else:  # asked of the database state by state: a league keeps every report it had
        chosen = [
            r
            for state in states
            for r in view.select(SubmissionRow, league_id=league_id, status=state)
        ]
    return sorted(chosen, key=lambda r: r.submitted_seq)


def pending(ledger: LeagueLedger, league: str) -> list[SubmissionRow]:
    """Reports waiting for the opposing coach or for the commissioner."""
    return submissions(ledger, league, PENDING)


def find(ledger: LeagueLedger, league: str, submission: str) -> SubmissionRow:
    return submission_in(ledger.context(league), submission)


# --- which team a principal acts for ----------------------------------------------------------


def submitting_team(who: Principal, league: str, report: MatchReport) -> str:
    """The team of ``report`` that ``who`` submits it for: the first they coach; else the
    home team (a commissioner acts for any team; for anyone else ``authorize`` then says
    why not)."""
    return first_coached(who, league, teams_of(report))


def answering_team(who: Principal, league: str, row: SubmissionRow) -> str:
    """The opposing team that ``who`` answers a submitted report for, chosen the same way."""
    return first_coached(who, league, opponents_of(row))


def first_coached(who: Principal, league: str, teams: Sequence[str]) -> str:
    coached = who.teams_in(league)
    return next((t for t in teams if t in coached), teams[0])


def summary(row: SubmissionRow) -> dict[str, Any]:
    """A submission as scripts and pages show it (the report itself aside)."""
    return row.model_dump(mode="json", exclude={"league_id", "report"})
