"""The read models as SQL tables, one per record class, in the event store's database.

Tables are generated from the record classes (ledger/domain/state.py): scalar fields
become typed columns that SQL can sort and filter (leaderboards, standings), nested
fields become JSON. ``SqlStore`` gives the fold the same interface as ``MemoryStore``,
loading records lazily and writing back only what changed, so catching up after a
command costs a few rows, not the league.
"""

from __future__ import annotations

import contextlib
import hashlib
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import orjson
import sqlalchemy as sa
from pydantic import BaseModel
from sqlalchemy.engine import Connection, Engine

from ledger.domain.state import ENTITY_RECORDS, LINE_RECORDS, Line, R, Record, trusted
from ledger.projections.store import matches

METADATA = sa.MetaData()

POSITION = sa.Table(
    "rm_position",
    METADATA,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("notification_id", sa.BigInteger, nullable=False),
    sa.Column("fingerprint", sa.String(64), nullable=False, server_default=""),
)
"""The position (notification id) of the last event every read model includes, and the
fingerprint of the code that wrote them."""

FOLD_VERSION = 7
"""Bump when the fold's meaning changes without a table change: stored read models then
no longer match the code and are rebuilt from the log when the ledger opens."""

JSON = sa.JSON(none_as_null=True)
"""A nested field: SQL NULL for None (as the bulk inserts write it), never the JSON text
'null', so a rebuilt read model equals an incremental one to the byte."""


def json_text(value: Any) -> str:
    """The one JSON form of the read models (compact, as orjson writes it): the engine
    serialises with it too, so upserts and bulk inserts store the same text."""
    return orjson.dumps(value).decode()


SCALARS: dict[Any, Any] = {int: sa.BigInteger, str: sa.Text, bool: sa.Boolean, float: sa.Float}


def column_type(annotation: Any) -> tuple[Any, bool]:
    """The SQL type for a record field, and whether it may be NULL."""
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        inner = next(a for a in args if a is not type(None))
        return column_type(inner)[0], True
    if annotation in SCALARS:
        return SCALARS[annotation], False
    if origin is typing.Literal:
        return sa.Text, False
    return JSON, False


@cache
def table_of(kind: type[Record]) -> sa.Table:
    hints = typing.get_type_hints(kind)
    columns = []
    for name in kind.model_fields:
        sql_type, nullable = column_type(hints[name])
        key = name in kind.key
        columns.append(sa.Column(name, sql_type, primary_key=key, nullable=nullable and not key))
    indexes = [sa.Index(f"ix_{kind.table}_{field}", "league_id", field) for field in kind.indexes]
    return sa.Table(kind.table, METADATA, *columns, *indexes)


ALL_TABLES = [table_of(kind) for kind in (*ENTITY_RECORDS, *LINE_RECORDS)]


def row_of(record: Record) -> dict[str, Any]:
    return record.model_dump(mode="json")


@cache
def nested(kind: type[Record]) -> bool:
    """Whether a record class holds pydantic values (which need ``model_dump``)."""
    hints = typing.get_type_hints(kind)
    return any(
        "BaseModel" in repr(hints[name]) or has_model(hints[name]) for name in kind.model_fields
    )


def has_model(annotation: Any) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(has_model(arg) for arg in typing.get_args(annotation))


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
    statements more than the database's work. The driver's errors come out as
    SQLAlchemy's, as from ``Connection.execute``."""
    dbapi = conn.dialect.loaded_dbapi
    cursor = conn.connection.cursor()
    try:
        if many:
            cursor.executemany(statement, params)
            return []
        cursor.execute(statement, params)
        return list(cursor.fetchall()) if cursor.description is not None else []
    except dbapi.Error as error:
        raise sa.exc.DBAPIError.instance(statement, params, error, dbapi.Error) from error
    finally:
        cursor.close()


