"""The Death Zone Fan Factor roll, read alike by ``dz3`` and ``gold4``: both play the 3rd
edition Death Zone post-match sequence (seed 002 is "in addition to the rules in the
Handbook and Playbook"; seed 004 rules on the same books).

Source: seed 000 FAN FACTOR TABLE, the Death Zone table the ZAL rules copy: "1 or Less Fan
Factor goes down one point / 2-5 Fan Factor stays the same / 6 or More Fan Factor goes up
one point. Modifiers: Won the Match +1, Team Scored 2+ TDs +1, Lost the Match -1, Team
Inflicted 2+ CAS +1, Tournament Semi-Final +1, Final +2"; seed 004 "Fan Factor Roll": "1 (or
less) loses fan factor and 6+ gains fan factor after modification, not before". What an
edition adds (seed 002's +2 after a concession, OBERWALD's damping option) and which
casualties it counts (those that earn SPP there) stay with the edition.

Worked example: a 2-1 league win with 2 touchdowns and 2 casualties, rolled 4: 4 + 1 + 1 +
1 = 7, one more fan factor; the loser's 5 - 1 = 4 leaves his unchanged.
"""

from __future__ import annotations

from pydantic import Field

from ledger.rules.schema import Frozen


class FanModifiers(Frozen):
    won: int
    lost: int
    two_touchdowns: int
    two_casualties: int


class FanFactorRoll(Frozen):
    die: str
    lose_at_or_below: int
    gain_at_or_above: int
    floor: int = Field(ge=0)
    modifiers: FanModifiers
    stage_modifiers: dict[str, int] = {}
    """Play-off stages ('Tournament Semi-Final +1, Final +2')."""


def modifier(
    table: FanFactorRoll, result: str, touchdowns: int, casualties: int, stage: str
) -> int:
    """The table's modifiers for a team's game: ``result`` win / draw / loss, its
    touchdowns, the casualties it inflicted (as its edition counts them), the stage."""
    mods = table.modifiers
    total = mods.won if result == "win" else mods.lost if result == "loss" else 0
    total += mods.two_touchdowns if touchdowns >= 2 else 0
    total += mods.two_casualties if casualties >= 2 else 0
    return total + table.stage_modifiers.get(stage, 0)


def change(table: FanFactorRoll, modified: int, current: int) -> int:
    """-1, 0 or +1 for a modified roll; never below the floor."""
    if modified <= table.lose_at_or_below:
        return -1 if current > table.floor else 0
    return 1 if modified >= table.gain_at_or_above else 0
