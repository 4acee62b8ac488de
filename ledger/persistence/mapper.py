"""Stores pydantic events as compact JSON and reads them back with one validating parse.

The library's default mapper stores ``vars(event)`` through its JSON transcoder; our
events are pydantic models, so we store their JSON without default values (including the
originator id and version, which the hash chain covers) and decode with pydantic's Rust
JSON parser in a single pass. Events of a class that has since been versioned are
upcast first. Snapshots and any other library objects go through the default path.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.utils import get_topic, resolve_topic
from pydantic import BaseModel


class LedgerMapper(Mapper[UUID]):
    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if not isinstance(domain_event, BaseModel):
            return super().to_stored_event(domain_event)
        return StoredEvent(
            originator_id=domain_event.originator_id,  # type: ignore[attr-defined]
            originator_version=domain_event.originator_version,  # type: ignore[attr-defined]
            topic=get_topic(type(domain_event)),
            state=self._protect(orjson.dumps(stored_state(domain_event))),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        cls = resolve_topic(stored_event.topic)
        if not (isinstance(cls, type) and issubclass(cls, BaseModel)):
            return super().to_domain_event(stored_event)
        data = self._unprotect(stored_event.state)
        if getattr(cls, "class_version", 1) == 1:
            return cls.model_validate_json(data)
        return cls.model_validate(upcast(cls, orjson.loads(data)))

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


def stored_state(event: BaseModel) -> dict[str, Any]:
    state = stored(event)
    class_version = getattr(type(event), "class_version", 1)
    if class_version > 1:
        state["class_version"] = class_version
    return state


def stored(event: BaseModel) -> dict[str, Any]:
    content = getattr(event, "stored", None)
    return content() if callable(content) else event.model_dump(mode="json")


def upcast(cls: type[Any], state: dict[str, Any]) -> dict[str, Any]:
    version = state.pop("class_version", 1)
    while version < cls.class_version:
        getattr(cls, f"upcast_v{version}_v{version + 1}")(state)
        version += 1
    return state
