"""A report before anything is played says so, in every format, instead of publishing an
empty season: a league with teams and no season is in its pre-season; a season started
without a game yet says 'Season 1: no games played yet'; friendlies alone are no season.
No format draws an empty chart or ranks teams that have not played."""

from __future__ import annotations

import json
from pathlib import Path

from ledger.application.commands import RecordMatch, ScheduleSeason, StartSeason
from ledger.application.service import LeagueLedger
from ledger.domain.values import Division
from ledger.reports.model import SeasonReport
from ledger.reports.render import render_json, schema_json
from ledger.reports.service import make_report, write_report
from ledger.reports.to_html import charts, render_html
from ledger.reports.to_markdown import render_markdown
from tests.integration.test_reports import demo, demo_db, demo_report
from tests.integration.test_reports_formats import read_page, read_tables, schema_errors
from tests.support import HUMAN_ELEVEN, SKAVEN_ELEVEN, draft_team, report, two_team_league

__all__ = ["demo", "demo_db", "demo_report"]  # fixtures shared with test_reports.py

NOTHING = "Nothing has been played yet: no season has started and no game has been recorded."


def four_teams_started(ledger: LeagueLedger) -> None:
    """Season 1 of four teams in one division, scheduled, nothing played."""
    two_team_league(ledger)
    draft_team(ledger, "test", "ogres", "human", HUMAN_ELEVEN)
    draft_team(ledger, "test", "pack", "skaven", SKAVEN_ELEVEN)
    teams = ("reavers", "rats", "ogres", "pack")
    ledger.handle(StartSeason("test", [Division(name="North", teams=teams)]), by="tester")
    ledger.handle(ScheduleSeason("test"), by="tester")


def friendly(ledger: LeagueLedger) -> None:
    game = {
        "match": "f1",
        "kind": "friendly",
        "home": {"team": "reavers", "touchdowns": 1},
        "away": {"team": "rats"},
    }
    ledger.handle(RecordMatch("test", report(game), roll_missing=True), by="tester")


def drawn_charts(html: str) -> list[str]:
    return list(read_page(html).series)


def test_a_league_with_teams_and_nothing_played_reports_its_pre_season(
    sqlite_ledger: LeagueLedger, tmp_path: Path
) -> None:
    two_team_league(sqlite_ledger)
    made = make_report(sqlite_ledger, "test")
    season = made.season
    assert (season.started, season.name, season.seasons) == (False, "Pre-season", [])
    assert (season.matches_played, season.league_games_played) == (0, 0)
    assert season.notice.startswith(NOTHING)
    assert [t.team_id for t in made.teams] == ["rats", "reavers"]  # the teams as drafted

    html = render_html(made)
    assert NOTHING in html
    assert "Season 1" not in html
    assert "<svg" not in html.replace('<svg viewBox="0 0 28 10"', "")  # not even a legend
    for empty in ('id="standings"', 'id="charts"', 'id="results"', 'id="leaders"'):
        assert empty not in html, empty
    assert 'href="#teams"' in html
    assert 'id="audit"' in html

    markdown = render_markdown(made)
    assert f"> {NOTHING}" in markdown
    assert "# Test League — Pre-season" in markdown
    for empty in ("Season 1", "Final standings", "## Results", "## Leaders", "TV over"):
        assert empty not in markdown, empty

    document = json.loads(render_json(made))
    assert schema_errors(document, json.loads(schema_json())) == []
    assert document["season"]["started"] is False
    assert document["season"]["matches_played"] == 0
    assert document["standings"] == []
    assert document["positions"] == []

    tables = read_tables(write_report(made, "csv", tmp_path / "csv"))
    [row] = tables["season.csv"]
    assert (row["Name"], row["Started"], row["Games played"]) == ("Pre-season", "no", "0")
    assert row["Notice"].startswith(NOTHING)
    assert tables["standings.csv"] == []
    assert tables["matches.csv"] == []


def test_a_season_started_without_games_says_no_games_played_yet(
    sqlite_ledger: LeagueLedger,
) -> None:
    four_teams_started(sqlite_ledger)
    made = make_report(sqlite_ledger, "test")
    assert made.season.started
    assert made.season.notice == "Season 1: no games played yet, 6 to play."
    assert charts(made) == {"positions": [], "figures": []}

    html = render_html(made)
    page = read_page(html)
    assert "Season 1: no games played yet, 6 to play." in html
    assert drawn_charts(html) == []
    assert 'id="charts"' not in html
    assert 'id="leaders"' not in html
    # The division's teams, none ranked above another before a game.
    assert page.standings_rows == 4
    assert "level on every tie-breaker" not in html
    assert "Final position" not in html
    assert "Final standings" not in html
    assert '<h2 id="results-h">Fixtures</h2>' in html

    markdown = render_markdown(made)
    assert "> Season 1: no games played yet, 6 to play." in markdown
    assert "## Standings" in markdown
    assert "## Fixtures" in markdown
    assert "level on every tie-breaker" not in markdown
    assert "|  | Ogres | coach | 0 | 0 |" in markdown  # no place before a game
    assert "## Leaders" not in markdown


def test_friendlies_alone_are_no_season_and_draw_no_chart(
    sqlite_ledger: LeagueLedger, tmp_path: Path
) -> None:
    two_team_league(sqlite_ledger)
    friendly(sqlite_ledger)
    made = make_report(sqlite_ledger, "test")
    season = made.season
    assert (season.started, season.name) == (False, "Pre-season")
    assert (season.matches_played, season.league_games_played) == (1, 0)
    notice = "No season has started yet: 1 friendly played, which counts in no standings."
    assert season.notice == notice
    html = render_html(made)
    assert notice in html
    assert drawn_charts(html) == []  # the TV and treasury lines of a friendly alone are flat
    assert 'data-match="f1"' in html  # the game itself is listed
    markdown = render_markdown(made)
    assert "1 game played" in markdown
    assert "TV over the season" not in markdown
    assert (
        read_tables(write_report(made, "csv", tmp_path / "csv"))["season.csv"][0][
            "League games played"
        ]
        == "0"
    )


def test_a_season_with_games_has_no_notice_and_keeps_its_sections(
    demo_report: SeasonReport,
) -> None:
    season = demo_report.season
    assert season.started
    assert season.notice == ""
    assert season.league_games_played == season.matches_played == 6
    html = render_html(demo_report)
    assert 'class="notice"' not in html
    for section in ("standings", "charts", "results", "leaders", "teams", "audit"):
        assert f'id="{section}"' in html, section
    # the season is open: its standings stand after its games, nobody has finished yet
    assert season.status == "open"
    assert "Standings after 6 league games" in html
    assert "Final" not in html
    markdown = render_markdown(demo_report)
    assert "## Standings after 6 league games" in markdown
    assert " · stands 1st" in markdown
    assert "finished" not in markdown
    closed = demo_report.model_copy(
        update={"season": season.model_copy(update={"status": "closed"})}
    )
    assert "## Final standings" in render_markdown(closed)
    assert " · finished 1st" in render_markdown(closed)
    assert "Final position" in render_html(closed)
