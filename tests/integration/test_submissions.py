"""Coaches' match reports (issue 12, point 5): submitted, then confirmed by the opposing
coach (recorded at once) or disputed, approved or rejected by the commissioner. Only the
recorded match changes the league's figures."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ledger.application import submissions as sub
from ledger.application.access import Actor, Membership, Principal, authorize
from ledger.application.commands import (
    ApproveReport,
    ConfirmReport,
    DisputeReport,
    FirePlayer,
    HirePlayer,
    RecordMatch,
    RejectReport,
    SubmitReport,
    WithdrawReport,
)
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.log import league_id
from ledger.domain.state import (
    MatchRow,
    PlayerRow,
    StandingRow,
    SubmissionRow,
    TeamGameLine,
    TeamRow,
    TreasuryLine,
)
from ledger.errors import (
    Forbidden,
    InvalidInput,
    MatchAlreadyRecorded,
    NotAllowed,
    PlayerUnavailable,
    UnknownPlayer,
    UnknownSubmission,
)
from ledger.projections.describe import describe
from tests.integration.test_audit_and_transfer import GAME
from tests.support import event_count, report, two_team_league

FIGURES = (TeamRow, PlayerRow, MatchRow, StandingRow, TreasuryLine, TeamGameLine)
SEQ_FIELDS = {"league_id", "seq", "line", "recorded_seq"}
"""Where in the log a fact stands: two extra events (the report and its answer) move the
match along the log without changing a single figure."""


def books(ledger: LeagueLedger, slug: str) -> dict[str, list[dict[str, Any]]]:
    """Every figure of the league: teams, players, matches, standings, gold, games."""
    view, league = ledger.view(), str(league_id(slug))
    return {
        kind.__name__: [
            r.model_dump(exclude=SEQ_FIELDS) for r in view.select(kind, league_id=league)
        ]
        for kind in FIGURES
    }


def events_of(ledger: LeagueLedger, slug: str) -> list[str]:
    return [type(e).__name__ for e in ledger.source.league_events(str(league_id(slug)))]


def submitted(ledger: LeagueLedger, game: dict[str, Any] = GAME) -> tuple[str, str]:
    slug = two_team_league(ledger)
    return slug, ledger.handle(SubmitReport(slug, "reavers", report(game)), by="Anna")


def test_a_confirmed_report_is_recorded_as_the_commissioner_would_record_it(
    ledger: LeagueLedger,
) -> None:
    slug, submission = submitted(ledger)
    assert submission == "s1"
    assert [row.submission for row in sub.pending(ledger, slug)] == ["s1"]
    assert ledger.handle(ConfirmReport(slug, submission, "rats"), by="Rob") == "g1"
    direct = two_team_league(ledger, "direct")
    ledger.handle(RecordMatch(direct, report(GAME)), by="tester")
    assert books(ledger, slug) == books(ledger, direct)
    assert events_of(ledger, slug)[-3:] == ["ReportSubmitted", "ReportConfirmed", "MatchRecorded"]
    recorded = list(ledger.source.league_events(str(league_id(slug))))[-1]
    assert (recorded.recorded_by, recorded.reason) == (
        "Rob",
        "report s1 of Reavers, confirmed by Rats",
    )
    row = sub.find(ledger, slug, submission)
    assert (row.status, row.answered_by) == ("confirmed", "rats")
    assert sub.pending(ledger, slug) == []


def test_a_waiting_or_disputed_report_changes_no_figure_until_approved(
    ledger: LeagueLedger,
) -> None:
    slug = two_team_league(ledger)
    before = books(ledger, slug)
    submission = ledger.handle(SubmitReport(slug, "reavers", report(GAME)), by="Anna")
    ledger.handle(DisputeReport(slug, submission, "rats"), by="Rob", reason="Rats 5 got up again")
    assert books(ledger, slug) == before
    [row] = sub.pending(ledger, slug)
    assert (row.status, row.dispute, row.answered_by) == ("disputed", "Rats 5 got up again", "rats")
    with pytest.raises(NotAllowed, match="was disputed: the commissioner approves or rejects"):
        ledger.handle(ConfirmReport(slug, submission, "rats"), by="Rob")
    approved = ledger.handle(ApproveReport(slug, submission), by="cmsh", reason="looks right")
    assert approved == "g1"
    assert books(ledger, slug) != before
    assert ledger.view().get(MatchRow, str(league_id(slug)), "g1").status == "played"  # type: ignore[union-attr]
    assert sub.find(ledger, slug, submission).status == "approved"
    assert events_of(ledger, slug)[-2:] == ["ReportApproved", "MatchRecorded"]
    answer, recorded = list(ledger.source.league_events(str(league_id(slug))))[-2:]
    assert [(e.recorded_by, e.reason) for e in (answer, recorded)] == [
        ("cmsh", "looks right"),
        ("cmsh", "report s1 of Reavers, approved by the commissioner"),
    ]


def test_a_rejected_report_changes_nothing_but_its_own_row(ledger: LeagueLedger) -> None:
    slug = two_team_league(ledger)
    before = books(ledger, slug)
    first = ledger.handle(SubmitReport(slug, "reavers", report(GAME)), by="Anna")
    ledger.handle(DisputeReport(slug, first, "rats"), by="Rob", reason="wrong score")
    ledger.handle(RejectReport(slug, first), by="cmsh", reason="the score was 0-0")
    assert books(ledger, slug) == before
    row = sub.find(ledger, slug, first)
    assert (row.status, row.rejection) == ("rejected", "the score was 0-0")
    assert sub.pending(ledger, slug) == []
    with pytest.raises(NotAllowed, match="was rejected"):
        ledger.handle(ApproveReport(slug, first), by="cmsh")
    assert ledger.handle(SubmitReport(slug, "rats", report(GAME)), by="Rob") == "s2"


@pytest.mark.parametrize("disputed", [False, True], ids=["waiting", "disputed"])
def test_a_report_withdrawn_by_its_team_changes_nothing_and_may_be_sent_again(
    ledger: LeagueLedger, disputed: bool
) -> None:
    """A mistake seen after sending: its own team takes it back while it waits, disputed
    or not, without the opposing coach disputing it or the commissioner rejecting it."""
    slug = two_team_league(ledger)
    before = books(ledger, slug)
    first = ledger.handle(SubmitReport(slug, "reavers", report(GAME)), by="Anna")
    if disputed:
        ledger.handle(DisputeReport(slug, first, "rats"), by="Rob", reason="wrong score")
    ledger.handle(WithdrawReport(slug, first, "reavers"), by="Anna", reason="wrong scorer")
    assert books(ledger, slug) == before
    row = sub.find(ledger, slug, first)
    assert (row.status, row.rejection) == ("withdrawn", "wrong scorer")
    assert sub.pending(ledger, slug) == []
    assert events_of(ledger, slug)[-1] == "ReportWithdrawn"
    for answer in (ConfirmReport(slug, first, "rats"), ApproveReport(slug, first)):
        with pytest.raises(NotAllowed, match="was withdrawn: submit a corrected report"):
            ledger.handle(answer, by="cmsh")
    assert ledger.handle(SubmitReport(slug, "reavers", report(GAME)), by="Anna") == "s2"


def test_only_the_team_that_submitted_a_report_withdraws_it(ledger: LeagueLedger) -> None:
    slug, submission = submitted(ledger)
    count = event_count(ledger)
    with pytest.raises(NotAllowed, match=r"Reavers submitted the report .*: only they withdraw"):
        ledger.handle(WithdrawReport(slug, submission, "rats"), by="Rob")
    ledger.handle(ConfirmReport(slug, submission, "rats"), by="Rob")
    with pytest.raises(NotAllowed, match="was already confirmed"):
        ledger.handle(WithdrawReport(slug, submission, "reavers"), by="Anna")
    assert event_count(ledger) == count + 2  # the confirmation and its match, nothing more


def test_only_the_opposing_team_answers_a_report(ledger: LeagueLedger) -> None:
    slug, submission = submitted(ledger)
    count = event_count(ledger)
    with pytest.raises(
        NotAllowed,
        match=r"Reavers submitted the report of Reavers v Rats \(league game\): the opposing coach",
    ):
        ledger.handle(ConfirmReport(slug, submission, "reavers"), by="Anna")
    with pytest.raises(
        NotAllowed,
        match=r"orcs did not play that game: only Rats answers the report of Reavers v Rats",
    ):
        ledger.handle(DisputeReport(slug, submission, "orcs"), by="Olaf", reason="no")
    with pytest.raises(UnknownSubmission):
        ledger.handle(ConfirmReport(slug, "s9", "rats"), by="Rob")
    assert event_count(ledger) == count
    assert sub.find(ledger, slug, submission).status == "submitted"


def test_the_account_that_submitted_cannot_confirm_for_the_other_team(
    ledger: LeagueLedger,
) -> None:
    slug = two_team_league(ledger)
    both = Actor(name="Pat", account="pat", role="coach", via="api", request_id="r1")
    with ledger.acting(both):
        submission = ledger.handle(SubmitReport(slug, "reavers", report(GAME)), by="Pat")
        with pytest.raises(
            NotAllowed,
            match=r"pat submitted the report of Reavers v Rats \(league game\) and cannot answer",
        ):
            ledger.handle(ConfirmReport(slug, submission, "rats"), by="Pat")
    assert sub.find(ledger, slug, submission).account == "pat"


def test_a_second_report_of_a_match_waits_until_the_first_is_answered(
    ledger: LeagueLedger,
) -> None:
    slug, _ = submitted(ledger)
    with pytest.raises(
        NotAllowed,
        match=r"the report of Reavers v Rats \(league game\), submitted by Reavers, waits",
    ):
        ledger.handle(SubmitReport(slug, "rats", report(GAME)), by="Rob")
    assert [row.submission for row in sub.submissions(ledger, slug)] == ["s1"]


def test_a_second_report_of_the_same_teams_game_waits_though_it_names_another_match(
    ledger: LeagueLedger,
) -> None:
    """The report form of a game without a fixture proposes a new match id each time it
    is opened: a coach who went Back and sent it again sent the same game under another
    id. It waits for the first to be answered or withdrawn, as a fixture's second does."""
    slug, first = submitted(ledger)
    again = report({**GAME, "match": "g2"})
    for team, coach in (("reavers", "Anna"), ("rats", "Rob")):
        with pytest.raises(
            NotAllowed,
            match=r"the report of Reavers v Rats \(league game\), submitted by Reavers, waits"
            r".*another report of the same teams' game waits until it is answered or withdrawn",
        ):
            ledger.handle(SubmitReport(slug, team, again), by=coach)
    assert [row.submission for row in sub.submissions(ledger, slug)] == [first]
    ledger.handle(WithdrawReport(slug, first, "reavers"), by="Anna", reason="sent twice")
    assert ledger.handle(SubmitReport(slug, "reavers", again), by="Anna") == "s2"


