"""The ledger's dice for a player's advancement: the same roll however often it is asked.

A coach who lets the ledger roll his player's advancement (the characteristic die, the
Skill Table rolls of a random skill) must not be able to ask again and again until the
dice give the skill wanted. So the ledger's roll for an advancement is drawn from the
store's dice key (a random secret made once per store, kept in a table of its own, never
shown, logged or exported) and from the occasion: the league, the player, how many
advancements he has taken, the roll's purpose and its place among the rolls of that
purpose. Asked again, the ledger rolls the same dice. The CLI and the form roll them
before the command and send them; the same values are recognised as the ledger's roll and
recorded so (``source="ledger"``); any other values are the coach's own roll at the
table, and recorded as that. Since the dice are the same for every Skill Table column, a
roll that leaves a choice is recorded before the choice is made, and a refusal shows none
(``advance_rolls``).

Post-game dice the ledger rolls for a report (``--roll``) are not keyed: a report's
refusal does not show them.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ledger.domain.state import PlayerRow
from ledger.domain.values import DiceRoll, dice_shape

KEYS = sa.Table(
    "ledger_dice_key",
    sa.MetaData(),
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("secret", sa.String(64), nullable=False),
)
"""One row: the store's dice key, as hex. Not a read model: a rebuild leaves it."""


def dice_key(engine: Engine) -> bytes:
    """The store's dice key, made on first use (by whichever process asks first)."""
    found = read_key(engine)
    if found is None:
        KEYS.metadata.create_all(engine)
        with contextlib.suppress(sa.exc.IntegrityError), engine.begin() as conn:
            conn.execute(KEYS.insert().values(id=1, secret=secrets.token_hex(32)))
        found = read_key(engine)
    assert found is not None  # inserted above, by this process or another
    return bytes.fromhex(found)


def read_key(engine: Engine) -> str | None:
    if KEYS.name not in sa.inspect(engine).get_table_names():
        return None
    with engine.connect() as conn:
        found = conn.execute(sa.select(KEYS.c.secret).where(KEYS.c.id == 1)).scalar()
    return str(found) if found is not None else None


@dataclass(frozen=True)
class KeyedDice:
    """The ledger's rolls for one occasion (a player's next advancement)."""

    key: bytes
    occasion: str

    def roll(self, purpose: str, dice: str, subject: str | None, nth: int = 0) -> DiceRoll:
        """The ``nth`` roll of ``purpose`` on this occasion (a random skill rolls twice)."""
        count, sides = dice_shape(dice)
        said = "\0".join((self.occasion, purpose, dice, str(nth)))  # the occasion names him
        digest = hmac.new(self.key, said.encode(), hashlib.sha256).digest()
        drawn = random.Random(int.from_bytes(digest, "big"))
        values = tuple(drawn.randint(1, sides) for _ in range(count))
        return DiceRoll(purpose=purpose, dice=dice, values=values, subject=subject, source="ledger")

    def recognised(self, rolls: Sequence[DiceRoll]) -> tuple[DiceRoll, ...]:
        """``rolls`` as sent, each one that is this occasion's roll of its purpose and
        place marked as the ledger's."""
        seen: dict[str, int] = {}
        marked = []
        for sent in rolls:
            nth = seen[sent.purpose] = seen.get(sent.purpose, -1) + 1
            own = self.roll(sent.purpose, sent.dice, sent.subject, nth)
            marked.append(own if own.values == sent.values else sent)
        return tuple(marked)


def advancement_dice(key: bytes, league_id: str, player: PlayerRow) -> KeyedDice:
    """The ledger's dice for ``player``'s next advancement (his count of those taken
    says which: a voided one gives its occasion back, with its roll)."""
    return KeyedDice(key, f"{league_id} advancement {player.player_id} {len(player.advancements)}")


KeySource = Callable[[], bytes]
"""Where a command finds the store's dice key (read once it is needed)."""
