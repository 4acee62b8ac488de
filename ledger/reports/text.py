"""How numbers and names read in the HTML and Markdown reports (Jinja filters)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.reports.model import PlayerLine
from ledger.rules.protocol import LEVEL
from ledger.words import plural, possessive, spaced, taken, words

MINUS, DASH, TIMES = "\u2212", "\u2013", "\u00d7"
"""Typographic minus, en dash and multiplication sign: they print better than ASCII."""

STATUS = {"retired": "temporarily retired", "dead": "dead", "fired": "fired", "left": "left"}


def gold(amount: int | None) -> str:
    """1000000 -> 1,000,000 (gold pieces, as the rulebooks write them)."""
    return "" if amount is None else f"{amount:,}"


def signed(amount: int | None) -> str:
    """A change: +50,000, or a true minus sign before 20,000."""
    if amount is None:
        return ""
    return f"+{amount:,}" if amount > 0 else f"{MINUS}{-amount:,}" if amount < 0 else "0"


def characteristic(value: int | None, targets: bool) -> str:
    """AG/PA/AV as a target (3+) in editions that roll against it, else the number."""
    if value is None:
        return DASH
    return f"{value}+" if targets else str(value)


def status(player: PlayerLine) -> str:
    """The roster's status column: TR, dead..., missing the next game, niggling injuries."""
    marks = [STATUS.get(player.status, "")]
    if player.miss_next_game:
        marks.append("misses next game")
    if player.niggling:
        marks.append(f"niggling {TIMES}{player.niggling}" if player.niggling > 1 else "niggling")
    return ", ".join(m for m in marks if m)


EFFECTS = {  # a casualty's effects (``Effect``) as a coach reads them
    "miss_next_game": "misses the next game",
    "niggling": "niggling injury",
    "-ma": "-1 MA",
    "-st": "-1 ST",
    "-ag": "-1 AG",
    "-pa": "-1 PA",
    "-av": "-1 AV",
    "dead": "dead",
}


def effect(name: str) -> str:
    """A casualty's effect in words: ``-av`` is ``-1 AV``."""
    return EFFECTS.get(name, words(name))


def tie_note(separated_by: str | None) -> str:
    """Why a team stands above the next one on equal points, in words."""
    if not separated_by:
        return ""
    if separated_by == LEVEL:
        return "level on every tie-breaker"
    return f"ahead on {words(separated_by)}"


FILTERS: dict[str, Callable[..., Any]] = {
    "gold": gold,
    "signed": signed,
    "characteristic": characteristic,
    "status": status,
    "words": words,
    "spaced": spaced,
    "effect": effect,
    "tie_note": tie_note,
    "plural": plural,
    "taken": taken,
    "possessive": possessive,
}
