"""``ledger``: the root command, global options and the one error boundary.

A user's mistake prints ``error[<code>]: <sentence>`` on stderr and exits non-zero
(2 for malformed input, 1 for a rule the league's edition forbids); never a traceback.
"""

from __future__ import annotations

import importlib
import os
import sqlite3
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

import click
import sqlalchemy.exc
import yaml
from eventsourcing.persistence import OperationalError, PersistenceError
from pydantic import ValidationError

from ledger.application.access import Actor
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger, settings_from
from ledger.domain.state import AccountRow
from ledger.domain.values import validation_problem
from ledger.errors import LedgerError, UnknownAccount
from ledger.projections.members import SITE
from ledger.rules.schema import RulesDataError

CREATING_COMMANDS = {"league create", "import", "generate", "run"}
"""The commands that may start a new SQLite ledger file. Any other command on a file
that does not exist is refused (``error[no-ledger]``): a typo in ``--db`` must not pass
for an empty ledger. ``demo`` builds its own file."""


@dataclass
class Session:
    settings: Settings
    league_option: str | None
    user: str
    db_option: str | None = None
    """``--db`` as given on the command line (``demo`` builds its league there)."""
    as_option: str | None = None
    """``--as`` as given (or ``$LEDGER_USER``): once the ledger has accounts, one of them."""
    opened: list[LeagueLedger] = field(default_factory=list)
    new_file: Path | None = None
    """The SQLite file this session created, if it did."""

    def ledger(self) -> LeagueLedger:
        if not self.opened:
            create = command_name(click.get_current_context(silent=True)) in CREATING_COMMANDS
            path = None if self.settings.database_url else self.settings.sqlite_path
            if create and path is not None and not path.exists():
                self.new_file = path
            ledger = open_ledger(self.settings, create=create)
            self.opened.append(ledger)
            ledger.actor = local_actor(ledger, self.user, self.as_option)
        return self.opened[0]

    def league(self) -> str:
        return self.ledger().resolve_league(self.league_option)

    def close(self) -> None:
        holds_events = self.new_file is not None and self.holds_events()
        for ledger in self.opened:
            close_ledger(ledger)
        self.opened.clear()
        if self.new_file is not None:
            announce_or_remove(self.new_file, holds_events)
            self.new_file = None

    def holds_events(self) -> bool:
        try:
            return any(ledger.source.head() > 0 for ledger in self.opened)
        except Exception:  # a store that cannot answer is kept for the error to name
            return True


def local_actor(ledger: LeagueLedger, name: str, given: str | None) -> Actor:
    """Who the command line records as acting: the site's local admin (docs/service.md),
    named by the login name, or by ``--as``, which must name an account once the ledger
    has any (the event then records that account, and that it came from the command line)."""
    if given is not None and ledger.view().select(AccountRow, league_id=SITE):
        account = ledger.view().get(AccountRow, SITE, given)
        if account is None or account.revoked:
            state = "is revoked" if account else "is not an account of this ledger"
            raise UnknownAccount(f"--as {given} {state}: see 'ledger account list'")
        return Actor(name=account.name, account=account.account, role="admin", via="cli")
    return Actor(name=name, role="admin", via="cli")


def command_name(ctx: click.Context | None) -> str:
    """The running command as typed after ``ledger``: ``league create``, ``standings``."""
    names: list[str] = []
    while ctx is not None and ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(reversed(names))


def announce_or_remove(path: Path, holds_events: bool) -> None:
    """Say that a command created a ledger file; or, when it was refused and wrote
    nothing, take the empty file away again (a refused command leaves nothing)."""
    if holds_events:
        click.echo(f"ledger: created a new ledger at {path}", err=True)
        return
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
        leftover.unlink(missing_ok=True)


pass_session = click.make_pass_decorator(Session)


