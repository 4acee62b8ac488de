"""Where a rebuild keeps what it has folded outside its memory: a SQLite file of the read
models' own tables.

A rebuild used to hold every record it ever made until it wrote them at the end: every
former player of every season, every match ever played (1.8 GiB at 10^6 events). A
record that no later event is likely to change is *settled*: a player who died, was fired
or left; a match closed by every team, once the next season has started; the standings
of a closed season. ``MemoryStore`` hands a settled record to a ``SettledFile`` and
forgets it, and reads it back from there if an event does name it again (a re-signed
star's past seasons, a hireling's match, an older season's games). Nothing is lost if
one does change again: it comes back to memory, and memory's copy wins.

The same file is what a parallel rebuild's worker hands back (ledger/projections/
parallel.py): its leagues' lines, settled records and, at the end, the rest of its
memory, which the rebuild copies into its tables in one ``INSERT ... SELECT`` per table.
It lives only for one rebuild, so it is written without a journal or fsync.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import sqlalchemy as sa
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import Connection

from ledger.domain.per_class import per_class
from ledger.domain.state import (
    ENTITY_RECORDS,
    LINE_RECORDS,
    Line,
    MatchRow,
    PlayerRow,
    R,
    Record,
    SeasonRow,
    StandingRow,
)
from ledger.projections.linefile import NOTES, SCRATCH_PRAGMAS, Batch
from ledger.projections.shapes import (
    LineRow,
    insert_statement,
    key_orders,
    quoted,
    select_statement,
    shape_of,
)
from ledger.projections.sql import bulk_insert, table_of
from ledger.projections.store import RowSink, bucketed, matches, structural

if TYPE_CHECKING:
    from ledger.projections.history import HistoryNote

GONE = frozenset({"dead", "fired", "left"})
"""A player's statuses off the roster for good (``retired`` is temporary: still on it)."""


def match_closed(match: MatchRow) -> bool:
    """Played, and every team in it has closed its post-game sequence (an exhibition,
    which opens no sequence, stays in memory: friendlies are few)."""
    return match.status == "played" and all(
        team in match.closed for team in (match.home, match.away, *match.others)
    )


SETTLED_KINDS: tuple[type[Record], ...] = (PlayerRow, MatchRow, StandingRow)
"""What settles: a player who is gone; a closed match once the next season has started
(a season's close reads its games, and so do the re-drafts that follow it, before the
next season starts); a closed season's standings."""

WATCHED = frozenset({*SETTLED_KINDS, SeasonRow})
"""The record classes whose writing may settle something (a season's row settles its
standings when it closes, and the last season's closed matches when it starts)."""

SETTLING_IN_PLACE: dict[type[Record], frozenset[str]] = {
    MatchRow: frozenset({"status", "closed", "others"}),
    SeasonRow: frozenset({"status"}),
}
"""The fields whose change in place (``MemoryStore.change``) can settle a record or let
others settle, by class: a match's status, teams and closes (``match_closed``), a
season's status (its close). What else ``takes`` and ``settles`` read places the record in
memory (a player's status, a standing's or match's season: ``structural``), so it is
changed on a copy that ``put`` shows the file; a player's counters, SPP and value change
in place by the million and never settle him."""


@per_class
def looked_at(kind: type[Record]) -> frozenset[str]:
    """The fields whose change a store with a settled file looks at before changing a
    record in place: those that place it in memory and those that may settle it (any
    other change is made in place at once, ``MemoryStore.change``)."""
    return structural[kind] | SETTLING_IN_PLACE.get(kind, frozenset())


BATCH = 500
"""Settled records kept in memory before they are written (reads look there first)."""
LINE_BATCH = 2000
"""Lines written at once: by a worker into its file, by the line process (``LineRows``
batches, ledger/projections/parallel.py) and by a serial rebuild's writer thread
(ledger/projections/writing.py) into the tables."""


