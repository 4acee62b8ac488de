"""Where the fold keeps a league's state while it works: the interface and the in-memory form.

The fold reads records by key or by an indexed field, writes whole new records (they are
frozen) and emits append-only lines. ``MemoryStore`` serves full rebuilds and what-if
replays; ``ledger.projections.sql.SqlStore`` serves incremental catch-up over the
persisted read models. Both must give the same answers, which tests check.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any, Protocol, cast

from ledger.domain.state import LINE_RECORDS, Line, R, Record


class Store(Protocol):
    def get(self, kind: type[R], /, *key: Any) -> R | None: ...
    def select(self, kind: type[R], /, **where: Any) -> Sequence[R]: ...
    def put(self, record: Record) -> None: ...
    def emit(self, line: Line) -> None: ...


Fields = tuple[str, ...]


@cache
def bucketed(kind: type[Record]) -> tuple[Fields, ...]:
    """The field combinations ``MemoryStore`` keeps a bucket of keys for."""
    return tuple((field,) for field in kind.indexes) + kind.grouped


def matches(record: Record, where: dict[str, Any]) -> bool:
    return all(getattr(record, field) == value for field, value in where.items())


class MemoryStore:
    """Records in dicts, with the indexes the records declare; lines in lists or a sink."""

    def __init__(self, sink: Callable[[Line], None] | None = None) -> None:
        self.records: dict[type[Record], dict[tuple[Any, ...], Record]] = defaultdict(dict)
        self.index: dict[tuple[type[Record], Fields, tuple[Any, ...]], set[tuple[Any, ...]]] = (
            defaultdict(set)
        )
        self.lines: dict[type[Line], list[Line]] = {kind: [] for kind in LINE_RECORDS}
        self.sink = sink

    def get(self, kind: type[R], /, *key: Any) -> R | None:
        return cast("R | None", self.records[kind].get(tuple(key)))

    def select(self, kind: type[R], /, **where: Any) -> list[R]:
        table = self.records[kind]
        buckets = [
            (fields, self.index[(kind, fields, tuple(where[f] for f in fields))])
            for fields in bucketed(kind)
            if all(f in where for f in fields)
        ]
        if not buckets:
            indexed: Fields = ()
            candidates: Iterator[Record] = iter(table.values())
        else:
            indexed, keys = min(buckets, key=lambda bucket: len(bucket[1]))
            candidates = (table[k] for k in sorted(keys))
        checks = [(f, v) for f, v in where.items() if f not in indexed]
        found = [
            r for r in candidates if all(r.__dict__[field] == value for field, value in checks)
        ]
        return cast("list[R]", found)

    def put(self, record: Record) -> None:
        kind, key = type(record), record.key_values()
        old = self.records[kind].get(key)
        for fields in bucketed(kind):
            if old is not None:
                self.index[(kind, fields, tuple(old.__dict__[f] for f in fields))].discard(key)
            self.index[(kind, fields, tuple(record.__dict__[f] for f in fields))].add(key)
        self.records[kind][key] = record

    def emit(self, line: Line) -> None:
        if self.sink is not None:
            self.sink(line)
        else:
            self.lines[type(line)].append(line)

    def all(self, kind: type[R]) -> list[R]:
        found = cast("list[R]", list(self.records[kind].values()))
        return sorted(found, key=lambda r: r.key_values())

    def copy(self) -> MemoryStore:
        """A store that starts where this one stands and goes its own way (records are
        frozen, so both may share them; a what-if's Monte Carlo samples start from one)."""
        twin = MemoryStore(self.sink)
        twin.records.update({kind: dict(table) for kind, table in self.records.items()})
        twin.index.update({key: set(keys) for key, keys in self.index.items()})
        twin.lines = {kind: list(lines) for kind, lines in self.lines.items()}
        return twin
