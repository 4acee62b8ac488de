"""Leagues folded in worker processes give the serial rebuild's tables, row for row, and
both equal the read models caught up event by event (issue 14, point 4)."""

from __future__ import annotations

import functools
import multiprocessing
import os
import uuid
from collections.abc import Callable
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from eventsourcing.persistence import StoredEvent

from ledger.application.accounts import Accounts
from ledger.application.commands import (
    AdjustTreasury,
    Buy,
    ClosePostGame,
    Correct,
    FirePlayer,
    HirePlayer,
    RecordMatch,
)
from ledger.application.service import LeagueLedger
from ledger.domain.events import content_hash
from ledger.domain.log import league_id
from ledger.domain.state import FaultLine
from ledger.projections import parallel
from ledger.projections.sql import ALL_TABLES
from tests.integration.test_audit_and_transfer import GAME
from tests.integration.test_bad_events import plant
from tests.support import report, two_team_league

Tables = dict[str, list[tuple[Any, ...]]]


def tables(ledger: LeagueLedger) -> Tables:
    """Every row of every read-model table, in primary-key order."""
    with ledger.read_models.engine.connect() as conn:
        return {
            table.name: [
                tuple(row)
                for row in conn.execute(sa.select(table).order_by(*table.primary_key.columns))
            ]
            for table in ALL_TABLES
        }


def several_leagues(ledger: LeagueLedger) -> tuple[int, str]:
    """Three leagues with a game closed by both teams, a firing, a correction and a bad
    stored event; the site's log with an account; and a log whose league was never
    created. Returns the bad event's number and the lost league's id."""
    for slug in ("north", "south"):
        played(ledger, slug)
    two_team_league(ledger, "east")
    spare = ledger.handle(HirePlayer("east", "rats", "clanrat", "Spare", number=12), by="tester")
    ledger.handle(FirePlayer("east", "rats", spare), by="tester")
    ledger.handle(AdjustTreasury("south", "reavers", 10_000), by="tester", reason="prize")
    ledger.handle(
        Correct("south", ledger.load_log("south").version, "void"), by="tester", reason="no"
    )
    bad = plant(ledger, "east", TREASURY, {"team": "ghosts", "amount": 1})
    Accounts(ledger).add("jay", "Jay", by="tester")
    lost = orphan(ledger)
    ledger.catch_up()
    return bad, lost


TREASURY = "ledger.domain.events:TreasuryAdjusted"


def played(ledger: LeagueLedger, slug: str) -> None:
    two_team_league(ledger, slug)
    ledger.handle(Buy(slug, "reavers", "reroll", 1), by="tester")
    ledger.handle(RecordMatch(slug, report(GAME)), by="tester")
    ledger.handle(ClosePostGame(slug, "g1", "reavers", dice={"expensive_mistakes": 5}), by="tester")
    ledger.handle(ClosePostGame(slug, "g1", "rats", dice={"expensive_mistakes": 4}), by="tester")


def orphan(ledger: LeagueLedger) -> str:
    """A stored event of a league that has no creation event."""
    state = {
        "originator_id": str(uuid.uuid4()),
        "originator_version": 1,
        "timestamp": "2026-11-01T10:00:00+00:00",
        "recorded_by": "someone",
        "prev_hash": "",
        "team": "ghosts",
        "amount": 5,
    }
    state["hash"] = content_hash(TREASURY, state)
    stored = StoredEvent(uuid.UUID(state["originator_id"]), 1, TREASURY, orjson.dumps(state))
    ledger.recorder.insert_events([stored])
    return str(state["originator_id"])


def test_leagues_folded_in_processes_equal_the_serial_and_incremental_read_models(
    sqlite_ledger: LeagueLedger, shared: list[int]
) -> None:
    several_leagues(sqlite_ledger)
    incremental = tables(sqlite_ledger)
    sqlite_ledger.read_models.processes = 1
    serial = sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert shared == []
    assert tables(sqlite_ledger) == incremental
    sqlite_ledger.read_models.processes = 2
    folded = sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert shared == [2]
    assert (folded.events, folded.position) == (serial.events, serial.position)
    assert sum(worker.events for worker in folded.workers) == folded.events
    assert serial.workers == ()
    assert tables(sqlite_ledger) == incremental


def test_a_bad_event_and_a_league_without_creation_fold_as_faults_in_a_worker(
    sqlite_ledger: LeagueLedger, shared: list[int]
) -> None:
    bad, lost = several_leagues(sqlite_ledger)
    east = str(league_id("east"))
    sqlite_ledger.read_models.processes = 2
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert shared == [2]
    faults = [*sqlite_ledger.view().select(FaultLine, league_id=east)]
    faults += sqlite_ledger.view().select(FaultLine, league_id=lost)
    assert [(f.league_id, f.seq) for f in faults] == [(east, bad), (lost, 1)]


def test_commands_after_a_parallel_rebuild_catch_up_as_usual(
    sqlite_ledger: LeagueLedger, shared: list[int]
) -> None:
    several_leagues(sqlite_ledger)
    sqlite_ledger.read_models.processes = 2
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    sqlite_ledger.handle(AdjustTreasury("east", "rats", 5_000), by="tester", reason="prize")
    caught_up = tables(sqlite_ledger)
    sqlite_ledger.read_models.processes = 1
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert tables(sqlite_ledger) == caught_up


def dies_in_a_worker(opener: Callable[[], Any]) -> Any:
    if multiprocessing.parent_process() is not None:
        os._exit(3)  # as a worker killed by the system would end
    return opener()


