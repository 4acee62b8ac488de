"""Chart geometry for the HTML report: plain numbers in, SVG paths and ticks out.

The charts are hand-written SVG (templates/chart.svg.j2) rather than a plotting
library's output: a few line charts need no dependency, stay crisp at any zoom and in
print, and can be made accessible exactly (a title and description, one group per series
with its name, a legend, and the same data as a table). This module does the arithmetic:
scales, tick positions and path strings (chart_labels.py keeps lines of equal value, and
the lines' names, apart); the template does the markup.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ledger.reports.chart_labels import (
    LEADER,
    EndLabel,
    dodge,
    end_labels,
    label_room,
    level_note,
)
from ledger.words import ordinal

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


@dataclass(frozen=True)
class Canvas:
    """A chart's drawing, in its own units (the SVG's viewBox), for one page width.

    The page has no script, so it carries each chart drawn twice and its CSS shows the one
    that fits: ``WIDE`` at full width on a screen or paper, ``NARROW`` on a phone. One
    drawing cannot serve both: scaled to a phone, a desktop chart's text is 6 px high."""

    name: str
    width: int
    height: int
    """The height of a figure chart; a chart grows with its teams (a row each)."""
    margins: tuple[int, int, int, int]
    """left, right, top, bottom."""
    font: int
    row: int
    """The height of one place on a position chart."""
    labels: bool = False
    """Names each line at its end, right of the plot (a phone has no room: the legend)."""

    @property
    def label_gap(self) -> int:
        """How far apart the lines' names are: a line of text."""
        return self.font + 2


WIDE = Canvas("wide", 960, 360, (84, 24, 16, 54), 14, 28, labels=True)
NARROW = Canvas("narrow", 400, 300, (62, 14, 12, 48), 13, 24)
CANVASES = (WIDE, NARROW)


@dataclass(frozen=True)
class Tick:
    """A labelled mark on an axis, ``at`` in drawing units; an empty label marks a grid
    line whose label was left out to make room for its neighbours'."""

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
    """Point markers: x, y in drawing units, and a tooltip."""
    values: list[float | None] = field(default_factory=list)
    """The data drawn, one value (or None) per step."""
    end: EndLabel | None = None
    """The line's name at its end, on a canvas that names its lines."""


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
    """left, top, right, bottom of the plotting area, in drawing units."""
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    series: list[Series]
    steps: list[str] = field(default_factory=list)
    """Every step's label (the x axis may leave some out)."""
    canvas: str = WIDE.name
    font: int = WIDE.font
    marker: float = 4
    """The radius of a point's marker: smaller when the steps are close together."""
    level_note: str = ""
    """Which lines are drawn side by side, their values being equal (chart_labels.py)."""


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


def value_ticks(low: float, high: float, fmt: Callable[[float], str], count: int = 5) -> list[Tick]:
    """Round ticks from just below ``low`` to just above ``high`` (not from zero: a
    season's TV moves by a few percent). A flat range is widened around its value."""
    if high <= low:
        pad = nice_step(abs(low) / 10 or 1, 1)
        low, high = low - pad, high + pad
    step = nice_step(high - low, count)
    first = math.floor(low / step) * step
    steps = math.ceil((high - first) / step - 1e-9)
    return [Tick(v, fmt(v)) for v in (round(first + i * step, 9) for i in range(steps + 1))]


def line_path(points: Sequence[tuple[float, float] | None]) -> str:
    """An SVG path through ``points``; None breaks the line (no value at that step)."""
    parts: list[str] = []
    previous: tuple[float, float] | None = None
    for point in points:
        if point is not None:
            parts.append(f"{'L' if previous else 'M'}{point[0]:g} {point[1]:g}")
        previous = point
    return " ".join(parts)


def thinned(ticks: Sequence[Tick], font: int) -> list[Tick]:
    """The x axis's ticks with labels left out where they would overlap: every n-th label,
    and the last one."""
    if len(ticks) < 2:
        return list(ticks)
    spacing = abs(ticks[1].at - ticks[0].at) or 1
    widest = max(len(t.label) for t in ticks) * font * 0.62 + font * 0.6
    stride = max(1, math.ceil(widest / spacing))
    shown = list(range(0, len(ticks), stride))
    last = len(ticks) - 1
    if shown[-1] != last:
        if last - shown[-1] < stride and len(shown) > 1:
            shown.pop()
        shown.append(last)
    return [t if i in shown else Tick(t.at, "") for i, t in enumerate(ticks)]


@dataclass(frozen=True)
class Frame:
    """The axes of a chart: data ranges mapped onto the plotting area of a canvas."""

    x: Scale
    y: Scale
    height: int
    canvas: Canvas

    @classmethod
    def of(
        cls,
        canvas: Canvas,
        x_range: tuple[float, float],
        y_range: tuple[float, float],
        height: int,
        invert: bool = False,
        right: int | None = None,
    ) -> Frame:
        """``right``: a right margin wider than the canvas's, to hold the lines' names."""
        left, margin, top, bottom = canvas.margins
        y = (
            Scale(*y_range, top, height - bottom)
            if invert
            else Scale(*y_range, height - bottom, top)
        )
        return cls(Scale(*x_range, left, canvas.width - (right or margin)), y, height, canvas)

    @property
    def plot(self) -> tuple[float, float, float, float]:
        left, _, top, bottom = self.canvas.margins
        return left, top, self.x.stop, self.height - bottom

    @property
    def rows(self) -> tuple[float, float]:
        """The plot's top and bottom, in drawing units."""
        return self.plot[1], self.plot[3]


