"""A unit of work: commands validated and rehearsed one after another, stored together.

Nothing is stored that the ledger cannot apply (DESIGN.md decision 9). Each command of a
unit is planned against the league's current state, its events are sealed into the
league's log and at once applied to a rehearsal of the read models: a write-back view
over them (``SqlStore``) that keeps its changes to itself, so the next command of the
unit sees them and the stored read models do not. An event that does not apply refuses
the unit. When the unit ends, the rehearsal is written and all of the unit's events are
appended in one transaction (the library's insert, through the read models' connection:
``commit_together``), so the very rehearsal is the read models' catch-up and a command
folds its events once; a value the database cannot hold, or a version another writer took
meanwhile, rolls back both. If anything fails before the commit, nothing is written.

Where one transaction cannot be had (when the read models stand behind the log, as after
another writer's refold), the rehearsal is written once and rolled back (so a value the
database cannot hold refuses the unit too), then the events are appended in one store
transaction, and the rehearsal is committed as the catch-up if no other writer's events
came between. That keeps the guarantee step by step: what is appended has been applied,
and the read models catch up from the log after a crash.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

import sqlalchemy as sa
from eventsourcing.domain import Snapshot
from eventsourcing.persistence import IntegrityError, RecordConflictError, Recording
from eventsourcing.utils import get_topic

from ledger.application.context import Context, Drafts, decided, drafting
from ledger.domain.events import EventCorrected, LedgerEvent
from ledger.domain.log import ChainedLog, LeagueLog, SiteLog, league_id
from ledger.domain.state import FaultLine, LeagueRow, SiteRow
from ledger.errors import (
    ConcurrentUpdate,
    CorrectionRefused,
    EventDoesNotApply,
    LeagueExists,
    VersionMismatch,
)
from ledger.persistence.lending import Lending
from ledger.projections.faults import FoldFailed, Folding, apply_checked, fold_league
from ledger.projections.fold import Fold, corrections_of
from ledger.projections.members import SITE, SiteFold
from ledger.projections.runner import lock_position, set_position
from ledger.projections.sql import SqlStore
from ledger.projections.store import Store
from ledger.rules import find_ruleset
from ledger.rules.protocol import Ruleset
from ledger.words import possessive

if TYPE_CHECKING:
    from ledger.application.service import LeagueLedger

T = TypeVar("T")
Plan = Callable[[Context], Drafts]
SitePlan = Callable[[Store], Drafts]
SITE_KEY = "\x00site"
"""The site's log among a unit's leagues (no league slug can take this name)."""


class Stale(ConcurrentUpdate):
    """Another writer changed a league this unit read: nothing was written; the unit can
    be tried again on fresh state."""


STALE = "another command was recorded at the same moment; nothing was recorded"
BUSY = "the league's books were busy with another command; nothing was recorded"


RETRY_SECONDS = 10.0
"""How long a command keeps trying after other writers got in first. A fixed five tries
gave up within 0.15 s, which two busy service workers on one league's log outlasted
(docs/performance-journal.md, the service, 2026-11-24); a writer that loses for ten
seconds is told, nothing stored."""


def retried(
    attempt: Callable[[], T],
    refused: str,
    *,
    lost: Callable[[], None] = lambda: None,
    seconds: float = RETRY_SECONDS,
) -> T:
    """``attempt()``, again on fresh state each time another writer got in first
    (``Stale``; ``lost`` counts it), pausing a little longer each time, jittered so that
    two losers do not collide again; ``ConcurrentUpdate(refused)`` when time is up."""
    deadline = time.monotonic() + seconds
    pause = 0.005
    while True:
        try:
            return attempt()
        except Stale:
            lost()
            if time.monotonic() + pause > deadline:
                raise ConcurrentUpdate(refused) from None
            time.sleep(pause * (0.5 + random.random()))
            pause = min(pause * 2, 0.2)


@dataclass
class Rehearsal:
    """One league within a unit: its log with the unit's events pending, and the state
    they were rehearsed on."""

    log: ChainedLog
    ruleset: Ruleset | None
    """None for the site's log, which no ruleset reads."""
    view: Store
    fold: Folding
    start: int = 0
    """The log's stored version when the unit began with it (0 for a new log)."""
    refolded: bool = False
    """A correction made the unit refold the league in memory: its rehearsal is no
    longer the stored read models plus a few rows, so the catch-up refolds it instead."""

    def row(self) -> LeagueRow:
        found = self.view.get(LeagueRow, str(self.log.id))
        assert found is not None  # a rehearsed league always has its row
        return found


