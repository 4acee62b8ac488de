"""League position by round: the table recomputed after each round of the season.

The read models keep only the final table, so the report rebuilds the running one from the
season's played games in round order, counting each game as the fold does (points,
bonus, touchdowns and SPP casualties from the match row) and ranking every round with the
league's ruleset (``ruleset.rank``), so the tie-breakers are the ones the table uses. The
last round is taken from the official table itself, so the chart always ends where the
standings do, whatever a ruleset does beyond the shared scoring.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.domain.state import MatchRow, StandingRow
from ledger.domain.values import PointsScheme
from ledger.projections.queries import Standings, TableRow
from ledger.reports.model import PositionChart, PositionSeries
from ledger.rules.protocol import Ruleset

Result = tuple[str, str, int, int]

UNNUMBERED = "other games"
"""The label of the step counting games recorded without a round number."""


def counted(match: MatchRow) -> bool:
    """Games that count in the table, as the fold counts them (never a play-off game)."""
    return (
        match.status == "played"
        and match.kind in ("league", "unplayed")
        and match.stage == "regular"
    )


def round_steps(matches: Sequence[MatchRow]) -> list[tuple[str, list[MatchRow]]]:
    """The season's counted games grouped by round, in order; unnumbered games last."""
    games = [m for m in matches if counted(m)]
    numbered = sorted({m.round for m in games if m.round is not None})
    steps = [(str(r), [m for m in games if m.round == r]) for r in numbered]
    loose = [m for m in games if m.round is None]
    return [*steps, (UNNUMBERED, loose)] if loose else steps


def match_points(match: MatchRow, home: bool, scheme: PointsScheme) -> tuple[int, int]:
    """(points, bonus) for one side, as ``BaseRuleset.match_points`` scores a game."""
    ours, theirs = (
        (match.home_score, match.away_score) if home else (match.away_score, match.home_score)
    )
    if match.kind == "unplayed" and match.conceded_by is None:
        return scheme.loss, 0
    points = scheme.win if ours > theirs else scheme.draw if ours == theirs else scheme.loss
    casualties = match.home_casualties if home else match.away_casualties
    earned = {
        "three_touchdowns": ours >= 3,
        "clean_sheet": theirs == 0,
        "three_casualties": casualties >= 3,
    }
    return points, sum(1 for rule in scheme.bonus if earned[rule])


def add_game(row: StandingRow, match: MatchRow, home: bool, scheme: PointsScheme) -> StandingRow:
    """``row`` with one more game counted, mirroring the fold's standings update."""
    ours, theirs = (
        (match.home_score, match.away_score) if home else (match.away_score, match.home_score)
    )
    cas_for, cas_against = (
        (match.home_casualties, match.away_casualties)
        if home
        else (match.away_casualties, match.home_casualties)
    )
    lost = match.kind == "unplayed" and match.conceded_by is None
    points, bonus = match_points(match, home, scheme)
    return row.model_copy(
        update={
            "played": row.played + 1,
            "won": row.won + int(ours > theirs and not lost),
            "drawn": row.drawn + int(ours == theirs and not lost),
            "lost": row.lost + int(ours < theirs or lost),
            "td_for": row.td_for + ours,
            "td_against": row.td_against + theirs,
            "cas_for": row.cas_for + cas_for,
            "cas_against": row.cas_against + cas_against,
            "points": row.points + points + (bonus if scheme.bonus_mode == "added" else 0),
            "bonus": row.bonus + bonus,
        }
    )


class RunningTable:
    """The table of one division, game by game."""

    def __init__(self, league_id: str, season: int, teams: Sequence[str]) -> None:
        self.rows = {t: StandingRow(league_id=league_id, season=season, team_id=t) for t in teams}
        self.results: list[Result] = []

    def count(self, match: MatchRow, scheme: PointsScheme) -> None:
        for team, home in ((match.home, True), (match.away, False)):
            if team in self.rows:
                self.rows[team] = add_game(self.rows[team], match, home, scheme)
        if match.kind == "league":
            self.results.append((match.home, match.away, match.home_score, match.away_score))

    def positions(self, ruleset: Ruleset, scheme: PointsScheme) -> dict[str, int | None]:
        """Each team's rank, or None for a team that has not played yet."""
        ranked = ruleset.rank(list(self.rows.values()), self.results, scheme)
        return {r.team_id: r.rank if r.row.played else None for r in ranked}


def position_charts(
    standings: Standings,
    matches: Sequence[MatchRow],
    ruleset: Ruleset,
    scheme: PointsScheme,
    league_id: str,
) -> list[PositionChart]:
    """One chart per division: every team's position after every round."""
    steps = round_steps(matches)
    return [
        division_chart(name, rows, steps, ruleset, scheme, league_id, standings.season)
        for name, rows in standings.divisions.items()
    ]


def division_chart(
    name: str,
    table: Sequence[TableRow],
    steps: list[tuple[str, list[MatchRow]]],
    ruleset: Ruleset,
    scheme: PointsScheme,
    league_id: str,
    season: int,
) -> PositionChart:
    final = {r.team_id: r.rank for r in table}
    names = {row.team_id: row.name for row in table}
    running = RunningTable(league_id, season, list(final))
    by_team: dict[str, list[int | None]] = {team: [] for team in final}
    for index, (_, games) in enumerate(steps):
        for match in games:
            running.count(match, scheme)
        ranks = running.positions(ruleset, scheme)
        last = index == len(steps) - 1
        for team in final:
            by_team[team].append(final[team] if last else ranks.get(team))
    return PositionChart(
        division=name,
        rounds=[label for label, _ in steps],
        series=[PositionSeries(team_id=t, team=names[t], positions=by_team[t]) for t in final],
    )
