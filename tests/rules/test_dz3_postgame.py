"""The dz3 match sequence, given the events: gate, winnings, SPP and MVPs, the fan factor roll
and injuries (seed 004 'Fan Factor Roll', 'Star Player Points' and 'Most Valuable Player'
passages, 2.3/2.4/2.6, 'Crowd Injuries'; the Death Zone tables of data/tables.yaml).
"""

from __future__ import annotations

import pytest

from ledger.domain import events as ev
from ledger.domain.values import Casualty, Effect, Fixture, Performance, TeamSheet
from ledger.errors import InvalidInput
from ledger.rules.dz3.tables import tables
from tests.rules.seam import said
from tests.rules.test_dz3_book import (
    buy,
    dz3,
    play,
    problems,
    rolls,
    side,
    tr,
    two_teams,
)
from tests.support import roll

# --- the worked example: a whole match -------------------------------------------------------


def test_a_league_match_from_gate_to_team_rating() -> None:
    """Reavers (FF 5) beat the Orcs (FF 4) 2-1. Gate 19 + 14 = 33,000 fans: at TR 100 the
    winnings modifier is +2. Reavers D6 4 + 2 + 1 (won) = 70,000; Orcs D6 3 + 2 = 50,000.
    SPP: Griff Jr TD + MVP + casualty = 10, the thrower 2 completions = 2, a lineman's TD 3;
    the Orc Blitzer TD + MVP = 8. Fan factor: Reavers 4 + 1 (won) + 1 (2 TDs) = 6: +1;
    Orcs 2 - 1 (lost) = 1: -1."""
    book = dz3()
    humans, orcs = two_teams(book, reavers_fans=5, orcs_fans=4)
    buy(book, "reavers", "reroll", 2, 100_000)
    buy(book, "orcs", "reroll", 2, 120_000)
    home = side(
        "reavers",
        2,
        [
            Performance(player=humans[0], touchdowns=1, mvps=1),
            Performance(player=humans[2], completions=2),
            Performance(player=humans[3], touchdowns=1),
        ],
        rolls("reavers", gate=(3, 3, 4, 4, 5), winnings=4, fans=4),
    )
    away = side(
        "orcs",
        1,
        [Performance(player=orcs[0], touchdowns=1, mvps=1)],
        rolls("orcs", gate=(2, 3, 4, 5), winnings=3, fans=2),
    )
    hit = Casualty(victim=orcs[6], inflicted_by=humans[0], cause="block", outcome="badly_hurt")
    play(book, home, away, casualties=[hit])
    state = book.fold()
    reavers, orc_team = book.team_row("reavers", state), book.team_row("orcs", state)
    assert (reavers.treasury, reavers.fans) == (200_000 + 70_000, 6)
    assert (orc_team.treasury, orc_team.fans) == (150_000 + 50_000, 3)
    spp = {p: book.player_row(p, state).spp for p in (humans[0], humans[2], humans[3], orcs[0])}
    assert spp == {humans[0]: 10, humans[2]: 2, humans[3]: 3, orcs[0]: 8}
    assert tr(book, "reavers", state) == 1_080_000 // 10_000 + 15 // 5  # 111
    assert tr(book, "orcs", state) == 1_040_000 // 10_000 + 8 // 5  # 105


# --- winnings --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gate", "rating", "modifier"),
    [
        (0, 99, 1),
        (15_000, 99, 1),
        (15_001, 99, 2),
        (15_000, 100, 0),
        (30_001, 100, 2),
        (75_000, 99, 5),
        (75_001, 99, 6),
        (75_001, 250, 1),
        (75_001, 251, 0),
    ],
)
def test_the_winnings_modifier_by_gate_and_team_rating(
    gate: int, rating: int, modifier: int
) -> None:
    assert tables().winnings.modifier(gate, rating) == modifier


