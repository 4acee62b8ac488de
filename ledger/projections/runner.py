"""Keeps the read models current: catch up incrementally, or drop and rebuild.

Catch-up reads only the events after the stored position and applies them through
``SqlStore`` in pages, each page flushed with its position in one transaction, so a
crash never half-applies an event. A correction changes how earlier events read, so when
one arrives its league is refolded from its own log and rewritten (corrections are rare;
leagues are independent). A rebuild streams the whole log through the same fold, in
worker processes too when the ledger holds leagues enough (ledger/projections/
parallel.py): lines are written as they come, records that have settled (former
players, closed matches, past standings) leave memory for a file beside the database
(ledger/projections/settled.py), and the tables are written in one transaction.

A stored event that cannot be read or applied never stops either: its league is refolded
with the event passed over and recorded as a fault (ledger/projections/faults.py).

The event source is a protocol so that this package does not depend on the application.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ledger.domain.events import EventCorrected, LeagueCreated, LedgerEvent
from ledger.domain.state import ENTITY_RECORDS, LeagueRow, SiteRow
from ledger.projections import parallel
from ledger.projections.faults import (
    NO_CREATION,
    FoldFailed,
    Folding,
    apply_checked,
    fold_league,
    league_ruleset,
)
from ledger.projections.fold import Fold, corrections_of
from ledger.projections.history import StoredReader
from ledger.projections.logfold import LogFolder, few_collections
from ledger.projections.members import SITE, SiteFold
from ledger.projections.parallel import LineProcess, LinesLost, Share
from ledger.projections.settled import SettledFile, copy_into, detach_all
from ledger.projections.shapes import (
    MARKS,
    POSITION_NAME,
    fingerprint,
    position_statement,
    shape_of,
)
from ledger.projections.sql import (
    METADATA,
    POSITION,
    SqlStore,
    bulk_insert,
    delete_league,
    driver_execute,
    insert_rows,
)
from ledger.projections.store import MemoryStore
from ledger.projections.writing import (
    REBUILT,
    LineSink,
    LogFolded,
    begin_ddl,
    create_indexes,
    create_tables,
    drop_former_tables,
    plan_statistics,
    rebuild_settings,
    scratch_folder,
    without_statistics,
)
from ledger.rules import find_ruleset
from ledger.rules.protocol import Ruleset

PAGE = 1000
REBUILD_BACKLOG = 20_000
LINES_APART = 20_000
"""Events from which a rebuild on SQLite writes its lines from a process of its own
(ledger/projections/linefile.py) rather than a thread. Measured on this 2-core machine:
at 8,142 events the two took the same time (2.2-2.4 s: the process's start and the copy
of its file cost what the fold gained); at 84,596, 22.1-23.5 s against 26.9 s."""


class EventSource(Protocol):
    def head(self) -> int:
        """Position of the newest event in the store (0 when empty)."""
        ...

    def page(self, after: int, limit: int) -> list[tuple[int, LedgerEvent]]:
        """Up to ``limit`` events after ``after``, with their positions, in order."""
        ...

    def league_events(self, league_id: str, last: int | None = None) -> Iterator[LedgerEvent]:
        """A league's events in order, up to version ``last`` (all of them without)."""
        ...

    def stored_page(self, after: int, limit: int) -> list[tuple[int, LedgerEvent, bytes]]:
        """``page``, each event with its state as stored (``stored_reader`` reads it)."""
        ...

    def league_stored_events(
        self, league_id: str, last: int | None = None
    ) -> Iterator[tuple[LedgerEvent, bytes]]:
        """``league_events``, each with its state as stored, as ``stored_page`` gives it."""
        ...

    def stored_reader(self) -> StoredReader | None:
        """How another process reads an event back from its state as stored (a function
        that can be pickled), or None where it cannot (ledger/projections/history.py)."""
        ...

    def positions(self, after: int, limit: int) -> list[int]:
        """The positions of up to ``limit`` events after ``after`` (nothing decoded)."""
        ...

    def all_corrections(self) -> Iterator[EventCorrected]: ...

    def league_extents(self, upto: int) -> dict[str, tuple[int, int]] | None:
        """Per league (and the site's log) up to position ``upto``: how many events and
        the version of the last; None when the store cannot tell cheaply."""
        ...

    def reopen(self) -> Callable[[], EventSource] | None:
        """A function (that pickles) opening this source in another process, or None
        when the store cannot be opened from one (an in-memory database)."""
        ...


