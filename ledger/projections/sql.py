"""The read models as SQLAlchemy tables, one per record class, in the event store's database.

The tables are built from the record classes' shapes (ledger/projections/shapes.py: the
columns, their types, the SQL of reads and writes, the fingerprint), which need no
SQLAlchemy; here they become ``sa.Table`` objects to create, drop and bulk-load.
``SqlStore`` gives the fold the same interface as ``MemoryStore``, loading records lazily
and writing back only what changed, so catching up after a command costs a few rows, not
the league.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from functools import cache, wraps
from typing import Any, ParamSpec, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ledger.domain.state import Line, R, Record
from ledger.projections.history import HistoryNote
from ledger.projections.rowstore import RowStore
from ledger.projections.shapes import (
    JSON,
    POSITION_TABLE,
    RECORDS,
    LineRow,
    Shape,
    by_kind,
    index_columns,
    insert_statement,
    line_of,
    nested,
    shape_of,
    upsert_statement,
)
from ledger.projections.store import RowSink

METADATA = sa.MetaData()

POSITION = sa.Table(
    POSITION_TABLE,
    METADATA,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("notification_id", sa.BigInteger, nullable=False),
    sa.Column("fingerprint", sa.String(64), nullable=False, server_default=""),
)
"""The position (notification id) of the last event every read model includes, and the
fingerprint of the code that wrote them."""

SQL_TYPES: dict[str, Any] = {
    "BIGINT": sa.BigInteger,
    "TEXT": sa.Text,
    "BOOLEAN": sa.Boolean,
    "FLOAT": sa.Float,
    JSON: sa.JSON(none_as_null=True),
}
"""The SQLAlchemy type of each of the shapes' column types. JSON: SQL NULL for None (as
the bulk inserts write it), never the JSON text 'null', so a rebuilt read model equals an
incremental one to the byte."""


@cache
def table_of(kind: type[Record]) -> sa.Table:
    shape = shape_of(kind)
    columns = [
        sa.Column(name, SQL_TYPES[sql_type], primary_key=name in kind.key, nullable=nullable)
        for name, sql_type, nullable in zip(shape.columns, shape.types, shape.nullable, strict=True)
    ]
    indexes = [
        sa.Index("_".join(("ix", kind.table, *columns[1:])), *columns)
        for columns in index_columns(kind)
    ]
    stored: dict[str, Any] = {"sqlite_with_rowid": False} if kind.keyed_only else {}
    return sa.Table(kind.table, METADATA, *columns, *indexes, **stored)


ALL_TABLES = [table_of(kind) for kind in RECORDS]


def row_of(record: Record) -> dict[str, Any]:
    return record.model_dump(mode="json")


def bulk_insert(conn: Connection, kind: type[Record], records: Sequence[Record]) -> None:
    """Insert many new rows. On SQLite the driver's executemany takes plain tuples (the
    rows of ``Shape``), skipping SQLAlchemy's per-row work: rebuilds write millions."""
    if not records:
        return
    if conn.dialect.name != "sqlite" or nested(kind):
        conn.execute(table_of(kind).insert(), [row_of(r) for r in records])
        return
    conn.exec_driver_sql(insert_statement(kind, "sqlite"), shape_of(kind).rows(records))


def driver_execute(
    conn: Connection, statement: str, params: Any, *, many: bool = False
) -> list[Any]:
    """Run SQL on the connection's driver cursor, inside its transaction if it has one:
    SQLAlchemy's execution context and result object cost a command's few dozen small
    statements more than the database's work."""
    with driver_cursor(conn, statement, params) as cursor:
        if many:
            cursor.executemany(statement, params)
            return []
        cursor.execute(statement, params)
        return list(cursor.fetchall()) if cursor.description is not None else []