def test_a_rebuild_whose_worker_dies_folds_the_log_itself(
    sqlite_ledger: LeagueLedger, shared: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    several_leagues(sqlite_ledger)
    incremental = tables(sqlite_ledger)
    opener = sqlite_ledger.source.reopen()
    assert opener is not None
    dying = functools.partial(dies_in_a_worker, opener)
    monkeypatch.setattr(sqlite_ledger.source, "reopen", lambda: dying)
    sqlite_ledger.read_models.processes = 2
    stats = sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert shared == [2, 2]  # again after the fold here met the bad event and started over
    assert stats.workers == ()
    assert tables(sqlite_ledger) == incremental


SPLITS: list[tuple[dict[str, int], int, int, list[list[str]] | None]] = [
    # events per league, processes, break-even: the shares, or None (fold serially); the
    # first share is the rebuilding process's, and a worker's start counts 20 events
    ({"a": 100, "b": 100}, 2, 50, [["a"], ["b"]]),
    ({"a": 100, "b": 10}, 2, 50, None),  # the small league is not worth a process
    ({"a": 100}, 2, 1, None),  # one league cannot be shared
    ({"a": 100, "b": 60, "c": 50}, 2, 50, [["a"], ["b", "c"]]),
    ({"a": 100, "b": 90, "c": 15}, 2, 50, [["a", "c"], ["b"]]),  # the worker starts late
    ({"a": 90, "b": 60, "c": 50}, 3, 55, [["a"], ["b", "c"]]),  # three would leave one small
    ({f"s{n}": 30 for n in range(6)}, 2, 50, [["s0", "s2", "s4"], ["s1", "s3", "s5"]]),  # a site
]


@pytest.mark.parametrize(("events", "processes", "break_even", "expected"), SPLITS)
def test_leagues_are_shared_by_events_and_only_when_each_share_is_worth_a_process(
    events: dict[str, int],
    processes: int,
    break_even: int,
    expected: list[list[str]] | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(parallel, "BREAK_EVEN", break_even)
    monkeypatch.setattr(parallel, "HEAD_START", 20)
    extents = {league: (count, count) for league, count in events.items()}
    assert parallel.split(extents, processes) == expected


def test_an_in_memory_store_is_never_shared(tmp_path: Any) -> None:
    from ledger.application.source import StoreSource

    source = StoreSource(None, None, {"LEDGER_PERSISTENCE_MODULE": "eventsourcing.sqlite"})  # type: ignore[arg-type]
    assert source.reopen() is None
    with_memory = {
        "LEDGER_PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "LEDGER_SQLITE_DBNAME": ":memory:",
    }
    assert StoreSource(None, None, with_memory).reopen() is None  # type: ignore[arg-type]
    on_disk = {**with_memory, "LEDGER_SQLITE_DBNAME": str(tmp_path / "ledger.db")}
    opener: Callable[[], Any] | None = StoreSource(None, None, on_disk).reopen()  # type: ignore[arg-type]
    assert opener is not None


YIELDS: list[tuple[int, int, bool]] = [
    # a worker's events, the rebuilding process's: whether the worker yields the cores
    (250_269, 809_165, True),  # the 10^6 benchmark's leagues (docs/performance.md)
    (400, 800, True),  # half: it still ends first on what the others leave
    (401, 800, False),
    (500, 500, False),  # even shares: both run at full priority
]


@pytest.mark.parametrize(("events", "first", "expected"), YIELDS)
def test_a_worker_yields_the_cores_only_when_its_share_is_small(
    events: int, first: int, expected: bool
) -> None:
    assert parallel.yields(events, first) is expected


@pytest.mark.parametrize("yielding", [True, False])
def test_a_yielding_worker_folds_at_a_lower_priority(tmp_path: Any, yielding: bool) -> None:
    share = parallel.Share(
        path=tmp_path / "share.db",
        leagues=(),
        opener=no_events,
        corrections={},
        faults={},
        position=0,
        yields=yielding,
    )
    context = parallel.start_method(preload=parallel.__name__)
    with context.Pool(1) as pool:
        before, after = pool.apply(niceness_around_a_fold, (share,))
    assert after - before == (parallel.WORKER_NICENESS if yielding else 0)


def no_events() -> parallel.LeagueSource:
    return NoEvents()


class NoEvents:
    def league_stored_events(self, league_id: str, last: int | None = None) -> Any:
        return iter(())

    def stored_reader(self) -> None:
        return None


def niceness_around_a_fold(share: parallel.Share) -> tuple[int, int]:
    """In a worker: its niceness before and after folding ``share``."""
    before = os.nice(0)
    parallel.fold_in_worker(share)
    return before, os.nice(0)


@pytest.mark.parametrize(("part", "yielding"), [(10.0, True), (0.0, False)])
def test_the_rebuild_tells_each_worker_whether_it_yields(
    sqlite_ledger: LeagueLedger,
    shared: list[int],
    monkeypatch: pytest.MonkeyPatch,
    part: float,
    yielding: bool,
) -> None:
    several_leagues(sqlite_ledger)
    monkeypatch.setattr(parallel, "YIELDING_SHARE", part)
    given: list[list[parallel.Share]] = []
    folding = parallel.fold_shares

    def noted(shares: list[parallel.Share]) -> list[parallel.Folded] | None:
        given.append(shares)
        return folding(shares)

    monkeypatch.setattr(parallel, "fold_shares", noted)
    sqlite_ledger.read_models.processes = 2
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert [[share.yields for share in shares[1:]] for shares in given] == [[yielding]]
