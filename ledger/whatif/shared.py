"""What every sample of a Monte Carlo what-if shares: the state before its first drawn roll.

A sample differs from another only by the rolls the generator draws for it (recorded rolls
are the same in all). Until the replay first asks the generator for a roll - usually the
first game's winnings, after the whole draft - every sample folds the same steps to the
same state, so that part is folded once (``start``) and each sample starts from a clone of
it (``Start.sample``: ``Replayer.clone``, itself ``Fold.clone``) and folds only the steps
from there. The clone is total, so a sample's result is the same as a whole replay's with
its seed, which tests/integration/test_whatif_montecarlo.py checks table by table.

Under the league's own ruleset and options a sample is the league's own fold (the live read
models' code), stepped the same way.

Worked example: a 16-team BB2025 season replayed under lrb6-zal draws its first roll at its
first game, step 252 of 464: ``start`` folds the 252 steps of the draft once, and each of
1,000 samples folds the remaining 212.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ledger.domain import events as ev
from ledger.projections.fold import Fold, corrections_of
from ledger.rules.protocol import Ruleset
from ledger.whatif.replay import (
    Outcome,
    Replayer,
    SampleFold,
    WatchedDice,
    finished,
    is_native,
    memory_fold,
    source_ruleset,
)
from ledger.whatif.translate import Step


class Stepper(Protocol):
    """A replay that goes step by step and can be cloned where it stands."""

    @property
    def fold(self) -> Fold: ...
    def play(self, steps: Sequence[Step]) -> None: ...
    def finish(self, last: int) -> Outcome: ...
    def clone(self, seed: int) -> Stepper: ...


@dataclass
class OwnFold:
    """The league's own fold (own ruleset, own options) stepped like a ``Replayer``: every
    event applied as the live read models apply it, without the audit trail."""

    fold: Fold

    @classmethod
    def of(cls, events: Sequence[ev.LedgerEvent], ruleset: Ruleset, league_id: str) -> OwnFold:
        fold = memory_fold(ruleset, league_id, True, SampleFold, corrections_of(events))
        fold.dice = WatchedDice(league=league_id)
        return cls(fold)

    def play(self, steps: Sequence[Step]) -> None:
        for step in steps:
            self.fold.apply(step.original)

    def finish(self, last: int) -> Outcome:
        return finished(self.fold, [])

    def clone(self, seed: int) -> OwnFold:
        twin = OwnFold(self.fold.clone())
        twin.fold.dice.seed = seed
        return twin


@dataclass(frozen=True)
class Start:
    """Where every sample stands before its first drawn roll, and the steps left to it."""

    stepper: Stepper
    steps: Sequence[Step]
    index: int
    """Steps already played."""

    def sample(self, seed: int) -> Outcome:
        stepper = self.stepper.clone(seed)
        stepper.play(self.steps[self.index :])
        return stepper.finish(self.steps[-1].original.seq if self.steps else 0)


def start(events: Sequence[ev.LedgerEvent], target: Ruleset, steps: Sequence[Step]) -> Start:
    """Fold ``steps`` up to the first that draws a roll (a probe finds it; the steps before
    it are folded again on a fresh replay, which costs less than a clone before each)."""
    index = len(steps)
    probe = stepper(events, target)
    for number, step in enumerate(steps):
        probe.play([step])
        if drawn(probe):
            index = number
            break
    first = stepper(events, target)
    first.play(steps[:index])
    return Start(first, steps, index)


def stepper(events: Sequence[ev.LedgerEvent], target: Ruleset) -> Stepper:
    source, league_id = source_ruleset(events), str(events[0].originator_id)
    if is_native(source, target):
        return OwnFold.of(events, target, league_id)
    return Replayer(source, target, league_id, 0, explain=False)


def drawn(probe: Stepper) -> bool:
    dice = probe.fold.dice
    return isinstance(dice, WatchedDice) and dice.drawn
