"""``ledger``: the root command, global options and the one error boundary.

A user's mistake prints ``error[<code>]: <sentence>`` on stderr and exits non-zero
(2 for malformed input, 1 for a rule the league's edition forbids); never a traceback.
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from cli.complete import attach_completers
from ledger.errors import LedgerError, UnknownAccount, did_you_mean

if TYPE_CHECKING:  # the store, SQLAlchemy, pydantic and the rulesets load on first use:
    # 'ledger --help' and shell completion do not pay for them (tests/cli/test_startup.py)
    from ledger.application.access import Actor
    from ledger.application.service import LeagueLedger
    from ledger.domain.state import AccountRow, LeagueView
    from ledger.projections.lean import SqliteStore
    from ledger.settings import Settings

CREATING_COMMANDS = {"league create", "import", "generate", "run", "account add"}
"""The commands that may start a new SQLite ledger file. Any other command on a file
that does not exist is refused (``error[no-ledger]``): a typo in ``--db`` must not pass
for an empty ledger. ``demo`` builds its own file. ``account add`` starts a site run
from the browser: its first admin, who then creates the leagues there; a file on which
the command is refused (a coach's role, which needs a league) is taken away again."""


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
    tables: SqliteStore | None = None
    """The read models through a plain sqlite3 connection (``current_tables``)."""
    created_league: str | None = None
    """The league this session created last: a script's later lines are about it, unless
    ``--league`` says otherwise (the ledger may hold other leagues)."""

    def ledger(self) -> LeagueLedger:
        if not self.opened:
            create = command_name(click.get_current_context(silent=True)) in CREATING_COMMANDS
            path = None if self.settings.database_url else self.settings.sqlite_path
            if create and path is not None and not path.exists():
                self.new_file = path
            from ledger.bootstrap import open_ledger

            ledger = open_ledger(self.settings, create=create)
            self.opened.append(ledger)
            ledger.actor = local_actor(ledger, self.user, self.as_option)
        return self.opened[0]

    @property
    def league_named(self) -> str | None:
        """The league the command names: ``--league``, else the one this session created."""
        return self.league_option or self.created_league

    def league(self) -> str:
        return self.ledger().resolve_league(self.league_named)

    def current_tables(self) -> SqliteStore | None:
        """The read models of a SQLite ledger through a plain sqlite3 connection, when
        they are current (ledger/projections/lean.py): a read command then answers
        without loading SQLAlchemy or the event store (docs/performance.md). None when they
        are not (behind, another code's), on PostgreSQL, or when the ledger is open
        already (a script's reads follow its writes): then the command asks ``ledger()``."""
        if self.tables is None and not self.opened and not self.settings.database_url:
            from ledger.projections.lean import open_current

            self.tables = open_current(self.settings.sqlite_path)
            if self.tables is not None:
                acting_account(self.tables, self.as_option)  # --as is checked as on open
        return self.tables

    def close(self) -> None:
        if self.tables is not None:
            self.tables.close()
            self.tables = None
        holds_events = self.new_file is not None and self.holds_events()
        if self.opened:  # the store's module loads only for a ledger this session opened
            from ledger.bootstrap import close_ledger

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
    from ledger.application.access import Actor

    account = acting_account(ledger.view(), given)
    if account is not None:
        return Actor(name=account.name, account=account.account, role="admin", via="cli")
    return Actor(name=name, role="admin", via="cli")


def acting_account(view: LeagueView, given: str | None) -> AccountRow | None:
    """The account ``--as`` names, once the ledger has any: then it must be one, and not
    revoked. None without ``--as``, or in a ledger with no accounts yet."""
    from ledger.domain.state import AccountRow
    from ledger.projections.members import SITE

    if given is None or not view.select(AccountRow, league_id=SITE):
        return None
    account = view.get(AccountRow, SITE, given)
    if account is None or account.revoked:
        state = "is revoked" if account else "is not an account of this ledger"
        raise UnknownAccount(f"--as {given} {state}: see 'ledger account list'")
    return account


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

WIDE_KEY = "ledger.wide"
"""Set in the context's ``meta`` (shared by a command and its parents) by ``--wide``:
``cli.output.table`` then shows every column unwrapped."""


def set_wide(ctx: click.Context, _: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta[WIDE_KEY] = True


SESSIONLESS = {"completion"}
"""Commands that never open the ledger: a shell's start-up (``eval "$(ledger completion
bash)"``) should not pay for loading the store."""


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
    "completion": "cli.complete",
}


COMMAND_SUMMARIES = {
    "account": "Accounts for `ledger serve`: add them, grant and remove roles, issue API tokens,"
    " revoke.",
    "audit": "Check that the log has not been altered; sign checkpoints of it (docs/audit.md).",
    "completion": "Print the shell completion script for bash, zsh or fish.",
    "correct": "Void or amend EVENT (its number in the league's log; see 'ledger history').",
    "demo": "Build a demo BB2025 league (4 teams, a full round robin), print its standings"
    " and a roster, and write its HTML season report.",
    "export": "The league's whole log as JSON Lines (a backup that 'ledger import' restores).",
    "generate": "Create a synthetic league of TEAMS teams over SEASONS seasons, every game"
    " recorded through the real commands with dice from a generator seeded by SEED.",
    "history": "Every event that touched REF (a team id, a match id, a player name or id;"
    " or team:<id>, match:<id>, player:<id>), with who recorded it, when and why.",
    "import": "Restore a league exported with 'ledger export' into this (empty) store.",
    "leaders": "Leaderboards: touchdowns, casualties, SPP, MVPs, completions,"
    " interceptions, kills.",
    "league": "Create and inspect leagues.",
    "match": "Record match reports and close post-game sequences.",
    "rebuild": "Drop the read models and refold them from the whole log.",
    "report": "Export LEAGUE's season (default: --league, or the only league): standings"
    " with tie-breakers, play-offs, results by round, team pages, leaderboards and records,"
    " and an audit appendix to check it against the ledger.",
    "roster": "TEAM_ID's roster: TV/CTV (or TR), treasury, players with SPP, value and status.",
    "rules": "An edition's team lists, star players and skills (RULESET: an id or alias"
    " from 'ledger rulesets'; default: the league's).",
    "rulesets": "The rulesets a league can be created under, with their options.",
    "run": "Run the ledger commands in SCRIPT, one per line, all or nothing (or --each).",
    "schema": "JSON Schemas of what the ledger exports.",
    "season": "Start a season with its divisions, schedule it, run its play-offs, close it.",
    "serve": "Serve the ledger's JSON API (/api/, docs at /docs) and its web pages.",
    "standings": "The league table per division under the league's ruleset, with tie-breakers.",
    "submission": (
        "Match reports submitted by coaches: submit, confirm, dispute, approve, reject, withdraw."
    ),
    "team": "Register teams; hire, fire and retire players; buy re-rolls, staff and fans.",
    "teams": "The league's teams with their headline figures.",
    "treasury": "Every movement of TEAM_ID's gold, the event that caused it and the running"
    " balance.",
    "whatif": "Replay LEAGUE (default: --league, or the only league) under another ruleset"
    " or other options, into a separate, disposable read model, and compare it with the"
    " real season.",
}
"""What ``ledger --help`` says of each command without importing its module (the first
sentence of its docstring: tests/cli/test_startup.py checks that they agree)."""


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMAND_MODULES})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMAND_MODULES:
            for command in importlib.import_module(COMMAND_MODULES[cmd_name]).COMMANDS:
                attach_completers(command)
                self.add_command(command)
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown command is answered with the closest one (``ledger standing``)."""
        name = args[0] if args else ""
        if not (ctx.resilient_parsing or name.startswith("-") or self.get_command(ctx, name)):
            closest = did_you_mean(name, self.list_commands(ctx))
            hint = f" Did you mean '{closest}'?" if closest else ""
            raise click.UsageError(f"No such command '{name}'.{hint}", ctx)
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from ``COMMAND_SUMMARIES``: listing them imports none."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        with formatter.section("Commands"):
            formatter.write_dl([(name, self.summary_of(name, limit)) for name in names])

    def summary_of(self, name: str, limit: int) -> str:
        if name in self.commands:
            return self.commands[name].get_short_help_str(limit)
        return click.Command(name, help=COMMAND_SUMMARIES[name]).get_short_help_str(limit)


def on_the_line(ctx: click.Context, option: str) -> bool:
    """Whether ``--option`` was typed on the command line (not taken from the environment)."""
    name = "user" if option == "as" else option
    return ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.option(
    "--db",
    metavar="PATH",
    help="SQLite file of the ledger; it wins over the environment. Default:"
    " $LEDGER_DATABASE_URL=postgresql://... (PostgreSQL), else $LEDGER_DB, else ./ledger.db.",
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
@click.option(
    "--wide",
    is_flag=True,
    expose_value=False,
    callback=set_wide,
    help="Show every column of every table, however wide the terminal.",
)
@click.version_option(package_name="bb-league-ledger")
@click.pass_context
def cli(ctx: click.Context, db: str | None, league: str | None, user: str | None) -> None:
    """The league ledger for Blood Bowl leagues: every purchase, injury, SPP award and
    treasury mishap as an append-only, hash-chained event log."""
    if isinstance(ctx.obj, Session):  # a command of 'ledger run': its session is open
        chosen = [f"--{n}" for n in ("db", "league", "as") if on_the_line(ctx, n)]
        if chosen:  # not ignored: the line would run on another ledger, league or name
            raise click.UsageError(
                f"{' and '.join(chosen)} {'apply' if len(chosen) > 1 else 'applies'} to the"
                " whole script: give it before 'run' ('ledger --league SLUG run SCRIPT')"
            )
        return
    if ctx.invoked_subcommand in SESSIONLESS:
        return
    from ledger.settings import settings_from

    settings = settings_from(db)
    if db and os.environ.get("LEDGER_DATABASE_URL"):
        click.echo(f"ledger: using {db} (--db); $LEDGER_DATABASE_URL is not used", err=True)
    session = Session(
        settings=settings,
        league_option=league,
        user=user or settings.user,
        db_option=db,
        as_option=user,
    )
    ctx.obj = session
    ctx.call_on_close(session.close)


attach_completers(cli)  # --league


def fail(code: str, message: str, exit_code: int) -> NoReturn:
    click.echo(f"error[{code}]: {one_line(message)}", err=True)
    sys.exit(exit_code)


def usage_line(error: click.UsageError) -> str:
    """Click's usage error in one line, with where to read the command's usage (click's
    own three lines: the usage, a hint, the error)."""
    message = error.format_message()
    return f"{message} (see '{error.ctx.command_path} --help')" if error.ctx else message


def one_line(message: str, limit: int = 1000) -> str:
    first = message.strip().splitlines()[0] if message.strip() else "(no detail)"
    return first if len(first) <= limit else first[:limit] + "..."


def main() -> None:
    check_arguments(sys.argv[1:])
    try:
        result = cli.main(prog_name="ledger", standalone_mode=False)
    except LedgerError as error:
        fail(error.code, error.message, error.exit_code)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.UsageError as error:  # a misspelt option, a missing argument, a bad value
        fail("usage", usage_line(error), error.exit_code)
    except click.ClickException as error:
        fail("input", error.format_message(), error.exit_code)
    except click.Abort:
        fail("aborted", "stopped by the user", 130)
    except Exception as error:  # the last line of defence: never a traceback
        last_resort(error)
    sys.exit(result if isinstance(result, int) else 0)


def loaded(module: str, *names: str) -> tuple[type[BaseException], ...]:
    """The exception classes ``names`` of ``module`` if it has been imported: an error of
    a module that never loaded cannot have been raised, and importing it here would cost
    every command (``--help`` included) the store, SQLAlchemy and the rulesets."""
    found = sys.modules.get(module)
    return tuple(getattr(found, name) for name in names) if found is not None else ()


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
    if isinstance(error, loaded("ledger.rules.schema", "RulesDataError")):
        fail("rules-data", str(error), 3)
    if isinstance(error, store_errors()) or not_a_database(error):
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        fail("store", f"the ledger's database could not be used: {first}", 4)
    if isinstance(error, BrokenPipeError):
        # 'ledger export | head': the reader has gone; say nothing more to it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    if isinstance(error, loaded("pydantic", "ValidationError")):
        fail("invalid-input", invalid_input(error), 2)
    if isinstance(error, OSError):
        where = f" {error.filename}" if error.filename else ""
        fail("file", f"cannot use{where}: {error.strerror or error}", 2)
    if isinstance(error, UnicodeDecodeError):
        fail("not-utf8", f"a file is not UTF-8 text: {error.reason}", 2)
    if isinstance(error, RecursionError):
        fail("too-deep", "the input is nested too deeply", 2)
    if isinstance(error, loaded("yaml", "YAMLError")):
        fail("malformed-file", f"not valid YAML: {error}", 2)
    if isinstance(error, MemoryError | OverflowError):
        fail("too-large", f"a number or a file is too large: {error}", 2)
    raise error


def invalid_input(error: Any) -> str:
    from ledger.domain.values import validation_problems

    return f"{error.title}: {validation_problems(error)}"


def store_errors() -> tuple[type[BaseException], ...]:
    """The store's failures (a locked or unreadable database file, a server gone away)."""
    return (
        *loaded("eventsourcing.persistence", "OperationalError", "PersistenceError"),
        *loaded("sqlite3", "Error"),
        *loaded("sqlalchemy.exc", "OperationalError"),  # locked, gone away
    )


def not_a_database(error: BaseException) -> bool:
    """Whether SQLAlchemy failed on a file that is no SQLite database: sqlite3's plain
    ``DatabaseError``, not its subclasses (an integrity or programming error is the
    code's own mistake, and must not pass for the user's file)."""
    sqlite3 = sys.modules.get("sqlite3")
    return sqlite3 is not None and type(getattr(error, "orig", None)) is sqlite3.DatabaseError
