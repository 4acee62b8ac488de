"""Leaderboards and records of the season.

The leaderboards sum the season's player game lines, so a veteran's earlier seasons do
not count; the deadliest player too is ranked on the kills of the season's games. A
shared place is shared in full: tied players share a rank (1, 1, 3), and a record held
by several players or games lists every one of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from ledger.domain.state import MatchRow, PlayerRow
from ledger.reports.model import Leaderboard, LeaderEntry, RecordEntry, SeasonStats
from ledger.reports.sources import Sources
from ledger.reports.teams import season_stats

LEADERBOARDS: tuple[tuple[str, str, str], ...] = (
    ("touchdowns", "Touchdowns", "TD"),
    ("casualties", "Casualties", "CAS"),
    ("spp", "Star Player Points", "SPP"),
    ("mvps", "Most Valuable Player awards", "MVP"),
    ("completions", "Completions", "Comp"),
    ("interceptions", "Interceptions", "Int"),
)

LIMIT = 5
"""Places on a leaderboard: more when the last place is shared, up to ``MOST`` lines."""
MOST = 10


def leaderboard(
    stat: str,
    label: str,
    column: str,
    stats: dict[str, SeasonStats],
    players: dict[str, PlayerRow],
    sources: Sources,
) -> Leaderboard:
    scored = sorted(
        ((getattr(s, stat), pid) for pid, s in stats.items() if getattr(s, stat) > 0),
        key=lambda item: (
            -item[0],
            in_order(players[item[1]].name if item[1] in players else item[1]),
        ),
    )
    cutoff = scored[LIMIT - 1][0] if len(scored) >= LIMIT else 0
    entries: list[LeaderEntry] = []
    for value, pid in scored:
        if (len(entries) >= LIMIT and value < cutoff) or len(entries) >= MOST:
            break
        rank = 1 + sum(1 for other, _ in scored if other > value)
        player = players.get(pid)
        team_id = player.team_id if player else ""
        entries.append(
            LeaderEntry(
                rank=rank,
                player_id=pid,
                name=player.name if player else pid,
                team_id=team_id,
                team=sources.team_name(team_id),
                value=value,
            )
        )
    last = entries[-1].value if entries else 0
    more = sum(1 for value, _ in scored[len(entries) :] if value == last)
    return Leaderboard(stat=stat, label=label, column=column, entries=entries, more=more)


def in_order(name: str) -> tuple[tuple[int, str], ...]:
    """A name's sort key with its numbers read as numbers: t008-7 before t008-14."""
    return tuple(
        (int(part), "") if part.isdigit() else (0, part.casefold())
        for part in re.split(r"(\d+)", name)
    )


def leaderboards(sources: Sources) -> list[Leaderboard]:
    stats = season_stats(sources.games)
    players = {p.player_id: p for p in sources.players}
    return [
        leaderboard(stat, label, column, stats, players, sources)
        for stat, label, column in LEADERBOARDS
    ]


T = TypeVar("T")


def tied_best(items: Sequence[T], measure: Callable[[T], int]) -> list[T]:
    """Every item sharing the highest ``measure`` (in their order), if that is above 0;
    at most ``MOST``, like a leaderboard's shared last place."""
    best = max((measure(item) for item in items), default=0)
    return [item for item in items if best > 0 and measure(item) == best][:MOST]


def game_records(
    record: str,
    title: str,
    matches: Sequence[MatchRow],
    measure: Callable[[MatchRow], int],
    sources: Sources,
    *,
    by_winner: bool = False,
) -> list[RecordEntry]:
    """The games with the highest ``measure``, every one of them when several share it.

    The record is held by the winner (``by_winner``) or by both teams."""
    return [
        game_entry(record, title, m, measure(m), sources, by_winner)
        for m in tied_best(matches, measure)
    ]


def game_entry(
    record: str, title: str, match: MatchRow, value: int, sources: Sources, by_winner: bool
) -> RecordEntry:
    winner = match.winner if by_winner else None
    name = sources.match_name(match.match_id)
    holder = (
        sources.team_name(winner)
        if winner
        else f"{sources.team_name(match.home)} v {sources.team_name(match.away)}"
    )
    return RecordEntry(
        record=record,
        title=title,
        value=value,
        holder=holder,
        detail=f"{name} ({match.home_casualties}\u2013{match.away_casualties} casualties)",
        team_id=winner,
        player_id=None,
        match_id=match.match_id,
        match=name,
    )


def deadliest(sources: Sources) -> list[RecordEntry]:
    """The players with the most kills in the season's games, all of them on a tie."""
    kills: dict[str, int] = {}
    for line in sources.games:
        kills[line.player_id] = kills.get(line.player_id, 0) + line.kills
    killers = sorted(
        (p for p in sources.players if kills.get(p.player_id, 0) > 0), key=lambda p: p.name
    )
    return [
        RecordEntry(
            record="deadliest_player",
            title="Deadliest player",
            value=kills[p.player_id],
            holder=p.name,
            detail=f"{sources.team_name(p.team_id)}; {plural(kills[p.player_id], 'kill')}"
            " this season",
            team_id=p.team_id,
            player_id=p.player_id,
            match_id=None,
        )
        for p in tied_best(killers, lambda p: kills[p.player_id])
    ]


def best_games(sources: Sources) -> list[RecordEntry]:
    """The most SPP one player earned in one game (every such game on a tie)."""
    names = {p.player_id: p.name for p in sources.players}
    return [
        RecordEntry(
            record="best_game",
            title="Most SPP in one game",
            value=line.spp,
            holder=names.get(line.player_id, line.player_id),
            detail=f"for {sources.team_name(line.team_id)} in {sources.match_name(line.match_id)}",
            team_id=line.team_id,
            player_id=line.player_id,
            match_id=line.match_id,
            match=sources.match_name(line.match_id),
        )
        for line in tied_best(sources.games, lambda line: line.spp)
    ]


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def records(sources: Sources) -> list[RecordEntry]:
    played = [m for m in sources.matches if m.status == "played"]
    return [
        *game_records(
            "biggest_win",
            "Biggest win",
            played,
            lambda m: abs(m.home_score - m.away_score),
            sources,
            by_winner=True,
        ),
        *game_records(
            "most_touchdowns_game",
            "Most touchdowns in a game",
            played,
            lambda m: m.home_score + m.away_score,
            sources,
        ),
        *game_records(
            "bloodiest_game",
            "Most casualties in a game",
            played,
            lambda m: m.home_casualties + m.away_casualties,
            sources,
        ),
        *deadliest(sources),
        *best_games(sources),
    ]
