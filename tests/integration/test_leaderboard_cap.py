"""A season report's leaderboard lists at most ``MOST`` players: those level with the last
one listed and left out are counted (``more``), not dropped without a word, and players
level on the board are listed by name with numbers read as numbers (t008-7 before
t008-14), as a helper found them in a generated league (forty-fourth session)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ledger.reports.model import SeasonStats
from ledger.reports.stats import MOST, leaderboard


def board(mvps: dict[str, int]) -> Any:
    stats = {pid: SeasonStats(mvps=count) for pid, count in mvps.items()}
    players = {pid: SimpleNamespace(name=pid, team_id="t") for pid in mvps}
    sources = SimpleNamespace(team_name=lambda team_id: team_id)
    return leaderboard("mvps", "MVP awards", "MVP", stats, players, sources)  # type: ignore[arg-type]


def test_players_level_with_the_last_listed_are_counted() -> None:
    found = board({"ace": 4, **{f"t008-{n}": 2 for n in range(1, 15)}})
    assert len(found.entries) == MOST
    assert found.more == 14 - (MOST - 1)
    assert [e.name for e in found.entries[1:4]] == ["t008-1", "t008-2", "t008-3"]


def test_nobody_left_out_counts_none() -> None:
    assert board({"a": 3, "b": 2, "c": 1}).more == 0