def test_a_report_is_checked_when_it_is_submitted(ledger: LeagueLedger) -> None:
    slug = two_team_league(ledger)
    count = event_count(ledger)
    wrong_player = {**GAME, "casualties": [{"victim": "rats 99", "roll": 13, "lasting": 6}]}
    with pytest.raises(UnknownPlayer):
        ledger.handle(SubmitReport(slug, "reavers", report(wrong_player)), by="Anna")
    with pytest.raises(InvalidInput, match="names its match"):
        ledger.handle(SubmitReport(slug, "reavers", report({**GAME, "match": None})), by="Anna")
    with pytest.raises(NotAllowed, match="orcs did not play the match"):
        ledger.handle(SubmitReport(slug, "orcs", report(GAME)), by="Olaf")
    ledger.handle(RecordMatch(slug, report(GAME)), by="tester")
    with pytest.raises(MatchAlreadyRecorded):
        ledger.handle(SubmitReport(slug, "reavers", report(GAME)), by="Anna")
    assert event_count(ledger) == count + 1  # the commissioner's record only


def test_confirming_a_match_the_commissioner_recorded_meanwhile_is_refused(
    ledger: LeagueLedger,
) -> None:
    slug, submission = submitted(ledger)
    ledger.handle(RecordMatch(slug, report(GAME)), by="tester")
    count = event_count(ledger)
    with pytest.raises(
        MatchAlreadyRecorded,
        match=r"the report of Reavers v Rats \(league game\) cannot be recorded as it stands",
    ):
        ledger.handle(ConfirmReport(slug, submission, "rats"), by="Rob")
    assert event_count(ledger) == count
    assert [row.submission for row in sub.pending(ledger, slug)] == ["s1"]
    ledger.handle(RejectReport(slug, submission), by="cmsh", reason="recorded by the commissioner")
    assert sub.pending(ledger, slug) == []


