"""The application's event store seen as the read models' ``EventSource``."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, cast
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import ApplicationRecorder, Mapper, Notification, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder
from eventsourcing.utils import get_topic

from ledger.domain.events import EventCorrected, LedgerEvent
from ledger.persistence.mapper import LedgerMapper, read_stored
from ledger.projections.history import StoredReader

PAGE = 1000


class StoreSource:
    def __init__(
        self,
        recorder: ApplicationRecorder,
        mapper: Mapper[Any],
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.recorder = recorder
        self.mapper = mapper
        self.env = dict(env) if env is not None else None
        """The application's settings, from which another process opens the same store."""
        self.reader: LedgerReader | None = None
        """The application this source was opened with, when it opened its own: kept
        alive with it (the library closes an application's store when it is collected)."""

    def head(self) -> int:
        return int(self.recorder.max_notification_id() or 0)

    def notifications(self, after: int, limit: int) -> Sequence[Notification]:
        """Up to ``limit`` stored events after position ``after``, in order."""
        return self.recorder.select_notifications(
            start=after or None, limit=limit, inclusive_of_start=not after
        )

    def page(self, after: int, limit: int) -> list[tuple[int, LedgerEvent]]:
        return [(n.id, self.decode(n)) for n in self.notifications(after, limit)]

    def stored_page(self, after: int, limit: int) -> list[tuple[int, LedgerEvent, bytes]]:
        """``page``, each event with its state as stored."""
        return [(n.id, self.decode(n), n.state) for n in self.notifications(after, limit)]

    def stored_reader(self) -> StoredReader | None:
        """How another process reads an event back from its state as stored (a rebuild's
        line process, for its history: ledger/projections/history.py): a function that
        can be pickled. None where the state is not the event's JSON as it is
        (compressed or encrypted: the key stays in this process)."""
        if not isinstance(self.mapper, LedgerMapper):
            return None
        if self.mapper.compressor is not None or self.mapper.cipher is not None:
            return None
        return read_stored

    def positions(self, after: int, limit: int) -> list[int]:
        return [n.id for n in self.notifications(after, limit)]

    def league_events(self, league_id: str, last: int | None = None) -> Iterator[LedgerEvent]:
        for event, _ in self.league_stored_events(league_id, last):
            yield event

    def league_stored_events(
        self, league_id: str, last: int | None = None
    ) -> Iterator[tuple[LedgerEvent, bytes]]:
        """``league_events``, each event with its state as stored (``stored_page``)."""
        for stored in self.league_stored(league_id, last):
            yield self.decode(stored), stored.state

    def league_corrections(
        self, league_id: str, last: int | None = None
    ) -> Iterator[EventCorrected]:
        """The league's corrections up to ``last``, in log order: of its stored events only
        the corrections are decoded."""
        topic = get_topic(EventCorrected)
        for stored in self.league_stored(league_id, last):
            if stored.topic == topic:
                yield cast(EventCorrected, self.decode(stored))

    def league_stored(self, league_id: str, last: int | None) -> Iterator[StoredEvent]:
        after = 0
        while True:
            stored = self.recorder.select_events(
                UUID(league_id), gt=after or None, lte=last, limit=PAGE
            )
            yield from stored
            if len(stored) < PAGE:
                return
            after = stored[-1].originator_version

    def all_corrections(self) -> Iterator[EventCorrected]:
        after = 0
        topic = get_topic(EventCorrected)
        while page := self.recorder.select_notifications(
            start=after or None, limit=PAGE, topics=[topic], inclusive_of_start=not after
        ):
            for notification in page:
                yield cast(EventCorrected, self.decode(notification))
            after = page[-1].id

    def league_extents(self, upto: int) -> dict[str, tuple[int, int]] | None:
        """For each league's log (and the site's) up to position ``upto``: how many events
        and the version of the last, in one query; None where no query can tell cheaply
        (the parallel rebuild then stays serial). On SQLite a notification's position is
        its row id."""
        if not isinstance(self.recorder, SQLiteApplicationRecorder):
            return None
        statement = (
            "SELECT originator_id, COUNT(*), MAX(originator_version)"
            f" FROM {self.recorder.events_table_name} WHERE rowid <= ? GROUP BY originator_id"
        )
        with self.recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, (upto,))
            rows = cursor.fetchall()
        return {str(UUID(str(row[0]))): (int(row[1]), int(row[2])) for row in rows}

    def reopen(self) -> Callable[[], StoreSource] | None:
        """How another process opens this same store (a parallel rebuild's worker): a
        function that can be pickled. None for a store that lives only in this process
        (an in-memory database, the library's plain-object store)."""
        env = self.env or {}
        database = env.get("LEDGER_SQLITE_DBNAME", "")
        if env.get("LEDGER_PERSISTENCE_MODULE") != "eventsourcing.sqlite":
            return None
        if not database or database.startswith("file:") or ":memory:" in database:
            return None
        return functools.partial(open_source, env)

    def decode(self, stored: Any) -> LedgerEvent:
        """An event of this store: read by its shape (``LedgerMapper.read_back``), since
        every event was validated in full before it was stored."""
        if isinstance(self.mapper, LedgerMapper):
            return cast(LedgerEvent, self.mapper.read_back(stored))
        return cast(LedgerEvent, self.mapper.to_domain_event(stored))


class LedgerReader(Application[UUID]):
    """The ledger's store opened only to read its events: the same name (so the same
    settings) and mapper as ``LeagueLedger``, without its commands or read models."""

    name = "Ledger"
    env: ClassVar[dict[str, str]] = {"MAPPER_TOPIC": get_topic(LedgerMapper)}


def open_source(env: Mapping[str, str]) -> StoreSource:
    """The event source of the store ``env`` names, opened in this process; it makes
    no table (the store exists: it is being rebuilt from)."""
    reader = LedgerReader(env={**env, "LEDGER_CREATE_TABLE": "n"})
    source = StoreSource(reader.recorder, reader.mapper, env)
    source.reader = reader
    return source
