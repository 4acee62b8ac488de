"""Star Player Rolls (LRB6 p.26 STAR PLAYER POINTS TABLE and 'Star Player Rolls', p.27
VALUE MODIFIERS TABLE), shared with the lrb6-zal overlay, which adds its Ageing Roll.

Each SPP level reached (6, 16, 31, 51, 76, 176) gives one Star Player Roll on 2D6: 2-9 a
skill of the player's Normal categories; a double also opens his Double categories; 10
+1 MA or +1 AV, 11 +1 AG, 12 +1 ST, or a skill instead. No characteristic rises more than
2 points or above 10. LRB6 prices the improvement: +20,000 a Normal skill, +30,000 a Double
skill, +30,000 MA or AV, +40,000 AG, +50,000 ST.

Worked example: a Human Lineman reaches 6 SPP and rolls 3+3: a double, so a Strength skill
(his Double access) is open: Guard, and his value rises by 30,000 to 80,000.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Protocol

from ledger.domain.events import PlayerAdvanced
from ledger.domain.state import PlayerRow
from ledger.domain.values import DiceRoll
from ledger.errors import suggested
from ledger.rules.lrb6.tables import SppLevel, StarRoll, ValueModifiers, skills
from ledger.rules.protocol import AdvancementResult
from ledger.rules.schema import Position, Skill
from ledger.words import plural, possessive

ROLL = "star_roll"


class RollTables(Protocol):
    """What a Star Player Roll reads: the levels, the roll's table and the value table."""

    @property
    def spp_levels(self) -> Sequence[SppLevel]: ...
    @property
    def star_roll(self) -> StarRoll: ...
    @property
    def value_modifiers(self) -> ValueModifiers: ...


def level(t: RollTables, spp: int) -> SppLevel:
    return [lv for lv in t.spp_levels if spp >= lv.start][-1]


def rolls_taken(player: PlayerRow) -> int:
    return sum(1 for a in player.advancements if a.get("kind") == ROLL)


def rolls_due(t: RollTables, player: PlayerRow) -> int:
    return level(t, player.spp_earned).rolls - rolls_taken(player)


def dice_of(event: PlayerAdvanced, purpose: str) -> DiceRoll | None:
    return next((d for d in event.dice if d.purpose == purpose and d.dice == "2D6"), None)


def is_double(roll: DiceRoll) -> bool:
    return roll.values[0] == roll.values[1]


@cache
def find_skill(name: str) -> Skill | None:
    """The skill of that name in any case, looked up once per name: every advancement a
    what-if replay tries asks it (the list never changes)."""
    return next((s for s in skills().skills if s.name.casefold() == name.casefold()), None)


def skill_categories(t: RollTables, roll: DiceRoll, position: Position, roster: str) -> set[str]:
    """Normal access on any roll; on a double the Double access too, plus whatever the
    league opens to every player on a double (ZAL: any GASP skill, Mutations for some)."""
    allowed: set[str] = set(position.primary)
    if is_double(roll):
        allowed |= {*t.star_roll.double_categories, *position.secondary}
        if roster in t.star_roll.mutation_on_double:
            allowed.add("M")
    return allowed


def improvements(player: PlayerRow, stat: str) -> int:
    return sum(1 for a in player.advancements if a.get("characteristic") == stat)


def value_of(t: RollTables, event: PlayerAdvanced, double_access: bool) -> int:
    """LRB6 p.27 Value Modifiers Table."""
    v = t.value_modifiers
    if event.characteristic:
        return int(getattr(v, event.characteristic, 0))  # 0: a replayed BB2025 +PA
    return v.double_skill if double_access else v.normal_skill


def result(
    t: RollTables, position: Position | None, event: PlayerAdvanced, priced: bool
) -> AdvancementResult:
    """No SPP are spent (rolls are counted by SPP earned)."""
    skill = find_skill(event.skill or "")
    primary = position.primary if position else ()
    double_access = skill is not None and skill.category not in primary
    return AdvancementResult(
        spp_cost=0,
        value_increase=value_of(t, event, double_access) if priced else 0,
        skill=None if event.characteristic else event.skill,
        characteristic=event.characteristic,
    )


