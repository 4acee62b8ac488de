"""``ledger audit verify``: recompute the hash chain from the stored rows themselves.

The check reads each stored event's raw JSON (not a decoded object, so neither upcasting
nor validation can hide a change), recomputes its hash from its topic and content, and
checks that it names the previous event's hash. The first break is where the log was
altered; everything after it is reported as unverifiable from that point.

The stored bytes must also be exactly those the ledger writes (compact JSON, as orjson
writes it), so that even an edit that leaves the parsed content unchanged (``1e5`` for
``100000.0``, a space between tokens) is reported: every single-byte edit of a stored
event is a break (tests/integration/test_tampering.py); only a reordering of its fields,
which changes nothing it says, is not. A league with no event at all is a problem too: a
log whose every event was deleted must not read as "intact". What the chain cannot show
(truncation, a rewrite re-hashed to the end) is what signed checkpoints are for
(checkpoints.py, docs/audit.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import ApplicationRecorder, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder
from pydantic import BaseModel, ConfigDict

from ledger.domain import events
from ledger.domain.events import GENESIS_HASH, content_hash
from ledger.domain.log import league_id
from ledger.domain.unreadable import NOT_UTF8, is_utf8
from ledger.persistence.mapper import MISPLACED

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


def logs_stored(recorder: ApplicationRecorder) -> list[UUID]:
    """Every log the store holds (each league's, and the site's), read from the stored
    events themselves: never from a read model, which anyone who can write to the database
    can edit, so that a league cannot be hidden from the audit by deleting its row."""
    from eventsourcing.postgres import PostgresApplicationRecorder  # psycopg: only for this

    if isinstance(recorder, SQLiteApplicationRecorder):
        statement: Any = f"SELECT DISTINCT originator_id FROM {recorder.events_table_name}"
    elif isinstance(recorder, PostgresApplicationRecorder):
        from psycopg.sql import SQL, Identifier

        statement = SQL("SELECT DISTINCT originator_id FROM {}.{}").format(
            Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name)
        )
    else:  # the library's in-memory store (tests): read every event
        return sorted({UUID(str(n.originator_id)) for n in all_notifications(recorder)}, key=str)
    with recorder.datastore.transaction(commit=False) as cursor:
        cursor.execute(statement)
        rows = cursor.fetchall()
    found = (row["originator_id"] if isinstance(row, dict) else row[0] for row in rows)
    return sorted((UUID(str(value)) for value in found), key=str)


def all_notifications(recorder: ApplicationRecorder) -> Iterator[StoredEvent]:
    after = 0
    while page := recorder.select_notifications(
        start=after or None, limit=PAGE, inclusive_of_start=not after
    ):
        yield from page
        after = page[-1].id


def log_name(recorder: ApplicationRecorder, log: UUID) -> str:
    """A league's slug, as its first stored event says it; its id when that event is
    missing or cannot be read (the audit then says why)."""
    first = recorder.select_events(log, limit=1)
    try:
        state = orjson.loads(first[0].state) if first else None
    except orjson.JSONDecodeError:
        state = None
    slug = state.get("slug") if isinstance(state, dict) else None
    return slug if isinstance(slug, str) and log == league_id(slug) else str(log)


def stored_events(recorder: ApplicationRecorder, league: UUID) -> Iterator[StoredEvent]:
    after = 0
    while True:
        page = recorder.select_events(league, gt=after or None, limit=PAGE)
        yield from page
        if len(page) < PAGE:
            return
        after = page[-1].originator_version


NO_EVENTS = (
    "the log holds no event of this league: it was never created in this ledger,"
    " or all of its events were deleted"
)


def verify_chain(recorder: ApplicationRecorder, league: UUID, slug: str) -> ChainReport:
    previous, count, breaks = GENESIS_HASH, 0, []
    for stored in stored_events(recorder, league):
        count += 1
        problem, state = check_one(stored, count, previous)
        if problem:
            breaks.append(Break(seq=stored.originator_version, topic=stored.topic, problem=problem))
        previous = str(state.get("hash", "")) if state else ""
    if not count:
        breaks.append(Break(seq=0, topic="", problem=NO_EVENTS))
    return ChainReport(league=slug, events=count, last_hash=previous, breaks=breaks)


def check_one(
    stored: StoredEvent, expected: int, previous: str
) -> tuple[str | None, dict[str, Any] | None]:
    try:
        state = orjson.loads(stored.state)
    except orjson.JSONDecodeError:
        return "its content is not readable JSON" if is_utf8(stored.state) else NOT_UTF8, None
    if not isinstance(state, dict):
        return "its content is not an event", None
    if stored.originator_version != expected:
        return f"is stored as event {stored.originator_version} where {expected} should be", state
    if state.get("originator_version") != expected or state.get("originator_id") != str(
        stored.originator_id
    ):
        return MISPLACED, state
    if state.get("prev_hash", GENESIS_HASH) != previous:
        return "does not follow from the event before it (the chain is broken here)", state
    if content_hash(stored.topic, state) != state.get("hash"):
        return "its content does not match its hash: it was altered after it was recorded", state
    if not known_version(stored.topic, state):
        return "its class version is not one the ledger wrote (the hash does not cover it)", state
    if not as_written(stored.state, state):
        return "its stored bytes were altered (the same content, written differently)", state
    return None, state


def known_version(topic: str, state: dict[str, Any]) -> bool:
    """An event stored under a newer shape names its class version (covered by its hash);
    it must be one its class has had."""
    if "class_version" not in state:
        return True
    cls = getattr(events, topic.rpartition(":")[2], None)
    version = state["class_version"]
    return type(version) is int and 2 <= version <= getattr(cls, "class_version", 1)


def as_written(raw: bytes, state: dict[str, Any]) -> bool:
    """Whether ``raw`` is exactly how the ledger writes ``state`` (orjson, compact)."""
    try:
        return orjson.dumps(state) == raw
    except TypeError:  # orjson refuses what it could not have written
        return False
