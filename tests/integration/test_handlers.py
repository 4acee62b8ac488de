"""The table of command handlers (ledger/application/handlers.py): every command has one,
the ledger the composition root opens answers each through it, and a command it has no
handler for is refused, nothing written."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ledger.application import commands as cmd
from ledger.application.handlers import HANDLERS, ROWS
from ledger.application.service import LeagueLedger
from ledger.errors import LedgerError
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
    assert sqlite_ledger.handlers is HANDLERS


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