# --- checks before a roll is recorded -------------------------------------------------------


def due_problems(t: RollTables, player: PlayerRow, position: Position | None) -> list[str]:
    """Whether a Star Player Roll is due (LRB6 p.26; ZAL 17 for lrb6-zal), the only kind
    there is (``problems.kind_offered``)."""
    if player.status != "active" or player.kind == "star" or position is None:
        return [f"{player.name} takes no Star Player Rolls ({player.status}, {player.kind})"]
    if rolls_due(t, player) < 1:
        title = level(t, player.spp_earned).title
        return [
            f"{player.name} has {player.spp_earned} SPP ({title}) and has taken"
            f" {plural(rolls_taken(player), 'Star Player Roll')}: none is due"
        ]
    return []


def problems(
    t: RollTables, player: PlayerRow, position: Position | None, event: PlayerAdvanced
) -> list[str]:
    found = due_problems(t, player, position)
    roll = dice_of(event, ROLL)
    if found or position is None:
        return found
    if roll is None:
        return ["a Star Player Roll needs its 2D6 (star_roll; LRB6 p.26)"]
    return choice_problems(t, player, position, event, roll, "LRB6 p.26")


def choice_problems(
    t: RollTables,
    player: PlayerRow,
    position: Position,
    event: PlayerAdvanced,
    roll: DiceRoll,
    cite: str,
) -> list[str]:
    if bool(event.skill) == bool(event.characteristic):
        return ["a Star Player Roll gives a skill or a characteristic: name one of them"]
    if event.characteristic:
        return characteristic_problems(t, player, event.characteristic, roll, cite)
    return skill_problems(t, player, position, event.skill or "", roll, cite)


def characteristic_problems(
    t: RollTables, player: PlayerRow, stat: str, roll: DiceRoll, cite: str
) -> list[str]:
    allowed = t.star_roll.characteristics.get(roll.total, ())
    if stat not in allowed:
        what = " or ".join(s.upper() for s in allowed) or "no characteristic, only a skill"
        return [f"a Star Player Roll of {roll.total} gives {what}, not +1 {stat.upper()}"]
    if improvements(player, stat) >= t.star_roll.max_increase:
        return [
            f"{possessive(player.name)} {stat.upper()} has been raised {improvements(player, stat)}"
            f" times: no more than {t.star_roll.max_increase} points ({cite})"
        ]
    current, cap = getattr(player, stat), t.star_roll.maximum[stat]
    if current + 1 > cap:
        return [f"{possessive(player.name)} {stat.upper()} is {current}: at most {cap} ({cite})"]
    return []


@cache
def unknown_skill(name: str) -> str:
    """The refusal of a name no player learns, with the one meant: once a name (a what-if
    asks other editions' names of every sample, and a suggestion searches every skill)."""
    learnt = (s.name for s in skills().skills if s.category != "T")
    return suggested(f"'{name}' is not a skill a player can learn in LRB6", name, learnt)


def skill_problems(
    t: RollTables, player: PlayerRow, position: Position, name: str, roll: DiceRoll, cite: str
) -> list[str]:
    skill = find_skill(name)
    if skill is None or skill.category == "T":
        return [unknown_skill(name)]
    allowed = skill_categories(t, roll, position, player.roster)
    if skill.category not in allowed:
        kind = "a double" if is_double(roll) else f"a roll of {roll.total}"
        return [
            f"{skill.name} ({skill.category}) is not open to a {position.name} on {kind}"
            f" (categories {''.join(sorted(allowed))}; {cite})"
        ]
    if any(s.casefold() == skill.name.casefold() for s in player.skills):
        return [f"{player.name} already has {skill.name}"]
    return []