@contextlib.contextmanager
def driver_cursor(conn: Connection, statement: str, params: Any) -> Iterator[Any]:
    """The connection's driver cursor, for ``statement``, closed after the block. The
    driver's errors come out as SQLAlchemy's, as from ``Connection.execute``."""
    dbapi = conn.dialect.loaded_dbapi
    cursor = conn.connection.cursor()
    try:
        yield cursor
    except dbapi.Error as error:
        raise sa.exc.DBAPIError.instance(statement, params, error, dbapi.Error) from error
    finally:
        cursor.close()


def insert_rows(conn: Connection, kind: type[Line], rows: Sequence[LineRow]) -> None:
    """Insert many new lines given as their rows (``Shape.row``'s: JSON as its text). On
    SQLite the driver takes the tuples as they are; elsewhere SQLAlchemy's insert takes
    them by name, JSON decoded: it puts many rows in one statement, where the driver's
    executemany sends a statement per row."""
    if not rows:
        return
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(insert_statement(kind, "sqlite"), rows)
        return
    shape = shape_of(kind)
    conn.execute(table_of(kind).insert(), [shape.values(row, decode=True) for row in rows])


def delete_league(conn: Connection, league_id: str) -> None:
    for table in ALL_TABLES:
        conn.execute(table.delete().where(table.c.league_id == league_id))


P = ParamSpec("P")
T = TypeVar("T")


class Lent:
    """The connections a block reads through, one per engine, each checked out at its
    first read and given back when the block ends (``reads_through_one``)."""

    def __init__(self) -> None:
        self.held: list[tuple[Engine, Connection]] = []

    def connection(self, engine: Engine) -> Connection:
        for holder, conn in self.held:
            if holder is engine:
                return conn
        conn = engine.connect()
        if engine.dialect.name != "sqlite":
            # No transaction to end with a round trip (PostgreSQL begins one at a read);
            # sqlite3 begins none at a read, and its isolation level is reset with a
            # statement of its own when the connection goes back.
            conn = conn.execution_options(isolation_level="AUTOCOMMIT")
        self.held.append((engine, conn))
        return conn

    def give_back(self) -> None:
        for _, conn in self.held:
            conn.close()
        self.held.clear()


LENT: ContextVar[Lent | None] = ContextVar("ledger_lent_connections", default=None)
"""The reads of the running block (a thread's part of a request), when it was given one
connection for them."""


def reads_through_one(function: Callable[P, T]) -> Callable[P, T]:
    """``function``, its reads (those through ``read_connection``) made through one
    connection for each engine it reads, in autocommit (on SQLite a plain connection,
    which begins no transaction at a read). A service's read asks a dozen
    questions when the league has moved since it was last answered; through a connection
    each, every question also cost a checkout, and on PostgreSQL a round trip for the
    pool's ping and one for the rollback that ends its transaction (docs/performance-
    journal.md, fortieth session). In autocommit a read holds no transaction, lock or
    snapshot between questions and sees what other writers commit meanwhile, as a
    connection per question did. For a function that only reads: its writes go through
    connections of their own anyway (``engine.begin()``)."""

    @wraps(function)
    def lent(*args: P.args, **kwargs: P.kwargs) -> T:
        with lending():
            return function(*args, **kwargs)

    return lent


@contextlib.contextmanager
def lending() -> Iterator[Lent]:
    """The block's connections: those of the block it is inside, if any (``LENT``), else
    its own, given back when it ends."""
    found = LENT.get()
    if found is not None:
        yield found
        return
    connections = Lent()
    token = LENT.set(connections)
    try:
        yield connections
    finally:
        LENT.reset(token)
        connections.give_back()


@contextlib.contextmanager
def read_connection(engine: Engine) -> Iterator[Connection]:
    """A connection to read through: the block's (``reads_through_one``) when it has
    one, else one of its own, given back after."""
    lent = LENT.get()
    if lent is not None:
        yield lent.connection(engine)
        return
    with engine.connect() as conn:
        yield conn


