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
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any

import orjson
import sqlalchemy as sa
from pydantic import BaseModel
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from ledger.domain.state import ENTITY_RECORDS, LINE_RECORDS, Line, R, Record
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

FOLD_VERSION = 4
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
    """Insert many new rows. On SQLite the driver's executemany takes plain tuples (JSON
    columns serialised here), skipping SQLAlchemy's per-row work: rebuilds write millions."""
    if not records:
        return
    table = table_of(kind)
    if conn.dialect.name != "sqlite" or nested(kind):
        conn.execute(table.insert(), [row_of(r) for r in records])
        return
    names = list(kind.model_fields)
    json_columns = {c.name for c in table.columns if isinstance(c.type, sa.JSON)}
    encode = [(name, name in json_columns) for name in names]
    rows = [
        tuple(
            json_text(v) if is_json and v is not None else v
            for name, is_json in encode
            for v in (r.__dict__[name],)
        )
        for r in records
    ]
    marks = ", ".join("?" for _ in names)
    columns = ", ".join(f'"{name}"' for name in names)  # 'values' is an SQL keyword
    conn.exec_driver_sql(f'INSERT INTO "{table.name}" ({columns}) VALUES ({marks})', rows)


def upsert(conn: Connection, kind: type[Record], records: Sequence[Record]) -> None:
    if not records:
        return
    conn.execute(upsert_statement(kind, conn.dialect.name), [row_of(r) for r in records])


@cache
def upsert_statement(kind: type[Record], dialect: str) -> sa.Insert:
    """Insert-or-update of ``kind``'s rows, built once per table: building it (its
    ``excluded`` alias copies every column) cost a command more than running it."""
    table = table_of(kind)
    statement = (sqlite if dialect == "sqlite" else postgresql).insert(table)
    updates = {c.name: statement.excluded[c.name] for c in table.columns if not c.primary_key}
    built: sa.Insert = statement.on_conflict_do_update(index_elements=list(kind.key), set_=updates)
    return built


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
    page, so a long catch-up never holds more than a page's worth of records.
    """

    def __init__(self, engine: Engine, conn: Connection | None = None) -> None:
        self.engine = engine
        self.conn = conn
        """When given, reads go through this connection (and so see its uncommitted
        writes): the runner folds inside the transaction that holds its lock."""
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

    def get(self, kind: type[R], /, *key: Any) -> R | None:
        cached = self.cache.setdefault(kind, {})
        if key not in cached:
            if (kind, key) in self.absent:
                return None
            table = table_of(kind)
            where = [table.c[name] == value for name, value in zip(kind.key, key, strict=True)]
            with self.connection() as conn:
                row = conn.execute(sa.select(table).where(*where)).mappings().first()
            if row is None:
                self.absent.add((kind, key))
                return None
            self.remember(kind.model_validate(dict(row)))
        return cached[key]  # type: ignore[return-value]

    def select(self, kind: type[R], /, **where: Any) -> list[R]:
        question = (kind, frozenset(where.items()))
        if question not in self.answered:
            table = table_of(kind)
            clauses = [table.c[name] == value for name, value in where.items()]
            with self.connection() as conn:
                rows = conn.execute(sa.select(table).where(*clauses)).mappings().all()
            cached = self.cache.setdefault(kind, {})
            for row in rows:
                record = kind.model_validate(dict(row))
                if record.key_values() not in cached:
                    self.remember(record)
            self.answered.add(question)
        candidates = self.candidates(kind, where)
        if issubclass(kind, Line):  # lines emitted since the last flush count too
            candidates += [line for line in self.lines if type(line) is kind]
        chosen: list[R] = [r for r in candidates if matches(r, where)]  # type: ignore[misc]
        return sorted(chosen, key=lambda r: r.key_values())

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

    def put(self, record: Record) -> None:
        self.remember(record)
        self.dirty.setdefault(type(record), {})[record.key_values()] = record

    def emit(self, line: Line) -> None:
        self.lines.append(line)

    def flush(self, conn: Connection) -> None:
        self.write(conn)
        self.dirty.clear()
        self.lines.clear()

    def write(self, conn: Connection) -> None:
        """Write what changed, keeping it (a rehearsal writes once to see that the
        database takes it, rolls back, and writes again once the events are stored)."""
        for kind, records in self.dirty.items():
            upsert(conn, kind, list(records.values()))
        insert_lines(conn, self.lines)

    def forget(self) -> None:
        """Drop the cache and any unflushed work (after a flush, or a failed transaction)."""
        self.cache.clear()
        self.index.clear()
        self.answered.clear()
        self.absent.clear()
        self.dirty.clear()
        self.lines.clear()


@cache
def fingerprint() -> str:
    """Identifies the read-model tables' shape and the fold's version."""
    shape = [(t.name, [(c.name, str(c.type), c.nullable) for c in t.columns]) for t in ALL_TABLES]
    return hashlib.sha256(repr((FOLD_VERSION, shape)).encode()).hexdigest()