def test_a_confirmation_whose_match_cannot_be_recorded_stores_nothing(
    ledger: LeagueLedger,
) -> None:
    slug, submission = submitted(ledger)
    ledger.handle(HirePlayer(slug, "reavers", "lineman", "reavers 12"), by="tester")  # 11 stay
    scorer = ledger.context(slug).player("reavers 1", "reavers")
    ledger.handle(FirePlayer(slug, "reavers", scorer.player_id), by="tester")
    count = event_count(ledger)
    with pytest.raises(PlayerUnavailable, match="was fired and cannot play"):
        ledger.handle(ConfirmReport(slug, submission, "rats"), by="Rob")
    assert event_count(ledger) == count
    assert "ReportConfirmed" not in events_of(ledger, slug)
    assert sub.find(ledger, slug, submission).status == "submitted"


def test_answers_need_a_reason_and_a_waiting_report(ledger: LeagueLedger) -> None:
    slug, submission = submitted(ledger)
    with pytest.raises(InvalidInput, match="a dispute needs a reason"):
        ledger.handle(DisputeReport(slug, submission, "rats"), by="Rob", reason="")
    with pytest.raises(InvalidInput, match="a rejection needs a reason"):
        ledger.handle(RejectReport(slug, submission), by="cmsh", reason="")
    with pytest.raises(InvalidInput, match="a dispute's reason is 1,001 characters; at most 1,000"):
        ledger.handle(DisputeReport(slug, submission, "rats"), by="Rob", reason="x" * 1001)
    ledger.handle(ConfirmReport(slug, submission, "rats"), by="Rob")
    with pytest.raises(
        NotAllowed,
        match=r"the report of Reavers v Rats \(league game\) was already confirmed \(event \d+\)",
    ):
        ledger.handle(ApproveReport(slug, submission), by="cmsh")


