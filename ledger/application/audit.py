"""``ledger audit verify``: recompute the hash chain from the stored rows themselves.

The check reads each stored event's raw JSON (not a decoded object, so neither upcasting
nor validation can hide a change), recomputes its hash from its topic and content, and
checks that it names the previous event's hash. The first break is where the log was
altered; everything after it is reported as unverifiable from that point.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import ApplicationRecorder, StoredEvent
from pydantic import BaseModel, ConfigDict

from ledger.domain.events import GENESIS_HASH, content_hash

PAGE = 1000


class Break(BaseModel):
    model_config = ConfigDict(frozen=True)
    seq: int
    topic: str
    problem: str


class ChainReport(BaseModel):
    model_config = ConfigDict(frozen=True)
    league: str
    events: int
    last_hash: str
    breaks: list[Break]

    @property
    def ok(self) -> bool:
        return not self.breaks


def stored_events(recorder: ApplicationRecorder, league: UUID) -> Iterator[StoredEvent]:
    after = 0
    while True:
        page = recorder.select_events(league, gt=after or None, limit=PAGE)
        yield from page
        if len(page) < PAGE:
            return
        after = page[-1].originator_version


def verify_chain(recorder: ApplicationRecorder, league: UUID, slug: str) -> ChainReport:
    previous, count, breaks = GENESIS_HASH, 0, []
    for stored in stored_events(recorder, league):
        count += 1
        problem, state = check_one(stored, count, previous)
        if problem:
            breaks.append(Break(seq=stored.originator_version, topic=stored.topic, problem=problem))
        previous = str(state.get("hash", "")) if state else ""
    return ChainReport(league=slug, events=count, last_hash=previous, breaks=breaks)


def check_one(
    stored: StoredEvent, expected: int, previous: str
) -> tuple[str | None, dict[str, Any] | None]:
    try:
        state = orjson.loads(stored.state)
    except orjson.JSONDecodeError:
        return "its content is not readable JSON", None
    if not isinstance(state, dict):
        return "its content is not an event", None
    if stored.originator_version != expected:
        return f"is stored as event {stored.originator_version} where {expected} should be", state
    if state.get("originator_version") != expected or state.get("originator_id") != str(
        stored.originator_id
    ):
        return "its stored position does not match its content", state
    if state.get("prev_hash", GENESIS_HASH) != previous:
        return "does not follow from the event before it (the chain is broken here)", state
    if content_hash(stored.topic, state) != state.get("hash"):
        return "its content does not match its hash: it was altered after it was recorded", state
    return None, state
