"""``ledger export`` / ``ledger import``: a league's whole log as JSON Lines.

The first line is a header (format, version, league, event count, last hash); each
further line is one event exactly as stored: its number, topic and content. An import
checks the header against the file (its version, the count, the hash the chain ends on),
the whole chain, then every event's content (a type from the event catalogue, fields
within the domain's bounds), that the league folds with no event passed over and its
books adding up (application/books.py), and that every event a command decides could have
been recorded where it stands (its command plans it again in the league as it stood:
amendments.PLANNED_BY), before writing anything; it refuses a league the store already
holds, and writes the league in one transaction. So a backup restores into an empty store
as the identical log, or not at all, and a file whose chain was re-hashed around content
no command would have recorded (a skill the player may not take, a star nobody induced)
is refused like any other.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, Any, NoReturn, cast

import orjson
from eventsourcing.persistence import ApplicationRecorder, Mapper, StoredEvent

from ledger.application.audit import check_one, stored_events
from ledger.application.books import fold_books
from ledger.application.context import Context
from ledger.domain.events import GENESIS_HASH, LeagueCreated, LedgerEvent
from ledger.domain.log import league_id
from ledger.domain.state import LeagueRow
from ledger.domain.unreadable import UnreadableEvent, is_utf8
from ledger.errors import ImportRefused
from ledger.projections.fold import corrections_of
from ledger.projections.store import MemoryStore
from ledger.rules.protocol import Ruleset

FORMAT = "bb-league-ledger/events"
VERSION = 1


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
    numbered = [(n, line) for n, line in enumerate(stream.read().splitlines(), 1) if line.strip()]
    if not numbered:
        raise ImportRefused("the file is empty")
    last = numbered[-1][0]
    (_, header), *rows = [(n, parse_line(n, line, n == last)) for n, line in numbered]
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ImportRefused(f"the file is not a {FORMAT} export (no header line)")
    if header.get("version") != VERSION:
        raise ImportRefused(
            f"the file's format version {str(header.get('version'))[:20]} is not one this"
            f" ledger reads (version {VERSION}): import it with the ledger that exported it"
        )
    if not rows:
        raise ImportRefused("the file has a header but no events: there is no league to import")
    shapeless = next((n for n, row in rows if not is_row(row)), None)
    if shapeless is not None:
        raise ImportRefused(
            f"line {shapeless} is not an exported event (an object with seq, topic and event)"
        )
    if header.get("events") != len(rows):
        raise ImportRefused(
            f"the header promises {header.get('events')} events, the file has"
            f" {len(rows)}: it is truncated or was edited"
        )
    return header, [row for _, row in rows]


def parse_line(number: int, line: bytes, last: bool) -> Any:
    """One line's JSON; refused with the line's number in the file (orjson counts lines
    within the one line it was given)."""
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError as error:
        why = f"{error.msg} at column {error.colno}"
        if not is_utf8(line):
            why = "it is not UTF-8 text"
        elif last and error.pos >= len(line.rstrip()):
            why += " (the file is truncated?)"
        raise ImportRefused(f"line {number} is not JSON: {why}") from None


def is_row(row: Any) -> bool:
    return (
        isinstance(row, dict)
        and type(row.get("seq")) is int
        and isinstance(row.get("topic"), str)
        and isinstance(row.get("event"), dict)
    )


def to_stored(slug: str, rows: Iterable[dict[str, Any]]) -> list[StoredEvent]:
    league = league_id(slug)
    stored, previous = [], GENESIS_HASH
    for expected, row in enumerate(rows, start=1):
        event = StoredEvent(
            originator_id=league,
            originator_version=row["seq"],
            topic=row["topic"][:200],
            state=orjson.dumps(row["event"]),
        )
        problem, state = check_one(event, expected, previous)
        if problem:
            raise ImportRefused(f"event {expected} ({event.topic}) {problem}; nothing imported")
        previous = str(state.get("hash")) if state else ""
        stored.append(event)
    return stored


def import_league(
    recorder: ApplicationRecorder, mapper: Mapper[Any], stream: IO[bytes]
) -> tuple[str, int]:
    header, rows = read_lines(stream)
    slug = header.get("league")
    if not isinstance(slug, str) or not slug:
        raise ImportRefused("the header names no league")
    stored = to_stored(slug, rows)
    check_last_hash(header, rows[-1]["event"].get("hash"))
    check_content(slug, [cast(LedgerEvent, mapper.to_domain_event(e)) for e in stored])
    if recorder.select_events(league_id(slug), limit=1):
        raise ImportRefused(
            f"this store already holds league '{slug}': import into an empty"
            " store, or export it first"
        )
    recorder.insert_events(stored)  # one transaction: the whole league, or nothing
    return slug, len(stored)


def check_last_hash(header: dict[str, Any], last: Any) -> None:
    """The header names the hash the chain ends on: a file cut at a line end, its event
    count edited to match, still ends on another event's hash."""
    named = header.get("last_hash")
    if named != last:
        raise ImportRefused(
            f"the header's last hash {str(named)[:16]}... is not the last event's"
            f" ({str(last)[:16]}...): the file was cut or edited; nothing imported"
        )


def check_content(slug: str, events: list[LedgerEvent]) -> None:
    """Every event reads as an event of the catalogue, the league is the header's, the
    league folds with no event passed over and its books adding up (books.py: no command
    could have left a treasury or a player's SPP below zero), and no event breaks a rule
    its command asks (``check_planned``)."""
    unreadable = next((e for e in events if isinstance(e, UnreadableEvent)), None)
    if unreadable is not None:
        raise ImportRefused(
            f"event {unreadable.seq} ({unreadable.topic[:80]}) is not a valid ledger event:"
            f" {unreadable.problem}; nothing imported"
        )
    created = events[0]
    if not isinstance(created, LeagueCreated) or created.slug != slug:
        raise ImportRefused(
            f"event 1 must create league '{slug}', as the header says; nothing imported"
        )
    folded, overdrawn = fold_books(events, str(league_id(slug)), corrections_of(events))
    if folded.faults:
        refuse_event(events, min(folded.faults), folded.faults[min(folded.faults)])
    if overdrawn is not None:
        refuse_event(events, overdrawn.seq, overdrawn.falls)
    if folded.fold is not None:
        check_planned(events, folded.fold.league(), folded.fold.ruleset)


def check_planned(events: list[LedgerEvent], league: LeagueRow, ruleset: Ruleset) -> None:
    """Every event a command decides, planned again by it in the league as it stood just
    before the event (a voided event is not, an amended one as amended). An export of a
    ledger whose commands allowed what today's refuse is refused too: the event is
    corrected where the league is kept, and exported again."""
    # The commands' planners load when an import asks for them: a ledger opened to read
    # imports no command (tests/integration/test_handlers.py).
    from ledger.application.amendments import Replanned

    replanned = Replanned(Context(MemoryStore(), league, ruleset), events, after=0)
    fold_books(events, league.league_id, corrections_of(events), ruleset, replanned)
    if replanned.refused:
        seq = min(replanned.refused)
        raise ImportRefused(
            f"event {seq} ({type(events[seq - 1]).__name__}) could not have been recorded:"
            f" {replanned.refused[seq]}; nothing imported"
        )


def refuse_event(events: list[LedgerEvent], seq: int, problem: str) -> NoReturn:
    raise ImportRefused(
        f"event {seq} ({type(events[seq - 1]).__name__}) does not apply to the league's"
        f" books: {problem}; nothing imported"
    )
