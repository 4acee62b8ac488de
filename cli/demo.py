"""``ledger demo``: build the demo league in a fresh SQLite file and show it.

The file is ``demo/demo.db`` (``--dir``), replaced on each run; or the file ``--db``
names, which must not exist yet: the demo never overwrites a ledger someone named. It is
always SQLite: ``$LEDGER_DATABASE_URL`` names a league site's database, where a demo
league does not belong, so the demo says it does not use it (and the commands it
suggests name the file with ``--db``, which wins over the URL).
"""

from __future__ import annotations

from pathlib import Path

import click

from cli.main import Session, pass_session
from cli.output import say
from cli.queries import print_roster, print_standings
from ledger.application.accounts import Accounts
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.demo import build_demo
from ledger.domain.log import league_id
from ledger.errors import FileProblem
from ledger.projections.queries import Queries
from ledger.reports.service import produce_report
from ledger.rules import find_ruleset
from ledger.web.demo import DemoAccount, demo_accounts


@click.command("demo")
@click.option(
    "--dir",
    "folder",
    default="demo",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for the demo's ledger (demo.db is replaced on each run); 'ledger --db"
    " FILE demo' builds it in FILE instead, which must not exist yet.",
)
@click.option(
    "--serve",
    is_flag=True,
    help="Then add demo accounts (passwords printed) and serve the league until Ctrl-C.",
)
@pass_session
def demo(session: Session, folder: Path, serve: bool) -> None:
    """Build a demo BB2025 league (4 teams, a full round robin), print its standings and a
    roster, and write its HTML season report. The demo is always a new SQLite file, even
    with $LEDGER_DATABASE_URL set."""
    db, report_file = demo_files(session, folder)
    if session.settings.database_url:
        click.echo(
            f"ledger: the demo builds its own SQLite ledger ({db});"
            " $LEDGER_DATABASE_URL is not used",
            err=True,
        )
    ledger = open_ledger(Settings(sqlite_path=db, user=session.user))
    logins: list[DemoAccount] = []
    try:
        slug = build_demo(ledger, by=session.user)
        row = ledger.league_row(slug)
        queries = Queries(ledger.read_models.engine, row, find_ruleset(row.ruleset, row.options))
        say(
            f"Built the demo league '{row.name}' in {db} ({row.version} events,"
            f" league id {league_id(slug)}).\n"
        )
        print_standings(queries.standings())
        print_roster(
            queries.roster("skavenblight-scramblers"), queries.ruleset.characteristic_targets
        )
        report = produce_report(ledger, slug, fmt="html", out=report_file)
        say(f"\nSeason report: {report}")
        say(
            f"\nTry: ledger --db {db} roster reikland-reavers | standings | leaders"
            " | treasury gouged-eye | history Skweek | audit verify | season playoffs"
        )
        if serve:
            logins = demo_accounts(ledger, slug, by=session.user)
            # the demo is for showing: its standings open to anyone with the URL
            Accounts(ledger).set_visibility(slug, True, by=session.user, reason="the demo")
    finally:
        close_ledger(ledger)
    if serve:
        serve_demo(session, db, logins)


def serve_demo(session: Session, db: Path, logins: list[DemoAccount]) -> None:
    from cli.serve import run

    say("\nDemo accounts (account / password):")
    for one in logins:
        role = f"{one.role} of {one.team}" if one.team else one.role
        say(f"  {one.account:<14} {one.password:<14} {role}")
    say("\nThe standings: http://127.0.0.1:8000/leagues/demo  (Ctrl-C stops the server)")
    session.settings = Settings(sqlite_path=db, user=session.user)
    run(session, "127.0.0.1", 8000)


def demo_files(session: Session, folder: Path) -> tuple[Path, Path]:
    """Where the demo's ledger and report go: beside the ``--db`` file when one is given,
    else in ``--dir`` (whose demo.db is replaced)."""
    if session.db_option:
        db = Path(session.db_option)
        if db.exists():
            raise FileProblem(
                f"{db} already exists: the demo builds a new ledger; name a new file with --db"
            )
        if not db.parent.is_dir():
            raise FileProblem(f"no folder {db.parent} for {db}")
        return db, db.with_name(f"{db.stem}-report.html")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise FileProblem(f"cannot make the folder {folder}: {error.strerror}") from None
    db = folder / "demo.db"
    for leftover in (db, db.with_suffix(".db-wal"), db.with_suffix(".db-shm")):
        leftover.unlink(missing_ok=True)
    return db, folder / "report.html"


COMMANDS = [demo]
