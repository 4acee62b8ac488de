"""lrb6-zal: Team Rating, the Handicap Table, the gate, FAME and the Match Winnings Table.

Source: shared/seeds/000_e199eb2e30fe6ef5.txt: ZAL 8a (Team Rating for the match), the
HANDICAP TABLE, ZAL 8e (bonus MVPs), PRE-MATCH SEQUENCE 3-4 (gate, FAME) and the MATCH
WINNINGS TABLE. Readings: docs/rulesets/lrb6-zal.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.domain.events import PlayerAdvanced
from ledger.domain.values import Hireling
from ledger.rules.lrb6_zal.postgame import fame
from ledger.rules.lrb6_zal.rating import handicap
from ledger.rules.lrb6_zal.tables import tables
from tests.rules.seam import checked, dice_for, said
from tests.rules.test_lrb6_zal_book import (
    HUMANS,
    ORCS,
    Zal,
    gold_lines,
    hurt,
    played,
    side,
)
from tests.support import roll

# --- Team Rating ------------------------------------------------------------------------------


def test_team_rating_is_value_over_10000_plus_spp_over_5() -> None:
    zal = Zal()
    humans = zal.team("humans", "human", HUMANS, fans=5, rerolls=3, staff=["apothecary"])
    zal.team("orcs", "orc", ORCS)
    # 670,000 players + 150,000 re-rolls + 50,000 Fan Factor + 50,000 apothecary
    assert zal.team_row("humans").values == {"tr": 92}
    zal.match(
        side(
            "humans",
            2,
            [played(humans[0], touchdowns=2, mvps=1), played(humans[2], completions=2)],
            fans=5,
        ),
        side("orcs"),
    )
    # 2 TD (6) + MVP (5) + 2 completions (2) = 13 SPP: + 13 // 5
    assert zal.team_row("humans").values == {"tr": 94}


@pytest.mark.parametrize(
    ("options", "tr"),
    [
        ({}, 72),  # 670,000 + 50,000 Fan Factor
        ({"tr_counts_treasury": True}, 75),  # + 30,000 left in the treasury
        ({"tr_counts_spp": False, "tr_counts_treasury": True}, 75),
    ],
)
def test_team_rating_options(options: dict[str, object], tr: int) -> None:
    zal = Zal(options)
    zal.team("humans", "human", HUMANS, fans=5, treasury=30_000)
    assert zal.team_row("humans").rating == tr


@pytest.mark.parametrize(
    ("counted", "expected"),
    [
        # 580,000 fit players + 50,000 Fan Factor + a 50,000 journeyman; the injured
        # Blitzer's 90,000 and his 11 SPP are left out (ZAL 8a)
        ("journeymen", 68),
        # ... and the 90,000 mercenary Blitzer too (pre-match step 1)
        ("all", 77),
    ],
)
def test_match_rating_leaves_out_the_injured_and_adds_the_hired(
    counted: str, expected: int
) -> None:
    zal = Zal({"hirelings_in_match_tr": counted})
    humans = zal.team("humans", "human", HUMANS, fans=5)
    zal.team("orcs", "orc", ORCS)
    zal.match(
        side("humans", 2, [played(humans[0], touchdowns=2, mvps=1)], fans=5),
        side("orcs"),
        casualties=[hurt(humans[0], None, "going_for_it", "smashed_hand", ["miss_next_game"])],
    )
    state = zal.fold()
    assert zal.team_row("humans", state).rating == 72 + 11 // 5  # the roster keeps him
    hired = side(
        "humans",
        hirelings=[
            Hireling(id="j1", name="Jo", kind="journeyman", position="lineman"),
            Hireling(id="m1", name="Max", kind="mercenary", position="blitzer", price=45_000),
        ],
    )
    team = zal.team_row("humans", state)
    assert zal.ruleset.match_rating(team, zal.players("humans", state), hired) == expected


# --- Handicap Table ---------------------------------------------------------------------------


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
def test_handicap_table_gives_the_lower_team_bonus_cards_and_mvps(
    difference: int, cards: int, mvps: int
) -> None:
    gained = handicap(tables(), 100, 100 + difference)
    assert (gained.cards, gained.mvps) == (cards, mvps)
    assert handicap(tables(), 100 + difference, 100).mvps == 0  # the higher team gains nothing


def two_teams_24_apart(zal: Zal) -> tuple[list[str], list[str]]:
    # Humans 670,000 + 10,000 Fan Factor = TR 68; Orcs 790,000 + 120,000 + 10,000 = TR 92
    return zal.team("humans", "human", HUMANS), zal.team("orcs", "orc", ORCS, rerolls=2)


@pytest.mark.parametrize(
    ("human_mvps", "orc_mvps", "problems"),
    [
        (2, 1, 0),  # one each plus the Humans' bonus MVP (difference 24: 21-30)
        (3, 1, 1),
        (1, 2, 1),  # the favourite gains no bonus MVP
    ],
)
def test_the_underdog_names_its_bonus_mvps(human_mvps: int, orc_mvps: int, problems: int) -> None:
    zal = Zal()
    humans, orcs = two_teams_24_apart(zal)
    draft = zal.draft_match(
        side("humans", 0, [played(p, mvps=1) for p in humans[:human_mvps]]),
        side("orcs", 0, [played(p, mvps=1) for p in orcs[:orc_mvps]]),
    )
    found = checked(zal.ruleset, zal.fold(), zal.league_id, draft)
    assert len(found) == problems


def test_a_bonus_mvp_gives_a_star_player_roll_with_its_ageing_roll() -> None:
    """ZAL 8e: a player 'allowed to roll on the Star Player Points Table, may do so ...
    (not forgetting the Ageing Roll though)'."""
    zal = Zal()
    humans, _ = two_teams_24_apart(zal)
    zal.match(
        side("humans", 0, [played(humans[4], completions=1, mvps=1), played(humans[5], mvps=1)]),
        side("orcs"),
    )
    state = zal.fold()
    rookie = zal.player(humans[4], state)
    assert rookie.spp == 6  # 1 completion + the bonus MVP: Experienced
    team = zal.team_row("humans", state)
    advance: dict[str, Any] = {
        "team": "humans",
        "player": rookie.player_id,
        "kind": "star_roll",
        "skill": "Block",
    }
    star_roll = roll("star_roll", "2D6", 2, 5)
    without_ageing = PlayerAdvanced.model_construct(**{**advance, "dice": (star_roll,)})
    assert said(zal.ruleset.check_advancement(rookie, team, without_ageing))
    ageing = roll("ageing", "2D6", 2, 2)
    with_ageing = PlayerAdvanced.model_construct(**{**advance, "dice": (star_roll, ageing)})
    assert said(zal.ruleset.check_advancement(rookie, team, with_ageing)) == []