Progress = Callable[[int], None]


@dataclass
class RebuildStats:
    events: int
    position: int
    workers: tuple[parallel.Folded, ...] = ()
    """What each worker process reported, when the log was folded in several."""


class ReadModels:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.rulesets: dict[str, Ruleset] = {}
        self.processes: int | None = None
        """How many processes a rebuild may fold in (None: one per core; 1: this one)."""
        self.rebuilt: RebuildStats | None = None
        """The last rebuild this object made (opening a ledger whose read models another
        version of the code wrote makes one)."""

    def create(self) -> bool:
        """Create the tables; returns False when stored read models were written by a
        different version of the code (then ``rebuild`` before use)."""
        stored = self.stored_fingerprint()
        if stored is not None and stored != fingerprint():
            return False
        METADATA.create_all(self.engine)
        with contextlib.suppress(sa.exc.IntegrityError), self.engine.begin() as conn:
            if (
                conn.execute(
                    sa.select(POSITION.c.name).where(POSITION.c.name == POSITION_NAME)
                ).first()
                is None
            ):
                conn.execute(
                    POSITION.insert().values(
                        name=POSITION_NAME, notification_id=0, fingerprint=fingerprint()
                    )
                )
        self.gather_missing_statistics()
        return True

    def gather_missing_statistics(self) -> None:
        """The query planner's statistics where the tables have lines and none yet (every
        rebuild gathers them anew: ``plan_statistics``). Left for the next open when
        another process holds the write lock: reads are right without them, only slower."""
        if self.engine.dialect.name != "sqlite":
            return  # PostgreSQL needs none to read by the indexes (``plan_statistics``)
        with contextlib.suppress(sa.exc.OperationalError), self.engine.begin() as conn:
            if without_statistics(conn):
                plan_statistics(conn)

    def stored_fingerprint(self) -> str | None:
        """None when there are no read models yet; "" for tables from before fingerprints."""
        if POSITION.name not in sa.inspect(self.engine).get_table_names():
            return None
        try:
            with self.engine.connect() as conn:
                found = conn.execute(
                    sa.select(POSITION.c.fingerprint).where(POSITION.c.name == POSITION_NAME)
                ).scalar()
        except sa.exc.DBAPIError:
            return ""
        return str(found) if found is not None else None

    def position(self) -> int:
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(POSITION.c.notification_id).where(POSITION.c.name == POSITION_NAME)
            ).scalar()
        return int(found or 0)

    def ruleset_for(self, store: SqlStore | MemoryStore, event: LedgerEvent) -> Ruleset:
        """The ruleset of ``event``'s league; FoldFailed when the league cannot fold."""
        league_id = str(event.originator_id)
        if league_id not in self.rulesets:
            league = store.get(LeagueRow, league_id)
            if league is not None:
                self.rulesets[league_id] = find_ruleset(league.ruleset, league.options)
            elif isinstance(event, LeagueCreated):
                self.rulesets[league_id] = league_ruleset(event)
            else:
                raise FoldFailed(league_id, event.seq, NO_CREATION)
        return self.rulesets[league_id]

    def refresh(self, source: EventSource, progress: Progress | None = None) -> int:
        """Bring the read models to the head of the log: incrementally for a short
        backlog, by a rebuild for a long one (after an import, say), which is far faster
        in bulk."""
        behind = source.head() - self.position()
        if behind > REBUILD_BACKLOG:
            return self.rebuild(source, progress).events
        return self.catch_up(source)

    # --- incremental --------------------------------------------------------------------

    def catch_up(self, source: EventSource) -> int:
        """Apply every event after the stored position; returns how many were applied.

        Each page is folded inside one transaction that first locks the position row, so
        two processes catching up at once take turns instead of both applying an event.
        Most calls find nothing to do (every command asks before it starts and after it is
        stored): they read the head and the position and take no lock.
        """
        with self.engine.connect() as conn:
            if source.head() <= read_position(conn):
                return 0  # nothing to apply: no need to take the write lock to know it
        applied, failing = 0, set[str]()
        while True:
            try:
                with self.engine.begin() as conn:
                    position = lock_position(conn)
                    page = source.page(position, PAGE)
                    if not page:
                        return applied
                    store = SqlStore(self.engine, conn)
                    folds: dict[str, Folding] = {}
                    for _, event in page:
                        if str(event.originator_id) in failing:
                            self.refold_first(conn, store, folds, source, event)
                        applied += self.apply_one(conn, store, folds, source, event)
                    store.flush(conn)
                    set_position(conn, page[-1][0])
                    failing.clear()
            except FoldFailed as failed:  # rolled back: refold that league, passing over it
                if failed.league_id in failing:
                    raise
                failing.add(failed.league_id)
                self.rulesets.pop(failed.league_id, None)

    def commit_rehearsal(self, source: EventSource, store: SqlStore, positions: list[int]) -> bool:
        """Write a command's rehearsed read models (ledger/application/unit.py) as the
        catch-up of its events, if they are exactly the next ones after the position:
        then the rehearsal folded them on the state they follow, and folding them again
        would give the same rows. Otherwise (another writer's events came between), the
        ordinary catch-up folds them."""
        if not positions:
            return False
        with self.engine.begin() as conn:
            position = lock_position(conn)
            if source.positions(position, len(positions) + 1) != positions:
                return False
            store.flush(conn)
            set_position(conn, positions[-1])
        return True

    def refold_first(
        self,
        conn: Connection,
        store: SqlStore,
        folds: dict[str, Folding],
        source: EventSource,
        event: LedgerEvent,
    ) -> None:
        """Before ``event``, refold its league from its log with every fault passed over
        (once per page: the refold reaches the head, so its later events are skipped)."""
        league_id = str(event.originator_id)
        if league_id in folds and folds[league_id] is REFOLDED:
            return
        store.flush(conn)
        self.refold_league(conn, source, league_id)
        store.forget()
        folds[league_id] = REFOLDED

    def apply_one(
        self,
        conn: Connection,
        store: SqlStore,
        folds: dict[str, Folding],
        source: EventSource,
        event: LedgerEvent,
    ) -> int:
        league_id = str(event.originator_id)
        if league_id == SITE:
            return self.apply_site(store, folds, event)
        league = store.get(LeagueRow, league_id)
        if league is not None and event.seq <= league.version:
            return 0  # already in, by a league refold earlier in this catch-up
        if folds.get(league_id) is REFOLDED:
            return 0  # the league's creation could not fold: its refold reported everything
        if isinstance(event, EventCorrected):
            store.flush(conn)
            self.refold_league(conn, source, league_id)
            store.forget()
            folds.pop(league_id, None)
            return 1
        if league_id not in folds:
            folds[league_id] = Fold(store, self.ruleset_for(store, event), league_id)
        apply_checked(folds[league_id], event)
        return 1

    def apply_site(self, store: SqlStore, folds: dict[str, Folding], event: LedgerEvent) -> int:
        site = store.get(SiteRow, SITE)
        if site is not None and event.seq <= site.version:
            return 0  # already in, by a refold earlier in this catch-up
        apply_checked(folds.setdefault(SITE, SiteFold(store)), event)
        return 1

    def refold_league(self, conn: Connection, source: EventSource, league_id: str) -> None:
        events = list(source.league_events(league_id))
        memory = fold_league(events, league_id, corrections_of(events)).store
        delete_league(conn, league_id)
        write_memory(conn, memory)

    # --- from scratch ------------------------------------------------------------------------

    def rebuild(self, source: EventSource, progress: Progress | None = None) -> RebuildStats:
        """Refold every league from the log. An event that fails is passed over: the
        rebuild starts again knowing it (faults are rare; each costs one more pass)."""
        corrections: dict[str, dict[int, EventCorrected]] = {}
        for correction in source.all_corrections():
            corrections.setdefault(str(correction.originator_id), {})[correction.target] = (
                correction
            )
        faults: dict[str, dict[int, str]] = {}
        while True:
            try:
                with few_collections():
                    self.rebuilt = self.rebuild_once(source, corrections, faults, progress)
                    return self.rebuilt
            except FoldFailed as failed:
                known = faults.setdefault(failed.league_id, {})
                if failed.seq in known:
                    raise
                known[failed.seq] = failed.problem

    def rebuild_once(
        self,
        source: EventSource,
        corrections: dict[str, dict[int, EventCorrected]],
        faults: dict[str, dict[int, str]],
        progress: Progress | None,
    ) -> RebuildStats:
        """Fold the log into files beside memory (ledger/projections/settled.py), then
        write the tables in one transaction: from worker processes when the ledger holds
        leagues enough to share (ledger/projections/parallel.py), else in this one."""
        self.rulesets.clear()
        with (
            scratch_folder(self.engine) as folder,
            self.engine.connect() as conn,
        ):
            shares = self.shares(conn, source, corrections, faults, Path(folder))
            folded = self.fold_shares(shares, progress) if shares else None
            try:
                with conn.begin(), rebuild_settings(conn):
                    begin_ddl(conn)
                    METADATA.drop_all(conn, tables=REBUILT)
                    drop_former_tables(conn)
                    create_tables(conn)
                    if folded is None:
                        folded = self.fold_here(conn, source, corrections, faults, progress, folder)
                    copy_into(conn, folded.files)
                    create_indexes(conn)
                    plan_statistics(conn)
                    set_position(conn, folded.position)
            finally:
                detach_all(conn)
        return RebuildStats(folded.events, folded.position, tuple(folded.workers))

    def shares(
        self,
        conn: Connection,
        source: EventSource,
        corrections: dict[str, dict[int, EventCorrected]],
        faults: dict[str, dict[int, str]],
        folder: Path,
    ) -> list[Share] | None:
        """How the log splits between worker processes, or None to fold it here (one
        core, a store other processes cannot open, PostgreSQL, leagues too small)."""
        processes = self.processes or parallel.workers()
        opener = source.reopen()
        if opener is None or conn.dialect.name != "sqlite" or processes < 2:
            return None
        head = source.head()
        extents = source.league_extents(head)
        split = parallel.split(extents, processes) if extents else None
        if extents is None or split is None:
            return None
        here = parallel.events_in(extents, split[0])
        lines = folder / "share-0-lines.db" if self.lines_apart(conn, here) else None
        return [
            Share(
                path=folder / f"share-{number}.db",
                leagues=tuple((league, extents[league][1]) for league in leagues),
                opener=opener,
                corrections={league: corrections.get(league, {}) for league in leagues},
                faults={league: faults.get(league, {}) for league in leagues},
                position=head,
                lines=lines if number == 0 else None,  # the workers have cores of their own
                yields=parallel.yields(parallel.events_in(extents, leagues), here),
            )
            for number, leagues in enumerate(split)
        ]

    def fold_shares(self, shares: list[Share], progress: Progress | None) -> LogFolded | None:
        """The shares folded in processes, or None if a worker was lost (fold here)."""
        workers = parallel.fold_shares(shares)
        if workers is None:
            return None
        for done in workers:
            if done.failed is not None:
                raise FoldFailed(*done.failed)
        count = sum(done.events for done in workers)
        if progress:
            progress(count)
        files = [path for done in workers for path in done.files]
        files += [done.lines for done in workers if done.lines is not None]
        return LogFolded(count, shares[0].position, files, workers)

    def fold_here(
        self,
        conn: Connection,
        source: EventSource,
        corrections: dict[str, dict[int, EventCorrected]],
        faults: dict[str, dict[int, str]],
        progress: Progress | None,
        folder: str,
    ) -> LogFolded:
        """Fold the whole log in this process: lines go to a process of their own (a long
        log on SQLite) or to the tables from a thread, as they come; settled records go to
        a file; the rest stays in memory to the end."""
        settled = Path(folder) / "settled.db"
        if self.lines_apart(conn, source.head()):
            path = Path(folder) / "lines.db"
            try:
                reader = source.stored_reader()
                with LineProcess(path, indexed=True, reader=reader) as process:  # indexed there
                    kept = SettledFile(settled, away=process)
                    memory = MemoryStore(
                        sink=process.add,
                        settled=kept,
                        notes=process.notes,
                        # The other core is this line process's alone: it counts the play
                        # too (ledger/projections/plays.py; a share's does not)
                        plays_apart=process.notes is not None,
                    )
                    folded = self.fold_into(memory, source, corrections, faults, progress)
                return dataclasses.replace(folded, files=[*folded.files, path])
            except LinesLost:
                pass  # fold again, the lines written from a thread
        settled.unlink(missing_ok=True)  # a fold again after a lost line process
        with LineSink(conn) as sink, SettledFile(settled) as kept:
            memory = MemoryStore(sink=sink.add, settled=kept)
            return self.fold_into(memory, source, corrections, faults, progress)

    def lines_apart(self, conn: Connection, events: int) -> bool:
        """Whether the lines of a fold of ``events`` are worth a process of their own
        (``LINES_APART``)."""
        if conn.dialect.name != "sqlite" or self.processes == 1 or parallel.workers() < 2:
            return False
        return events >= LINES_APART

    def fold_into(
        self,
        memory: MemoryStore,
        source: EventSource,
        corrections: dict[str, dict[int, EventCorrected]],
        faults: dict[str, dict[int, str]],
        progress: Progress | None,
    ) -> LogFolded:
        """Fold the log into ``memory`` (a store with a settled file), which the settled
        file then takes whole."""
        settled = memory.settled
        assert settled is not None
        count, position = self.fold_log(source, memory, corrections, faults, progress)
        settled.absorb(memory.all)
        return LogFolded(count, position, settled.files)

    def fold_log(
        self,
        source: EventSource,
        memory: MemoryStore,
        corrections: dict[str, dict[int, EventCorrected]],
        faults: dict[str, dict[int, str]],
        progress: Progress | None,
    ) -> tuple[int, int]:
        """Fold every event of the log into ``memory``; returns how many and the last
        position."""
        folder = LogFolder(memory, corrections, faults)
        position = count = 0
        while page := source.stored_page(position, PAGE):
            for position, event, stored in page:  # noqa: B007 - the last position is kept
                folder.apply(event, stored)
            count += len(page)
            if progress:
                progress(len(page))
        return count, position


