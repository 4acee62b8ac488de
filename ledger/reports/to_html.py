"""The HTML report: one self-contained file, inline CSS and SVG, no script, no network.

Jinja2 templates (templates/*.html.j2) lay out the page; figures.py takes the charts'
data from the model and charts.py computes their geometry. The page reads on a phone
(tables fit or scroll inside their own box, charts are drawn for its width) and in print
(each team page on a new sheet, colours kept).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from ledger.reports.charts import (
    CANVASES,
    Chart,
    compact_gold,
    figure_chart,
    positions_chart,
)
from ledger.reports.figures import figure_steps, season_steps
from ledger.reports.model import SeasonReport
from ledger.reports.text import FILTERS
from ledger.words import ordinal


def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("ledger.reports", "templates"),
        autoescape=select_autoescape(["html.j2", "svg.j2"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(FILTERS)
    env.filters["ordinal"] = ordinal
    return env


def charts(report: SeasonReport) -> dict[str, list[Drawings]]:
    """Every chart of the report, by section, each drawn for a wide and a narrow page."""
    return {
        "positions": [
            Drawings(
                tuple(
                    positions_chart(
                        f"positions-{index}",
                        "League position by round"
                        + (f" \u2014 {chart.division}" if chart.division else ""),
                        chart.rounds,
                        [(s.team_id, s.team, s.positions) for s in chart.series],
                        canvas,
                    )
                    for canvas in CANVASES
                ),
                "position",
            )
            for index, chart in enumerate(report.positions)
            if chart.rounds
        ],
        "figures": figure_charts(report),
    }


def figure_charts(report: SeasonReport) -> list[Drawings]:
    steps = season_steps(report)
    if not steps:
        return []
    label = report.league.rating_label
    labels = [s.label for s in steps]
    names = {s.label: s.name for s in steps}

    def draw(figure: str, title: str, description: str, y_label: str) -> Drawings:
        series = [(t.team_id, t.name, figure_steps(t, figure, steps)) for t in report.teams]
        return Drawings(
            tuple(
                figure_chart(
                    figure,
                    title,
                    description,
                    y_label,
                    labels,
                    series,
                    compact_gold,
                    canvas,
                    lambda team, value, step: f"{team}: {value:,.0f} ({names[step]})",
                )
                for canvas in CANVASES
            ),
            "gold",
        )

    return [
        draw(
            "rating",
            f"{label} over the season",
            f"Each team's {label} at each of its games, from its first, and at the end of"
            " the season.",
            f"{label} ({'gold pieces' if report.league.rating_in_gold else 'points'})",
        ),
        draw(
            "treasury",
            "Treasury over the season",
            "Each team's treasury at each of its games, from its first (after the draft),"
            " and at the end of the season, after the last post-game sequence.",
            "Treasury (gold pieces)",
        ),
    ]


@dataclass(frozen=True)
class Drawings:
    """One chart drawn for each canvas (wide first), and how its table shows values."""

    charts: tuple[Chart, ...]
    values: str

    @property
    def main(self) -> Chart:
        return self.charts[0]


def render_html(report: SeasonReport) -> str:
    template = environment().get_template("report.html.j2")
    drawn = charts(report)
    found = sections(report, drawn)
    return template.render(
        report=report, charts=drawn, sections=found, shown={anchor for anchor, _ in found}
    )


def sections(report: SeasonReport, drawn: dict[str, list[Drawings]]) -> Sequence[tuple[str, str]]:
    """The table of contents: (anchor, title) of each section present. Before anything is
    played a section with nothing in it is left out (the season's notice says why): no
    standings before the first season, no charts, no leaders; fixtures, not results."""
    played = report.season.matches_played > 0
    found = [("standings", "Standings")] if report.standings else []
    if drawn["positions"] or drawn["figures"]:
        found.append(("charts", "Charts"))
    if report.playoffs:
        found.append(("playoffs", "Play-offs"))
    if report.prizes:
        found.append(("prizes", "Prize money"))
    if report.rounds:
        found.append(("results", "Results" if played else "Fixtures"))
    found += [("leaders", "Leaders and records")] if played else []
    found.append(("teams", "Teams"))
    if report.whatif:
        found.append(("whatif", "What if"))
    return [*found, ("audit", "Audit")]
