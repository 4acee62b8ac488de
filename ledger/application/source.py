"""The application's event store seen as the read models' ``EventSource``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Mapper
from eventsourcing.utils import get_topic

from ledger.domain.events import EventCorrected, LedgerEvent

PAGE = 1000


class StoreSource:
    def __init__(self, recorder: ApplicationRecorder, mapper: Mapper[Any]) -> None:
        self.recorder = recorder
        self.mapper = mapper

    def head(self) -> int:
        return int(self.recorder.max_notification_id() or 0)

    def page(self, after: int, limit: int) -> list[tuple[int, LedgerEvent]]:
        notifications = self.recorder.select_notifications(
            start=after or None, limit=limit, inclusive_of_start=not after
        )
        return [(n.id, self.decode(n)) for n in notifications]

    def positions(self, after: int, limit: int) -> list[int]:
        notifications = self.recorder.select_notifications(
            start=after or None, limit=limit, inclusive_of_start=not after
        )
        return [n.id for n in notifications]

    def league_events(self, league_id: str) -> Iterator[LedgerEvent]:
        after = 0
        while True:
            stored = self.recorder.select_events(UUID(league_id), gt=after or None, limit=PAGE)
            for event in stored:
                yield self.decode(event)
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

    def decode(self, stored: Any) -> LedgerEvent:
        return cast(LedgerEvent, self.mapper.to_domain_event(stored))
