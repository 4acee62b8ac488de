"""Every single-byte edit of a stored event is caught by ``audit verify`` alone.

The edits are made where an attacker with the SQLite file would make them: in the
``state`` bytes of the library's ``stored_events`` table. "Detected" means that
``verify_chain`` reports a break, and its first break names the edited event. An edit
falls in one of three kinds, all of which must be detected:

- the bytes no longer read as JSON (or as UTF-8): "not readable JSON";
- they read as different content: its hash no longer matches ("altered after it was
  recorded"), or its position or link to the previous event is wrong;
- they read as the same content written differently (``1e5`` for ``100000.0``, a space
  between tokens): the ledger only ever stores compact orjson, so bytes that are not
  exactly that are reported ("stored bytes were altered").

The last kind cannot arise from one substituted byte in today's events (they hold no
floats; compact JSON has no optional bytes), which the classification below shows by
counting none; the whole-document rewrites after it exercise it directly.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import orjson
import pytest

from ledger.application.audit import verify_chain
from ledger.application.service import LeagueLedger
from ledger.domain.events import content_hash
from ledger.domain.log import league_id
from tests.integration.test_audit_and_transfer import played_league

SAMPLE_SEED = 11


def stored_state(db: sqlite3.Connection, seq: int) -> tuple[str, bytes]:
    topic, state = db.execute(
        "SELECT topic, state FROM stored_events WHERE originator_version = ?", (seq,)
    ).fetchone()
    return str(topic), bytes(state)


def write_state(db: sqlite3.Connection, seq: int, state: bytes) -> None:
    db.execute("UPDATE stored_events SET state = ? WHERE originator_version = ?", (state, seq))


def sample_events(db: sqlite3.Connection) -> list[int]:
    """The league's creation, a hire, the match report and the last event: every shape."""
    rows = db.execute("SELECT originator_version, topic FROM stored_events").fetchall()
    first: dict[str, int] = {}
    for seq, topic in sorted(rows):
        first.setdefault(topic.rsplit(":", 1)[-1], seq)
    return [first["LeagueCreated"], first["PlayerHired"], first["MatchRecorded"], max(rows)[0]]


def edits(state: bytes, rng: random.Random) -> Iterator[tuple[int, int]]:
    """Two edits at every position: the neighbouring byte (a digit or letter next to it),
    and either the other case of a letter (a space for a punctuation mark) or any byte."""
    for position, byte in enumerate(state):
        other = rng.choice([b for b in range(256) if b != byte])
        second = byte ^ 0x20 if position % 2 else other
        for replacement in sorted({byte ^ 0x01, second}):
            yield position, replacement


def kind_of(topic: str, original: bytes, edited: bytes) -> str:
    try:
        state = orjson.loads(edited)
    except orjson.JSONDecodeError:
        return "unreadable"
    if state == orjson.loads(original):
        return "same content"
    if isinstance(state, dict) and content_hash(topic, state) == state.get("hash"):
        return "different content, same hash"  # would need a SHA-256 collision
    return "different content"


@pytest.fixture
def played(sqlite_ledger: LeagueLedger) -> tuple[LeagueLedger, str]:
    return sqlite_ledger, played_league(sqlite_ledger)


def test_every_single_byte_edit_of_stored_events_is_detected(
    played: tuple[LeagueLedger, str], tmp_path: Path
) -> None:
    ledger, slug = played
    lid = league_id(slug)
    rng, kinds, missed, total = random.Random(SAMPLE_SEED), Counter[str](), [], 0
    started = time.monotonic()
    db = sqlite3.connect(tmp_path / "ledger.db", isolation_level=None)
    for seq in sample_events(db):
        topic, original = stored_state(db, seq)
        for position, replacement in edits(original, rng):
            edited = original[:position] + bytes([replacement]) + original[position + 1 :]
            write_state(db, seq, edited)
            found = verify_chain(ledger.recorder, lid, slug)
            total += 1
            kinds[kind_of(topic, original, edited)] += 1
            if not found.breaks or found.breaks[0].seq != seq:
                missed.append((seq, position, replacement))
        write_state(db, seq, original)
    db.close()
    elapsed = time.monotonic() - started
    print(f"{total} single-byte edits in {elapsed:.1f}s: {dict(kinds)}; missed {len(missed)}")
    assert verify_chain(ledger.recorder, lid, slug).ok
    assert total >= 2000
    assert missed == []
    assert kinds["different content, same hash"] == 0


