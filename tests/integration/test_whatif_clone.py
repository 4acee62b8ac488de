"""A what-if's clone is total: whatever the fold, the store or the replayer hold, the clone
holds its own copy of it (sharing only what never changes), and goes its own way.

The BB2025 league of tests/integration/test_whatif_editions.py (two teams, one game) is
folded up to its game, cloned, and each side folded on differently.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.domain.events import LedgerEvent
from ledger.domain.state import ENTITY_RECORDS, PlayerRow, Record
from ledger.projections.fold import Fold, corrections_of
from ledger.projections.store import MemoryStore
from ledger.rules import find_ruleset
from ledger.whatif.replay import Replayer, replay, source_ruleset, translate
from ledger.whatif.shared import start
from tests.integration.test_whatif_editions import bb2025_log
from tests.support import without_play

__all__ = ["bb2025_log"]  # the fixture, shared


def tables(store: MemoryStore) -> dict[str, list[Record]]:
    return {kind.table: store.all(kind) for kind in ENTITY_RECORDS}


def own_fold(log: list[LedgerEvent]) -> Fold:
    ruleset = source_ruleset(log)
    return Fold(MemoryStore(), ruleset, str(log[0].originator_id), True, corrections_of(log))


def test_a_cloned_fold_goes_on_alone_and_leaves_the_original_as_it_stood(
    bb2025_log: list[LedgerEvent],
) -> None:
    half = len(bb2025_log) // 2
    fold = own_fold(bb2025_log)
    fold.apply_all(bb2025_log[:half])
    assert isinstance(fold.store, MemoryStore)
    before = tables(fold.store)
    twin = fold.clone()
    twin.apply_all(bb2025_log[half:])
    assert tables(fold.store) == before
    whole = own_fold(bb2025_log)
    whole.apply_all(bb2025_log)
    assert isinstance(twin.store, MemoryStore)
    assert isinstance(whole.store, MemoryStore)
    assert tables(twin.store) == tables(whole.store)
    assert twin.store.lines == whole.store.lines
    assert twin.ruleset is fold.ruleset  # immutable: shared


@dataclass
class LaterFold(Fold):
    """A fold with a field the clone has never heard of."""

    seen: dict[str, list[int]] = field(default_factory=dict)


def test_a_field_added_to_the_fold_later_is_copied_too(bb2025_log: list[LedgerEvent]) -> None:
    ruleset = source_ruleset(bb2025_log)
    fold = LaterFold(MemoryStore(), ruleset, str(bb2025_log[0].originator_id))
    fold.seen["reavers"] = [1]
    twin = fold.clone()
    twin.seen["reavers"].append(2)
    twin.seen["rats"] = [3]
    assert fold.seen == {"reavers": [1]}
    assert isinstance(twin, LaterFold)


def test_an_attribute_added_to_the_store_later_is_copied_too() -> None:
    store = MemoryStore()
    store.__dict__["kept"] = {"reavers": {"p1"}}
    twin = store.copy()
    twin.__dict__["kept"]["reavers"].add("p2")
    assert store.__dict__["kept"] == {"reavers": {"p1"}}


def test_a_cloned_replayer_holds_its_own_fold_dice_and_policies(
    bb2025_log: list[LedgerEvent],
) -> None:
    target = find_ruleset("lrb6-zal")
    steps = translate(bb2025_log, target)
    source = source_ruleset(bb2025_log)
    replayer = Replayer(source, target, str(bb2025_log[0].originator_id), 0, explain=False)
    replayer.play(steps[: len(steps) // 2])
    twin = replayer.clone(7)
    assert twin.fold is not replayer.fold
    assert twin.policies.fold is twin.fold
    assert twin.policies.fitter.box is twin.fold.dice
    assert twin.matchday.policies is twin.policies
    assert (twin.seed, twin.fold.dice.seed, replayer.fold.dice.seed) == (7, 7, 0)
    assert twin.source is source  # immutable: shared
    assert twin.target is target


def test_under_its_own_rules_every_step_is_shared_and_a_sample_is_the_whole_fold(
    bb2025_log: list[LedgerEvent],
) -> None:
    own = source_ruleset(bb2025_log)
    steps = translate(bb2025_log, own)
    begun = start(bb2025_log, own, steps)
    assert begun.index == len(steps)  # every roll of the league's own fold is recorded
    whole = replay(bb2025_log, own, seed=3)
    sampled = begun.sample(3)
    for kind in ENTITY_RECORDS:  # a sample keeps no records of play (Fold.counts_play)
        expected = whole.store.all(kind)
        if kind is PlayerRow:
            expected = [without_play(p) for p in whole.store.all(PlayerRow)]
        assert sampled.store.all(kind) == expected
