"""``ledger audit verify|checkpoint|key``, ``correct``, ``export``, ``import`` and ``rebuild``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any
from uuid import UUID

import click

from cli.main import Session, pass_session
from cli.output import check_out, open_to_read, print_json, progress, say, table, write_file
from ledger.application.audit import ChainReport, log_name, logs_stored, verify_chain
from ledger.application.checkpoint_keys import (
    PUBLIC_KEY_ENV,
    key_id,
    key_path,
    public_line,
    public_pem,
    signing_key,
    trusted_key,
)
from ledger.application.checkpoints import (
    Checkpoint,
    CheckpointCheck,
    check_checkpoint,
    make_checkpoint,
    read_checkpoint,
    record_checkpoint,
)
from ledger.application.commands import Correct, CorrectMatch
from ledger.application.corrections import ENVELOPE
from ledger.application.reports import read_report
from ledger.application.service import LeagueLedger
from ledger.application.transfer import export_lines
from ledger.domain.events import LedgerEvent
from ledger.domain.log import SITE_ID, league_id
from ledger.domain.state import EventLine, FaultLine
from ledger.errors import FileProblem, InvalidInput, MalformedReport, UnknownLeague
from ledger.projections.describe import field_said
from ledger.projections.sql import table_of
from ledger.reports.match_sheet import as_it_stands
from ledger.words import plural


@click.group()
def audit() -> None:
    """Check that the log has not been altered; sign checkpoints of it (docs/audit.md)."""


@audit.command("verify")
@click.option(
    "--checkpoint",
    "checkpoint_file",
    type=click.Path(path_type=Path),
    help="Also check the log against this signed checkpoint ('ledger audit checkpoint').",
)
@click.option(
    "--key",
    "key_file",
    type=click.Path(path_type=Path),
    help="The league's published public key to check the checkpoint's signature with"
    f" (default: ${PUBLIC_KEY_ENV}, else this machine's own key).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def verify(
    session: Session, checkpoint_file: Path | None, key_file: Path | None, as_json: bool
) -> None:
    """Recompute the hash chain of the league's log and say where it breaks; with
    --checkpoint, also show the log still holds what the checkpoint signed."""
    if checkpoint_file is not None:
        verify_checkpoint(session, checkpoint_file, key_file, as_json)
        return
    if key_file is not None:
        raise click.UsageError("--key is the key of a checkpoint: give --checkpoint FILE too")
    ledger = session.ledger()
    logs = (
        [(league_id(session.league_option), session.league_option)]
        if session.league_option
        else every_log(ledger)
    )
    if not logs:
        raise UnknownLeague("this ledger holds no league: there is no log to verify")
    reports = [verify_chain(ledger.recorder, log, name) for log, name in logs]
    faults = {r.league: ledger.faults(r.league) if r.league != "site" else [] for r in reports}
    if as_json:
        print_json(
            [
                {
                    **r.model_dump(),
                    "unapplied": [f.model_dump() for f in faults[r.league]],
                    "ok": r.ok and not faults[r.league],
                }
                for r in reports
            ]
        )
    else:
        for report in reports:
            print_chain(report)
            print_faults(report.league, faults[report.league])
    if any(not r.ok or faults[r.league] for r in reports):
        sys.exit(1)


def every_log(ledger: LeagueLedger) -> list[tuple[UUID, str]]:
    """Every league the store holds events of (whatever the read models list: a league's
    row deleted must not hide its log), every league the read models know (one whose events
    were all deleted is reported as such), and the site's log last."""
    stored = logs_stored(ledger.recorder)
    known = {league_id(row.slug): row.slug for row in ledger.leagues()}
    leagues = {log: known.get(log) or log_name(ledger.recorder, log) for log in stored}
    leagues.update((log, slug) for log, slug in known.items() if log not in leagues)
    site = leagues.pop(SITE_ID, None)
    logs = sorted(((log, name) for log, name in leagues.items()), key=lambda pair: pair[1])
    return logs + ([(SITE_ID, "site")] if site is not None else [])