class UnitOfWork:
    def __init__(self, ledger: LeagueLedger) -> None:
        self.ledger = ledger
        self.store = SqlStore(ledger.read_models.engine)
        self.leagues: dict[str, Rehearsal] = {}
        self.spoiled = False
        """A command failed after some of its events were sealed: the unit must not be
        stored, even if its caller caught the error and went on."""
        self.expected: dict[str, frozenset[int]] = {}
        """League versions the unit's caller read its state at (HTTP If-Match): a league
        at another version refuses the unit (412) instead of acting on what it did not see."""

    # --- commands ------------------------------------------------------------------------

    def command(self, league: str, plan: Plan, *, by: str, reason: str | None) -> list[LedgerEvent]:
        with self.store.reading():
            rehearsal = self.rehearsal(league)
            assert rehearsal.ruleset is not None  # a league's rehearsal always has its ruleset
            context = Context(
                view=rehearsal.view,
                league=rehearsal.row(),
                ruleset=rehearsal.ruleset,
                roller=self.ledger.roller,
                reason=reason,
                stored=self.ledger.source.league_events,
                account=self.ledger.account,
                dice_key=self.ledger.read_dice_key,
            )
            return self.record(rehearsal, decided(plan, context), by=by, reason=reason)

    def site_command(self, plan: SitePlan, *, by: str, reason: str | None) -> list[LedgerEvent]:
        with self.store.reading():
            rehearsal = self.site()
            drafts = decided(plan, rehearsal.view)
            return self.record(rehearsal, drafts, by=by, reason=reason)

    def record(
        self, rehearsal: Rehearsal, drafts: Drafts, *, by: str, reason: str | None
    ) -> list[LedgerEvent]:
        """Seal the drafts into the log, with the acting account's envelope, and rehearse."""
        who = self.who(by)
        self.spoiled = True  # until all of the command's events are sealed and rehearsed
        with drafting():  # the domain's bounds: a reason too long, say
            events = [rehearsal.log.seal(draft, reason=reason, **who) for draft in drafts]
        for event in events:
            self.rehearse(rehearsal, event)
        self.spoiled = False
        return events

    def open(
        self, slug: str, *, by: str, reason: str | None, fields: dict[str, Any]
    ) -> LedgerEvent:
        # Asked of the stored events, not of a rebuilt log: a league whose first event
        # cannot be read (or was deleted) still holds its name.
        if slug in self.leagues or self.ledger.recorder.select_events(league_id(slug), limit=1):
            raise LeagueExists(f"a league '{slug}' already exists in this ledger")
        ruleset = find_ruleset(fields["ruleset"], fields.get("options"))
        log = LeagueLog.open(reason=reason, slug=slug, **self.who(by), **fields)
        fold = Fold(self.store, ruleset, str(log.id))
        rehearsal = Rehearsal(log=log, ruleset=ruleset, view=self.store, fold=fold)
        self.leagues[slug] = rehearsal
        created = log.pending_events[0]
        assert isinstance(created, LedgerEvent)
        self.spoiled = True
        self.rehearse(rehearsal, created)
        self.spoiled = False
        return created

    def who(self, by: str) -> dict[str, str]:
        """The envelope of the unit's events: the acting account's, else the name given."""
        actor = self.ledger.actor
        return {"recorded_by": actor.name, **actor.envelope()} if actor else {"recorded_by": by}

    def rehearsal(self, league: str) -> Rehearsal:
        """The league's rehearsal, begun on first use from its read models: the log is
        taken to stand where they do (``log_at``). If it has moved on (a writer just
        committed), appending at the next version fails and the unit is Stale."""
        if league in self.leagues:
            return self.leagues[league]
        row = self.store.get(LeagueRow, str(league_id(league)))
        if row is None:
            self.ledger.load_log(league)  # says why: no such league, or it cannot be read
            raise self.ledger.unknown_league(league)
        expected = self.expected.get(league)
        if expected is not None and row.version not in expected:
            named = " or ".join(str(version) for version in sorted(expected))
            raise VersionMismatch(
                f"league {league} is at version {row.version}, not {named}:"
                " read it again before changing it; nothing was recorded"
            )
        if row.created_at and row.last_hash:
            log = log_at(row)
        else:  # a row that does not say where the log stands: load the log itself
            log = self.ledger.load_log(league)
            if log.version != row.version:
                raise Stale(f"league {league} changed while this command ran; nothing was recorded")
        ruleset = find_ruleset(row.ruleset, row.options)
        fold = Fold(self.store, ruleset, row.league_id)
        self.leagues[league] = Rehearsal(
            log=log, ruleset=ruleset, view=self.store, fold=fold, start=log.version
        )
        return self.leagues[league]

    def site(self) -> Rehearsal:
        """The site's log, opened by its first command if it has none yet."""
        if SITE_KEY in self.leagues:
            return self.leagues[SITE_KEY]
        row = self.store.get(SiteRow, SITE)
        log = self.ledger.load_site()
        if (row.version if row else 0) != (log.version if log else 0):
            raise Stale("the site's accounts changed while this command ran; nothing was recorded")
        fold = SiteFold(self.store)
        if log is None:
            log = SiteLog.open(**self.who("ledger"))
            opened = log.pending_events[0]
            assert isinstance(opened, LedgerEvent)
            apply_checked(fold, opened)
        self.leagues[SITE_KEY] = Rehearsal(
            log=log,
            ruleset=None,
            view=self.store,
            fold=fold,
            start=log.version - len(log.pending_events),
        )
        return self.leagues[SITE_KEY]

    def rehearse(self, rehearsal: Rehearsal, event: LedgerEvent) -> None:
        if isinstance(event, EventCorrected):
            self.refold(rehearsal)
            return
        try:
            apply_checked(rehearsal.fold, event)
        except FoldFailed as failed:
            if self.moved_on():  # planned on rows another writer has changed since
                raise Stale(
                    f"{rehearsal.log.slug or 'the site'} changed while this command ran;"
                    " nothing was recorded"
                ) from None
            raise EventDoesNotApply(
                f"{type(event).__name__} would not apply to"
                f" {possessive(rehearsal.log.slug or 'the site')}"
                f" books ({failed.problem}); nothing was recorded"
            ) from None

    def refold(self, rehearsal: Rehearsal) -> None:
        """A correction changes how earlier events read: refold the league in memory with
        it in force. It may heal a fault (voiding the event at fault), never add one."""
        league = str(rehearsal.log.id)
        stored = list(self.ledger.source.league_events(league))
        pending = [e for e in rehearsal.log.pending_events if isinstance(e, LedgerEvent)]
        events = [*stored, *pending]
        folded = fold_league(events, league, corrections_of(events), rehearsal.ruleset)
        known = {line.seq for line in self.store.select(FaultLine, league_id=league)}
        new = sorted(set(folded.faults) - known)
        if folded.fold is None or new:
            problem = folded.faults.get(new[0]) if new else "the league no longer folds"
            raise CorrectionRefused(
                f"with this correction, event {new[0] if new else 1} of league"
                f" {rehearsal.log.slug} would no longer apply ({problem}): correct that first"
            )
        rehearsal.view, rehearsal.fold, rehearsal.refolded = folded.store, folded.fold, True

    # --- the end of the unit ---------------------------------------------------------------

    def commit(self) -> list[LedgerEvent]:
        if self.spoiled:
            raise EventDoesNotApply(
                "a command of this unit failed half-way; nothing of the unit was recorded"
            )
        logs = [r.log for r in self.leagues.values() if r.log.pending_events]
        if not logs:
            return []
        events = [e for log in logs for e in log.pending_events if isinstance(e, LedgerEvent)]
        refolded = any(r.refolded for r in self.leagues.values())
        if not refolded and self.commit_together(logs):
            return events
        self.try_writing()
        try:
            recordings = self.ledger.save(*logs)
        except (IntegrityError, RecordConflictError):
            raise Stale(STALE) from None
        if refolded or not self.ledger.read_models.commit_rehearsal(
            self.ledger.source, self.store, notification_ids(recordings)
        ):
            self.ledger.catch_up()  # refolded, or others' events came between ours
        return events

    def commit_together(self, logs: list[ChainedLog]) -> bool:
        """Append the unit's events and write its rehearsed read models in one
        transaction, as the catch-up of those events: both are committed or neither (the
        first write refused, by the database or by another writer's version, rolls back
        the rest). The events go through the read models' connection, lent to the
        recorder (ledger/persistence/lending.py). False, with nothing written, when the
        read models stand behind the log (another writer's events not yet caught up),
        since the rehearsal is the catch-up of exactly the events after theirs."""
        ledger = self.ledger
        recorder, engine = ledger.recorder, ledger.read_models.engine
        if not isinstance(recorder, Lending) or engine.dialect.name != recorder.dialect:
            return False
        with engine.connect() as conn:
            transaction = conn.begin()
            try:
                with self.holding(), recorder.lent_cursor(conn) as cursor:
                    position = lock_position(conn)
                    try:
                        if recorder.locked_head(cursor) != position:
                            return False
                        self.store.flush(conn)
                        recordings, committed = ledger.save_within(*logs)
                    except recorder.version_taken:  # a version another writer appended
                        raise Stale(STALE) from None
                    except recorder.busy:  # the log's lock, held by another writer
                        raise Stale(BUSY) from None
                    set_position(conn, max(notification_ids(recordings)))
                transaction.commit()
            finally:
                if transaction.is_active:
                    transaction.rollback()
        committed()
        return True

    def try_writing(self) -> None:
        """Write the rehearsed read models and roll back: a value the database cannot
        hold refuses the unit before anything is appended. It takes the read models' lock
        first, as every writer of them does, so that it never deadlocks with a catch-up."""
        engine = self.ledger.read_models.engine
        with engine.connect() as conn:
            transaction = conn.begin()
            try:
                with self.holding():
                    lock_position(conn)
                    self.store.write(conn)
            finally:
                transaction.rollback()

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """The database's refusals of the rehearsed read models, as the unit's: a lock
        another writer holds, or rows it just made, make the unit stale; a value the
        database cannot hold refuses it."""
        try:
            yield
        except sa.exc.OperationalError:  # a lock or deadlock with another writer
            raise Stale(BUSY) from None
        except sa.exc.IntegrityError as error:  # rows another writer's events just made?
            if self.moved_on():
                raise Stale(STALE) from None
            raise self.cannot_hold(error) from None
        except (sa.exc.SQLAlchemyError, OverflowError, ValueError, TypeError) as error:
            raise self.cannot_hold(error) from None

    def moved_on(self) -> bool:
        """Whether another writer appended to a log this unit rehearsed on."""
        recorder = self.ledger.recorder
        for rehearsal in self.leagues.values():
            last = recorder.select_events(rehearsal.log.id, desc=True, limit=1)
            if (last[0].originator_version if last else 0) != rehearsal.start:
                return True
        return False

    @staticmethod
    def cannot_hold(error: Exception) -> EventDoesNotApply:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        return EventDoesNotApply(
            f"the league's books could not hold this command's result ({first});"
            " nothing was recorded"
        )


def notification_ids(recordings: list[Recording[UUID]]) -> list[int]:
    """Where the store put the events it recorded (their positions in its log)."""
    return [r.notification.id for r in recordings if r.notification is not None]


def log_at(row: LeagueRow) -> LeagueLog:
    """The league's log as appending needs it (its version, last hash and slug), from
    the read models' row of the league, which records them after every event: loading it
    from the store instead decoded its latest snapshot and up to 99 events, a seventh of
    a command's time. Made through the library's own way to restore an aggregate (a
    snapshot's ``mutate``), so that the log's snapshots stay as it takes them."""
    created = datetime.fromisoformat(row.created_at)
    snapshot = Snapshot(
        originator_id=UUID(row.league_id),
        originator_version=row.version,
        timestamp=created,
        topic=get_topic(LeagueLog),
        state={
            "_created_on": created,
            "_modified_on": created,
            "last_hash": row.last_hash,
            "slug": row.slug,
        },
    )
    log = snapshot.mutate(None)
    assert isinstance(log, LeagueLog)
    return log
