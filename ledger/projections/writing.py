"""How a rebuild writes its tables: the lines from a thread as the fold goes (or, for a
long log on SQLite, from a process of its own: ``parallel.LineProcess``), the tables
without their secondary indexes until the rows are in, all of it inside one transaction,
and its files (ledger/projections/settled.py) beside the database."""

from __future__ import annotations

import contextlib
import fcntl
import queue
import shutil
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ledger.domain.state import Line, TeamGameLine
from ledger.projections import parallel
from ledger.projections.settled import LineRows
from ledger.projections.shapes import LineRow
from ledger.projections.sql import ALL_TABLES, POSITION, insert_rows
from ledger.projections.store import RowSink

WAITING = 2
"""Batches of lines (``LINE_BATCH``) that may wait for the writer: lines are the largest
records a rebuild makes (a history line carries its event's summary), and the memory they
hold while they wait is most of a rebuild's memory beyond its state."""

REBUILT = [*ALL_TABLES, POSITION]
"""The tables a rebuild drops and writes again."""


class LineSink:
    """Writes the rebuild's append-only lines into its transaction in batches, from a
    thread of their own: the database's work on a batch (the driver lets go of the
    interpreter while SQLite or PostgreSQL works) overlaps the fold of the next events,
    on the other core. Memory stays flat: at most a few batches wait."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.pending = LineRows(full=self.hand_over)
        self.add: RowSink = self.pending.add
        """Where the fold sends its lines (``MemoryStore``'s sink)."""
        self.batches: queue.Queue[dict[type[Line], list[LineRow]] | None] = queue.Queue(
            maxsize=WAITING
        )
        self.failure: BaseException | None = None
        self.writer = threading.Thread(target=self.write, name="rebuild-lines", daemon=True)
        self.writer.start()

    def hand_over(self) -> None:
        """Queue the pending lines; after a failure of the writer, drop them: the failure
        is raised when the fold ends, never from inside it, where it would count as the
        fault of the event being applied (``apply_checked``)."""
        taken = self.pending.take()
        if self.failure is None:
            self.batches.put(taken)

    def write(self) -> None:
        while (batch := self.batches.get()) is not None:
            if self.failure is None:
                try:
                    for kind, rows in batch.items():
                        insert_rows(self.conn, kind, rows)
                except BaseException as error:  # raised again in the folding thread
                    self.failure = error

    def __enter__(self) -> LineSink:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        """Write what is left and wait for the writer, whose failure is raised here; if
        the fold failed, only stop the writer (the transaction is rolled back)."""
        if kind is None and self.pending.count:
            self.hand_over()
        self.batches.put(None)
        self.writer.join()
        if kind is None and self.failure is not None:
            raise self.failure


@dataclass
class LogFolded:
    """A fold of the log: how many events, the position of the last, the files holding
    its rows (ledger/projections/settled.py) and what the workers reported, if any."""

    events: int
    position: int
    files: list[Path]
    workers: list[parallel.Folded] = field(default_factory=list)


def scratch(engine: Engine) -> str | None:
    """Where a rebuild's files go: beside a SQLite database (the disk that holds its read
    models has room for them; the system's temporary folder may be memory), else the
    system's temporary folder."""
    database = engine.url.database if engine.dialect.name == "sqlite" else None
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return str(Path(database).resolve().parent)


SCRATCH_PREFIX = "ledger-rebuild-"
HELD = "held"
"""A file in each scratch folder that its rebuild holds locked (``flock``) while it runs."""


@contextlib.contextmanager
def scratch_folder(engine: Engine) -> Iterator[str]:
    """A folder for one rebuild's files, held (``HELD``) while the rebuild runs, made after
    the folders no rebuild holds any more are swept away."""
    where = scratch(engine)
    sweep(Path(where or tempfile.gettempdir()))
    with tempfile.TemporaryDirectory(prefix=SCRATCH_PREFIX, dir=where) as folder:
        made = Path(folder) / f"{HELD}.new"
        with open(made, "w") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            made.replace(Path(folder) / HELD)  # a sweep sees the lock file only once held
            yield folder


def sweep(folder: Path) -> None:
    """Remove the scratch folders of rebuilds that ended without removing them: a process
    killed by a signal skips its cleanup, and a rebuild of 10^6 events leaves gigabytes.
    The lock, not a process number, tells: it is let go when its process ends, however it
    ends, and it holds across containers that share the folder. A folder still held, or
    without a lock file (an older version's, or one being made), is left alone."""
    for found in folder.glob(f"{SCRATCH_PREFIX}*"):
        if abandoned(found):
            shutil.rmtree(found, ignore_errors=True)


def abandoned(folder: Path) -> bool:
    try:
        with open(folder / HELD) as held:  # never made here: a folder being made has none
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # no lock file (FileNotFoundError), or a rebuild holds it (BlockingIOError)
        return False
    return True


READ_MODEL_PREFIX = "rm_"
"""What every read model's table is named with (the service's own tables, which a rebuild
leaves alone, are ``ledger_*``)."""


def drop_former_tables(conn: Connection) -> None:
    """Drop the read models' tables this code no longer makes (a ledger upgraded from a
    version that kept its game lines one row a player, ``rm_player_games``): a rebuild
    drops and makes only the tables it knows, and a former one would otherwise stay in
    the file for good, hundreds of megabytes at 10^6 events."""
    known = {table.name for table in REBUILT}
    for name in sa.inspect(conn).get_table_names():
        if name.startswith(READ_MODEL_PREFIX) and name not in known:
            conn.execute(sa.schema.DropTable(sa.Table(name, sa.MetaData())))


def create_tables(conn: Connection) -> None:
    """The read models' tables without their secondary indexes: a rebuild loads the
    rows first and indexes them once at the end, which is cheaper than keeping every
    index in order through millions of inserts."""
    for table in REBUILT:
        conn.execute(sa.schema.CreateTable(table))


def create_indexes(conn: Connection) -> None:
    """The secondary indexes the copy has not made already (``settled.indexed_alike``)."""
    for table in REBUILT:
        for index in table.indexes:
            index.create(conn, checkfirst=True)


ANALYSIS_LIMIT = 400
"""Rows of each index SQLite's ``ANALYZE`` reads (``PRAGMA analysis_limit``): a sample that
shows the planner how many rows a value of each indexed column holds, in milliseconds at
any size (3 ms for the tables of 10^5 events)."""


def plan_statistics(conn: Connection) -> None:
    """Give SQLite's query planner the read models' statistics (``ANALYZE`` of a sample).
    Without them it reads a table whose key begins with the league by that key even where
    an index names what is asked: a match's game lines at 10^5 events took 29.7 ms, the
    league's every line read, against 0.16 ms by the index of matches (medians of 20).
    PostgreSQL picks that index without them, and its autovacuum gathers its own."""
    if conn.dialect.name != "sqlite":
        return
    conn.exec_driver_sql(f"PRAGMA analysis_limit = {ANALYSIS_LIMIT}")  # ANALYZE's alone
    for table in ALL_TABLES:
        conn.exec_driver_sql(f'ANALYZE "{table.name}"')


def without_statistics(conn: Connection) -> bool:
    """Whether this SQLite database's read models have game lines and no statistics yet (a
    ledger whose tables its commands built, never a rebuild). The game lines' table
    stands for the rest: it has rows from the first match on."""
    games = TeamGameLine.table
    if not conn.exec_driver_sql(f'SELECT EXISTS (SELECT 1 FROM "{games}")').scalar():
        return False
    known = conn.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'")
    if known.first() is None:
        return True
    found = conn.exec_driver_sql("SELECT 1 FROM sqlite_stat1 WHERE tbl = ?", (games,))
    return found.first() is None


REBUILD_PRAGMAS = {"secure_delete": "0", "threads": str(parallel.workers())}
"""How the rebuild's connection works its transaction, put back before it returns to the
pool:

- ``secure_delete``: the old tables' pages freed without being overwritten. Debian builds
  SQLite with SECURE_DELETE, which zeroes every page a DROP TABLE frees: at 10^6 events
  that wrote the old read models' 2 GB once more into the WAL, and every later page of the
  same transaction was looked up past those frames (dropping took 63 s, copying the new
  rows 60 s). It hides nothing here: the freed pages held read models, and every fact in
  them is still in the same file, in the event log.
- ``threads``: SQLite's sorter, which makes each secondary index at the end, may sort on
  every core (it uses none beside its own by default). The fold is over by then, and its
  other processes with it: the other core is idle."""


@contextlib.contextmanager
def rebuild_settings(conn: Connection) -> Iterator[None]:
    """The connection set as ``REBUILD_PRAGMAS`` says for the rebuild's transaction (SQLite
    only), each setting put back after it."""
    if conn.dialect.name != "sqlite":
        yield
        return
    restore = [
        f"PRAGMA {name} = {conn.exec_driver_sql(f'PRAGMA {name}').scalar_one()}"
        for name in REBUILD_PRAGMAS
    ]
    for name, value in REBUILD_PRAGMAS.items():
        conn.exec_driver_sql(f"PRAGMA {name} = {value}")
    try:
        yield
    except BaseException:
        # The rebuild's own failure is the one to report: after it, the connection may
        # refuse every statement until rolled back (or be invalidated and not pooled).
        with contextlib.suppress(Exception):
            for statement in restore:
                conn.exec_driver_sql(statement)
        raise
    for statement in restore:
        conn.exec_driver_sql(statement)


def begin_ddl(conn: Connection) -> None:
    """Make the rebuild's dropping and creating of tables part of its transaction. Python's
    sqlite3 driver opens a transaction only before INSERT, UPDATE or DELETE, so a DROP
    TABLE would commit at once and a rebuild killed half-way would leave the read models
    empty; an explicit BEGIN holds the whole rebuild in one transaction (PostgreSQL's DDL
    is transactional already)."""
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE")
