"""gold4 casualties: the NEW INJURY TABLE and casualty SPP only for a block knock-down.

Seed 002 (shared/seeds/002_af84a64a17c90723.txt), KNOCK DOWNS & INJURIES / NEW INJURY TABLE
("10-12: An Injury", then the unmodified D6: "1-3 Badly Hurt, 4-5 Seriously Injured, 6 Dead")
and BLOOD BOWL LEAGUES / STAR PLAYER POINTS ("only ... if he blocks an opponent, or is blocked
by an opponent himself"). A serious injury's lasting effect is the Death Zone D66 table
(ledger/rules/gold4/data/deathzone.yaml, a documented reading).
"""

from __future__ import annotations

import pytest

from ledger.domain import events as ev
from ledger.domain.values import Casualty, CasualtyCause, DiceRoll, Performance
from ledger.errors import InvalidInput
from ledger.rules import find_ruleset
from ledger.rules.gold4 import injuries
from tests.rules.seam import said
from tests.support import Book, roll, sheet

GOLD = find_ruleset("gold4")


def report(*dice: DiceRoll, outcome: str | None = None, effects: tuple[str, ...] = ()) -> str:
    found, _ = GOLD.casualty_from_report(outcome, effects, dice)
    return found


@pytest.mark.parametrize(
    ("total", "result"),
    [
        (2, "stunned"),
        (7, "stunned"),
        (8, "knocked_out"),
        (9, "knocked_out"),
        (10, "injury"),
        (12, "injury"),
        (13, "injury"),
    ],
)
def test_the_2d6_injury_table_bands(total: int, result: str) -> None:
    """13 is read as 'An Injury' (a bonus can push the total past the printed 12)."""
    assert injuries.injury_result(total) == result


@pytest.mark.parametrize(
    ("d6", "outcome"),
    [
        (1, "badly_hurt"),
        (3, "badly_hurt"),
        (4, "seriously_injured"),
        (5, "seriously_injured"),
        (6, "dead"),
    ],
)
def test_the_specific_injury_d6_decides_the_outcome(d6: int, outcome: str) -> None:
    dice = (
        roll("injury", "2D6", 5, 6),
        roll("specific_injury", "D6", d6),
        roll("serious_injury", "D66", 11),
    )
    assert report(*dice) == outcome


def test_a_2d6_below_ten_without_a_specific_injury_is_no_casualty() -> None:
    with pytest.raises(InvalidInput, match="knocked out on the NEW INJURY TABLE"):
        report(roll("injury", "2D6", 4, 5))


def test_a_specific_injury_roll_that_contradicts_the_outcome_is_refused() -> None:
    with pytest.raises(InvalidInput, match="is badly_hurt, not dead"):
        report(roll("specific_injury", "D6", 2), outcome="dead")


def test_dead_and_badly_hurt_have_fixed_effects() -> None:
    assert GOLD.casualty_from_report(None, (), (roll("specific_injury", "D6", 6),)) == (
        "dead",
        ("dead",),
    )
    assert GOLD.casualty_from_report("badly_hurt", (), ()) == ("badly_hurt", ())


@pytest.mark.parametrize(
    ("d66", "effects"),
    [
        (11, ("miss_next_game",)),
        (46, ("miss_next_game",)),
        (51, ("miss_next_game", "niggling")),
        (61, ("miss_next_game", "-ma")),
        (63, ("miss_next_game", "-st")),
        (64, ("miss_next_game", "-ag")),
        (66, ("miss_next_game", "-av")),
    ],
)
def test_a_serious_injury_rolls_the_death_zone_d66(d66: int, effects: tuple[str, ...]) -> None:
    dice = (roll("specific_injury", "D6", 4), roll("serious_injury", "D66", d66))
    assert GOLD.casualty_from_report(None, (), dice) == ("seriously_injured", effects)


def test_a_d66_may_be_entered_as_two_dice() -> None:
    dice = (
        roll("specific_injury", "D6", 5),
        DiceRoll(purpose="serious_injury", dice="D66", values=(6, 5)),
    )
    assert GOLD.casualty_from_report(None, (), dice)[1] == ("miss_next_game", "-av")


