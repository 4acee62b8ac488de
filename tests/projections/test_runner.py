"""The runner's bookkeeping: a rebuild leaves tables the next open takes as current."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.projections.runner import ReadModels
from ledger.projections.shapes import fingerprint
from tests.support import create_league, draft_team


def test_a_rebuilt_ledger_opens_without_rebuilding_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "ledger.db"
    ledger = open_ledger(Settings(sqlite_path=db))
    create_league(ledger)
    draft_team(ledger, "test", "reavers", "human", ["lineman"] * 11)
    ledger.read_models.rebuild(ledger.source)
    assert ledger.read_models.stored_fingerprint() == fingerprint()
    close_ledger(ledger)

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("the read models were rebuilt on open")

    monkeypatch.setattr(ReadModels, "rebuild", refuse)
    reopened = open_ledger(Settings(sqlite_path=db))
    assert reopened.read_models.create()
    close_ledger(reopened)


def test_tables_of_another_version_are_rebuilt_once_on_open(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    ledger = open_ledger(Settings(sqlite_path=db))
    create_league(ledger)
    with ledger.read_models.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE rm_position SET fingerprint = 'older code'")
    close_ledger(ledger)

    reopened = open_ledger(Settings(sqlite_path=db))
    assert reopened.read_models.stored_fingerprint() == fingerprint()
    assert reopened.read_models.position() == reopened.source.head()
    close_ledger(reopened)
