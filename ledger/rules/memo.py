"""Answers that a match report's facts alone decide, worked out once while the report lives.

A Monte Carlo what-if folds the same translated reports in every sample
(ledger/whatif/shared.py). What a report's facts alone decide under an edition (each
player's SPP for what he did, the casualties a side caused that earn SPP) is then the same
in every sample, so it is worked out once per report and kept with the part of the report
it read (its owner: a team sheet, or the report itself). An entry goes with its owner (a
weak reference): a rebuild, which meets each report once, keeps no report alive by it.

Worked example: ``memo.get(sheet, (match.casualties,), lambda: spp(match, sheet))`` works
out a sheet's SPP the first time and answers every later sample with the same tuple.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class ReportMemo(Generic[T]):
    """Answers by owner (held weakly) and the other inputs they were worked out from."""

    def __init__(self) -> None:
        self.kept: dict[int, tuple[weakref.ref[object], list[tuple[tuple[object, ...], T]]]] = {}

    def get(self, owner: object, also: tuple[object, ...], work: Callable[[], T]) -> T:
        """``work()`` for ``owner`` and ``also`` (the other immutable inputs it reads: the
        report's casualties, a team's id...): worked out the first time, then kept while
        the owner lives. ``work`` must read nothing that changes (no league state: only
        the report and the edition's tables)."""
        key = id(owner)
        kept = self.kept.get(key)
        if kept is None or kept[0]() is not owner:
            kept = (weakref.ref(owner, self.forgetting(key)), [])
            self.kept[key] = kept
        for seen, answer in kept[1]:
            if seen == also:  # the same objects, mostly: compared by identity first
                return answer
        answer = work()
        kept[1].append((also, answer))
        return answer

    def forgetting(self, key: int) -> Callable[[weakref.ref[object]], None]:
        """The callback that drops ``key``'s entry when its owner is gone (and only that
        entry: the id may name a newer owner by the time a collection runs it)."""
        kept = self.kept

        def forget(gone: weakref.ref[object]) -> None:
            entry = kept.get(key)
            if entry is not None and entry[0] is gone:
                kept.pop(key, None)

        return forget
