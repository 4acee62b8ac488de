"""``ledger rebuild`` folds the log once: when opening the ledger has just rebuilt read
models another version of the code wrote, the command says so rather than folding the
whole log a second time (on the 10^5 benchmark ledger, 27 s instead of 55 s)."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from ledger.projections.runner import ReadModels
from tests.cli.inprocess import run_ledger


@pytest.fixture
def db(tmp_path: Path) -> Path:
    db = tmp_path / "ledger.db"
    run_ledger(db, "generate", "--teams", "4", "--slug", "owl", check=True)
    return db


@pytest.fixture
def folds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The events of each whole-log fold made."""
    made: list[int] = []
    real = ReadModels.rebuild_once

    def counted(self: ReadModels, *args: object, **kwargs: object) -> object:
        stats = real(self, *args, **kwargs)  # type: ignore[arg-type]
        made.append(stats.events)
        return stats

    monkeypatch.setattr(ReadModels, "rebuild_once", counted)
    return made


def test_read_models_of_another_code_are_rebuilt_once(db: Path, folds: list[int]) -> None:
    with contextlib.closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("UPDATE rm_position SET fingerprint = 'another version of the fold'")
    done = run_ledger(db, "rebuild", check=True)
    assert len(folds) == 1
    assert done.out.strip() == f"Rebuilt the read models from {folds[0]:,} events."


def test_current_read_models_are_rebuilt_when_asked(db: Path, folds: list[int]) -> None:
    done = run_ledger(db, "rebuild", check=True)
    assert len(folds) == 1
    assert "Rebuilt the read models" in done.out
