"""Star Player Rolls and Ageing (seed 000: STAR PLAYER POINTS TABLE, ZAL 17, 18, 19).

Each SPP level reached (6, 16, 31, 51, 76, 176) gives one Star Player Roll on 2D6: 2-9 a
skill the player may normally take; a double any General, Agility, Strength or Passing
skill (Skaven and Chaos Dwarfs also a Mutation); 10 +1 MA or +1 AV; 11 +1 AG; 12 +1 ST, or a
skill instead. No characteristic rises more than 2 points, AV never above 10. After each
roll comes the Ageing Roll: 2D6 against the hurdle of the player's title; a failure means
a second 2D6 on the ageing effects (2-8 Niggling Injury, 9 -1 AV, 10 -1 MA, 11 -1 AG,
12 -1 ST). Skills add no value: ZAL 18 drops LRB6's Value Modifiers Table (an option).

Worked example: a Lineman reaches 16 SPP and takes his second roll: 3+4 = 7, a General
skill (Block). Veterans age on 4+; he rolls 3, fails, and rolls 9 on the effects: -1 AV.
"""

from __future__ import annotations

from ledger.domain.events import PlayerAdvanced
from ledger.domain.state import PlayerRow
from ledger.domain.values import DiceRoll, Effect
from ledger.rules.lrb6_zal.tables import SppLevel, Tables, band, skills
from ledger.rules.protocol import AdvancementResult
from ledger.rules.schema import Position, Skill
from ledger.words import possessive

ROLL, AGEING, EFFECT = "star_roll", "ageing", "ageing_effect"


def level(t: Tables, spp: int) -> SppLevel:
    return [lv for lv in t.spp_levels if spp >= lv.start][-1]


def rolls_taken(player: PlayerRow) -> int:
    return sum(1 for a in player.advancements if a.get("kind") == ROLL)


def rolls_due(t: Tables, player: PlayerRow) -> int:
    return level(t, player.spp_earned).rolls - rolls_taken(player)


def hurdle(t: Tables, roll_number: int, by: str) -> tuple[str, int]:
    """The ageing title and target for the n-th Star Player Roll (ZAL 19)."""
    if by == "roll_number":
        found = t.ageing.hurdles[max(1, min(roll_number, len(t.ageing.hurdles))) - 1]
        return found.title, found.target
    last = t.spp_levels[-1].rolls
    granting = next(lv for lv in t.spp_levels if lv.rolls == max(1, min(roll_number, last)))
    title = granting.ageing or granting.title
    return title, t.ageing.target(title)


def dice_of(event: PlayerAdvanced, purpose: str) -> DiceRoll | None:
    return next((d for d in event.dice if d.purpose == purpose and d.dice == "2D6"), None)


def is_double(roll: DiceRoll) -> bool:
    return roll.values[0] == roll.values[1]


def find_skill(name: str) -> Skill | None:
    return next((s for s in skills().skills if s.name.casefold() == name.casefold()), None)


def skill_categories(t: Tables, roll: DiceRoll, position: Position, roster: str) -> set[str]:
    """ZAL 17: normal access on 2-9; on a double any GASP skill (and the player's own
    double access), Skaven and Chaos Dwarfs a Mutation too."""
    allowed: set[str] = set(position.primary)
    if is_double(roll):
        allowed |= {*t.star_roll.double_categories, *position.secondary}
        if roster in t.star_roll.mutation_on_double:
            allowed.add("M")
    return allowed


def improvements(player: PlayerRow, stat: str) -> int:
    return sum(1 for a in player.advancements if a.get("characteristic") == stat)


def ageing_effect(
    t: Tables, player: PlayerRow, position: Position | None, event: PlayerAdvanced, by: str
) -> Effect | None:
    """The effect of a failed ageing hurdle, or None (passed, or nothing left to reduce)."""
    ageing, effect_roll = dice_of(event, AGEING), dice_of(event, EFFECT)
    if ageing is None or ageing.total >= hurdle(t, rolls_taken(player) + 1, by)[1]:
        return None  # a replay under another reading may pass where the league's failed
    found = band(t.ageing.effects, effect_roll.total) if effect_roll else None
    if found is None or not found.effects:
        return None
    effect = found.effects[0]
    if effect == "niggling":
        return effect
    stat = effect.lstrip("-")
    current = getattr(player, stat)
    start = getattr(position, stat) if position else current
    if current - 1 < max(t.ageing.min_value, start - t.ageing.max_reduction):
        return None  # ZAL 19: 'no characteristic may be reduced by more than 2 points'
    return effect


def value_of(t: Tables, event: PlayerAdvanced, double_access: bool) -> int:
    """LRB6 p.27 Value Modifiers Table (applied only under the value_modifiers option)."""
    v = t.value_modifiers
    if event.characteristic:
        return int(getattr(v, event.characteristic, 0))  # 0: a replayed BB2020 +PA
    return v.double_skill if double_access else v.normal_skill


