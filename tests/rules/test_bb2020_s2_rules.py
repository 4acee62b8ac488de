"""Every Season 2 rule that differs from the 2025 chapter, as data: one figure under each.

Each row names its Season 2 source (BBBase docs/bb2020/core_rules, the passages kept in
tests/rules/data/bb2020_s2/rules) and gives the figure bb2020 must compute and the one
bb2025 computes for the same facts, so a row also shows the two editions really differ.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ledger.domain import events as ev
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import DiceRoll, Performance
from ledger.projections.gather import redraft_rows
from ledger.rules import find_ruleset
from ledger.rules.bb2025 import pregame
from ledger.rules.bb2025.postgame import mishap
from ledger.rules.dice import DiceBox
from ledger.rules.protocol import Ruleset
from tests.rules.seam import said
from tests.support import Book, roll, sheet

BB2020 = find_ruleset("bb2020")
BB2025 = find_ruleset("bb2025")


def blitzer(ruleset: Ruleset, advancements: int = 0, spp: int = 100) -> PlayerRow:
    """A Human Blitzer (85,000 in both editions) with SPP to spend."""
    position = ruleset.catalogue.position("human", "blitzer")
    return PlayerRow(
        league_id="l",
        player_id="p1",
        team_id="men",
        name="Griff",
        roster="human",
        position="blitzer",
        ma=position.ma,
        st=position.st,
        ag=position.ag,
        pa=position.pa,
        av=position.av,
        skills=position.skills,
        base_cost=position.cost,
        spp=spp,
        advancements=({},) * advancements,
    )


def advanced(
    kind: str, skill: str | None = None, stat: str | None = None, die: DiceRoll | None = None
) -> ev.PlayerAdvanced:
    return ev.PlayerAdvanced.model_construct(
        team="men",
        player="p1",
        kind=kind,
        skill=skill,
        characteristic=stat,
        dice=(die,) if die else (),
    )


def spp_cost(kind: str, taken: int = 0) -> Callable[[Ruleset], object]:
    return lambda r: r.advancement(blitzer(r, taken), advanced(kind, "Tackle")).spp_cost


def value_of(kind: str, skill: str | None, stat: str | None = None) -> Callable[[Ruleset], object]:
    return lambda r: r.advancement(blitzer(r), advanced(kind, skill, stat)).value_increase


def refused(kind: str, skill: str, category: str, *dice: DiceRoll) -> Callable[[Ruleset], object]:
    def problems(r: Ruleset) -> object:
        team = TeamRow(league_id="l", team_id="men", name="Men", coach="c", roster="human")
        event = advanced(kind, skill).model_copy(update={"category": category, "dice": dice})
        return bool(said(r.check_advancement(blitzer(r), team, event)))

    return problems


def spp_earned(**achievements: int) -> Callable[[Ruleset], object]:
    return lambda r: r.spp_for(Performance(player="p1", **achievements), 0)


def inducement(item: str) -> Callable[[Ruleset], object]:
    return lambda r: {i.name: i.cost for i in pregame.inducements(r.data_dir).values()}.get(item)


def mistake(treasury: int, d6: int) -> Callable[[Ruleset], object]:
    return lambda r: mishap(r.tables(), treasury, d6)  # type: ignore[attr-defined]


def position(roster: str, position_id: str, field: str) -> Callable[[Ruleset], object]:
    return lambda r: getattr(r.catalogue.position(roster, position_id), field)


def reroll(roster: str) -> Callable[[Ruleset], object]:
    return lambda r: r.catalogue.team_list(roster).reroll_cost


RULES = [
    # 'Spending Star Player Points', Advancements table (bb2025: seed 001's table)
    ("chosen secondary, 1st", spp_cost("chosen_secondary"), 12, 10),
    ("characteristic, 1st", spp_cost("characteristic"), 18, 14),
    ("characteristic, 6th (Legend)", spp_cost("characteristic", 5), 50, 38),
    ("chosen secondary, 4th (Star)", spp_cost("chosen_secondary", 3), 22, 20),
    # a Blitzer's secondary Agility column, 1-3 then 4: Dodge
    (
        "a random Secondary skill may be bought",
        refused("random_secondary", "Dodge", "A", roll("random_skill", "2D6", 2, 4)),
        False,
        True,
    ),
    # 'Value Increase' table
    ("random primary skill", value_of("random_primary", "Tackle"), 10_000, 20_000),
    ("chosen primary Block", value_of("chosen_primary", "Block"), 20_000, 30_000),
    ("+1 AG", value_of("characteristic", None, "ag"), 40_000, 30_000),
    ("+1 ST", value_of("characteristic", None, "st"), 80_000, 60_000),
    # 'Earning Star Player Points'
    ("a deflection", spp_earned(deflections=1), 1, 0),
    ("a thrown player landing", spp_earned(landings=1), 0, 1),
    # 'Expensive Mistakes': 650,000 in the treasury, a D6 of 2; 250,000 and a 4
    ("650,000 and a 2", mistake(650_000, 2), "catastrophe", "major"),
    ("250,000 and a 4", mistake(250_000, 4), "averted", "averted"),
    ("450,000 and a 4", mistake(450_000, 4), "minor", "averted"),
    # 'Common Inducements'
    ("Temp Agency Cheerleaders", inducement("Temp Agency Cheerleaders"), 20_000, 5_000),
    ("Weather Mage", inducement("Weather Mage"), 30_000, 25_000),
    ("Riotous Rookies", inducement("Riotous Rookies"), 100_000, 150_000),
    ("Bloodweiser Kegs (2025: Blitzer's Best)", inducement("Bloodweiser Kegs"), 50_000, None),
    ("Special Plays", inducement("Special Plays"), 100_000, None),
    # Team lists (the examples)
    ("Human Catcher price", position("human", "catcher", "cost"), 65_000, 75_000),
    ("Human Catcher ST", position("human", "catcher", "st"), 2, 3),
    ("Human Catcher limit", position("human", "catcher", "max"), 4, 2),
    ("Dwarf re-roll", reroll("dwarf"), 50_000, 60_000),
]


@pytest.mark.parametrize(("rule", "figure", "season_2", "bb2025"), RULES, ids=[r[0] for r in RULES])
def test_season_2_differs_from_2025(
    rule: str, figure: Callable[[Ruleset], object], season_2: object, bb2025: object
) -> None:
    assert (figure(BB2020), figure(BB2025)) == (season_2, bb2025)


# --- the characteristic roll and random skills ------------------------------------------------


@pytest.mark.parametrize(
    ("d16", "stat", "allowed"),
    [
        (7, "av", True),
        (7, "ma", True),
        (7, "st", False),
        (13, "pa", True),
        (14, "ag", True),
        (14, "ma", False),
        (15, "st", True),
        (16, "st", True),
    ],
)
def test_the_characteristic_improvement_table_is_a_d16(d16: int, stat: str, allowed: bool) -> None:
    """'Characteristic Improvements': roll D16: 1-7 MA or AV, 8-13 MA, PA or AV, 14 AG or
    PA, 15 ST or AG, 16 a characteristic of your choice."""
    team = TeamRow(league_id="l", team_id="men", name="Men", coach="c", roster="human")
    event = advanced("characteristic", stat=stat, die=roll("characteristic", "D16", d16))
    assert (said(BB2020.check_advancement(blitzer(BB2020), team, event)) == []) == allowed


def test_a_characteristic_roll_may_be_a_chosen_secondary_skill_instead_at_40000() -> None:
    """'(or choose a Secondary skill)': a Blitzer (secondary A, P) takes Dodge on a D16 of 3."""
    team = TeamRow(league_id="l", team_id="men", name="Men", coach="c", roster="human")
    event = advanced("characteristic", "Dodge", die=roll("characteristic", "D16", 3))
    assert said(BB2020.check_advancement(blitzer(BB2020), team, event)) == []
    assert BB2020.advancement(blitzer(BB2020), event).value_increase == 40_000


def test_a_characteristic_roll_with_neither_choice_asks_for_the_characteristic() -> None:
    """A D16 of 3 improves MA or AV (or a Secondary skill is taken): a report of neither is
    asked which characteristic, not which skill."""
    team = TeamRow(league_id="l", team_id="men", name="Men", coach="c", roster="human")
    event = advanced("characteristic", die=roll("characteristic", "D16", 3))
    assert said(BB2020.check_advancement(blitzer(BB2020), team, event)) == [
        "name the characteristic the D16 roll of 3 improves (MA or AV),"
        " or a Secondary skill taken instead"
    ]


def test_a_2025_d8_is_no_season_2_characteristic_roll() -> None:
    team = TeamRow(league_id="l", team_id="men", name="Men", coach="c", roster="human")
    event = advanced("characteristic", stat="ma", die=roll("characteristic", "D8", 5))
    assert said(BB2020.check_advancement(blitzer(BB2020), team, event)) == [
        "a Season 2 characteristic improvement needs its D16 roll (purpose 'characteristic')"
    ]


@pytest.mark.parametrize(
    ("rolls", "skill", "problems"),
    [
        # General (G) column: 1-3/1 Block (he has it: re-rolled), 4-6/5 Tackle
        ([(2, 1), (5, 5)], "Tackle", []),
        ([(5, 5)], "Tackle", []),
        ([(5, 5), (4, 1)], "Pro", ["the roll gives Tackle, not Pro"]),
    ],
)
def test_a_random_skill_is_the_first_roll_giving_a_skill_he_lacks(
    rolls: list[tuple[int, int]], skill: str, problems: list[str]
) -> None:
    """'New Skills': roll two D6 on the Skill table, re-rolling a skill the player has;
    no choice between two rolls as in 2025."""
    team = TeamRow(league_id="l", team_id="men", name="Men", coach="c", roster="human")
    event = ev.PlayerAdvanced.model_construct(
        team="men",
        player="p1",
        kind="random_primary",
        skill=skill,
        category="G",
        dice=tuple(roll("random_skill", "2D6", *r) for r in rolls),
    )
    assert said(BB2020.check_advancement(blitzer(BB2020), team, event)) == problems


# --- winnings, fans, journeymen ---------------------------------------------------------------


def game_of(ruleset: str, jay_roll: int) -> Book:
    """Jay (Dedicated Fans 1) beats Dan 2-1; Fan Factor D3s of 3 and 2: attendance 7."""
    book = Book(ruleset)
    book.team("jay", "human", ["lineman"] * 11, treasury=0)
    book.team("dan", "human", ["lineman"] * 11, treasury=0)
    jay = [
        roll("fan_factor", "D3", 3, subject="jay"),
        roll("dedicated_fans", "D6", jay_roll, subject="jay"),
    ]
    dan = [
        roll("fan_factor", "D3", 2, subject="dan"),
        roll("dedicated_fans", "D6", 6, subject="dan"),
    ]
    book.record(
        ev.MatchRecorded,
        match="m1",
        season=1,
        home=sheet("jay", 2, dice=jay),
        away=sheet("dan", 1, dice=dan),
    )
    return book


@pytest.mark.parametrize(("ruleset", "winnings"), [("bb2020", 55_000), ("bb2025", 65_000)])
def test_winnings_are_half_the_attendance_plus_touchdowns_without_a_stalling_bonus(
    ruleset: str, winnings: int
) -> None:
    """'Winnings': (7 / 2 + 2) x 10,000 = 55,000; 2025 adds 10,000 for not stalling."""
    book = game_of(ruleset, jay_roll=1)
    assert book.team_row("jay").treasury == winnings


@pytest.mark.parametrize(
    ("roster", "line"),
    [
        ("dark_elf", "lineman"),
        ("dwarf", "lineman"),
        ("shambling_undead", "skeleton_lineman"),
    ],
)
def test_journeymen_come_from_the_0_12_line_too(roster: str, line: str) -> None:
    """'Player Positions': the team's Lineman is its 0-12 or 0-16 line (2025 needs 0-16)."""
    found = BB2020.journeyman_position(BB2020.catalogue.team_list(roster))  # type: ignore[attr-defined]
    assert found is not None
    assert found.id == line


