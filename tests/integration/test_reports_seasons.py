"""A season run through the season commands: two divisions, play-offs, prizes, a trophy.

Eight BB2025 teams in two divisions of four play a round robin, the top four go to the
semi-finals, the final and the third-place game decide the podium, and closing the
season pays the 'Glittering Prizes'. The report must show all of it, and the next
season's report must start where this one ended.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ledger.application.commands import (
    ClosePostGame,
    CloseSeason,
    RecordMatch,
    SchedulePlayoffs,
    ScheduleSeason,
    StartSeason,
)
from ledger.application.service import LeagueLedger
from ledger.domain.state import MatchRow, TeamRow
from ledger.domain.values import Division
from ledger.errors import SeasonState
from ledger.reports.model import SeasonReport
from ledger.reports.service import make_report
from ledger.reports.to_html import render_html
from ledger.reports.to_markdown import render_markdown
from tests.integration.test_reports_big import ROSTERS, advance_ready
from tests.support import create_league, draft_team, report

NORTH = ("n1", "n2", "n3", "n4")
SOUTH = ("s1", "s2", "s3", "s4")


def play(ledger: LeagueLedger, fixtures: Sequence[MatchRow], kind: str = "league") -> None:
    """Record every fixture: the home side wins 2-1 except when its id sorts after the
    away side's (so the tables are not all alike); then close both post-games."""
    for fixture in fixtures:
        home_wins = fixture.home < fixture.away
        ledger.handle(
            RecordMatch(
                "league",
                report(
                    {
                        "match": fixture.match_id,
                        "kind": kind,
                        "home": {"team": fixture.home, "touchdowns": 2 if home_wins else 1},
                        "away": {"team": fixture.away, "touchdowns": 1 if home_wins else 2},
                    }
                ),
                roll_missing=True,
            ),
            by="tester",
        )
        for team in (fixture.home, fixture.away):
            advance_ready(ledger, "league", team)
            ledger.handle(
                ClosePostGame("league", fixture.match_id, team, roll_missing=True), by="tester"
            )


def scheduled(ledger: LeagueLedger) -> list[MatchRow]:
    league_id = ledger.league_row("league").league_id
    return sorted(
        (m for m in ledger.view().select(MatchRow, league_id=league_id) if m.status == "scheduled"),
        key=lambda m: (m.round or 0, m.match_id),
    )


def regular_season(ledger: LeagueLedger) -> None:
    """Two divisions of four, every game played; the top four play off."""
    create_league(ledger, "league")
    for index, team in enumerate((*NORTH, *SOUTH)):
        roster, positions = ROSTERS[index % 2]
        draft_team(ledger, "league", team, roster, positions)
    ledger.handle(
        StartSeason(
            "league",
            [Division(name="North", teams=NORTH), Division(name="South", teams=SOUTH)],
            playoff_teams=4,
            name="The Spring Cup",
        ),
        by="tester",
    )
    ledger.handle(ScheduleSeason("league"), by="tester")
    play(ledger, scheduled(ledger))


@pytest.fixture
def season_played(sqlite_ledger: LeagueLedger) -> LeagueLedger:
    regular_season(sqlite_ledger)
    for _ in range(2):  # the semi-finals, then the final and the third-place game
        sqlite_ledger.handle(SchedulePlayoffs("league"), by="tester")
        play(sqlite_ledger, scheduled(sqlite_ledger), kind="playoff")
    sqlite_ledger.handle(CloseSeason("league"), by="tester")
    return sqlite_ledger


def test_divisions_play_offs_and_prizes_are_reported(season_played: LeagueLedger) -> None:
    made = make_report(season_played, "league")
    assert made.season.name == "The Spring Cup"
    assert made.season.status == "closed"
    assert [t.division for t in made.standings] == ["North", "South"]
    assert [len(c.series) for c in made.positions] == [4, 4]
    assert [s.stage for s in made.playoffs] == ["semi-final", "third-place", "final"]
    semis = {t for m in made.playoffs[0].matches for t in (m.home_id, m.away_id)}
    assert {r.team_id for d in made.standings for r in d.rows if r.qualified} == semis
    assert len(semis) == 4
    [final] = made.playoffs[-1].matches
    assert made.season.champion_id == final.winner_id
    assert [p.amount for p in made.prizes] == [100_000, 60_000, 30_000]
    assert made.prizes[0].team_id == final.winner_id
    assert all(r.round is not None for r in made.rounds)
    assert sum(len(r.matches) for r in made.rounds) == 12  # the play-offs are apart


def test_the_closing_treasury_includes_the_prizes(season_played: LeagueLedger) -> None:
    made = make_report(season_played, "league")
    league_id = season_played.league_row("league").league_id
    treasuries = {
        t.team_id: t.treasury for t in season_played.view().select(TeamRow, league_id=league_id)
    }
    assert {t.team_id: t.statement.closing for t in made.teams} == treasuries
    winner = next(t for t in made.teams if t.team_id == made.season.champion_id)
    assert winner.statement.entries[-1].kind == "prize"


def test_the_next_season_starts_at_its_season_started_event(season_played: LeagueLedger) -> None:
    season_played.handle(
        StartSeason("league", [Division(name="All", teams=(*NORTH, *SOUTH))]), by="tester"
    )
    first, second = make_report(season_played, "league", 1), make_report(season_played, "league", 2)
    assert second.season.first_event == first.season.last_event + 1
    assert first.season.rounds == [1, 2, 3]
    assert second.rounds == []
    assert {t.team_id: t.statement.opening for t in second.teams} == {
        t.team_id: t.statement.closing for t in first.teams
    }


def test_the_bracket_renders_in_html_and_markdown(season_played: LeagueLedger) -> None:
    made: SeasonReport = make_report(season_played, "league")
    html, markdown = render_html(made), render_markdown(made)
    assert html.count('class="tie"') == 4
    assert 'data-stage="third-place"' in html
    assert "## Play-offs" in markdown
    assert "### Third place" in markdown
    assert f"Champion: {made.season.champion}" in html


def test_the_next_play_off_round_waits_for_this_one_to_be_played(
    sqlite_ledger: LeagueLedger,
) -> None:
    """Seed 001 'Play-offs': each round's winners go on to the next; asked for the final
    before the semi-finals are played, the answer says they are to be played (it used to
    call them ties without a winner)."""
    regular_season(sqlite_ledger)
    sqlite_ledger.handle(SchedulePlayoffs("league"), by="tester")
    semis = ", ".join(m.match_id for m in scheduled(sqlite_ledger))
    with pytest.raises(SeasonState) as refused:
        sqlite_ledger.handle(SchedulePlayoffs("league"), by="tester")
    assert refused.value.message == (
        f"this play-off round is still to be played: {semis}; the next is drawn from its winners"
    )
