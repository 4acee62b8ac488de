"""Team pages: roster, TV/TR and treasury over the season, the statement, comings and goings.

The read models hold each player's state now, not at some past moment, so a roster is the
roster as the ledger stands (for the latest season: at its end so far) with the player's
own figures for the season summed from his game lines; a past season's report says so.
The team's TV/TR, treasury, fans and League Trophy are its closing figures, all of one
moment (``Closing``): the season's close, where every team gets a history line, or, for
a season still open, the team as it stands now.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ledger.domain.state import (
    EventLine,
    EventRef,
    PlayerGameLine,
    PlayerRow,
    TeamRow,
    TreasuryLine,
)
from ledger.reports.model import (
    HistoryPoint,
    KindTotal,
    MoveKind,
    Obituary,
    PlayerLine,
    PlayerMove,
    SeasonStats,
    TeamPage,
    TreasuryEntry,
    TreasuryStatement,
)
from ledger.reports.seasons import END
from ledger.reports.sources import Sources

CURRENT = ("active", "retired")
"""Statuses of players still on the roster (``retired`` is BB2025's Temporarily Retiring)."""

MOVE_OF: dict[str, MoveKind] = {
    "PlayerFired": "fired",
    "PlayerTemporarilyRetired": "retired",
    "PlayerDied": "dead",
    "PlayerLeft": "left",
}


def season_teams(sources: Sources) -> list[str]:
    """The season's teams: the table's order, then teams that only played friendlies."""
    ordered = [row.team_id for rows in sources.standings.divisions.values() for row in rows]
    divisions = sources.season_row.divisions if sources.season_row else ()
    others = {t for d in divisions for t in d.teams}
    others |= {t for m in sources.matches for t in (m.home, m.away, *m.others)}
    rest = sorted((others - set(ordered)) & set(sources.teams))
    chosen = [*ordered, *rest]
    return chosen or sorted(t.team_id for t in sources.teams.values() if t.status == "active")


def season_stats(games: Iterable[PlayerGameLine]) -> dict[str, SeasonStats]:
    totals: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for line in games:
        total = totals[line.player_id]
        total["games"] += 1
        for stat in ("touchdowns", "completions", "interceptions", "casualties", "mvps", "spp"):
            total[stat] += getattr(line, stat)
    return {player: SeasonStats(**stats) for player, stats in totals.items()}


def player_line(player: PlayerRow, stats: SeasonStats | None) -> PlayerLine:
    return PlayerLine(
        player_id=player.player_id,
        number=player.number,
        name=player.name,
        position=player.position,
        kind=player.kind,
        ma=player.ma,
        st=player.st,
        ag=player.ag,
        pa=player.pa,
        av=player.av,
        skills=list(player.skills),
        gained=list(player.gained),
        niggling=player.niggling,
        miss_next_game=player.miss_next_game,
        spp=player.spp,
        spp_earned=player.spp_earned,
        value=player.value,
        status=player.status,
        season=stats or SeasonStats(),
        career_games=player.games,
        career_touchdowns=player.touchdowns,
        career_casualties=player.casualties,
        kills=player.kills,
        mvps=player.mvps,
    )


def statement(lines: Sequence[TreasuryLine], sources: Sources) -> TreasuryStatement:
    """The team's gold over the season: opening balance, every movement, closing balance."""
    before = [line for line in lines if line.seq < sources.window.first]
    during = [line for line in lines if line.seq in sources.window]
    opening = before[-1].balance if before else 0
    kinds: dict[str, int] = defaultdict(int)
    for line in during:
        kinds[line.kind] += line.amount
    return TreasuryStatement(
        opening=opening,
        income=sum(line.amount for line in during if line.amount > 0),
        spending=-sum(line.amount for line in during if line.amount < 0),
        closing=during[-1].balance if during else opening,
        by_kind=[KindTotal(kind=k, amount=v) for k, v in sorted(kinds.items())],
        entries=[
            TreasuryEntry(
                event=line.seq,
                kind=line.kind,
                note=line.note,
                amount=line.amount,
                balance=line.balance,
            )
            for line in during
        ],
    )


def hire_detail(player: PlayerRow) -> str:
    kind = "" if player.kind == "regular" else f" ({player.kind})"
    return f"{player.position.replace('_', ' ')}{kind} for {player.price_paid:,}"


def hired(
    players: Sequence[PlayerRow], refs: dict[tuple[int, str], EventRef], sources: Sources
) -> list[PlayerMove]:
    moves = []
    for p in players:
        if p.hired_seq in sources.window:
            ref = refs.get((p.hired_seq, p.player_id))
            moves.append(
                PlayerMove(
                    event=p.hired_seq,
                    move="hired",
                    player_id=p.player_id,
                    name=p.name,
                    position=p.position,
                    detail=hire_detail(p),
                    recorded_by=ref.who if ref else "",
                    reason=ref.reason if ref else None,
                )
            )
    return moves


def departures(players: dict[str, PlayerRow], sources: Sources) -> list[PlayerMove]:
    """Fired, retired, dead and departed players, by a commissioner's command."""
    moves = []
    for ref in sources.moves:
        player = players.get(ref.ref.removeprefix("player:"))
        kind = MOVE_OF.get(ref.event_type)
        if player is None or kind is None or ref.voided or ref.seq not in sources.window:
            continue
        moves.append(
            PlayerMove(
                event=ref.seq,
                move=kind,
                player_id=player.player_id,
                name=player.name,
                position=player.position,
                detail=ref.summary,
                recorded_by=ref.who,
                reason=ref.reason,
            )
        )
    return moves


def killed(
    players: dict[str, PlayerRow],
    games: Sequence[PlayerGameLine],
    events: dict[int, EventLine],
    match_name: Callable[[str], str],
) -> list[PlayerMove]:
    """Players who died of a casualty in one of the season's games."""
    return [
        PlayerMove(
            event=line.seq,
            move="dead",
            player_id=line.player_id,
            name=players[line.player_id].name,
            position=players[line.player_id].position,
            detail=f"died in {match_name(line.match_id)}",
            recorded_by=events[line.seq].recorded_by if line.seq in events else "",
            reason=None,
        )
        for line in games
        if line.injury == "dead" and line.player_id in players
    ]


def cemetery(
    moves: Sequence[PlayerMove],
    players: dict[str, PlayerRow],
    team: TeamRow,
    deaths: dict[str, PlayerGameLine],
    match_name: Callable[[str], str],
) -> list[Obituary]:
    """One obituary per player who died in the season and is dead still (not voided)."""
    first: dict[str, PlayerMove] = {}
    for move in moves:
        if move.move == "dead" and players[move.player_id].status == "dead":
            first.setdefault(move.player_id, move)
    return [obituary(move, players[pid], team, deaths, match_name) for pid, move in first.items()]


def obituary(
    move: PlayerMove,
    player: PlayerRow,
    team: TeamRow,
    games: dict[str, PlayerGameLine],
    match_name: Callable[[str], str],
) -> Obituary:
    line = games.get(player.player_id)
    return Obituary(
        player_id=player.player_id,
        name=player.name,
        position=player.position,
        team_id=team.team_id,
        team=team.name,
        event=move.event,
        match_id=line.match_id if line else None,
        match=match_name(line.match_id) if line else None,
        round=line.round if line else None,
        games=player.games,
        touchdowns=player.touchdowns,
        casualties=player.casualties,
        spp_earned=player.spp_earned,
        skills=list(player.skills),
    )


@dataclass(frozen=True)
class Lookups:
    """What every team page looks up, indexed once for all teams."""

    stats: dict[str, SeasonStats]
    """Season figures by player."""
    hires: dict[tuple[int, str], EventRef]
    """The hiring event's reference by (event, player)."""
    events: dict[int, EventLine]


def season_roster(team: TeamRow, sources: Sources) -> list[PlayerRow]:
    """The team's players, by number, leaving out those hired after the season."""
    roster = [
        p for p in sources.players if p.team_id == team.team_id and p.hired_seq < sources.window.end
    ]
    return sorted(roster, key=lambda p: (p.number or 99, p.hired_seq))


def player_moves(
    roster: Sequence[PlayerRow], games: Sequence[PlayerGameLine], sources: Sources, lookups: Lookups
) -> list[PlayerMove]:
    by_id = {p.player_id: p for p in roster}
    moves = [
        *hired(roster, lookups.hires, sources),
        *departures(by_id, sources),
        *killed(by_id, games, lookups.events, sources.match_name),
    ]
    return sorted(moves, key=lambda m: (m.event, m.player_id))


def final_place(team_id: str, sources: Sources) -> tuple[str, int | None]:
    """(division, rank) in the final table; ("", None) for a team not in it."""
    for name, rows in sources.standings.divisions.items():
        ranks = {r.team_id: r.rank for r in rows}
        if team_id in ranks:
            return name, ranks[team_id]
    return "", None


def history_points(team: TeamRow, sources: Sources) -> list[HistoryPoint]:
    return [
        HistoryPoint(
            event=h.seq,
            round=h.round,
            match_id=h.match_id,
            match=sources.match_name(h.match_id) if h.match_id else None,
            rating=h.rating,
            values=dict(h.values),
            treasury=h.treasury,
            fans=h.fans,
        )
        for h in sources.history
        if h.team_id == team.team_id
    ]


@dataclass(frozen=True)
class Closing:
    """A team's figures at the end of the season's window, all of one moment."""

    values: dict[str, int]
    rating: int
    treasury: int
    fans: int
    trophy: bool


def closing(team: TeamRow, history: Sequence[HistoryPoint], sources: Sources) -> Closing:
    """The season still open closes now (the team as ``ledger teams`` shows it); a season
    that has ended closes with its last history line, which is the team's line at its
    ``SeasonClosed`` (or, for a log whose seasons were never closed, its last milestone
    before the next season). The Trophy is the holder the season's close named."""
    end = history[-1] if history else None
    if sources.window.end == END or end is None:
        return Closing(dict(team.values), team.rating, team.treasury, team.fans, team.trophy)
    row = sources.season_row
    holder = row is not None and row.status == "closed" and row.trophy_holder == team.team_id
    return Closing(dict(end.values), end.rating, end.treasury, end.fans, holder)


def team_page(team: TeamRow, sources: Sources, lookups: Lookups) -> TeamPage:
    roster = season_roster(team, sources)
    by_id = {p.player_id: p for p in roster}
    games = [g for g in sources.games if g.player_id in by_id]
    moves = player_moves(roster, games, sources, lookups)
    division, rank = final_place(team.team_id, sources)
    history = history_points(team, sources)
    gold = statement([t for t in sources.treasury if t.team_id == team.team_id], sources)
    end = closing(team, history, sources)
    return TeamPage(
        team_id=team.team_id,
        name=team.name,
        coach=team.coach,
        roster=team.roster,
        status=team.status,
        division=division,
        rank=rank,
        figures=end.values,
        rating=end.rating,
        treasury=end.treasury,
        fans=end.fans,
        rerolls=team.rerolls,
        trophy=end.trophy,
        staff=dict(team.staff),
        games=team.games,
        players=[
            player_line(p, lookups.stats.get(p.player_id)) for p in roster if p.status in CURRENT
        ],
        former=[
            player_line(p, lookups.stats.get(p.player_id))
            for p in roster
            if p.status not in CURRENT
        ],
        history=history,
        statement=gold,
        moves=moves,
        cemetery=cemetery(
            moves,
            by_id,
            team,
            {g.player_id: g for g in games if g.injury == "dead"},
            sources.match_name,
        ),
    )


def team_pages(sources: Sources) -> list[TeamPage]:
    lookups = Lookups(
        stats=season_stats(sources.games),
        hires={
            (ref.seq, ref.ref.removeprefix("player:")): ref
            for ref in sources.moves
            if ref.event_type == "PlayerHired"
        },
        events={line.seq: line for line in sources.events},
    )
    return [
        team_page(sources.teams[t], sources, lookups)
        for t in season_teams(sources)
        if t in sources.teams
    ]