REFOLDED = cast(Folding, object())
"""Marks, in a catch-up's folds, a league that was just refolded from its log."""


def write_memory(conn: Connection, memory: MemoryStore) -> None:
    for kind in ENTITY_RECORDS:
        bulk_insert(conn, kind, memory.all(kind))
    for kind, lines in memory.lines.items():
        insert_rows(conn, kind, shape_of(kind).rows(lines))


def lock_position(conn: Connection) -> int:
    """Take the read models' write lock (a no-op update of the position row: a row lock on
    PostgreSQL, the database write lock on SQLite) and read the position under it."""
    mark = MARKS[conn.dialect.name]
    driver_execute(
        conn,
        f"UPDATE {POSITION.name} SET notification_id = notification_id WHERE name = {mark}",
        (POSITION_NAME,),
    )
    return read_position(conn)


def read_position(conn: Connection) -> int:
    """The stored position, in SQL written once: every command reads it twice, and
    SQLAlchemy's building of the statement cost more than the database's answer."""
    found = driver_execute(conn, position_statement(conn.dialect.name), (POSITION_NAME,))
    return int(found[0][0]) if found else 0


def set_position(conn: Connection, position: int) -> None:
    """Record the position and the fingerprint of the code that folded up to it (without
    the fingerprint, the next open would take the tables for another version's and
    rebuild them again)."""
    mark = MARKS[conn.dialect.name]
    updated = conn.exec_driver_sql(
        f"UPDATE {POSITION.name} SET notification_id = {mark}, fingerprint = {mark}"
        f" WHERE name = {mark}",
        (position, fingerprint(), POSITION_NAME),
    )
    if updated.rowcount == 0:
        conn.execute(
            POSITION.insert().values(
                name=POSITION_NAME, notification_id=position, fingerprint=fingerprint()
            )
        )
