"""Correcting the log: void or amend an earlier event, never edit it (DESIGN.md decision 5).

Before a correction is accepted, the league is refolded in memory as if it were already
recorded. If the corrected history no longer folds (a voided registration of a team that
later played) or leaves a treasury below zero (voided winnings that paid for a player),
the correction is refused with the event to fix first.

A correction reaches what depended on the event it corrects: a voided match report takes
the post-game closes that followed it with it (the fold does it: ``Fold.follow_match``),
and a match is amended against the league as it stood before it (``context_before``), so
the injuries the match itself caused do not bar its own players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pydantic import ValidationError

from ledger.application.amendments import Replanned, check_as_planned
from ledger.application.books import fold_books
from ledger.application.commands import Correct, CorrectMatch
from ledger.application.context import Context, Drafts, check_reason
from ledger.application.matches import check_played, resolve_report
from ledger.domain import events as ev
from ledger.domain.state import FaultLine, LeagueRow, MatchRow
from ledger.domain.values import validation_problems
from ledger.errors import CorrectionRefused, InvalidInput, UnknownEvent
from ledger.projections.fold import Fold, amended, corrections_of
from ledger.projections.store import MemoryStore
from ledger.words import spaced

ENVELOPE = ev.ENVELOPE | {"originator_topic"}
"""What no amendment may touch: who recorded an event, when, why, and its place in the chain."""


def plan_correct(c: Context, command: Correct) -> Drafts:
    amendment = dict(command.amendment or {})
    events = c.history()
    if command.action == "amend":
        check_fields_amendable(event_at(c, events, command.target), amendment)
        amendment = {**amended_before(events, command.target), **amendment}
    return correction(c, events, command.target, command.action, amendment, c.reason)


def amended_before(events: list[ev.LedgerEvent], target: int) -> dict[str, Any]:
    """The fields an amendment in force already changed: the fold reads an event's latest
    correction alone, so a second amendment carries the first one's fields, or setting the
    name would put back the number set before (``changes`` does so for a whole report)."""
    current = corrections_of(events).get(target)
    return dict(current.amendment) if current is not None and current.action == "amend" else {}


def correction(
    c: Context,
    events: list[ev.LedgerEvent],
    target: int,
    action: str,
    amendment: dict[str, Any],
    reason: str | None,
) -> Drafts:
    check_reason(reason, "a correction", "it is kept in the log beside the event it corrects")
    original = event_at(c, events, target)
    if isinstance(original, ev.EventCorrected):
        raise CorrectionRefused(
            f"event {target} is itself a correction: correct event {original.target} again instead"
        )
    void = voids_in_force(events).get(target)
    if action == "amend":
        check_amend(events, original, void, amendment)
        asked = ev.EventCorrected(target=target, action="amend", amendment=amendment)
        check_as_planned(context_before(c, events, target), c, amended(original, asked))
    elif action != "void":
        raise InvalidInput(f"a correction voids or amends, not '{action}'")
    elif amendment:
        raise InvalidInput("a void carries no amendment")
    else:
        check_not_voided(original, void)
        check_fixtures_unplayed(events, original)
        check_season_unplayed(c, original)
    proposed = ev.EventCorrected(
        target=target, action="amend" if action == "amend" else "void", amendment=amendment
    )
    rehearse(c, events, proposed)
    return [proposed]


def check_amend(
    events: list[ev.LedgerEvent],
    original: ev.LedgerEvent,
    void: Void | None,
    amendment: dict[str, Any],
) -> None:
    """An amendment is refused unless it is well formed and the fold would read it."""
    check_amendment(original, amendment)
    check_not_voided_with_report(original, void)
    check_something_amended(events, original, void, amendment)
    check_not_recorded_again(events, original)


def event_at(c: Context, events: list[ev.LedgerEvent], target: int) -> ev.LedgerEvent:
    original = next((e for e in events if e.seq == target), None)
    if original is None or target < 2:
        raise UnknownEvent(
            f"league {c.league.slug} has no event {target} that can be corrected"
            f" (events 2-{len(events)})"
        )
    return original


def plan_correct_match(c: Context, command: CorrectMatch) -> Drafts:
    """Amend a recorded match with a corrected report: only the fields that differ.

    The report is checked against the league as it stood before the match, so that the
    injuries the match itself caused do not bar its own players."""
    target, report, reason = command.target, command.report, c.reason
    events = c.history()
    original = next((e for e in events if e.seq == target), None)
    if not isinstance(original, ev.MatchRecorded):
        raise InvalidInput(f"event {target} is not a match report")
    if report.match not in (None, original.match):
        raise InvalidInput(f"event {target} records match {original.match}, not {report.match}")
    draft = resolve_report(
        context_before(c, events, target), report, roll_missing=False, amending=original
    )
    # the event's own serializer: a nested value it holds (a concession) may be one pydantic
    # alone has not been asked to serialize before (``to_jsonable_python`` refused it)
    dumped = draft.model_dump(mode="json")
    after = {k: dumped[k] for k in draft.facts()}
    amendment = changes(original, corrections_of(events).get(target), after)
    if not amendment:
        raise InvalidInput(
            f"the corrected report records match {original.match} as event {target} already"
            " stands: nothing to amend"
        )
    return correction(c, events, target, "amend", amendment, reason)


def changes(
    original: ev.MatchRecorded, current: ev.EventCorrected | None, after: dict[str, Any]
) -> dict[str, Any]:
    """The amendment that makes ``original`` read as ``after``: every field that differs
    from the original, and every field an earlier amendment changed (a later correction
    replaces an earlier one, so the fields it leaves out read as the original). Empty when
    the match already stands so."""
    before = original.model_dump(mode="json")
    earlier = current.amendment if current is not None and current.action == "amend" else {}
    amendment = {k: v for k, v in after.items() if before.get(k) != v or k in earlier}
    if current is not None and current.action == "void":
        return amendment or {"match": original.match}  # brought back as it was recorded
    standing = {**before, **earlier}
    if all(standing.get(k) == v for k, v in amendment.items()):
        return {}
    return amendment


def context_before(c: Context, events: list[ev.LedgerEvent], seq: int) -> Context:
    """The league as it stood just before event ``seq``, with every correction in force."""
    memory = MemoryStore()
    fold = Fold(memory, c.ruleset, c.league_id, corrections=corrections_of(events))
    fold.apply_all(e for e in events if e.seq < seq)
    league = memory.get(LeagueRow, c.league_id)
    assert league is not None  # event 1, the league's creation, comes before any match
    return replace(c, view=memory, league=league)


def check_not_recorded_again(events: list[ev.LedgerEvent], original: ev.LedgerEvent) -> None:
    """A voided match report that was recorded again cannot be brought back beside its new
    record: the match would count twice."""
    corrections = corrections_of(events)
    if not isinstance(original, ev.MatchRecorded) or not voided(corrections, original.seq):
        return
    again = [
        e.seq
        for e in events
        if isinstance(e, ev.MatchRecorded)
        and e.match == original.match
        and e.seq != original.seq
        and not voided(corrections, e.seq)
    ]
    if again:
        raise CorrectionRefused(
            f"match {original.match} was recorded again (event {again[0]}) after event"
            f" {original.seq} was voided: correct event {again[0]} instead"
        )


def check_fixtures_unplayed(events: list[ev.LedgerEvent], original: ev.LedgerEvent) -> None:
    """A schedule is voided only while none of its fixtures is played: voided with a game
    recorded, the game would stand outside any fixture and the rest of the season could
    neither be played nor scheduled again."""
    if not isinstance(original, ev.FixturesScheduled):
        return
    fixtures = {f.id for f in original.fixtures}
    in_force = voids_in_force(events)
    played = next(
        (
            e
            for e in events
            if isinstance(e, ev.MatchRecorded) and e.match in fixtures and e.seq not in in_force
        ),
        None,
    )
    if played is not None:
        raise CorrectionRefused(
            f"fixture {played.match} of event {original.seq} was played (event {played.seq}):"
            " void its report first"
        )


def check_season_unplayed(c: Context, original: ev.LedgerEvent) -> None:
    """A season's start is voided only while none of its games is played: a league played
    without a schedule has no fixture to hold its games to the season, and voided under
    them they would stand in no season, and the next season started would take them in."""
    if not isinstance(original, ev.SeasonStarted):
        return
    games = c.view.select(MatchRow, league_id=c.league_id, season=original.season)
    played = min((m.recorded_seq for m in games if m.recorded_seq is not None), default=None)
    if played is not None:
        raise CorrectionRefused(
            f"season {original.season} of event {original.seq} has games played (the first"
            f" is event {played}): void them first"
        )


@dataclass(frozen=True)
class Void:
    """How a voided event stands voided: by which correction, and, for a post-game close
    voided with the match report it follows, that report."""

    by: int
    report: int | None = None


def voids_in_force(events: Sequence[ev.LedgerEvent]) -> dict[int, Void]:
    """Every voided event, by number, read as the fold reads it (``Fold.follow_match``): a
    void of the event itself, or of the match report a post-game close follows, which
    voids the close whatever the close's own correction says."""
    corrections = corrections_of(events)
    found: dict[int, Void] = {}
    reports: dict[str, int] = {}
    for event in events:
        correction = corrections.get(event.seq)
        if correction is not None and correction.action == "void":
            found[event.seq] = Void(correction.seq)
        if isinstance(event, ev.MatchRecorded):
            reports[match_read(event, correction)] = event.seq
        elif isinstance(event, ev.PostGameClosed):
            report = reports.get(match_read(event, correction), 0)
            if report in found:
                found[event.seq] = Void(found[report].by, report)
    return found