def print_faults(league: str, faults: list[FaultLine]) -> None:
    """Stored events the read models pass over because they cannot be read or applied
    (docs/audit.md): the books are usable, but these events count for nothing until
    they are voided (``ledger correct N --void --reason ...``)."""
    if not faults:
        return
    say(f"{league}: {plural(len(faults), 'event')} the books cannot apply (void them to heal):")
    say(table(["event", "type", "problem"], [[f.seq, f.topic, f.problem] for f in faults]))


def print_chain(report: ChainReport) -> None:
    if not report.events:
        say(f"{report.league}: 0 events: {report.breaks[0].problem}")
    elif report.ok:
        say(
            f"{report.league}: {plural(report.events, 'event')}, chain intact;"
            f" last hash {report.last_hash}"
        )
    else:
        say(f"{report.league}: {plural(report.events, 'event')}, CHAIN BROKEN")
        say(
            table(
                ["event", "type", "problem"],
                [[b.seq, b.topic.rsplit(":", 1)[-1], b.problem] for b in report.breaks],
            )
        )


def verify_checkpoint(
    session: Session, checkpoint_file: Path, key_file: Path | None, as_json: bool
) -> None:
    checkpoint = read_checkpoint(checkpoint_file)
    if session.league_option and session.league_option != checkpoint.league:
        raise InvalidInput(
            f"{checkpoint_file} is a checkpoint of league '{checkpoint.league}',"
            f" not of '{session.league_option}'"
        )
    trusted = trusted_key(key_file)
    recorder = session.ledger().recorder
    chain = verify_chain(recorder, UUID(checkpoint.league_id), checkpoint.league)
    check = check_checkpoint(recorder, checkpoint, trusted, chain)
    if as_json:
        print_json(
            [
                {
                    **chain.model_dump(),
                    "ok": chain.ok and check.ok,
                    "checkpoint": {**check.model_dump(), "ok": check.ok},
                }
            ]
        )
    else:
        print_chain(chain)
        print_check(check)
    if not (chain.ok and check.ok):
        sys.exit(1)


def print_check(check: CheckpointCheck) -> None:
    say(
        f"{check.league}: checkpoint of event {check.signed_events} made {check.made_at}"
        f" by key {check.key_id}, checked with {check.checked_with}"
    )
    for problem in check.problems:
        say(f"{check.league}: CHECKPOINT FAILED: {problem}")
    if check.ok:
        say(
            f"{check.league}: signature good; events 1-{check.signed_events} are as signed;"
            f" {after(check)}"
        )


def after(check: CheckpointCheck) -> str:
    if not check.uncovered:
        return "no event after them"
    return (
        f"{plural(check.uncovered, 'event')} after them chain from them but no signature"
        " covers them"
        " (a later checkpoint will)"
    )


@audit.command("checkpoint")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="File to write the signed checkpoint to (default: print it).",
)
@click.option("--json", "as_json", is_flag=True, help="With --out, print it as JSON too.")
@pass_session
def checkpoint(session: Session, out: Path | None, as_json: bool) -> None:
    """Sign the league's log as it stands (event count and head hash) with this machine's
    checkpoint key, record it, and print it or write it to --out for the league to publish."""
    ledger, league = session.ledger(), session.league()
    key = signing_key(key_path())
    signed = make_checkpoint(ledger.recorder, league, key)
    if out is not None:
        write_checkpoint(signed, out)
    record_checkpoint(ledger.read_models.engine, signed, key.public_key())
    if out is None or as_json:
        click.echo(signed.document(), nl=False)
        return
    say(
        f"Signed checkpoint of league {league}: {plural(signed.events, 'event')}, head hash"
        f" {signed.head_hash}, key {signed.key_id}; written to {out}."
    )


def write_checkpoint(signed: Checkpoint, out: Path) -> None:
    try:
        out.write_text(signed.document(), encoding="utf-8")
    except OSError as error:
        raise FileProblem(
            f"cannot write the checkpoint to {out}: {error.strerror or error}"
        ) from None


