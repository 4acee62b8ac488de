"""``ledger account add`` and ``remove`` act in a league named by ledger's own option,
before the subcommand (``ledger --league SLUG account add ...``): their help says so, and
the command line it shows runs as written (``account add ... --league`` is no option)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.cli.inprocess import run_argv, run_ledger


def help_of(*command: str) -> str:
    done = run_argv(["ledger", *command, "--help"])
    assert done.code == 0, done.err
    return " ".join(done.out.split())  # as one line, however the terminal wrapped it


@pytest.mark.parametrize("command", ["add", "remove"])
def test_the_help_names_the_league_option_before_the_subcommand(command: str) -> None:
    said = help_of("account", command)
    assert f"'ledger --league SLUG account {command}" in said
    assert "(of --league)" not in said
    assert "in --league)" not in said


def test_the_command_line_the_help_shows_grants_the_role(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    run_ledger(db, "league", "create", "demo", "--name", "Demo", "--ruleset", "bb2025", check=True)
    register = ["team", "register", "reikland-reavers", "--name", "Reavers", "--coach", "Jay"]
    run_ledger(db, *register, "--roster", "human", check=True)
    shown = re.search(r"'(ledger --league demo account add [^']+)'", help_of("account", "add"))
    assert shown, "the help shows no example"
    argv = shown.group(1).split()
    done = run_argv([argv[0], "--db", str(db), *argv[1:]])
    assert done.code == 0, done.err
    assert "coach of reikland-reavers in league demo" in done.out
    removed = run_argv(["ledger", "--db", str(db), "-l", "demo", "account", "remove", "jay"])
    assert removed.code == 0, removed.err  # -l, the option's short name
    assert "no longer has a role in league demo" in removed.out
    misplaced = run_argv(["ledger", "--db", str(db), "account", "add", "x", "--league", "demo"])
    assert misplaced.code != 0
    assert "No such option '--league'" in misplaced.err
