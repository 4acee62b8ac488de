"""Correcting the log: void or amend an earlier event, never edit it (DESIGN.md decision 5).

Before a correction is accepted, the league is refolded in memory as if it were already
recorded. If the corrected history no longer folds (a voided registration of a team that
later played) or leaves a treasury below zero (voided winnings that paid for a player),
the correction is refused with the event to fix first.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from pydantic_core import to_jsonable_python

from ledger.application.context import Context, Fact, draft
from ledger.application.matches import resolve_report
from ledger.application.reports import MatchReport
from ledger.application.source import StoreSource
from ledger.domain import events as ev
from ledger.domain.state import TreasuryLine
from ledger.errors import CorrectionRefused, InvalidInput, UnknownEvent
from ledger.projections.fold import Fold, amended, corrections_of
from ledger.projections.store import MemoryStore

ENVELOPE = {
    "originator_id",
    "originator_version",
    "timestamp",
    "recorded_by",
    "reason",
    "prev_hash",
    "hash",
    "originator_topic",
}


def plan_correct(
    source: StoreSource,
    c: Context,
    target: int,
    action: str,
    amendment: dict[str, Any],
    reason: str | None,
) -> list[Fact]:
    if not reason:
        raise InvalidInput("a correction needs a reason (--reason)")
    events = list(source.league_events(c.league_id))
    original = next((e for e in events if e.seq == target), None)
    if original is None or target < 2:
        raise UnknownEvent(
            f"league {c.league.slug} has no event {target} that can be corrected"
            f" (events 2-{len(events)})"
        )
    if isinstance(original, ev.EventCorrected):
        raise CorrectionRefused(
            f"event {target} is itself a correction: correct event {original.target} again instead"
        )
    fields: dict[str, Any] = {"target": target, "action": action, "amendment": amendment}
    if action == "amend":
        check_amendment(original, amendment)
    elif action != "void":
        raise InvalidInput(f"a correction voids or amends, not '{action}'")
    elif amendment:
        raise InvalidInput("a void carries no amendment")
    rehearse(c, events, draft(ev.EventCorrected, fields))
    return [(ev.EventCorrected, fields)]


def plan_correct_match(
    source: StoreSource, c: Context, target: int, report: MatchReport, reason: str | None
) -> list[Fact]:
    """Amend a recorded match with a corrected report: only the fields that differ."""
    original = next((e for e in source.league_events(c.league_id) if e.seq == target), None)
    if not isinstance(original, ev.MatchRecorded):
        raise InvalidInput(f"event {target} is not a match report")
    if report.match not in (None, original.match):
        raise InvalidInput(f"event {target} records match {original.match}, not {report.match}")
    fields = resolve_report(c, report, roll_missing=False, amending=original)
    before = original.model_dump(mode="json")
    after = {k: to_jsonable_python(v) for k, v in fields.items()}
    amendment = {k: v for k, v in after.items() if before.get(k) != v}
    return plan_correct(source, c, target, "amend", amendment, reason)


def check_amendment(original: ev.LedgerEvent, amendment: dict[str, Any]) -> None:
    if not amendment:
        raise InvalidInput("an amendment needs at least one field to change")
    touched = set(amendment) & ENVELOPE
    if touched:
        raise InvalidInput(
            f"who recorded an event, when, and its hashes cannot be amended: {sorted(touched)}"
        )
    unknown = set(amendment) - set(type(original).model_fields)
    if unknown:
        raise InvalidInput(
            f"{type(original).__name__} has no field(s) {sorted(unknown)}"
            f" (fields: {', '.join(sorted(set(type(original).model_fields) - ENVELOPE))})"
        )
    try:
        amended(original, draft(ev.EventCorrected, {"amendment": amendment}))
    except ValidationError as error:
        problem = error.errors()[0]
        place = ".".join(str(p) for p in problem["loc"])
        raise InvalidInput(f"amended {place}: {problem['msg']}") from None


def rehearse(c: Context, events: list[ev.LedgerEvent], correction: ev.EventCorrected) -> None:
    """Refold the league with the correction in force; refuse if it does not hold."""
    corrections = corrections_of(events)
    corrections[correction.target] = correction
    memory = MemoryStore()
    try:
        Fold(memory, c.ruleset, c.league_id, corrections=corrections).apply_all(events)
    except (LookupError, ValueError, KeyError) as error:
        raise CorrectionRefused(
            f"the league would no longer add up with event"
            f" {correction.target} {correction.action}ed: {error}"
        ) from None
    lines = [line for line in memory.lines[TreasuryLine] if isinstance(line, TreasuryLine)]
    negative = [line for line in lines if line.balance < 0]
    if negative:
        first = negative[0]
        raise CorrectionRefused(
            f"with event {correction.target} {correction.action}ed, {first.team_id}'s treasury"
            f" would fall to {first.balance:,} at event {first.seq}: correct that event first"
        )
