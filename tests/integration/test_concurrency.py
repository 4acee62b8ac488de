"""Two writers cannot both spend the same gold (optimistic concurrency on the league log)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any

import pytest

from ledger.application import teams
from ledger.application.context import Context, Fact
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.log import league_id
from ledger.domain.state import PlayerRow, TeamRow
from ledger.errors import InsufficientTreasury, LedgerError
from tests.support import create_league


def league_with_one_purchase_left(ledger: LeagueLedger) -> None:
    create_league(ledger)
    # 100,000: enough for one Blitzer (85,000), not two.
    ledger.register_team("test", "reavers", "Reavers", "coach", "human", by="t", treasury=100_000)


def hired(ledger: LeagueLedger) -> list[PlayerRow]:
    return list(ledger.view().select(PlayerRow, league_id=str(league_id("test"))))


def test_a_writer_that_lost_the_race_revalidates_and_is_refused(
    settings: Settings, open_ledgers: Callable[[Settings], LeagueLedger]
) -> None:
    first, second = open_ledgers(settings), open_ledgers(settings)
    league_with_one_purchase_left(first)
    raced: list[bool] = []

    def plan_racing_another_writer(c: Context) -> list[Fact]:
        facts = teams.plan_hire(c, "reavers", "blitzer", "First", None)
        if not raced:  # the other writer commits between our check and our save
            raced.append(True)
            second.hire_player("test", "reavers", "blitzer", "Second", by="rival")
        return facts

    with pytest.raises(InsufficientTreasury, match="15,000"):
        first.run("test", plan_racing_another_writer, by="t")
    assert first.conflicts == 1
    assert [p.name for p in hired(first)] == ["Second"]
    team = first.view().get(TeamRow, str(league_id("test")), "reavers")
    assert team is not None
    assert team.treasury == 15_000


def hire_in_another_process(settings: Settings, name: str, start: Any, results: Any) -> None:
    ledger = open_ledger(settings)
    try:
        start.wait()
        ledger.hire_player("test", "reavers", "blitzer", name, by=name)
        results.put((name, "hired"))
    except LedgerError as error:
        results.put((name, error.code))
    finally:
        close_ledger(ledger)


def test_two_processes_hiring_at_once_cannot_both_spend_the_gold(
    settings: Settings, open_ledgers: Callable[[Settings], LeagueLedger]
) -> None:
    ledger = open_ledgers(settings)
    league_with_one_purchase_left(ledger)
    spawn = multiprocessing.get_context("spawn")
    start, results = spawn.Barrier(2), spawn.Queue()
    workers = [
        spawn.Process(target=hire_in_another_process, args=(settings, name, start, results))
        for name in ("Ann", "Bob")
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    outcomes = sorted(results.get(timeout=5)[1] for _ in workers)
    assert outcomes == ["hired", "insufficient-treasury"]
    assert len(hired(ledger)) == 1
    team = ledger.view().get(TeamRow, str(league_id("test")), "reavers")
    assert team is not None
    assert team.treasury == 15_000
