"""Folding the events of many logs, each league's in its own order, into one store.

A rebuild streams the whole log through one ``LogFolder``; a parallel rebuild's worker
streams its share of the leagues through its own (ledger/projections/parallel.py). Both
give a league the same fold, faults and all, because leagues are independent: nothing a
league's fold reads or writes is another's (every record and line is keyed by league).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator, Mapping

from ledger.domain.events import EventCorrected, LeagueCreated, LedgerEvent
from ledger.projections.faults import (
    NO_CREATION,
    FoldFailed,
    Folding,
    apply_checked,
    fault_line,
    league_ruleset,
)
from ledger.projections.fold import Fold
from ledger.projections.members import SITE, SiteFold
from ledger.projections.store import MemoryStore

Corrections = Mapping[str, Mapping[int, EventCorrected]]
"""Each league's corrections, by the event they correct (the latest of each)."""
Faults = Mapping[str, Mapping[int, str]]
"""Each league's events known not to apply, by number, with why."""


class LogFolder:
    """Applies events of any logs to ``memory``, starting each league's fold at its
    first event. A league whose first event is not a readable creation cannot fold: each
    of its events is recorded as a fault instead, so none is silently lost."""

    def __init__(self, memory: MemoryStore, corrections: Corrections, faults: Faults) -> None:
        self.memory = memory
        self.corrections = corrections
        self.faults = faults
        self.folds: dict[str, Folding] = {}
        self.orphans: set[str] = set()
        self.last_log: object = None
        self.last_league = ""
        """The last event's log id, and its text: a log's events share one id object
        (ledger/domain/readback.py, ``IDS``), and a UUID's text is made in Python."""

    def apply(self, event: LedgerEvent, stored: bytes | None = None) -> None:
        """Raises ``FoldFailed`` when the event cannot be applied (the caller starts
        again with it among the faults)."""
        if event.originator_id is not self.last_log:
            self.last_log, self.last_league = event.originator_id, str(event.originator_id)
        league_id = self.last_league
        fold = self.folds.get(league_id)
        if fold is None:
            if league_id in self.orphans:
                self.memory.emit(fault_line(league_id, event, NO_CREATION))
                return
            try:
                fold = self.folds[league_id] = self.start(league_id, event)
            except FoldFailed as failed:
                self.orphans.add(league_id)
                self.memory.emit(fault_line(league_id, event, failed.problem))
                return
        apply_checked(fold, event, stored)

    def start(self, league_id: str, first: LedgerEvent) -> Folding:
        if league_id == SITE:
            return SiteFold(self.memory, self.faults.get(SITE, {}))
        if not isinstance(first, LeagueCreated):
            raise FoldFailed(league_id, first.seq, NO_CREATION)
        return Fold(
            self.memory,
            league_ruleset(first),
            league_id,
            corrections=self.corrections.get(league_id, {}),
            faults=self.faults.get(league_id, {}),
            every_correction=True,
        )


@contextlib.contextmanager
def few_collections() -> Iterator[None]:
    """Run the cyclic garbage collector rarely while a fold builds up state.

    A fold allocates millions of records that live long and form no cycles; with the
    default thresholds the collector walks the whole growing state again and again
    (1.2-1.35x the fold's time, growing with the ledger). Objects from before are frozen
    out of its sight, and a young generation of 50,000 objects keeps the walks rare.
    """
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