class SqlStore(RowStore):
    """Leagues' read models seen through a write-back cache.

    The cache lives for one batch of events: the runner flushes and clears it after each
    page, so a long catch-up never holds more than a page's worth of records. Reads
    (``RowStore``) and writes go to the driver with statements built once (``Shape``).
    """

    notes: Callable[[HistoryNote], None] | None = None
    """A catch-up's fold makes its history's rows itself (``Store.notes``)."""
    plays_apart = False
    """And counts each report's play itself."""

    def __init__(self, engine: Engine, conn: Connection | None = None) -> None:
        super().__init__(engine.dialect.name)
        self.engine = engine
        self.conn = conn
        """When given, reads go through this connection (and so see its uncommitted
        writes): the runner folds inside the transaction that holds its lock."""
        self.dirty: dict[type[Record], dict[tuple[Any, ...], Record]] = {}
        self.lines: list[Line] = []
        self.written: list[tuple[Shape, bool, list[tuple[Any, ...]]]] | None = None
        """The rows of the last ``write``, kept until the next change: a rehearsal writes
        them twice (a trial, rolled back, then for good) and builds them once."""

    @contextlib.contextmanager
    def cursor(self, statement: str, params: Any) -> Iterator[Any]:
        with self.connection() as conn, driver_cursor(conn, statement, params) as cursor:
            yield cursor

    def pending(self, kind: type[Line]) -> list[Line]:
        return [line for line in self.lines if type(line) is kind]

    @contextlib.contextmanager
    def connection(self) -> Iterator[Connection]:
        if self.conn is not None:
            yield self.conn
        else:
            with read_connection(self.engine) as conn:
                yield conn

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Read through one connection for the block (a command asks a dozen questions:
        one checkout, not a dozen): the one the block is lent (``lending``), which holds
        no transaction, lock or snapshot between questions, and sees what other writers
        commit meanwhile, as a connection per question did."""
        if self.conn is not None:
            yield
            return
        with lending() as lent:
            self.conn = lent.connection(self.engine)
            try:
                yield
            finally:
                self.conn = None

    def put(self, record: Record) -> None:
        self.remember(record)
        self.dirty.setdefault(type(record), {})[record.key_values()] = record
        self.written = None

    def change(self, record: R, /, **updates: Any) -> R:
        """A changed copy, put. Records read through this store are the commands' too
        (their checks read them before the events they decide are folded), so none is
        changed in place; a command folds a few events, so the copies cost little."""
        changed = record.model_copy(update=updates)
        self.put(changed)
        return changed

    def emit(self, line: Line) -> None:
        self.lines.append(line)
        self.written = None

    def emit_row(self, kind: type[Line], row: LineRow) -> None:
        """A line given as its row, kept as its record: the reads inside the transaction
        (``pending``) take records, and a command emits a few lines."""
        self.emit(line_of(kind, row))

    def row_sink(self) -> RowSink:
        return self.emit_row

    def flush(self, conn: Connection) -> None:
        self.write(conn)
        self.dirty.clear()
        self.lines.clear()
        self.written = None

    def write(self, conn: Connection) -> None:
        """Write what changed, keeping it (a rehearsal writes once to see that the
        database takes it, rolls back, and writes again once the events are stored)."""
        if self.written is None:
            self.written = self.changes()
        for shape, update, rows in self.written:
            if update:
                statement = upsert_statement(shape.kind, conn.dialect.name)
            else:
                statement = insert_statement(shape.kind, conn.dialect.name)
            driver_execute(conn, statement, rows, many=True)

    def changes(self) -> list[tuple[Shape, bool, list[tuple[Any, ...]]]]:
        """The rows to write: changed entities (insert or update), then new lines."""
        found = [
            (shape_of(kind), True, shape_of(kind).rows(r.values()))
            for kind, r in self.dirty.items()
            if r
        ]
        found += [
            (shape_of(kind), False, shape_of(kind).rows(lines))
            for kind, lines in by_kind(self.lines).items()
        ]
        return found

    def forget(self) -> None:
        """Drop the cache and any unflushed work (after a flush, or a failed transaction)."""
        super().forget()
        self.dirty.clear()
        self.lines.clear()
        self.written = None
