"""Records read from the read-model tables through a database driver, without SQLAlchemy.

``RowStore`` answers the store protocol's ``get`` and ``select`` with the SQL its record
classes' shapes build (ledger/projections/shapes.py) and keeps what it read, and it runs
the few other statements a question needs (``query``, ``scan``). It is the seam under
``Queries``: how it reaches the database is one method, ``cursor``, that
``ledger.projections.sql.SqlStore`` answers with a SQLAlchemy connection's driver cursor
and ``ledger.projections.lean.SqliteStore`` with a plain ``sqlite3`` connection's.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

import orjson

from ledger.domain.state import Line, R, Record
from ledger.projections.shapes import select_statement, shape_of
from ledger.projections.store import matches

Row = Sequence[Any]

PAGE = 64
"""Rows a ``scan`` fetches at a time."""


class RowStore:
    """Leagues' read models, read through a driver and kept as they are read.

    Reads go to the driver with statements built once (``Shape``); a row already read is
    not read into a record again.
    """

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        self.cache: dict[type[Record], dict[tuple[Any, ...], Record]] = {}
        self.index: dict[tuple[type[Record], str, Any], set[tuple[Any, ...]]] = {}
        self.answered: set[tuple[type[Record], frozenset[tuple[str, Any]]]] = set()
        """Questions already put to the database: their rows are all in the cache now,
        and later changes go through ``put``, so they need not be asked again."""
        self.absent: set[tuple[type[Record], tuple[Any, ...]]] = set()
        """Keys asked for and not found (a new match, a player hired this game...): a
        command asks for them many times. ``get`` looks in the cache first, so a record
        put since is found."""

    @property
    def decodes(self) -> bool:
        """Whether the driver hands JSON columns back as text (sqlite3 does; psycopg
        decodes them itself)."""
        return self.dialect == "sqlite"

    def cursor(self, statement: str, params: Any) -> contextlib.AbstractContextManager[Any]:
        """A driver cursor to run ``statement`` on (named for the errors it may raise),
        closed when the block ends."""
        raise NotImplementedError

    def query(self, statement: str, params: Any) -> list[Row]:
        with self.cursor(statement, params) as cursor:
            cursor.execute(statement, params)
            return list(cursor.fetchall())

    def scan(
        self, statement: str, params: Any, wanted: Callable[[Row], bool], limit: int
    ) -> list[Row]:
        """The first ``limit`` rows of the answer that ``wanted`` keeps, read a page at a
        time: the rest of the answer is never fetched."""
        found: list[Row] = []
        with self.cursor(statement, params) as cursor:
            cursor.execute(statement, params)
            while len(found) < limit and (page := cursor.fetchmany(PAGE)):
                found += [row for row in page if wanted(row)]
        return found[:limit]

    def json_value(self, stored: Any) -> Any:
        """A JSON column's value as the driver gave it, decoded."""
        return orjson.loads(stored) if self.decodes and stored is not None else stored

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
        if issubclass(kind, Line):
            candidates += self.pending(kind)
        chosen: list[R] = [r for r in candidates if matches(r, where)]  # type: ignore[misc]
        return sorted(chosen, key=lambda r: r.key_values())

    def pending(self, kind: type[Line]) -> list[Line]:
        """Lines of ``kind`` not yet written (none: this store only reads)."""
        return []

    def fetch(
        self, kind: type[Record], fields: tuple[str, ...], values: tuple[Any, ...]
    ) -> list[Row]:
        """The rows asked for, from the driver's own cursor: SQLAlchemy's result object
        cost a command's reads more than the database's answers."""
        return self.query(select_statement(kind, fields, self.dialect), values)

    def read(self, kind: type[R], row: Row) -> R:
        return shape_of(kind).record(row, decode=self.decodes)  # type: ignore[return-value]

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

    def forget(self) -> None:
        """Drop what was read (another process may have changed the rows since)."""
        self.cache.clear()
        self.index.clear()
        self.answered.clear()
        self.absent.clear()
