"""A signed checkpoint catches what the hash chain alone cannot (docs/audit.md).

Each attack is made on the SQLite file directly, as someone with write access to the
database would make it, re-hashing whatever it must so that ``audit verify`` without a
checkpoint still says "chain intact". The checkpoint's key is in a temporary folder
(``$LEDGER_CHECKPOINT_KEY``), never in the user's own configuration.
"""

from __future__ import annotations

import json
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.application.audit import verify_chain
from ledger.application.checkpoint_keys import (
    CheckpointKeyError,
    TrustedKey,
    key_path,
    public_line,
    signing_key,
    trusted_key,
)
from ledger.application.checkpoints import (
    Checkpoint,
    CheckpointCheck,
    NothingToSign,
    check_checkpoint,
    latest_checkpoint,
    make_checkpoint,
    record_checkpoint,
)
from ledger.application.commands import AdjustTreasury
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings
from ledger.domain.events import content_hash
from ledger.domain.log import league_id
from ledger.reports.service import make_report
from tests.integration.test_audit_and_transfer import played_league

LEDGER = str(Path(sys.executable).parent / "ledger")


@pytest.fixture(autouse=True)
def key_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    monkeypatch.setenv("LEDGER_CHECKPOINT_KEY", str(tmp_path / "keys" / "checkpoint-key.pem"))
    monkeypatch.delenv("LEDGER_CHECKPOINT_PUBLIC_KEY", raising=False)
    return home


@pytest.fixture
def played(sqlite_ledger: LeagueLedger) -> tuple[LeagueLedger, str]:
    return sqlite_ledger, played_league(sqlite_ledger)


def sign(ledger: LeagueLedger, slug: str) -> Checkpoint:
    return make_checkpoint(ledger.recorder, slug, signing_key(key_path()))


def check(ledger: LeagueLedger, checkpoint: Checkpoint) -> CheckpointCheck:
    chain = verify_chain(ledger.recorder, league_id(checkpoint.league), checkpoint.league)
    return check_checkpoint(ledger.recorder, checkpoint, trusted_key(None), chain)


def chain_intact(ledger: LeagueLedger, slug: str) -> bool:
    return verify_chain(ledger.recorder, league_id(slug), slug).ok


# --- tampering with the file, re-hashing as an attacker would -----------------------------


def database(tmp_path: Path) -> sqlite3.Connection:
    return sqlite3.connect(tmp_path / "ledger.db", isolation_level=None)


def rehash_from(db: sqlite3.Connection, seq: int) -> None:
    """Recompute every hash from event ``seq`` on, each linked to the one before."""
    rows = db.execute(
        "SELECT originator_version, topic, state FROM stored_events"
        " WHERE originator_version >= ? ORDER BY originator_version",
        (seq - 1,),
    ).fetchall()
    previous = orjson.loads(rows[0][2])["hash"]
    for version, topic, raw in rows[1:]:
        state = orjson.loads(raw)
        state["prev_hash"] = previous
        state["hash"] = previous = content_hash(topic, state)
        db.execute(
            "UPDATE stored_events SET state = ? WHERE originator_version = ?",
            (orjson.dumps(state), version),
        )


def forge_append(db: sqlite3.Connection, slug: str, amount: int) -> None:
    """A TreasuryAdjusted nobody recorded, chained to the current last event."""
    (last,) = db.execute("SELECT MAX(originator_version) FROM stored_events").fetchone()
    (raw,) = db.execute(
        "SELECT state FROM stored_events WHERE originator_version = ?", (last,)
    ).fetchone()
    head = orjson.loads(raw)
    topic = "ledger.domain.events:TreasuryAdjusted"
    forged = {
        "originator_id": head["originator_id"],
        "originator_version": last + 1,
        "timestamp": head["timestamp"],
        "recorded_by": "tester",
        "reason": "bonus",
        "prev_hash": head["hash"],
        "team": "reavers",
        "amount": amount,
    }
    forged["hash"] = content_hash(topic, forged)
    db.execute(
        "INSERT INTO stored_events (originator_id, originator_version, topic, state)"
        " VALUES (?, ?, ?, ?)",
        (league_id(slug).hex, last + 1, topic, orjson.dumps(forged)),
    )


def delete_from(db: sqlite3.Connection, seq: int) -> None:
    db.execute("DELETE FROM stored_events WHERE originator_version >= ?", (seq,))