@pytest.mark.parametrize(("values", "said_as"), [((77,), "77"), ((7, 7), "7 and 7")])
def test_a_d66_out_of_its_dice_is_said_as_typed(values: tuple[int, ...], said_as: str) -> None:
    dice = (
        roll("specific_injury", "D6", 5),
        DiceRoll(purpose="serious_injury", dice="D66", values=values),
    )
    with pytest.raises(InvalidInput) as refused:
        GOLD.casualty_from_report(None, (), dice)
    assert refused.value.message.endswith(f"(11-66), not {said_as}")


def test_a_serious_injury_without_its_d66_needs_its_effects() -> None:
    with pytest.raises(InvalidInput, match="D66"):
        GOLD.casualty_from_report("seriously_injured", (), ())
    assert GOLD.casualty_from_report("seriously_injured", ("niggling",), ())[1] == (
        "miss_next_game",
        "niggling",
    )


def test_a_recorded_casualty_must_agree_with_its_dice() -> None:
    casualty = Casualty(
        victim="p1",
        cause="block",
        outcome="seriously_injured",
        effects=("miss_next_game",),
        dice=(roll("specific_injury", "D6", 6),),
    )
    assert said(GOLD.check_casualty(casualty)) == [
        "a Specific Injury roll of 6 is dead, not seriously_injured"
    ]
    assert said(GOLD.check_casualty(casualty.model_copy(update={"outcome": "stunned"}))) == [
        "'stunned' is not a gold4 casualty outcome (badly_hurt, seriously_injured, dead)"
    ]


def test_injuries_never_take_a_characteristic_more_than_two_below_its_start() -> None:
    book = Book("gold4")
    (victim,) = book.team("humans", "human", ["lineman"])
    (thug,) = book.team("orcs", "orc", ["lineman"])
    for n in range(3):
        book.record(
            ev.MatchRecorded,
            match=f"f{n}",
            kind="friendly",
            home=sheet("humans"),
            away=sheet("orcs"),
            casualties=(
                Casualty(
                    victim=victim,
                    inflicted_by=thug,
                    cause="block",
                    outcome="seriously_injured",
                    effects=("miss_next_game", "-st"),
                ),
            ),
        )
    assert book.player_row(victim).st == 3 - 2


# --- casualty SPP --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cause", "spp"),
    [("block", 2), ("foul", 0), ("crowd", 0), ("secret_weapon", 0), ("chainsaw", 0)],
)
def test_casualty_spp_only_for_a_block_knock_down(cause: CasualtyCause, spp: int) -> None:
    book = Book("gold4")
    (victim,) = book.team("humans", "human", ["lineman"])
    (thug,) = book.team("orcs", "orc", ["black_orc_blocker"])
    book.record(
        ev.MatchRecorded,
        match="f1",
        kind="friendly",
        home=sheet("humans"),
        away=sheet("orcs", players=[Performance(player=thug)]),  # as a report lists him
        casualties=(Casualty(victim=victim, inflicted_by=thug, cause=cause, outcome="badly_hurt"),),
    )
    assert book.player_row(thug).spp == spp


def test_a_regenerated_victim_still_earns_the_blocker_his_spp() -> None:
    """Regeneration: 'Opposing players earn Star Player points based on the original injury'."""
    book = Book("gold4")
    (troll,) = book.team("gobs", "goblin", ["troll"])
    (thug,) = book.team("orcs", "orc", ["black_orc_blocker"])
    book.record(
        ev.MatchRecorded,
        match="f1",
        kind="friendly",
        home=sheet("gobs"),
        away=sheet("orcs", players=[Performance(player=thug)]),
        casualties=(
            Casualty(
                victim=troll,
                inflicted_by=thug,
                cause="block",
                outcome="dead",
                effects=("dead",),
                recovered=True,
            ),
        ),
    )
    assert book.player_row(thug).spp == 2
    assert book.player_row(troll).status == "active"
