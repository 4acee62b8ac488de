"""Correcting one event of the log (``ledger correct``): void it, or amend the fields it
stands at. Nothing is edited: the correction is one more event, with its reason.

The form offers each field of one value (a name, a number, a price, a date, one of a few
choices) labelled and filled with the value it stands at, its latest amendment applied,
so that a commissioner changes what he sees; only the fields changed are amended. A field
that ties the event to others (its team, a hire's player, its match) or that a report's
checks decide is shown, not offered: the command would refuse it, and the form says why.
A field of more than one value (a list of dice, a side of a report) is amended in the
typed box, ``field=value`` lines as ``ledger correct --set`` takes them.

Worked example: event 12, ``Reikland Reavers hired Griff Junior (Human Blitzer) for
85,000``. The form offers Name ``Griff Junior``, Number ``7`` and Price ``85000``, and
shows the team and the player as recorded. The number changed to 8 and sent records
``EventCorrected(action="amend", amendment={"number": 8})``.
"""

from __future__ import annotations

import datetime as dt
import json
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.commands import Correct
from ledger.application.corrections import amendable_fields, check_fields_amendable
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.state import MatchRow
from ledger.errors import InvalidInput, LedgerError, UnknownEvent
from ledger.reports.match_sheet import as_it_stands
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_forms import (
    Calling,
    Errors,
    EventNumber,
    FieldInvalid,
    errors_of,
    required,
    see_other,
    valid,
    values_of,
)
from ledger.web.pages_render import BOUNDS, PageRoute, ledger_of, page
from ledger.web.problems import status_of
from ledger.words import words

router = APIRouter(route_class=PageRoute, include_in_schema=False)

PREFIX = "set-"
"""A field's input is named ``set-FIELD``."""

FieldKind = Literal["text", "number", "flag", "choice", "date"]


@dataclass(frozen=True)
class AmendField:
    """One field of the event as the form shows it."""

    name: str
    label: str
    value: str
    """As it stands, as its input holds it."""
    kind: FieldKind
    choices: tuple[str, ...] = ()
    fixed: str = ""
    """Why it is shown and not offered; empty: offered."""


def amend_fields(event: ev.LedgerEvent) -> list[AmendField]:
    """The event's amendable fields of one value each, in the model's order."""
    names = set(amendable_fields(type(event)))
    found = []
    for name, info in type(event).model_fields.items():
        shape = shape_of(info.annotation) if name in names else None
        if shape is None:
            continue  # not amendable, or a list or a record: the typed box's
        label, value = words(name).capitalize(), shown(getattr(event, name))
        found.append(AmendField(name, label, value, *shape, why_fixed(event, name)))
    return found


def shape_of(annotation: Any) -> tuple[FieldKind, tuple[str, ...]] | None:
    """How a field of this type is asked for: text, a whole number, a flag, a date or one
    of a few choices; None for a list, a mapping or a record."""
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if origin in (typing.Union, types.UnionType):
        return shape_of(args[0]) if len(args) == 1 else None
    if origin is typing.Annotated:
        return shape_of(args[0])
    if origin is Literal:
        return "choice", tuple(str(a) for a in args)
    simple: dict[Any, FieldKind] = {bool: "flag", int: "number", str: "text", dt.date: "date"}
    kind = simple.get(annotation)
    if kind is None:
        return None
    return kind, ("true", "false") if kind == "flag" else ()


def why_fixed(event: ev.LedgerEvent, name: str) -> str:
    """Why the command would refuse the field amended, in its own words: it is asked with
    a value unlike any recorded (``check_fields_amendable`` reads only what changes)."""
    try:
        check_fields_amendable(event, {name: object()})
    except InvalidInput as refused:
        return refused.message
    return ""


