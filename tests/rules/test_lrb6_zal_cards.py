"""lrb6-zal: the Handicap Table's bonus cards, booked before the match (seed 000: ZAL 8b,
PRE-MATCH SEQUENCE 5 and 7, HANDICAP TABLE).

ZAL 8b: "1D6, Result: 1 = 1 Card ...; 2 - 5 = 2 cards ...; 6 = 3 cards (... and/or 1 Magic
Item). When there is a large difference between the Team Ratings additional cards may be
added (see handicap table ...), if more than one bonus card is awarded ONE of these
additional cards can also be a Magic Item, but still only when a 6 was rolled."
"""

from __future__ import annotations

import pytest

from ledger.application.commands import PlayCard, RecordMatch
from ledger.application.service import LeagueLedger
from ledger.errors import InvalidInput, NotAllowed
from ledger.rules.lrb6_zal.cards import Draw, draw
from ledger.rules.lrb6_zal.tables import tables
from tests.rules.test_lrb6_zal_commands import FIRST, refused, zal_league
from tests.support import event_count, report


@pytest.mark.parametrize(
    ("ours", "theirs", "d6", "expected"),
    [
        (100, 100, 1, Draw(drawn=1, bonus=0, magic_items=0)),  # '1 = 1 Card'
        (100, 110, 3, Draw(drawn=2, bonus=0, magic_items=0)),  # 0-10: no bonus
        (100, 111, 3, Draw(drawn=2, bonus=1, magic_items=0)),  # 11-20: 1 card
        (100, 120, 6, Draw(drawn=3, bonus=1, magic_items=1)),  # one bonus card: no extra item
        (96, 130, 6, Draw(drawn=3, bonus=2, magic_items=2)),  # 31-50: 2 cards, one an item
        (96, 130, 5, Draw(drawn=2, bonus=2, magic_items=0)),  # '... only when a 6 was rolled'
        (130, 96, 6, Draw(drawn=3, bonus=0, magic_items=1)),  # the higher team gains nothing
        (50, 151, 4, Draw(drawn=2, bonus=3, magic_items=0)),  # 101+: 3 cards
    ],
)
def test_the_cards_a_team_draws(ours: int, theirs: int, d6: int, expected: Draw) -> None:
    assert draw(tables(), ours, theirs, d6) == expected


def test_the_lower_rated_team_books_its_bonus_cards_before_kick_off(
    sqlite_ledger: LeagueLedger,
) -> None:
    """Reavers TR 72 (670,000 + Fan Factor 5) v Gouged Eye TR 83 (790,000 + 4): 11 points,
    one bonus card for the Reavers (Handicap Table 11-20), none for the Gouged Eye."""
    ledger = sqlite_ledger
    zal_league(ledger)
    before = event_count(ledger)
    ledger.handle(
        PlayCard("zal", "reavers", "bonus_cards", against="gouged", dice={"cards": 6}), by="tester"
    )
    assert event_count(ledger) == before + 1
    refused(
        ledger,
        NotAllowed,
        lambda: ledger.handle(
            PlayCard("zal", "gouged", "bonus_cards", against="reavers", dice={"cards": 2}),
            by="tester",
        ),
        r"gouged \(TR 83\) v reavers \(TR 72\): no bonus cards",
    )
    refused(
        ledger,
        InvalidInput,
        lambda: ledger.handle(
            PlayCard("zal", "reavers", "bonus_cards", dice={"cards": 2}), by="tester"
        ),
        "name the opponent",
    )
    ledger.handle(RecordMatch("zal", report(FIRST)), by="tester")
    refused(
        ledger,
        NotAllowed,
        lambda: ledger.handle(
            PlayCard("zal", "reavers", "bonus_cards", match="r1", dice={"cards": 2}), by="tester"
        ),
        "already recorded",
    )
