"""A season's closing figures: one moment for the TV, the treasury, the fans and the Trophy.

The season's close (``SeasonClosed``) is that moment, and what follows it, the off-season
of seed 001 'Off-season and Re-drafting' (re-drafts, re-hires, purchases), belongs to the
next season: a season's report is the same before and after its off-season. A season
still open closes now, as ``ledger teams`` shows it. Play-off games are named by their
stage, and the League Trophy's re-roll ('Glittering Prizes') is shown where TV counts it.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ledger.application.commands import (
    CloseSeason,
    HirePlayer,
    Redraft,
    SchedulePlayoffs,
    StartSeason,
)
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.state import MatchRow, PlayerRow, TeamRow
from ledger.domain.values import Division
from ledger.reports.figures import figure_table
from ledger.reports.model import SeasonReport, TeamPage
from ledger.reports.seasons import END, Window, season_windows
from ledger.reports.service import make_report
from ledger.reports.to_csv import render_csv
from ledger.reports.to_html import render_html
from ledger.reports.to_markdown import render_markdown
from tests.integration.test_reports_seasons import NORTH, SOUTH, play, regular_season, scheduled


def team_now(ledger: LeagueLedger, team_id: str) -> TeamRow:
    league_id = ledger.league_row("league").league_id
    found = ledger.view().get(TeamRow, league_id, team_id)
    assert found is not None
    return found


def page(made: SeasonReport, team_id: str) -> TeamPage:
    return next(t for t in made.teams if t.team_id == team_id)


def closing(t: TeamPage) -> tuple[Any, ...]:
    """Everything a report says of a team as the season left it."""
    return (t.figures, t.rating, t.treasury, t.fans, t.trophy, t.statement)


def end_of_chart(made: SeasonReport, figure: str) -> dict[str, int | None]:
    return {name: values[-1] for name, values in figure_table(made, figure)}


def outside_the_play_offs(made: SeasonReport) -> str:
    """A team the play-off fixtures do not name (once they are scheduled)."""
    return next(r.team_id for d in made.standings for r in d.rows if not r.qualified)


def hire(ledger: LeagueLedger, team_id: str, name: str) -> None:
    position = "clanrat" if team_now(ledger, team_id).roster == "skaven" else "lineman"
    ledger.handle(HirePlayer("league", team_id, position, name), by="tester")


@pytest.fixture
def seeded_ledger(tmp_path: Path) -> Iterator[LeagueLedger]:
    """The ledger's own dice from a seeded generator: the same season on every run (with
    any dice, a team could lose its gold to Expensive Mistakes and not afford a hire)."""
    settings = Settings(sqlite_path=tmp_path / "ledger.db", user="tester")
    ledger = open_ledger(settings, roller=random.Random(2025))
    yield ledger
    close_ledger(ledger)


@pytest.fixture
def closed_after_a_late_hire(seeded_ledger: LeagueLedger) -> tuple[LeagueLedger, str]:
    """A season played to its close, where a team out of the play-offs hired a player
    after its last game (no game of its own follows to record its figures)."""
    regular_season(seeded_ledger)
    seeded_ledger.handle(SchedulePlayoffs("league"), by="tester")
    late = outside_the_play_offs(make_report(seeded_ledger, "league"))
    play(seeded_ledger, scheduled(seeded_ledger), kind="playoff")
    hire(seeded_ledger, late, "Late Signing")
    seeded_ledger.handle(SchedulePlayoffs("league"), by="tester")
    play(seeded_ledger, scheduled(seeded_ledger), kind="playoff")
    seeded_ledger.handle(CloseSeason("league"), by="tester")
    return seeded_ledger, late


def test_the_closing_tv_counts_what_the_closing_treasury_paid_for(
    closed_after_a_late_hire: tuple[LeagueLedger, str],
) -> None:
    ledger, late = closed_after_a_late_hire
    now = team_now(ledger, late)
    made = make_report(ledger, "league")
    team = page(made, late)
    assert (team.figures, team.rating, team.treasury, team.fans) == (
        now.values,
        now.rating,
        now.treasury,
        now.fans,
    )
    assert team.treasury == team.statement.closing
    assert end_of_chart(made, "rating")[team.name] == now.rating
    assert end_of_chart(made, "treasury")[team.name] == now.treasury


def test_an_open_season_closes_as_the_teams_stand_now(seeded_ledger: LeagueLedger) -> None:
    regular_season(seeded_ledger)
    late = outside_the_play_offs(make_report(seeded_ledger, "league"))
    hire(seeded_ledger, late, "Late Signing")
    now = team_now(seeded_ledger, late)
    made = make_report(seeded_ledger, "league")
    team = page(made, late)
    assert (team.figures, team.treasury, team.fans) == (now.values, now.treasury, now.fans)
    assert end_of_chart(made, "rating")[team.name] == now.rating
    teams_csv = list(csv.DictReader(io.StringIO(render_csv(made)["teams.csv"].lstrip("\ufeff"))))
    row = next(r for r in teams_csv if r["Team ID"] == late)
    assert (int(row["TV"]), int(row["Treasury"])) == (now.values["tv"], now.treasury)


def test_the_off_season_belongs_to_the_next_season(
    closed_after_a_late_hire: tuple[LeagueLedger, str],
) -> None:
    """Seed 001 'Off-season and Re-drafting': the re-draft comes "after the Play-offs have
    concluded", for the next Season. The season's report, made before the off-season and
    after the next season started, is the same."""
    ledger, late = closed_after_a_late_hire
    before = make_report(ledger, "league")
    league_id = ledger.league_row("league").league_id
    champion = before.season.champion_id
    assert champion is not None
    kept = [
        p.name
        for p in ledger.view().select(PlayerRow, league_id=league_id, team_id=champion)
        if p.status == "active"
    ]
    ledger.handle(Redraft("league", champion, keep=kept, roll_missing=True), by="tester")
    hire(ledger, late, "Off-season Signing")
    between = make_report(ledger, "league")
    assert "in the off-season" in between.season.roster_note
    ledger.handle(StartSeason("league", [Division(name="North", teams=NORTH + SOUTH)]), by="tester")
    after, second = make_report(ledger, "league", 1), make_report(ledger, "league", 2)
    for made in (between, after):
        assert [closing(t) for t in made.teams] == [closing(t) for t in before.teams]
        assert end_of_chart(made, "rating") == end_of_chart(before, "rating")
        assert made.season.last_event == before.season.last_event
    assert second.season.first_event == before.season.last_event + 1
    redrafted = page(second, champion).statement
    assert redrafted.opening == page(before, champion).statement.closing
    assert "re-draft" in [e.kind for e in redrafted.entries]
    assert "Off-season Signing" in [m.name for m in page(second, late).moves]
    assert "Off-season Signing" not in [p.name for p in page(after, late).players]


def test_play_off_games_are_named_by_their_stage(
    closed_after_a_late_hire: tuple[LeagueLedger, str],
) -> None:
    """docs/reports.md: a game is named by its round, "the stage for a play-off game"
    (the play-offs number their own rounds, which read as the league's)."""
    ledger, _ = closed_after_a_late_hire
    made = make_report(ledger, "league")
    stages = {m.match_id: m.stage for s in made.playoffs for m in s.matches}
    named = [(h.match_id, h.match) for t in made.teams for h in t.history if h.match_id in stages]
    assert named
    for match_id, name in named:
        assert name is not None
        assert name.endswith(", " + stages[match_id].replace("-", " ")), name
    history_csv = render_csv(made)["team_history.csv"]
    assert ", semi final" in history_csv
    assert ", third place" in history_csv


def test_the_league_trophy_re_roll_is_shown_where_tv_counts_it(
    closed_after_a_late_hire: tuple[LeagueLedger, str],
) -> None:
    """Seed 001 'Glittering Prizes': the holder "adds an additional Team Re-roll ... it
    will still count towards a team's Team Value"."""
    ledger, _ = closed_after_a_late_hire
    made = make_report(ledger, "league")
    champion = made.season.champion_id
    assert [t.team_id for t in made.teams if t.trophy] == [champion]
    holder = page(made, str(champion))
    assert f"re-rolls {holder.rerolls} (+1 League Trophy)" in render_markdown(made)
    assert f"{holder.rerolls} (+1 League Trophy)</dd>" in render_html(made)
    teams_csv = csv.DictReader(io.StringIO(render_csv(made)["teams.csv"].lstrip("\ufeff")))
    assert {r["Team ID"]: r["League Trophy"] for r in teams_csv}[str(champion)] == "yes"


def test_a_season_ends_with_its_close_and_the_next_takes_the_off_season() -> None:
    def played(season: int, seq: int) -> MatchRow:
        return MatchRow(
            league_id="l",
            match_id=f"m{seq}",
            season=season,
            home="a",
            away="b",
            status="played",
            recorded_seq=seq,
        )

    matches = [played(1, 10), played(1, 20), played(2, 40)]
    # Season 1 closed at 25, a re-draft at 30, season 2 started at 35.
    assert season_windows([1, 2], matches, starts=[35], closes=[25]) == {
        1: Window(0, 26),
        2: Window(26, END),
    }
    # The latest season, closed: the off-season after it is no part of it.
    assert season_windows([1], matches[:2], starts=[], closes=[25]) == {1: Window(0, 26)}
    # Never closed: the season runs to the next one's start.
    assert season_windows([1, 2], matches, starts=[35]) == {1: Window(0, 35), 2: Window(35, END)}
