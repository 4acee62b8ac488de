"""Before an LRB6 match: team value for inducements and what may be induced (Competition
Rules 2010, p.28 'Journeymen', pp.70-71 'Inducements').

The team value that sets the inducements leaves out players who must miss the match and
adds the journeymen the team must take to field 11 players (each at its Lineman's price).
The team with the lower value gains the difference as inducement money, plus whatever the
other team moved from its treasury into petty cash; it may add gold of its own treasury.
Bribes cost Goblins 50,000, a Halfling Master Chef costs Halflings 100,000; a team that may
hire an apothecary may induce Wandering Apothecaries, the others Igor.

Worked example: Humans at 1,000,000 meet Orcs at 1,150,000 who spend 50,000 of their
treasury: the Humans have 150,000 + 50,000 = 200,000 to spend, e.g. two Bloodweiser Babes
and one Bribe.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.domain.state import PlayerRow
from ledger.rules.lrb6.tables import LrbInducement, Tables
from ledger.rules.protocol import Budget, SidelineItem
from ledger.rules.schema import Position, TeamList


def journeyman_position(team_list: TeamList) -> Position | None:
    """The list's Lineman (the 0-16 line position, else the first one marked lineman)."""
    linemen = [p for p in team_list.positions if "lineman" in p.keywords]
    return max(linemen, key=lambda p: p.max, default=None)


def journeymen_needed(t: Tables, fit: Sequence[PlayerRow]) -> int:
    return max(0, t.full_team - len(fit))


def offered(item: LrbInducement, team_list: TeamList) -> bool:
    if item.apothecary == "with":
        return team_list.apothecary
    if item.apothecary == "without":
        return not team_list.apothecary
    return True


def offer(t: Tables, team_list: TeamList) -> dict[str, SidelineItem]:
    return {
        item.id: SidelineItem(
            id=item.id,
            name=item.name,
            max=item.max,
            price=item.reduced_cost.get(team_list.id, item.cost),
        )
        for item in t.inducements
        if offered(item, team_list)
    }


def budget(value: int, other_value: int, other_spent: int, treasury: int) -> Budget:
    if value >= other_value:
        return Budget(petty_cash=0, treasury=treasury, why="not the lower team value")
    return Budget(
        petty_cash=other_value - value + other_spent,
        treasury=treasury,
        why=f"difference {other_value - value:,} + {other_spent:,} the opponent spent",
    )
