"""A SQLite ledger's read models opened through a plain sqlite3 connection
(ledger/projections/lean.py) only when they are current: every table there, this code's
fingerprint, no event past the position. Anything else is left to ``open_ledger``."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.state import LeagueRow, TeamRow
from ledger.projections.leagues import league_row
from ledger.projections.lean import EVENTS_TABLE, HEAD, open_current
from ledger.projections.queries import Queries
from ledger.projections.shapes import RECORDS, fingerprint, shape_of
from ledger.rules import find_ruleset
from ledger.rules.protocol import Ruleset
from tests.cli.inprocess import copy_of, run_ledger


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("lean") / "lean.db"
    run_ledger(db, "generate", "--teams", "4", "--slug", "owl", check=True)
    return db


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    return copy_of(template, tmp_path)


def change(db: Path, *statements: str) -> None:
    with contextlib.closing(sqlite3.connect(db)) as connection, connection:
        for statement in statements:
            connection.execute(statement)


def ruleset_of(row: LeagueRow) -> Ruleset:
    return find_ruleset(row.ruleset, row.options)


def test_current_read_models_open_and_answer_as_the_ledger_does(db: Path) -> None:
    tables = open_current(db)
    assert tables is not None
    try:
        row = league_row(tables, "owl")
        lean = Queries(tables, row, ruleset_of(row)).standings()
    finally:
        tables.close()
    ledger = open_ledger(Settings(sqlite_path=db))
    try:
        full = Queries(ledger.read_models.engine, ledger.league_row("owl"), ruleset_of(row))
        assert lean == full.standings()
    finally:
        close_ledger(ledger)


def test_read_models_behind_the_log_are_not_current(db: Path) -> None:
    change(db, "UPDATE rm_position SET notification_id = notification_id - 1")
    assert open_current(db) is None


def test_read_models_of_another_code_are_not_current(db: Path) -> None:
    change(db, "UPDATE rm_position SET fingerprint = 'another version of the fold'")
    assert open_current(db) is None


@pytest.mark.parametrize("table", ["rm_faults", "rm_position", EVENTS_TABLE])
def test_a_missing_table_is_not_current(db: Path, table: str) -> None:
    change(db, f"DROP TABLE {table}")
    assert open_current(db) is None


def test_what_is_no_ledger_is_left_to_the_ledgers_own_open(tmp_path: Path) -> None:
    garbage = tmp_path / "notes.db"
    garbage.write_text("not a database, whatever its name says\n" * 100)
    empty = tmp_path / "empty.db"
    empty.touch()
    assert open_current(garbage) is None
    assert open_current(empty) is None
    assert open_current(tmp_path / "missing.db") is None
    assert open_current(tmp_path) is None  # a folder
    assert not (tmp_path / "missing.db").exists()  # nothing made on the way


def test_every_table_the_check_asks_for_is_a_record_classs(db: Path) -> None:
    with contextlib.closing(sqlite3.connect(db)) as connection:
        found = {name for (name,) in connection.execute("SELECT name FROM sqlite_master")}
        stored = connection.execute("SELECT fingerprint FROM rm_position").fetchone()
    assert {shape_of(kind).table for kind in RECORDS} <= found
    assert stored == (fingerprint(),)


@pytest.mark.parametrize("kind", RECORDS, ids=lambda kind: kind.__name__)
def test_a_tables_columns_are_its_record_classs_fields_in_order(kind: type) -> None:
    # The shapes read the fields off the plain class itself (a command's start works out
    # every shape for the fingerprint, and the pydantic twin costs more to build): they
    # must be the twin's fields, in the twin's order, which the rows are written in.
    assert shape_of(kind).columns == tuple(kind.model_fields)


def test_the_head_is_asked_as_the_event_stores_recorder_asks_it(db: Path) -> None:
    ledger = open_ledger(Settings(sqlite_path=db))
    try:
        recorder = ledger.recorder
        assert recorder.select_max_notification_id_statement == HEAD  # type: ignore[attr-defined]
        assert recorder.events_table_name == EVENTS_TABLE  # type: ignore[attr-defined]
        with contextlib.closing(sqlite3.connect(db)) as connection:
            assert connection.execute(HEAD).fetchone() == (ledger.source.head(),)
    finally:
        close_ledger(ledger)


def test_the_check_and_the_answers_read_one_snapshot(db: Path) -> None:
    """A write committed after the check is not half seen: the answers are those of the
    read models the check found current."""
    tables = open_current(db)
    assert tables is not None
    try:
        before = tables.get(TeamRow, league_row(tables, "owl").league_id, "t001")
        run_ledger(
            db, "--league", "owl", "team", "adjust", "t001", "10000", "--reason", "x", check=True
        )
        tables.forget()
        after = tables.get(TeamRow, tables.select(LeagueRow)[0].league_id, "t001")
        assert before is not None
        assert after == before
    finally:
        tables.close()
    reopened = open_current(db)
    assert reopened is not None
    try:
        moved = reopened.get(TeamRow, league_row(reopened, "owl").league_id, "t001")
        assert moved is not None
        assert moved.treasury == before.treasury + 10000
    finally:
        reopened.close()
