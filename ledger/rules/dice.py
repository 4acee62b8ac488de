"""Dice with provenance (DESIGN.md decision 3).

A ruleset asks for a roll by purpose, shape and subject. The recorded roll is used when
the event has one of the same purpose and shape; otherwise the roll is drawn from a
generator seeded by (league, event, purpose, subject, seed), so a replay is reproducible,
and the draw is counted so reports can say which figures rest on simulated dice.

Two generators, both seeded by the SHA-256 digest of those five:

- **Seed 0, the books' dice**: the live fold, a rebuild and a replay asked without a
  seed. A ``random.Random`` seeded with the digest's first 8 bytes, drawn as ``randint``
  draws. A league whose events lack a roll (an imported history) keeps, through it, the
  tables it has always had, so this generator never changes.
- **Any other seed, a sample's dice** (Monte Carlo samples, a replay asked with a seed):
  the rolls are read off the digest's own bits (``streamed``). Seeding a Mersenne Twister
  costs 4 us, about 8% of a Monte Carlo sample's time (337 draws); reading bits costs a
  tenth of that. Every face is as likely, and the draws of two seeds are as independent,
  as SHA-256's outputs are; what a sample is worth is its distribution, not its rolls.
"""

from __future__ import annotations

import _random
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from hashlib import sha256
from typing import Any

from ledger.domain.values import DiceRoll, dice_shape


class Reseeded(random.Random):
    """A generator that ``DiceBox.draw`` seeds afresh for every roll, so that its state
    between two rolls means nothing: its deep copy is a new generator, not a copy of the
    Mersenne Twister's 625 words (0.15 ms, over half of what cloning a Monte Carlo
    sample's fold took)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Reseeded:
        return Reseeded(0)


@dataclass
class DiceBox:
    league: str
    seed: int = 0
    simulated: dict[str, int] = field(default_factory=dict)
    """Count of simulated rolls per subject team or player (``""`` when no subject)."""
    event: int = 0
    recorded: dict[str, int] = field(default_factory=dict)
    """Count of recorded rolls used, per subject, like ``simulated``."""
    generator: random.Random = field(
        init=False, default_factory=lambda: Reseeded(0), repr=False, compare=False
    )
    """The books' dice (seed 0), re-seeded for every draw: a long league's fold draws
    hundreds of rolls, and making a new generator each time costs a third more than
    seeding this one."""

    def roll(
        self,
        recorded: tuple[DiceRoll, ...],
        purpose: str,
        dice: str,
        subject: str | None = None,
    ) -> tuple[int, ...]:
        for roll in recorded:
            if roll.purpose == purpose and roll.dice == dice and roll.subject == subject:
                key = subject or ""
                self.recorded[key] = self.recorded.get(key, 0) + 1
                return roll.values
        return self.simulate(purpose, dice, subject)

    def simulate(self, purpose: str, dice: str, subject: str | None = None) -> tuple[int, ...]:
        key = subject or ""
        self.simulated[key] = self.simulated.get(key, 0) + 1
        return self.draw(purpose, dice, subject)

    def draw(self, purpose: str, dice: str, subject: str | None = None) -> tuple[int, ...]:
        """The roll the generator gives this event, purpose and subject, without counting it
        (a replay may look at a roll before it knows whether it will use it)."""
        material = f"{self.league}|{self.event}|{purpose}|{subject or ''}|{self.seed}".encode()
        digest = sha256(material).digest()
        count, sides = shape(dice)
        if self.seed != BOOKS_SEED:
            return streamed(digest, material, count, sides)
        rng = self.generator
        seed_with_int(rng, int.from_bytes(digest[:8], "big"))
        return rolled(rng.getrandbits, count, sides)


BOOKS_SEED = 0
"""The seed of the books' dice (the module's docstring): the live fold's and a replay's."""

SAMPLE_DICE = "sha256-bits"
"""Names how a sample's dice are drawn (``streamed``), for what caches their results."""


def streamed(digest: bytes, material: bytes, count: int, sides: int) -> tuple[int, ...]:
    """``count`` rolls of 1 to ``sides`` read off ``digest``'s bits, lowest first, as many
    at a time as ``sides - 1`` has (3 for a D6); a value of ``sides`` or more is read again,
    so every face is as likely. Should the 256 bits run out (only dozens of dice at once
    can), the next are SHA-256 of ``material`` with ``|1``, ``|2``... added."""
    bits = (sides - 1).bit_length()
    mask = (1 << bits) - 1
    pool, left, more = int.from_bytes(digest, "little"), 256, 0
    values: list[int] = []
    while len(values) < count:
        if left < bits:
            more += 1
            pool = int.from_bytes(sha256(material + b"|%d" % more).digest(), "little")
            left = 256
        value = pool & mask
        pool >>= bits
        left -= bits
        if value < sides:
            values.append(value + 1)
    return tuple(values)


seed_with_int: Callable[[random.Random, int], None] = _random.Random.seed
"""``random.Random.seed`` for an int, without its Python wrapper (which only sorts out str
and bytes seeds and resets ``gauss_next``, which no roll reads): the C seeding it ends in,
called directly. A sample draws hundreds of rolls, each re-seeding the generator."""


def rolled(getrandbits: Callable[[int], int], count: int, sides: int) -> tuple[int, ...]:
    """``count`` rolls of ``randint(1, sides)``, drawn exactly as CPython's ``randint`` draws
    them (``Random._randbelow_with_getrandbits``: ``sides.bit_length()`` bits at a time,
    drawing again while the value is ``sides`` or more), so every roll stays the one
    ``randint`` gave; without its ``randrange`` argument checks, which cost as much as the
    draw."""
    bits = sides.bit_length()
    values = []
    for _ in range(count):
        value = getrandbits(bits)
        while value >= sides:
            value = getrandbits(bits)
        values.append(value + 1)
    return tuple(values)


shape = cache(dice_shape)
"""``dice_shape`` of the few dice strings an edition names ("D6", "2D6"), parsed once."""


def fresh_roll(
    purpose: str, dice: str, subject: str | None = None, rng: random.Random | None = None
) -> DiceRoll:
    """A roll made by the ledger for a commissioner who did not enter one (system
    randomness, or a seeded generator for reproducible synthetic leagues)."""
    count, sides = dice_shape(dice)
    rng = rng or random.SystemRandom()
    values = tuple(rng.randint(1, sides) for _ in range(count))
    return DiceRoll(purpose=purpose, dice=dice, values=values, subject=subject, source="ledger")