def match_read(
    event: ev.MatchRecorded | ev.PostGameClosed, correction: ev.EventCorrected | None
) -> str:
    """The match an event is about, as amended (ledgers from before ``match`` could no
    longer be amended may hold such amendments)."""
    if correction is None or correction.action != "amend":
        return event.match
    return str(correction.amendment.get("match", event.match))


def check_not_voided(original: ev.LedgerEvent, void: Void | None) -> None:
    """A second void would change nothing, and would rewrite what history says the first
    one voided (the fold reads only the latest correction of each event)."""
    if void is None:
        return
    with_report = f" with match report {void.report}" if void.report is not None else ""
    raise CorrectionRefused(
        f"event {original.seq} is already voided{with_report} (event {void.by}): nothing to void"
    )


def check_not_voided_with_report(original: ev.LedgerEvent, void: Void | None) -> None:
    """A close voided with its match report stays voided whatever its own correction says
    (``Fold.follow_match``): an amendment of it would be stored and never read."""
    if void is None or void.report is None:
        return
    raise CorrectionRefused(
        f"event {original.seq} was voided with match report {void.report} (event {void.by}):"
        f" amend event {void.report} to bring the match back first"
    )


def check_something_amended(
    events: list[ev.LedgerEvent],
    original: ev.LedgerEvent,
    void: Void | None,
    amendment: dict[str, Any],
) -> None:
    """An amendment that leaves the event reading as it stands would be stored and change
    nothing. Amending a voided event always changes something: it brings the event back."""
    if void is not None:
        return
    current = corrections_of(events).get(original.seq)
    standing = amended(original, current) if current is not None else original
    proposed = amended(
        original, ev.EventCorrected(target=original.seq, action="amend", amendment=amendment)
    )
    if proposed.model_dump() == standing.model_dump():
        raise InvalidInput(f"event {original.seq} already reads so: nothing to amend")


