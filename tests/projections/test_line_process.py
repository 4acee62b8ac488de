"""A long rebuild on SQLite writes its lines from a process of its own (issue 14, point 4:
both cores): its tables equal the thread's row for row, a writer
lost half-way leaves the rebuild to write them itself, and the writer itself
ends quietly when its pipe closes unfinished."""

from __future__ import annotations

import contextlib
import enum
import fcntl
import multiprocessing
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa

from ledger.application.service import LeagueLedger
from ledger.domain.state import (
    LINE_RECORDS,
    EventLine,
    FaultLine,
    Line,
    PlayerRow,
    StandingRow,
    TreasuryLine,
)
from ledger.projections import linefile, parallel, runner, settled, writing
from ledger.projections.history import StoredReader
from ledger.projections.parallel import LineProcess
from ledger.projections.settled import SettledFile, copy_into, create_schema
from ledger.projections.shapes import LineRow, insert_statement, shape_of
from ledger.projections.sql import table_of
from tests.projections.test_parallel_rebuild import Tables, several_leagues, tables


def lines_in(ledger: LeagueLedger) -> Tables:
    """Every line table's rows, in key order."""
    with ledger.read_models.engine.connect() as conn:
        return {
            kind.table: [
                tuple(row)
                for row in conn.exec_driver_sql(
                    f"SELECT * FROM {kind.table} ORDER BY {', '.join(kind.key)}"
                )
            ]
            for kind in LINE_RECORDS
        }


def indexes(ledger: LeagueLedger) -> list[tuple[str, str]]:
    """Every index the read models' tables have, with its definition."""
    with ledger.read_models.engine.connect() as conn:
        found = conn.exec_driver_sql(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            " ORDER BY name"
        )
        return [(str(name), str(sql)) for name, sql in found]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[LineProcess]:
    """Every log long enough for the line process, on any machine, the lines handed over
    in small batches (several per fold); records each process started."""
    monkeypatch.setattr(runner, "LINES_APART", 1)
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    monkeypatch.setattr(settled, "LINE_BATCH", 7)
    made: list[LineProcess] = []
    init = LineProcess.__init__

    def recorded(
        self: LineProcess, path: Path, indexed: bool = False, reader: StoredReader | None = None
    ) -> None:
        init(self, path, indexed, reader)
        made.append(self)

    monkeypatch.setattr(LineProcess, "__init__", recorded)
    return made


def test_lines_from_a_process_equal_the_threads_and_the_incremental_read_models(
    sqlite_ledger: LeagueLedger, started: list[LineProcess]
) -> None:
    several_leagues(sqlite_ledger)  # a bad stored event: the first fold stops and starts over
    incremental, made = tables(sqlite_ledger), indexes(sqlite_ledger)
    sqlite_ledger.read_models.processes = 1  # one process: the lines go from a thread
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert started == []
    assert tables(sqlite_ledger) == incremental
    sqlite_ledger.read_models.processes = None
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert len(started) == 2  # the fold that met the bad event, and the one after it
    assert [p.exitcode for p in started] == [1, 0]  # the first one's pipe closed early
    assert tables(sqlite_ledger) == incremental
    assert indexes(sqlite_ledger) == made  # the line tables' came with their rows, none twice
    assert any(incremental[kind.table] for kind in LINE_RECORDS)
    assert multiprocessing.active_children() == []


def event(seq: int, league: str) -> LineRow:
    """An event's history line, as its row (a table with a secondary index: of types)."""
    return shape_of(EventLine).row(
        EventLine.build(
            league_id=league, seq=seq, event_type=f"T{seq}", recorded_by="r", recorded_at="t"
        )
    )


def treasury(seq: int, team: str) -> LineRow:
    """A treasury line, as its row (a table stored in its key's order: ``keyed_only``)."""
    return shape_of(TreasuryLine).row(
        TreasuryLine.build(
            league_id="league", team_id=team, seq=seq, line=1, amount=10, balance=10, kind="k"
        )
    )


def fault(seq: int, league: str) -> LineRow:
    """A fault line, as its row (a table with row ids)."""
    return shape_of(FaultLine).row(
        FaultLine.build(league_id=league, seq=seq, topic="t", problem="p")
    )


