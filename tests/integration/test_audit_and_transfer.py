"""The log can be backed up, restored identically, and checked for tampering."""

from __future__ import annotations

import io
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest
import sqlalchemy as sa

from ledger.application.audit import verify_chain
from ledger.application.commands import Buy, ClosePostGame, RecordMatch
from ledger.application.service import LeagueLedger
from ledger.application.transfer import export_lines
from ledger.bootstrap import Settings
from ledger.domain.log import league_id
from ledger.domain.state import FaultLine, PlayerRow, TeamRow
from ledger.domain.unreadable import NOT_UTF8
from ledger.errors import ImportRefused
from tests.support import report, two_team_league

GAME = {
    "match": "g1",
    "home": {
        "team": "reavers",
        "players": [{"player": "reavers 1", "td": 1, "mvp": 1}],
        "dice": {"fan_factor": 3, "dedicated_fans": 2},
    },
    "away": {
        "team": "rats",
        "players": [{"player": "rats 2", "mvp": 1}],
        "dice": {"fan_factor": 1, "dedicated_fans": 5},
    },
    "casualties": [{"victim": "rats 5", "by": "reavers 3", "roll": 13, "lasting": 6}],
}


def played_league(ledger: LeagueLedger) -> str:
    slug = two_team_league(ledger)
    ledger.handle(Buy(slug, "reavers", "reroll", 1), by="tester")
    ledger.handle(RecordMatch(slug, report(GAME)), by="tester")
    ledger.handle(ClosePostGame(slug, "g1", "reavers", dice={"expensive_mistakes": 5}), by="tester")
    ledger.handle(ClosePostGame(slug, "g1", "rats", dice={"expensive_mistakes": 4}), by="tester")
    return slug


def export_bytes(ledger: LeagueLedger, slug: str) -> bytes:
    return b"".join(export_lines(ledger.recorder, slug))


def test_export_then_import_gives_the_identical_log(
    ledger: LeagueLedger, tmp_path: Path, open_ledgers: Callable[[Settings], LeagueLedger]
) -> None:
    slug = played_league(ledger)
    exported = export_bytes(ledger, slug)
    fresh = open_ledgers(Settings(sqlite_path=tmp_path / "restored.db"))
    assert fresh.import_log(io.BytesIO(exported)) == (slug, 29)
    fresh.catch_up()
    assert export_bytes(fresh, slug) == exported
    assert verify_chain(fresh.recorder, league_id(slug), slug).ok
    original = ledger.view().select(PlayerRow, league_id=str(league_id(slug)))
    restored = fresh.view().select(PlayerRow, league_id=str(league_id(slug)))
    assert original == restored


def test_import_refuses_a_store_that_already_holds_the_league(ledger: LeagueLedger) -> None:
    slug = played_league(ledger)
    with pytest.raises(ImportRefused, match="already holds league 'test'"):
        ledger.import_log(io.BytesIO(export_bytes(ledger, slug)))


def test_import_refuses_an_edited_file_and_writes_nothing(
    sqlite_ledger: LeagueLedger,
    tmp_path: Path,
    open_ledgers: Callable[[Settings], LeagueLedger],
) -> None:
    slug = played_league(sqlite_ledger)
    lines = export_bytes(sqlite_ledger, slug).splitlines()
    row = orjson.loads(lines[5])
    row["event"]["price"] = 1
    lines[5] = orjson.dumps(row)
    fresh = open_ledgers(Settings(sqlite_path=tmp_path / "restored.db"))
    with pytest.raises(ImportRefused, match=r"event 5 .* altered after it was recorded"):
        fresh.import_log(io.BytesIO(b"\n".join(lines)))
    assert fresh.source.head() == 0
    with pytest.raises(ImportRefused, match="truncated"):
        fresh.import_log(io.BytesIO(b"\n".join(lines[:-2])))


def header_edited(lines: list[bytes], **fields: object) -> None:
    lines[0] = orjson.dumps({**orjson.loads(lines[0]), **fields})


def cut_at_a_line_end(lines: list[bytes]) -> None:
    """Truncated where a line ends, the count edited to match: the chain still holds."""
    del lines[-3:]
    header_edited(lines, events=len(lines) - 1)


BAD_FILES: dict[str, tuple[Callable[[list[bytes]], None], str]] = {
    "cut in a line": (
        lambda lines: lines.__setitem__(-1, lines[-1][:40]),
        r"line 30 is not JSON: unexpected end of data at column 41 \(the file is truncated\?\)",
    ),
    "garbage after the last event": (
        lambda lines: lines.append(b"garbage"),
        "line 31 is not JSON: unexpected character, expected a JSON value at column 1",
    ),
    "a byte that is not UTF-8": (
        lambda lines: lines.__setitem__(3, lines[3][:30] + b"\xff" + lines[3][31:]),
        "line 4 is not JSON: it is not UTF-8 text",
    ),
    "blank lines counted": (
        lambda lines: lines.__setitem__(1, b"\n\n" + lines[1][:-2]),
        r"line 4 is not JSON: unexpected end of data at column \d+$",
    ),
    "a newer format": (
        lambda lines: header_edited(lines, version=2),
        r"the file's format version 2 is not one this ledger reads \(version 1\)",
    ),
    "a last hash that is not the chain's": (
        lambda lines: header_edited(lines, last_hash="0" * 64),
        r"the header's last hash 0{16}\.\.\. is not the last event's",
    ),
    "cut at a line end, its count edited": (
        cut_at_a_line_end,
        r"the header's last hash \w{16}\.\.\. is not the last event's",
    ),
}


