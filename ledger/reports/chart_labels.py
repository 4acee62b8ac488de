"""Keeping a line chart's lines and their names apart, so every team can be told apart.

Two teams with the same TV draw the same line, and the one drawn last hides the other.
So at each step, points closer than ``LINE_GAP`` (equal values above all) are moved apart,
in series order, into a bundle centred where they belong: level lines run side by side,
each colour showing, as on a transit map. The chart's table and tooltips keep the exact
values, and ``level_note`` names the teams drawn side by side and where.

On the wide page each line is also named at its end, the names moved apart by
``spread`` (at least a line of text apart) and joined to their points by a leader.

Worked example: two teams at 1,000,000 TV, drawn at y=100, are drawn at y=98 and y=102;
their names, wanted at 98 and 102, go to 92 and 108 for 14-unit text (16 apart).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

LINE_GAP = 4.0
"""Drawing units between lines of equal value: a 2.5-unit line and a 1.5-unit gap."""
LEADER = 16
"""Drawing units between the plot's right edge and the lines' names."""
LABEL_CHARS = 24
"""A name longer than this is cut with an ellipsis at a line's end (the legend and the
line's own title keep it whole)."""
CHAR_WIDTH = 0.6
"""The width of a character of the charts' sans-serif, in ems, for laying out names."""


@dataclass(frozen=True)
class EndLabel:
    """A line's name beside the plot, at ``x``, ``y``; ``point`` is the line's end (where
    its leader starts)."""

    x: float
    y: float
    text: str
    point: tuple[float, float]


def spread(wanted: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Places for ``wanted`` (ascending) at least ``gap`` apart, each as near its wanted
    place as its neighbours allow: a crowd is centred on where its members want to be,
    and kept inside ``low..high`` when it fits."""
    blocks: list[tuple[float, list[float]]] = []
    for value in wanted:
        members = [value]
        start = placed_start(members, gap, low, high)
        while blocks and blocks[-1][0] + gap * len(blocks[-1][1]) > start:
            members = blocks.pop()[1] + members
            start = placed_start(members, gap, low, high)
        blocks.append((placed_start(members, gap, low, high), members))
    return [round(start + gap * i, 1) for start, members in blocks for i in range(len(members))]


def placed_start(members: Sequence[float], gap: float, low: float, high: float) -> float:
    """Where a crowd of ``members`` a ``gap`` apart starts: centred on their wanted places,
    inside ``low..high`` when it fits (else from ``low``)."""
    centred = sum(w - gap * i for i, w in enumerate(members)) / len(members)
    return max(low, min(centred, high - gap * (len(members) - 1)))


def dodge(
    columns: Sequence[Sequence[float | None]],
    place: Callable[[float], float],
    bounds: tuple[float, float],
    gap: float = LINE_GAP,
) -> list[list[float | None]]:
    """Each series' y at each step (``columns[s][i]`` is series s's value at step i): the
    value's place, moved off any other closer than ``gap`` (in series order for equal
    values), so no line hides another."""
    ys = [[place(v) if v is not None else None for v in values] for values in columns]
    for step in range(max((len(values) for values in columns), default=0)):
        here = sorted((y[step], s) for s, y in enumerate(ys) if y[step] is not None)
        placed = spread([y for y, _ in here if y is not None], gap, *bounds)
        for (_, series), y in zip(here, placed, strict=True):
            ys[series][step] = y
    return ys


def end_labels(
    ends: Sequence[tuple[float, float] | None],
    names: Sequence[str],
    x: float,
    gap: float,
    bounds: tuple[float, float],
) -> list[EndLabel | None]:
    """A name at ``x`` for each line with an ``end`` point, as level with it as the other
    names allow (at least ``gap`` apart)."""
    order = sorted((end[1], s) for s, end in enumerate(ends) if end is not None)
    placed = spread([y for y, _ in order], gap, *bounds)
    labels: list[EndLabel | None] = [None] * len(ends)
    for (_, series), y in zip(order, placed, strict=True):
        end = ends[series]
        if end is not None:
            labels[series] = EndLabel(x, y, shortened(names[series]), end)
    return labels


def shortened(name: str) -> str:
    return name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1].rstrip() + "\u2026"


def label_room(names: Sequence[str], font: int) -> int:
    """The right margin that holds the longest name (cut at ``LABEL_CHARS``)."""
    longest = max((len(shortened(n)) for n in names), default=0)
    return round(longest * font * CHAR_WIDTH) + LEADER + 8


def level_note(steps: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]]) -> str:
    """Which lines run side by side, their values being equal from one step to the next,
    and where: ``Lines drawn side by side where teams are level: A and B (R2 to End).``
    with an en dash for "to". (Lines that only meet at a point cross there: their markers
    are apart, nothing is hidden.)"""
    where: dict[tuple[str, ...], set[int]] = {}
    for step in range(len(steps) - 1):
        for names in shared_segments(series, step):
            where.setdefault(names, set()).update((step, step + 1))
    if not where:
        return ""
    groups = "; ".join(
        f"{and_list(names)} ({', '.join(runs(sorted(at), steps))})" for names, at in where.items()
    )
    return f"Lines drawn side by side where teams are level: {groups}."


def shared_segments(
    series: Sequence[tuple[str, Sequence[float | None]]], step: int
) -> list[tuple[str, ...]]:
    """The teams whose lines share the segment from ``step`` to the next, by group."""
    by_values: dict[tuple[float, float], list[str]] = {}
    for name, values in series:
        pair = values[step : step + 2]
        if len(pair) == 2 and pair[0] is not None and pair[1] is not None:
            by_values.setdefault((pair[0], pair[1]), []).append(name)
    return [tuple(names) for names in by_values.values() if len(names) > 1]


def runs(indices: Sequence[int], steps: Sequence[str]) -> list[str]:
    """Consecutive steps as ranges, an en dash between the first and the last: [1, 2, 3]
    of the steps 1, 2, 3, End -> R2 to End."""
    found: list[list[int]] = []
    for index in indices:
        if found and index == found[-1][-1] + 1:
            found[-1].append(index)
        else:
            found.append([index])
    return [f"{step_name(steps[r[0]])}\u2013{step_name(steps[r[-1]])}" for r in found]


def step_name(step: str) -> str:
    """As the chart's table heads a step: ``R2``, ``End``."""
    return f"R{step}" if step.isdigit() else step


def and_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
