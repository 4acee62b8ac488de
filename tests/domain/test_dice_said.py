"""A die outside its dice is refused in the dice's words, wherever it is entered: a roll
the ledger keeps (``DiceRoll``: 'a D6 shows 1 to 6 on each die'), or a die of a report's file
(before the ruleset knows its dice: 'a die shows 1 or more ...'), at the place in the input
where it was given, not at the union member pydantic happened to try."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from ledger.application.reports import MatchReport
from ledger.domain.values import DiceRoll, validation_problems


def said(build: Any) -> str:
    with pytest.raises(ValidationError) as refused:
        build()
    return validation_problems(refused.value)


@pytest.mark.parametrize(
    ("dice", "values", "sentence"),
    [
        ("D6", (0,), "a D6 shows 1 to 6 on each die, not 0"),
        ("D6", (7,), "a D6 shows 1 to 6 on each die, not 7"),
        ("2D6", (3, 0), "a 2D6 shows 1 to 6 on each die, not 0"),
        ("D8", (9,), "a D8 shows 1 to 8 on each die, not 9"),
        ("D66", (0,), "a D66 is read as two digits, not 0"),
    ],
)
def test_a_roll_out_of_its_dice_is_said_in_their_words(
    dice: str, values: tuple[int, ...], sentence: str
) -> None:
    assert said(lambda: DiceRoll(purpose="p", dice=dice, values=values)) == sentence


ZERO = "a die shows 1 or more (a D66's two digits, 99 at most), not 0"


@pytest.mark.parametrize(
    ("changed", "sentence"),
    [
        ({"home": {"team": "a", "dice": {"fan_factor": 0}}}, f"home.dice.fan_factor: {ZERO}"),
        (
            {"home": {"team": "a", "dice": {"fan_factor": [4, 0]}}},
            f"home.dice.fan_factor.1: {ZERO}",
        ),
        (
            {"casualties": [{"victim": "x", "dice": {"casualty": [0]}}]},
            f"casualties.0.dice.casualty.0: {ZERO}",
        ),
        ({"casualties": [{"victim": "x", "roll": 0}]}, f"casualties.0.roll: {ZERO}"),
        (
            {"home": {"team": "a", "dice": {"fan_factor": "x"}}},
            "home.dice.fan_factor: must be a whole number",
        ),
        ({"away": None}, "away: must be a mapping (a JSON object)"),
    ],
    ids=["one die", "a list's die", "a casualty's die", "a casualty roll", "not a die", "other"],
)
def test_a_report_die_of_0_is_named_where_it_was_given(
    changed: dict[str, Any], sentence: str
) -> None:
    report = {"match": "m1", "home": {"team": "a"}, "away": {"team": "b"}, **changed}
    assert said(lambda: MatchReport.model_validate(report)) == sentence
