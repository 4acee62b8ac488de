"""What a ruleset decides an event does, in terms the fold applies to any edition.

A ruleset reads an event and the league's state and answers with effects: gold moves,
fans change, players earn SPP, get hurt or leave. The fold (ledger/projections) applies
them the same way for every edition, which keeps all edition arithmetic in ledger/rules/.
"""

from __future__ import annotations

from typing import Literal

from ledger.domain.immutable import immutable
from ledger.domain.values import Effect

# An effect is an immutable value made by keyword (ledger/domain/immutable.py): only
# rulesets make them, from values the fold has checked already, and the fold applies them
# at once. A game makes hundreds, so they are plain objects, not validated models.


@immutable(kw_only=True)
class Outcome:
    """The base of every effect."""


@immutable(kw_only=True)
class Gold(Outcome):
    team: str
    amount: int
    kind: str
    """``winnings``, ``expensive_mistake``, ``prize``, ``concession``, ``purchase``..."""
    note: str = ""


@immutable(kw_only=True)
class Fans(Outcome):
    team: str
    delta: int
    note: str = ""


@immutable(kw_only=True)
class Spp(Outcome):
    player: str
    amount: int


@immutable(kw_only=True)
class Hurt(Outcome):
    player: str
    effects: tuple[Effect, ...]
    note: str = ""


@immutable(kw_only=True)
class Leaves(Outcome):
    player: str
    status: Literal["left", "dead", "retired"] = "left"
    note: str = ""


@immutable(kw_only=True)
class Heals(Outcome):
    """Recovery: a missed game served, a niggling injury or a characteristic reduction
    removed, or a temporarily retired player back on the team (``retired``)."""

    player: str
    what: Literal["niggling", "-ma", "-st", "-ag", "-pa", "-av", "miss_next_game", "retired"]
    note: str = ""


@immutable(kw_only=True)
class Forgets(Outcome):
    """A skill or trait lost (BB2025 Rest & Relaxation: a gained Hatred subsides)."""

    player: str
    skill: str
    note: str = ""


@immutable(kw_only=True)
class Sideline(Outcome):
    """A team's re-rolls, fans and staff set anew (a re-drafted team's carry-over)."""

    team: str
    rerolls: int
    fans: int
    staff: dict[str, int]


@immutable(kw_only=True)
class Trophy(Outcome):
    """BB2025 'Glittering Prizes': the League Trophy (a free re-roll that counts in TV)
    passes to the season's winner."""

    team: str
    held: bool


AnyOutcome = Gold | Fans | Spp | Hurt | Leaves | Heals | Trophy | Forgets | Sideline
Effects = list[AnyOutcome]
