"""``ledger demo``: build the demo league in a fresh SQLite file and show it."""

from __future__ import annotations

from pathlib import Path

import click

from cli.main import Session, pass_session
from cli.output import say
from cli.queries import print_roster, print_standings
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.demo import build_demo
from ledger.domain.log import league_id
from ledger.projections.queries import Queries
from ledger.reports.service import produce_report
from ledger.rules import find_ruleset


@click.command("demo")
@click.option(
    "--dir",
    "folder",
    default="demo",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for the demo's ledger (demo.db is replaced on each run).",
)
@pass_session
def demo(session: Session, folder: Path) -> None:
    """Build a demo BB2020 league (4 teams, a full round robin), print its standings and a
    roster, and write its HTML season report."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "demo.db"
    for leftover in (db, db.with_suffix(".db-wal"), db.with_suffix(".db-shm")):
        leftover.unlink(missing_ok=True)
    ledger = open_ledger(Settings(sqlite_path=db, user=session.user))
    try:
        slug = build_demo(ledger, by=session.user)
        row = ledger.league_row(slug)
        queries = Queries(ledger.read_models.engine, row, find_ruleset(row.ruleset, row.options))
        say(
            f"Built the demo league '{row.name}' in {db} ({row.version} events,"
            f" league id {league_id(slug)}).\n"
        )
        print_standings(queries.standings())
        print_roster(queries.roster("skavenblight-scramblers"))
        report = produce_report(ledger, slug, fmt="html", out=folder / "report.html")
        say(f"\nSeason report: {report}")
        say(
            f"\nTry: ledger --db {db} roster reikland-reavers | standings | leaders"
            " | treasury gouged-eye | history Skweek | audit verify"
        )
    finally:
        close_ledger(ledger)


COMMANDS = [demo]