@cache
def upsert_statement(kind: type[Record], dialect: str) -> str:
    """Insert-or-update of ``kind``'s rows, its SQL built once per table and dialect
    (SQLite and PostgreSQL share the ``ON CONFLICT ... DO UPDATE`` form)."""
    shape = shape_of(kind)
    keys = ", ".join(quoted(name) for name in kind.key)
    updates = ", ".join(
        f"{quoted(name)} = excluded.{quoted(name)}"
        for name in shape.columns
        if name not in kind.key
    )
    action = f"DO UPDATE SET {updates}" if updates else "DO NOTHING"
    return f"{insert_statement(kind, dialect)} ON CONFLICT ({keys}) {action}"


@cache
def insert_statement(kind: type[Record], dialect: str) -> str:
    shape = shape_of(kind)
    marks = ", ".join(mark(dialect, is_json) for is_json in shape.json)
    columns = ", ".join(quoted(name) for name in shape.columns)
    return f"INSERT INTO {quoted(shape.table)} ({columns}) VALUES ({marks})"


@cache
def select_statement(kind: type[Record], fields: tuple[str, ...], dialect: str) -> str:
    """The rows of ``kind`` whose ``fields`` equal given values, every column in order."""
    shape = shape_of(kind)
    columns = ", ".join(quoted(name) for name in shape.columns)
    where = " AND ".join(f"{quoted(name)} = {MARKS[dialect]}" for name in fields)
    return f"SELECT {columns} FROM {quoted(shape.table)}" + (f" WHERE {where}" if where else "")


MARKS = {"sqlite": "?", "postgresql": "%s"}
"""The drivers' placeholders (sqlite3's qmark, psycopg's format style)."""


def mark(dialect: str, is_json: bool) -> str:
    """A value's placeholder: JSON goes as text, which PostgreSQL is told to read as JSON."""
    return MARKS[dialect] + ("::json" if is_json and dialect == "postgresql" else "")


def quoted(name: str) -> str:
    return f'"{name}"'  # 'values' is an SQL keyword


@dataclass(frozen=True)
class Shape:
    """A record class's table as the database driver sees it, worked out once.

    The command path talks to the driver with SQL built once and rows as tuples: through
    SQLAlchemy's expressions, building the statement, its cache key and its parameters
    cost a recorded match more than the database's work. JSON columns are written as the
    one JSON text (``json_text``), as the rebuild's bulk insert writes them, so the rows of
    an incremental catch-up equal a rebuild's to the byte.
    """

    kind: type[Record]
    table: str
    columns: tuple[str, ...]
    json: tuple[bool, ...]
    """Per column: whether it holds JSON (NULL for None, never the text 'null')."""
    key: tuple[int, ...]
    """The positions of the key's columns in a row."""
    nested: bool
    converters: tuple[Convert, ...] | None
    """How each stored value becomes the field's value, for a record class whose fields
    all have a plain form (None when one holds a nested model: then pydantic reads it)."""

    def rows(self, records: Iterable[Record]) -> list[tuple[Any, ...]]:
        return [self.row(record) for record in records]

    def row(self, record: Record) -> tuple[Any, ...]:
        values = record.model_dump(mode="json") if self.nested else record.__dict__
        return tuple(
            json_text(value) if is_json and value is not None else value
            for name, is_json in zip(self.columns, self.json, strict=True)
            for value in (values[name],)
        )

    def key_of(self, row: Sequence[Any]) -> tuple[Any, ...]:
        return tuple([row[index] for index in self.key])

    def record(self, row: Sequence[Any], decode: bool) -> Record:
        """The record a stored row holds. ``decode``: the driver hands JSON columns back
        as text (sqlite3 does; psycopg decodes them itself). The read models hold only
        what the fold wrote from valid records, so a row is not validated again field by
        field: its values are only given their types back (JSON lists become tuples,
        SQLite's 0/1 booleans), as validation would, at a fraction of its cost."""
        values = dict(zip(self.columns, row, strict=True))
        if decode:
            for name, is_json in zip(self.columns, self.json, strict=True):
                if is_json and values[name] is not None:
                    values[name] = orjson.loads(values[name])
        if self.converters is None:
            return self.kind.model_validate(values)
        for name, convert in zip(self.columns, self.converters, strict=True):
            if convert is not same:
                values[name] = convert(values[name])
        return trusted(self.kind, values, set(self.columns))


