"""dz3 handicaps (seed 004 3.8 Handicaps): bonus cards and MVPs for the weaker team, by the
difference in team rating or, as a league option, by the ratio of the ratings.

Readings (docs/rulesets/dz3.md): "100+" is 101+ (seed 000 prints the same table with
101+); on the ratio table a ratio on a shared edge reads the higher band (as "< 1.1" puts
1.1 itself in "1.1 - 1.2"), except 2.0, which "> 2.0" leaves in "1.75 - 2.0".
"""

from __future__ import annotations

import pytest

from ledger.domain.values import Hireling, Performance
from ledger.rules.dz3.rating import handicap
from ledger.rules.dz3.tables import HandicapBand, tables
from tests.rules.test_dz3_book import ORCS, REAVERS, drafted, dz3, problems, side


@pytest.mark.parametrize(
    ("difference", "cards", "mvps"),
    [
        (0, 0, 0),
        (10, 0, 0),
        (11, 1, 0),
        (20, 1, 0),
        (21, 1, 1),
        (30, 1, 1),
        (31, 2, 1),
        (50, 2, 1),
        (51, 2, 2),
        (75, 2, 2),
        (76, 3, 2),
        (100, 3, 2),
        (101, 3, 3),
        (250, 3, 3),
    ],
)
def test_handicap_by_difference_band_edges(difference: int, cards: int, mvps: int) -> None:
    assert handicap(tables(), "difference", 100, 100 + difference) == HandicapBand(
        cards=cards, mvps=mvps
    )


@pytest.mark.parametrize(
    ("stronger", "cards", "mvps"),
    [
        (109, 0, 0),  # 1.09 < 1.1
        (110, 1, 0),  # 1.1 is not "< 1.1"
        (119, 1, 0),
        (120, 1, 1),  # 1.2: the higher band
        (129, 1, 1),
        (130, 2, 1),
        (149, 2, 1),
        (150, 2, 2),
        (174, 2, 2),
        (175, 3, 2),
        (200, 3, 2),  # 2.0 is not "> 2.0"
        (201, 3, 3),
    ],
)
def test_handicap_by_ratio_band_edges(stronger: int, cards: int, mvps: int) -> None:
    assert handicap(tables(), "ratio", 100, stronger) == HandicapBand(cards=cards, mvps=mvps)


def test_the_ratio_is_exact_not_a_float() -> None:
    """132 / 110 is exactly 1.2 (a float division gives 1.2000000000000002)."""
    assert handicap(tables(), "ratio", 110, 132) == HandicapBand(cards=1, mvps=1)


def test_the_stronger_team_gets_nothing() -> None:
    assert handicap(tables(), "difference", 150, 100) == HandicapBand(cards=0, mvps=0)


def mvp(player: str) -> Performance:
    return Performance(player=player, mvps=1)


@pytest.mark.parametrize(
    ("option", "stronger_budget", "weaker_mvps", "allowed"),
    [
        ("difference", 1_210_000, 2, True),  # 21 apart: one bonus MVP
        ("difference", 1_210_000, 3, False),
        ("difference", 1_200_000, 2, False),  # 20 apart: none
        ("ratio", 1_200_000, 2, True),  # 1.2: one bonus MVP
        ("ratio", 1_190_000, 2, False),
    ],
)
def test_the_weaker_team_may_award_its_bonus_mvps(
    option: str, stronger_budget: int, weaker_mvps: int, allowed: bool
) -> None:
    book = dz3(handicap=option)
    humans = drafted(book, "reavers", "human", REAVERS)
    drafted(book, "orcs", "orc", ORCS, budget=stronger_budget)
    home = side("reavers", 0, [mvp(p) for p in humans[:weaker_mvps]])
    found = problems(book, home, side("orcs"))
    assert (found == []) is allowed, found


def test_the_stronger_team_awards_one_mvp() -> None:
    book = dz3()
    drafted(book, "reavers", "human", REAVERS)
    orcs = drafted(book, "orcs", "orc", ORCS, budget=1_500_000)
    found = problems(book, side("reavers"), side("orcs", 0, [mvp(orcs[0]), mvp(orcs[1])]))
    assert found == [
        "Orcs awarded 2 MVPs where it may award 1 (one per team + the handicap's"
        " bonus MVPs, difference)"
    ]


def test_the_handicap_reads_the_tr_the_teams_had_before_the_match() -> None:
    """3.8: TR 'does not change if a player spends money on freebooters at the start of the
    next match': the Orcs' 20,000 freebooter fee does not bring them to 119 (no bonus)."""
    book = dz3()
    humans = drafted(book, "reavers", "human", REAVERS)
    drafted(book, "orcs", "orc", ORCS, budget=1_210_000)
    booted = Hireling(id="h1", name="Snotty", kind="mercenary", position="goblin", price=20_000)
    home = side("reavers", 0, [mvp(humans[0]), mvp(humans[1])])
    assert problems(book, home, side("orcs", 0, [], hirelings=[booted])) == []
