"""Casualties under seed 002's "NEW INJURY TABLE", with Death Zone's Serious Injury table.

Seed 002, KNOCK DOWNS & INJURIES / NEW INJURY TABLE: "Roll injuries as normal, counting any
bonuses that apply to the injury roll ... If you roll 'an injury', then roll a D6 and refer to
the 'Specific Injury' table. No modifiers ever apply to the second dice roll." The injury 2D6
(10-12: An Injury) puts a player in the casualty list; the unmodified Specific Injury D6
(1-3 Badly Hurt, 4-5 Seriously Injured, 6 Dead) decides the outcome; a serious injury is then
rolled on the Death Zone D66 Serious Injury table (data/deathzone.yaml) for its lasting effect.

Worked example: 6+5 = 11 is "An Injury (*HURRAH*)"; a Specific Injury roll of 4 makes it
Seriously Injured; a D66 of 34 is a Fractured Arm: he misses the next game.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.domain.values import Casualty, DiceRoll, Effect
from ledger.errors import DieWanted, InvalidDice, InvalidInput
from ledger.rules.base import checked_effects
from ledger.rules.gold4.league_tables import deathzone
from ledger.rules.gold4.tables import InjuryTable, load_gold4_tables

CASUALTY_DICE = {"injury": "2D6", "specific_injury": "D6", "serious_injury": "D66"}
FIXED_EFFECTS: dict[str, tuple[Effect, ...]] = {"badly_hurt": (), "dead": ("dead",)}
SERIOUS = "seriously_injured"


def injury_table() -> InjuryTable:
    return load_gold4_tables().tables.injury_table


def specific_table() -> InjuryTable:
    return load_gold4_tables().tables.specific_injury_table


def outcomes() -> tuple[str, ...]:
    return tuple(row.result for row in specific_table().rows)


def injury_result(total: int) -> str:
    """stunned, knocked_out or injury for a (modified) 2D6 injury total."""
    return injury_table().result(total)


def found(dice: Sequence[DiceRoll], purpose: str) -> DiceRoll | None:
    return next((d for d in dice if d.purpose == purpose), None)


def d66(roll: DiceRoll) -> int:
    """A D66 entered as 34 or as [3, 4] (tens die first)."""
    digits = roll.values if len(roll.values) == 2 else tuple(divmod(roll.values[0], 10))
    if len(roll.values) > 2 or any(not 1 <= d <= 6 for d in digits):
        given = " and ".join(str(v) for v in roll.values)
        raise InvalidDice(f"a D66 is two D6 read as tens and units (11-66), not {given}")
    return 10 * digits[0] + digits[1]


# --- reading a report ---------------------------------------------------------------------


def casualty_from_report(
    outcome: str | None, effects: tuple[str, ...], dice: Sequence[DiceRoll]
) -> tuple[str, tuple[Effect, ...]]:
    read = outcome_of(outcome, dice)
    if read == SERIOUS:
        return read, serious_effects(effects, dice)
    if effects and tuple(effects) != FIXED_EFFECTS[read]:
        raise InvalidInput(
            f"a {read.replace('_', ' ')} result has fixed effects"
            f" ({', '.join(FIXED_EFFECTS[read]) or 'none lasting'}); leave 'effects' out"
        )
    return read, FIXED_EFFECTS[read]


def outcome_of(outcome: str | None, dice: Sequence[DiceRoll]) -> str:
    specific = found(dice, "specific_injury")
    if specific is not None:
        read = specific_table().result(specific.values[0])
        if outcome and outcome != read:
            raise InvalidDice(
                f"a Specific Injury roll of {specific.values[0]} is {read}, not {outcome}"
            )
        return read
    if outcome in outcomes():
        return outcome
    if outcome:
        raise InvalidInput(f"'{outcome}' is not a gold4 casualty outcome ({', '.join(outcomes())})")
    injury = found(dice, "injury")
    if injury is not None and injury_result(injury.total) != "injury":
        raise InvalidDice(
            f"an injury roll of {injury.total} is {injury_result(injury.total).replace('_', ' ')}"
            " on the NEW INJURY TABLE: only 'An Injury' (10+) is a casualty"
        )
    raise DieWanted(
        "give the casualty's Specific Injury D6 (dice: {specific_injury: N})"
        f" or its outcome ({', '.join(outcomes())})",
        "specific_injury",
    )


def serious_effects(given: tuple[str, ...], dice: Sequence[DiceRoll]) -> tuple[Effect, ...]:
    """A Seriously Injured result's effects: its Death Zone D66's row, or those given, each
    one of the table's (a 'dead' given beside it had killed the player)."""
    table = deathzone().serious_injury_table
    roll = found(dice, "serious_injury")
    if roll is not None:
        row = table.row(d66(roll))
        assert row is not None  # the table covers 11-66 (validated at load)
        beyond = [e for e in checked_effects(given) if e not in row.effects]
        if beyond:
            raise InvalidInput(
                f"a serious injury roll of {d66(roll)} does not cause {', '.join(beyond)}"
            )
        return row.effects
    causes = {e for r in table.rows for e in r.effects}
    beyond = [e for e in checked_effects(given) if e not in causes]
    if beyond:
        raise InvalidInput(f"a serious injury does not cause {', '.join(beyond)} (Death Zone)")
    if not given:
        raise DieWanted(
            "a serious injury needs its Death Zone D66 (dice: {serious_injury: 34})"
            " or its effects (miss_next_game, niggling, -ma, -st, -ag, -av)",
            "serious_injury",
        )
    return tuple(dict.fromkeys(("miss_next_game", *checked_effects(given))))


# --- checking a recorded casualty -----------------------------------------------------------


def problems(casualty: Casualty) -> list[str]:
    if casualty.outcome not in outcomes():
        return [f"'{casualty.outcome}' is not a gold4 casualty outcome ({', '.join(outcomes())})"]
    found_problems = [p for rule in (specific_problem, serious_problem) if (p := rule(casualty))]
    if ("dead" in casualty.effects) != (casualty.outcome == "dead"):
        found_problems.append("only a 'Dead, Dead, DEAD!' result kills a player")
    return found_problems


def specific_problem(casualty: Casualty) -> str | None:
    roll = found(casualty.dice, "specific_injury")
    if roll is None:
        return None
    read = specific_table().result(roll.values[0])
    if read != casualty.outcome:
        return f"a Specific Injury roll of {roll.values[0]} is {read}, not {casualty.outcome}"
    return None


def serious_problem(casualty: Casualty) -> str | None:
    roll = found(casualty.dice, "serious_injury")
    if roll is None:
        return None
    if casualty.outcome != SERIOUS:
        return "a Serious Injury D66 is only rolled for a Seriously Injured result"
    row = deathzone().serious_injury_table.row(d66(roll))
    if row is not None and not set(row.effects) <= set(casualty.effects):
        return f"a Serious Injury roll of {d66(roll)} is {row.name}: {', '.join(row.effects)}"
    return None
