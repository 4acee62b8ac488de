"""A Star Player Roll's dice rolled by the command when asked (``roll_missing``: the CLI's
``--roll``, the API's ``roll_missing``, the form's box), as the edition names them
(``Ruleset.star_roll_sets``): LRB6's 2D6 (LRB6 p.11), and ZAL's Ageing Roll after it,
with the 2D6 of its effect only when it fails (seed 000, ZAL 19).

The roll leaves no other kind or column to choose, so it is not recorded before the
choice (``advance_rolls.ROLLED_FIRST``): the ledger's dice are the same on every try
(``keyed_dice``), a refusal for want of a choice is refused with nothing written, and the
same command with the choice takes them."""

from __future__ import annotations

import pytest

from ledger.application.advance_rolls import choice_of, missing_rolls
from ledger.application.commands import AdvancePlayer, PostBounty, RecordMatch
from ledger.application.keyed_dice import KEYS, KeyedDice
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.errors import InvalidAdvancement
from ledger.rules.lrb6_zal.advancement import hurdle, rolls_taken
from ledger.rules.lrb6_zal.tables import tables
from tests.rules.test_lrb6_zal_commands import FIRST, zal_league
from tests.support import event_count, report

GRIFF = "reavers 1"
"""Two touchdowns and the MVP in ZAL's first game: a Star Player Roll due."""


@pytest.fixture
def zal(sqlite_ledger: LeagueLedger) -> LeagueLedger:
    engine = sqlite_ledger.read_models.engine
    KEYS.metadata.create_all(engine)
    with engine.begin() as conn:  # a known key: the ledger's dice are the same every run
        conn.execute(KEYS.insert().values(id=1, secret=bytes(32).hex()))
    zal_league(sqlite_ledger)
    sqlite_ledger.handle(RecordMatch("zal", report(FIRST)), by="tester")
    sqlite_ledger.handle(PostBounty("zal", "gouged", GRIFF, 30_000), by="tester")
    return sqlite_ledger


def star_roll(**chosen: str) -> AdvancePlayer:
    return AdvancePlayer("zal", "reavers", GRIFF, "star_roll", roll_missing=True, **chosen)


def test_the_ageing_effect_is_rolled_exactly_when_the_ageing_roll_fails(
    zal: LeagueLedger,
) -> None:
    """Over 200 keys (each a store's dice), the command's rolls are the Star Player Roll
    and the Ageing Roll, and the effect's 2D6 only when the Ageing Roll misses its hurdle
    (ZAL 19: Experienced, 3+, so a 2 only). Both cases are met."""
    c = zal.context("zal")
    griff = c.player(GRIFF, "reavers")
    target = hurdle(tables(), rolls_taken(griff) + 1, "title")[1]
    proposed = ev.PlayerAdvanced(team="reavers", player=griff.player_id, kind="star_roll")
    seen = set()
    for n in range(200):
        dice = KeyedDice(bytes([n]) * 32, "a Star Player Roll")
        rolled = missing_rolls(c, c.team("reavers"), griff, proposed, dice)
        purposes = [r.purpose for r in rolled]
        assert purposes[:2] == ["star_roll", "ageing"]
        assert all(r.source == "ledger" and r.dice == "2D6" for r in rolled)
        failed = rolled[1].total < target
        assert purposes[2:] == (["ageing_effect"] if failed else [])
        seen.add(failed)
    assert seen == {True, False}


def test_a_roll_without_a_choice_is_refused_and_the_choice_takes_the_same_dice(
    zal: LeagueLedger,
) -> None:
    before = event_count(zal)
    with pytest.raises(InvalidAdvancement) as refusal:
        zal.handle(star_roll(), by="tester")
    with pytest.raises(InvalidAdvancement) as again:  # the same dice, the same refusal
        zal.handle(star_roll(), by="tester")
    assert event_count(zal) == before
    assert again.value.message == refusal.value.message

    c = zal.context("zal")
    griff, team = c.player(GRIFF, "reavers"), c.team("reavers")
    dice = c.advancement_dice(griff)
    assert dice is not None
    roll = dice.roll("star_roll", "2D6", griff.player_id)
    first, second = roll.values
    assert f"(star_roll {first},{second}; ageing " in refusal.value.message
    asked = ev.PlayerAdvanced(team="reavers", player=griff.player_id, kind="star_roll")
    rolled = asked.model_copy(update={"dice": missing_rolls(c, team, griff, asked, dice)})
    gives = choice_of(c, team, griff, rolled)
    assert f"gives {gives.said()}: name what he takes" in refusal.value.message

    chosen = {"characteristic": gives.stats[0]} if gives.stats else {"skill": gives.skills[0]}
    taken = zal.handle(star_roll(**chosen), by="tester")
    assert isinstance(taken, ev.PlayerAdvanced)
    assert taken.dice == rolled.dice
    assert all(r.source == "ledger" for r in taken.dice)
