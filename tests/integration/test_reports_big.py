"""A 20-team, 3-season league for the report's scale: built through the real commands.

Unlike the synthetic generator (which bench/report.py times), this league is shaped so
each section of the report has something known to show: each season is a round robin;
every game has scorers, an MVP each side and a casualty, and each season one lineman
dies and is replaced, so every section of the report has something to show.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ledger.application.commands import AdvancePlayer, ClosePostGame, HirePlayer, RecordMatch
from ledger.application.service import LeagueLedger
from ledger.domain.state import PlayerRow, StandingRow, TeamRow
from ledger.reports.render import Format
from ledger.reports.service import make_report, write_report
from tests.support import HUMAN_ELEVEN, SKAVEN_ELEVEN, create_league, draft_team, report

ROSTERS = (("human", HUMAN_ELEVEN), ("skaven", SKAVEN_ELEVEN))
GENERAL = (
    "Block",
    "Tackle",
    "Wrestle",
    "Fend",
    "Dauntless",
    "Kick",
    "Pro",
    "Strip Ball",
    "Sure Hands",
    "Frenzy",
)
"""General skills: a primary choice for every position of both rosters."""
CHARACTERISTIC = (14, 16, 20, 24, 28, 38)
"""BB2025's SPP cost of a characteristic improvement by advancements taken (the threshold
at which a player must advance)."""


def pairings(teams: list[str]) -> Iterator[list[tuple[str, str]]]:
    """A round robin by the circle method: each round pairs every team once."""
    ring = list(teams)
    for _ in range(len(ring) - 1):
        half = len(ring) // 2
        yield list(zip(ring[:half], reversed(ring[half:]), strict=True))
        ring = [ring[0], ring[-1], *ring[1:-1]]


def game(match: str, season: int, number: int, home: str, away: str, death: bool) -> dict[str, Any]:
    """A report with a deterministic score: scorers are #1-#5, victims linemen #6-#10."""
    home_td, away_td = number % 4, (number // 4) % 3
    victim = f"{away} 11" if death else f"{away} {6 + number % 5}"
    return {
        "match": match,
        "season": season,
        "round": None,
        "home": {
            "team": home,
            "touchdowns": home_td,
            "players": [{"player": f"{home} {1 + number % 5}", "td": home_td, "mvp": 1}],
        },
        "away": {
            "team": away,
            "touchdowns": away_td,
            "players": [{"player": f"{away} {1 + (number + 2) % 5}", "td": away_td, "mvp": 1}],
        },
        "casualties": [
            {"victim": victim, "by": f"{home} 1", "cause": "block", "roll": 16 if death else 3}
        ],
    }


def advance_ready(ledger: LeagueLedger, league: str, team: str) -> None:
    """BB2025 has a player with SPP enough for a characteristic take an advancement before
    his team closes the post-game sequence; give such players General skills."""
    league_id = ledger.league_row(league).league_id
    for player in ledger.view().select(PlayerRow, league_id=league_id, team_id=team):
        while (
            player.status == "active"
            and len(player.advancements) < len(CHARACTERISTIC)
            and player.spp >= CHARACTERISTIC[len(player.advancements)]
        ):
            skill = next(s for s in GENERAL if s not in player.skills)
            ledger.handle(
                AdvancePlayer(league, team, player.name, "chosen_primary", skill=skill), by="tester"
            )
            found = ledger.view().get(PlayerRow, league_id, player.player_id)
            assert found is not None
            player = found


def replace_the_dead(ledger: LeagueLedger, league: str, team: str, season: int) -> None:
    """Hire a lineman for the one who died, when the treasury allows (both cost 50,000)."""
    found = ledger.view().get(TeamRow, ledger.league_row(league).league_id, team)
    if found is not None and found.treasury >= 50_000:
        ledger.handle(
            HirePlayer(
                league,
                team,
                "lineman" if team.startswith("h") else "clanrat",
                f"{team} replacement {season}",
            ),
            by="tester",
        )


def play_season(
    ledger: LeagueLedger, league: str, season: int, teams: list[str], rounds: int | None
) -> None:
    count = 0
    for round_number, pairs in enumerate(pairings(teams), start=1):
        if rounds is not None and round_number > rounds:
            return
        for home, away in pairs:
            count += 1
            death = round_number == 1 and count == 1
            data = game(f"s{season}-m{count}", season, count, home, away, death)
            data["round"] = round_number
            ledger.handle(RecordMatch(league, report(data), roll_missing=True), by="tester")
            for team in (home, away):
                advance_ready(ledger, league, team)
                ledger.handle(
                    ClosePostGame(league, data["match"], team, roll_missing=True), by="tester"
                )
            if death:
                replace_the_dead(ledger, league, away, season)


def build_big_league(
    ledger: LeagueLedger,
    teams: int = 20,
    seasons: int = 3,
    rounds: int | None = None,
    slug: str = "big",
) -> str:
    """``teams`` teams playing ``seasons`` round robins (``rounds`` rounds each if given)."""
    create_league(ledger, slug)
    names = []
    for index in range(teams):
        roster, positions = ROSTERS[index % 2]
        name = f"{roster[0]}{index:02d}"
        draft_team(ledger, slug, name, roster, positions)
        names.append(name)
    for season in range(1, seasons + 1):
        # A new draw each season, so each season's first game kills a different #11.
        draw = names[season - 1 :] + names[: season - 1]
        play_season(ledger, slug, season, draw, rounds)
    return slug


@pytest.mark.slow
def test_a_big_league_reports_every_season_with_totals_equal_to_the_read_models(
    sqlite_ledger: LeagueLedger, tmp_path: Path
) -> None:
    slug = build_big_league(sqlite_ledger, teams=20, seasons=3, rounds=6)
    league_id = sqlite_ledger.league_row(slug).league_id
    view = sqlite_ledger.view()
    for season in (1, 2, 3):
        made = make_report(sqlite_ledger, slug, season)
        rows = view.select(StandingRow, league_id=league_id, season=season)
        table = [r for d in made.standings for r in d.rows]
        assert sum(r.points for r in table) == sum(r.points for r in rows)
        assert len(made.positions[0].series) == 20
        assert made.season.rounds == [1, 2, 3, 4, 5, 6]
        assert sum(len(t.cemetery) for t in made.teams) == 1
    latest = make_report(sqlite_ledger, slug)
    treasuries = {t.team_id: t.treasury for t in view.select(TeamRow, league_id=league_id)}
    assert {t.team_id: t.statement.closing for t in latest.teams} == treasuries
    closings = {t.team_id: t.statement.closing for t in make_report(sqlite_ledger, slug, 2).teams}
    assert {t.team_id: t.statement.opening for t in latest.teams} == closings
    targets: tuple[tuple[Format, str], ...] = (
        ("html", "big.html"),
        ("md", "big.md"),
        ("json", "big.json"),
        ("csv", "big.zip"),
    )
    for fmt, name in targets:
        assert write_report(latest, fmt, tmp_path / name).stat().st_size > 0
