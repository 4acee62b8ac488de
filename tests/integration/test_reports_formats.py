"""The report's four formats: CSV totals equal the read models, the JSON follows its
schema, the HTML is self-contained with one chart series per team, Markdown tables hold."""

from __future__ import annotations

import csv
import importlib
import io
import itertools
import json
import re
import zipfile
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from ledger.application.commands import ClosePostGame, HirePlayer, RecordMatch, RegisterTeam
from ledger.application.service import LeagueLedger
from ledger.domain.state import MatchRow, PlayerRow, StandingRow, TeamRow
from ledger.reports.charts import NARROW, compact_gold, line_path, positions_chart, value_ticks
from ledger.reports.errors import ReportNotWritten, UnknownReportFormat
from ledger.reports.model import (
    Correction,
    DivisionTable,
    PlayoffStage,
    Prize,
    SeasonReport,
    WhatIfRow,
    WhatIfSection,
)
from ledger.reports.render import render_json, schema_json
from ledger.reports.service import make_report, produce_report, report_format, write_report
from ledger.reports.to_csv import render_csv
from ledger.reports.to_html import charts, render_html
from ledger.reports.to_markdown import render_markdown
from tests.integration.test_reports import DEMO, demo, demo_db, demo_report
from tests.support import (
    HUMAN_ELEVEN,
    SKAVEN_ELEVEN,
    create_league,
    draft_team,
    report,
    two_team_league,
)

__all__ = ["demo", "demo_db", "demo_report"]  # fixtures shared with test_reports.py

Rows = list[dict[str, str]]


def read_tables(folder: Path) -> dict[str, Rows]:
    return {
        path.name: list(csv.DictReader(io.StringIO(path.read_text("utf-8-sig"))))
        for path in sorted(folder.glob("*.csv"))
    }


def numbers(rows: Rows, column: str) -> list[int]:
    return [int(row[column]) for row in rows]


@pytest.fixture
def tables(demo_report: SeasonReport, tmp_path: Path) -> dict[str, Rows]:
    return read_tables(write_report(demo_report, "csv", tmp_path / "csv"))


def test_csv_standings_add_up_to_the_read_models(
    demo: LeagueLedger, tables: dict[str, Rows]
) -> None:
    league = demo.league_row(DEMO).league_id
    rows = demo.view().select(StandingRow, league_id=league, season=1)
    standings = tables["standings.csv"]
    for column, field in (
        ("Points", "points"),
        ("Touchdowns for", "td_for"),
        ("Casualties for", "cas_for"),
        ("Played", "played"),
    ):
        assert sum(numbers(standings, column)) == sum(getattr(r, field) for r in rows)
    played = [m for m in demo.view().select(MatchRow, league_id=league) if m.status == "played"]
    assert len(tables["matches.csv"]) == len(played)
    assert sum(numbers(tables["matches.csv"], "Home score")) == sum(m.home_score for m in played)


def test_csv_treasury_and_players_equal_the_read_models(
    demo: LeagueLedger, tables: dict[str, Rows]
) -> None:
    league = demo.league_row(DEMO).league_id
    teams = {t.team_id: t for t in demo.view().select(TeamRow, league_id=league)}
    moved: dict[str, int] = defaultdict(int)
    for line in tables["treasury.csv"]:
        moved[line["Team ID"]] += int(line["Amount"])
    summary = {row["Team ID"]: row for row in tables["treasury_summary.csv"]}
    for team_id, team in teams.items():
        opening = int(summary[team_id]["Opening balance"])
        assert opening + moved[team_id] == int(summary[team_id]["Closing balance"])
        assert int(summary[team_id]["Closing balance"]) == team.treasury
    players = {p.player_id: p for p in demo.view().select(PlayerRow, league_id=league)}
    listed = {row["Player ID"]: row for row in tables["players.csv"]}
    assert set(listed) == set(players)
    assert all(int(listed[p]["SPP to spend"]) == players[p].spp for p in players)
    assert all(int(listed[p]["Value"]) == players[p].value for p in players)


def test_csv_headings_are_words_and_every_table_has_a_file(tables: dict[str, Rows]) -> None:
    assert set(tables) >= {
        "standings.csv",
        "positions.csv",
        "matches.csv",
        "teams.csv",
        "players.csv",
        "treasury.csv",
        "player_moves.csv",
        "cemetery.csv",
        "leaders.csv",
        "records.csv",
        "corrections.csv",
        "audit.csv",
    }
    assert list(tables["standings.csv"][0])[:5] == [
        "Season",
        "Division",
        "Position",
        "Team ID",
        "Team",
    ]
    assert [row["Player"] for row in tables["cemetery.csv"]] == ["Karl Vogt"]
    assert tables["positions.csv"][0]["After round 3"] == "1"


