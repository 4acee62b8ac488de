"""Where the fold keeps a league's state while it works: the interface and the in-memory form.

The fold reads records by key or by an indexed field, puts new records, changes them
through the store (``change``: in place where the store alone holds them, else on a
copy) and emits append-only lines. ``MemoryStore`` serves full rebuilds and what-if
replays; ``ledger.projections.sql.SqlStore`` serves incremental catch-up over the
persisted read models. Both must give the same answers, which tests check.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol, cast

from ledger.domain.per_class import per_class
from ledger.domain.plain import fields_reader
from ledger.domain.state import LINE_RECORDS, ON_ROSTER, Line, PlayerRow, R, Record
from ledger.projections.shapes import LineRow, line_of, shape_of

if TYPE_CHECKING:
    from ledger.projections.history import HistoryNote
    from ledger.projections.settled import SettledFile


class Store(Protocol):
    notes: Callable[[HistoryNote], None] | None
    """Where a fold sends its notes of events' history in place of their rows, or None: it
    makes the rows (ledger/projections/history.py)."""
    plays_apart: bool
    """Whether the notes tell each match report's play too, for the process they go to
    to count (ledger/projections/plays.py): the fold then counts none."""

    def get(self, kind: type[R], /, *key: Any) -> R | None: ...
    def select(self, kind: type[R], /, **where: Any) -> Sequence[R]: ...
    def put(self, record: Record) -> None: ...
    def change(self, record: R, /, **updates: Any) -> R: ...
    def emit(self, line: Line) -> None: ...
    def emit_row(self, kind: type[Line], row: LineRow) -> None: ...
    def row_sink(self) -> RowSink: ...


RowSink = Callable[[type[Line], LineRow], None]
"""Where a store's lines go as they are emitted, as their rows (a rebuild's writers)."""


Fields = tuple[str, ...]


@per_class
def bucketed(kind: type[Record]) -> tuple[Fields, ...]:
    """The field combinations ``MemoryStore`` keeps a bucket of keys for."""
    return tuple((field,) for field in kind.indexes) + kind.grouped


@per_class
def bucket_fields(kind: type[Record]) -> Callable[[dict[str, Any]], Any]:
    """The values of every field ``kind``'s buckets read, as one comparable value: a put
    that changes none of them (most puts: counters, SPP, treasury) leaves the buckets be."""
    return fields_reader(sorted({name for fields in bucketed[kind] for name in fields}))


@per_class
def structural(kind: type[Record]) -> frozenset[str]:
    """The fields that place a record in a store (its key, its buckets): a change of one
    of them moves the record, so it is made on a copy, never in place."""
    return frozenset(kind.key).union(*bucketed[kind])


ROSTER: Fields = ("team_id", "status")
"""The bucket of a team's players by status (``PlayerRow.grouped``)."""
assert ROSTER in PlayerRow.grouped


def matches(record: Record, where: dict[str, Any]) -> bool:
    values = record.__dict__
    return all(values[field] == value for field, value in where.items())


Bucket = tuple[type[Record], Fields, tuple[Any, ...]]
"""An index bucket: the kind, the fields it groups by, and their values."""


@dataclass(frozen=True)
class Plan:
    """How ``MemoryStore.select`` answers one shape of question from one bucket."""

    fields: Fields
    """The bucket's fields."""
    on_key: tuple[tuple[str, int], ...]
    """The other fields asked that the key holds, with their places in it: read off the
    keys, without looking the records up (the league of a team's players)."""
    on_value: Fields
    """The fields left, read off the records."""


@cache
def plans(kind: type[Record], asked: Fields) -> tuple[Plan, ...]:
    """The buckets that can answer a select of ``kind`` by the fields ``asked``."""
    places = {field: place for place, field in enumerate(kind.key)}
    found = []
    for fields in bucketed[kind]:
        if all(f in asked for f in fields):
            others = [f for f in asked if f not in fields]
            on_key = tuple((f, places[f]) for f in others if f in places)
            on_value = tuple(f for f in others if f not in places)
            found.append(Plan(fields, on_key, on_value))
    return tuple(found)


