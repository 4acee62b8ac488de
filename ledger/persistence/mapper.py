"""Stores events as compact JSON, and reads them back validated or by their shape.

The library's default mapper stores ``vars(event)`` through its JSON transcoder; our
events are plain models (ledger/domain/plain.py), so we store their JSON without default
values (including the originator id and version, which the hash chain covers). Events of
a class that has since been versioned are upcast first. Snapshots and any other library
objects go through the default path.

Two ways to read an event back:
- ``to_domain_event`` validates it in full through its class's pydantic twin: for what
  comes from outside the store (an import) and for the single events a page shows;
- ``read_back`` reads the ledger's own log, as the fold does, by its shape alone
  (ledger/domain/readback.py): every event was validated in full before it was stored.
  One off the shape is read as ``to_domain_event`` reads it, which names what is wrong.

A stored topic is resolved only from the event catalogue (``ledger.domain.events``) and
the library's own snapshot class, never imported by name: a topic is data, and data must
not choose which module runs. An event that cannot be read (an unknown topic, content
that no longer validates) comes back as an ``UnreadableEvent`` in its place, so that one
bad row never makes a whole league unreadable.
"""

from __future__ import annotations

import inspect
from collections.abc import Collection
from functools import cache
from typing import Any, cast
from uuid import UUID

import orjson
from eventsourcing.domain import Snapshot
from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.utils import get_topic
from pydantic import ValidationError

from ledger.domain import events as catalogue
from ledger.domain.plain import twin_of
from ledger.domain.readback import NotAsStored, reader_of
from ledger.domain.unreadable import NOT_UTF8, UnreadableEvent, is_utf8, problem_of


class LedgerMapper(Mapper[UUID]):
    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if not isinstance(domain_event, catalogue.LedgerEvent):
            return super().to_stored_event(domain_event)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=get_topic(type(domain_event)),
            state=self._protect(orjson.dumps(domain_event.stored())),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        topic = stored_event.topic
        if topic == SNAPSHOT_TOPIC:
            return super().to_domain_event(stored_event)
        cls = event_classes().get(topic)
        if cls is None:
            return unreadable(stored_event, f"its type '{topic[:80]}' is not a ledger event")
        try:
            event = decode(cls, self._unprotect(stored_event.state))
        except (ValidationError, ValueError, TypeError, KeyError, AttributeError) as error:
            text = is_utf8(stored_event.state)
            return unreadable(stored_event, problem_of(error) if text else NOT_UTF8)
        if not stored_where_it_says(event, stored_event):
            return unreadable(stored_event, MISPLACED)
        return event

    def read_back(self, stored_event: StoredEvent) -> Any:
        """An event of the ledger's own log, read by its shape (see the module's docstring);
        read as ``to_domain_event`` reads it when off the shape."""
        cls = event_classes().get(stored_event.topic)
        if cls is None:
            return self.to_domain_event(stored_event)
        try:
            event = read_shape(cls, self._unprotect(stored_event.state))
        except (NotAsStored, ValueError, TypeError, KeyError, AttributeError):
            return self.to_domain_event(stored_event)  # which names what is wrong
        if not stored_where_it_says(event, stored_event):
            return unreadable(stored_event, MISPLACED)
        return event

    def _protect(self, data: bytes) -> bytes:
        if self.compressor:
            data = self.compressor.compress(data)
        if self.cipher:
            data = self.cipher.encrypt(data)
        return data

    def _unprotect(self, data: bytes) -> bytes:
        if self.cipher:
            data = self.cipher.decrypt(data)
        if self.compressor:
            data = self.compressor.decompress(data)
        return data


SNAPSHOT_TOPIC = get_topic(Snapshot)
MISPLACED = "its stored position does not match its content"
"""An event copied to another place in the log (or another league's): read as it is,
it would be a second copy of an event the fold has met, with its number."""


def stored_where_it_says(event: catalogue.LedgerEvent, stored: StoredEvent) -> bool:
    if event.originator_version != stored.originator_version:
        return False
    # Both ids are UUIDs from our recorders; text from another one compares as text.
    found = event.originator_id
    return found == stored.originator_id or str(found) == str(stored.originator_id)


@cache
def event_classes() -> dict[str, type[catalogue.LedgerEvent]]:
    """Every storable event class by its topic: the catalogue, and nothing else."""
    return {
        get_topic(cls): cls
        for _, cls in inspect.getmembers(catalogue, inspect.isclass)
        if issubclass(cls, catalogue.LedgerEvent) and cls.__module__ == catalogue.__name__
    }


def decode(cls: type[catalogue.LedgerEvent], data: bytes) -> catalogue.LedgerEvent:
    """The event stored as ``data``, validated by its class's twin (which tells the fields
    the stored JSON gave)."""
    twin = twin_of(cls)
    if cls.class_version == 1:
        valid = twin.model_validate_json(data)
    else:
        valid = twin.model_validate(upcast(cls, orjson.loads(data)))
    missing = unsealed(valid.model_fields_set)
    if missing:
        raise ValueError(f"it lacks what the log records every event with: {', '.join(missing)}")
    return cls.of_twin(valid)


def unsealed(given: Collection[str]) -> list[str]:
    """What of the envelope the log seals every event with is not among the fields the
    stored JSON ``given``: the envelope's defaults mark a draft, and a stored event always
    has its own."""
    return [name for name in catalogue.SEALED if name not in given]


def read_shape(cls: type[catalogue.LedgerEvent], data: bytes) -> catalogue.LedgerEvent:
    """The event stored as ``data``, read by its shape (ledger/domain/readback.py), with
    the envelope a stored event always has."""
    state = orjson.loads(data)
    if type(state) is not dict or unsealed(state.keys()):
        raise NotAsStored("not a stored event")
    if cls.class_version > 1:
        state = upcast(cls, state)
    return cast(catalogue.LedgerEvent, reader_of[cls](state))


def unreadable(stored: StoredEvent, problem: str) -> UnreadableEvent:
    try:
        state = orjson.loads(stored.state)
    except orjson.JSONDecodeError:
        state = None
    return UnreadableEvent.of(
        stored.originator_id, stored.originator_version, stored.topic, state, problem
    )


def read_stored(kind: str, data: bytes) -> catalogue.LedgerEvent:
    """An event of the ledger's own log, of the class named ``kind``, stored as ``data``
    (neither compressed nor encrypted), that the fold has read already: a rebuild's line
    process reads it again for its history (ledger/projections/history.py). By its shape,
    or through its twin where ``read_back`` did so."""
    cls = event_classes_by_name()[kind]
    try:
        return read_shape(cls, data)
    except (NotAsStored, ValueError, TypeError, KeyError, AttributeError):
        return decode(cls, data)


@cache
def event_classes_by_name() -> dict[str, type[catalogue.LedgerEvent]]:
    return {cls.__name__: cls for cls in event_classes().values()}


def upcast(cls: type[Any], state: dict[str, Any]) -> dict[str, Any]:
    version = state.pop("class_version", 1)
    while version < cls.class_version:
        getattr(cls, f"upcast_v{version}_v{version + 1}")(state)
        version += 1
    return state