def test_submissions_rebuild_as_they_were_folded(ledger: LeagueLedger) -> None:
    slug, first = submitted(ledger)
    ledger.handle(DisputeReport(slug, first, "rats"), by="Rob", reason="wrong")
    ledger.handle(RejectReport(slug, first), by="cmsh", reason="resubmit")
    second = ledger.handle(SubmitReport(slug, "rats", report(GAME)), by="Rob")
    ledger.handle(WithdrawReport(slug, second, "rats"), by="Rob")
    third = ledger.handle(SubmitReport(slug, "rats", report(GAME)), by="Rob")
    ledger.handle(ConfirmReport(slug, third, "reavers"), by="Anna")
    folded = ledger.view().select(SubmissionRow, league_id=str(league_id(slug)))
    ledger.read_models.rebuild(ledger.source)
    assert ledger.view().select(SubmissionRow, league_id=str(league_id(slug))) == folded
    assert [r.status for r in folded] == ["rejected", "withdrawn", "confirmed"]


def test_the_next_report_number_is_kept_on_the_leagues_row(ledger: LeagueLedger) -> None:
    """One more than the highest so far, read from the league's row rather than found by
    reading every report the league ever had; a rebuild keeps it."""
    slug, first = submitted(ledger)
    ledger.handle(DisputeReport(slug, first, "rats"), by="Rob", reason="wrong")
    ledger.handle(RejectReport(slug, first), by="cmsh", reason="resubmit")
    assert ledger.handle(SubmitReport(slug, "rats", report(GAME)), by="Rob") == "s2"
    assert ledger.league_row(slug).next_submission == 3
    ledger.read_models.rebuild(ledger.source)
    assert ledger.league_row(slug).next_submission == 3
    context = ledger.context(slug)
    ahead = replace(context, league=context.league.model_copy(update={"next_submission": 8}))
    assert sub.next_id(ahead) == "s8"


def test_history_tells_the_workflow() -> None:
    event = ev.ReportSubmitted(
        submission="s1", match="g1", team="reavers", report=report(GAME).model_dump(mode="json")
    )
    assert describe(event) == "reavers submitted report s1 of match g1: reavers 1 v rats 0"


COACH_OF_RATS = Principal(
    account="rob", name="Rob", leagues={"test": Membership(role="coach", teams=("rats",))}
)
COMMISSIONER = Principal(
    account="cmsh", name="C", leagues={"test": Membership(role="commissioner")}
)


def test_which_team_a_principal_acts_for(ledger: LeagueLedger) -> None:
    slug, submission = submitted(ledger)
    row = sub.find(ledger, slug, submission)
    assert sub.submitting_team(COACH_OF_RATS, slug, report(GAME)) == "rats"
    assert sub.answering_team(COACH_OF_RATS, slug, row) == "rats"
    assert authorize(COACH_OF_RATS, slug, "answer_report", team="rats") == "coach"
    assert sub.answering_team(COMMISSIONER, slug, row) == "rats"
    coach_of_reavers = Principal(
        account="anna", name="Anna", leagues={"test": Membership(role="coach", teams=("reavers",))}
    )
    answering = sub.answering_team(coach_of_reavers, slug, row)
    with pytest.raises(Forbidden, match="coaches reavers, not rats"):
        authorize(coach_of_reavers, slug, "answer_report", team=answering)
    with pytest.raises(Forbidden, match="only the commissioner"):
        authorize(COACH_OF_RATS, slug, "decide_report")


def test_a_report_naming_no_match_takes_the_first_id_no_match_or_waiting_report_holds(
    ledger: LeagueLedger,
) -> None:
    """docs/match-report.md: left out, the ledger numbers the match (m1, m2...). A report
    waiting for its answer holds the id it names: the next recorded without one skips it,
    as the report form's proposal does (``matches.free_match_id``)."""
    slug, _ = submitted(ledger, {**GAME, "match": "m1"})
    unnamed = {key: value for key, value in GAME.items() if key != "match"}
    ledger.handle(RecordMatch(slug, report(unnamed)), by="tester")
    recorded = ledger.view().select(MatchRow, league_id=str(league_id(slug)), status="played")
    assert [row.match_id for row in recorded] == ["m2"]
    assert [row.match_id for row in sub.pending(ledger, slug)] == ["m1"]