def test_a_play_off_final_adds_two_per_gate_die() -> None:
    book = dz3()
    two_teams(book, reavers_fans=3, orcs_fans=3)
    final = Fixture(id="f", round=1, division="", home="reavers", away="orcs", stage="final")
    book.record(ev.SeasonStarted, season=1, divisions=())  # a season schedules its fixtures
    book.record(ev.FixturesScheduled, season=1, fixtures=(final,))
    home = side("reavers", 1, [], rolls("reavers", gate=(1, 1, 1), winnings=1, fans=3))
    away = side("orcs", 0, [], rolls("orcs", gate=(1, 1, 1), winnings=1, fans=3))
    play(book, home, away, match="f", kind="playoff")
    # gate (3 + 6) + (3 + 6) = 18,000: row 2 (15,001-30,000), TR 100: +1
    assert book.team_row("reavers").treasury == 320_000 + (1 + 1 + 1) * 10_000
    # fan factor: 3 + 2 (final) + 1 (won) = 6 for the Reavers; 3 + 2 - 1 = 4 for the Orcs
    assert (book.team_row("reavers").fans, book.team_row("orcs").fans) == (4, 3)


# --- the fan factor roll ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "die", "change"),
    [
        ("loss", 2, -1),  # 2 - 1 = 1: lost after modification (not before)
        ("win", 1, 0),  # 1 + 1 = 2: kept (a 1 before modification would have lost it)
        ("win", 5, 1),  # 5 + 1 = 6: gained
        ("loss", 6, 0),  # 6 - 1 = 5: kept (a 6 before modification would have gained)
        ("draw", 1, -1),
        ("draw", 6, 1),
    ],
)
def test_fan_factor_is_read_after_modification(result: str, die: int, change: int) -> None:
    """'1 (or less) loses fan factor and 6+ gains fan factor after modification, not before.'"""
    book = dz3()
    two_teams(book, reavers_fans=1, orcs_fans=1)
    ours = {"win": 1, "draw": 0, "loss": 0}[result]
    theirs = {"win": 0, "draw": 0, "loss": 1}[result]
    home = side("reavers", ours, [], rolls("reavers", gate=(3,), fans=die))
    play(book, home, side("orcs", theirs, [], rolls("orcs", gate=(3,))))
    assert book.team_row("reavers").fans == 1 + change


def test_fan_factor_never_drops_below_zero() -> None:
    book = dz3()
    two_teams(book)
    play(book, side("reavers", 0, [], rolls("reavers", fans=1)), side("orcs", 1, [], rolls("orcs")))
    assert book.team_row("reavers").fans == 0


@pytest.mark.parametrize(
    ("second_cause", "change"),
    [("crowd", 1), ("foul", 0)],  # a foul casualty earns no SPP, so it is not counted
)
def test_two_touchdowns_and_two_casualties_each_add_one(second_cause: str, change: int) -> None:
    """Seed 000's Death Zone modifiers: +1 for 2+ touchdowns, +1 for 2+ casualties
    inflicted (read as the casualties that earn SPP). A 2-2 draw rolled 4: 4 + 1 + 1 = 6."""
    book = dz3()
    humans, orcs = two_teams(book, reavers_fans=2)
    scorers = [
        Performance(player=humans[3], touchdowns=1),
        Performance(player=humans[4], touchdowns=1),
    ]
    cas = [
        Casualty(victim=orcs[5], inflicted_by=humans[0], cause="block", outcome="badly_hurt"),
        Casualty(victim=orcs[6], inflicted_by=humans[1], cause=second_cause, outcome="badly_hurt"),
    ]
    home = side("reavers", 2, scorers, rolls("reavers", gate=(1, 1), fans=4))
    play(book, home, side("orcs", 2, [], rolls("orcs")), casualties=cas)
    assert book.team_row("reavers").fans == 2 + change


@pytest.mark.parametrize(
    ("fan_factor", "die", "damped", "change"),
    [
        (9, 6, True, 1),  # 9: no damping, 6 gains
        (10, 6, True, 0),  # 10-19: -1, so 6 is 5
        (19, 2, True, -1),  # 2 - 1 = 1 loses
        (19, 3, True, 0),  # 3 - 1 = 2 keeps
        (20, 3, True, -1),  # 20-29: -2, so 3 is 1
        (20, 3, False, 0),  # without the variant, 3 keeps
        (20, 6, False, 1),
    ],
)
def test_fan_factor_damping_variant_at_9_10_19_20(
    fan_factor: int, die: int, damped: bool, change: int
) -> None:
    """'Fan Factor Roll' Var (a): '-1 for each 10 in the current fan factor (-1 for 10-19,
    -2 for 20-29 etc.)'. A 0-0 draw, so the die meets only the damping."""
    book = dz3(fan_factor_damping=damped)
    two_teams(book, reavers_fans=fan_factor)
    home = side("reavers", 0, [], rolls("reavers", gate=[1] * fan_factor, fans=die))
    play(book, home, side("orcs", 0, [], rolls("orcs")))
    assert book.team_row("reavers").fans == fan_factor + change