class LineRows:
    """Lines kept as their tables' rows until written, per class in the order they came
    (a batch of the line process, a worker's file, a serial rebuild's writer thread). A
    line comes as its row (``MemoryStore.emit``, ``emit_row``), so a batch waiting for its
    writer holds only tuples of values.

    ``add`` is the fold's sink itself (``RowSink``): it calls ``full`` (which takes the
    batch) when a batch is full, so a line costs the fold one call, not one through its
    writer to this; a rebuild emits about nine per event."""

    def __init__(self, full: Callable[[], object]) -> None:
        self.rows: dict[type[Line], list[LineRow]] = {}
        self.notes: list[HistoryNote] = []
        """Notes of events' history (``note``), for the line process alone."""
        self.count = 0
        self.full = full

    def add(self, kind: type[Line], row: LineRow) -> None:
        """Keep a line's row, and hand the batch over if it is now full (``LINE_BATCH``)."""
        rows = self.rows.get(kind)
        if rows is None:
            rows = self.rows[kind] = []
        rows.append(row)
        self.count += 1
        if self.count >= LINE_BATCH:
            self.full()

    def note(self, note: HistoryNote) -> None:
        """Keep a note of an event's history, as ``add`` keeps a line's row (the line
        process makes the rows: ledger/projections/history.py)."""
        self.notes.append(note)
        self.count += 1
        if self.count >= LINE_BATCH:
            self.full()

    def take(self) -> dict[type[Line], list[LineRow]]:
        """The rows kept, per class, and none kept from now."""
        taken = self.rows
        self.rows, self.count = {}, 0
        return taken

    def take_for_sqlite(self) -> list[tuple[str, list[LineRow]]]:
        """``take``, each class's rows with its SQLite ``INSERT``, and the notes kept."""
        notes, self.notes = self.notes, []
        batch = [(insert_statement(kind, "sqlite"), rows) for kind, rows in self.take().items()]
        return [*batch, (NOTES, notes)] if notes else batch


class Keeper(Protocol):
    """A process that keeps the settled records in a file of its own (the line process,
    ledger/projections/parallel.py): it writes them in numbered batches and answers
    questions of those it has written."""

    written: int
    """The number of the last batch known to be in the file."""

    def settle(self, batch: Batch) -> int: ...

    def ask(self, statement: str, values: tuple[Any, ...]) -> list[tuple[Any, ...]]: ...


Pending = dict[type[Record], dict[tuple[Any, ...], Record]]
"""Settled records by class and key."""


