"""Answers that a match report's facts alone decide, worked out once while the report lives.

A Monte Carlo what-if folds the same translated reports in every sample
(ledger/whatif/shared.py). What a report's facts alone decide under an edition (each
player's SPP for what he did in the game) is then the same in every sample, so it is
worked out once per report and kept by the identity of the parts of the report it read.
An entry goes with its sheet (a weak reference): a rebuild, which meets each report once,
keeps no report alive by it.

Worked example: ``memo.get(sheet, match.casualties, lambda: spp(match, sheet))`` computes
the SPP of a sheet the first time and answers every later sample with the same tuple.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from ledger.domain.values import TeamSheet

T = TypeVar("T")


class SheetMemo(Generic[T]):
    """One answer per team sheet (and the other immutable part of its report it read)."""

    def __init__(self) -> None:
        self.kept: dict[int, tuple[weakref.ref[TeamSheet], object, T]] = {}

    def get(self, sheet: TeamSheet, also: object, work: Callable[[], T]) -> T:
        """``work()`` for ``sheet`` and ``also`` (its report's casualties...): worked out
        the first time, then kept while the sheet lives. ``work`` must read nothing else
        that changes (no league state: only the report and the edition's tables)."""
        key = id(sheet)
        kept = self.kept.get(key)
        if kept is not None and kept[0]() is sheet and kept[1] is also:
            return kept[2]
        answer = work()
        self.kept[key] = (weakref.ref(sheet, self.forgetting(key)), also, answer)
        return answer

    def forgetting(self, key: int) -> Callable[[weakref.ref[TeamSheet]], None]:
        """The callback that drops ``key``'s entry when its sheet is gone (and only that
        entry: the id may name a newer sheet by the time a collection runs it)."""
        kept = self.kept

        def forget(gone: weakref.ref[TeamSheet]) -> None:
            entry = kept.get(key)
            if entry is not None and entry[0] is gone:
                del kept[key]

        return forget
