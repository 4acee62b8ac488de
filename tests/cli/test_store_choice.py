"""Which store a command works on: an explicit ``--db`` wins over the environment, and
the output says so when the environment named another (the integrity report's F11, F12)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cli.main import Session
from cli.serve import run
from ledger.settings import settings_from
from tests.cli.inprocess import run_argv, run_ledger

URL = "postgresql://nobody@127.0.0.1:1/none"
"""A PostgreSQL server that is not there: a command that tried it would fail."""

CHOICES = [
    # --db, environment, the store chosen
    (None, {}, "sqlite:ledger.db"),
    (None, {"LEDGER_DB": "env.db"}, "sqlite:env.db"),
    (None, {"LEDGER_DATABASE_URL": URL}, "postgresql"),
    (None, {"LEDGER_DATABASE_URL": URL, "LEDGER_DB": "env.db"}, "postgresql"),
    ("copy.db", {"LEDGER_DATABASE_URL": URL}, "sqlite:copy.db"),
    ("copy.db", {"LEDGER_DATABASE_URL": "mysql://x/y"}, "sqlite:copy.db"),
    ("copy.db", {"LEDGER_DB": "env.db"}, "sqlite:copy.db"),
]


@pytest.mark.parametrize(("db", "environ", "store"), CHOICES)
def test_an_explicit_db_wins_over_the_environment(
    db: str | None, environ: dict[str, str], store: str
) -> None:
    assert settings_from(db, environ).store == store


def test_a_command_on_a_db_file_uses_it_and_says_the_url_is_not_used(tmp_path: Path) -> None:
    db = tmp_path / "copy.db"
    run_ledger(db, "league", "create", "owl", "--name", "Owl", "--ruleset", "bb2025", check=True)
    listed = run_ledger(db, "league", "list", env={"LEDGER_DATABASE_URL": URL})
    assert listed.code == 0, listed.err
    assert "owl" in listed.out
    assert f"ledger: using {db} (--db); $LEDGER_DATABASE_URL is not used" in listed.err


def test_serving_a_db_file_hands_its_workers_that_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workers read the store from the environment (ledger/web/app.py serve_app)."""
    monkeypatch.setenv("LEDGER_DATABASE_URL", URL)
    monkeypatch.setenv("LEDGER_DB", "restored.db")  # so the test leaves it as it was
    monkeypatch.setattr("uvicorn.run", lambda *args, **kwargs: None)
    db = tmp_path / "copy.db"
    run(Session(settings=settings_from(str(db)), league_option=None, user="t"), "127.0.0.1", 1)
    assert "LEDGER_DATABASE_URL" not in os.environ
    assert settings_from().store == f"sqlite:{db}"


def test_the_demo_is_sqlite_and_says_the_url_is_not_used(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    built = run_argv(["ledger", "demo", "--dir", str(folder)], env={"LEDGER_DATABASE_URL": URL})
    assert built.code == 0, built.err
    assert f"the demo builds its own SQLite ledger ({folder / 'demo.db'})" in built.err
    assert f"ledger --db {folder / 'demo.db'} " in built.out
    standings = run_ledger(folder / "demo.db", "standings", env={"LEDGER_DATABASE_URL": URL})
    assert standings.code == 0, standings.err
