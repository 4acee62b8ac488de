"""``ledger run SCRIPT``: many ledger commands from a file, in one process.

One command per line, written as after ``ledger`` on the shell (``team hire reavers
lineman "Otto Brandt" --number 6``); blank lines and ``#`` comments are skipped; file
paths are relative to the script. The first error stops the script and names its line;
every command before it stays recorded (each command is atomic on its own).
"""

from __future__ import annotations

import contextlib
import os
import shlex
from collections.abc import Iterator
from pathlib import Path

import click

from cli.main import Session, cli, pass_session
from ledger.errors import InvalidInput, LedgerError

NOT_IN_SCRIPTS = {"run", "demo"}


@contextlib.contextmanager
def working_directory(folder: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def commands(script: Path) -> Iterator[tuple[int, list[str]]]:
    for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
        try:
            args = shlex.split(line, comments=True)
        except ValueError as error:
            raise InvalidInput(f"{script}:{number}: {error}") from None
        if args:
            yield number, args


@click.command("run")
@click.argument("script", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@pass_session
def run(session: Session, script: Path) -> None:
    """Run the ledger commands in SCRIPT, one per line, stopping at the first error."""
    session.ledger()  # open the store before moving to the script's folder
    with working_directory(script.resolve().parent):
        for number, args in commands(script):
            if args[0] in NOT_IN_SCRIPTS:
                raise InvalidInput(f"{script}:{number}: '{args[0]}' cannot run in a script")
            try:
                cli.main(args, prog_name="ledger", standalone_mode=False, obj=session)
            except LedgerError as error:
                error.message = f"{script.name}:{number}: {error.message}"
                raise
            except click.ClickException as error:
                raise InvalidInput(f"{script.name}:{number}: {error.format_message()}") from None


COMMANDS = [run]
