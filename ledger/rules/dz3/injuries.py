"""3rd edition casualties (seed 004 'Injuries', between 3.3 and 3.6; the Death Zone Serious
Injury Table).

An injury roll of 10+ is a casualty: an unmodified D6 gives Badly Hurt (1-3), Seriously
Injured (4-5) or Dead (6) (OBERWALD's reading, which keeps Badly Hurt : Serious Injury : Dead
at 3:2:1). A serious injury is rolled on the D66 Serious Injury Table; every result misses
the next game, some add a niggling injury or a characteristic loss.

Worked example: a casualty D6 of 4 and a D66 of 63 is a Smashed Collar Bone: the player
misses the next game and loses 1 ST - ``outcome smashed_collar_bone, effects
(miss_next_game, -st)``. A report may give the dice (``roll: 4``, ``dice:
{serious_injury: 63}``) or the outcome by name.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.domain.values import Casualty, DiceRoll, Effect
from ledger.errors import DieWanted, InvalidInput
from ledger.rules.base import checked_effects
from ledger.rules.dz3.tables import Tables, d66
from ledger.rules.schema import Band, band

CASUALTY_DICE = {"casualty": "D6", "serious_injury": "D66"}
SERIOUS = "serious_injury"


def roll_of(dice: Sequence[DiceRoll], purpose: str) -> DiceRoll | None:
    return next((d for d in dice if d.purpose == purpose), None)


def from_report(
    t: Tables, outcome: str | None, effects: tuple[str, ...], dice: Sequence[DiceRoll]
) -> tuple[str, tuple[Effect, ...]]:
    """The outcome and effects of a reported casualty: from its dice when given, else by
    the name of the result (a casualty result or a serious injury)."""
    casualty = roll_of(dice, "casualty")
    if casualty is not None:
        found = band(t.casualty_table, casualty.values[0])
        if found is not None and found.outcome != SERIOUS:
            return found.outcome, found.effects
    serious = serious_from_dice(t, dice)
    if serious is not None:
        return serious.outcome, serious.effects
    if casualty is not None:
        outcome = outcome or SERIOUS
    return named(t, outcome, effects)


def serious_from_dice(t: Tables, dice: Sequence[DiceRoll]) -> Band | None:
    roll = roll_of(dice, SERIOUS)
    value = d66(roll.values) if roll is not None else None
    return band(t.serious_injury_table, value) if value is not None else None


def named(
    t: Tables, outcome: str | None, effects: tuple[str, ...]
) -> tuple[str, tuple[Effect, ...]]:
    if not outcome:
        raise DieWanted("give the casualty's D6 roll (and D66) or its outcome", "casualty")
    found = next(
        (b for b in (*t.casualty_table, *t.serious_injury_table) if b.outcome == outcome), None
    )
    if found is not None and found.outcome != SERIOUS:
        return found.outcome, found.effects
    if outcome != SERIOUS:
        raise InvalidInput(f"'{outcome}' is not a 3rd edition casualty result ({known(t)})")
    chosen = checked_effects(effects)
    causes = {e for b in t.serious_injury_table for e in b.effects}
    beyond = [e for e in chosen if e not in causes]
    if beyond:  # a 'dead' given beside a serious injury had killed the player
        raise InvalidInput(f"a serious injury does not cause {', '.join(beyond)}")
    if not chosen:
        raise DieWanted(
            "a serious injury needs its D66 (dice: {serious_injury: 63}), the injury's"
            " name (e.g. outcome: smashed_collar_bone) or its effects",
            "serious_injury",
        )
    return SERIOUS, tuple(dict.fromkeys(("miss_next_game", *chosen)))


def known(t: Tables) -> str:
    names = [b.outcome for b in t.casualty_table] + [b.outcome for b in t.serious_injury_table]
    return ", ".join(names)


def problems(t: Tables, casualty: Casualty) -> list[str]:
    """Recorded dice must agree with the outcome entered."""
    found: list[str] = []
    roll = roll_of(casualty.dice, "casualty")
    if roll is not None:
        found += casualty_roll_problems(t, roll, casualty.outcome)
    serious = roll_of(casualty.dice, SERIOUS)
    if serious is not None:
        found += serious_roll_problems(t, serious, casualty.outcome)
    return found


def casualty_roll_problems(t: Tables, roll: DiceRoll, outcome: str) -> list[str]:
    if roll.dice != "D6":
        return [f"the 3rd edition casualty roll is a D6, not a {roll.dice}"]
    expected = band(t.casualty_table, roll.values[0])
    assert expected is not None  # a D6 is always on the table (validated shape)
    serious = {SERIOUS, *(b.outcome for b in t.serious_injury_table)}
    if outcome == expected.outcome or (expected.outcome == SERIOUS and outcome in serious):
        return []
    return [f"a casualty roll of {roll.values[0]} is {expected.outcome}, not {outcome}"]


def serious_roll_problems(t: Tables, roll: DiceRoll, outcome: str) -> list[str]:
    value = d66(roll.values)
    found = band(t.serious_injury_table, value) if value is not None else None
    if found is None:
        return [f"{list(roll.values)} is not a D66 roll (11-66, each digit 1-6)"]
    if outcome != found.outcome:
        return [f"a serious injury roll of {value} is {found.outcome}, not {outcome}"]
    return []


def capped(t: Tables, effects: tuple[Effect, ...], lost: dict[str, int]) -> tuple[Effect, ...]:
    """Drop a characteristic loss beyond the limit of 2 (the player only misses the game)."""
    return tuple(
        e for e in effects if not e.startswith("-") or lost.get(e[1:], 0) < t.reduction_limit
    )
