"""Many commands against one league in a single unit of work, for bulk loads.

The same plans validate each command as ``LeagueLedger.run`` does; only persistence
differs: the state is folded in memory as the facts are recorded, and the league's log is
saved in large appends instead of one transaction per command. The read models are
rebuilt from the log at the end. This is how ``ledger generate`` makes a league of a
million events in minutes; it holds the league's whole state in memory and assumes no
other writer (a concurrent command would make its next save fail on the log's version,
and nothing of the batch after its last save would be written).
"""

from __future__ import annotations

from types import TracebackType
from typing import TypeVar

from ledger.application.commands import Command
from ledger.application.context import Context, decided, drafting
from ledger.application.service import LeagueLedger
from ledger.application.unit import Plan
from ledger.domain.events import LedgerEvent
from ledger.domain.log import LeagueLog
from ledger.domain.state import LeagueRow
from ledger.projections.fold import Fold, corrections_of
from ledger.projections.store import MemoryStore
from ledger.rules import find_ruleset

SAVE_EVERY = 5_000
R = TypeVar("R")


class Batch:
    def __init__(self, ledger: LeagueLedger, league: str, *, by: str) -> None:
        self.ledger = ledger
        self.league = league
        self.by = by
        self.log: LeagueLog = ledger.load_log(league)
        events = list(ledger.source.league_events(str(self.log.id)))
        self.state = MemoryStore(sink=lambda kind, row: None)  # lines go to the rebuild
        row = ledger.league_row(league)
        self.ruleset = find_ruleset(row.ruleset, row.options)
        self.fold = Fold(
            self.state, self.ruleset, str(self.log.id), corrections=corrections_of(events)
        )
        self.fold.apply_all(events)
        self.recorded = 0

    def context(self, reason: str | None = None) -> Context:
        league = self.state.get(LeagueRow, str(self.log.id))
        assert league is not None
        return Context(
            view=self.state,
            league=league,
            ruleset=self.ruleset,
            roller=self.ledger.roller,
            reason=reason,
            account=self.ledger.account,
        )

    def handle(self, command: Command[R], reason: str | None = None) -> R:
        """Validate and record one command through the ledger's handler of it, as
        ``LeagueLedger.handle`` does (the command's league is the batch's)."""
        return command.answer(self.run(self.ledger.plan_of(command), command.why(reason)))

    def run(self, plan: Plan, reason: str | None = None) -> list[LedgerEvent]:
        """Validate and record one command's events (raises a LedgerError, records nothing,
        when the plan refuses)."""
        drafts = decided(plan, self.context(reason))
        with drafting():  # the domain's bounds: a reason too long, say
            events = [self.log.seal(draft, recorded_by=self.by, reason=reason) for draft in drafts]
        for event in events:
            self.fold.apply(event)
        self.recorded += len(events)
        if len(self.log.pending_events) >= SAVE_EVERY:
            self.save()
        return events

    def save(self) -> None:
        if self.log.pending_events:
            self.ledger.save(self.log)

    def __enter__(self) -> Batch:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if kind is None:
            self.save()
            self.ledger.read_models.rebuild(self.ledger.source)
