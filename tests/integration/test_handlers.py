"""The table of command handlers (ledger/application/handlers.py): every command has one,
the ledger the composition root opens answers each through it, and a command it has no
handler for is refused, nothing written."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from ledger.application import commands as cmd
from ledger.application.handlers import HANDLERS, ROWS
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Handlers, Settings, close_ledger, open_ledger
from ledger.errors import InsufficientTreasury, InvalidInput, LedgerError
from tests.support import create_league, event_count


def every_command() -> set[type[cmd.Command[object]]]:
    return {
        kind
        for kind in vars(cmd).values()
        if isinstance(kind, type)
        and issubclass(kind, cmd.Command)
        and kind not in (cmd.Command, cmd.Change)
    }


def test_every_command_has_exactly_one_handler() -> None:
    assert set(HANDLERS) == every_command()
    assert len(ROWS) == len(HANDLERS)  # no command wired twice


def test_the_ledger_answers_through_the_table_bootstrap_installs(
    sqlite_ledger: LeagueLedger,
) -> None:
    assert isinstance(sqlite_ledger.handlers, Handlers)
    assert sqlite_ledger.handlers.table is HANDLERS
    assert dict(sqlite_ledger.handlers) == HANDLERS


READ_ONLY = """
import sys
from pathlib import Path
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.projections.queries import Queries
from ledger.rules import find_ruleset
ledger = open_ledger(Settings(sqlite_path=Path(sys.argv[1])))
row = ledger.league_row("test")
Queries(ledger.read_models.engine, row, find_ruleset(row.ruleset, row.options)).standings()
close_ledger(ledger)
print("ledger.application.handlers" in sys.modules, "ledger.application.teams" in sys.modules)
"""


def test_a_ledger_opened_to_read_imports_no_handler(tmp_path: Path) -> None:
    """The handlers (and the rules and commands they import) load when a command first
    asks for them: ``ledger standings`` starts without them."""
    path = tmp_path / "ledger.db"
    ledger = open_ledger(Settings(sqlite_path=path, user="tester"))
    try:
        create_league(ledger)
    finally:
        close_ledger(ledger)
    done = subprocess.run(
        [sys.executable, "-c", READ_ONLY, str(path)], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "False"]


@dataclass(frozen=True)
class Unwired(cmd.Change):
    team: str


def test_a_command_without_a_handler_is_refused_and_writes_nothing(
    sqlite_ledger: LeagueLedger,
) -> None:
    create_league(sqlite_ledger, "test", "bb2025")
    before = event_count(sqlite_ledger)
    with pytest.raises(LedgerError, match="no handler for Unwired"):
        sqlite_ledger.handle(Unwired("test", "reavers"), by="tester")
    assert event_count(sqlite_ledger) == before


def test_a_draft_out_of_the_domains_bounds_is_refused_first_with_nothing_written(
    sqlite_ledger: LeagueLedger,
) -> None:
    """A draft is validated when it is built: a name too long for the books is said
    before the rules the command would check next (here, a treasury with nothing in it)."""
    create_league(sqlite_ledger, "test", "bb2025")
    register = cmd.RegisterTeam("test", "reavers", "Reavers", "Jay", "human", treasury=0)
    sqlite_ledger.handle(register, by="tester")
    before = event_count(sqlite_ledger)
    with pytest.raises(InvalidInput, match=r"^name: .*at most 100 characters"):
        sqlite_ledger.handle(cmd.HirePlayer("test", "reavers", "lineman", "x" * 150), by="t")
    with pytest.raises(InsufficientTreasury):
        sqlite_ledger.handle(cmd.HirePlayer("test", "reavers", "lineman", "Otto"), by="t")
    assert event_count(sqlite_ledger) == before
