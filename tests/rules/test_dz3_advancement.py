"""dz3 star player rolls (seeds README SPP levels; seed 004 'Characteristic increases').

One 2D6 roll on reaching 6, 11, 26, 51, 101 and 151 SPP: 2-9 a new skill from the player's
own categories, 10 +MA, 11 +AG, 12 +ST. "If a player rolls doubles any skill may be chosen,
but rolls of 4/6 and 5/6 must be taken as movement and agility increases respectively."
"No characteristic may be permanently increased by more than 2 over the starting value, or
over 10. [JJ] ... If a player has reached the limit and rolls a further characteristic
increase, then the roll cannot be used unless it is a double, allowing any skill."
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.domain import events as ev
from ledger.domain.state import PlayerRow, TeamRow
from ledger.rules.asked import Advancing
from ledger.rules.protocol import Ruleset
from tests.rules.seam import said
from tests.rules.test_dz3_book import REAVERS, drafted, dz3, roster, tr
from tests.support import roll


def blitzer(**update: Any) -> tuple[tuple[Ruleset, TeamRow], PlayerRow]:
    """A Human Blitzer (G, S; a double opens A and P) with 6 SPP, and his ruleset."""
    book = dz3()
    drafted(book, "reavers", "human", REAVERS)
    team, players = roster(book, "reavers")
    player = players[0].model_copy(update={"spp": 6, "spp_earned": 6, **update})
    return (book.ruleset, team), player


def star_roll(dice: tuple[int, int], **fields: Any) -> ev.PlayerAdvanced:
    fields.setdefault("kind", "star_roll")
    return ev.PlayerAdvanced.model_construct(
        team="reavers",
        player="p1",
        skill=fields.pop("skill", None),
        characteristic=fields.pop("characteristic", None),
        dice=(roll("star_roll", "2D6", *dice),),
        **fields,
    )


def check(
    dice: tuple[int, int], player_update: dict[str, Any] | None = None, **choice: Any
) -> list[str]:
    (ruleset, team), player = blitzer(**(player_update or {}))
    return said(ruleset.check_advancement(player, team, star_roll(dice, **choice)))


@pytest.mark.parametrize(
    ("dice", "choice", "ok"),
    [
        ((3, 5), {"skill": "Mighty Blow"}, True),  # 8: a Strength skill, his own category
        ((3, 5), {"skill": "Dodge"}, False),  # Agility needs a double
        ((3, 3), {"skill": "Dodge"}, True),  # a double: any skill
        ((4, 6), {"characteristic": "ma"}, True),
        ((4, 6), {"skill": "Dodge"}, False),  # 4/6 must be taken as movement
        ((5, 5), {"skill": "Dodge"}, True),  # 10 as a double: any skill instead
        ((5, 5), {"characteristic": "ma"}, True),
        ((5, 6), {"characteristic": "ag"}, True),
        ((5, 6), {"characteristic": "ma"}, False),
        ((6, 6), {"characteristic": "st"}, True),
        ((6, 6), {"skill": "Catch"}, True),
        ((2, 4), {"characteristic": "st"}, False),  # 6 is a skill
        ((2, 4), {"skill": "Block"}, False),  # he has it already
        ((2, 4), {"skill": "Throw Team-Mate"}, False),  # ST 6 or more only
        ((1, 1), {"skill": "Stunty"}, False),  # Physical: not a Human's category
    ],
)
def test_the_star_player_table(dice: tuple[int, int], choice: dict[str, Any], ok: bool) -> None:
    found = check(dice, **choice)
    assert (found == []) is ok, found


@pytest.mark.parametrize(
    ("spp", "taken", "ok"),
    [
        (5, 0, False),
        (6, 0, True),
        (10, 1, False),
        (11, 1, True),
        (25, 2, False),
        (26, 2, True),
        (151, 5, True),
        (250, 6, False),
    ],
)
def test_one_roll_per_spp_level(spp: int, taken: int, ok: bool) -> None:
    advancements = tuple({"kind": "star_roll", "skill": None} for _ in range(taken))
    update = {"spp": spp, "spp_earned": spp, "advancements": advancements}
    assert (check((3, 5), update, skill="Mighty Blow") == []) is ok


def test_a_characteristic_may_rise_by_two_at_most() -> None:
    twice = {
        "advancements": ({"characteristic": "st"}, {"characteristic": "st"}),
        "st": 5,
        "spp": 26,
        "spp_earned": 26,
    }
    assert check((6, 6), twice, characteristic="st") == ["reavers-p1's ST is already +2"]
    assert check((6, 6), twice, skill="Guard") == []  # the double allows any skill


def test_a_characteristic_roll_at_the_limit_is_lost_unless_a_double() -> None:
    twice = {
        "advancements": ({"characteristic": "ma"}, {"characteristic": "ma"}),
        "ma": 9,
        "spp": 26,
        "spp_earned": 26,
    }
    assert check((4, 6), twice) == []  # recorded, nothing gained
    assert check((4, 6)) == ["a roll of 4+6 must be taken as +1 MA (no double)"]


def test_no_characteristic_rises_over_ten() -> None:
    assert check((4, 6), {"ma": 10}, characteristic="ma") == ["reavers-p1's MA is already 10"]


def test_only_star_player_rolls() -> None:
    (ruleset, team), player = blitzer()
    event = star_roll((3, 5), kind="chosen_primary", skill="Mighty Blow")
    assert said(ruleset.problems(Advancing(player, team, event))) == [
        "no chosen primary skill in 3rd edition Death Zone (OBERWALD): a player advances by"
        " a Star Player Roll (star_roll)"
    ]


def test_a_roll_costs_no_spp_and_adds_no_value() -> None:
    """Experience reaches TR through SPP / 5; the skill itself adds nothing."""
    book = dz3()
    humans = drafted(book, "reavers", "human", REAVERS)
    before = tr(book, "reavers")
    book.record(
        ev.PlayerAdvanced,
        team="reavers",
        player=humans[0],
        kind="star_roll",
        skill="Mighty Blow",
        dice=(roll("star_roll", "2D6", 3, 5),),
    )
    player = book.player_row(humans[0])
    assert (player.skills[-1], player.value, player.spp) == ("Mighty Blow", 90_000, 0)
    assert tr(book, "reavers") == before