# --- star player points ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cause", "spp"),
    [
        ("block", 2),
        ("crowd", 2),  # 'Crowd Injuries': SPP to whoever knocked him into the crowd [WD]
        ("failed_dodge", 0),  # 2.3: 'No Star Player Points ... on a failed Dodge' [WD][JJ]
        ("going_for_it", 0),  # 2.4: '... or Go For It' [WD][JJ]
        ("foul", 0),  # reading: only block and crowd casualties earn SPP
        ("secret_weapon", 0),
    ],
)
def test_which_casualties_earn_spp(cause: str, spp: int) -> None:
    book = dz3()
    humans, orcs = two_teams(book)
    cas = Casualty(victim=orcs[6], inflicted_by=humans[0], cause=cause, outcome="badly_hurt")
    home = side("reavers", 0, [Performance(player=humans[0])], rolls("reavers"))
    play(book, home, side("orcs", 0, [], rolls("orcs")), casualties=[cas])
    assert book.player_row(humans[0]).spp == spp


def test_only_pure_interceptions_earn_spp() -> None:
    """2.6: 'Only "pure" interceptions count for Star Player Points. Catching inaccurate
    passes thrown by your opponent or flubbed catches do not earn points.' [JJ]"""
    book = dz3()
    humans, _ = two_teams(book)
    catcher = Performance(player=humans[3], interceptions=1, deflections=3)
    play(book, side("reavers", 0, [catcher], rolls("reavers")), side("orcs", 0, [], rolls("orcs")))
    assert book.player_row(humans[3]).spp == 2


def test_spp_awards_and_the_mvp_is_five() -> None:
    book = dz3()
    humans, _ = two_teams(book)
    star = Performance(player=humans[2], touchdowns=2, completions=3, interceptions=1, mvps=1)
    play(book, side("reavers", 2, [star], rolls("reavers")), side("orcs", 0, [], rolls("orcs")))
    assert book.player_row(humans[2]).spp == 2 * 3 + 3 * 1 + 2 + 5


# --- MVPs ------------------------------------------------------------------------------------


def test_no_player_receives_more_than_one_mvp() -> None:
    """'No player may receive more than 1 MVP per match. [DZ p16]'"""
    book = dz3()
    humans, _ = two_teams(book)
    twice = side("reavers", 0, [Performance(player=humans[0], mvps=2)])
    found = problems(book, twice, side("orcs"))
    assert found[0].endswith("no player may receive more than 1 per match")


def test_players_who_took_no_part_receive_no_mvp() -> None:
    """'Players who have taken no part in the match do not receive MVPs (e.g. absent due to
    injury)': a player the books show missing this game is not eligible."""
    book = dz3()
    humans, orcs = two_teams(book)
    play(book, quiet("reavers"), quiet("orcs"), casualties=[injury(humans[0], orcs[0])])
    found = problems(
        book, side("reavers", 0, [Performance(player=humans[0], mvps=1)]), side("orcs")
    )
    assert found == [f"reavers-{humans[0]} took no part in the match and cannot be given the MVP"]


# --- injuries --------------------------------------------------------------------------------


def quiet(team: str) -> TeamSheet:
    return side(team, 0, [], rolls(team))


def injury(victim: str, by: str, outcome: str = "gouged_eye", *effects: Effect) -> Casualty:
    return Casualty(
        victim=victim,
        inflicted_by=by,
        cause="block",
        outcome=outcome,
        effects=("miss_next_game", *effects),
    )


def test_a_serious_injury_misses_the_next_game_then_heals() -> None:
    book = dz3()
    humans, orcs = two_teams(book)
    collar = injury(humans[0], orcs[0], "smashed_collar_bone", "-st")
    play(book, quiet("reavers"), quiet("orcs"), casualties=[collar])
    blitzer = book.player_row(humans[0])
    assert (blitzer.miss_next_game, blitzer.st, blitzer.changes) == (True, 2, {"st": -1})
    play(book, quiet("reavers"), quiet("orcs"), "m2")
    assert book.player_row(humans[0]).miss_next_game is False