def shown(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value.isoformat() if isinstance(value, dt.date) else str(value)


def changed_fields(fields: list[AmendField], values: Mapping[str, str]) -> dict[str, Any]:
    """The offered fields whose input differs from the value they stand at, read as their
    type (a number that is not one refused beside its field); the command checks the
    rest, as for ``--set``."""
    amendment: dict[str, Any] = {}
    for f in fields:
        sent = values.get(PREFIX + f.name)
        if f.fixed or sent is None or sent.strip() == f.value:
            continue
        amendment[f.name] = read_as(f, sent.strip())
    return amendment


def read_as(f: AmendField, text: str) -> Any:
    if f.kind == "number":
        if not text.lstrip("-").isdigit() or len(text) > 12:
            said = f"{f.label.lower()} is a whole number, not '{text[:20]}'"
            raise FieldInvalid(PREFIX + f.name, said)
        return int(text)
    if f.kind == "flag":
        return text == "true"
    return text or None


# --- the page ------------------------------------------------------------------------------

CORRECT_FIELDS = {
    "correction-refused": "form",
    "unknown-event": "form",
    "invalid-input": "amendment",
}


def correct_form(
    request: Request,
    league: str,
    seq: int,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    target = reads.summaries(found, [seq]).get(seq)
    if target is None and not errors:  # a refused POST shows its form with the reason
        raise UnknownEvent(f"league {found.slug} has no event {seq} to correct")
    standing = as_it_stands(ledger, found.queries, seq) if target is not None else None
    return page(
        request,
        "correct.html.j2",
        status=status,
        title=f"Correct event {seq}",
        crumbs=[
            ("Leagues", "/"),
            (found.row.name, f"/leagues/{found.slug}"),
            ("Audit", f"/leagues/{found.slug}/audit"),
        ],
        league=found,
        seq=seq,
        target=target,
        reported=reported_match(found, seq),
        fields=amend_fields(standing) if standing is not None else [],
        typed_only=typed_only(standing),
        values=values,
        errors=errors,
    )


def typed_only(event: ev.LedgerEvent | None) -> list[str]:
    """The amendable fields the form has no input for (a list, a record): the typed box's."""
    if event is None:
        return []
    offered = {f.name for f in amend_fields(event)}
    return [name for name in amendable_fields(type(event)) if name not in offered]


def reported_match(league: reads.League, seq: int) -> str | None:
    """The played match event ``seq`` recorded, if it is a report standing: its facts
    the report's checks decide are corrected with a whole report, from its own page."""
    rows = league.view.select(MatchRow, league_id=league.row.league_id, status="played")
    return next((row.match_id for row in rows if row.recorded_seq == seq), None)


@router.get("/leagues/{league}/events/{seq}/correct")
@needs("correct")
def correct_page(request: Request, league: str, seq: EventNumber) -> HTMLResponse:
    return correct_form(request, league, seq, {}, {})


@router.post("/leagues/{league}/events/{seq}/correct")
@needs("correct")
async def correct(request: Request, league: str, seq: EventNumber, call: Calling) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> None:
        action = values.get("action", "")  # none chosen for the coach: a void undoes much
        if action not in ("void", "amend"):
            raise FieldInvalid("action", "choose to void or to amend the event")
        reason = required(values, "reason", "a correction needs a reason: it is kept in the log")
        text = values.get("amendment", "")
        standing = as_it_stands(ledger, reads.open_league(ledger, league).queries, seq)
        changed = changed_fields(amend_fields(standing), values) if standing else {}
        if action == "void" and (text.strip() or changed):  # fields changed, 'amend' not chosen
            raise FieldInvalid(
                "amendment", "a void changes no field: choose to amend, or leave them as they stand"
            )
        amendment = {**changed, **(amendment_of(text) if text.strip() else {})}
        if action == "amend" and not amendment:
            raise FieldInvalid("amendment", "change a field to amend it, or choose to void")
        valid(
            lambda: ledger.handle(
                Correct(league, seq, action, amendment=amendment), by=by, reason=reason
            )
        )

    try:
        await run_in_threadpool(call.write, command)
    except LedgerError as error:
        return await run_in_threadpool(
            correct_form,
            request,
            league,
            seq,
            values,
            errors_of(error, CORRECT_FIELDS),
            status_of(error),
        )
    return see_other(f"/leagues/{league}/audit?corrected={seq}#event-{seq}")


def amendment_of(text: str) -> dict[str, Any]:
    """``field=value`` lines, as ``ledger correct --set`` takes them: a value that
    reads as JSON is that value, any other is text."""
    if len(text) > (most := BOUNDS["amendment"]):
        raise FieldInvalid("amendment", f"an amendment is at most {most:,} characters")
    amendment: dict[str, Any] = {}
    for line in filter(None, (raw.strip() for raw in text.splitlines())):
        key, sep, raw = line.partition("=")
        if not sep or not key.strip():
            raise FieldInvalid("amendment", f"each line is FIELD=VALUE, not '{line[:40]}'")
        try:
            amendment[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            amendment[key.strip()] = raw.strip()
    return amendment
