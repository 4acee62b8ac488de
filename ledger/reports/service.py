"""Make a league's season report and write it where asked (``ledger report``, ``ledger demo``).

The file is written whole or not at all: a document goes to a temporary file beside the
target and is renamed over it; CSV goes to a folder, one file per table, or into a zip
when the target ends with ``.zip``. A target that cannot be written is one
``ReportNotWritten`` sentence, never a traceback.
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from ledger.application.audit import verify_chain
from ledger.application.checkpoints import latest_checkpoint
from ledger.application.service import LeagueLedger
from ledger.domain.log import league_id
from ledger.projections.queries import Queries
from ledger.reports.build import build_report
from ledger.reports.errors import ReportNotWritten, UnknownReportFormat
from ledger.reports.model import SeasonReport
from ledger.reports.render import FORMATS, Format, render
from ledger.reports.to_csv import CSV_FILES
from ledger.reports.whatif import Comparison
from ledger.rules import find_ruleset

SUFFIXES: dict[str, Format] = {
    ".html": "html",
    ".htm": "html",
    ".md": "md",
    ".markdown": "md",
    ".json": "json",
    ".zip": "csv",
    ".csv": "csv",
}
ALIASES: dict[str, Format] = {"markdown": "md", "htm": "html"}
ENCODING: dict[Format, str] = {"html": "utf-8", "md": "utf-8", "json": "utf-8", "csv": "utf-8-sig"}
DEFAULT_FOLDER = Path("reports")


def report_format(given: str | None, out: Path | None) -> Format:
    """The format asked for, else the one ``out``'s suffix names (a folder: CSV), else HTML."""
    if given is not None:
        name = given.strip().lower()
        chosen = next((f for f in FORMATS if f == name), ALIASES.get(name))
        if chosen is None:
            raise UnknownReportFormat(
                f"unknown report format '{given}' (formats: {', '.join(FORMATS)})"
            )
        if out is not None and SUFFIXES.get(out.suffix.lower(), chosen) != chosen:
            named = SUFFIXES[out.suffix.lower()]
            raise UnknownReportFormat(
                f"the format asked ({chosen}) is not the one {out.name} is named for"
                f" ({named}): name the file for {chosen}, or ask for {named}"
            )
        return chosen
    if out is None:
        return "html"
    if not out.suffix:
        return "csv"
    if out.suffix.lower() not in SUFFIXES:
        raise UnknownReportFormat(
            f"cannot tell the report format from '{out.name}': give --format ({', '.join(FORMATS)})"
        )
    return SUFFIXES[out.suffix.lower()]


def queries_of(ledger: LeagueLedger, league: str) -> Queries:
    ledger.catch_up()  # the report reads the read models: bring them to the head first
    row = ledger.league_row(league)
    return Queries(ledger.read_models.engine, row, find_ruleset(row.ruleset, row.options))


def make_report(
    ledger: LeagueLedger,
    league: str,
    season: int | None = None,
    comparison: Comparison | None = None,
) -> SeasonReport:
    """The report model of ``league``'s ``season`` (default: the latest)."""
    queries = queries_of(ledger, league)
    lid = league_id(queries.league.slug)
    chain = verify_chain(ledger.recorder, lid, queries.league.slug)
    checkpoint = latest_checkpoint(ledger.read_models.engine, lid)
    return build_report(queries, season, chain, comparison, checkpoint)


def default_path(report: SeasonReport, fmt: Format) -> Path:
    name = f"{report.league.slug}-season-{report.season.number}"
    return DEFAULT_FOLDER / (f"{name}-csv" if fmt == "csv" else f"{name}.{fmt}")


def write_report(report: SeasonReport, fmt: Format, out: Path | None = None) -> Path:
    """Render ``report`` as ``fmt`` and write it to ``out``; returns where it went."""
    target = out or default_path(report, fmt)
    if fmt != "csv" and target.is_dir():
        target = target / default_path(report, fmt).name
    content = render(report, fmt)
    try:
        if isinstance(content, dict):
            write_tables(content, target)
        else:
            write_document(content, target, ENCODING[fmt])
    except OSError as error:
        raise ReportNotWritten(
            f"cannot write the report to {target}: {error.strerror or error}"
        ) from None
    return target


def replace_atomically(target: Path, fill: Callable[[Path], object]) -> None:
    """Write through ``fill`` to a temporary file beside ``target``, then rename it over
    ``target``: a reader never sees half a report, a failure leaves the old one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    os.close(handle)
    temporary = Path(name)
    try:
        fill(temporary)
        temporary.chmod(0o666 & ~current_umask())  # mkstemp's 0600 would hide the report
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_document(text: str, target: Path, encoding: str) -> None:
    replace_atomically(target, lambda path: path.write_text(text, encoding, newline=""))


def write_zip(files: dict[str, str], path: Path) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text.encode(ENCODING["csv"]))


def write_tables(files: dict[str, str], target: Path) -> None:
    """CSV files into a zip (``target`` ends with .zip) or a folder."""
    if target.suffix.lower() == ".zip":
        replace_atomically(target, lambda path: write_zip(files, path))
        return
    target.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        write_document(text, target / name, ENCODING["csv"])
    for name in CSV_FILES - files.keys():  # a table an earlier report left (whatif.csv)
        (target / name).unlink(missing_ok=True)


def produce_report(
    ledger: LeagueLedger,
    league: str,
    *,
    fmt: str | None = None,
    out: Path | None = None,
    season: int | None = None,
    comparison: Comparison | None = None,
) -> Path:
    """Build and write ``league``'s season report; returns the path written."""
    chosen = report_format(fmt, out)  # refuse a bad format before any work
    return write_report(make_report(ledger, league, season, comparison), chosen, out)