def test_no_characteristic_is_reduced_by_more_than_two() -> None:
    """DZ card: 'no characteristic may be reduced by more than 2 points'; a third Smashed
    Collar Bone only misses the next game (reading)."""
    book = dz3()
    humans, orcs = two_teams(book)
    for n in range(3):
        collar = injury(humans[0], orcs[0], "smashed_collar_bone", "-st")
        play(book, quiet("reavers"), quiet("orcs"), f"m{n}", casualties=[collar])
    assert book.player_row(humans[0]).st == 1  # 3 - 2
    assert book.player_row(humans[0]).miss_next_game is True


def test_a_dead_player_leaves_the_roster() -> None:
    book = dz3()
    humans, orcs = two_teams(book)
    dead = Casualty(
        victim=humans[0], inflicted_by=orcs[0], cause="block", outcome="dead", effects=("dead",)
    )
    play(book, quiet("reavers"), quiet("orcs"), casualties=[dead])
    assert book.player_row(humans[0]).status == "dead"
    assert tr(book, "reavers") == (1_000_000 - 90_000 + 30_000) // 10_000


@pytest.mark.parametrize(
    ("dice", "outcome", "effects"),
    [
        ({"casualty": (2,)}, "badly_hurt", ()),
        ({"casualty": (6,)}, "dead", ("dead",)),
        (
            {"casualty": (4,), "serious_injury": (63,)},
            "smashed_collar_bone",
            ("miss_next_game", "-st"),
        ),
        (
            {"casualty": (5,), "serious_injury": (5, 1)},
            "damaged_back",
            ("miss_next_game", "niggling"),
        ),
        ({"casualty": (4,), "serious_injury": (11,)}, "concussion", ("miss_next_game",)),
    ],
)
def test_a_casualty_from_its_dice(
    dice: dict[str, tuple[int, ...]], outcome: str, effects: tuple[str, ...]
) -> None:
    """Seed 004 'Injuries': D6 1-3 Badly Hurt, 4-5 Seriously Injured (D66 table), 6 Dead."""
    ruleset = dz3().ruleset
    shaped = [roll(p, ruleset.casualty_dice[p], *values) for p, values in dice.items()]
    assert ruleset.casualty_from_report(None, (), shaped) == (outcome, effects)


@pytest.mark.parametrize(
    ("outcome", "effects", "read"),
    [
        ("badly_hurt", (), ("badly_hurt", ())),
        ("gouged_eye", (), ("gouged_eye", ("miss_next_game",))),
        ("broken_neck", (), ("broken_neck", ("miss_next_game", "-ag"))),
        ("serious_injury", ("-av",), ("serious_injury", ("miss_next_game", "-av"))),
    ],
)
def test_a_casualty_by_name(
    outcome: str, effects: tuple[str, ...], read: tuple[str, tuple[str, ...]]
) -> None:
    assert dz3().ruleset.casualty_from_report(outcome, effects, ()) == read


def test_a_serious_injury_needs_its_d66_its_name_or_its_effects() -> None:
    with pytest.raises(InvalidInput, match="needs its D66"):
        dz3().ruleset.casualty_from_report("serious_injury", (), ())


@pytest.mark.parametrize(
    ("dice", "outcome", "problem"),
    [
        ({"casualty": (2,)}, "dead", "a casualty roll of 2 is badly_hurt, not dead"),
        ({"casualty": (4,)}, "gouged_eye", None),
        ({"serious_injury": (67,)}, "gouged_eye", "[67] is not a D66 roll (11-66, each digit 1-6)"),
        (
            {"serious_injury": (24,)},
            "broken_neck",
            "a serious injury roll of 24 is gouged_eye, not broken_neck",
        ),
    ],
)
def test_recorded_casualty_dice_must_agree_with_the_outcome(
    dice: dict[str, tuple[int, ...]], outcome: str, problem: str | None
) -> None:
    ruleset = dz3().ruleset
    shaped = tuple(roll(p, ruleset.casualty_dice[p], *values) for p, values in dice.items())
    casualty = Casualty(victim="x", cause="block", outcome=outcome, dice=shaped)
    assert said(ruleset.check_casualty(casualty)) == ([problem] if problem else [])