FIXED_IN_REPORT = {
    "kind": "comes from its fixture",
    "season": "comes from its fixture",
    "round": "comes from its fixture",
    "winner": "follows from its score",
    "home": "is a side's sheet (its players, their touchdowns, its dice)",
    "away": "is a side's sheet (its players, their touchdowns, its dice)",
    "others": "are the other sides' sheets",
    "casualties": "name who was hurt and by whom",
    "concession": "names a side of the game",
    "shootout": "follows from a level play-off",
    "dice": "are the rolls the edition asks of the game",
}
"""Fields of a match report that the report's own checks decide (``resolve_report``: a
player plays for his side, touchdowns add up, a casualty's victim played, the dice are
the edition's): set alone they would escape those checks, so they change only with a
whole corrected report, checked as a report is. What is left to set alone is what no
check reads: the weather, the referee, the day."""


TIES: Mapping[str, tuple[type[ev.LedgerEvent], ...]] = {
    "team": (ev.LedgerEvent,),
    "player": (ev.PlayerHired,),
    "roster": (ev.TeamRegistered,),
}
"""Fields that, besides a match, tie an event to others: the team an event is about (a
hire's player played for it, a close is its side of the game, a purchase came from its
treasury), a hire's player id that every later event names him by, a team's list, whose
positions, profiles and prices every hire and purchase of the team was recorded by (a
later hire may still be of a position the other list has, at the price it was paid)."""
TIE_WORDS = {
    "team": "its team and what followed it",
    "player": "every later event about him",
    "roster": "every player the team hired and all it bought, at its list's prices",
}


def amendable_fields(kind: type[ev.LedgerEvent]) -> list[str]:
    """The fields of an event of ``kind`` an amendment may name (its envelope aside)."""
    return sorted(set(kind.model_fields) - ENVELOPE)


