"""The command path: what a command reads and writes around its fold (issue 14 point 5).

A command reads a few rows through ``SqlStore`` (given their types back without being
validated again), takes its log's version and last hash from the league's row instead of
the event store, and catches up without taking the read models' lock when there is
nothing to catch up. Each shortcut must give what the long way gave.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from ledger.application import unit as unit_module
from ledger.application.commands import Buy, RecordMatch
from ledger.application.service import LeagueLedger
from ledger.application.unit import UnitOfWork, log_at
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.demo import build_demo
from ledger.domain.log import LeagueLog, league_id
from ledger.domain.state import (
    ENTITY_RECORDS,
    LINE_RECORDS,
    LeagueRow,
    PlayerRow,
    Record,
    TeamRow,
)
from ledger.persistence.lending import Lending
from ledger.persistence.postgres import LendingPostgresRecorder
from ledger.projections.shapes import shape_of
from ledger.projections.sql import SqlStore, table_of
from tests.projections.test_parallel_rebuild import Tables, tables
from tests.support import reavers_rats, report, two_team_league

GAME = reavers_rats()


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LeagueLedger]:
    """The demo league: a season with every kind of row the read models hold."""
    ledger = open_ledger(Settings(sqlite_path=tmp_path_factory.mktemp("demo") / "demo.db"))
    build_demo(ledger)
    yield ledger
    close_ledger(ledger)


def stored_rows(ledger: LeagueLedger, kind: type[Record]) -> list[tuple[Any, ...]]:
    """Every row of ``kind``'s table as the driver hands it back."""
    columns = ", ".join(f'"{name}"' for name in shape_of(kind).columns)
    with ledger.read_models.engine.connect() as conn:
        cursor = conn.connection.cursor()
        cursor.execute(f'SELECT {columns} FROM "{table_of(kind).name}"')
        return list(cursor.fetchall())


def validated(ledger: LeagueLedger, kind: type[Record], row: tuple[Any, ...]) -> Record:
    """The long way: SQLAlchemy's typed result, validated in full by pydantic."""
    table = table_of(kind)
    key = {name: row[shape_of(kind).columns.index(name)] for name in kind.key}
    with ledger.read_models.engine.connect() as conn:
        where = [table.c[name] == value for name, value in key.items()]
        found = conn.execute(sa.select(table).where(*where)).mappings().one()
    return kind.model_validate(dict(found))


@pytest.mark.parametrize("kind", [*ENTITY_RECORDS, *LINE_RECORDS], ids=lambda k: k.__name__)
def test_a_stored_row_reads_back_as_full_validation_reads_it(
    demo: LeagueLedger, kind: type[Record]
) -> None:
    store = SqlStore(demo.read_models.engine)
    rows = stored_rows(demo, kind)
    for row in rows:
        # repr tells a tuple from a list and True from 1, which == does not
        assert repr(store.read(kind, row)) == repr(validated(demo, kind, row))


def test_the_demo_holds_rows_of_the_kinds_a_command_reads(demo: LeagueLedger) -> None:
    """The comparison above is only as good as the rows it sees."""
    for kind in (LeagueRow, PlayerRow, *LINE_RECORDS[:3]):
        assert stored_rows(demo, kind), kind.__name__


def test_rows_read_on_either_backend_are_typed_as_validation_types_them(
    ledger: LeagueLedger,
) -> None:
    two_team_league(ledger)
    ledger.handle(RecordMatch("test", report(GAME)), by="t")
    store = SqlStore(ledger.read_models.engine)
    for kind in (LeagueRow, PlayerRow):
        for row in stored_rows(ledger, kind):
            assert repr(store.read(kind, row)) == repr(validated(ledger, kind, row))


