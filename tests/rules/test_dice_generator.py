"""The generators' rolls are the ones DESIGN.md decision 3 promises: seeded by (league,
event, purpose, subject, seed).

The books' dice (seed 0) are drawn with ``random.Random.randint``. ``DiceBox.draw`` seeds
through the C seeding and draws as ``randint`` does without calling it
(``ledger.rules.dice.rolled``): these tests hold both to the plain ``random`` calls, so a
Python whose ``randint`` draws otherwise fails here instead of changing the tables of a
league whose events lack a roll.

A sample's dice (any other seed) are read off SHA-256 digests (``streamed``): these tests
hold them to a plain reading of the same bits, and every face to its fair share.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from ledger.rules.dice import BOOKS_SEED, DiceBox, rolled

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
def test_the_books_draw_is_the_seeded_generators_roll(count: int, sides: int) -> None:
    dice = f"{count}D{sides}" if count > 1 else f"D{sides}"
    for event in range(1, 200):
        box = DiceBox(league="league-7", seed=BOOKS_SEED, event=event)
        subject = f"team-{event % 3}"
        expected = plain_draw("league-7", event, "winnings", subject, 0, count, sides)
        assert box.draw("winnings", dice, subject) == expected


def test_a_draw_without_a_subject_is_seeded_with_an_empty_one() -> None:
    box = DiceBox(league="league-7", event=41)
    assert box.draw("weather", "2D6") == plain_draw("league-7", 41, "weather", "", 0, 2, 6)
    sample = DiceBox(league="league-7", seed=3, event=41)
    assert sample.draw("weather", "2D6") == plain_stream("league-7|41|weather||3", 2, 6)


def plain_stream(material: str, count: int, sides: int) -> tuple[int, ...]:
    """A sample's roll as ``streamed`` describes it, read another way: each digest (the
    first, then those of ``material|1``, ``material|2``...) cut into groups of bits from
    its lowest, a group of ``sides`` or more passed over."""
    width = (sides - 1).bit_length()
    found: list[int] = []
    for more in range(1000):
        text = material if more == 0 else f"{material}|{more}"
        digest = int.from_bytes(hashlib.sha256(text.encode()).digest(), "little")
        groups = [(digest >> (width * g)) % (1 << width) for g in range(256 // width)]
        found += [value + 1 for value in groups if value < sides]
        if len(found) >= count:
            return tuple(found[:count])
    raise AssertionError("a thousand digests were not enough")


@pytest.mark.parametrize(("count", "sides"), [*SHAPES, (200, 6), (40, 100)])
def test_a_samples_draw_reads_the_digests_bits(count: int, sides: int) -> None:
    """200D6 and 40D100 need more than one digest's bits."""
    dice = f"{count}D{sides}" if count > 1 else f"D{sides}"
    for event in range(1, 100):
        box = DiceBox(league="league-7", seed=event % 4 + 1, event=event)
        material = f"league-7|{event}|winnings|team-{event % 3}|{event % 4 + 1}"
        assert box.draw("winnings", dice, f"team-{event % 3}") == plain_stream(
            material, count, sides
        )


@pytest.mark.parametrize("sides", [3, 6, 8, 12, 16, 20, 100])
def test_every_face_of_a_samples_die_comes_up_its_fair_share(sides: int) -> None:
    """Chi-squared of 300 rolls per face against a fair die, held under its mean plus six
    standard deviations (the rolls are the same on every run). A rule that favoured some
    faces, a remainder taken instead of a value read again, exceeds it many times over."""
    rolls = 300 * sides
    counts = [0] * sides
    for event in range(rolls):
        (value,) = DiceBox(league="league-7", seed=1 + event % 7, event=event).draw(
            "fans", f"D{sides}"
        )
        counts[value - 1] += 1
    expected = rolls / sides
    chi_squared = sum((count - expected) ** 2 / expected for count in counts)
    freedom = sides - 1
    assert chi_squared < freedom + 6 * (2 * freedom) ** 0.5


def test_two_seeds_draw_unrelated_rolls() -> None:
    """The same roll under the next seed matches it as often as chance has two D6 agree
    (1 in 6); on one event, seed 0 draws the books' generator and seed 1 reads the digest."""
    pairs = [
        tuple(
            DiceBox(league="league-7", seed=seed, event=event).draw("fans", "D6") for seed in (1, 2)
        )
        for event in range(6000)
    ]
    agreeing = sum(1 for first, second in pairs if first == second)
    assert 850 < agreeing < 1150  # 1,000 expected, sd 29
    books = DiceBox(league="league-7", seed=BOOKS_SEED, event=5).draw("fans", "3D6")
    assert books == plain_draw("league-7", 5, "fans", "", 0, 3, 6)
    assert DiceBox(league="league-7", seed=1, event=5).draw("fans", "3D6") == plain_stream(
        "league-7|5|fans||1", 3, 6
    )