# --- the key --------------------------------------------------------------------------------


def test_the_key_is_made_on_first_use_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = key_path()
    assert path == tmp_path / "keys" / "checkpoint-key.pem"
    first = signing_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert public_line(signing_key(path).public_key()) == public_line(first.public_key())


def test_the_default_key_is_under_the_user_configuration(
    key_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LEDGER_CHECKPOINT_KEY")
    assert key_path() == key_home / "bb-league-ledger" / "checkpoint-key.pem"


def test_a_key_others_can_read_is_refused(tmp_path: Path) -> None:
    path = key_path()
    signing_key(path)
    path.chmod(0o644)
    with pytest.raises(CheckpointKeyError, match="can be read by other users"):
        signing_key(path)


def test_verifying_without_any_public_key_says_how_to_give_one() -> None:
    with pytest.raises(CheckpointKeyError, match="give the league's published key with --key"):
        trusted_key(None)


# --- what a checkpoint proves ----------------------------------------------------------------


def test_a_log_extended_after_its_checkpoint_passes_and_counts_what_is_not_covered(
    played: tuple[LeagueLedger, str],
) -> None:
    ledger, slug = played
    checkpoint = sign(ledger, slug)
    ledger.handle(AdjustTreasury(slug, "reavers", 10_000), by="tester", reason="sponsor")
    ledger.handle(AdjustTreasury(slug, "rats", -5_000), by="tester", reason="fine")
    found = check(ledger, checkpoint)
    assert found.problems == []
    assert (found.signed_events, found.events, found.uncovered) == (29, 31, 2)


def test_deleting_the_last_events_is_caught_only_by_a_checkpoint(
    played: tuple[LeagueLedger, str], tmp_path: Path
) -> None:
    ledger, slug = played
    checkpoint = sign(ledger, slug)
    delete_from(database(tmp_path), 28)
    assert chain_intact(ledger, slug)
    assert check(ledger, checkpoint).problems == [
        "the log holds 27 events of league 'test', fewer than the 29 the checkpoint signed:"
        " events were deleted (truncated)"
    ]


def test_deleting_every_event_of_the_league_is_caught(
    played: tuple[LeagueLedger, str], tmp_path: Path
) -> None:
    ledger, slug = played
    checkpoint = sign(ledger, slug)
    delete_from(database(tmp_path), 1)
    assert not chain_intact(ledger, slug)
    assert "fewer than the 29" in check(ledger, checkpoint).problems[0]


def test_an_early_price_edited_and_the_rest_rehashed_is_caught_only_by_a_checkpoint(
    played: tuple[LeagueLedger, str], tmp_path: Path
) -> None:
    ledger, slug = played
    checkpoint = sign(ledger, slug)
    db = database(tmp_path)
    (raw,) = db.execute("SELECT state FROM stored_events WHERE originator_version = 7").fetchone()
    cheaper = {**orjson.loads(raw), "price": 1}
    db.execute(
        "UPDATE stored_events SET state = ? WHERE originator_version = 7", (orjson.dumps(cheaper),)
    )
    rehash_from(db, 7)
    assert chain_intact(ledger, slug)
    [problem] = check(ledger, checkpoint).problems
    assert problem.startswith("event 29 has hash ")
    assert problem.endswith("the log up to event 29 was rewritten")


def test_a_forged_event_in_place_of_signed_ones_is_caught(
    played: tuple[LeagueLedger, str], tmp_path: Path
) -> None:
    ledger, slug = played
    checkpoint = sign(ledger, slug)
    db = database(tmp_path)
    delete_from(db, 29)
    forge_append(db, slug, 5_000_000)  # the same count as signed, a different head
    assert chain_intact(ledger, slug)
    assert "the log up to event 29 was rewritten" in check(ledger, checkpoint).problems[0]


def test_a_forged_append_after_the_checkpoint_waits_for_the_next_trusted_checkpoint(
    played: tuple[LeagueLedger, str],
    tmp_path: Path,
    open_ledgers: Callable[[Settings], LeagueLedger],
) -> None:
    """The documented limit: a forgery chained after the latest checkpoint is reported only
    as an event no signature covers, until a checkpoint made from a copy the forger did
    not touch signs a different event at that place."""
    ledger, slug = played
    trusted_copy = tmp_path / "trusted.db"
    with database(tmp_path) as source, sqlite3.connect(trusted_copy) as target:
        source.backup(target)
    checkpoint = sign(ledger, slug)
    forge_append(database(tmp_path), slug, 5_000_000)
    found = check(ledger, checkpoint)
    assert (found.problems, found.uncovered) == ([], 1)

    trusted = open_ledgers(Settings(sqlite_path=trusted_copy, user="tester"))
    trusted.handle(AdjustTreasury(slug, "rats", 20_000), by="tester", reason="sponsor")
    assert "the log up to event 30 was rewritten" in check(ledger, sign(trusted, slug)).problems[0]


def test_an_altered_checkpoint_fails_its_signature(played: tuple[LeagueLedger, str]) -> None:
    ledger, slug = played
    earlier = sign(ledger, slug)
    ledger.handle(AdjustTreasury(slug, "reavers", 10_000), by="tester", reason="sponsor")
    later = sign(ledger, slug)
    moved_back = later.model_copy(update={"events": earlier.events, "head_hash": earlier.head_hash})
    assert check(ledger, later).ok
    assert check(ledger, moved_back).problems == [
        "the signature does not match the checkpoint: the file was altered"
        " or was not signed by this key"
    ]
    # Its count edited, the log is not blamed: compared with a checkpoint that does not
    # verify, the intact log read as rewritten up to the edited count.
    miscounted = later.model_copy(update={"events": later.events - 1})
    assert check(ledger, miscounted).problems == check(ledger, moved_back).problems


def test_a_checkpoint_signed_by_another_key_is_refused(played: tuple[LeagueLedger, str]) -> None:
    ledger, slug = played
    stranger = make_checkpoint(ledger.recorder, slug, Ed25519PrivateKey.generate())
    signing_key(key_path())  # this machine's own key is the one trusted
    assert "it was signed by another key" in check(ledger, stranger).problems[0]
    chain = verify_chain(ledger.recorder, league_id(slug), slug)
    given = TrustedKey(Ed25519PrivateKey.generate().public_key(), "a key given")
    assert (
        "signed by another key"
        in check_checkpoint(ledger.recorder, sign(ledger, slug), given, chain).problems[0]
    )


def test_no_checkpoint_is_made_of_a_broken_chain_or_an_empty_league(
    played: tuple[LeagueLedger, str], tmp_path: Path
) -> None:
    ledger, slug = played
    with pytest.raises(NothingToSign, match="no event in this ledger"):
        sign(ledger, "nowhere")
    db = database(tmp_path)
    (raw,) = db.execute("SELECT state FROM stored_events WHERE originator_version = 7").fetchone()
    db.execute(
        "UPDATE stored_events SET state = ? WHERE originator_version = 7",
        (orjson.dumps({**orjson.loads(raw), "price": 1}),),
    )
    with pytest.raises(NothingToSign, match="broken at event 7"):
        sign(ledger, slug)


# --- where checkpoints are kept, and the report --------------------------------------------


def test_the_report_prints_the_latest_checkpoint_even_after_a_rebuild(
    played: tuple[LeagueLedger, str],
) -> None:
    ledger, slug = played
    engine, key = ledger.read_models.engine, signing_key(key_path())
    assert latest_checkpoint(engine, league_id(slug)) is None
    assert make_report(ledger, slug).audit.checkpoint is None
    record_checkpoint(engine, sign(ledger, slug), key.public_key())
    ledger.handle(AdjustTreasury(slug, "reavers", 10_000), by="tester", reason="sponsor")
    latest = sign(ledger, slug)
    record_checkpoint(engine, latest, key.public_key())
    ledger.read_models.rebuild(ledger.source)
    printed = make_report(ledger, slug).audit.checkpoint
    assert printed is not None
    assert (printed.events, printed.head_hash) == (30, latest.head_hash)
    assert printed.public_key == public_line(key.public_key())
    assert Checkpoint.model_validate_json(printed.document) == latest


def test_checkpoints_are_kept_and_checked_on_every_store(ledger: LeagueLedger) -> None:
    slug = played_league(ledger)
    engine, key = ledger.read_models.engine, signing_key(key_path())
    signed = sign(ledger, slug)
    record_checkpoint(engine, signed, key.public_key())
    record_checkpoint(engine, signed, key.public_key())  # the table already exists
    latest = latest_checkpoint(engine, league_id(slug))
    assert latest is not None
    assert latest.checkpoint == signed
    assert check(ledger, latest.checkpoint).ok


# --- the commands ---------------------------------------------------------------------------


def ledger_cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LEDGER, "--db", str(db), "--as", "tester", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_commissioner_signs_publishes_and_checks_from_the_shell(
    played: tuple[LeagueLedger, str], tmp_path: Path
) -> None:
    db, published, signed = tmp_path / "ledger.db", tmp_path / "league.pub", tmp_path / "cp.json"
    key = ledger_cli(db, "audit", "key", "--line")
    assert key.returncode == 0
    published.write_text(key.stdout)
    made = ledger_cli(db, "audit", "checkpoint", "--out", str(signed))
    assert made.returncode == 0, made.stderr
    assert json.loads(signed.read_text())["events"] == 29
    private = key_path().read_text()
    for output in (key.stdout, key.stderr, made.stdout, made.stderr):
        assert private.strip().splitlines()[1] not in output

    good = ledger_cli(db, "audit", "verify", "--checkpoint", str(signed), "--key", str(published))
    assert good.returncode == 0, good.stdout
    assert f"the public key in {published}" in good.stdout

    delete_from(database(tmp_path), 29)
    bad = ledger_cli(db, "audit", "verify", "--checkpoint", str(signed), "--key", str(published))
    assert bad.returncode == 1
    failed = [line for line in bad.stdout.splitlines() if "CHECKPOINT FAILED" in line]
    assert failed == [
        "test: CHECKPOINT FAILED: the log holds 28 events of league 'test', fewer than the 29"
        " the checkpoint signed: events were deleted (truncated)"
    ]
    as_json = ledger_cli(db, "audit", "verify", "--checkpoint", str(signed), "--json")
    [report] = json.loads(as_json.stdout)
    assert (as_json.returncode, report["ok"], report["checkpoint"]["ok"]) == (1, False, False)


def test_mistakes_with_checkpoints_are_one_line_errors(
    played: tuple[LeagueLedger, str], tmp_path: Path
) -> None:
    ledger, slug = played
    db, signed = tmp_path / "ledger.db", tmp_path / "cp.json"
    assert ledger_cli(db, "audit", "checkpoint", "--out", str(signed)).returncode == 0
    verify = ("audit", "verify", "--checkpoint")
    for done, code in [
        (ledger_cli(db, *verify, str(signed), "--key", str(signed)), "checkpoint-key"),
        (ledger_cli(db, *verify, str(signed), "--key", "/dev/zero"), "checkpoint-key"),
        (ledger_cli(db, *verify, str(db)), "invalid-checkpoint"),
        (ledger_cli(db, *verify, "/dev/zero"), "invalid-checkpoint"),
        (ledger_cli(db, "--league", "owl", *verify, str(signed)), "invalid-input"),
        (ledger_cli(db, "audit", "checkpoint", "--out", str(tmp_path / "no" / "cp.json")), "file"),
    ]:
        assert done.returncode != 0
        assert done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith(f"error[{code}]: ")
    empty, partial = tmp_path / "empty.json", tmp_path / "partial.json"
    empty.write_text("\n")
    partial.write_text('{"league": "owl"}')
    assert ledger_cli(db, *verify, str(empty)).stderr == (
        f"error[invalid-checkpoint]: {empty} is empty: not a ledger checkpoint\n"
    )
    said = ledger_cli(db, *verify, str(partial)).stderr
    assert said.startswith(f"error[invalid-checkpoint]: {partial} is not a ledger checkpoint (")
    assert "required, not given" in said
    assert "Field required" not in said
    latest = latest_checkpoint(ledger.read_models.engine, league_id(slug))
    assert latest is not None
    assert latest.checkpoint == Checkpoint.model_validate_json(signed.read_text())


def test_verify_on_a_ledger_without_a_league_fails(
    tmp_path: Path, open_ledgers: Callable[[Settings], LeagueLedger]
) -> None:
    empty = tmp_path / "empty.db"
    open_ledgers(Settings(sqlite_path=empty, user="tester"))
    done = ledger_cli(empty, "audit", "verify")
    assert done.returncode != 0
    assert done.stderr.startswith("error[unknown-league]: this ledger holds no league")