def match_ids(report: SeasonReport) -> set[str]:
    return {m.match_id for r in report.rounds for m in r.matches}


def test_every_format_shares_ranks_and_names_games_instead_of_ids(
    demo_report: SeasonReport, tables: dict[str, Rows]
) -> None:
    touchdowns = [r for r in tables["leaders.csv"] if r["Leaderboard"] == "Touchdowns"]
    assert [r["Position"] for r in touchdowns] == ["1", "1", "3", "3", "5", "5", "5", "5"]
    best = [r for r in tables["records.csv"] if r["Record"] == "Most SPP in one game"]
    assert [(r["Held by"], r["Match ID"], r["Match"]) for r in best] == [
        (
            "Skweek",
            "r1-scramblers-grudgebearers",
            "Skavenblight Scramblers 2\u20131 Dwarf Grudgebearers, round 1",
        ),
        (
            "Ugluk",
            "r2-gouged-eye-grudgebearers",
            "The Gouged Eye 3\u20130 Dwarf Grudgebearers, round 2",
        ),
    ]
    assert all(r["Match ID"] not in r["Details"] for r in tables["records.csv"] if r["Match ID"])
    assert [r["Match"] for r in tables["cemetery.csv"]] == [
        "Reikland Reavers 1\u20131 Skavenblight Scramblers, round 2"
    ]
    markdown = render_markdown(demo_report)
    assert re.search(r"^\| 1 \| Ugluk \|.*\n\| 3 \| Kazador \|", markdown, flags=re.M)
    assert (
        "| Most SPP in one game (shared) | Skweek | 10 | for Skavenblight Scramblers in "
        in markdown
    )
    assert "| Most SPP in one game (shared) | Ugluk | 10 | for The Gouged Eye in " in markdown
    html = render_html(demo_report)
    records = html[html.index('<table class="records">') :]
    records = records[: records.index("</table>")]
    assert '<th scope="row" rowspan="2">Most SPP in one game' in records
    assert "<td>Ugluk</td>" in records or ">Ugluk<" in records
    for match_id in match_ids(demo_report):
        assert match_id not in markdown, match_id
        assert match_id not in re.sub(r'data-match="[^"]*"', "", html), match_id


def test_csv_goes_into_a_zip_when_the_target_ends_with_zip(
    demo_report: SeasonReport, tmp_path: Path
) -> None:
    path = write_report(demo_report, "csv", tmp_path / "season.zip")
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        text = archive.read("standings.csv").decode("utf-8-sig")
    assert "standings.csv" in names
    assert "audit.csv" in names
    assert len(list(csv.DictReader(io.StringIO(text)))) == 4


def schema_errors(instance: Any, schema: dict[str, Any]) -> list[str]:
    """Validate with the jsonschema package when installed, else with ``subset_errors``
    (the keywords pydantic's schemas use), so the check runs wherever the tests do."""
    try:
        jsonschema = importlib.import_module("jsonschema")
    except ImportError:
        return subset_errors(instance, schema, schema, "$")
    jsonschema.Draft202012Validator.check_schema(schema)
    return [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(instance)]