Convert = Callable[[Any], Any]


def same(value: Any) -> Any:
    return value


def converter(annotation: Any) -> Convert | None:
    """How a stored (JSON-decoded) value becomes a field's value without validation, or
    None when only pydantic can tell (a nested model, a union of several types)."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation in (str, int, Any) or origin is typing.Literal:
        return same
    if annotation in (bool, float):
        return annotation  # type: ignore[no-any-return]
    if origin in (typing.Union, types.UnionType):
        inner = [arg for arg in args if arg is not type(None)]
        found = converter(inner[0]) if len(inner) == 1 else None
        if found is None or found is same:
            return found
        return lambda value: None if value is None else found(value)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = converter(args[0])
        if item is None:
            return None
        return tuple if item is same else lambda value: tuple(item(v) for v in value)
    if origin is dict and args[0] is str:
        each = converter(args[1])
        if each is None or each is same:
            return each
        return lambda value: {key: each(v) for key, v in value.items()}
    return None


def converters_of(kind: type[Record]) -> tuple[Convert, ...] | None:
    hints = typing.get_type_hints(kind)
    found = [converter(hints[name]) for name in kind.model_fields]
    return None if any(c is None for c in found) else tuple(c for c in found if c is not None)


@cache
def shape_of(kind: type[Record]) -> Shape:
    table = table_of(kind)
    columns = tuple(kind.model_fields)
    return Shape(
        kind=kind,
        table=table.name,
        columns=columns,
        json=tuple(isinstance(table.c[name].type, sa.JSON) for name in columns),
        key=tuple(columns.index(name) for name in kind.key),
        nested=nested(kind),
        converters=converters_of(kind),
    )


def insert_lines(conn: Connection, lines: Iterable[Line]) -> None:
    by_kind: dict[type[Line], list[Line]] = {}
    for line in lines:
        by_kind.setdefault(type(line), []).append(line)
    for kind, found in by_kind.items():
        bulk_insert(conn, kind, found)


def delete_league(conn: Connection, league_id: str) -> None:
    for table in ALL_TABLES:
        conn.execute(table.delete().where(table.c.league_id == league_id))


class SqlStore:
    """Leagues' read models seen through a write-back cache.

    The cache lives for one batch of events: the runner flushes and clears it after each
    page, so a long catch-up never holds more than a page's worth of records. Reads and
    writes go to the driver with statements built once (``Shape``); a row already in the
    cache is not read into a record again.
    """

    def __init__(self, engine: Engine, conn: Connection | None = None) -> None:
        self.engine = engine
        self.conn = conn
        """When given, reads go through this connection (and so see its uncommitted
        writes): the runner folds inside the transaction that holds its lock."""
        self.dialect = engine.dialect.name
        self.cache: dict[type[Record], dict[tuple[Any, ...], Record]] = {}
        self.index: dict[tuple[type[Record], str, Any], set[tuple[Any, ...]]] = {}
        self.answered: set[tuple[type[Record], frozenset[tuple[str, Any]]]] = set()
        """Questions already put to the database: their rows are all in the cache now,
        and later changes go through ``put``, so they need not be asked again."""
        self.absent: set[tuple[type[Record], tuple[Any, ...]]] = set()
        """Keys asked for and not found (a new match, a player hired this game...): a
        command asks for them many times. ``get`` looks in the cache first, so a record
        put since is found."""
        self.dirty: dict[type[Record], dict[tuple[Any, ...], Record]] = {}
        self.lines: list[Line] = []
        self.written: list[tuple[Shape, bool, list[tuple[Any, ...]]]] | None = None
        """The rows of the last ``write``, kept until the next change: a rehearsal writes
        them twice (a trial, rolled back, then for good) and builds them once."""

    def get(self, kind: type[R], /, *key: Any) -> R | None:
        cached = self.cache.setdefault(kind, {})
        found = cached.get(key)
        if found is None and (kind, key) not in self.absent:
            rows = self.fetch(kind, kind.key, key)
            if not rows:
                self.absent.add((kind, key))
                return None
            found = self.read(kind, rows[0])
            self.remember(found)
        return found  # type: ignore[return-value]

    def select(self, kind: type[R], /, **where: Any) -> list[R]:
        question = (kind, frozenset(where.items()))
        if question not in self.answered:
            shape = shape_of(kind)
            cached = self.cache.setdefault(kind, {})
            for row in self.fetch(kind, tuple(where), tuple(where.values())):
                if shape.key_of(row) not in cached:  # a cached record may be newer
                    self.remember(self.read(kind, row))
            self.answered.add(question)
        candidates = self.candidates(kind, where)
        if issubclass(kind, Line):  # lines emitted since the last flush count too
            candidates += [line for line in self.lines if type(line) is kind]
        chosen: list[R] = [r for r in candidates if matches(r, where)]  # type: ignore[misc]
        return sorted(chosen, key=lambda r: r.key_values())

    def fetch(
        self, kind: type[Record], fields: tuple[str, ...], values: tuple[Any, ...]
    ) -> Sequence[Sequence[Any]]:
        """The rows asked for, from the driver's own cursor: SQLAlchemy's result object
        cost a command's reads more than the database's answers."""
        statement = select_statement(kind, fields, self.dialect)
        with self.connection() as conn:
            return driver_execute(conn, statement, values)

    def read(self, kind: type[R], row: Sequence[Any]) -> R:
        return shape_of(kind).record(row, decode=self.dialect == "sqlite")  # type: ignore[return-value]

    def candidates(self, kind: type[Record], where: dict[str, Any]) -> list[Record]:
        cached = self.cache.get(kind, {})
        buckets = [self.index.get((kind, f, where[f]), set()) for f in kind.indexes if f in where]
        if not buckets:
            return list(cached.values())
        return [cached[k] for k in min(buckets, key=len)]

    def remember(self, record: Record) -> None:
        kind, key = type(record), record.key_values()
        cached = self.cache.setdefault(kind, {})
        old = cached.get(key)
        for field in kind.indexes:
            if old is not None:
                self.index.get((kind, field, getattr(old, field)), set()).discard(key)
            self.index.setdefault((kind, field, getattr(record, field)), set()).add(key)
        cached[key] = record

    @contextlib.contextmanager
    def connection(self) -> Iterator[Connection]:
        if self.conn is not None:
            yield self.conn
        else:
            with self.engine.connect() as conn:
                yield conn

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Read through one connection for the block (a command asks a dozen questions:
        one checkout, not a dozen). It reads in autocommit, so it holds no transaction,
        lock or snapshot between questions, and sees what other writers commit meanwhile,
        as a connection per question did."""
        if self.conn is not None:
            yield
            return
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            self.conn = conn
            try:
                yield
            finally:
                self.conn = None

    def put(self, record: Record) -> None:
        self.remember(record)
        self.dirty.setdefault(type(record), {})[record.key_values()] = record
        self.written = None

    def emit(self, line: Line) -> None:
        self.lines.append(line)
        self.written = None

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
        by_kind: dict[type[Line], list[Line]] = {}
        for line in self.lines:
            by_kind.setdefault(type(line), []).append(line)
        found += [
            (shape_of(kind), False, shape_of(kind).rows(lines)) for kind, lines in by_kind.items()
        ]
        return found

    def forget(self) -> None:
        """Drop the cache and any unflushed work (after a flush, or a failed transaction)."""
        self.cache.clear()
        self.index.clear()
        self.answered.clear()
        self.absent.clear()
        self.dirty.clear()
        self.lines.clear()
        self.written = None


@cache
def fingerprint() -> str:
    """Identifies the read-model tables' shape and the fold's version."""
    shape = [(t.name, [(c.name, str(c.type), c.nullable) for c in t.columns]) for t in ALL_TABLES]
    return hashlib.sha256(repr((FOLD_VERSION, shape)).encode()).hexdigest()
