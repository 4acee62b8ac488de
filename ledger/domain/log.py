"""A league's log: the one event stream that holds all of a league's facts, in order.

The stream is the unit of consistency (DESIGN.md decision 5): every command appends to it
at the next version, so two writers that both read version N cannot both append N+1 — the
store refuses the second, which then re-reads and re-validates. The aggregate holds
nothing but what appending needs: its version and the hash of its last event. The site
has a log of the same kind for what belongs to no one league: accounts and admins.
"""

from __future__ import annotations

from typing import Any, TypeVar
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import BaseAggregate
from eventsourcing.utils import get_topic

from ledger.domain.events import GENESIS_HASH, LeagueCreated, LedgerEvent, SiteOpened

E = TypeVar("E", bound=LedgerEvent)


def league_id(slug: str) -> UUID:
    """Deterministic, so a league's id follows from its slug on every machine."""
    return uuid5(NAMESPACE_URL, f"bb-league-ledger:league:{slug}")


SITE_ID = uuid5(NAMESPACE_URL, "bb-league-ledger:site")
"""The site's log: accounts and admins, the grants that belong to no one league."""


class ChainedLog(BaseAggregate[UUID]):
    """A hash-chained log of events: a league's, or the site's. It holds nothing but what
    appending needs: its version and the hash of its last event."""

    def __init__(self) -> None:
        self.last_hash = GENESIS_HASH
        self.slug = ""

    def record(
        self, event_class: type[E], *, recorded_by: str, reason: str | None = None, **fields: Any
    ) -> E:
        """Append the next fact to the log, chained to the previous one."""
        event = _sealed(
            event_class,
            originator_id=self.id,
            originator_version=self.version + 1,
            prev_hash=self.last_hash,
            recorded_by=recorded_by,
            reason=reason,
            **fields,
        )
        event.mutate(self)
        self.pending_events.append(event)
        return event

    def seal(self, draft: E, *, recorded_by: str, reason: str | None = None, **envelope: Any) -> E:
        """Append a drafted event (one a command built from its facts) as the next fact,
        with the command's reason unless the draft gives its own (the match of a confirmed
        report says which report and who confirmed it)."""
        own = draft.reason if draft.reason is not None else reason
        return self.record(
            type(draft), recorded_by=recorded_by, reason=own, **envelope, **draft.facts()
        )


class LeagueLog(ChainedLog):
    @classmethod
    def open(cls, *, recorded_by: str, reason: str | None = None, **fields: Any) -> LeagueLog:
        created = _sealed(
            LeagueCreated,
            originator_id=league_id(fields["slug"]),
            originator_version=cls.INITIAL_VERSION,
            originator_topic=get_topic(cls),
            prev_hash=GENESIS_HASH,
            recorded_by=recorded_by,
            reason=reason,
            **fields,
        )
        log = created.mutate(None)
        assert isinstance(log, LeagueLog)  # the created event always makes one
        log.pending_events.append(created)
        return log


class SiteLog(ChainedLog):
    @classmethod
    def open(cls, *, recorded_by: str, **envelope: Any) -> SiteLog:
        created = _sealed(
            SiteOpened,
            originator_id=SITE_ID,
            originator_version=cls.INITIAL_VERSION,
            originator_topic=get_topic(cls),
            prev_hash=GENESIS_HASH,
            recorded_by=recorded_by,
            **envelope,
        )
        log = created.mutate(None)
        assert isinstance(log, SiteLog)  # the created event always makes one
        log.pending_events.append(created)
        return log


def _sealed(event_class: type[E], **fields: Any) -> E:
    unsealed = event_class(timestamp=event_class.create_timestamp(), **fields)
    return unsealed.model_copy(update={"hash": unsealed.content_hash()})