class SettledFile:
    """One SQLite file with every read-model table, indexed for the questions the fold
    asks of settled records (their classes' ``indexes`` and ``grouped`` fields). Kept here,
    or ``away`` by another process (the line process, which writes them on the other
    core): then each batch is kept in memory until that process has written it, and the
    records are read from memory until then."""

    watched = WATCHED
    looked_at = looked_at

    def __init__(self, path: Path, away: Keeper | None = None) -> None:
        self.path = path
        self.away = away
        self.db = None if away else opened(path)
        self.pending: Pending = {kind: {} for kind in SETTLED_KINDS}
        self.sent: dict[int, Pending] = {}
        """The batches sent ``away`` and not yet known to be written, by number."""
        self.keys = KeySieve()
        """The keys of the records in the file, in a sieve that answers "not there" for
        certain: most keys asked for are not (a player named by his hiring, a journeyman
        by a history line), and the database is not asked about them."""
        self.seasons: dict[str, int] = {}
        """Each league's latest season."""
        self.closed: set[tuple[str, int]] = set()
        """The closed seasons (league, season): their standings are settled."""
        self.match_seasons: set[tuple[str, int | None]] = set()
        """The seasons (league, season) some of whose matches settled."""
        self.waiting = 0
        self.lines = LineRows(full=self.write_lines)
        """A worker's lines, written in batches (a serial rebuild writes its own)."""
        self.emit: RowSink = self.lines.add
        """Where a worker's fold sends its lines (``MemoryStore``'s sink)."""

    @property
    def files(self) -> list[Path]:
        """The files this holds the records in: none when they are kept ``away``."""
        return [] if self.away else [self.path]

    # --- the fold's side ---------------------------------------------------------------

    def takes(self, record: Record) -> bool:
        """Whether ``record`` has settled (and goes to the file)."""
        if isinstance(record, PlayerRow):
            return record.status in GONE
        if isinstance(record, StandingRow):
            return (record.league_id, record.season) in self.closed
        if not isinstance(record, MatchRow) or not match_closed(record):
            return False
        if record.season is not None and record.season >= self.seasons.get(record.league_id, 0):
            return False
        self.match_seasons.add((record.league_id, record.season))
        return True

    def settles(self, record: Record) -> tuple[type[Record], str, int] | None:
        """The records that ``record`` lets settle, as (class, league, season): a closed
        season's standings; when a season starts, the closed matches of the last one."""
        if not isinstance(record, SeasonRow):
            return None
        league_id, season = record.league_id, record.season
        if record.status == "closed":
            self.closed.add((league_id, season))
            return StandingRow, league_id, season
        if season > self.seasons.get(league_id, 0):
            self.seasons[league_id] = season
            return MatchRow, league_id, season - 1
        return None

    def could_hold(self, kind: type[Record], where: dict[str, Any]) -> bool:
        """Whether records of ``kind`` matching ``where`` may be in the file."""
        if kind is PlayerRow:
            return where.get("status", "dead") in GONE
        if kind is MatchRow:
            return where.get("status", "played") == "played" and within(self.match_seasons, where)
        if kind is StandingRow:
            return within(self.closed, where)
        return False

    def put(self, record: Record) -> None:
        kind, key = type(record), record.key_values()
        self.pending[kind][key] = record
        self.keys.add(key)
        self.waiting += 1
        if self.waiting >= BATCH:
            self.flush()

    def get(self, kind: type[R], key: tuple[Any, ...]) -> R | None:
        waiting = self.pending[kind].get(key)
        if waiting is not None:
            return waiting  # type: ignore[return-value]
        if key not in self.keys:
            return None
        unwritten = self.unwritten(kind, key)
        if unwritten is not None:
            return unwritten  # type: ignore[return-value]
        found = self.fetch(kind, kind.key, key)
        return found[0] if found else None

    def unwritten(self, kind: type[Record], key: tuple[Any, ...]) -> Record | None:
        """The newest copy of a record sent ``away`` and not yet known to be written."""
        for number in sorted(self.still_sent(), reverse=True):
            found = self.sent[number][kind].get(key)
            if found is not None:
                return found
        return None

    def still_sent(self) -> list[int]:
        """The batches sent ``away`` and not yet known to be written; those written are
        forgotten (asked of the process, they are in its answers)."""
        if self.away is not None:
            for number in [n for n in self.sent if n <= self.away.written]:
                del self.sent[number]
        return list(self.sent)

    def select(self, kind: type[R], where: dict[str, Any]) -> list[R]:
        if self.away is None:
            self.flush()
            return self.fetch(kind, tuple(where), tuple(where.values()))
        newer: dict[tuple[Any, ...], Record] = {}
        for number in sorted(self.still_sent()):  # a later copy of a record wins
            newer.update(self.sent[number][kind])
        newer.update(self.pending[kind])
        written = self.fetch(kind, tuple(where), tuple(where.values()))
        found = [r for r in written if r.key_values() not in newer]
        return found + [r for r in newer.values() if matches(r, where)]  # type: ignore[misc]

    def fetch(self, kind: type[R], fields: tuple[str, ...], values: tuple[Any, ...]) -> list[R]:
        shape = shape_of(kind)
        statement = matching(kind, fields)
        if self.away is not None:
            rows = self.away.ask(statement, values)
        else:
            assert self.db is not None
            rows = self.db.execute(statement, values).fetchall()
        return [shape.record(row, decode=True) for row in rows]  # type: ignore[misc]

    def flush(self) -> None:
        if not self.waiting:
            return
        if self.away is not None:
            kinds = self.pending.items()
            number = self.away.settle(batch_of((kind, kept.values()) for kind, kept in kinds))
            self.sent[number] = self.pending
            self.pending = {kind: {} for kind in SETTLED_KINDS}
        else:
            for kind, records in self.pending.items():
                self.write(kind, records.values())
                records.clear()
        self.waiting = 0

    def write(self, kind: type[Record], records: Iterable[Record]) -> None:
        """Write records here, each in place of an earlier copy (a record settled again
        after it came back to memory)."""
        assert self.db is not None
        self.db.executemany(replacing(kind), shape_of(kind).rows(records))

    # --- a worker's lines and the end of a fold ---------------------------------------

    def write_lines(self) -> None:
        assert self.db is not None
        for statement, rows in self.lines.take_for_sqlite():
            self.db.executemany(statement, rows)

    def absorb(self, records: Callable[[type[Record]], Sequence[Record]]) -> None:
        """Write the records still in memory at the end (``records(kind)`` lists them);
        memory's copy of a record that also settled earlier is the newer one."""
        if self.away is not None:
            self.flush()
            for kind in ENTITY_RECORDS:
                kept = records(kind)
                for start in range(0, len(kept), BATCH):
                    self.away.settle(batch_of([(kind, kept[start : start + BATCH])]))
            return
        self.write_lines()
        self.flush()
        for kind in ENTITY_RECORDS:
            self.write(kind, records(kind))

    def close(self) -> None:
        if self.db is not None:
            self.db.execute("COMMIT")
            self.db.close()

    def __enter__(self) -> SettledFile:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def batch_of(records: Iterable[tuple[type[Record], Collection[Record]]]) -> Batch:
    """Records as their rows, per table with the statement that writes each in place of
    an earlier copy."""
    return [(replacing(kind), shape_of(kind).rows(kept)) for kind, kept in records if kept]


