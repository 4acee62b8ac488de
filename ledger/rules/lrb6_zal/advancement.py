"""Star Player Rolls and Ageing (seed 000: STAR PLAYER POINTS TABLE, ZAL 17, 18, 19).

Each SPP level reached (6, 16, 31, 51, 76, 176) gives one Star Player Roll on 2D6: 2-9 a
skill the player may normally take; a double any General, Agility, Strength or Passing
skill (Skaven and Chaos Dwarfs also a Mutation); 10 +1 MA or +1 AV; 11 +1 AG; 12 +1 ST, or a
skill instead. No characteristic rises more than 2 points, AV never above 10. After each
roll comes the Ageing Roll: 2D6 against the hurdle of the player's title; a failure means
a second 2D6 on the ageing effects (2-8 Niggling Injury, 9 -1 AV, 10 -1 MA, 11 -1 AG,
12 -1 ST). Skills add no value: ZAL 18 drops LRB6's Value Modifiers Table (an option).

The roll itself is LRB6's (``ledger.rules.lrb6.advancement``) with ZAL's double (any GASP
skill) in this edition's tables; the Ageing Roll is ZAL's own.

Worked example: a Lineman reaches 16 SPP and takes his second roll: 3+4 = 7, a General
skill (Block). Veterans age on 4+; he rolls 3, fails, and rolls 9 on the effects: -1 AV.
"""

from __future__ import annotations

from ledger.domain.events import PlayerAdvanced
from ledger.domain.state import PlayerRow
from ledger.domain.values import DiceRoll, Effect
from ledger.rules.lrb6 import advancement as lrb6
from ledger.rules.lrb6.advancement import ROLL, dice_of, rolls_taken
from ledger.rules.lrb6.tables import tables as lrb6_tables
from ledger.rules.lrb6_zal.tables import Tables
from ledger.rules.protocol import AdvancementResult
from ledger.rules.schema import Position, band

AGEING, EFFECT = "ageing", "ageing_effect"


def hurdle(t: Tables, roll_number: int, by: str) -> tuple[str, int]:
    """The ageing title and target for the n-th Star Player Roll (ZAL 19)."""
    if by == "roll_number":
        found = t.ageing.hurdles[max(1, min(roll_number, len(t.ageing.hurdles))) - 1]
        return found.title, found.target
    last = t.spp_levels[-1].rolls
    granting = next(lv for lv in t.spp_levels if lv.rolls == max(1, min(roll_number, last)))
    title = granting.ageing or granting.title
    return title, t.ageing.target(title)


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
    limit = lrb6_tables().injury_limits  # ZAL 19: 'the rule remains' (LRB6 p.25)
    if current - 1 < max(limit.min_value, start - limit.max_reduction):
        return None  # ZAL 19: 'no characteristic may be reduced by more than 2 points'
    return effect


def result(
    t: Tables,
    player: PlayerRow,
    position: Position | None,
    event: PlayerAdvanced,
    priced: bool,
    by: str,
) -> AdvancementResult:
    """LRB6's roll (no SPP spent, priced only under the option), with its ageing effect."""
    aged = ageing_effect(t, player, position, event, by)
    rolled = lrb6.result(t, position, event, priced)
    return rolled.model_copy(update={"injuries": (aged,) if aged else ()})


# --- checks before a roll is recorded -------------------------------------------------------


def problems(
    t: Tables, player: PlayerRow, position: Position | None, event: PlayerAdvanced, by: str
) -> list[str]:
    found = lrb6.due_problems(t, player, position)
    if found or position is None:
        return found
    roll, ageing = dice_of(event, ROLL), dice_of(event, AGEING)
    if roll is None or ageing is None:
        return [
            "a Star Player Roll needs its 2D6 (star_roll) and the 2D6 of the Ageing"
            " Roll that follows it (ageing; ZAL 19)"
        ]
    found = ageing_problems(t, player, event, ageing, by)
    return found + lrb6.choice_problems(t, player, position, event, roll, "ZAL 17")


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
