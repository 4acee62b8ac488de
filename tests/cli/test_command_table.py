"""The root command loads each subcommand's module lazily, from one table: every command a
module declares must be in that table under its own name, or ``ledger`` would not find it."""

from __future__ import annotations

import importlib

import click

from cli.main import COMMAND_MODULES, cli


def test_every_declared_command_is_found_by_its_name() -> None:
    declared = {
        command.name: module
        for module in set(COMMAND_MODULES.values())
        for command in importlib.import_module(module).COMMANDS
    }
    assert declared == COMMAND_MODULES
    context = click.Context(cli)
    for name in COMMAND_MODULES:
        found = cli.get_command(context, name)
        assert found is not None
        assert found.name == name
