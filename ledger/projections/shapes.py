"""The read models' tables as the record classes define them, without SQLAlchemy.

Each record class (ledger/domain/state.py) names its table, key and indexes; its fields
give the columns: scalars become typed columns that SQL can sort and filter
(leaderboards, standings), nested fields become JSON. ``Shape`` is that table as a
database driver sees it, with the SQL to read and write its rows built once; the
``fingerprint`` of all the shapes (and of the fold's version) tells whether stored read
models were written by this code. ``ledger.projections.sql`` builds SQLAlchemy's tables
from the same shapes; a read over a current SQLite ledger (ledger/projections/lean.py)
uses the shapes alone, so ``ledger standings`` never imports SQLAlchemy.

Worked example: ``shape_of(TreasuryLine).table`` is ``"rm_treasury"`` and
``select_statement(TreasuryLine, ("league_id", "team_id"), "sqlite")`` reads
``SELECT "league_id", ... FROM "rm_treasury" WHERE "league_id" = ? AND "team_id" = ?``.
"""

from __future__ import annotations

import hashlib
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import Any, cast

import orjson
from pydantic import BaseModel

from ledger.domain.plain import Plain, field_names, fresh
from ledger.domain.state import ENTITY_RECORDS, LINE_RECORDS, Line, Record

RECORDS: tuple[type[Record], ...] = (*ENTITY_RECORDS, *LINE_RECORDS)
"""Every record class with a table of its own, in the order the tables are made."""

FOLD_VERSION = 10
"""Bump when the fold's meaning changes without a table change: stored read models then
no longer match the code and are rebuilt from the log when the ledger opens. 10: every
team's figures at a season's close, stars bought as inducements, a season's start keeping
games recorded before it, faults for what the books cannot hold."""

POSITION_TABLE = "rm_position"
POSITION_NAME = "read-models"
"""The position table holds one row, by this name: the position (notification id) of the
last event every read model includes, and the fingerprint of the code that wrote them."""


def json_text(value: Any) -> str:
    """The one JSON form of the read models (compact, as orjson writes it): the engine
    serialises with it too, so upserts and bulk inserts store the same text."""
    return orjson.dumps(value).decode()


JSON = "JSON"
SCALARS: dict[Any, str] = {int: "BIGINT", str: "TEXT", bool: "BOOLEAN", float: "FLOAT"}
"""The SQL type of each scalar field, by the name SQLAlchemy gives it (the fingerprint
names the types, so its value is the same whichever module computes it)."""


def column_type(annotation: Any) -> tuple[str, bool]:
    """The SQL type for a record field, and whether it may be NULL."""
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        inner = next(a for a in args if a is not type(None))
        return column_type(inner)[0], True
    if annotation in SCALARS:
        return SCALARS[annotation], False
    if origin is typing.Literal:
        return SCALARS[str], False
    return JSON, False


@cache
def hints_of(kind: type[Record]) -> dict[str, Any]:
    """``kind``'s fields' types, worked out once: a command's start asks them of every
    record class (the tables' fingerprint), and ``typing.get_type_hints`` evaluates every
    annotation's text each time it is asked."""
    return typing.get_type_hints(kind)


@cache
def nested(kind: type[Record]) -> bool:
    """Whether a record class holds models (which need ``model_dump``)."""
    hints = hints_of(kind)
    return any(has_model(hints[name]) for name in field_names(kind))


def has_model(annotation: Any) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel | Plain):
        return True
    return any(has_model(arg) for arg in typing.get_args(annotation))


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
    types: tuple[str, ...]
    """Per column: its SQL type (``SCALARS``' names, or ``JSON``)."""
    nullable: tuple[bool, ...]
    """Per column: whether it may be NULL (never a key's)."""
    json: tuple[bool, ...]
    """Per column: whether it holds JSON (NULL for None, never the text 'null')."""
    key: tuple[int, ...]
    """The positions of the key's columns in a row."""
    nested: bool
    converters: tuple[Convert, ...] | None
    """How each stored value becomes the field's value, for a record class whose fields
    all have a plain form (None when one holds a nested model: then pydantic reads it)."""
    flat: Callable[[dict[str, Any]], tuple[Any, ...]] | None
    """Reads a row from a record's values when it holds no nested model (every line,
    which a rebuild writes by the million)."""

    def rows(self, records: Iterable[Record]) -> list[tuple[Any, ...]]:
        return [self.row(record) for record in records]

    def row(self, record: Record) -> tuple[Any, ...]:
        if self.flat is not None:
            return self.flat(record.__dict__)
        values = record.model_dump(mode="json") if self.nested else record.__dict__
        return tuple(
            json_text(value) if is_json and value is not None else value
            for name, is_json in zip(self.columns, self.json, strict=True)
            for value in (values[name],)
        )

    def key_of(self, row: Sequence[Any]) -> tuple[Any, ...]:
        return tuple([row[index] for index in self.key])

    def values(self, row: Sequence[Any], decode: bool) -> dict[str, Any]:
        """A stored row's values by column, JSON ones decoded if ``decode``."""
        values = dict(zip(self.columns, row, strict=True))
        if decode:
            for name, is_json in zip(self.columns, self.json, strict=True):
                if is_json and values[name] is not None:
                    values[name] = orjson.loads(values[name])
        return values

    def record(self, row: Sequence[Any], decode: bool) -> Record:
        """The record a stored row holds. ``decode``: the driver hands JSON columns back
        as text (sqlite3 does; psycopg decodes them itself). The read models hold only
        what the fold wrote from valid records, so a row is not validated again field by
        field: its values are only given their types back (JSON lists become tuples,
        SQLite's 0/1 booleans), as validation would, at a fraction of its cost."""
        values = self.values(row, decode)
        if self.converters is None:
            return self.kind.model_validate(values)
        for name, convert in zip(self.columns, self.converters, strict=True):
            if convert is not same:
                values[name] = convert(values[name])
        return fresh(self.kind, values)  # in the order of its fields: the columns'


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
    hints = hints_of(kind)
    found = [converter(hints[name]) for name in field_names(kind)]
    return None if any(c is None for c in found) else tuple(c for c in found if c is not None)