@audit.command("key")
@click.option("--line", is_flag=True, help="Print the key on one line (ed25519:BASE64), not PEM.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def key(line: bool, as_json: bool) -> None:
    """Print the public half of this machine's checkpoint key (created on first use), to
    publish with the league: 'ledger audit verify --checkpoint F --key K' checks with it."""
    path = key_path()
    created = not path.exists()
    public = signing_key(path).public_key()
    if as_json:
        print_json(
            {
                "key_id": key_id(public),
                "public_key": public_line(public),
                "public_key_pem": public_pem(public),
                "private_key_file": str(path),
            }
        )
        return
    click.echo(public_line(public) if line else public_pem(public).rstrip("\n"))
    note = "created" if created else "private half in"
    click.echo(
        f"key {key_id(public)}; {note} {path} (keep it off the machine that serves the database)",
        err=True,
    )


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
    from cli.queries import queries_for

    before = as_it_stands(ledger, queries_for(session), event) if sets or amend_file else None
    if report_file is not None:
        ledger.handle(
            CorrectMatch(league, event, read_report(report_file)), by=session.user, reason=reason
        )
    else:
        amendment = read_amendment(amend_file) if amend_file else parse_sets(sets)
        ledger.handle(
            Correct(league, event, "void" if void else "amend", amendment=amendment),
            by=session.user,
            reason=reason,
        )
    queries = queries_for(session)
    if before is not None:  # the event named, and only what this amendment changed
        after = as_it_stands(ledger, queries, event)
        target = queries.rows(EventLine, table_of(EventLine).c.seq == event)[0].summary
        say(f"Event {event} ({target}) amended: {changes_said(before, after)}: {reason}")
        return
    # As 'ledger history' tells it: a voided match names the post-game closes voided with it.
    done = queries.history(f"event:{event}")[-1].summary
    say(f"{done[0].upper()}{done[1:]}: {reason}")


def changes_said(before: LedgerEvent, after: LedgerEvent | None) -> str:
    """``coach Bo -> Alan``: each field the amendment changed, a field of several values
    by its name alone."""
    old, new = before.model_dump(mode="json"), after.model_dump(mode="json") if after else {}
    said = []
    for name in (k for k in old if k not in ENVELOPE and old[k] != new.get(k)):
        was, now = old[name], new.get(name)
        if isinstance(was, dict | list) or isinstance(now, dict | list):
            said.append(field_said(name))
        else:
            said.append(f"{field_said(name)} {shown(was)} -> {shown(now)}")
    return ", ".join(said) or "nothing changed"


def shown(value: object) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


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
    """The file read as a report file is (bounded, UTF-8, a key given once, a YAML error
    at its line and column), its problems said as this command's input."""
    from ledger.application.reports import loaded, report_text

    try:
        data = loaded(report_text(path), str(path))
    except MalformedReport as error:
        raise InvalidInput(error.message) from None
    if not isinstance(data, dict):
        raise InvalidInput(f"{path} must hold a mapping of field: value")
    return data


@click.command("export")
@click.option("--out", type=click.Path(path_type=Path), help="File to write (default: stdout).")
@pass_session
def export(session: Session, out: Path | None) -> None:
    """The league's whole log as JSON Lines (a backup that 'ledger import' restores)."""
    if out is not None:
        check_out(out)  # before reading the whole log
    lines = export_lines(session.ledger().recorder, session.league())
    if out is None:
        for line in lines:
            sys.stdout.buffer.write(line)
        return
    write_file(out, lines)
    say(f"Exported league {session.league()} to {out}.")


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@pass_session
def import_(session: Session, file: Path) -> None:
    """Restore a league exported with 'ledger export' into this (empty) store."""
    bar = progress("Importing: folding the events", None)
    with open_to_read(file) as stream, bar as advance:
        slug, count = session.ledger().import_log(stream, progress=advance)
    say(f"Imported league {slug}: {plural(count, 'event')}, chain verified.")


@click.command("rebuild")
@pass_session
def rebuild(session: Session) -> None:
    """Drop the read models and refold them from the whole log."""
    ledger = session.ledger()
    total = ledger.source.head()
    stats = ledger.read_models.rebuilt
    if stats is None or stats.position != total:  # else opening the ledger just did it
        with progress("Rebuilding read models", total) as advance:
            stats = ledger.read_models.rebuild(ledger.source, progress=advance)
    say(f"Rebuilt the read models from {plural(stats.events, 'event')}.")


COMMANDS = [audit, correct, export, import_, rebuild]
