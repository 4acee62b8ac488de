"""The generator's rolls are the ones DESIGN.md decision 3 promises: a generator seeded by
(league, event, purpose, subject, seed), drawn with ``random.Random.randint``.

``DiceBox.draw`` seeds through the C seeding and draws as ``randint`` does without calling
it (``ledger.rules.dice.rolled``): these tests hold both to the plain ``random`` calls, so a
Python whose ``randint`` draws otherwise fails here instead of changing every what-if's
simulated rolls unseen.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from ledger.rules.dice import DiceBox, rolled

SHAPES = [(1, 6), (2, 6), (9, 6), (1, 3), (1, 8), (2, 8), (1, 12), (1, 16), (1, 20), (3, 100)]
"""Every die an edition names (D3 to D20, D100 for tables), one die and several."""


def plain_draw(
    league: str, event: int, purpose: str, subject: str, seed: int, count: int, sides: int
) -> tuple[int, ...]:
    """The generator as decision 3 writes it, with nothing but ``random``'s public calls."""
    material = f"{league}|{event}|{purpose}|{subject}|{seed}".encode()
    generator = random.Random(int.from_bytes(hashlib.sha256(material).digest()[:8], "big"))
    return tuple(generator.randint(1, sides) for _ in range(count))


@pytest.mark.parametrize(("count", "sides"), SHAPES)
def test_rolled_draws_as_randint_does(count: int, sides: int) -> None:
    for seed in range(500):
        ours, theirs = random.Random(seed), random.Random(seed)
        expected = tuple(theirs.randint(1, sides) for _ in range(count))
        assert rolled(ours.getrandbits, count, sides) == expected
        assert ours.getstate() == theirs.getstate()  # the same bits used, none more


@pytest.mark.parametrize(("count", "sides"), SHAPES)
def test_a_draw_is_the_seeded_generators_roll(count: int, sides: int) -> None:
    dice = f"{count}D{sides}" if count > 1 else f"D{sides}"
    for event in range(1, 200):
        box = DiceBox(league="league-7", seed=event % 5, event=event)
        subject = f"team-{event % 3}"
        expected = plain_draw("league-7", event, "winnings", subject, event % 5, count, sides)
        assert box.draw("winnings", dice, subject) == expected


def test_a_draw_without_a_subject_is_seeded_with_an_empty_one() -> None:
    box = DiceBox(league="league-7", seed=3, event=41)
    assert box.draw("weather", "2D6") == plain_draw("league-7", 41, "weather", "", 3, 2, 6)
