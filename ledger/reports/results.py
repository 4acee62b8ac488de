"""The season's games: standings tables, results by round, the play-offs and prizes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ledger.domain.state import MatchRow, SeasonRow
from ledger.projections.queries import TableRow
from ledger.reports.model import (
    DivisionTable,
    MatchResult,
    PlayoffStage,
    Prize,
    RoundResults,
    StandingLine,
)
from ledger.reports.positions import UNNUMBERED
from ledger.reports.sources import Sources, is_playoff, stage_name
from ledger.rules import playoffs

STAGES = ("round-of-32", "round-of-16", "quarter-final", "semi-final", "third-place", "final")
"""Play-off stages in bracket order; any other stage name follows them by round."""

PRIZE_KINDS = ("prize",)
"""Treasury line kinds that are prize money (a ruleset's ``Gold(kind="prize")``)."""


def readable(name: str | None) -> str | None:
    """``touchdown_difference`` -> ``touchdown difference``."""
    return name.replace("_", " ") if name else None


def standing_line(row: TableRow, coach: str, qualified: bool, rank: int) -> StandingLine:
    r = row.row
    return StandingLine(
        rank=rank,
        team_id=row.team_id,
        team=row.name,
        coach=coach,
        played=r.played,
        won=r.won,
        drawn=r.drawn,
        lost=r.lost,
        td_for=r.td_for,
        td_against=r.td_against,
        td_difference=r.td_for - r.td_against,
        cas_for=r.cas_for,
        cas_against=r.cas_against,
        bonus=r.bonus,
        points=r.points,
        separated_by=readable(row.separated_by),
        qualified=qualified,
    )


def playoff_teams(sources: Sources) -> set[str]:
    """The teams the play-off fixtures name (those that qualified, by the data)."""
    return {
        t
        for m in sources.matches
        if is_playoff(m) and m.status != "voided"
        for t in (m.home, m.away, *m.others)
    }


def standings_tables(sources: Sources) -> list[DivisionTable]:
    qualified = playoff_teams(sources)

    def table(name: str, rows: Sequence[TableRow]) -> DivisionTable:
        return DivisionTable(division=name, rows=[line(r, r.rank) for r in rows])

    def line(row: TableRow, rank: int) -> StandingLine:
        team = sources.teams.get(row.team_id)
        return standing_line(row, team.coach if team else "", row.team_id in qualified, rank)

    return [table(name, rows) for name, rows in sources.standings.divisions.items()]


def match_result(match: MatchRow, sources: Sources) -> MatchResult:
    return MatchResult(
        match_id=match.match_id,
        round=match.round,
        division=match.division,
        stage=match.stage,
        kind=match.kind,
        status=match.status,
        home_id=match.home,
        home=sources.team_name(match.home),
        away_id=match.away,
        away=sources.team_name(match.away),
        home_score=match.home_score,
        away_score=match.away_score,
        home_casualties=match.home_casualties,
        away_casualties=match.away_casualties,
        winner_id=match.winner,
        conceded_by=match.conceded_by,
        event=match.recorded_seq,
    )


def results_by_round(sources: Sources) -> list[RoundResults]:
    """Every game of the season that is not a play-off, grouped by round."""
    games = [m for m in sources.matches if not is_playoff(m) and m.status != "voided"]
    numbered = sorted({m.round for m in games if m.round is not None})
    rounds = [
        RoundResults(
            round=r,
            label=f"Round {r}",
            matches=[match_result(m, sources) for m in games if m.round == r],
        )
        for r in numbered
    ]
    loose = [match_result(m, sources) for m in games if m.round is None]
    return (
        [*rounds, RoundResults(round=None, label=UNNUMBERED.capitalize(), matches=loose)]
        if loose
        else rounds
    )


def stage_order(stage: str, matches: Sequence[MatchRow]) -> tuple[int, int]:
    known = STAGES.index(stage) if stage in STAGES else len(STAGES)
    return known, min((m.round or 0 for m in matches), default=0)


def playoff_stages(sources: Sources) -> list[PlayoffStage]:
    """The play-off bracket, stage by stage; empty when the season has none."""
    games = [m for m in sources.matches if is_playoff(m) and m.status != "voided"]
    stages: dict[str, list[MatchRow]] = {}
    for match in games:
        stages.setdefault(match.stage, []).append(match)
    ordered = sorted(stages, key=lambda s: stage_order(s, stages[s]))
    return [
        PlayoffStage(
            stage=s,
            label=stage_name(s).capitalize(),
            matches=[match_result(m, sources) for m in stages[s]],
        )
        for s in ordered
    ]


def prizes(sources: Sources) -> list[Prize]:
    """Prize money paid in the season: what the treasury lines record, nothing invented."""
    return [
        Prize(
            event=line.seq,
            team_id=line.team_id,
            team=sources.team_name(line.team_id),
            amount=line.amount,
            note=line.note,
        )
        for line in sources.treasury
        if line.kind in PRIZE_KINDS and line.seq in sources.window
    ]


def champion(sources: Sources) -> str | None:
    """The season's trophy holder, else the winner of a played final."""
    return season_champion(sources.season_row, sources.matches)


def season_champion(season: SeasonRow | None, matches: Iterable[MatchRow]) -> str | None:
    """The season's trophy holder, else the winner of a played final among ``matches``
    (the season report's champion, and the one the league's home names)."""
    if season is not None and season.trophy_holder:
        return season.trophy_holder
    final = playoffs.played_final(matches)
    return final.winner if final else None
