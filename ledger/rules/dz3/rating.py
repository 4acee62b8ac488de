"""Team rating and handicaps (seeds README; seed 004 3.8 Handicaps and its TR rulings).

TR = team value in gold, treasury included, / 10,000 + the team's total SPP / 5, each part
rounded down. The value counts list prices, never prices paid: players at their list cost
(Special Offer / That Boy's Got Talent, seed 004 6.28/6.31 [JJ]), re-rolls at list price
(3.5 [JJ]), fan factor at 10,000 a point, staff at their price. Trophy re-rolls do not count
[JJ]; a Peaked player's SPP still do (3.8 [JJ]); freebooters never enter the roster, so they
never count (3.8: "The team rating does not change if a player spends money on
freebooters").

Worked example: a Human team drafted with 1,000,000 - eleven players for 700,000, two
re-rolls for 100,000, 5 fan factor for 50,000 and 150,000 left in the treasury - is worth
1,000,000 and has no SPP: TR 100. Its thrower's 9 SPP would add 1 (9 / 5 = 1.8 -> 1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from ledger.domain.state import PlayerRow, TeamRow
from ledger.rules.dz3.tables import HandicapBand, Tables


def team_value(t: Tables, team: TeamRow, roster: Sequence[PlayerRow], reroll_cost: int) -> int:
    """Gold the team is worth at list prices, treasury included (no trophy re-roll).
    ``roster``: its players on the roster (``on_roster``), as for the ratings below."""
    staff = sum(
        t.sideline[item].price * count for item, count in team.staff.items() if item in t.sideline
    )
    return (
        sum([p.base_cost for p in roster])  # a list, not a generator: asked on every change
        + reroll_cost * team.rerolls
        + t.fan_factor.price * team.fans
        + staff
        + team.treasury
    )


def spp_rating(t: Tables, value: int, roster: Sequence[PlayerRow]) -> int:
    """Value / 10,000 + the team's total SPP / 5, each rounded down (not per player)."""
    total = sum([p.spp_earned for p in roster])
    return value // t.team_rating.gold_per_point + total // t.team_rating.spp_per_point


def upgrades_rating(t: Tables, value: int, roster: Sequence[PlayerRow]) -> int:
    """3.8 variant: value / 10,000 + 2 x (upgrades - downgrades) over the roster."""
    score = sum(upgrades(p) - downgrades(p) for p in roster)
    return value // t.team_rating.gold_per_point + t.team_rating.upgrade_points * score


def upgrades(player: PlayerRow) -> int:
    """Star player rolls used for a skill or a characteristic (a wasted roll is none)."""
    return sum(1 for a in player.advancements if a.get("skill") or a.get("characteristic"))


def downgrades(player: PlayerRow) -> int:
    """Characteristic losses and niggling injuries (losses = improvements - net change)."""
    return reductions(player, ("ma", "st", "ag", "av")) + player.niggling


def reductions(player: PlayerRow, stats: Sequence[str]) -> int:
    return sum(improvements(player, stat) - player.changes.get(stat, 0) for stat in stats)


def improvements(player: PlayerRow, stat: str) -> int:
    return sum(1 for a in player.advancements if a.get("characteristic") == stat)


def handicap(t: Tables, method: str, ours: int, theirs: int) -> HandicapBand:
    """What the weaker of two teams gets (3.8); the stronger one gets nothing."""
    if ours >= theirs:
        return HandicapBand(cards=0, mvps=0)
    if method == "ratio":
        return t.handicap.by_ratio(ratio(theirs, ours))
    return t.handicap.by_difference(theirs - ours)


def ratio(higher: int, lower: int) -> Fraction:
    """Exact, so that 120 / 100 is 1.2 and falls on the band edge the table names. A team
    rated 0 or less is weaker than any ratio: it reads the table's last band."""
    return Fraction(higher, lower) if lower > 0 else Fraction(10**9)


def ratings(teams: Mapping[str, TeamRow | None]) -> dict[str, int]:
    return {team_id: row.rating if row else 0 for team_id, row in teams.items()}
