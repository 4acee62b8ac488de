"""``ledger report``: a season as the league publishes it (HTML, Markdown, CSV, JSON), and
``ledger schema report``: the JSON Schema of the JSON report."""

from __future__ import annotations

from pathlib import Path

import click

from cli.main import Session, pass_session
from cli.output import SEASON, say
from ledger.errors import InvalidInput
from ledger.reports.errors import ReportNotWritten
from ledger.reports.render import FORMATS, schema_json
from ledger.reports.service import make_report, report_format, write_report
from ledger.reports.whatif import comparison_for

NAMES = {"html": "HTML", "md": "Markdown", "csv": "CSV", "json": "JSON"}


@click.command("report")
@click.argument("league", required=False, metavar="[LEAGUE]")
@click.option("--season", type=SEASON, help="Season to report (default: the latest).")
@click.option(
    "--format",
    "fmt",
    metavar="|".join(FORMATS),
    help="Report format (default: from --out's suffix, else html).",
)
@click.option(
    "--out",
    type=click.Path(),
    callback=lambda _ctx, _param, value: named(value),
    metavar="PATH",
    help="File to write; for csv a folder, or a .zip file (default:"
    " reports/<league>-season-<N>.<format>; for csv the folder"
    " reports/<league>-season-<N>-csv).",
)
@click.option(
    "--whatif", metavar="ID", help="Add a section comparing the final table under a what-if replay."
)
@pass_session
def report(
    session: Session,
    league: str | None,
    season: int | None,
    fmt: str | None,
    out: Path | None,
    whatif: str | None,
) -> None:
    """Export LEAGUE's season (default: --league, or the only league): standings with
    tie-breakers, play-offs, results by round, team pages, leaderboards and records, and an
    audit appendix to check it against the ledger."""
    ledger = session.ledger()
    slug = ledger.resolve_league(league or session.league_named)
    chosen = report_format(fmt, out)  # a bad format or place is refused before any work
    if out is not None:
        check_place(out)
    if whatif is not None and not whatif.strip():
        raise InvalidInput("--whatif names a ruleset to compare with (see 'ledger rulesets')")
    comparison = comparison_for(ledger, slug, season, whatif) if whatif else None
    made = make_report(ledger, slug, season, comparison)
    try:
        path = write_report(made, chosen, out)
    except OSError as error:
        raise ReportNotWritten(
            f"cannot write the report to {out}: {error.strerror or error}"
        ) from None
    say(f"Wrote the {NAMES[chosen]} report of {made.league.name}, {made.season.name}, to {path}")


def named(out: str | None) -> Path | None:
    """An empty --out (``--out ''``) is refused: it read as the current folder, and the
    report's sixteen CSV files landed there (``--out .`` still names it)."""
    if out is not None and not out.strip():
        raise click.BadParameter("is empty: name the file (or, for csv, the folder)")
    return None if out is None else Path(out)


def check_place(out: Path) -> None:
    """--out names a file (or, for CSV, a folder) in a folder that exists: a typo in the
    folder is refused rather than made."""
    try:
        if not out.parent.is_dir():
            raise ReportNotWritten(
                f"cannot write the report to {out}: there is no folder {out.parent}"
            )
        out.exists()  # a name the system cannot hold (too long) fails here
    except OSError as error:
        raise ReportNotWritten(
            f"cannot write the report to {out}: {error.strerror or error}"
        ) from None


@click.group("schema")
def schema() -> None:
    """JSON Schemas of what the ledger exports."""


@schema.command("report")
def schema_report() -> None:
    """The JSON Schema that `ledger report --format json` follows."""
    click.echo(schema_json(), nl=False)


COMMANDS: list[click.Command] = [report, schema]