# Each command's module, imported only when the command runs (or help lists them): a query
# does not pay for loading the what-if engine, the reports and every other command.
COMMAND_MODULES = {
    "account": "cli.account",
    "league": "cli.league",
    "rulesets": "cli.league",
    "rules": "cli.rules",
    "season": "cli.season",
    "team": "cli.team",
    "match": "cli.match",
    "submission": "cli.submission",
    "roster": "cli.queries",
    "teams": "cli.queries",
    "standings": "cli.queries",
    "leaders": "cli.queries",
    "treasury": "cli.queries",
    "history": "cli.queries",
    "audit": "cli.audit",
    "correct": "cli.audit",
    "export": "cli.audit",
    "import": "cli.audit",
    "rebuild": "cli.audit",
    "demo": "cli.demo",
    "report": "cli.report",
    "schema": "cli.report",
    "run": "cli.script",
    "generate": "cli.generate",
    "whatif": "cli.whatif",
    "serve": "cli.serve",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMAND_MODULES})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMAND_MODULES:
            for command in importlib.import_module(COMMAND_MODULES[cmd_name]).COMMANDS:
                self.add_command(command)
        return super().get_command(ctx, cmd_name)


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.option(
    "--db",
    metavar="PATH",
    help="SQLite file of the ledger (default: $LEDGER_DB, else ./ledger.db)."
    " $LEDGER_DATABASE_URL=postgresql://... selects PostgreSQL instead.",
)
@click.option(
    "--league",
    "-l",
    metavar="SLUG",
    envvar="LEDGER_LEAGUE",
    help="League to work on (default: the only league in the ledger).",
)
@click.option(
    "--as",
    "user",
    metavar="NAME",
    envvar="LEDGER_USER",
    help="Who is recording (default: your login name).",
)
@click.version_option(package_name="bb-league-ledger")
@click.pass_context
def cli(ctx: click.Context, db: str | None, league: str | None, user: str | None) -> None:
    """The league ledger for Blood Bowl leagues: every purchase, injury, SPP award and
    treasury mishap as an append-only, hash-chained event log."""
    if isinstance(ctx.obj, Session):
        return  # a command of 'ledger run': the script's session is already open
    settings = settings_from(db)
    session = Session(
        settings=settings,
        league_option=league,
        user=user or settings.user,
        db_option=db,
        as_option=user,
    )
    ctx.obj = session
    ctx.call_on_close(session.close)


def fail(code: str, message: str, exit_code: int) -> NoReturn:
    click.echo(f"error[{code}]: {one_line(message)}", err=True)
    sys.exit(exit_code)


def one_line(message: str, limit: int = 1000) -> str:
    first = message.strip().splitlines()[0] if message.strip() else "(no detail)"
    return first if len(first) <= limit else first[:limit] + "..."


def main() -> None:
    check_arguments(sys.argv[1:])
    try:
        result = cli.main(standalone_mode=False)
    except LedgerError as error:
        fail(error.code, error.message, error.exit_code)
    except RulesDataError as error:
        fail("rules-data", str(error), 3)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except click.Abort:
        fail("aborted", "stopped by the user", 130)
    except (
        OperationalError,
        PersistenceError,
        sqlite3.Error,
        sqlalchemy.exc.OperationalError,
    ) as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        fail("store", f"the ledger's database could not be used: {first}", 4)
    except Exception as error:  # the last line of defence: never a traceback
        last_resort(error)
    sys.exit(result if isinstance(result, int) else 0)


def check_arguments(args: list[str]) -> None:
    """Arguments must be text: bytes that are not UTF-8 reach Python as lone surrogates,
    which no name, id or file of the ledger can hold (SQLite and JSON refuse them)."""
    for number, arg in enumerate(args, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = arg.encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")
            fail("not-utf8", f"argument {number} ({shown[:60]}) is not UTF-8 text", 2)


def last_resort(error: Exception) -> NoReturn:
    """Errors that should have been turned into a ``LedgerError`` where they arose: each
    still becomes one line with a stable code (the fuzzing test looks for any that
    reach here from a user's input; the fix belongs at the source)."""
    if isinstance(error, BrokenPipeError):
        # 'ledger export | head': the reader has gone; say nothing more to it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    if isinstance(error, ValidationError):
        fail("invalid-input", f"{error.title}: {validation_problem(error)}", 2)
    if isinstance(error, OSError):
        where = f" {error.filename}" if error.filename else ""
        fail("file", f"cannot use{where}: {error.strerror or error}", 2)
    if isinstance(error, UnicodeDecodeError):
        fail("not-utf8", f"a file is not UTF-8 text: {error.reason}", 2)
    if isinstance(error, RecursionError):
        fail("too-deep", "the input is nested too deeply", 2)
    if isinstance(error, yaml.YAMLError):
        fail("malformed-file", f"not valid YAML: {error}", 2)
    if isinstance(error, MemoryError | OverflowError):
        fail("too-large", f"a number or a file is too large: {error}", 2)
    raise error
