"""Chart geometry for the HTML report: plain numbers in, SVG paths and ticks out.

The charts are hand-written SVG (templates/chart.svg.j2) rather than a plotting
library's output: a few line charts need no dependency, stay crisp at any zoom and in
print, and can be made accessible exactly (a title and description, one group per series
with its name, a legend, and the same data as a table). This module does the arithmetic:
scales, tick positions and path strings; the template does the markup.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

PALETTE = (
    "#0072b2",
    "#d55e00",
    "#009e73",
    "#cc79a7",
    "#e69f00",
    "#56b4e9",
    "#8c564b",
    "#000000",
    "#7f7f7f",
    "#b8860b",
)
"""Colours told apart by most colour-blind readers (Okabe-Ito, extended)."""
DASHES = ("", "6 3", "2 3", "8 3 2 3")
"""Each further cycle through the palette gets a dash pattern, so 40 series stay distinct."""

WIDTH, HEIGHT = 640, 320
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 78, 18, 14, 48
"""The drawing's own units: text is 14 units high, so it stays legible on a phone."""


@dataclass(frozen=True)
class Tick:
    """A labelled mark on an axis, ``at`` in drawing units."""

    at: float
    label: str


@dataclass(frozen=True)
class Series:
    """One team's line: ``key`` is its id (the group's ``data-series``), ``label`` its name."""

    key: str
    label: str
    color: str
    dash: str
    path: str
    marks: list[tuple[float, float, str]] = field(default_factory=list)
    """Point markers: x, y in pixels, and a tooltip."""


@dataclass(frozen=True)
class Chart:
    """Everything the SVG template draws."""

    id: str
    title: str
    description: str
    x_label: str
    y_label: str
    width: int
    height: int
    plot: tuple[float, float, float, float]
    """left, top, right, bottom of the plotting area, in pixels."""
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    series: list[Series]


@dataclass(frozen=True)
class Scale:
    """Maps data values ``low..high`` onto drawing units ``start..stop``."""

    low: float
    high: float
    start: float
    stop: float

    def __call__(self, value: float) -> float:
        span = self.high - self.low or 1.0
        return round(self.start + (value - self.low) / span * (self.stop - self.start), 1)


def style(index: int) -> tuple[str, str]:
    """Colour and dash pattern of the ``index``-th series."""
    return PALETTE[index % len(PALETTE)], DASHES[(index // len(PALETTE)) % len(DASHES)]


def nice_step(span: float, count: int = 5) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``count`` ticks."""
    raw = max(span / max(count, 1), 1e-9)
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def value_ticks(low: float, high: float, fmt: Callable[[float], str]) -> list[Tick]:
    step = nice_step(high - low)
    first = math.floor(low / step) * step
    count = math.ceil((high - first) / step) + 1
    return [Tick(first + i * step, fmt(first + i * step)) for i in range(count)]


def line_path(points: Sequence[tuple[float, float] | None]) -> str:
    """An SVG path through ``points``; None breaks the line (no value at that step)."""
    parts: list[str] = []
    previous: tuple[float, float] | None = None
    for point in points:
        if point is not None:
            parts.append(f"{'L' if previous else 'M'}{point[0]:g} {point[1]:g}")
        previous = point
    return " ".join(parts)


@dataclass(frozen=True)
class Frame:
    """The axes of a chart: data ranges mapped onto the plotting area."""

    x: Scale
    y: Scale
    height: int

    @classmethod
    def of(
        cls,
        x_range: tuple[float, float],
        y_range: tuple[float, float],
        height: int,
        invert: bool = False,
    ) -> Frame:
        top, bottom = MARGIN_TOP, height - MARGIN_BOTTOM
        y = Scale(*y_range, top, bottom) if invert else Scale(*y_range, bottom, top)
        return cls(Scale(*x_range, MARGIN_LEFT, WIDTH - MARGIN_RIGHT), y, height)

    @property
    def plot(self) -> tuple[float, float, float, float]:
        return MARGIN_LEFT, MARGIN_TOP, WIDTH - MARGIN_RIGHT, self.height - MARGIN_BOTTOM


def category_chart(
    chart_id: str,
    title: str,
    description: str,
    labels: tuple[str, str],
    steps: Sequence[str],
    series: Sequence[tuple[str, str, Sequence[float | None]]],
    frame: Frame,
    y_ticks: list[Tick],
    tip: Callable[[str, float, str], str],
) -> Chart:
    """Lines over the season's steps (rounds), one per series, with a marker per value."""
    drawn = []
    for index, (key, label, values) in enumerate(series):
        points = [(frame.x(i), frame.y(v)) if v is not None else None for i, v in enumerate(values)]
        marks = [
            (pt[0], pt[1], tip(label, v, step))
            for pt, v, step in zip(points, values, steps, strict=True)
            if pt is not None and v is not None
        ]
        drawn.append(Series(key, label, *style(index), line_path(points), marks))
    return Chart(
        chart_id,
        title,
        description,
        labels[0],
        labels[1],
        WIDTH,
        frame.height,
        frame.plot,
        [Tick(frame.x(i), step) for i, step in enumerate(steps)],
        y_ticks,
        drawn,
    )


def positions_chart(
    chart_id: str,
    title: str,
    rounds: Sequence[str],
    series: Sequence[tuple[str, str, Sequence[int | None]]],
) -> Chart:
    """League position (1 at the top) after each round, one line per team."""
    teams = max(len(series), 1)
    height = max(200, MARGIN_TOP + MARGIN_BOTTOM + 26 * teams)
    frame = Frame.of((0, max(len(rounds) - 1, 1)), (1, max(teams, 2)), height, invert=True)
    return category_chart(
        chart_id,
        title,
        f"League position after each round for {len(series)} teams; first place is at the top.",
        ("Round", "Position"),
        rounds,
        series,
        frame,
        [Tick(frame.y(p), ordinal(p)) for p in range(1, teams + 1)],
        lambda team, place, step: f"{team}: {ordinal(int(place))} after round {step}",
    )


def figure_chart(
    chart_id: str,
    title: str,
    description: str,
    y_label: str,
    steps: Sequence[str],
    series: Sequence[tuple[str, str, Sequence[int | None]]],
    fmt: Callable[[float], str],
    from_zero: bool = True,
) -> Chart:
    """A team figure (TV/TR, treasury) at the start of the season and after each round.

    ``from_zero`` starts the axis at nothing (a treasury); otherwise the axis spans the
    values, so teams whose TV moves by 5% are not drawn as one flat line."""
    values = [v for _, _, vs in series for v in vs if v is not None] or [0, 1]
    low, high = min(values), max(values)
    if from_zero or low == high:
        low = min(0, low)
    ticks = value_ticks(low, max(high, low + 1), fmt)
    frame = Frame.of((0, max(len(steps) - 1, 1)), (ticks[0].at, ticks[-1].at), HEIGHT)
    return category_chart(
        chart_id,
        title,
        description,
        ("Round", y_label),
        steps,
        series,
        frame,
        [Tick(frame.y(t.at), t.label) for t in ticks],
        lambda team, value, step: f"{team}: {value:,.0f} ({step})",
    )


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def compact_gold(amount: float) -> str:
    """Axis labels: 1,250,000 -> 1.25M, 95,000 -> 95k."""
    if abs(amount) >= 1_000_000:
        return f"{amount / 1_000_000:.2f}".rstrip("0").rstrip(".") + "M"
    if abs(amount) >= 1_000:
        return f"{amount / 1_000:.0f}k"
    return f"{amount:.0f}"