def test_a_row_asked_for_again_is_the_record_already_read(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    store = SqlStore(ledger.read_models.engine)
    league = str(league_id("test"))
    first = store.select(PlayerRow, league_id=league, team_id="reavers")
    again = store.select(PlayerRow, league_id=league, team_id="reavers", status="active")
    assert {id(p) for p in again} <= {id(p) for p in first}
    assert store.get(PlayerRow, league, first[0].player_id) is first[0]


def test_a_changed_record_is_not_replaced_by_its_stored_row(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    store = SqlStore(ledger.read_models.engine)
    league = str(league_id("test"))
    player = store.select(PlayerRow, league_id=league, team_id="reavers")[0]
    store.put(player.model_copy(update={"spp": 99}))
    found = store.select(PlayerRow, league_id=league, team_id="reavers", status="active")
    assert next(p for p in found if p.player_id == player.player_id).spp == 99


def test_the_log_restored_from_the_league_row_is_the_stored_log(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    ledger.handle(RecordMatch("test", report(GAME)), by="t")
    stored = vars(ledger.load_log("test"))
    restored = vars(log_at(ledger.league_row("test")))
    # the time of the last event is not kept in the row; the next event sets it
    assert {k: v for k, v in restored.items() if k != "_modified_on"} == {
        k: v for k, v in stored.items() if k != "_modified_on"
    }


def test_a_writer_that_got_in_first_makes_the_command_start_again_on_fresh_state(
    ledger: LeagueLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log is taken to stand where the read models do: when another writer appends
    after they were read, the append at that version fails and the command is tried
    again from the new state, chained after the other writer's event."""
    two_team_league(ledger)
    commit = UnitOfWork.commit
    interrupted: list[bool] = []

    def another_writer_first(unit: UnitOfWork) -> list[Any]:
        if unit.ledger is ledger and not interrupted:
            interrupted.append(True)
            with open_ledger_beside(ledger) as other:
                other.handle(Buy("test", "rats", "reroll"), by="other")
        return commit(unit)

    monkeypatch.setattr(UnitOfWork, "commit", another_writer_first)
    ledger.handle(RecordMatch("test", report(GAME)), by="t")
    assert ledger.conflicts == 1
    kinds = [type(e).__name__ for e in ledger.source.league_events(str(league_id("test")))]
    assert kinds[-2:] == ["SidelinePurchased", "MatchRecorded"]
    assert ledger.league_row("test").version == len(kinds)


@contextmanager
def open_ledger_beside(ledger: LeagueLedger) -> Iterator[LeagueLedger]:
    """A second ledger on the same stores, as another process would open them."""
    other = open_ledger(ledger_settings(ledger))
    try:
        yield other
    finally:
        close_ledger(other)


def ledger_settings(ledger: LeagueLedger) -> Settings:
    url = ledger.read_models.engine.url
    if url.get_backend_name() == "sqlite":
        return Settings(sqlite_path=Path(str(url.database)))
    plain = url.set(drivername="postgresql").render_as_string(hide_password=False)
    return Settings(sqlite_path=Path("unused.db"), database_url=plain)


def test_catching_up_with_nothing_to_do_takes_no_lock(sqlite_ledger: LeagueLedger) -> None:
    """Every command catches up before it starts: with nothing to apply, it must not
    wait for the read models' write lock (here held by another connection)."""
    two_team_league(sqlite_ledger)
    path = sqlite_ledger.read_models.engine.url.database
    assert path is not None
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the database's write lock
    applied: list[int] = []
    try:
        worker = threading.Thread(target=lambda: applied.append(sqlite_ledger.catch_up()))
        worker.start()
        worker.join(timeout=5)
        assert not worker.is_alive(), "catch_up waited for the write lock"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert applied == [0]


def test_a_league_row_that_does_not_say_where_the_log_stands_loads_the_log(
    ledger: LeagueLedger,
) -> None:
    two_team_league(ledger)
    table = table_of(LeagueRow)
    with ledger.read_models.engine.begin() as conn:
        conn.execute(table.update().values(created_at="", last_hash=""))
    ledger.handle(RecordMatch("test", report(GAME)), by="t")
    events = list(ledger.source.league_events(str(league_id("test"))))
    assert events[-1].prev_hash == events[-2].hash


def test_another_thread_reads_the_stored_books_while_a_command_is_rehearsed(
    ledger: LeagueLedger,
) -> None:
    """The service reads on other threads while a write runs: they must see the stored
    read models through their own connections, never the write's rehearsal (nor the
    connection it reads through)."""
    two_team_league(ledger)
    league = str(league_id("test"))
    before = ledger.view().get(TeamRow, league, "rats")
    assert before is not None
    seen: list[int] = []
    with ledger.atomic():
        ledger.handle(Buy("test", "rats", "reroll"), by="t")
        rehearsed = ledger.view().get(TeamRow, league, "rats")
        assert rehearsed is not None
        assert rehearsed.rerolls == before.rerolls + 1

        def read() -> None:
            found = ledger.view().get(TeamRow, league, "rats")
            seen.append(found.rerolls if found else -1)

        reader = threading.Thread(target=read)
        reader.start()
        reader.join(timeout=30)
    assert seen == [before.rerolls]


def read_models_and_log(ledger: LeagueLedger) -> tuple[Tables, int]:
    """Every read-model row, and how many events the store holds."""
    return tables(ledger), ledger.source.head()


def league_kinds(ledger: LeagueLedger) -> list[str]:
    """The kinds of the test league's events, in their order."""
    return [type(e).__name__ for e in ledger.source.league_events(str(league_id("test")))]


def assert_rebuilt_equal(ledger: LeagueLedger) -> None:
    incremental = tables(ledger)
    ledger.read_models.rebuild(ledger.source)
    assert tables(ledger) == incremental


def test_a_commands_events_and_read_models_are_committed_together(
    ledger: LeagueLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The events are appended inside the transaction that writes the rehearsed read
    models (DESIGN.md decision 9), on either store: a failure after the append, before
    the commit, leaves neither the events nor the rows. Two transactions would have kept
    the events."""
    two_team_league(ledger)
    before = read_models_and_log(ledger)

    def failing(conn: sa.Connection, position: int) -> None:
        assert ledger.source.head() == before[1]  # the append is not visible outside yet
        raise RuntimeError("the position could not be written")

    monkeypatch.setattr(unit_module, "set_position", failing)
    with pytest.raises(RuntimeError):
        ledger.handle(RecordMatch("test", report(GAME)), by="t")
    assert read_models_and_log(ledger) == before
    monkeypatch.undo()
    kinds = league_kinds(ledger)
    ledger.handle(RecordMatch("test", report(GAME)), by="t")
    assert league_kinds(ledger) == [*kinds, "MatchRecorded"]
    assert_rebuilt_equal(ledger)


def test_a_version_taken_after_the_rows_were_written_rolls_them_back(
    ledger: LeagueLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows are written before the events; when the append then finds its version
    taken (the store's driver refuses it), the rows go with it and the command starts
    again on fresh state."""
    two_team_league(ledger)
    recorder = ledger.recorder
    assert isinstance(recorder, Lending)
    insert = type(recorder).insert_events
    refused: list[bool] = []

    def taken_once(self: Lending, stored: Any, **kw: Any) -> Any:
        if self.lent_to_this_thread() is not None and not refused:
            refused.append(True)
            raise recorder.version_taken[0]("duplicate key: the version is taken")
        return insert(self, stored, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(type(recorder), "insert_events", taken_once)
    ledger.handle(RecordMatch("test", report(GAME)), by="t")
    assert refused == [True]
    assert ledger.conflicts == 1
    kinds = league_kinds(ledger)
    assert kinds.count("MatchRecorded") == 1
    assert ledger.league_row("test").version == len(kinds)
    assert_rebuilt_equal(ledger)


def test_read_models_behind_the_log_are_caught_up_the_long_way(
    ledger: LeagueLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer that appends and catches up apart (after a correction's refold, or on
    PostgreSQL) can leave the read models behind the log for a moment: a command
    committed then is not their catch-up, so its events are appended alone (after the
    trial write) and the ordinary catch-up folds both writers' events in order."""
    two_team_league(ledger)
    commit, trial = UnitOfWork.commit, UnitOfWork.try_writing
    tried: list[LeagueLedger] = []

    def behind_first(unit: UnitOfWork) -> list[Any]:
        if unit.ledger is ledger and not tried:
            with open_ledger_beside(ledger) as other, monkeypatch.context() as apart:
                apart.setattr(UnitOfWork, "commit_together", lambda u, logs: False)
                apart.setattr(other.read_models, "commit_rehearsal", lambda *a: False)
                apart.setattr(other, "catch_up", lambda: 0)
                other.handle(Buy("test", "rats", "reroll"), by="other")
            assert ledger.read_models.position() < ledger.source.head()
            monkeypatch.setattr(UnitOfWork, "try_writing", spied)
        return commit(unit)

    def spied(unit: UnitOfWork) -> None:
        tried.append(unit.ledger)
        trial(unit)

    monkeypatch.setattr(UnitOfWork, "commit", behind_first)
    ledger.handle(RecordMatch("test", report(GAME)), by="t")
    assert tried == [ledger]
    kinds = [type(e).__name__ for e in ledger.source.league_events(str(league_id("test")))]
    assert kinds[-2:] == ["SidelinePurchased", "MatchRecorded"]
    assert_rebuilt_equal(ledger)


def test_on_postgresql_a_command_waits_for_an_append_in_flight(
    postgres_url: str,
    open_ledgers: Callable[[Settings], LeagueLedger],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another writer's append that takes the long way is not under the read models'
    lock. On PostgreSQL a command takes the log's table lock before it reads the head,
    so an append still in flight (here: another writer's event inserted in a transaction
    left open) holds the command until it commits, and the head the command then reads
    counts it: the command takes the long way, and the catch-up folds both. Read before
    the lock, the head would miss that event, and the read models would be set past it."""
    ledger = open_ledgers(Settings(sqlite_path=Path("unused.db"), database_url=postgres_url))
    two_team_league(ledger)
    two_team_league(ledger, "other")  # its log: no version of the command's to take
    done = threading.Event()

    def record() -> None:
        ledger.handle(RecordMatch("test", report(GAME)), by="t")
        done.set()

    writer = threading.Thread(target=record)
    with open_ledger_beside(ledger) as other, other.read_models.engine.connect() as conn:
        assert isinstance(other.recorder, LendingPostgresRecorder)
        monkeypatch.setattr(UnitOfWork, "commit_together", lambda u, logs: False)
        monkeypatch.setattr(other.read_models, "commit_rehearsal", lambda *a: False)
        monkeypatch.setattr(other, "catch_up", lambda: 0)
        transaction = conn.begin()
        with other.recorder.lent_cursor(conn):
            other.handle(Buy("other", "rats", "reroll"), by="other")  # appended, uncommitted
        monkeypatch.undo()
        writer.start()
        assert not done.wait(1.0)  # held at the table lock
        transaction.commit()
    writer.join(timeout=30)
    assert done.is_set()
    assert league_kinds(ledger)[-1] == "MatchRecorded"
    assert ledger.read_models.position() == ledger.source.head()
    assert_rebuilt_equal(ledger)


def test_the_library_still_takes_its_snapshots_once_the_events_are_committed(
    sqlite_ledger: LeagueLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``save_within`` is the library's ``save`` split at the append: the snapshots, which
    read the log through the library's own connection, are taken after the commit, at
    the versions ``save`` takes them."""
    ledger = sqlite_ledger
    monkeypatch.setattr(LeagueLedger, "snapshotting_intervals", {LeagueLog: 10})
    two_team_league(ledger)
    assert ledger.snapshots is not None
    league = league_id("test")
    taken = [s.originator_version for s in ledger.snapshots.get(league)]
    version = ledger.league_row("test").version
    assert taken == list(range(10, version + 1, 10))
    assert ledger.repository.get(league).version == version
