"""``ledger``: the root command, global options and the one error boundary.

A user's mistake prints ``error[<code>]: <sentence>`` on stderr and exits non-zero
(2 for malformed input, 1 for a rule the league's edition forbids); never a traceback.
"""

from __future__ import annotations

import importlib
import sqlite3
import sys
from dataclasses import dataclass, field

import click
import sqlalchemy.exc
from eventsourcing.persistence import OperationalError, PersistenceError

from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger, settings_from
from ledger.errors import LedgerError
from ledger.rules.schema import RulesDataError


@dataclass
class Session:
    settings: Settings
    league_option: str | None
    user: str
    opened: list[LeagueLedger] = field(default_factory=list)

    def ledger(self) -> LeagueLedger:
        if not self.opened:
            self.opened.append(open_ledger(self.settings))
        return self.opened[0]

    def league(self) -> str:
        return self.ledger().resolve_league(self.league_option)

    def close(self) -> None:
        for ledger in self.opened:
            close_ledger(ledger)
        self.opened.clear()


pass_session = click.make_pass_decorator(Session)


# Each command's module, imported only when the command runs (or help lists them): a query
# does not pay for loading the what-if engine, the reports and every other command.
COMMAND_MODULES = {
    "league": "cli.league",
    "rulesets": "cli.league",
    "season": "cli.season",
    "team": "cli.team",
    "match": "cli.match",
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
    session = Session(settings=settings, league_option=league, user=user or settings.user)
    ctx.obj = session
    ctx.call_on_close(session.close)


def fail(code: str, message: str, exit_code: int) -> None:
    click.echo(f"error[{code}]: {message}", err=True)
    sys.exit(exit_code)


def main() -> None:
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
    sys.exit(result if isinstance(result, int) else 0)