def name_room(canvas: Canvas, names: Sequence[str]) -> int | None:
    """The right margin for the lines' names on a canvas that shows them."""
    return max(canvas.margins[1], label_room(names, canvas.font)) if canvas.labels else None


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
    """Lines over the season's steps (rounds), one per series, with a marker per value;
    lines of equal value side by side, and each named at its end where the canvas has room."""
    ys = dodge([values for _, _, values in series], frame.y, frame.rows)
    lines = [
        [(frame.x(i), y) if y is not None else None for i, y in enumerate(column)] for column in ys
    ]
    names = named_ends(frame, [label for _, label, _ in series], lines)
    drawn = []
    for index, ((key, label, values), points) in enumerate(zip(series, lines, strict=True)):
        marks = [
            (pt[0], pt[1], tip(label, v, step))
            for pt, v, step in zip(points, values, steps, strict=True)
            if pt is not None and v is not None
        ]
        drawn.append(
            Series(key, label, *style(index), line_path(points), marks, list(values), names[index])
        )
    canvas = frame.canvas
    note = level_note(steps, [(label, values) for _, label, values in series])
    return Chart(
        chart_id if canvas is WIDE else f"{chart_id}-{canvas.name}",
        title,
        f"{description} {note}" if note else description,
        labels[0],
        labels[1],
        canvas.width,
        frame.height,
        frame.plot,
        thinned([Tick(frame.x(i), step) for i, step in enumerate(steps)], canvas.font),
        y_ticks,
        drawn,
        list(steps),
        canvas.name,
        canvas.font,
        marker_radius(frame, len(steps)),
        note,
    )


def named_ends(
    frame: Frame, names: Sequence[str], lines: Sequence[Sequence[tuple[float, float] | None]]
) -> list[EndLabel | None]:
    """Each line's name at its last point, on a canvas that names its lines."""
    if not frame.canvas.labels:
        return [None] * len(names)
    ends = [next((p for p in reversed(points) if p is not None), None) for points in lines]
    x = frame.x.stop + LEADER
    return end_labels(ends, names, x, frame.canvas.label_gap, frame.rows)


def marker_radius(frame: Frame, steps: int) -> float:
    spacing = (frame.x.stop - frame.x.start) / max(steps - 1, 1)
    return round(max(2.0, min(4.0, spacing / 6)), 1)


def positions_chart(
    chart_id: str,
    title: str,
    rounds: Sequence[str],
    series: Sequence[tuple[str, str, Sequence[int | None]]],
    canvas: Canvas = WIDE,
) -> Chart:
    """League position (1 at the top) after each round, one line per team."""
    teams = max(len(series), 1)
    _, _, top, bottom = canvas.margins
    height = max(canvas.height * 2 // 3, top + bottom + canvas.row * teams)
    room = name_room(canvas, [label for _, label, _ in series])
    frame = Frame.of(canvas, (0, max(len(rounds) - 1, 1)), (1, max(teams, 2)), height, True, room)
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
    canvas: Canvas = WIDE,
    tip: Callable[[str, float, str], str] | None = None,
) -> Chart:
    """A team figure (TV/TR, treasury) over the season's steps.

    The axis spans the values drawn, on round ticks, so a season's changes fill the plot
    rather than a few pixels of it. With many teams the chart grows, so that their names
    at the lines' ends fit a line of text apart."""
    values = [v for _, _, vs in series for v in vs if v is not None] or [0]
    ticks = value_ticks(min(values), max(values), fmt)
    _, _, top, bottom = canvas.margins
    names = top + bottom + canvas.label_gap * len(series) if canvas.labels else 0
    height = max(canvas.height, names)
    room = name_room(canvas, [label for _, label, _ in series])
    frame = Frame.of(
        canvas, (0, max(len(steps) - 1, 1)), (ticks[0].at, ticks[-1].at), height, False, room
    )
    return category_chart(
        chart_id,
        title,
        description,
        ("Round", y_label),
        steps,
        series,
        frame,
        [Tick(frame.y(t.at), t.label) for t in ticks],
        tip or (lambda team, value, step: f"{team}: {value:,.0f} ({step})"),
    )


def compact_gold(amount: float) -> str:
    """Axis labels: 1,250,000 -> 1.25M, 1,025,000 -> 1.025M, 95,000 -> 95k."""
    if abs(amount) >= 1_000_000:
        return f"{amount / 1_000_000:.3f}".rstrip("0").rstrip(".") + "M"
    if abs(amount) >= 1_000:
        return f"{amount / 1_000:.1f}".rstrip("0").rstrip(".") + "k"
    return f"{amount:.0f}"
