"""The casualties of a match that earn SPP, counted by the player who inflicted them.

A side's SPP are paid in one pass (``BaseRuleset.sheet_spp``): one look through the match's
casualties, not one for every player on the sheet (most of them caused none). The edition
says which casualties earn SPP (``casualty_earns_spp``).

Worked example: casualties inflicted by p1 (a block), p1 (a foul) and p2 (a block), under
an edition that pays for blocks only: ``{"p1": 1, "p2": 1}``; p3, who caused none, is
absent (``.get(player, 0)``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ledger.domain.values import Casualty


def caused_by(casualties: Iterable[Casualty], earns: Callable[[Casualty], bool]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for c in casualties:
        if c.inflicted_by is not None and earns(c):
            counts[c.inflicted_by] = counts.get(c.inflicted_by, 0) + 1
    return counts
