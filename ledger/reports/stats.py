"""Leaderboards and records of the season.

The leaderboards sum the season's player game lines, so a veteran's earlier seasons do
not count; the deadliest player too is ranked on the kills of the season's games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
        key=lambda item: (-item[0], players[item[1]].name if item[1] in players else item[1]),
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
    return Leaderboard(stat=stat, label=label, column=column, entries=entries)


def leaderboards(sources: Sources) -> list[Leaderboard]:
    stats = season_stats(sources.games)
    players = {p.player_id: p for p in sources.players}
    return [
        leaderboard(stat, label, column, stats, players, sources)
        for stat, label, column in LEADERBOARDS
    ]


def game_record(
    record: str,
    title: str,
    matches: Sequence[MatchRow],
    measure: Callable[[MatchRow], int],
    sources: Sources,
    *,
    by_winner: bool = False,
) -> RecordEntry | None:
    """The game with the highest ``measure`` (the earliest on a tie), if any scored.

    The record is held by the winner (``by_winner``) or by both teams."""
    best = max(matches, key=measure, default=None)
    if best is None or measure(best) <= 0:
        return None
    winner = best.winner if by_winner else None
    score = f"{best.home_score}-{best.away_score}"
    detail = (
        f"{sources.team_name(best.home)} {score} {sources.team_name(best.away)}"
        f" ({best.home_casualties}-{best.away_casualties} casualties"
        + (f", round {best.round})" if best.round else ")")
    )
    holder = (
        sources.team_name(winner)
        if winner
        else f"{sources.team_name(best.home)} v {sources.team_name(best.away)}"
    )
    return RecordEntry(
        record=record,
        title=title,
        value=measure(best),
        holder=holder,
        detail=detail,
        team_id=winner,
        player_id=None,
        match_id=best.match_id,
    )


def deadliest(sources: Sources) -> RecordEntry | None:
    kills: dict[str, int] = {}
    for line in sources.games:
        kills[line.player_id] = kills.get(line.player_id, 0) + line.kills
    killers = [p for p in sources.players if kills.get(p.player_id, 0) > 0]
    best = max(killers, key=lambda p: (kills[p.player_id], -p.hired_seq), default=None)
    if best is None:
        return None
    return RecordEntry(
        record="deadliest_player",
        title="Deadliest player",
        value=kills[best.player_id],
        holder=best.name,
        detail=f"{sources.team_name(best.team_id)}; {kills[best.player_id]} kill(s) this season",
        team_id=best.team_id,
        player_id=best.player_id,
        match_id=None,
    )


def best_game(sources: Sources) -> RecordEntry | None:
    """The most SPP one player earned in one game."""
    best = max(sources.games, key=lambda line: line.spp, default=None)
    if best is None or best.spp <= 0:
        return None
    player = next((p for p in sources.players if p.player_id == best.player_id), None)
    name = player.name if player else best.player_id
    return RecordEntry(
        record="best_game",
        title="Most SPP in one game",
        value=best.spp,
        holder=name,
        detail=f"{sources.team_name(best.team_id)}, {best.match_id}",
        team_id=best.team_id,
        player_id=best.player_id,
        match_id=best.match_id,
    )


def records(sources: Sources) -> list[RecordEntry]:
    played = [m for m in sources.matches if m.status == "played"]
    found = [
        game_record(
            "biggest_win",
            "Biggest win",
            played,
            lambda m: abs(m.home_score - m.away_score),
            sources,
            by_winner=True,
        ),
        game_record(
            "most_touchdowns_game",
            "Most touchdowns in a game",
            played,
            lambda m: m.home_score + m.away_score,
            sources,
        ),
        game_record(
            "bloodiest_game",
            "Most casualties in a game",
            played,
            lambda m: m.home_casualties + m.away_casualties,
            sources,
        ),
        deadliest(sources),
        best_game(sources),
    ]
    return [r for r in found if r is not None]
