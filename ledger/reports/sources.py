"""Everything a season report reads, fetched once from the read models.

Each section builder takes a ``Sources`` and returns its part of the model, so the
builders are plain functions over records (easy to test with hand-made rows) and the
database is read in a handful of whole-table statements, which keeps a large league's
report fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ledger.domain.state import (
    EventLine,
    EventRef,
    MatchRow,
    PlayerGameLine,
    PlayerRow,
    SeasonRow,
    TeamHistoryLine,
    TeamRow,
    TreasuryLine,
)
from ledger.errors import UnknownSeason
from ledger.projections.queries import Queries, Standings
from ledger.reports.reads import ReportReads
from ledger.reports.seasons import Window, season_windows


@dataclass(frozen=True)
class Sources:
    queries: Queries
    season: int
    seasons: list[int]
    window: Window
    standings: Standings
    season_row: SeasonRow | None
    matches: list[MatchRow]
    """The season's matches, in round order."""
    teams: dict[str, TeamRow]
    """Every team of the league, by id."""
    players: list[PlayerRow]
    games: list[PlayerGameLine]
    """The season's player game lines."""
    history: list[TeamHistoryLine]
    """The season's team history lines."""
    treasury: list[TreasuryLine]
    """Every treasury line of the league (the statement needs the balance before)."""
    events: list[EventLine]
    """One line per event of the league."""
    moves: list[EventRef]
    """Player references of the events that hired, fired, retired or lost a player."""

    @property
    def league_id(self) -> str:
        return self.queries.league_id

    def team_name(self, team_id: str) -> str:
        team = self.teams.get(team_id)
        return team.name if team else team_id

    @cached_property
    def matches_by_id(self) -> dict[str, MatchRow]:
        return {m.match_id: m for m in self.matches}

    def match_name(self, match_id: str | None) -> str:
        """A game as readers name it: ``Reikland Reavers 2-1 The Gouged Eye, round 1``
        (with an en dash), ``..., semi final`` for a play-off game (its round number counts
        the play-off rounds, which a reader would take for the league's), or the id itself
        for a game that is not of this season."""
        match = self.matches_by_id.get(match_id or "")
        if match is None:
            return match_id or ""
        home, away = self.team_name(match.home), self.team_name(match.away)
        score = f"{match.home_score}\u2013{match.away_score}" if match.status == "played" else "v"
        if is_playoff(match) or not match.round:
            when = stage_name(match.stage)
        else:
            when = f"round {match.round}"
        return f"{home} {score} {away}" + (f", {when}" if when != "regular" else "")


def is_playoff(match: MatchRow) -> bool:
    return match.kind == "playoff" or match.stage != "regular"


def stage_name(stage: str) -> str:
    """``semi-final`` -> ``semi final``, ``third-place`` -> ``third place``."""
    return stage.replace("-", " ").replace("_", " ")


def chosen_season(queries: Queries, season: int | None) -> tuple[int, list[int]]:
    """The season asked for (default: the latest) and every season the league has."""
    seasons = queries.seasons()
    if season is None:
        return (max(seasons) if seasons else 1), seasons
    if season not in seasons:
        known = ", ".join(map(str, seasons)) or "none yet"
        raise UnknownSeason(
            f"league {queries.league.slug} has no season {season} (seasons: {known})"
        )
    return season, seasons


def read_sources(queries: Queries, season: int | None) -> Sources:
    """Read what the report of ``season`` needs; an unknown season is refused."""
    number, seasons = chosen_season(queries, season)
    reads = ReportReads(queries)
    all_matches = queries.matches()
    events = reads.events()
    starts = [e.seq for e in events if e.event_type == "SeasonStarted" and not e.voided]
    closes = [e.seq for e in events if e.event_type == "SeasonClosed" and not e.voided]
    window = season_windows(seasons or [number], all_matches, starts, closes)[number]
    return Sources(
        queries=queries,
        season=number,
        seasons=seasons or [number],
        window=window,
        standings=queries.standings(number if seasons else None),
        season_row=queries.season_row(number),
        matches=[m for m in all_matches if m.season == number],
        teams={t.team_id: t for t in queries.teams()},
        players=reads.players(),
        games=reads.player_games(number),
        history=reads.history(window.first, window.end),
        treasury=reads.treasury(),
        events=events,
        moves=reads.moves(),
    )