@cache
def replacing(kind: type[Record]) -> str:
    """The INSERT of a settled record, which replaces an earlier copy of it."""
    return insert_statement(kind, "sqlite").replace("INSERT INTO", "INSERT OR REPLACE INTO", 1)


def opened(path: Path) -> sqlite3.Connection:
    """A new settled file at ``path``, its tables made, inside its one transaction."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for pragma in SCRATCH_PRAGMAS:
        db.execute(f"PRAGMA {pragma}")
    db.execute("BEGIN")
    create_schema(db)
    return db


class KeySieve:
    """A Bloom filter of record keys: a key never added is reported absent (almost
    always: one in about 7,000 false alarms at 300,000 keys, which cost one query); a key
    added is always reported present. Two MiB, however many keys."""

    BITS = 1 << 24

    def __init__(self) -> None:
        self.bits = bytearray(self.BITS // 8)

    def places(self, key: tuple[Any, ...]) -> tuple[int, int, int]:
        mask = self.BITS - 1
        return hash(key) & mask, hash((key, 1)) & mask, hash((key, 2)) & mask

    def add(self, key: tuple[Any, ...]) -> None:
        for place in self.places(key):
            self.bits[place >> 3] |= 1 << (place & 7)

    def __contains__(self, key: tuple[Any, ...]) -> bool:
        return all(self.bits[place >> 3] & (1 << (place & 7)) for place in self.places(key))


def create_schema(db: sqlite3.Connection, indexed_lines: bool = False) -> None:
    """The read models' tables, indexed for the fold's questions of settled records; with
    ``indexed_lines``, the line tables also with the read models' own secondary indexes,
    which ``copy_into`` then copies with the rows (a serial rebuild's line file)."""
    dialect = sqlite.dialect()
    for kind in (*ENTITY_RECORDS, *LINE_RECORDS):
        table = table_of(kind)
        db.execute(str(sa.schema.CreateTable(table).compile(dialect=dialect)))
        for number, fields in enumerate(questions(kind)):
            columns = ", ".join(f'"{name}"' for name in ("league_id", *fields))
            db.execute(
                f'CREATE INDEX "ix_settled_{table.name}_{number}" ON "{table.name}" ({columns})'
            )
        if indexed_lines and kind in LINE_RECORDS:
            for index in table.indexes:
                db.execute(str(sa.schema.CreateIndex(index).compile(dialect=dialect)))


@cache
def matching(kind: type[Record], fields: tuple[str, ...]) -> str:
    """The rows whose ``fields`` hold given values, None included (``IS``, where SQL's
    ``=`` would match no NULL: memory answers a question for a match of no season)."""
    columns = ", ".join(quoted(name) for name in shape_of(kind).columns)
    where = " AND ".join(f"{quoted(name)} IS ?" for name in fields)
    return f"SELECT {columns} FROM {quoted(kind.table)}" + (f" WHERE {where}" if where else "")


def within(seasons: set[tuple[str, Any]], where: dict[str, Any]) -> bool:
    """Whether records of the seasons ``where`` asks for may be among ``seasons``."""
    if "season" not in where:
        return bool(seasons)
    if "league_id" not in where:
        return any(season == where["season"] for _, season in seasons)
    return (where["league_id"], where["season"]) in seasons


def questions(kind: type[Record]) -> tuple[tuple[str, ...], ...]:
    """The field combinations the fold selects settled records by that need an index of
    their own: not those the key already orders (a season's standings), nor those another
    question's index begins with (a team's players, which the index of a team's players by
    status serves). Every index is one more tree each settled record is written into: at
    10^6 events that is 350,000 records, written while the fold waits."""
    if kind not in SETTLED_KINDS:
        return ()
    own = [fields for fields in bucketed[kind] if not key_orders(kind, fields)]
    return tuple(fields for fields in own if not any(begins(other, fields) for other in own))


def begins(fields: tuple[str, ...], prefix: tuple[str, ...]) -> bool:
    """Whether an index of ``fields`` serves a question by ``prefix`` as well (a longer
    one, beginning with it)."""
    return len(fields) > len(prefix) and fields[: len(prefix)] == prefix


def copy_into(conn: Connection, files: Sequence[Path]) -> None:
    """Copy the files' tables into the rebuild's, inside its transaction. SQLite attaches
    the files and copies each table in SQL: first from the file holding most of its rows,
    into the still empty table, as ``INSERT ... SELECT *`` alone, which SQLite's transfer
    optimisation turns into a copy of the stored rows and of their primary key's index,
    in that index's order, without decoding or sorting a row; then from each other file
    in key order, which the file's primary key gives without a sort (its rows land as a
    run in the index: a file holds leagues of its own, and a key starts with the league).
    At 10^5 events that took the copy from 1.9 s (one statement per table over all files,
    sorted) to 0.8 s. Every read of lines orders them itself (``Queries``, the reports),
    so the order rows were stored in shows nowhere. A table that one file holds whole,
    with its secondary indexes, gets them before its transfer (``indexed_alike``).
    PostgreSQL is handed the records in batches, file by file (in key order within each
    file)."""
    if conn.dialect.name != "sqlite":
        for path in files:
            handed_over(conn, path)
        return
    names = [attach(conn, path, number) for number, path in enumerate(files)]
    for kind in (*ENTITY_RECORDS, *LINE_RECORDS):
        table = quoted(kind.table)
        order = ", ".join(quoted(field) for field in kind.key)
        holding = largest_first(conn, names, kind)
        if len(holding) == 1 and indexed_alike(conn, holding[0], kind):
            for index in table_of(kind).indexes:  # made first: the transfer copies them too
                index.create(conn)
        for place, name in enumerate(holding):
            ordered = f" ORDER BY {order}" if place else ""  # the first: the transfer
            conn.exec_driver_sql(f"INSERT INTO main.{table} SELECT * FROM {name}.{table}{ordered}")


def indexed_alike(conn: Connection, name: str, kind: type[Record]) -> bool:
    """Whether the attached file ``name`` holds the secondary indexes of ``kind``'s table
    (``create_schema``'s ``indexed_lines``). When it alone holds the table's rows, the
    rebuild makes them before the transfer, which then copies each index's entries in
    their order, as it copies the rows: the file's writer kept them in order as it wrote
    (the line process, on the other core), and nothing is sorted at the end. With rows in
    other files too, they are made after every row is in (``create_indexes``)."""
    wanted = {index.name for index in table_of(kind).indexes}
    found = conn.exec_driver_sql(
        f"SELECT name FROM {name}.sqlite_master WHERE type = 'index' AND tbl_name = ?",
        (kind.table,),
    )
    return bool(wanted) and wanted <= {row[0] for row in found}


def largest_first(conn: Connection, names: Sequence[str], kind: type[Record]) -> list[str]:
    """The attached files holding rows of ``kind``, the one with most first. Several are
    put in order by their largest row id: a file's rows are added, and seldom replaced (a
    record settled again), so it counts them near enough, at the cost of one step down the
    table; a table without row ids (``keyed_only``) is counted."""
    table = quoted(kind.table)
    holding = [
        name
        for name in names
        if conn.exec_driver_sql(f"SELECT EXISTS (SELECT 1 FROM {name}.{table})").scalar()
    ]
    if len(holding) < 2:
        return holding
    size = "count(*)" if kind.keyed_only else "max(rowid)"
    rows = {
        name: conn.exec_driver_sql(f"SELECT {size} FROM {name}.{table}").scalar()
        for name in holding
    }
    return sorted(holding, key=lambda name: -int(rows[name] or 0))


def attach(conn: Connection, path: Path, number: int) -> str:
    name = f"{ATTACHED}{number}"
    conn.exec_driver_sql(f"ATTACH DATABASE ? AS {name}", (str(path),))
    return name


ATTACHED = "folded"


def detach_all(conn: Connection) -> None:
    """Let go of the attached files once the transaction is over (SQLite refuses within
    one); the connection goes back to the pool as it came."""
    if conn.dialect.name != "sqlite":
        return
    found = conn.exec_driver_sql("PRAGMA database_list").fetchall()
    for _, name, _ in found:
        if str(name).startswith(ATTACHED):
            conn.exec_driver_sql(f"DETACH DATABASE {name}")
    conn.commit()


def handed_over(conn: Connection, path: Path) -> None:
    db = sqlite3.connect(path)
    try:
        for kind in (*ENTITY_RECORDS, *LINE_RECORDS):
            for batch in records_of(db, kind):
                bulk_insert(conn, kind, batch)
    finally:
        db.close()


def records_of(db: sqlite3.Connection, kind: type[Record]) -> Iterator[list[Record]]:
    """``kind``'s records in a file, in key order, in batches."""
    shape = shape_of(kind)
    order = ", ".join(quoted(name) for name in kind.key)
    cursor = db.execute(f"{select_statement(kind, (), 'sqlite')} ORDER BY {order}")
    while batch := cursor.fetchmany(5000):
        yield [shape.record(row, decode=True) for row in batch]