@pytest.mark.parametrize(("kind", "row"), [(FaultLine, fault), (TreasuryLine, treasury)])
def test_each_table_is_copied_from_its_largest_file_whole_and_from_the_others_in_key_order(
    tmp_path: Path, kind: type[Line], row: Callable[[int, str], LineRow]
) -> None:
    """The largest file's rows go first, as ``INSERT ... SELECT *`` alone (SQLite's
    transfer: the rows and their primary key's index copied as they stand); the rest
    in key order; a file without rows of the table adds no statement
    (settled.copy_into). The largest is found by its last row id, or by counting the rows
    of a table without row ids."""
    held = {
        "small": [row(1, "b"), row(2, "b")],
        "large": [row(3, "a"), row(1, "a"), row(2, "a")],
    }
    files = [file_of(tmp_path / name, kind, rows) for name, rows in [("empty", []), *held.items()]]
    statements, stored = copied(tmp_path / "ledger.db", kind, files)
    table = f'main."{kind.table}"'
    copies = [s for s in statements if s.startswith(f"INSERT INTO {table}")]
    order = ", ".join(f'"{name}"' for name in kind.key)
    assert copies == [
        f'INSERT INTO {table} SELECT * FROM folded2."{kind.table}"',
        f'INSERT INTO {table} SELECT * FROM folded1."{kind.table}" ORDER BY {order}',
    ]
    assert sorted(stored) == sorted(held["large"] + held["small"])


@pytest.mark.parametrize("with_others", [False, True])
def test_a_table_one_indexed_file_holds_whole_is_indexed_before_its_transfer(
    tmp_path: Path, with_others: bool
) -> None:
    """A serial rebuild's line file keeps the read models' secondary indexes: when it
    alone holds a table's rows, the copy makes the indexes first and the transfer copies
    their entries; with rows in another file, they are built after, as any table's
    (settled.indexed_alike, writing.create_indexes)."""
    files = [indexed_file_of(tmp_path / "lines.db", [event(1, "a"), event(2, "a")])]
    if with_others:
        files.append(file_of(tmp_path / "share.db", EventLine, [event(1, "b")]))
    statements, stored = copied(tmp_path / "ledger.db", EventLine, files)
    copy = [s for s in statements if s.startswith(("CREATE INDEX", 'INSERT INTO main."rm_'))]
    transfer = 'INSERT INTO main."rm_events" SELECT * FROM folded0."rm_events"'
    made_first = [] if with_others else MADE_INDEXES
    assert sorted(copy[: len(made_first)]) == made_first  # in no order of their own
    assert copy[len(made_first)] == transfer
    assert len(stored) == (3 if with_others else 2)


def test_no_index_is_made_of_what_the_key_already_orders() -> None:
    """A treasury's lines are asked for by team, a season's standings by season: the
    key starts with both, so its own index serves them (``table_of``; in the settled
    file, ``settled.questions``). In the settled file, a team's players are asked for by
    the index of a team's players by status, which begins with the team."""
    assert [index.name for index in table_of(EventLine).indexes] != []
    assert table_of(TreasuryLine).indexes == set()
    assert table_of(StandingRow).indexes == set()
    assert settled.questions(StandingRow) == ()
    assert settled.questions(PlayerRow) == (("team_id", "status"), ("kind",))


