"""``ledger audit verify``, ``correct``, ``export``, ``import`` and ``rebuild``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
import yaml

from cli.main import Session, pass_session
from cli.output import print_json, say, table
from ledger.application.audit import verify_chain
from ledger.application.reports import read_report
from ledger.application.transfer import export_lines, import_league
from ledger.domain.log import league_id
from ledger.errors import InvalidInput


@click.group()
def audit() -> None:
    """Check that the log has not been altered."""


@audit.command("verify")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def verify(session: Session, as_json: bool) -> None:
    """Recompute the hash chain of the league's log and say where it breaks."""
    ledger = session.ledger()
    slugs = (
        [session.league_option] if session.league_option else [row.slug for row in ledger.leagues()]
    )
    reports = [verify_chain(ledger.recorder, league_id(slug), slug) for slug in slugs]
    if as_json:
        print_json([{**r.model_dump(), "ok": r.ok} for r in reports])
    for report in reports:
        if as_json:
            continue
        if report.ok:
            say(
                f"{report.league}: {report.events} events, chain intact;"
                f" last hash {report.last_hash}"
            )
            continue
        say(f"{report.league}: {report.events} events, CHAIN BROKEN")
        say(
            table(
                ["event", "type", "problem"],
                [[b.seq, b.topic.rsplit(":", 1)[-1], b.problem] for b in report.breaks],
            )
        )
    if any(not r.ok for r in reports):
        sys.exit(1)


@click.command("correct")
@click.argument("event", type=int)
@click.option("--void", "void", is_flag=True, help="Void the event: as if it never happened.")
@click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="FIELD=JSON",
    help="Amend one field of the event (repeatable), e.g. --set price=70000.",
)
@click.option(
    "--amend",
    "amend_file",
    type=click.Path(path_type=Path),
    help="Amend with the fields in this YAML/JSON file.",
)
@click.option(
    "--report",
    "report_file",
    type=click.Path(path_type=Path),
    help="Amend a recorded match with this corrected report file.",
)
@click.option("--reason", required=True, help="Why the correction is made (required).")
@pass_session
def correct(
    session: Session,
    event: int,
    void: bool,
    sets: tuple[str, ...],
    amend_file: Path | None,
    report_file: Path | None,
    reason: str,
) -> None:
    """Void or amend EVENT (its number in the league's log; see 'ledger history')."""
    chosen = sum([void, bool(sets), amend_file is not None, report_file is not None])
    if chosen != 1:
        raise click.UsageError("choose one of --void, --set, --amend or --report")
    ledger, league = session.ledger(), session.league()
    if report_file is not None:
        ledger.correct_match(
            league, event, read_report(report_file), by=session.user, reason=reason
        )
    else:
        amendment = read_amendment(amend_file) if amend_file else parse_sets(sets)
        ledger.correct(
            league,
            event,
            "void" if void else "amend",
            by=session.user,
            reason=reason,
            amendment=amendment,
        )
    say(f"Event {event} {'voided' if void else 'amended'}: {reason}")


def parse_sets(sets: tuple[str, ...]) -> dict[str, Any]:
    amendment: dict[str, Any] = {}
    for entry in sets:
        key, sep, raw = entry.partition("=")
        if not sep:
            raise InvalidInput(f"--set takes FIELD=VALUE, not '{entry}'")
        try:
            amendment[key] = json.loads(raw)
        except json.JSONDecodeError:
            amendment[key] = raw
    return amendment


def read_amendment(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise InvalidInput(f"cannot read {path}: {str(error).splitlines()[0]}") from None
    if not isinstance(data, dict):
        raise InvalidInput(f"{path} must hold a mapping of field: value")
    return data


@click.command("export")
@click.option("--out", type=click.Path(path_type=Path), help="File to write (default: stdout).")
@pass_session
def export(session: Session, out: Path | None) -> None:
    """The league's whole log as JSON Lines (a backup that 'ledger import' restores)."""
    lines = export_lines(session.ledger().recorder, session.league())
    if out is None:
        for line in lines:
            sys.stdout.buffer.write(line)
        return
    with out.open("wb") as stream:
        for line in lines:
            stream.write(line)
    say(f"Exported league {session.league()} to {out}.")


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@pass_session
def import_(session: Session, file: Path) -> None:
    """Restore a league exported with 'ledger export' into this (empty) store."""
    ledger = session.ledger()
    with file.open("rb") as stream:
        slug, count = import_league(ledger.recorder, stream)
    ledger.catch_up()
    say(f"Imported league {slug}: {count} events, chain verified.")


@click.command("rebuild")
@pass_session
def rebuild(session: Session) -> None:
    """Drop the read models and refold them from the whole log."""
    ledger = session.ledger()
    total = ledger.source.head()
    with click.progressbar(length=total, label="Rebuilding read models", file=sys.stderr) as bar:
        stats = ledger.read_models.rebuild(ledger.source, progress=bar.update)
    say(f"Rebuilt the read models from {stats.events} events.")


COMMANDS = [audit, correct, export, import_, rebuild]