def check_fields_amendable(original: ev.LedgerEvent, amendment: Mapping[str, Any]) -> None:
    """Refuse a field that ties the event to others, or that a report's checks decide.
    Setting one to the value it was recorded with changes nothing, and is how a voided
    report is brought back (``changes``)."""
    recorded = original.model_dump(mode="json")
    changed = sorted(k for k, v in amendment.items() if k in recorded and recorded[k] != v)
    seq = original.seq
    tie = next((k for k in changed if k in TIES and isinstance(original, TIES[k])), None)
    if tie is not None:
        raise InvalidInput(
            f"the {tie} of event {seq} cannot be amended: it ties the event to"
            f" {TIE_WORDS[tie]}; void event {seq} and record it anew"
        )
    if isinstance(original, ev.AdvancementRolled) and changed:
        raise InvalidInput(
            f"the ledger's roll of event {seq} cannot be amended: its dice are the ledger's,"
            f" its kind and column were fixed before them; void event {seq} if it was made"
            " in error"
        )
    if "match" in changed:
        raise InvalidInput(
            f"the match of event {seq} cannot be amended: it ties the event to its fixture"
            f" and to what followed it; void event {seq} and record it for the right match"
        )
    fixed = [k for k in changed if k in FIXED_IN_REPORT]
    if isinstance(original, ev.MatchRecorded) and fixed:
        raise InvalidInput(
            f"the {fixed[0]} of match report {seq} {FIXED_IN_REPORT[fixed[0]]}, checked"
            f" with the report: correct event {seq} with a whole corrected report instead"
        )


def voided(corrections: Mapping[int, ev.EventCorrected], seq: int) -> bool:
    found = corrections.get(seq)
    return found is not None and found.action == "void"


def check_amendment(original: ev.LedgerEvent, amendment: dict[str, Any]) -> None:
    if not amendment:
        raise InvalidInput("an amendment needs at least one field to change")
    touched = set(amendment) & ENVELOPE
    if touched:
        raise InvalidInput(
            "who recorded or caused an event, as whom, from where, when and why, and its"
            f" hashes cannot be amended: {', '.join(sorted(touched))}"
        )
    unknown = set(amendment) - set(type(original).model_fields)
    if unknown:
        raise InvalidInput(
            f"a {spaced(type(original).__name__)} event has no"
            f" {'field' if len(unknown) == 1 else 'fields'}"
            f" {', '.join(sorted(unknown))}"
            f" (fields: {', '.join(amendable_fields(type(original)))})"
        )
    try:
        amended(
            original, ev.EventCorrected(target=original.seq, action="amend", amendment=amendment)
        )
    except ValidationError as error:
        raise InvalidInput(f"amended {validation_problems(error)}") from None
    if isinstance(original, ev.MatchRecorded) and amendment.get("played_on"):
        check_played(amendment["played_on"])  # as the report's own day is checked


def rehearse(c: Context, events: list[ev.LedgerEvent], correction: ev.EventCorrected) -> None:
    """Refold the league with the correction in force; refuse if it does not hold."""
    corrections = corrections_of(events)
    corrections[correction.target] = correction
    replanned = Replanned(c, events, correction.target)
    folded, overdrawn = fold_books(events, c.league_id, corrections, c.ruleset, replanned)
    known = {line.seq for line in c.view.select(FaultLine, league_id=c.league_id)}
    new = sorted(set(folded.faults) - known)  # voiding an event at fault heals; never harms
    if folded.fold is None or new:
        seq = new[0] if new else 1
        raise CorrectionRefused(
            f"the league would no longer add up with event"
            f" {correction.target} {correction.action}ed: event {seq}"
            f" {folded.faults.get(seq, 'would not apply')}"
        )
    if overdrawn is not None:
        spent = f", {overdrawn.spent_on}" if overdrawn.spent_on else ""
        raise CorrectionRefused(
            f"with event {correction.target} {correction.action}ed, {overdrawn.falls}"
            f" at event {overdrawn.seq}{spent}: correct that event first"
        )
    if replanned.refused:
        check_later_events(c, events, correction, replanned.refused)


def check_later_events(
    c: Context,
    events: list[ev.LedgerEvent],
    correction: ev.EventCorrected,
    refused: Mapping[int, str],
) -> None:
    """Refuse the correction if a later event's command would now refuse it where it did
    not before (an event today's checks refuse anyway, recorded before they existed, is
    not the correction's doing): the history as it stands is planned again alike."""
    before = Replanned(c, events, correction.target)
    fold_books(events, c.league_id, corrections_of(events), c.ruleset, before)
    new = sorted(set(refused) - set(before.refused))
    if new:
        seq = new[0]
        kind = spaced(type(next(e for e in events if e.seq == seq)).__name__)
        raise CorrectionRefused(
            f"with event {correction.target} {correction.action}ed, event {seq} ({kind})"
            f" could not have been recorded: {refused[seq]}; correct that event first"
        )