@pytest.mark.parametrize("bad", BAD_FILES, ids=str)
def test_import_refuses_a_bad_file_naming_its_line_and_writes_nothing(
    bad: str, ledger: LeagueLedger, tmp_path: Path, open_ledgers: Callable[[Settings], LeagueLedger]
) -> None:
    slug = played_league(ledger)
    lines = export_bytes(ledger, slug).splitlines()
    edit, expected = BAD_FILES[bad]
    edit(lines)
    fresh = open_ledgers(Settings(sqlite_path=tmp_path / "restored.db"))
    with pytest.raises(ImportRefused) as refused:
        fresh.import_log(io.BytesIO(b"\n".join(lines)))
    assert re.match(expected, str(refused.value)), str(refused.value)
    assert "\n" not in str(refused.value)
    assert fresh.source.head() == 0


def test_audit_names_the_event_altered_in_the_sqlite_file(
    sqlite_ledger: LeagueLedger, tmp_path: Path
) -> None:
    slug = played_league(sqlite_ledger)
    assert verify_chain(sqlite_ledger.recorder, league_id(slug), slug).ok
    with sqlite3.connect(tmp_path / "ledger.db") as db:
        (state,) = db.execute(
            "SELECT state FROM stored_events WHERE originator_version = 7"
        ).fetchone()
        tampered = orjson.loads(state)
        tampered["price"] = tampered["price"] - 25_000
        db.execute(
            "UPDATE stored_events SET state = ? WHERE originator_version = 7",
            (orjson.dumps(tampered),),
        )
    found = verify_chain(sqlite_ledger.recorder, league_id(slug), slug)
    assert [(b.seq, b.topic.split(":")[-1]) for b in found.breaks] == [(7, "PlayerHired")]
    assert "altered after it was recorded" in found.breaks[0].problem


def test_rewriting_an_event_with_its_hash_breaks_the_chain_at_the_next(
    sqlite_ledger: LeagueLedger, tmp_path: Path
) -> None:
    from ledger.domain.events import content_hash

    slug = played_league(sqlite_ledger)
    with sqlite3.connect(tmp_path / "ledger.db") as db:
        topic, state = db.execute(
            "SELECT topic, state FROM stored_events WHERE originator_version = 7"
        ).fetchone()
        forged = orjson.loads(state)
        forged["price"] = 1
        forged["hash"] = content_hash(topic, forged)
        db.execute(
            "UPDATE stored_events SET state = ? WHERE originator_version = 7",
            (orjson.dumps(forged),),
        )
    found = verify_chain(sqlite_ledger.recorder, league_id(slug), slug)
    assert [b.seq for b in found.breaks] == [8]
    assert "chain is broken" in found.breaks[0].problem


def test_rebuilding_the_read_models_gives_the_same_tables(ledger: LeagueLedger) -> None:
    slug = played_league(ledger)
    lid = str(league_id(slug))
    before = (
        ledger.view().select(TeamRow, league_id=lid),
        ledger.view().select(PlayerRow, league_id=lid),
    )
    stats = ledger.read_models.rebuild(ledger.source)
    assert stats.events == ledger.source.head()
    after = (
        ledger.view().select(TeamRow, league_id=lid),
        ledger.view().select(PlayerRow, league_id=lid),
    )
    assert after == before


NOT_UTF8_EDIT = {
    # sqlite3's || makes TEXT, as a hand edit in the sqlite3 shell stores it
    "sqlite": "UPDATE {table} SET state = CAST(substr(state, 1, 40) AS BLOB)"
    " || X'FF' || substr(state, 42) WHERE originator_version = 7",
    "postgresql": "UPDATE {table} SET state = overlay(state placing '\\xff'::bytea"
    " from 41 for 1) WHERE originator_version = 7",
}


def test_one_stored_event_that_is_not_utf8_is_unreadable_and_the_rest_reads(
    ledger: LeagueLedger,
) -> None:
    slug = played_league(ledger)
    engine = ledger.read_models.engine
    with engine.begin() as db:
        table = ledger.recorder.events_table_name  # type: ignore[attr-defined]
        db.execute(sa.text(NOT_UTF8_EDIT[engine.dialect.name].format(table=table)))
        if engine.dialect.name == "sqlite":
            stored_as = "SELECT typeof(state) FROM stored_events WHERE originator_version = 7"
            assert db.execute(sa.text(stored_as)).scalar() == "text"
    found = verify_chain(ledger.recorder, league_id(slug), slug)
    assert found.events == 29
    assert (found.breaks[0].seq, found.breaks[0].problem) == (7, NOT_UTF8)
    assert len(export_bytes(ledger, slug).splitlines()) == 30
    ledger.read_models.rebuild(ledger.source)
    faults = ledger.view().select(FaultLine, league_id=str(league_id(slug)))
    assert [(f.seq, f.problem) for f in faults] == [(7, NOT_UTF8)]
