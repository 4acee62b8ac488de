"""Refused account commands write nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.cli.inprocess import run_ledger


def test_a_password_too_short_adds_no_account(tmp_path: Path) -> None:
    db = tmp_path / "owl.db"
    run_ledger(db, "league", "create", "owl", "--name", "Owl", "--ruleset", "bb2025", check=True)
    ledger = str(Path(sys.executable).with_name("ledger"))
    done = subprocess.run(
        [ledger, "--db", str(db), "account", "add", "ann", "--role", "admin", "--password-stdin"],
        input="short\n",
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "error[invalid-input]: a password needs 8 to 1024 characters (this one has 5)"
    ]
    listed = run_ledger(db, "account", "list", check=True).out
    assert "ann" not in listed
