"""``ledger run SCRIPT``: many ledger commands from a file, in one process, as one unit.

One command per line, written as after ``ledger`` on the shell (``team hire reavers
lineman "Otto Brandt" --number 6``); blank lines and ``#`` comments are skipped; file
paths are relative to the script.

By default the script is all or nothing: its commands run one after another inside one
``LeagueLedger.atomic()`` unit, each validated against what the lines before it did, and
their events are stored together when the last line has run. The first error names its
line and nothing of the script is stored, so the script can be fixed and run again
whole. What the commands print is held back until the unit is stored. If another writer
records in the same league meanwhile, the whole script is run again on fresh state.

``--each`` stores line by line instead (a long script, or one that imports or rebuilds):
an error stops it, says which lines are stored and how to resume (``--from LINE``).
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import time
from collections.abc import Iterator
from pathlib import Path

import click

from cli.main import Session, cli, pass_session
from cli.output import open_to_read, say
from ledger.errors import ConcurrentUpdate, InvalidInput, LedgerError
from ledger.words import plural

NOT_IN_SCRIPTS = {"run", "demo", "serve"}
ON_THEIR_OWN = {"import", "rebuild", "generate"}
"""Commands that store in transactions of their own, outside a unit: only with --each."""
READS = {
    *("roster", "teams", "standings", "leaders", "treasury", "history", "whatif"),
    *("audit", "export", "report", "schema", "rulesets", "league list", "league show"),
    *("match list", "match show", "rules"),
}
"""Commands that only read. Most read the stored tables, which a unit changes only when
it is stored: so in a unit they run after it, and only at the end of the script."""

RETRIES = 5

Line = tuple[int, list[str]]


@contextlib.contextmanager
def working_directory(folder: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def script_text(script: Path) -> str:
    """The script's text: a regular file (``run /dev/zero`` read for ever), UTF-8."""
    with open_to_read(script) as file:
        data = file.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidInput(
            f"{script.name} is not UTF-8 text (byte {error.start}): save it as UTF-8"
        ) from None


def commands(script: Path, start: int = 1) -> Iterator[Line]:
    for number, line in enumerate(script_text(script).splitlines(), 1):
        if number < start:
            continue
        try:
            args = shlex.split(line, comments=True)
        except ValueError as error:
            raise InvalidInput(f"{script.name}:{number}: {error}") from None
        if args:
            yield number, args


@click.command("run")
@click.argument("script", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--each",
    is_flag=True,
    help="Store each line as it runs (not the whole script as one unit); an error says"
    " which lines are stored and how to resume.",
)
@click.option(
    "--from",
    "start",
    type=click.IntRange(min=1),
    default=1,
    metavar="LINE",
    help="Start at line LINE of SCRIPT (to resume a script stopped under --each).",
)
@pass_session
def run(session: Session, script: Path, each: bool, start: int) -> None:
    """Run the ledger commands in SCRIPT, one per line, all or nothing (or --each)."""
    lines = list(commands(script, start))  # a malformed line refuses the script up front
    if not lines:
        raise InvalidInput(f"{script.name} has no command from line {start} on")
    refuse_unrunnable(script, lines, each)
    session.ledger()  # open the store before moving to the script's folder
    with working_directory(script.resolve().parent):
        if each:
            run_each(session, script, lines)
        else:
            run_unit(session, script, lines)


def refuse_unrunnable(script: Path, lines: list[Line], each: bool) -> None:
    for number, args in lines:
        if args[0] in NOT_IN_SCRIPTS:
            raise InvalidInput(f"{script.name}:{number}: '{args[0]}' cannot run in a script")
        if args[0] in ON_THEIR_OWN and not each:
            raise InvalidInput(
                f"{script.name}:{number}: '{args[0]}' stores on its own, so it cannot be part"
                " of the script's unit: run the script with --each"
            )


def is_read(args: list[str]) -> bool:
    return args[0] in READS or " ".join(args[:2]) in READS


def command_name(args: list[str]) -> str:
    return " ".join(args[:2]) if " ".join(args[:2]) in READS else args[0]


def split_reads(script: Path, lines: list[Line]) -> tuple[list[Line], list[Line]]:
    """The lines that record, and the reading lines after the last of them; a reading
    line before a recording one would show the ledger without the unit: refused."""
    last = max((i for i, (_, args) in enumerate(lines) if not is_read(args)), default=-1)
    for number, args in lines[:last]:
        if is_read(args):
            raise InvalidInput(
                f"{script.name}:{number}: '{command_name(args)}' only reads, and a script stored"
                " as one unit is read once stored: move the line to the end, or use --each"
            )
    return lines[: last + 1], lines[last + 1 :]


def run_unit(session: Session, script: Path, lines: list[Line]) -> None:
    writes, reads = split_reads(script, lines)
    if writes:
        store_unit(session, script, writes)
    for number, args in reads:
        run_line(session, script, number, args, "the lines before it are stored")


def store_unit(session: Session, script: Path, lines: list[Line]) -> None:
    """All the lines in one unit; tried again whole if another writer got in first."""
    ledger = session.ledger()
    for attempt in range(RETRIES):
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed), ledger.atomic():
                for number, args in lines:
                    run_line(session, script, number, args, "nothing of the script was stored")
        except ConcurrentUpdate:
            time.sleep(0.05 * (attempt + 1))
            continue
        click.echo(printed.getvalue(), nl=False)
        say(f"Stored {plural(len(lines), 'command')} of {script.name} as one unit.")
        return
    raise ConcurrentUpdate(
        f"the ledger kept changing while {script.name} ran; nothing of it was stored, try again"
    )


def run_each(session: Session, script: Path, lines: list[Line]) -> None:
    first = lines[0][0]
    for number, args in lines:
        run_line(session, script, number, args, stored_before(script, first, number))
    say(f"Stored {len(lines)} commands of {script.name}, one by one.")


def stored_before(script: Path, first: int, number: int) -> str:
    if number == first:
        return "nothing of the script was stored"
    return (
        f"lines {first}-{number - 1} are stored; fix line {number} and resume with"
        f" 'ledger run {script} --each --from {number}'"
    )


def run_line(session: Session, script: Path, number: int, args: list[str], after: str) -> None:
    """One command of the script; its error names the line and what is stored."""
    try:
        cli.main(args, prog_name="ledger", standalone_mode=False, obj=session)
    except LedgerError as error:
        error.message = f"{script.name}:{number}: {error.message} ({after})"
        raise
    except click.ClickException as error:
        raise InvalidInput(f"{script.name}:{number}: {error.format_message()} ({after})") from None


COMMANDS = [run]