@pytest.mark.parametrize(
    "rewrite",
    [
        pytest.param(
            lambda s: orjson.dumps(orjson.loads(s), option=orjson.OPT_INDENT_2), id="indented"
        ),
        pytest.param(lambda s: s.replace(b",", b", ", 1), id="one-space"),
        pytest.param(lambda s: s + b" ", id="trailing-space"),
    ],
)
def test_the_same_content_written_differently_is_detected(
    played: tuple[LeagueLedger, str], tmp_path: Path, rewrite: Callable[[bytes], bytes]
) -> None:
    ledger, slug = played
    with sqlite3.connect(tmp_path / "ledger.db") as db:
        _, original = stored_state(db, 7)
        edited = rewrite(original)
        assert edited != original
        assert orjson.loads(edited) == orjson.loads(original)
        write_state(db, 7, edited)
    found = verify_chain(ledger.recorder, league_id(slug), slug)
    assert [(b.seq, b.problem) for b in found.breaks] == [
        (7, "its stored bytes were altered (the same content, written differently)")
    ]


def test_a_class_version_slipped_in_breaks_the_chain(
    played: tuple[LeagueLedger, str], tmp_path: Path
) -> None:
    ledger, slug = played
    with sqlite3.connect(tmp_path / "ledger.db") as db:
        _, original = stored_state(db, 7)
        write_state(db, 7, orjson.dumps({**orjson.loads(original), "class_version": 2}))
    found = verify_chain(ledger.recorder, league_id(slug), slug)
    assert [b.seq for b in found.breaks] == [7]
    assert "does not match its hash" in found.breaks[0].problem  # the hash covers it


def test_a_league_whose_every_event_was_deleted_is_not_intact(
    played: tuple[LeagueLedger, str], tmp_path: Path
) -> None:
    ledger, slug = played
    with sqlite3.connect(tmp_path / "ledger.db") as db:
        db.execute("DELETE FROM stored_events")
    found = verify_chain(ledger.recorder, league_id(slug), slug)
    assert not found.ok
    assert found.events == 0
    assert "no event of this league" in found.breaks[0].problem


def test_a_league_that_was_never_created_is_not_intact(sqlite_ledger: LeagueLedger) -> None:
    found = verify_chain(sqlite_ledger.recorder, league_id("nowhere"), "nowhere")
    assert not found.ok
    assert found.events == 0


def test_a_season_2_league_cannot_be_made_to_read_as_2025(
    sqlite_ledger: LeagueLedger, tmp_path: Path
) -> None:
    """A version-2 creation event naming ``bb2020`` is Season 2; taken back to version 1
    (its ``class_version`` deleted), the upcast would read it as ``bb2025``. The hash covers
    the class version, so the audit finds the edit at event 1."""
    sqlite_ledger.create_league("s2", "Season Two", "bb2020", by="tester")
    lid = league_id("s2")
    db = sqlite3.connect(tmp_path / "ledger.db", isolation_level=None)
    where = "WHERE originator_id = ? AND originator_version = 1"
    (original,) = db.execute(f"SELECT state FROM stored_events {where}", (lid.hex,)).fetchone()
    assert b'"class_version":2' in original
    state = orjson.loads(original)
    del state["class_version"]
    db.execute(f"UPDATE stored_events SET state = ? {where}", (orjson.dumps(state), lid.hex))
    found = verify_chain(sqlite_ledger.recorder, lid, "s2")
    assert [b.seq for b in found.breaks][:1] == [1]
    assert "does not match its hash" in found.breaks[0].problem
    db.close()
