"""A report's SPP are worked out once per sheet while it lives (``ledger.rules.memo``),
and answered the same as without the memo."""

from __future__ import annotations

import gc

from ledger.domain.events import MatchRecorded
from ledger.domain.values import Casualty, Performance, TeamSheet
from ledger.rules.bb2025.ruleset import BB2025
from ledger.rules.memo import SheetMemo


def blocked() -> Casualty:
    return Casualty(victim="q1", inflicted_by="p1", cause="block", outcome="badly_hurt")


def sheet(touchdowns: int) -> TeamSheet:
    scorer = Performance(player="p1", touchdowns=touchdowns)
    return TeamSheet(team="reavers", touchdowns=touchdowns, players=(scorer,))


def test_an_answer_is_worked_out_once_per_sheet_and_casualties() -> None:
    memo: SheetMemo[str] = SheetMemo()
    first = sheet(touchdowns=1)
    casualties: tuple[Casualty, ...] = (blocked(),)
    calls: list[str] = []

    def work() -> str:
        calls.append("worked")
        return "answer"

    assert memo.get(first, casualties, work) == "answer"
    assert memo.get(first, casualties, work) == "answer"
    assert calls == ["worked"]
    memo.get(first, (blocked(),), work)  # another report's casualties: worked out again
    memo.get(sheet(touchdowns=1), casualties, work)  # an equal sheet is another report's
    assert calls == ["worked"] * 3


def test_an_entry_goes_with_its_sheet() -> None:
    memo: SheetMemo[int] = SheetMemo()
    kept = sheet(touchdowns=2)
    memo.get(kept, (), lambda: 1)
    memo.get(sheet(touchdowns=3), (), lambda: 2)
    gc.collect()
    assert len(memo.kept) == 1
    del kept
    gc.collect()
    assert memo.kept == {}


def test_the_memo_answers_as_the_rule_does() -> None:
    """The first answer (worked out) and the second (kept) are the rule's, for a scorer
    and for a player who caused a casualty (seed 001 'Earning Star Player Points')."""
    ruleset = BB2025()
    report = TeamSheet(
        team="reavers",
        touchdowns=2,
        players=(
            Performance(player="p1", touchdowns=2),
            Performance(player="p2"),
        ),
    )
    match = MatchRecorded.model_construct(
        match="m1", home=report, away=sheet(touchdowns=0), casualties=(blocked(),)
    )
    direct = ruleset.sheet_spp(match, report)
    assert ruleset.spp_outcomes(match, report) == direct
    assert ruleset.spp_outcomes(match, report) == direct
    assert [(e.player, e.amount) for e in direct] == [("p1", 2 * 3 + 2)]
