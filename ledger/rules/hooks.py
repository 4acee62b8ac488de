"""Which hook of ``BaseRuleset`` answers which question: one explicit table per question.

A caller asks ``ruleset.problems(asked)`` (or ``dice_needed``, ``outcomes``, ``price``,
``value``) with a value of ``asked.py``; the table below names the hook that answers for
that value's type, and an edition overrides the hook (``check_fire``, ``match_dice``,
``close_outcomes``, ``sideline_price``...), never the table. A row is
``on(Firing, lambda r, a: r.check_fire(a.team, a.players, a.player))``: mypy checks that
the hook is given what the value carries, and ``tests/rules/test_seam.py`` that every
value of ``asked.py`` has its row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from ledger.domain.state import PlayerRow
from ledger.domain.values import Casualty
from ledger.rules.asked import (
    Advancing,
    Appearance,
    Buying,
    Card,
    Closed,
    CloseRolls,
    Closing,
    Firing,
    Hiring,
    Inducing,
    Lineup,
    Redrafted,
    Redrafting,
    Rehiring,
    Releasing,
    Report,
    SeasonEnded,
    SeasonPlan,
    Sideline,
)
from ledger.rules.dice import DiceBox
from ledger.rules.effects import Effects
from ledger.rules.problems import Problem, beyond_the_list, kind_offered, one_result
from ledger.rules.protocol import DiceNeed

if TYPE_CHECKING:
    from ledger.rules.base import BaseRuleset

A = TypeVar("A")
R = TypeVar("R")

Hook = Callable[["BaseRuleset[Any]", Any], R]
"""``(ruleset, asked) -> answer``; ``Any`` because each row takes its own kind of value."""
OutcomeHook = Callable[["BaseRuleset[Any]", Any, DiceBox], Effects]


def on(kind: type[A], hook: Callable[[BaseRuleset[Any], A], R]) -> tuple[type[A], Hook[R]]:
    """One row of a table; mypy checks that the hook reads that very kind of value."""
    return kind, hook


def on_dice(
    kind: type[A], hook: Callable[[BaseRuleset[Any], A, DiceBox], Effects]
) -> tuple[type[A], OutcomeHook]:
    """One row of the outcomes table: its hook is given the dice box too."""
    return kind, hook


T = TypeVar("T")


class Table(dict[type[Any], T]):
    """One question's rows by the type of value asked. A subclass is asked about as its
    nearest base that has a row is; that row is found once per type, then kept apart from
    the declared rows (the fold asks tens of times per game), so the table's entries stay
    the rows as written."""

    def __init__(self, rows: Iterable[tuple[type[Any], T]]) -> None:
        super().__init__(rows)
        self.found: Found[T] = Found(self)


class Found(dict[type[Any], T]):
    """A table's rows by the type asked, filled as types are asked: a Monte Carlo sample
    asks a price or a value two thousand times, answered by one lookup in C each."""

    def __init__(self, table: Mapping[type[Any], T]) -> None:
        super().__init__()
        self.table = table

    def __missing__(self, kind: type[Any]) -> T:
        found = self[kind] = nearest_row(self.table, kind)
        return found


def nearest_row(table: Mapping[type[Any], T], kind: type[Any]) -> T:
    """The row of ``kind``, or of its nearest base that has one; a value no row reads is a
    plain error, never a KeyError."""
    for base in kind.__mro__:
        found = table.get(base)
        if found is not None:
            return found
    raise TypeError(f"no rule of this ruleset answers a {kind.__name__}")


CHECKS: Table[Hook[list[Problem]]] = Table(
    (
        on(
            Hiring,
            lambda r, a: r.check_hire(a.event, a.rows) or beyond_the_list(r, a.event, a.rows.team),
        ),
        on(Firing, lambda r, a: r.check_fire(a.team, a.players, a.player)),
        on(Buying, lambda r, a: r.check_buy(a.team, a.players, a.item, a.count)),
        on(Releasing, lambda r, a: r.check_release(a.team, a.item, a.count)),
        on(
            Advancing,
            lambda r, a: (
                one_result(a.event)
                or kind_offered(r, a.event)
                or r.check_advancement(a.player, a.team, a.event)
            ),
        ),
        on(Report, lambda r, a: r.check_match(a.match, a.rows)),
        on(Casualty, lambda r, a: r.check_casualty(a)),
        on(Closing, lambda r, a: r.check_close(a.team, a.players)),
        on(Inducing, lambda r, a: r.check_inducements(a.team, a.wanted)),
        on(
            SeasonPlan,
            lambda r, a: r.check_season(a.divisions, a.playoff_teams) or r.check_starting(a.teams),
        ),
    )
)
"""``Ruleset.problems``: the edition's rule for each decision."""

DICE: Table[Hook[list[DiceNeed]]] = Table(
    (
        on(Report, lambda r, a: r.match_dice(a.match, a.rows)),
        on(Card, lambda r, a: r.card_dice(a.event, a.rows)),
        on(CloseRolls, lambda r, a: r.close_dice(a.team, a.rolls)),
        on(Redrafting, lambda r, a: r.redraft_dice(a.team, a.players)),
    )
)
"""``Ruleset.dice_needed``."""

OUTCOMES: Table[OutcomeHook] = Table(
    (
        on_dice(Report, lambda r, a, dice: r.match_outcomes(a.match, a.rows, dice)),
        on_dice(Card, lambda r, a, dice: r.card_outcomes(a.event, a.rows, dice)),
        on_dice(Closed, lambda r, a, dice: r.close_outcomes(a.event, a.team, dice)),
        on_dice(Redrafted, lambda r, a, dice: r.redraft_outcomes(a.event, a.rows, dice)),
        on_dice(SeasonEnded, lambda r, a, dice: r.season_outcomes(a.event, a.rows)),
    )
)
"""``Ruleset.outcomes``."""

PRICES: Table[Hook[int]] = Table(
    (
        on(Hiring, lambda r, a: r.hire_price(a.event, a.rows)),
        on(Sideline, lambda r, a: r.sideline_price(a.team, a.item, a.count)),
        on(Rehiring, lambda r, a: r.rehire_price(a.player, a.season)),
        on(Appearance, lambda r, a: r.appearance_fee(a.player)),
    )
)
"""``Ruleset.price``."""

VALUES: Table[Hook[int]] = Table(
    (
        on(PlayerRow, lambda r, a: r.player_value(a)),
        on(Lineup, lambda r, a: r.game_value(a.team, a.players)),
    )
)
"""``Ruleset.value``."""