@cache
def shape_of(kind: type[Record]) -> Shape:
    hints = hints_of(kind)
    columns = tuple(field_names(kind))
    typed = [column_type(hints[name]) for name in columns]
    json = tuple(sql_type == JSON for sql_type, _ in typed)
    holds_models = nested(kind)
    return Shape(
        kind=kind,
        table=kind.table,
        columns=columns,
        types=tuple(sql_type for sql_type, _ in typed),
        nullable=tuple(
            nullable and name not in kind.key
            for name, (_, nullable) in zip(columns, typed, strict=True)
        ),
        json=json,
        key=tuple(columns.index(name) for name in kind.key),
        nested=holds_models,
        converters=converters_of(kind),
        flat=flat_reader(columns, json) if len(columns) > 1 and not holds_models else None,
    )


def flat_reader(
    columns: tuple[str, ...], json: tuple[bool, ...]
) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """A row read off a record's values: its columns' values at once, and the JSON ones
    written as JSON text (a team's history line's values, 66,720 lines at 10^5 events)."""
    read = itemgetter(*columns)
    places = [place for place, is_json in enumerate(json) if is_json]
    if not places:
        return read

    def row(values: dict[str, Any]) -> tuple[Any, ...]:
        found = list(read(values))
        for place in places:
            if found[place] is not None:
                found[place] = json_text(found[place])
        return tuple(found)

    return row


LineRow = tuple[Any, ...]
"""A line as its table's row: its columns' values in order, JSON ones as JSON text."""


def line_of(kind: type[Line], row: LineRow) -> Line:
    """The record a line's row reads as, for a store that keeps its lines as records."""
    shape = shape_of(kind)
    return cast("Line", shape.record(row, decode=any(shape.json)))


def by_kind(lines: Iterable[Line]) -> dict[type[Line], list[Line]]:
    """Lines grouped by class (one statement per table), each group in the order its lines
    came."""
    found: dict[type[Line], list[Line]] = {}
    for line in lines:
        found.setdefault(type(line), []).append(line)
    return found


# --- SQL built once -------------------------------------------------------------------------

MARKS = {"sqlite": "?", "postgresql": "%s"}
"""The drivers' placeholders (sqlite3's qmark, psycopg's format style)."""


def mark(dialect: str, is_json: bool) -> str:
    """A value's placeholder: JSON goes as text, which PostgreSQL is told to read as JSON."""
    return MARKS[dialect] + ("::json" if is_json and dialect == "postgresql" else "")


def quoted(name: str) -> str:
    return f'"{name}"'  # 'values' is an SQL keyword


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
    where = equal(fields, dialect)
    return select_from(kind) + (f" WHERE {where}" if where else "")


def key_orders(kind: type[Record], fields: Sequence[str]) -> bool:
    """Whether ``kind``'s key begins with the league and ``fields``: the key's own index (or
    order) then serves a question by them, and an index of its own would repeat it (the
    treasury's by team, the standings' by season)."""
    return ("league_id", *fields) == kind.key[: len(fields) + 1]


def index_columns(kind: type[Record]) -> list[tuple[str, ...]]:
    """The columns of each secondary index of ``kind``'s table: the league and a field of
    ``indexes`` (none where the key already orders by it), then the rest of a combination
    of ``grouped`` that begins with that field, so that the table answers from its index
    what the in-memory store answers from that bucket (a team's current players by status,
    ``roster_of``, not every player of its past)."""
    return [
        ("league_id", field, *next((g[1:] for g in kind.grouped if g[0] == field), ()))
        for field in kind.indexes
        if not key_orders(kind, (field,))
    ]


def select_from(kind: type[Record], columns: Sequence[str] = (), *, distinct: bool = False) -> str:
    """``SELECT`` of ``columns`` (all of the shape's, in order, when none are named)."""
    shape = shape_of(kind)
    named = ", ".join(quoted(name) for name in (columns or shape.columns))
    return f"SELECT {'DISTINCT ' if distinct else ''}{named} FROM {quoted(shape.table)}"


def equal(fields: Sequence[str], dialect: str) -> str:
    """``field = ?`` for each field, joined by ``AND``."""
    return " AND ".join(f"{quoted(name)} = {MARKS[dialect]}" for name in fields)


def within(field: str, count: int, dialect: str) -> str:
    """``field IN (?, ...)`` for ``count`` values; never true for none (PostgreSQL refuses
    an empty ``IN ()``)."""
    if not count:
        return "1 = 0"
    return f"{quoted(field)} IN ({', '.join([MARKS[dialect]] * count)})"


def position_statement(dialect: str) -> str:
    """The stored position and the fingerprint of the code that wrote the read models."""
    return (
        f"SELECT notification_id, fingerprint FROM {POSITION_TABLE} WHERE name = {MARKS[dialect]}"
    )


@cache
def fingerprint() -> str:
    """Identifies the read-model tables' shape (columns, keys, indexes, how each is
    stored) and the fold's version."""
    shape = [
        (s.table, list(zip(s.columns, s.types, s.nullable, strict=True)), k.key, k.indexes)
        + ((True,) if k.keyed_only else ())
        + ((index_columns(k),) if k.grouped else ())
        for k, s in ((kind, shape_of(kind)) for kind in RECORDS)
    ]
    return hashlib.sha256(repr((FOLD_VERSION, shape)).encode()).hexdigest()