def result(
    t: Tables,
    player: PlayerRow,
    position: Position | None,
    event: PlayerAdvanced,
    priced: bool,
    by: str,
) -> AdvancementResult:
    """No SPP are spent (ZAL counts rolls by SPP earned); the ageing effect comes with it."""
    aged = ageing_effect(t, player, position, event, by)
    skill = find_skill(event.skill or "")
    primary = position.primary if position else ()
    double_access = skill is not None and skill.category not in primary
    return AdvancementResult(
        spp_cost=0,
        value_increase=value_of(t, event, double_access) if priced else 0,
        skill=None if event.characteristic else event.skill,
        characteristic=event.characteristic,
        injuries=(aged,) if aged else (),
    )


# --- checks before a roll is recorded -------------------------------------------------------


def problems(
    t: Tables, player: PlayerRow, position: Position | None, event: PlayerAdvanced, by: str
) -> list[str]:
    if event.kind != ROLL:
        return ["LRB6/ZAL players improve by Star Player Rolls: use kind star_roll (ZAL 17)"]
    if player.status != "active" or player.kind == "star" or position is None:
        return [f"{player.name} takes no Star Player Rolls ({player.status}, {player.kind})"]
    if rolls_due(t, player) < 1:
        title = level(t, player.spp_earned).title
        return [
            f"{player.name} has {player.spp_earned} SPP ({title}) and has taken"
            f" {rolls_taken(player)} Star Player Rolls: none is due"
        ]
    roll, ageing = dice_of(event, ROLL), dice_of(event, AGEING)
    if roll is None or ageing is None:
        return [
            "a Star Player Roll needs its 2D6 (star_roll) and the 2D6 of the Ageing"
            " Roll that follows it (ageing; ZAL 19)"
        ]
    found = ageing_problems(t, player, event, ageing, by)
    return found + choice_problems(t, player, position, event, roll)


def ageing_problems(
    t: Tables, player: PlayerRow, event: PlayerAdvanced, ageing: DiceRoll, by: str
) -> list[str]:
    title, target = hurdle(t, rolls_taken(player) + 1, by)
    failed = ageing.total < target
    effect = dice_of(event, EFFECT)
    if failed and effect is None:
        return [
            f"an Ageing Roll of {ageing.total} fails the {title} hurdle ({target}+):"
            " give the 2D6 rolled for its effect (ageing_effect)"
        ]
    if not failed and effect is not None:
        return [f"an Ageing Roll of {ageing.total} passes the {title} hurdle ({target}+)"]
    return []


def choice_problems(
    t: Tables, player: PlayerRow, position: Position, event: PlayerAdvanced, roll: DiceRoll
) -> list[str]:
    if bool(event.skill) == bool(event.characteristic):
        return ["a Star Player Roll gives a skill or a characteristic: name one of them"]
    if event.characteristic:
        return characteristic_problems(t, player, event.characteristic, roll)
    return skill_problems(t, player, position, event.skill or "", roll)


def characteristic_problems(t: Tables, player: PlayerRow, stat: str, roll: DiceRoll) -> list[str]:
    allowed = t.star_roll.characteristics.get(roll.total, ())
    if stat not in allowed:
        what = " or ".join(s.upper() for s in allowed) or "no characteristic, only a skill"
        return [f"a Star Player Roll of {roll.total} gives {what}, not +1 {stat.upper()}"]
    if improvements(player, stat) >= t.star_roll.max_increase:
        return [
            f"{possessive(player.name)} {stat.upper()} has been raised {improvements(player, stat)}"
            f" times: no more than {t.star_roll.max_increase} points (ZAL 17)"
        ]
    current, cap = getattr(player, stat), t.star_roll.maximum[stat]
    if current + 1 > cap:
        return [f"{possessive(player.name)} {stat.upper()} is {current}: at most {cap} (ZAL 17)"]
    return []


def skill_problems(
    t: Tables, player: PlayerRow, position: Position, name: str, roll: DiceRoll
) -> list[str]:
    skill = find_skill(name)
    if skill is None or skill.category == "T":
        return [f"'{name}' is not a skill a player can learn in LRB6"]
    allowed = skill_categories(t, roll, position, player.roster)
    if skill.category not in allowed:
        kind = "a double" if is_double(roll) else f"a roll of {roll.total}"
        return [
            f"{skill.name} ({skill.category}) is not open to a {position.name} on {kind}"
            f" (categories {''.join(sorted(allowed))}; ZAL 17)"
        ]
    if any(s.casefold() == skill.name.casefold() for s in player.skills):
        return [f"{player.name} already has {skill.name}"]
    return []