def subset_errors(value: Any, node: dict[str, Any], root: dict[str, Any], at: str) -> list[str]:
    if "$ref" in node:
        node = root["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    if "anyOf" in node:
        options = [subset_errors(value, o, root, at) for o in node["anyOf"]]
        return [] if any(not o for o in options) else [f"{at}: matches no anyOf"]
    kinds: dict[str, type | tuple[type, ...]] = {
        "object": dict,
        "array": list,
        "string": str,
        "boolean": bool,
        "null": type(None),
        "integer": int,
        "number": (int, float),
    }
    wanted = node.get("type")
    if (wanted and not isinstance(value, kinds[wanted])) or (
        wanted in ("integer", "number") and isinstance(value, bool)
    ):
        return [f"{at}: not {wanted}"]
    if value != node.get("const", value) or value not in node.get("enum", [value]):
        return [f"{at}: not an allowed value"]
    if isinstance(value, dict):
        return object_errors(value, node, root, at)
    if isinstance(value, list) and "items" in node:
        return [
            e
            for i, v in enumerate(value)
            for e in subset_errors(v, node["items"], root, f"{at}[{i}]")
        ]
    return []


def object_errors(
    value: dict[str, Any], node: dict[str, Any], root: dict[str, Any], at: str
) -> list[str]:
    props = node.get("properties", {})
    errors = [f"{at}: missing {k}" for k in node.get("required", []) if k not in value]
    if node.get("additionalProperties") is False:
        errors += [f"{at}: unexpected {k}" for k in value if k not in props]
    extra = node.get("additionalProperties")
    for key, item in value.items():
        schema = props.get(key, extra if isinstance(extra, dict) else {})
        errors += subset_errors(item, schema, root, f"{at}.{key}")
    return errors


def test_the_json_validates_against_the_schema_ledger_schema_prints(
    demo_report: SeasonReport,
) -> None:
    document = json.loads(render_json(demo_report))
    schema = json.loads(schema_json())
    assert schema_errors(document, schema) == []
    assert SeasonReport.model_validate(document) == demo_report
    broken = {k: v for k, v in document.items() if k != "season"}
    assert schema_errors(broken, schema) != []
    document["standings"][0]["rows"][0]["points"] = "seven"
    assert schema_errors(document, schema) != []


class Page(HTMLParser):
    """What the tests read of an HTML report: charts' series, tables, fetched resources."""

    def __init__(self) -> None:
        super().__init__()
        self.series: dict[str, list[str]] = defaultdict(list)
        self.chart: str | None = None
        self.drawing: str | None = None
        self.standings_rows = 0
        self.in_standings = False
        self.fetches: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.add(tag)
        self.fetches += [v or "" for k, v in attrs if k in ("src", "srcset", "action")]
        if tag == "link" or (tag == "a" and (a.get("href") or "#")[0] != "#"):
            self.fetches.append(a.get("href") or "")
        if tag == "figure" and a.get("data-chart"):
            self.chart = a["data-chart"]
        if tag == "svg" and self.chart and a.get("data-canvas"):
            canvas = a["data-canvas"]
            self.drawing = self.chart if canvas == "wide" else f"{self.chart}:{canvas}"
        if tag == "path" and self.drawing and a.get("d") and self.series[self.drawing]:
            self.series[self.drawing][-1] = a["d"] or ""
        if tag == "g" and self.drawing and "series" in (a.get("class") or "").split():
            self.series[self.drawing].append("")
        if tag == "table" and "standings" in (a.get("class") or ""):
            self.in_standings = True
        if tag == "tr" and self.in_standings and a.get("data-team"):
            self.standings_rows += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "figure":
            self.chart = None
        if tag == "svg":
            self.drawing = None
        if tag == "table":
            self.in_standings = False


def read_page(html: str) -> Page:
    page = Page()
    page.feed(html)
    return page


def test_the_html_is_one_self_contained_file_with_a_series_per_team(
    demo_report: SeasonReport,
) -> None:
    html = render_html(demo_report)
    page = read_page(html)
    assert page.fetches == []
    assert "script" not in page.tags
    assert set(re.findall(r"https?://[^\s\"'<>)]+", html)) == {"http://www.w3.org/2000/svg"}
    assert "url(" not in html
    assert "@import" not in html
    assert page.standings_rows == 4
    # Each chart is drawn for a wide page and for a phone, a series per team in each.
    charts = {"positions-0", "rating", "treasury"}
    assert set(page.series) == charts | {f"{c}:narrow" for c in charts}
    assert all(len(paths) == 4 and all(paths) for paths in page.series.values())
    assert 'role="img"' in html
    assert '<title id="rating-title">TV over the season' in html
    assert "@media print" in html
    assert "width=device-width" in html


def test_names_are_escaped_in_html_markdown_and_csv(sqlite_ledger: LeagueLedger) -> None:
    create_league(sqlite_ledger, "odd")
    sqlite_ledger.handle(
        RegisterTeam("odd", "pipes", "Orcs | <b>Goblins</b> &amp;", "=cmd|' /C calc'!A0", "human"),
        by="t",
    )
    for index, position in enumerate(HUMAN_ELEVEN):
        name = f"P{index}" if index else '=HYPERLINK("http://evil.example","P0")'
        sqlite_ledger.handle(HirePlayer("odd", "pipes", position, name), by="t")
    draft_team(sqlite_ledger, "odd", "rats", "skaven", SKAVEN_ELEVEN)
    sqlite_ledger.handle(
        RecordMatch(
            "odd",
            report(
                {
                    "match": "g1",
                    "round": 1,
                    "home": {"team": "pipes", "touchdowns": 1},
                    "away": {"team": "rats", "touchdowns": 0},
                }
            ),
            roll_missing=True,
        ),
        by="t",
    )
    made = make_report(sqlite_ledger, "odd")
    html, markdown = render_html(made), render_markdown(made)
    assert "Orcs | &lt;b&gt;Goblins&lt;/b&gt; &amp;amp;" in html
    assert "<b>Goblins" not in html
    assert "Orcs \\| \\<b\\>Goblins\\</b\\> \\&amp;" in markdown  # shown as typed
    # in the team's heading and the lines about it too, not only in the tables' cells
    assert "### Orcs \\| \\<b\\>Goblins" in markdown
    assert "<b>Goblins" not in markdown
    for table in re.findall(r"(?:^\|.*\|\n)+", markdown, flags=re.MULTILINE):
        widths = {len(re.findall(r"(?<!\\)\|", line)) for line in table.splitlines()}
        assert len(widths) == 1, table
    # A spreadsheet runs a cell that starts with "=" (or +, -, @): typed text is quoted
    files = render_csv(made)
    players = csv.DictReader(io.StringIO(files["players.csv"].lstrip("\ufeff")))
    names = {row["Name"] for row in players}
    assert '\'=HYPERLINK("http://evil.example","P0")' in names
    coaches = csv.DictReader(io.StringIO(files["teams.csv"].lstrip("\ufeff")))
    assert "'=cmd|' /C calc'!A0" in {row["Coach"] for row in coaches}
    cells = [c for text in files.values() for row in csv.reader(io.StringIO(text)) for c in row]
    assert not [c for c in cells if c.startswith(("=", "+", "@"))]


def test_teams_level_on_every_tie_breaker_share_their_place(
    sqlite_ledger: LeagueLedger, tmp_path: Path
) -> None:
    league = two_team_league(sqlite_ledger)
    draft_team(sqlite_ledger, league, "gouged", "human", HUMAN_ELEVEN)
    for number, (home, away, score) in enumerate(
        (("reavers", "rats", 1), ("reavers", "gouged", 0), ("rats", "gouged", 0)), start=1
    ):
        game = {
            "match": f"g{number}",
            "round": number,
            "home": {"team": home, "touchdowns": 1},
            "away": {"team": away, "touchdowns": score},
        }
        sqlite_ledger.handle(RecordMatch(league, report(game), roll_missing=True), by="t")
        for team in (home, away):
            sqlite_ledger.handle(
                ClosePostGame(league, f"g{number}", team, roll_missing=True), by="t"
            )
    # The Reavers and the Rats drew 1-1 and both beat the Gouged Eye 1-0: no tie-breaker
    # separates them.
    made = make_report(sqlite_ledger, league)
    [table] = made.standings
    assert [(r.team_id, r.rank) for r in table.rows] == [
        ("rats", 1),
        ("reavers", 1),
        ("gouged", 3),
    ]
    assert {t.team_id: t.rank for t in made.teams} == {"rats": 1, "reavers": 1, "gouged": 3}
    assert [s.positions for s in made.positions[0].series] == [[1, 2, 1], [1, 1, 1], [None, 3, 3]]
    level = "level on every tie-breaker"
    assert level in render_html(made)
    assert f"| **4** | {level} |" in render_markdown(made)
    rows = read_tables(write_report(made, "csv", tmp_path / "csv"))["standings.csv"]
    assert [r["Position"] for r in rows] == ["1", "1", "3"]


def test_markdown_has_every_section(demo_report: SeasonReport) -> None:
    markdown = render_markdown(demo_report)
    for heading in (
        "# Old World Demo League — Season 1",
        "## Standings after 6 league games",  # the demo's season is open
        "### League position by round — Old World",
        "## Results",
        "## Leaders",
        "## Records",
        "## Teams",
        "### Reikland Reavers",
        "#### Cemetery",
        "#### Treasury statement",
        "## Audit appendix",
    ):
        assert f"\n{heading}\n" in f"\n{markdown}", heading
    assert "## Play-offs" not in markdown
    assert "## Prize money" not in markdown


def test_formats_come_from_the_option_or_the_suffix() -> None:
    assert report_format("MD", None) == "md"
    assert report_format("markdown", None) == "md"
    assert report_format(None, Path("s.json")) == "json"
    assert report_format(None, Path("s.zip")) == "csv"
    assert report_format(None, Path("folder")) == "csv"
    assert report_format(None, None) == "html"
    with pytest.raises(UnknownReportFormat, match="unknown report format 'pdf'"):
        report_format("pdf", None)
    with pytest.raises(UnknownReportFormat, match="cannot tell"):
        report_format(None, Path("s.txt"))


def test_an_unwritable_target_is_one_error_and_leaves_nothing(
    demo: LeagueLedger, tmp_path: Path
) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    blocker = folder / "file"
    blocker.write_text("not a folder")
    with pytest.raises(ReportNotWritten, match="cannot write the report to"):
        produce_report(demo, DEMO, fmt="html", out=blocker / "report.html")
    assert [p.name for p in folder.iterdir()] == ["file"]


def test_a_report_replaces_the_previous_one_whole(demo: LeagueLedger, tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    target = tmp_path / "out" / "report.html"
    target.write_text("old")
    assert produce_report(demo, DEMO, out=target) == target
    assert target.read_text("utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in target.parent.iterdir()] == ["report.html"]


def full_season(report: SeasonReport) -> SeasonReport:
    """The demo's report with what the demo lacks: two divisions, a final, a prize, a
    correction and a what-if (as the season and what-if commands will give them)."""
    [table], [chart] = report.standings, report.positions
    final = (
        report.rounds[0]
        .matches[0]
        .model_copy(update={"match_id": "final", "stage": "final", "kind": "playoff", "round": 4})
    )
    rows = [
        r.model_copy(update={"qualified": r.team_id in (final.home_id, final.away_id)})
        for r in table.rows
    ]
    north, south = rows[:2], rows[2:]
    winner = final.winner_id or final.home_id
    return report.model_copy(
        update={
            "standings": [
                DivisionTable(division="North", rows=north),
                DivisionTable(division="South", rows=south),
            ],
            "positions": [
                chart.model_copy(update={"division": "North", "series": chart.series[:2]}),
                chart.model_copy(update={"division": "South", "series": chart.series[2:]}),
            ],
            "playoffs": [PlayoffStage(stage="final", label="Final", matches=[final])],
            "prizes": [
                Prize(
                    event=90,
                    team_id=winner,
                    team=final.home,
                    amount=100_000,
                    note="league champion",
                )
            ],
            "season": report.season.model_copy(
                update={
                    "champion_id": winner,
                    "champion": final.home,
                    "playoff_teams": 2,
                    "divisions": ["North", "South"],
                }
            ),
            "whatif": WhatIfSection(
                id="w1",
                ruleset="lrb6",
                ruleset_name="LRB6",
                rows=[
                    WhatIfRow(
                        team_id=r.team_id,
                        team=r.team,
                        division="",
                        actual_rank=r.rank,
                        actual_points=r.points,
                        whatif_rank=r.rank,
                        whatif_points=r.points,
                        movement=0,
                    )
                    for r in table.rows
                ],
                divergences=["a skill deferred"],
                recorded_rolls=40,
                simulated_rolls=2,
                notes=[],
            ),
            "audit": report.audit.model_copy(
                update={
                    "corrections": [
                        Correction(
                            event=86,
                            recorded_by="the commissioner",
                            recorded_at="2026-01-01T10:00:00",
                            reason="typo",
                            summary="event 63 amended",
                            target=63,
                            target_summary="league match r1",
                        )
                    ]
                }
            ),
        }
    )


def test_sections_appear_when_the_data_has_them(demo_report: SeasonReport, tmp_path: Path) -> None:
    full = full_season(demo_report)
    page = read_page(render_html(full))
    wide = {c for c in page.series if ":" not in c}
    assert wide == {"positions-0", "positions-1", "rating", "treasury"}
    assert [len(page.series[c]) for c in ("positions-0", "positions-1")] == [2, 2]
    html = render_html(full)
    for text in (
        'id="playoffs"',
        'id="prizes"',
        'id="whatif"',
        "Champion: Reikland Reavers",
        "event 63 amended",
        'class="qualified"',
        "North",
        "South",
    ):
        assert text in html, text
    markdown = render_markdown(full)
    for text in (
        "## Play-offs",
        "## Prize money",
        "## What if: LRB6",
        "### North",
        "event 63 amended",
        "**Champion: Reikland Reavers**",
    ):
        assert text in markdown, text
    tables = read_tables(write_report(full, "csv", tmp_path / "csv"))
    assert [row["Amount"] for row in tables["prizes.csv"]] == ["100000"]
    assert len(tables["whatif.csv"]) == 4
    assert {row["Division"] for row in tables["standings.csv"]} == {"North", "South"}
    assert any(row["Stage"] == "final" for row in tables["matches.csv"])
    schema = json.loads(schema_json())
    assert schema_errors(json.loads(render_json(full)), schema) == []


def test_chart_lines_break_where_a_team_has_no_value() -> None:
    assert line_path([(0, 10), None, (20, 30), (40, 5.5)]) == "M0 10 M20 30 L40 5.5"
    chart = positions_chart(
        "p", "Positions", ["1", "2", "3"], [("a", "A", [None, 2, 1]), ("b", "B", [1, 1, 2])]
    )
    assert [len(s.marks) for s in chart.series] == [2, 3]
    assert [t.label for t in chart.y_ticks] == ["1st", "2nd"]
    assert chart.series[0].marks[0][2] == "A: 2nd after round 2"
    ticks = [t.at for t in value_ticks(940_000, 1_065_000, str)]
    assert ticks == [900_000, 950_000, 1_000_000, 1_050_000, 1_100_000]


def test_tv_and_treasury_are_drawn_from_each_teams_first_game_on_a_round_scale(
    demo_report: SeasonReport,
) -> None:
    rating, treasury = charts(demo_report)["figures"]
    teams = {t.team_id: t for t in demo_report.teams}
    for drawings, figure in ((rating, "rating"), (treasury, "treasury")):
        for chart in drawings.charts:  # the wide drawing and the phone's
            assert chart.steps == ["1", "2", "3", "End"]
            for series in chart.series:
                team = teams[series.key]
                first_game = next(h for h in team.history if h.match_id)
                assert series.values[0] == getattr(first_game, figure)
                assert series.values[-1] == getattr(team, figure)
    # Not the pre-draft TV of 0 and treasury of 1,000,000: each team's figures at its first
    # game, after the draft.
    assert {s.key: s.values[0] for s in rating.main.series} == {
        "skavenblight-scramblers": 980_000,
        "reikland-reavers": 955_000,
        "gouged-eye": 955_000,
        "grudgebearers": 1_000_000,
    }
    assert all(0 < (s.values[0] or 0) < 1_000_000 for s in treasury.main.series)
    # The axes span the season's values on round ticks, not from zero.
    assert [t.label for t in rating.main.y_ticks] == ["900k", "950k", "1M", "1.05M", "1.1M"]
    assert [t.label for t in treasury.main.y_ticks] == ["50k", "100k", "150k", "200k", "250k"]
    assert [t.label for t in rating.main.x_ticks] == ["1", "2", "3", "End"]
    # Markdown gives the same figures as tables.
    markdown = render_markdown(demo_report)
    assert "| Team | R1 | R2 | R3 | End |" in markdown
    assert "| Skavenblight Scramblers | 980,000 | 1,000,000 | 1,000,000 | 1,000,000 |" in markdown
    assert "| Skavenblight Scramblers | 80,000 | 150,000 | 215,000 | 205,000 |" in markdown


def test_a_flat_range_is_widened_around_its_value_and_crowded_rounds_are_thinned() -> None:
    ticks = value_ticks(1_000_000, 1_000_000, compact_gold)
    assert [t.label for t in ticks] == ["900k", "950k", "1M", "1.05M", "1.1M"]
    assert compact_gold(1_025_000) == "1.025M"
    rounds = [str(r) for r in range(1, 20)]
    series = [("a", "A", list(range(1, 20))), ("b", "B", list(range(19, 0, -1)))]
    chart = positions_chart("p", "Positions", rounds, series, NARROW)
    labelled = [t for t in chart.x_ticks if t.label]
    assert len(chart.x_ticks) == 19
    assert labelled[0].label == "1"
    assert labelled[-1].label == "19"
    gaps = [b.at - a.at for a, b in itertools.pairwise(labelled)]
    assert min(gaps) >= 2 * NARROW.font  # two digits and a space between labels
    assert chart.width == NARROW.width
