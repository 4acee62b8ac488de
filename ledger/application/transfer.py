"""``ledger export`` / ``ledger import``: a league's whole log as JSON Lines.

The first line is a header (format, league, event count, last hash); each further line is
one event exactly as stored: its number, topic and content. An import checks the whole
chain before writing anything and refuses a league the store already holds, so a backup
restores into an empty store as the identical log, or not at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, Any

import orjson
from eventsourcing.persistence import ApplicationRecorder, StoredEvent

from ledger.application.audit import check_one, stored_events
from ledger.domain.events import GENESIS_HASH
from ledger.domain.log import league_id
from ledger.errors import ImportRefused

FORMAT = "bb-league-ledger/events"
VERSION = 1
BATCH = 5000


def export_lines(recorder: ApplicationRecorder, slug: str) -> Iterator[bytes]:
    events = list(stored_events(recorder, league_id(slug)))
    last = orjson.loads(events[-1].state).get("hash", "") if events else ""
    header = {
        "format": FORMAT,
        "version": VERSION,
        "league": slug,
        "events": len(events),
        "last_hash": last,
    }
    yield orjson.dumps(header) + b"\n"
    for stored in events:
        line = {
            "seq": stored.originator_version,
            "topic": stored.topic,
            "event": orjson.Fragment(stored.state),
        }
        yield orjson.dumps(line) + b"\n"


def read_lines(stream: IO[bytes]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [line for line in stream.read().splitlines() if line.strip()]
    if not lines:
        raise ImportRefused("the file is empty")
    try:
        header, *rows = (orjson.loads(line) for line in lines)
    except orjson.JSONDecodeError as error:
        raise ImportRefused(f"the file is not JSON Lines: {error}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ImportRefused(f"the file is not a {FORMAT} export (no header line)")
    if header.get("events") != len(rows):
        raise ImportRefused(
            f"the header promises {header.get('events')} events, the file has"
            f" {len(rows)}: it is truncated or was edited"
        )
    return header, rows


def to_stored(slug: str, rows: Iterable[dict[str, Any]]) -> list[StoredEvent]:
    league = league_id(slug)
    stored, previous = [], GENESIS_HASH
    for expected, row in enumerate(rows, start=1):
        event = StoredEvent(
            originator_id=league,
            originator_version=int(row.get("seq", 0)),
            topic=str(row.get("topic")),
            state=orjson.dumps(row.get("event")),
        )
        problem, state = check_one(event, expected, previous)
        if problem:
            raise ImportRefused(f"event {expected} ({event.topic}) {problem}; nothing imported")
        previous = str(state.get("hash")) if state else ""
        stored.append(event)
    return stored


def import_league(recorder: ApplicationRecorder, stream: IO[bytes]) -> tuple[str, int]:
    header, rows = read_lines(stream)
    slug = str(header.get("league"))
    events = to_stored(slug, rows)
    if recorder.select_events(league_id(slug), limit=1):
        raise ImportRefused(
            f"this store already holds league '{slug}': import into an empty"
            " store, or export it first"
        )
    for start in range(0, len(events), BATCH):
        recorder.insert_events(events[start : start + BATCH])
    return slug, len(events)
