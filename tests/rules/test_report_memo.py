"""What a report alone decides is worked out once per report while it lives
(``ledger.rules.memo``), and answered the same as without the memo."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from ledger.domain.events import MatchRecorded
from ledger.domain.values import Casualty, Hireling, Performance, PointsScheme, TeamSheet
from ledger.rules.base import BaseRuleset, remembering_reports
from ledger.rules.bb2020.ruleset import BB2020
from ledger.rules.bb2025.ruleset import BB2025
from ledger.rules.lrb6_zal.ruleset import LRB6ZAL
from ledger.rules.memo import ReportMemo
from ledger.rules.protocol import Tally


def blocked() -> Casualty:
    return Casualty(victim="q1", inflicted_by="p1", cause="block", outcome="badly_hurt")


def sheet(touchdowns: int, team: str = "reavers") -> TeamSheet:
    scorer = Performance(player="p1" if team == "reavers" else "q1", touchdowns=touchdowns)
    return TeamSheet(team=team, touchdowns=touchdowns, players=(scorer,))


def test_an_answer_is_worked_out_once_per_owner_and_other_inputs() -> None:
    memo: ReportMemo[str] = ReportMemo()
    first = sheet(touchdowns=1)
    casualties: tuple[Casualty, ...] = (blocked(),)
    calls: list[str] = []

    def work() -> str:
        calls.append("worked")
        return "answer"

    assert memo.get(first, (casualties,), work) == "answer"
    assert memo.get(first, (casualties,), work) == "answer"
    assert calls == ["worked"]
    memo.get(first, ((),), work)  # other casualties: worked out again
    memo.get(first, ((),), work)  # and kept beside the first
    memo.get(sheet(touchdowns=1), (casualties,), work)  # an equal sheet is another report's
    assert calls == ["worked"] * 3


def test_an_entry_goes_with_its_owner() -> None:
    memo: ReportMemo[int] = ReportMemo()
    kept = sheet(touchdowns=2)
    memo.get(kept, (), lambda: 1)
    memo.get(sheet(touchdowns=3), (), lambda: 2)
    gc.collect()
    assert len(memo.kept) == 1
    del kept
    gc.collect()
    assert memo.kept == {}


def test_the_memo_answers_as_the_rules_do() -> None:
    """The first answers (worked out) and the second (kept) are the rules', for a scorer
    who caused a casualty (seed 001 'Earning Star Player Points') and for the casualties
    each side caused, asked side by side of one report."""
    ruleset = BB2025()
    remembering_reports(ruleset)
    report = TeamSheet(
        team="reavers",
        touchdowns=2,
        players=(Performance(player="p1", touchdowns=2), Performance(player="p2")),
    )
    match = MatchRecorded.model_construct(
        match="m1", home=report, away=sheet(0, team="rats"), casualties=(blocked(),)
    )
    direct = ruleset.sheet_spp(match, report)
    for _ in range(2):
        assert ruleset.spp_outcomes(match, report) == direct
        assert [ruleset.spp_casualties(match, team) for team in ("reavers", "rats")] == [1, 0]
    assert [(e.player, e.amount) for e in direct] == [("p1", 2 * 3 + 2)]


STAR = Hireling(id="s1", name="Griff", kind="star", star="griff")
EDITIONS_SPP = [
    # edition, who scored and how, SPP each earns (seed 001 'Recording Star Player Points':
    # a star earns none; bb2020 'Passing Interference': a deflection earns 1; ZAL 3k and
    # docs/rulesets/lrb6-zal.md: every player of the sheet earns them)
    (BB2025, Performance(player="s1", touchdowns=1), [("p1", 3)]),
    (BB2020, Performance(player="p2", deflections=1), [("p1", 3), ("p2", 1)]),
    (LRB6ZAL, Performance(player="s1", touchdowns=1), [("p1", 3), ("s1", 3)]),
]


@pytest.mark.parametrize(("edition", "other", "expected"), EDITIONS_SPP)
def test_each_editions_spp_read_through_the_memo(
    edition: type[BaseRuleset[Any]], other: Performance, expected: list[tuple[str, int]]
) -> None:
    """The editions' own readings (who is exempt, what else pays) are kept per report as
    they were worked out: asked twice, the same SPP."""
    ruleset = edition()
    remembering_reports(ruleset)
    side = TeamSheet(
        team="reavers",
        touchdowns=2,
        players=(Performance(player="p1", touchdowns=1), other),
        hirelings=(STAR,),
    )
    match = MatchRecorded.model_construct(match="m1", home=side, away=sheet(0), casualties=())
    for _ in range(2):
        assert [(e.player, e.amount) for e in ruleset.spp_outcomes(match, side)] == expected


def test_only_a_ruleset_remembering_reports_keeps_their_answers() -> None:
    """A fold that meets each report once (a rebuild) keeps nothing: keeping would only
    cost it; a Monte Carlo what-if's ruleset keeps each report's answers."""
    once, samples = BB2025(), BB2025()
    remembering_reports(samples)
    match = MatchRecorded.model_construct(
        match="m1", home=sheet(1), away=sheet(0, team="rats"), casualties=(blocked(),)
    )
    for ruleset in (once, samples):
        ruleset.spp_outcomes(match, match.home)
        ruleset.spp_casualties(match, "reavers")
        ruleset.tally(match, "reavers", PointsScheme())
    assert (once.spp_memo.kept, once.caused_memo.kept, once.tally_memo.kept) == ({}, {}, {})
    kept = (samples.spp_memo.kept, samples.caused_memo.kept, samples.tally_memo.kept)
    assert [len(memo) for memo in kept] == [1, 1, 1]


TALLIES = [
    # scheme, the winners' tally, the losers' (seed 001 'League Points': 3 for a win by
    # default; a league's own scheme, and its bonus point for three casualties, stand)
    (PointsScheme(), Tally("win", 3, 0, 3), Tally("loss", 0, 0, 0)),
    (PointsScheme(win=2), Tally("win", 2, 0, 3), Tally("loss", 0, 0, 0)),
    (PointsScheme(bonus=("three_casualties",)), Tally("win", 3, 1, 3), Tally("loss", 0, 0, 0)),
]


def test_a_tally_is_kept_per_report_team_and_scheme() -> None:
    """A game's tally is the report's and the league's scheme's alone (``BaseRuleset.tally``):
    kept per report for a Monte Carlo what-if, and asked again under another scheme or
    for the other side, worked out anew, as a ruleset keeping nothing works it out."""
    once, samples = BB2025(), BB2025()
    remembering_reports(samples)
    match = MatchRecorded.model_construct(
        match="m1", home=sheet(2), away=sheet(0, team="rats"), casualties=(blocked(),) * 3
    )
    for _ in range(2):
        for scheme, winners, losers in TALLIES:
            for ruleset in (once, samples):
                assert ruleset.tally(match, "reavers", scheme) == winners
                assert ruleset.tally(match, "rats", scheme) == losers
    assert len(samples.tally_memo.kept) == 1  # one report, its six answers side by side