# --- gate and FAME ----------------------------------------------------------------------------


def test_the_gate_is_one_d6_per_fan_factor_per_coach() -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS, fans=5)
    zal.team("orcs", "orc", ORCS, fans=0)
    draft = zal.draft_match(side("humans", fans=5), side("orcs", fans=0))
    needs = dice_for(zal.ruleset, zal.fold(), zal.league_id, draft)
    gate = {(n.subject, n.dice) for n in needs if n.purpose == "gate"}
    assert gate == {("humans", "5D6")}  # no Fan Factor, no gate dice


@pytest.mark.parametrize(
    ("ours", "theirs", "expected"),
    [
        (10, 10, 0),  # equal: 0
        (9, 10, 0),
        (11, 10, 1),  # more: +1
        (20, 10, 1),  # exactly double is not 'more than double'
        (21, 10, 2),  # more than double: +2
        (1, 0, 2),
        (0, 0, 0),
    ],
)
def test_fame_compares_the_coaches_gate_rolls(ours: int, theirs: int, expected: int) -> None:
    assert fame(tables(), ours, theirs) == expected


def test_fame_is_added_to_the_winnings_roll_only_under_the_option() -> None:
    for options, expected in (({}, 50_000), ({"fame_in_winnings": True}, 70_000)):
        zal = Zal(options)
        zal.team("humans", "human", HUMANS, fans=2)
        zal.team("orcs", "orc", ORCS)
        # gates 12 v 2: more than double, FAME +2; gate 14,000 and TR 69: table +1
        zal.match(side("humans", 1, fans=2, gate=[6, 6], winnings=3), side("orcs", gate=[2]))
        assert gold_lines(zal.fold(), "humans", "winnings") == [expected]  # 3 + 1 + 1 win (+2)


# --- Match Winnings Table ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gate", "tr", "modifier"),
    [
        (0, 0, 1),
        (15_000, 99, 1),
        (15_000, 100, 0),
        (15_001, 99, 2),
        (30_000, 125, 1),
        (30_001, 125, 2),
        (30_001, 126, 1),
        (45_001, 175, 1),
        (60_001, 200, 1),
        (75_000, 200, 1),
        (75_001, 200, 2),
        (75_001, 250, 1),
        (75_001, 251, 0),
        (108_000, 80, 6),
    ],
)
def test_winnings_table_bands(gate: int, tr: int, modifier: int) -> None:
    assert tables().winnings.modifier(gate, tr) == modifier


@pytest.mark.parametrize(
    ("options", "human_roll", "humans", "orcs"),
    [
        # gate 30 + 24 pips = 54,000 fans; both teams under TR 100: table +4
        ({}, 3, (3 + 4 + 1) * 10_000, (3 + 4) * 10_000),
        ({"winnings_roll": "2D6"}, (4, 5), (9 + 4 + 1) * 10_000, (6 + 4) * 10_000),
        ({"winnings_roll": "none"}, None, (4 + 1) * 10_000, 4 * 10_000),
    ],
)
def test_winnings_are_the_roll_plus_the_table_plus_one_for_the_win(
    options: dict[str, Any], human_roll: int | tuple[int, ...] | None, humans: int, orcs: int
) -> None:
    zal = Zal(options)
    zal.team("humans", "human", HUMANS, fans=5)  # TR 72
    zal.team("orcs", "orc", ORCS, fans=4)  # TR 83
    orc_rolls: dict[str, int | tuple[int, ...] | None] = {"D6": 3, "2D6": (3, 3), "none": None}
    orc_roll = orc_rolls[zal.ruleset.options.winnings_roll]
    zal.match(
        side("humans", 2, fans=5, gate=[6] * 5, winnings=human_roll),
        side("orcs", 1, fans=4, gate=[6] * 4, winnings=orc_roll),
    )
    state = zal.fold()
    assert gold_lines(state, "humans", "winnings") == [humans]
    assert gold_lines(state, "orcs", "winnings") == [orcs]


def test_a_draw_earns_no_win_bonus() -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS)
    zal.team("orcs", "orc", ORCS)
    zal.match(side("humans", 1, winnings=2), side("orcs", 1, winnings=2))
    # gate 6,000: table +1 for both, no +1 for winning
    assert gold_lines(zal.fold(), "humans", "winnings") == [30_000]
