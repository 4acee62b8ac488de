"""Every team's line can be told apart: lines of equal value run side by side instead of
hiding one another, the wide drawing names each line at its end at least a line of text
apart, and the legend says which lines are drawn side by side (the demo's Skavenblight
Scramblers and Dwarf Grudgebearers have the same TV from round 2 on)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from ledger.reports.chart_labels import LINE_GAP, spread
from ledger.reports.charts import (
    NARROW,
    WIDE,
    Canvas,
    Chart,
    compact_gold,
    figure_chart,
    positions_chart,
)
from ledger.reports.model import SeasonReport
from ledger.reports.to_html import charts, render_html
from tests.integration.test_reports import demo, demo_db, demo_report

__all__ = ["demo", "demo_db", "demo_report"]  # fixtures shared with test_reports.py

STEPS = ["1", "2", "3", "End"]
LEVEL = [1_000_000, 1_000_000, 1_020_000, 1_020_000]


def tv_chart(
    series: Sequence[tuple[str, str, Sequence[int | None]]], canvas: Canvas = WIDE
) -> Chart:
    return figure_chart(
        "rating", "TV over the season", "TV.", "TV", STEPS, series, compact_gold, canvas=canvas
    )


def points(chart: Chart, key: str) -> list[tuple[float, float]]:
    [series] = [s for s in chart.series if s.key == key]
    return [(x, y) for x, y, _ in series.marks]


def test_names_are_spread_a_gap_apart_around_where_they_belong() -> None:
    assert spread([10, 10, 10], 4, 0, 100) == [6, 10, 14]  # centred on their place
    assert spread([0, 0], 4, 0, 100) == [0, 4]  # kept inside the plot
    assert spread([100, 100], 4, 0, 100) == [96, 100]
    assert spread([5, 30, 31], 4, 0, 100) == [5, 28.5, 32.5]  # only the crowd moves


def test_two_teams_level_all_season_are_drawn_side_by_side_and_named_apart() -> None:
    chart = tv_chart([("a", "Alpha", list(LEVEL)), ("b", "Beta", list(LEVEL))])
    alpha, beta = points(chart, "a"), points(chart, "b")
    assert chart.series[0].path != chart.series[1].path
    for (ax, ay), (bx, by) in zip(alpha, beta, strict=True):
        assert ax == bx
        assert by - ay >= LINE_GAP  # in series order, a line's width and a gap apart
    # Each line is named at its end, the names at least a line of text apart.
    ends = [s.end for s in chart.series]
    assert all(e is not None for e in ends)
    a_end, b_end = (e for e in ends if e is not None)
    assert abs(b_end.y - a_end.y) >= WIDE.font
    assert (a_end.text, b_end.text) == ("Alpha", "Beta")
    assert a_end.point == alpha[-1]
    assert b_end.point == beta[-1]
    assert a_end.x > chart.plot[2]  # right of the plot
    # The legend and the description say which lines coincide, and where.
    note = "Lines drawn side by side where teams are level: Alpha and Beta (R1\u2013End)."
    assert chart.level_note == note
    assert chart.description.endswith(note)


def test_a_phone_keeps_the_lines_apart_and_names_them_in_the_legend() -> None:
    chart = tv_chart([("a", "Alpha", list(LEVEL)), ("b", "Beta", list(LEVEL))], NARROW)
    assert chart.series[0].path != chart.series[1].path
    assert all(s.end is None for s in chart.series)
    assert chart.level_note


def test_lines_that_only_cross_are_not_called_level() -> None:
    chart = tv_chart(
        [
            ("a", "Alpha", [900_000, 1_000_000, 1_100_000, 1_100_000]),
            ("b", "Beta", [1_100_000, 1_000_000, 900_000, 900_000]),
        ]
    )
    assert chart.level_note == ""
    assert chart.description == "TV."


def test_twenty_teams_level_all_season_are_each_named_a_line_apart() -> None:
    series = [(f"t{i}", f"Team number {i:02d}", list(LEVEL)) for i in range(20)]
    chart = tv_chart(series)
    ends = sorted(s.end.y for s in chart.series if s.end is not None)
    assert len(ends) == 20
    assert all(b - a >= WIDE.font for a, b in itertools.pairwise(ends))
    assert ends[0] >= 0
    assert ends[-1] <= chart.height
    assert len({s.path for s in chart.series}) == 20


def test_long_names_are_cut_at_the_line_end_and_kept_whole_in_the_legend() -> None:
    name = "The Most Excellent Reikland Reavers of Altdorf"
    chart = tv_chart([("a", name, list(LEVEL)), ("b", "Beta", list(LEVEL))])
    end = chart.series[0].end
    assert end is not None
    assert end.text.endswith("\u2026")
    assert len(end.text) <= 24
    assert chart.series[0].label == name
    assert chart.width - chart.plot[2] < chart.width / 3  # the plot keeps most of the width


def test_teams_sharing_a_place_are_drawn_apart_on_the_position_chart() -> None:
    chart = positions_chart("p", "Positions", ["1", "2"], [("a", "A", [1, 1]), ("b", "B", [1, 2])])
    (_, a1), (_, b1) = points(chart, "a")[0], points(chart, "b")[0]
    assert b1 - a1 >= LINE_GAP


def test_the_demo_tv_chart_tells_its_level_teams_apart(demo_report: SeasonReport) -> None:
    rating = charts(demo_report)["figures"][0].main
    skaven = points(rating, "skavenblight-scramblers")
    dwarfs = points(rating, "grudgebearers")
    assert [round(x) for x, _ in skaven] == [round(x) for x, _ in dwarfs]
    assert all(abs(a[1] - b[1]) >= LINE_GAP for a, b in zip(skaven[1:], dwarfs[1:], strict=True))
    ends = sorted(s.end.y for s in rating.series if s.end is not None)
    assert len(ends) == 4
    assert all(b - a >= WIDE.font for a, b in itertools.pairwise(ends))
    html = render_html(demo_report)
    assert (
        "Lines drawn side by side where teams are level: Skavenblight Scramblers and Dwarf"
        " Grudgebearers (R2\u2013End)." in html
    )
    # The names are drawn in the wide SVG, out of the screen reader's way (the series'
    # titles name them), and the page stays self-contained.
    labels = re.findall(r'<g class="labels" aria-hidden="true">(.*?)</g>', html, re.S)
    assert len(labels) == 3  # the position, TV and treasury charts, wide drawings only
    assert labels[1].count("<text") == 4
    assert "<script" not in html
