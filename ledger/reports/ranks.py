"""Shared places: tied teams and players share a rank, and the next place counts them
(1, 1, 3), everywhere in the report.

A league table's order comes from the ruleset's tie-breakers; teams still level after all
of them are listed in team-id order (``separated_by`` is ``protocol.LEVEL``), which is
no sporting reason for one to be placed above the other, so the report gives them the same
place. The play-off marks still follow the ruleset's order: deciding between truly level
teams is the commissioner's call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ledger.rules.protocol import LEVEL


class Placed(Protocol):
    @property
    def team_id(self) -> str: ...

    @property
    def rank(self) -> int: ...

    @property
    def separated_by(self) -> str | None: ...


def shared_ranks(table: Sequence[Placed]) -> dict[str, int]:
    """Each team's place in ``table`` (in its order), shared with the team above it when
    only the team order put that one first."""
    ranks: dict[str, int] = {}
    above: Placed | None = None
    for row in table:
        level = above is not None and above.separated_by == LEVEL
        ranks[row.team_id] = ranks[above.team_id] if level and above else row.rank
        above = row
    return ranks
