"""A rebuilt read model equals the incremental one in the database itself, to the byte:
the same SQL NULLs and the same JSON text (issue 11, problem 10)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ledger.application.service import LeagueLedger
from ledger.projections import runner
from ledger.projections.sql import ALL_TABLES
from tests.integration.test_audit_and_transfer import played_league


def raw_tables(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(path) as db:
        return {
            table.name: sorted(db.execute(f'SELECT * FROM "{table.name}"').fetchall(), key=repr)
            for table in ALL_TABLES
        }


def test_rebuilt_rows_are_stored_exactly_as_incremental_ones(
    sqlite_ledger: LeagueLedger, tmp_path: Path
) -> None:
    played_league(sqlite_ledger)
    incremental = raw_tables(tmp_path / "ledger.db")
    with sqlite3.connect(tmp_path / "ledger.db") as db:
        (points,) = db.execute("SELECT points FROM rm_leagues").fetchone()
    assert points is None  # not the JSON text 'null'
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert raw_tables(tmp_path / "ledger.db") == incremental


def test_a_rebuild_that_fails_half_way_leaves_the_read_models_as_they_were(
    sqlite_ledger: LeagueLedger, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rebuild's DROP TABLE is inside its transaction (SQLite's driver would commit it
    at once): a rebuild killed or failing after the drop changes nothing."""
    played_league(sqlite_ledger)
    before = raw_tables(tmp_path / "ledger.db")

    def killed(*_: object) -> None:
        raise KeyboardInterrupt  # as a kill would stop it, after the tables were dropped

    monkeypatch.setattr(runner, "copy_into", killed)
    with pytest.raises(KeyboardInterrupt):
        sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert raw_tables(tmp_path / "ledger.db") == before
