"""``ledger --help`` answers at once: the root command imports neither the store, nor
SQLAlchemy, nor the rulesets (issue 14: under 0.3 s of CPU); its command list comes from
``COMMAND_SUMMARIES``, which must say what each command's own docstring says."""

from __future__ import annotations

import importlib

import click

from cli.main import COMMAND_MODULES, COMMAND_SUMMARIES, cli
from tests.cli.fresh import imported

STORE_AND_RULES = ("sqlalchemy", "eventsourcing", "pydantic", "ledger.rules", "ledger.bootstrap")


def probe(*args: str) -> tuple[str, dict[str, object]]:
    seen = imported(list(args), STORE_AND_RULES)
    return seen.out, {"code": seen.code, "heavy": seen.heavy}


def test_help_imports_nothing_of_the_store_or_the_rulesets() -> None:
    out, seen = probe("--help")
    assert seen == {"code": 0, "heavy": []}
    assert "standings" in out
    assert "The league table per division" in out


def test_completion_script_imports_nothing_of_the_store_either() -> None:
    out, seen = probe("completion", "bash")
    assert seen == {"code": 0, "heavy": []}
    assert "_LEDGER_COMPLETE" in out


def test_a_command_still_loads_what_it_needs() -> None:
    """The probe itself is sound: a command that reads the rulesets imports them."""
    out, seen = probe("rulesets")
    assert seen["code"] == 0
    assert any(str(m).startswith("ledger.rules") for m in seen["heavy"])  # type: ignore[attr-defined]
    assert "bb2025" in out


def test_each_summary_is_what_its_command_says_of_itself() -> None:
    assert set(COMMAND_SUMMARIES) == set(COMMAND_MODULES)
    context = click.Context(cli)
    for name, module in COMMAND_MODULES.items():
        importlib.import_module(module)
        command = cli.get_command(context, name)
        assert command is not None
        said = click.Command(name, help=COMMAND_SUMMARIES[name]).get_short_help_str(1000)
        assert said == command.get_short_help_str(1000), name
