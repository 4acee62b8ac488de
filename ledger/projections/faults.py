"""Folding a log that may hold an event the ledger cannot apply, without stopping.

Nothing is stored that the ledger cannot apply, but a log written by an older version of
the code, or altered outside it, may hold such an event, and a bug may make a good one
fail. One bad event must not make a whole ledger unusable: the fold passes over it,
records a ``FaultLine`` (``ledger audit verify`` reports it) and goes on; voiding it with
a correction heals the league. Because an event can fail half-way through being applied,
a league is refolded from its start with the failing event passed over, never patched.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ledger.domain.events import EventCorrected, LeagueCreated, LedgerEvent
from ledger.domain.state import FaultLine
from ledger.domain.unreadable import UnreadableEvent, problem_of
from ledger.projections.fold import Fold
from ledger.projections.members import SITE, SiteFold
from ledger.projections.store import MemoryStore
from ledger.rules import find_ruleset
from ledger.rules.protocol import Ruleset

NO_CREATION = "its league has no readable creation event (event 1)"


class FoldFailed(Exception):
    """Event ``seq`` of a league could not be applied; the fold's state is now partial."""

    def __init__(self, league_id: str, seq: int, problem: str) -> None:
        super().__init__(f"event {seq}: {problem}")
        self.league_id = league_id
        self.seq = seq
        self.problem = problem


class FoldStopped(Exception):
    """The fold cannot go on for a reason that is no event's fault (the process keeping
    its settled records was lost): raised through ``apply_checked`` as it is."""


class Folding(Protocol):
    league_id: str

    def apply(self, event: LedgerEvent, stored: bytes | None = None) -> None: ...


def apply_checked(fold: Folding, event: LedgerEvent, stored: bytes | None = None) -> None:
    """Apply ``event`` (given with its stored JSON where a rebuild reads it: ``Fold.apply``)."""
    try:
        fold.apply(event, stored)
    except (FoldFailed, FoldStopped):
        raise
    except Exception as error:  # any failure of a stored event is that event's fault
        raise FoldFailed(fold.league_id, event.seq, problem_of(error)) from error


def league_ruleset(created: LedgerEvent) -> Ruleset:
    """The ruleset a league's first event names; FoldFailed if it names none usable."""
    if isinstance(created, UnreadableEvent):
        raise FoldFailed(str(created.originator_id), created.seq, created.problem)
    if not isinstance(created, LeagueCreated):
        raise FoldFailed(str(created.originator_id), created.seq, NO_CREATION)
    try:
        return find_ruleset(created.ruleset, created.options)
    except Exception as error:  # an unknown ruleset or options: the league cannot fold
        raise FoldFailed(str(created.originator_id), created.seq, problem_of(error)) from error


def fault_line(league_id: str, event: LedgerEvent, problem: str) -> FaultLine:
    topic = event.topic if isinstance(event, UnreadableEvent) else type(event).__name__
    return FaultLine.build(league_id=league_id, seq=event.seq, topic=topic, problem=problem)


@dataclass
class Folded:
    """One league folded in memory: its state, the faults passed over (by event number)
    and the fold, which can go on applying later events (None when the league's
    creation could not fold)."""

    store: MemoryStore
    faults: dict[int, str]
    fold: Fold | None


Watch = Callable[[Fold, LedgerEvent], None]
"""Called after each event a fold has applied (a correction's rehearsal looks at the state
each event leaves); called again from the start when the fold starts again."""


def fold_league(
    events: Sequence[LedgerEvent],
    league_id: str,
    corrections: Mapping[int, EventCorrected],
    ruleset: Ruleset | None = None,
    watch: Watch | None = None,
) -> Folded:
    """Fold one league in memory, passing over every event that fails."""
    if not events:
        return Folded(MemoryStore(), {}, None)
    if league_id == SITE:
        return fold_site(events)
    try:
        ruleset = ruleset or league_ruleset(events[0])
    except FoldFailed as failed:
        return orphaned(league_id, events, failed)
    faults: dict[int, str] = {}
    while True:
        store = MemoryStore()
        fold = Fold(store, ruleset, league_id, corrections=corrections, faults=faults)
        try:
            for event in events:
                apply_checked(fold, event)
                if watch is not None:
                    watch(fold, event)
        except FoldFailed as failed:
            if failed.seq in faults or failed.seq == 1:
                return orphaned(league_id, events, failed)
            faults[failed.seq] = failed.problem
            continue
        return Folded(store, faults, fold)


def fold_site(events: Sequence[LedgerEvent]) -> Folded:
    """The site's log, passing over what fails (it has no ruleset and no corrections)."""
    faults: dict[int, str] = {}
    while True:
        store = MemoryStore()
        site = SiteFold(store, faults)
        try:
            for event in events:
                apply_checked(site, event)
        except FoldFailed as failed:
            if failed.seq in faults:
                raise
            faults[failed.seq] = failed.problem
            continue
        return Folded(store, faults, None)


def orphaned(league_id: str, events: Sequence[LedgerEvent], failed: FoldFailed) -> Folded:
    """A league whose creation cannot fold: every event of it is a fault, the first
    with the reason, so that each is reported and none is silently lost."""
    store = MemoryStore()
    for index, event in enumerate(events):
        store.emit(fault_line(league_id, event, failed.problem if index == 0 else NO_CREATION))
    return Folded(store, {failed.seq: failed.problem}, None)
