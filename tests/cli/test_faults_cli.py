"""A ledger holding an event it cannot apply stays usable from the command line: every
command works, ``audit verify`` names the event and fails, and a void heals it
(issue 11, problem 1)."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

import orjson

from ledger.domain.events import content_hash
from tests.cli.test_cli import LEAGUE_SCRIPT, ledger

TOPIC = "ledger.domain.events:TreasuryAdjusted"


def plant_bad_event(db: Path) -> int:
    """Append, straight into the SQLite file, a chained and hashed event for a team that
    was never registered: what an older version or a hand in the database might leave."""
    with sqlite3.connect(db) as conn:
        originator, version, state = conn.execute(
            "SELECT originator_id, originator_version, state FROM stored_events"
            " ORDER BY originator_version DESC LIMIT 1"
        ).fetchone()
        last = orjson.loads(state)
        event = {
            "originator_id": str(
                uuid.UUID(bytes=originator)
                if isinstance(originator, bytes)
                else uuid.UUID(str(originator))
            ),
            "originator_version": version + 1,
            "timestamp": "2026-11-01T10:00:00+00:00",
            "recorded_by": "someone",
            "prev_hash": last["hash"],
            "team": "ghosts",
            "amount": 10_000,
        }
        event["hash"] = content_hash(TOPIC, event)
        conn.execute(
            "INSERT INTO stored_events (originator_id, originator_version, topic, state)"
            " VALUES (?, ?, ?, ?)",
            (originator, version + 1, TOPIC, orjson.dumps(event)),
        )
    return int(version) + 1


def test_a_bad_stored_event_is_reported_and_voiding_it_heals(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    script = tmp_path / "setup.ledger"
    script.write_text(LEAGUE_SCRIPT)
    ledger(db, "run", str(script))
    seq = plant_bad_event(db)
    for command in (["standings"], ["roster", "reavers"], ["rebuild"], ["export"]):
        done = ledger(db, *command, check=False)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
    verify = ledger(db, "audit", "verify", check=False)
    assert verify.returncode == 1
    assert "chain intact" in verify.stdout
    assert "1 event the books cannot apply" in verify.stdout
    assert verify.stdout.splitlines()[-1].split() == [
        str(seq),
        "TreasuryAdjusted",
        "team",
        "ghosts",
        "is",
        "not",
        "registered",
    ]
    ledger(db, "team", "adjust", "reavers", "5000", "--reason", "prize")
    ledger(db, "correct", str(seq), "--void", "--reason", "not a team of ours")
    assert ledger(db, "audit", "verify").returncode == 0