def copied(
    path: Path, kind: type[Line], files: list[Path]
) -> tuple[list[str], list[tuple[object, ...]]]:
    """The statements run and the rows stored when the files are copied into a new
    database's ``kind`` table, made as a rebuild makes it (no secondary index)."""
    engine = sa.create_engine(f"sqlite:///{path}")
    statements: list[str] = []
    sa.event.listen(engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    with engine.begin() as conn:
        conn.execute(sa.schema.CreateTable(table_of(kind)))
        copy_into(conn, files)
        stored = conn.exec_driver_sql(f"SELECT * FROM {kind.table}").fetchall()
    return statements, [tuple(row) for row in stored]


MADE_INDEXES = [
    "CREATE INDEX ix_rm_events_event_type ON rm_events (league_id, event_type)",
]


def indexed_file_of(path: Path, rows: list[LineRow]) -> Path:
    """A file as the line process writes a serial rebuild's history of events."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        create_schema(db, indexed_lines=True)
        db.executemany(insert_statement(EventLine, "sqlite"), rows)
        db.commit()
    return path


def file_of(path: Path, kind: type[Line], rows: list[LineRow]) -> Path:
    """A file as a worker writes its share's lines (``SettledFile.emit``)."""
    made = SettledFile(path)
    for row in rows:
        made.emit(kind, row)
    made.absorb(lambda kind: [])
    made.close()
    return path


@pytest.mark.parametrize("processes", [None, 2])  # the serial fold; this process's share
def test_a_line_writer_lost_half_way_leaves_the_fold_to_write_the_lines(
    sqlite_ledger: LeagueLedger,
    started: list[LineProcess],
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
    processes: int | None,
) -> None:
    several_leagues(sqlite_ledger)
    incremental = tables(sqlite_ledger)
    if processes:
        request.getfixturevalue("shared")  # the leagues in two shares
    hand_over = LineProcess.hand_over

    def killed_first(self: LineProcess) -> None:
        """The process is killed before the first batch, half-way through the fold: what
        the fold sends after it is lost, and no event is blamed for it."""
        if self.process.is_alive():
            self.process.kill()  # as the system would end it, out of memory
            self.process.join()
        hand_over(self)

    monkeypatch.setattr(LineProcess, "hand_over", killed_first)
    sqlite_ledger.read_models.processes = processes
    stats = sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert started
    assert all(p.exitcode != 0 for p in started)
    assert all(worker.lines is None for worker in stats.workers)
    assert tables(sqlite_ledger) == incremental


@pytest.mark.skipif(not hasattr(fcntl, "F_GETPIPE_SZ"), reason="pipe sizes are Linux's")
def test_the_pipe_to_the_line_process_holds_a_batch_and_more(tmp_path: Path) -> None:
    """A batch of lines (about 100 KiB) goes into the pipe without waiting for the
    process to read it (``PIPE_ROOM``)."""
    with LineProcess(tmp_path / "lines.db") as process:
        room = fcntl.fcntl(process.outbox.fileno(), fcntl.F_GETPIPE_SZ)
    assert room == parallel.PIPE_ROOM >= 1 << 20


def test_a_pipe_that_cannot_be_widened_stays_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the user's share of pipe memory the system refuses (EPERM): the pipe works as
    it was."""

    def refused(*_: object) -> int:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(fcntl, "fcntl", refused)
    inbox, outbox = multiprocessing.Pipe(duplex=False)
    with inbox, outbox:
        parallel.widen(outbox, parallel.PIPE_ROOM)
        outbox.send("still a pipe")
        assert inbox.recv() == "still a pipe"


class Outcome(enum.StrEnum):
    """A subclass of str, which marshal does not write."""

    DEAD = "dead"


ROWS = [("INSERT INTO t VALUES (?, ?, ?, ?)", [("p1", 3, None, 1.5), ("p2", 0, "x", -2.0)])]


@pytest.mark.parametrize(
    ("message", "how"),
    [
        (ROWS, linefile.MARSHALLED),
        (linefile.Settled(7, ROWS), linefile.MARSHALLED),
        (linefile.Asked("SELECT * FROM t WHERE a = ?", ("p1",)), linefile.MARSHALLED),
        (None, linefile.MARSHALLED),
        ([("INSERT INTO t VALUES (?)", [(Outcome.DEAD,)])], linefile.PICKLED),
        (linefile.Settled(8, [("INSERT INTO t VALUES (?)", [(Outcome.DEAD,)])]), linefile.PICKLED),
    ],
)
def test_every_message_reads_back_as_it_was_sent(message: linefile.Message, how: bytes) -> None:
    """Each kind of message (lines, settled records, a question, the end) reads back equal
    and of its own class; one marshal cannot write goes pickled."""
    data = linefile.encoded(message)
    read = linefile.decoded(data)
    assert data[:1] == how
    assert read == message
    assert type(read) is type(message)


@pytest.mark.parametrize("indexed", [False, True])
def test_the_writer_writes_every_batch_then_commits(tmp_path: Path, indexed: bool) -> None:
    path = tmp_path / "lines.db"
    with sqlite3.connect(path) as db:
        create_schema(db, indexed_lines=indexed)
    row = event(1, "league")
    inbox, outbox = multiprocessing.Pipe(duplex=False)
    outbox.send_bytes(linefile.encoded([(insert_statement(EventLine, "sqlite"), [row])]))
    outbox.send_bytes(linefile.encoded(None))
    linefile.write_lines(str(path), inbox, indexed)
    with sqlite3.connect(path) as db:
        rows = db.execute(f"SELECT * FROM {table_of(EventLine).name}").fetchall()
        by_index = "SELECT event_type FROM rm_events INDEXED BY ix_rm_events_event_type"
        types = db.execute(by_index).fetchall() if indexed else [("T1",)]
    assert rows == [row]
    assert types == [("T1",)]  # an indexed file's index holds the row too


@pytest.mark.parametrize(
    "sent",
    [
        b"",  # the pipe closes with nothing sent
        linefile.encoded([("INSERT INTO no_such_table VALUES (?)", [(1,)])]),  # SQLite refuses
        b"not a message",  # a batch that cannot be read (the writer must not wait on)
        linefile.MARSHALLED + b"\xff",  # marshal's bytes cut short
    ],
)
def test_the_writer_ends_with_status_1_and_no_traceback(
    tmp_path: Path, sent: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "lines.db"
    with sqlite3.connect(path) as db:
        create_schema(db)
    inbox, outbox = multiprocessing.Pipe(duplex=False)
    if sent:
        outbox.send_bytes(sent)
    outbox.close()
    with pytest.raises(SystemExit) as ended:
        linefile.write_lines(str(path), inbox)
    assert ended.value.code == 1
    assert capsys.readouterr().err == ""


def test_the_lines_get_a_process_only_for_a_long_log_on_sqlite_with_processes_allowed(
    ledger: LeagueLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    several_leagues(ledger)
    monkeypatch.setattr(parallel, "workers", lambda: 2)  # whatever this machine has
    models, head = ledger.read_models, ledger.source.head()
    on_sqlite = models.engine.dialect.name == "sqlite"
    with models.engine.connect() as conn:
        assert not models.lines_apart(conn, runner.LINES_APART - 1)
        assert models.lines_apart(conn, runner.LINES_APART) is on_sqlite  # PostgreSQL: a thread
        monkeypatch.setattr(runner, "LINES_APART", head)
        assert models.lines_apart(conn, head) is on_sqlite
        models.processes = 1
        assert not models.lines_apart(conn, head)


def test_the_rebuilding_processs_share_writes_its_lines_apart_and_the_workers_do_not(
    sqlite_ledger: LeagueLedger, started: list[LineProcess], shared: list[int]
) -> None:
    several_leagues(sqlite_ledger)
    incremental = tables(sqlite_ledger)
    sqlite_ledger.read_models.processes = 1
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    threaded = lines_in(sqlite_ledger)
    sqlite_ledger.read_models.processes = 2
    stats = sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert shared == [2]
    assert len(started) == 1  # this process's share only (the bad event is a worker's)
    assert [worker.lines is not None for worker in stats.workers] == [True, False]
    assert tables(sqlite_ledger) == incremental
    assert lines_in(sqlite_ledger) == threaded


def test_a_failing_line_thread_fails_the_rebuild_and_blames_no_event(
    sqlite_ledger: LeagueLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database that refuses the lines is the rebuild's failure, raised as it is when
    the fold ends; raised from inside the fold, it would pass for a fault of whichever
    event was being applied, and the rebuild would start over blaming one after another."""
    several_leagues(sqlite_ledger)
    incremental = tables(sqlite_ledger)
    monkeypatch.setattr(settled, "LINE_BATCH", 1)  # handed over with every line

    def refused(conn: object, kind: object, rows: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(writing, "insert_rows", refused)
    sqlite_ledger.read_models.processes = 1
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert tables(sqlite_ledger) == incremental  # rolled back
