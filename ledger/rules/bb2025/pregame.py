"""The BB2025 pre-game steps of league play (seed 001, 'Pre-game Sequence').

'Take on Journeymen': a team that cannot field 11 players takes Journeymen from a Lineman
position with a QTY of 0-16 (Loner (4+)), up to 11 available players; they count in the
team's CTV for the game.

'Inducements': the team with the higher CTV may spend from its Treasury first; the lower
CTV team then gets Petty Cash equal to the difference plus what the other spent, and may
top it up with at most 50,000 from its Treasury; with equal CTVs neither spends gold.
Worked example: CTVs 1,240,000 and 1,160,000; Jay buys a Keg for 50,000; Dan gets
80,000 + 50,000 and adds 10,000 from his treasury: 140,000 to spend.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from functools import cache
from pathlib import Path

from ledger.domain.state import PlayerRow
from ledger.domain.values import TeamSheet
from ledger.rules.base import eligible
from ledger.rules.bb2025.tables import DATA
from ledger.rules.protocol import SidelineItem
from ledger.rules.schema import Inducement, InducementList, Position, TeamList, load_yaml
from ledger.words import possessive

SQUAD = 11
TOP_UP_LIMIT = 50_000


def journeyman_positions(team_list: TeamList, lines: Collection[int] = (16,)) -> list[Position]:
    """'a player from the team's Team Roster with the Lineman position that have a QTY of
    0-16. If a team has multiple Lineman positions ..., you may choose which type'
    (``lines``: the QTYs a Lineman line may have, 16 here)."""
    return [p for p in team_list.positions if "lineman" in p.keywords and p.max in lines]


def journeyman_position(team_list: TeamList) -> Position | None:
    """The first line Journeymen may be taken from, when a list has several."""
    return next(iter(journeyman_positions(team_list)), None)


def journeymen_needed(players: Sequence[PlayerRow]) -> int:
    return max(0, SQUAD - len(eligible(players)))


def journeymen_problems(
    sheet: TeamSheet, team: str, players: Sequence[PlayerRow], lines: Sequence[Position]
) -> list[str]:
    """A report's Journeymen are of a line they may be taken from, and no more than bring
    the players able to play up to 11 ('may not take the number of players able to play
    the game over 11')."""
    journeymen = [h for h in sheet.hirelings if h.kind == "journeyman"]
    allowed = {p.id for p in lines}
    problems = [
        f"{h.name}: a Journeyman is a Lineman of {possessive(team)} list with a QTY of"
        f" 0-{lines[0].max if lines else 16} ({', '.join(sorted(allowed)) or 'none'}),"
        f" not '{h.position or 'no position'}' ('Take on Journeymen')"
        for h in journeymen
        if h.position not in allowed
    ]
    needed = journeymen_needed(players)
    if len(journeymen) > needed:
        problems.append(
            f"{team} may take {needed} Journeymen, not {len(journeymen)}: they only bring the"
            f" players able to play up to {SQUAD} ('Take on Journeymen')"
        )
    return problems


def petty_cash(ctv: int, other_ctv: int, other_spent: int) -> int:
    """What the lower-CTV team may spend without touching its treasury."""
    if ctv >= other_ctv:
        return 0
    return other_ctv - ctv + other_spent


@cache
def inducements(folder: Path = DATA) -> dict[str, Inducement]:
    """The inducement lines of an edition's data folder (a variant keeps its own)."""
    found = load_yaml(folder / "inducements.yaml", InducementList)
    return {i.id: i for i in found.inducements}


def offer(items: Iterable[Inducement], team_list: TeamList) -> dict[str, SidelineItem]:
    """The common inducements the team may buy, at its price."""
    return {
        item.id: SidelineItem(
            id=item.id, name=item.name, max=item.max, price=inducement_price(item, team_list)
        )
        for item in items
        if may_buy(item, team_list)
    }


def inducement_price(item: Inducement, team_list: TeamList) -> int:
    labels = {team_list.id, *team_list.special_rules}
    return min([item.cost, *(cost for label, cost in item.reduced_cost.items() if label in labels)])


def may_buy(item: Inducement, team_list: TeamList) -> bool:
    labels = {team_list.id, *team_list.special_rules}
    return not item.only_for or bool(labels & set(item.only_for))