@pytest.mark.parametrize(("ruleset", "stat"), [(BB2020, "st"), (BB2025, "ag")])
def test_each_edition_reads_its_own_characteristic_die_when_both_are_given(
    ruleset: Ruleset, stat: str
) -> None:
    """A what-if replay carries the recorded die and draws the target's: D8 7 (2025: AG or
    ST) and D16 15 (Season 2: ST or AG); each edition reads its own, in either order."""
    team = TeamRow(league_id="l", team_id="men", name="Men", coach="c", roster="human")
    dice = (roll("characteristic", "D8", 7), roll("characteristic", "D16", 15))
    for both in (dice, dice[::-1]):
        event = advanced("characteristic", stat=stat).model_copy(update={"dice": both})
        assert said(ruleset.check_advancement(blitzer(ruleset), team, event)) == []


@pytest.mark.parametrize(("ruleset", "fans"), [("bb2020", 5), ("bb2025", 1)])
def test_a_redrafted_team_keeps_its_dedicated_fans_in_season_2(ruleset: str, fans: int) -> None:
    """'Re-drafting' (Season 2 FAQ): "A team's Dedicated Fans value will carry over onto the
    new Team Draft list ... they are free"; bb2025 starts a re-drafted team again at 1."""
    book = Book(ruleset)
    book.team("rats", "skaven", ["clanrat"] * 11, treasury=0)
    book.record(ev.SeasonStarted, season=1, divisions=())  # no table: no prizes
    book.record(ev.SeasonClosed, season=1)
    state = book.fold()
    state.put(book.team_row("rats", state).model_copy(update={"fans": 5}))
    event = ev.TeamRedrafted.model_construct(
        team="rats", season=2, players=(), kept=(), originator_version=99, dice=()
    )
    rows = redraft_rows(state, book.league_id, book.team_row("rats", state), 2)
    effects = book.ruleset.redraft_outcomes(event, rows, DiceBox(book.league_id))
    redrafted = [e for e in effects if hasattr(e, "fans")]
    assert [e.fans for e in redrafted] == [fans]
