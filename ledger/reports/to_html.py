"""The HTML report: one self-contained file, inline CSS and SVG, no script, no network.

Jinja2 templates (templates/*.html.j2) lay out the page; charts.py computes the charts'
geometry from the model. The page reads on a phone (tables scroll inside their own box,
charts scale to the width) and in print (each team page on a new sheet, colours kept).
"""

from __future__ import annotations

from collections.abc import Sequence

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from ledger.reports.charts import (
    Chart,
    compact_gold,
    figure_chart,
    ordinal,
    positions_chart,
)
from ledger.reports.model import SeasonReport, TeamPage
from ledger.reports.text import FILTERS


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


def boundaries(report: SeasonReport) -> list[tuple[str, int]]:
    """Each step of the season and the event its first game was recorded at: the rounds,
    then the play-offs."""
    steps = []
    for results in report.rounds:
        events = [m.event for m in results.matches if m.event is not None]
        if events:
            steps.append((f"R{results.round}" if results.round else results.label, min(events)))
    playoffs = [m.event for s in report.playoffs for m in s.matches if m.event is not None]
    if playoffs:
        steps.append(("Play-offs", min(playoffs)))
    return sorted(steps, key=lambda step: step[1])


def figure_steps(team: TeamPage, figure: str, starts: Sequence[int]) -> list[int | None]:
    """A team's ``figure`` ("rating" or "treasury") before the season's first game and
    after each step (as it went into the next step, post-game sequence included)."""
    ends = [*starts, 2**62]
    values: list[int | None] = []
    for end in ends:
        before = [getattr(h, figure) for h in team.history if h.event < end]
        values.append(before[-1] if before else (values[-1] if values else None))
    if values and values[0] is None:  # no event this season before the first game
        values[0] = next((v for v in values if v is not None), getattr(team, figure))
    return values


def charts(report: SeasonReport) -> dict[str, list[Chart]]:
    """Every chart of the report, by section."""
    label = report.league.rating_label
    positions = [
        positions_chart(
            f"positions-{index}",
            "League position by round" + (f" — {chart.division}" if chart.division else ""),
            chart.rounds,
            [(s.team_id, s.team, s.positions) for s in chart.series],
        )
        for index, chart in enumerate(report.positions)
        if chart.rounds
    ]
    steps = boundaries(report)
    labels = ["Start", *(name for name, _ in steps)]
    starts = [event for _, event in steps]

    def series(figure: str) -> list[tuple[str, str, Sequence[int | None]]]:
        return [(t.team_id, t.name, figure_steps(t, figure, starts)) for t in report.teams]

    return {
        "positions": positions,
        "rating": [
            figure_chart(
                "rating",
                f"{label} over the season",
                f"Each team's {label} before the first game and after each round.",
                f"{label} (gold pieces)",
                labels,
                series("rating"),
                compact_gold,
                from_zero=False,
            )
        ],
        "treasury": [
            figure_chart(
                "treasury",
                "Treasury over the season",
                "Each team's treasury before the first game and after each round,"
                " post-game sequence included.",
                "Treasury (gold pieces)",
                labels,
                series("treasury"),
                compact_gold,
            )
        ],
    }


def render_html(report: SeasonReport) -> str:
    template = environment().get_template("report.html.j2")
    return template.render(report=report, charts=charts(report), sections=sections(report))


def sections(report: SeasonReport) -> Sequence[tuple[str, str]]:
    """The table of contents: (anchor, title) of each section present."""
    found = [("standings", "Standings"), ("charts", "Charts")]
    if report.playoffs:
        found.append(("playoffs", "Play-offs"))
    if report.prizes:
        found.append(("prizes", "Prize money"))
    found += [("results", "Results"), ("leaders", "Leaders and records"), ("teams", "Teams")]
    if report.whatif:
        found.append(("whatif", "What if"))
    return [*found, ("audit", "Audit")]
