"""The LRB6 Casualty Table (Competition Rules p.25), shared by lrb6 and lrb6-zal (ZAL 15).

A casualty is a D68: a D6 for the tens (1-3 Badly Hurt, 4-5 a Serious Injury, 6 Dead) and a
D8 for the units. A report may give it as one number (``roll: 47``), as the two dice of a
'casualty' D68 (``[4, 7]``), or as a 'casualty_d6' and a 'casualty_d8' roll. Every Serious
Injury also makes the player miss his next match. Table in data/tables.yaml.

Worked example: a roll of 47 is a Smashed Hand, so ``from_dice(tables(), rolls)`` gives
``("smashed_hand", ("miss_next_game",))``; 55 is a Serious Concussion, -1 AV.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.domain.values import Casualty, DiceRoll, Effect
from ledger.errors import DieWanted, InvalidDice, InvalidInput
from ledger.rules.base import checked_effects
from ledger.rules.lrb6.tables import Band, Tables
from ledger.rules.schema import band

DICE = {"casualty": "D68", "casualty_d6": "D6", "casualty_d8": "D8"}
"""Purposes a report may give for a casualty, with their dice."""

GENERIC = "serious_injury"
"""An outcome name for a serious injury whose exact result was not noted."""


def d68_value(rolls: Sequence[DiceRoll]) -> int | None:
    """The D68 as a two-digit number, from whichever form the rolls take (None: no roll)."""
    whole = next((r for r in rolls if r.purpose == "casualty"), None)
    if whole is not None:
        values = whole.values
        return values[0] * 10 + values[1] if len(values) == 2 else values[0]
    tens = next((r for r in rolls if r.purpose == "casualty_d6"), None)
    units = next((r for r in rolls if r.purpose == "casualty_d8"), None)
    if tens is None:
        return None
    return tens.values[0] * 10 + (units.values[0] if units else 0)


def is_d68(value: int) -> bool:
    return 1 <= value // 10 <= 6 and 1 <= value % 10 <= 8


def result_of(t: Tables, value: int) -> Band | None:
    """The table's line for a D68 roll; Badly Hurt and Dead need only the D6."""
    tens = value // 10
    if tens in (1, 2, 3, 6) and value % 10 == 0:
        value += 1  # the D8 is irrelevant there, and may not have been rolled
    return band(t.casualty_table, value) if is_d68(value) else None


def from_dice(t: Tables, rolls: Sequence[DiceRoll]) -> tuple[str, tuple[Effect, ...]] | None:
    value = d68_value(rolls)
    if value is None:
        return None
    found = result_of(t, value)
    if found is None:
        raise InvalidDice(f"{value} is not a D68 casualty roll (a D6 of 1-6, then a D8 of 1-8)")
    return found.outcome, found.effects


def from_report(
    t: Tables, outcome: str | None, effects: tuple[str, ...], rolls: Sequence[DiceRoll]
) -> tuple[str, tuple[Effect, ...]]:
    """From the D68 when given, else from the outcome named (and its effects)."""
    read = from_dice(t, rolls)
    if read is not None:
        return read
    if outcome is None:
        raise DieWanted("give the casualty's D68 roll (e.g. roll: 47) or its outcome", "casualty")
    given = checked_effects(effects)
    if outcome == GENERIC:
        return outcome, tuple(dict.fromkeys(("miss_next_game", *given)))
    named = next((b for b in t.casualty_table if b.outcome == outcome), None)
    if named is None:
        known = ", ".join([*(b.outcome for b in t.casualty_table), GENERIC])
        raise InvalidInput(f"'{outcome}' is not an LRB6 casualty result ({known})")
    extra = [e for e in given if e not in named.effects]
    if extra:
        raise InvalidInput(f"{named.name} does not cause {', '.join(extra)} (LRB6 p.25)")
    return outcome, named.effects


def problems(t: Tables, casualty: Casualty) -> list[str]:
    """A recorded D68 must agree with the outcome the casualty carries."""
    value = d68_value(casualty.dice)
    if value is None:
        return []
    found = result_of(t, value)
    if found is None:
        return [f"{value} is not a D68 roll"]
    if found.outcome != casualty.outcome:
        return [f"a casualty roll of {value} is {found.name}, not {casualty.outcome}"]
    return []