class MemoryStore:
    """Records in dicts, with the indexes the records declare; lines in lists or a sink.

    Records are changed in place (``change``) where the store alone holds them: every
    record put into it since it was made or copied. A copy shares its records with its
    twin, so each copies a shared record the first time it changes it.

    Each index bucket keeps its keys sorted once, until its membership changes: the fold
    asks for a team's current players many times per event, and a player's record is
    replaced after every game without leaving its team or status (so without touching
    the buckets it belongs to).

    With a ``settled`` file (a rebuild's), a record that has settled (a former player, a
    closed match: ledger/projections/settled.py) leaves memory for the file, and reads
    look there for what memory lacks; so the store's size follows the current rosters,
    not the league's history. Answers are the same as without the file, in key order.
    """

    def __init__(
        self,
        sink: RowSink | None = None,
        settled: SettledFile | None = None,
        notes: Callable[[HistoryNote], None] | None = None,
        plays_apart: bool = False,
    ) -> None:
        self.records: dict[type[Record], dict[tuple[Any, ...], Record]] = defaultdict(dict)
        self.index: dict[Bucket, set[tuple[Any, ...]]] = defaultdict(set)
        self.ordered: dict[Bucket, list[tuple[Any, ...]]] = {}
        """Each bucket's keys in order, kept until the bucket changes."""
        self.narrowed_keys: dict[Bucket, tuple[Any, list[tuple[Any, ...]]]] = {}
        """Each bucket's keys narrowed by fields of the key (``narrowed``), likewise."""
        self.rosters: dict[tuple[str, str], list[tuple[Any, ...]]] = {}
        """Each team's current players' keys in order (``roster_of``), kept until a
        player joins or leaves it."""
        self.roster_lists: dict[tuple[str, str], list[PlayerRow]] = {}
        """Each team's current players in that order, kept until one of them is replaced
        by another record too (a change in place keeps him): the fold asks for a roster
        after most events."""
        self.lines: dict[type[Line], list[Line]] = {kind: [] for kind in LINE_RECORDS}
        self.mine: set[int] = set()
        """The records (by ``id``) ``change`` may change in place. Each is in ``records``
        (which keeps it alive, so its ``id`` names no other object)."""
        self.sink = sink
        self.settled = settled
        self.notes = notes
        """Where a fold sends its notes of events' history (a rebuild's line process, which
        makes their rows: ledger/projections/history.py), or None: it makes the rows."""
        if plays_apart and notes is None:
            raise ValueError("a report's play is counted apart only where notes go")
        self.plays_apart = plays_apart
        self.looked_at = structural if settled is None else settled.looked_at
        """The fields a change looks at before it changes a record in place."""

    def get(self, kind: type[R], /, *key: Any) -> R | None:
        found: Any = self.records[kind].get(key)  # no cast(): the fold asks this most of all
        if found is None and self.settled is not None:
            return self.settled_record(kind, key, self.settled)
        return found  # type: ignore[no-any-return]

    def settled_record(self, kind: type[R], key: tuple[Any, ...], settled: SettledFile) -> R | None:
        """The record of ``key`` that memory lacks, if it has settled."""
        if settled.could_hold(kind, dict(zip(kind.key, key, strict=True))):
            return settled.get(kind, key)
        return None

    def select(self, kind: type[R], /, **where: Any) -> list[R]:
        found = self.in_memory(kind, where)
        if self.settled is None:
            return found
        if self.settled.could_hold(kind, where):
            table = self.records[kind]
            found += [r for r in self.settled.select(kind, where) if r.key_values() not in table]
        # In key order, as the SQL store answers: a record that settles and comes back
        # would otherwise move in memory's order of insertion.
        return sorted(found, key=lambda r: r.key_values())

    def in_memory(self, kind: type[R], where: dict[str, Any]) -> list[R]:
        table = self.records[kind]
        usable = plans(kind, tuple(where))
        if not usable:
            return [r for r in table.values() if matches(r, where)]  # type: ignore[misc]
        plan = usable[0] if len(usable) == 1 else self.smallest(kind, usable, where)
        bucket = (kind, plan.fields, tuple([where[f] for f in plan.fields]))
        keys = self.sorted_keys(bucket)
        if plan.on_key:
            keys = self.narrowed(bucket, keys, plan, tuple([where[f] for f, _ in plan.on_key]))
        found = [table[key] for key in keys]
        if plan.on_value:
            rest = {field: where[field] for field in plan.on_value}
            found = [r for r in found if matches(r, rest)]
        return found  # type: ignore[return-value]

    def smallest(self, kind: type[Record], usable: Sequence[Plan], where: dict[str, Any]) -> Plan:
        """The plan whose bucket holds the fewest keys."""
        return min(
            usable,
            key=lambda p: len(
                self.index.get((kind, p.fields, tuple([where[f] for f in p.fields])), ())
            ),
        )

    def sorted_keys(self, bucket: Bucket) -> list[tuple[Any, ...]]:
        keys = self.ordered.get(bucket)
        if keys is None:
            keys = self.ordered[bucket] = sorted(self.index.get(bucket, ()))
        return keys

    def narrowed(
        self, bucket: Bucket, keys: list[tuple[Any, ...]], plan: Plan, wanted: tuple[Any, ...]
    ) -> list[tuple[Any, ...]]:
        """The bucket's keys that hold ``wanted`` in the places ``plan.on_key`` names (a
        team's players of one league), kept with the bucket's order until it changes."""
        asked = (plan.on_key, wanted)  # the fields read off the keys, and their values
        kept = self.narrowed_keys.get(bucket)
        if kept is not None and kept[0] == asked:
            return kept[1]
        for (_, place), value in zip(plan.on_key, wanted, strict=True):
            keys = [key for key in keys if key[place] == value]
        self.narrowed_keys[bucket] = (asked, keys)
        return keys

    def forget(self, bucket: Bucket) -> None:
        """A bucket's membership changed: its keys are put in order again when next asked."""
        self.ordered.pop(bucket, None)
        self.narrowed_keys.pop(bucket, None)

    def roster(self, league_id: str, team_id: str) -> list[PlayerRow]:
        """A team's current players (on the roster by status), in key order. The list is
        the store's: read, never changed."""
        team = (league_id, team_id)
        players = self.roster_lists.get(team)
        if players is not None:
            return players
        keys = self.rosters.get(team)
        if keys is None:
            keys = self.rosters[team] = sorted(
                key
                for status in ON_ROSTER
                for key in self.index.get((PlayerRow, ROSTER, (team_id, status)), ())
                if key[0] == league_id
            )
        table = self.records[PlayerRow]
        players = self.roster_lists[team] = [table[key] for key in keys]  # type: ignore[misc]
        return players

    def put(self, record: Record) -> None:
        """Keep ``record`` in place of the one with its key. The store then holds it as its
        own and may change it in place (``change``): a record is put into one store only."""
        watched = self.settled is not None and type(record) in self.settled.watched
        if watched and self.settled_away(record):
            return
        kind, key = type(record), record.key_values()
        table = self.records[kind]
        old = table.get(key)
        new_values, old_values = record.__dict__, old.__dict__ if old is not None else None
        if old_values is not None:
            read = bucket_fields[kind]
            if read(new_values) == read(old_values):
                table[key] = record
                self.take(old, record)
                self.replaced(kind, key, record)
                return
        for fields in bucketed[kind]:
            now = tuple([new_values[f] for f in fields])
            if old_values is not None:
                before = tuple([old_values[f] for f in fields])
                if before == now:
                    continue
                self.index[(kind, fields, before)].discard(key)
                self.forget((kind, fields, before))
                self.forget_roster(kind, fields, key, before)
            self.index[(kind, fields, now)].add(key)
            self.forget((kind, fields, now))
            self.forget_roster(kind, fields, key, now)
        table[key] = record
        self.take(old, record)
        self.replaced(kind, key, record)

    def replaced(self, kind: type[Record], key: tuple[Any, ...], record: Record) -> None:
        """``record`` took the place of the one with its key: a roster that held the old
        one is listed again when next asked."""
        if kind is PlayerRow:
            self.roster_lists.pop((key[0], record.__dict__["team_id"]), None)

    def take(self, old: Record | None, new: Record) -> None:
        """Hold ``new`` as the store's own in place of ``old`` (once ``records`` keeps it)."""
        if old is not None:
            self.mine.discard(id(old))
        self.mine.add(id(new))

    def change(self, record: R, /, **updates: Any) -> R:
        """The store's ``record`` with ``updates``, kept in its place. Changed where it
        stands when the store alone holds it and it keeps its place (most changes: counters,
        SPP, treasury); else a changed copy replaces it. Either way the caller goes on with
        the answer and never reads ``record`` again."""
        kind = type(record)
        if self.looked_at[kind].isdisjoint(updates):
            if id(record) in self.mine:
                record.__dict__.update(updates)  # a plain model's fields: not validated
                return record
            if self.settled is None:
                return self.replace_shared(kind, record, updates)
        elif structural[kind].isdisjoint(updates) and id(record) in self.mine:
            # In place, then shown the settled file (only its fields are looked at besides
            # those that place a record): a match closed, a season closed.
            assert self.settled is not None
            record.__dict__.update(updates)
            self.settled_away(record)
            return record
        changed = record.model_copy(update=updates)
        self.put(changed)
        return changed

    def replace_shared(self, kind: type[R], record: R, updates: dict[str, Any]) -> R:
        """``record``, shared with a twin store (a Monte Carlo sample's clone), changed on a
        copy that keeps its place: its key and buckets are the same, so the copy only takes
        its slot (``put``'s bookkeeping is not needed); from then on it is this store's."""
        changed = record.model_copy(update=updates)
        table, key = self.records[kind], record.key_values()
        if table.get(key) is not record:  # not the store's own record: put it in full
            self.put(changed)
            return changed
        table[key] = changed
        self.mine.add(id(changed))
        if kind is PlayerRow:  # ``replaced``, inline: a sample replaces its records by the thousand
            self.roster_lists.pop((key[0], record.__dict__["team_id"]), None)
        return changed

    def settled_away(self, record: Record) -> bool:
        """Whether ``record`` has settled and left memory for the file; writes out, too,
        what it lets settle (a closed season's standings...)."""
        assert self.settled is not None
        if self.settled.takes(record):
            self.settle(type(record), record.key_values(), record)
            return True
        released = self.settled.settles(record)
        if released is not None:
            self.settle_season(*released)
        return False

    def settle(self, kind: type[Record], key: tuple[Any, ...], record: Record) -> None:
        assert self.settled is not None
        self.drop(kind, key)
        self.settled.put(record)

    def settle_season(self, kind: type[Record], league_id: str, season: int) -> None:
        """Write out a season's records of ``kind`` that have now settled (a closed
        season's standings, the closed matches of the season before last)."""
        assert self.settled is not None
        keys = self.index.get((kind, ("season",), (season,)), set())
        for key in [key for key in keys if key[0] == league_id]:
            record = self.records[kind][key]
            if self.settled.takes(record):
                self.settle(kind, key, record)

    def drop(self, kind: type[Record], key: tuple[Any, ...]) -> None:
        """Forget a record and its place in the buckets (it has settled)."""
        old = self.records[kind].pop(key, None)
        if old is None:
            return
        self.mine.discard(id(old))
        for fields in bucketed[kind]:
            values = tuple([old.__dict__[f] for f in fields])
            bucket = (kind, fields, values)
            keys = self.index.get(bucket)
            if keys is not None:
                keys.discard(key)
                if not keys:  # a bucket of the past (a finished season's matches) goes
                    del self.index[bucket]
            self.forget(bucket)
            self.forget_roster(kind, fields, key, values)

    def forget_roster(
        self, kind: type[Record], fields: Fields, key: tuple[Any, ...], values: tuple[Any, ...]
    ) -> None:
        if kind is PlayerRow and fields == ROSTER:
            self.rosters.pop((key[0], values[0]), None)
            self.roster_lists.pop((key[0], values[0]), None)

    def emit(self, line: Line) -> None:
        kind = type(line)
        if self.sink is not None:
            self.sink(kind, shape_of(kind).row(line))
        else:
            self.lines[kind].append(line)

    def emit_row(self, kind: type[Line], row: LineRow) -> None:
        """A line given as its row (its fields' values in order, as the fold makes its
        lines: ``history_rows``), as a rebuild's sink takes it; kept as its record where
        the store keeps its lines (a replay's, a what-if's)."""
        if self.sink is not None:
            self.sink(kind, row)
        else:
            self.lines[kind].append(line_of(kind, row))

    def row_sink(self) -> RowSink:
        """What takes a line's row as ``emit_row`` does: the sink itself where there is
        one, one call less for each of the lines a loop emits (a game's, a history's)."""
        return self.sink if self.sink is not None else self.emit_row

    def all(self, kind: type[R]) -> list[R]:
        found = cast("list[R]", list(self.records[kind].values()))
        return sorted(found, key=lambda r: r.key_values())

    def copy(self) -> MemoryStore:
        """A store that starts where this one stands and goes its own way (a what-if's Monte
        Carlo samples start from one). Total: every attribute is copied, whatever attributes
        the store has: dicts down to their values, sets and lists as new ones of the same
        items. What they hold is shared: records (neither store changes a shared one in
        place: both forget they held it alone), keys (tuples), the sink (a function) and
        the facts of classes it reads (``per_class``). A store with a settled file (a
        rebuild's) cannot be copied: the file would be shared."""
        if self.settled is not None:
            raise TypeError("a store that writes settled records to a file cannot be copied")

        def copied(value: Any) -> Any:
            if isinstance(value, dict):
                value = value.copy()  # a defaultdict keeps its factory
                for key, item in value.items():
                    if isinstance(item, (dict, set, list)):
                        value[key] = copied(item)
                return value
            if isinstance(value, (set, list)):
                return value.copy()  # of key tuples, or lines (never changed)
            return value

        twin = object.__new__(MemoryStore)
        twin.__dict__.update(
            {
                name: value if isinstance(value, per_class) else copied(value)
                for name, value in vars(self).items()
            }
        )
        self.mine, twin.mine = set(), set()
        return twin
