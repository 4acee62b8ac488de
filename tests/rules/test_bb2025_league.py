"""BB2025 league rules beyond one game, as data (seed 001 sections named per test)."""

from __future__ import annotations

import re

import pytest

from ledger.domain import events as ev
from ledger.domain.state import MatchRow, PlayerRow, SeasonRow, StandingRow, TeamRow
from ledger.domain.values import DiceRoll, Division, Fixture, Hireling, PointsScheme, TeamSheet
from ledger.projections.gather import redraft_rows
from ledger.rules import find_ruleset
from ledger.rules.base import rank_table
from ledger.rules.bb2025 import advancement, pregame, redraft
from ledger.rules.bb2025.season import podium
from ledger.rules.bb2025.tables import tables
from ledger.rules.dice import DiceBox
from ledger.rules.playoffs import first_round, halves_to_a_final, qualifiers, round_robin
from ledger.rules.protocol import LEVEL, Ranked
from tests.rules.seam import said
from tests.support import Book, roll

BB2025 = find_ruleset("bb2025")


def gutter_runner(**update: object) -> PlayerRow:
    player = PlayerRow(
        league_id="l",
        player_id="p1",
        team_id="rats",
        name="Skweek",
        roster="skaven",
        position="gutter_runner",
        ma=9,
        st=2,
        ag=2,
        pa=4,
        av=8,
        skills=("Dodge", "Stab"),
        base_cost=85_000,
        spp=60,
    )
    return player.model_copy(update=update)


def advance(
    kind: str, skill: str | None = None, stat: str | None = None, d8: int = 0
) -> ev.PlayerAdvanced:
    dice = (DiceRoll(purpose="characteristic", dice="D8", values=(d8,)),) if d8 else ()
    return ev.PlayerAdvanced.model_construct(
        team="rats", player="p1", kind=kind, skill=skill, characteristic=stat, dice=dice
    )


@pytest.mark.parametrize(
    ("taken", "kind", "cost"),
    [
        (0, "random_primary", 3),
        (0, "chosen_primary", 6),
        (0, "chosen_secondary", 10),
        (0, "characteristic", 14),
        (1, "characteristic", 16),
        (2, "chosen_primary", 12),
        (3, "random_primary", 8),
        (4, "chosen_secondary", 24),
        (5, "characteristic", 38),
    ],
)
def test_the_advancement_table(taken: int, kind: str, cost: int) -> None:
    """'Advancement Table': the SPP cost by advancements already taken and type."""
    player = gutter_runner(advancements=({},) * taken)
    assert advancement.cost(tables(), player, kind) == cost


@pytest.mark.parametrize(
    ("kind", "skill", "stat", "increase"),
    [
        ("chosen_primary", "Sprint", None, 20_000),  # primary (A)
        ("chosen_secondary", "Grab", None, 40_000),  # secondary (S)
        ("chosen_primary", "Block", None, 30_000),  # an Elite Skill: +10,000
        ("characteristic", None, "av", 10_000),
        ("characteristic", None, "ma", 20_000),
        ("characteristic", None, "ag", 30_000),
        ("characteristic", None, "st", 60_000),
    ],
)
def test_value_increases(kind: str, skill: str | None, stat: str | None, increase: int) -> None:
    """'Value Increase Table' (and 'New Skills': Elite Skills add 10,000)."""
    result = BB2025.advancement(gutter_runner(), advance(kind, skill, stat, d8=8))
    assert result.value_increase == increase


def test_skweek_is_worth_145000_with_three_primary_skills() -> None:
    """'Re-draft Team': "Skweek's Current Value is 145,000 ... three Primary Skills"."""
    book = Book()
    [skweek] = book.team("rats", "skaven", ["gutter_runner"])
    book.record(ev.TreasuryAdjusted, team="rats", amount=0, reason="setup")
    state = book.fold()
    state.put(book.player_row(skweek, state).model_copy(update={"spp": 30}))
    for skill in ("Sprint", "Sure Feet", "Sidestep"):
        player = book.player_row(skweek, state)
        result = BB2025.advancement(player, advance("chosen_primary", skill))
        assert (
            said(
                BB2025.check_advancement(
                    player, book.team_row("rats", state), advance("chosen_primary", skill)
                )
            )
            == []
        )
        state.put(
            player.model_copy(
                update={
                    "extra_value": player.extra_value + result.value_increase,
                    "advancements": (*player.advancements, {"skill": skill}),
                    "spp": player.spp - result.spp_cost,
                    "skills": (*player.skills, skill),
                }
            )
        )
    final = book.player_row(skweek, state)
    assert BB2025.player_value(final) == 145_000
    assert (
        redraft.rehire_price(
            tables(), final.model_copy(update={"value": 145_000, "seasons": (1,)}), season=2
        )
        == 165_000
    )


@pytest.mark.parametrize(
    ("d8", "stat", "ok"),
    [
        (1, "av", True),
        (1, "pa", False),
        (2, "pa", True),
        (3, "pa", True),
        (5, "ag", False),
        (6, "ag", True),
        (7, "st", True),
        (7, "ma", False),
        (8, "st", True),
    ],
)
def test_the_characteristic_improvement_table(d8: int, stat: str, ok: bool) -> None:
    problems = said(
        BB2025.check_advancement(
            gutter_runner(),
            None,  # type: ignore[arg-type]
            advance("characteristic", stat=stat, d8=d8),
        )
    )
    assert (problems == []) is ok


@pytest.mark.parametrize(
    ("d8", "skill", "problem"),
    [
        (
            3,
            None,
            "name the characteristic the D8 roll of 3 improves (AV or MA or PA),"
            " or a skill taken instead",
        ),
        (3, "Sprint", None),  # 'they can choose to select a Primary or Secondary Skill instead'
    ],
)
def test_a_characteristic_improvement_names_what_it_improves(
    d8: int, skill: str | None, problem: str | None
) -> None:
    """'Characteristic Improvement Table': the D8 gives the characteristics to choose from,
    or a skill instead; a choice of neither is asked for the characteristic."""
    problems = said(
        BB2025.check_advancement(
            gutter_runner(),
            None,  # type: ignore[arg-type]
            advance("characteristic", skill=skill, d8=d8),
        )
    )
    assert problems == ([] if problem is None else [problem])


def test_a_characteristic_improved_a_third_time_is_refused() -> None:
    twice = gutter_runner(advancements=({"characteristic": "ma"}, {"characteristic": "ma"}))
    problems = said(
        BB2025.check_advancement(
            twice,
            None,  # type: ignore[arg-type]
            advance("characteristic", stat="ma", d8=8),
        )
    )
    assert problems == ["Skweek's MA has already been improved 2 times (at most 2)"]


def test_a_characteristic_at_its_maximum_is_refused() -> None:
    fast = gutter_runner(ma=9)
    assert (
        "maximum"
        in said(
            BB2025.check_advancement(
                fast,
                None,  # type: ignore[arg-type]
                advance("characteristic", stat="ma", d8=8),
            )
        )[0]
    )


def random_skill(skill: str | None, category: str | None, *rolls: tuple[int, int]) -> list[str]:
    dice = tuple(DiceRoll(purpose="random_skill", dice="2D6", values=r) for r in rolls)
    event = ev.PlayerAdvanced.model_construct(
        team="rats", player="p1", kind="random_primary", skill=skill, category=category, dice=dice
    )
    return said(BB2025.check_advancement(gutter_runner(), None, event))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("skill", "category", "rolls", "problem"),
    [
        ("Catch", "A", [(1, 1), (4, 5)], None),  # Catch (1-3, 1) or Sprint (4-6, 5)
        ("Sprint", "A", [(1, 1), (4, 5)], None),
        ("Leap", "A", [(1, 1), (4, 5)], "the rolls give Catch or Sprint, not Leap"),
        (None, "A", [(1, 1), (4, 5)], "the rolls give Catch or Sprint: choose one as the skill"),
        ("Catch", "A", [(1, 1)], "or the ledger to roll them: 1 of the 1 given does"),
        # Skweek has Dodge (1-3, 4) already: that roll is rolled again
        ("Sprint", "A", [(1, 4), (1, 1), (4, 5)], None),
        ("Catch", "A", [(1, 4), (1, 1)], "1 of the 2 given does"),
        ("Catch", None, [(1, 1), (4, 5)], "name its category, A (Agility), D (Devious) or G"),
        (
            "Block",
            "S",
            [(1, 1), (4, 5)],
            "is rolled on A (Agility), D (Devious) or G (General), not on S (Strength)",
        ),
    ],
)
def test_a_random_skill_is_one_of_two_rolled_on_the_skill_table(
    skill: str | None, category: str | None, rolls: list[tuple[int, int]], problem: str | None
) -> None:
    """'New Skills': "roll two D6, one after the other ... Do this twice, and then choose
    which of the two randomly rolled Skills you wish your player to receive." """
    problems = random_skill(skill, category, *rolls)
    if problem is None:
        assert problems == []
    else:
        assert len(problems) == 1
        assert problem in problems[0]


def test_a_player_who_can_afford_a_characteristic_must_advance() -> None:
    """'Spending Star Player Points': enough SPP for a characteristic improvement means
    an advancement must be taken before the post-game sequence ends."""
    assert said(BB2025.check_close(None, [gutter_runner(spp=14)]))  # type: ignore[arg-type]
    assert said(BB2025.check_close(None, [gutter_runner(spp=13)])) == []  # type: ignore[arg-type]


def test_ctv_leaves_out_missing_and_temporarily_retired_players() -> None:
    """'Prepare for Next Fixture' and 'Temporarily Retiring'."""
    book = Book()
    ids = book.team("rats", "skaven", ["gutter_runner", "blitzer", "clanrat"])
    book.record(
        ev.SidelinePurchased,
        team="rats",
        purchases=(
            {"item": "reroll", "count": 2, "price": 100_000},
            {"item": "apothecary", "count": 1, "price": 50_000},
        ),
    )
    book.record(ev.PlayerTemporarilyRetired, team="rats", player=ids[1])
    state = book.fold()
    state.put(book.player_row(ids[0], state).model_copy(update={"miss_next_game": True}))
    team = book.team_row("rats", state)
    players = state.select(PlayerRow, league_id=book.league_id, team_id="rats")
    assert BB2025.team_values(team, players) == {
        "tv": 85_000 + 90_000 + 50_000 + 2 * 50_000 + 50_000,
        "ctv": 50_000 + 150_000,
    }


def test_rerolls_cost_double_after_the_draft() -> None:
    team = TeamRow(league_id="l", team_id="t", name="T", coach="c", roster="orc")
    assert BB2025.sideline_price(team, "reroll", 1) == 60_000
    assert (
        BB2025.sideline_price(team.model_copy(update={"drafting": False}), "reroll", 1) == 120_000
    )


def test_petty_cash_the_worked_example() -> None:
    """'Inducements': 1,240,000 v 1,160,000; Jay's Keg 50,000; Dan adds 10,000: 140,000."""
    jay = BB2025.inducement_budget(1_240_000, 1_160_000, 0, treasury=200_000)
    assert (jay.petty_cash, jay.treasury) == (0, 200_000)
    keg = BB2025.inducement_offer(
        TeamRow(league_id="l", team_id="t", name="T", coach="c", roster="human")
    )["blitzers_best_kegs"].price
    dan = BB2025.inducement_budget(1_160_000, 1_240_000, keg, treasury=200_000)
    assert dan.petty_cash == 130_000
    assert dan.treasury == 50_000  # "up to a maximum of 50,000 gold pieces"
    assert dan.petty_cash + 10_000 == 140_000
    even = BB2025.inducement_budget(1_000_000, 1_000_000, 0, treasury=500_000)
    assert (even.petty_cash, even.treasury) == (0, 0)


def test_journeymen_fill_the_team_to_eleven_and_count_in_ctv() -> None:
    """'Take on Journeymen': Jay's nine Skaven take two Clanrats, in CTV."""
    book = Book()
    book.team("rats", "skaven", ["clanrat"] * 9)
    state = book.fold()
    players = state.select(PlayerRow, league_id=book.league_id, team_id="rats")
    assert pregame.journeymen_needed(players) == 2
    team_list = BB2025.catalogue.team_list("skaven")
    assert pregame.journeyman_position(team_list) == team_list.position("clanrat")
    team = book.team_row("rats", state)
    assert BB2025.game_value(team, players) == 9 * 50_000 + 2 * 50_000


JOURNEYMEN_CASES = {
    # seed 001 'Take on Journeymen': "may not take the number of players able to play the
    # game over 11"; "always a player ... with the Lineman position that have a QTY of 0-16"
    "nine able, two clanrats": (9, ["clanrat", "clanrat"], []),
    "nine able, three clanrats": (9, ["clanrat"] * 3, ["may take 2 Journeymen, not 3"]),
    "eleven able, one clanrat": (11, ["clanrat"], ["may take 0 Journeymen, not 1"]),
    "ten able, a blitzer": (10, ["blitzer"], ["not 'blitzer'"]),
    "ten able, no position": (10, [None], ["not 'no position'"]),
}


@pytest.mark.parametrize("case", JOURNEYMEN_CASES)
def test_journeymen_are_clanrats_that_bring_the_team_up_to_eleven(case: str) -> None:
    able, positions, expected = JOURNEYMEN_CASES[case]
    book = Book()
    book.team("rats", "skaven", ["clanrat"] * able)
    players = book.fold().select(PlayerRow, league_id=book.league_id, team_id="rats")
    hirelings = tuple(
        Hireling(id=f"j{i}", name=f"Jo {i}", kind="journeyman", position=position)
        for i, position in enumerate(positions)
    )
    sheet = TeamSheet(team="rats", touchdowns=0, hirelings=hirelings)
    lines = BB2025.journeyman_positions(BB2025.catalogue.team_list("skaven"))
    found = pregame.journeymen_problems(sheet, "Rats", players, lines)
    assert len(found) == len(expected), found
    for problem, words in zip(found, expected, strict=True):
        assert words in problem
        assert "('Take on Journeymen')" in problem


@pytest.mark.parametrize(
    ("played", "won", "drawn", "treasury", "capped", "budget"),
    [
        (6, 3, 1, 50_000, True, 1_000_000 + 50_000 + 120_000 + 60_000 + 10_000),
        (6, 6, 0, 200_000, True, 1_300_000),  # 1,440,000 over the cap
        (6, 6, 0, 200_000, False, 1_440_000),  # a league without the cap
    ],
)
def test_raise_funds(
    played: int, won: int, drawn: int, treasury: int, capped: bool, budget: int
) -> None:
    """'Raise Funds': 1,000,000 + treasury + 20,000 per fixture + 20,000 per win +
    10,000 per draw, capped at 1,300,000 when the league uses the cap."""
    book = Book()
    book.team("t", "human", ["lineman"] * 11, treasury=treasury)
    state = book.fold()
    results = ["t"] * won + [None] * drawn + ["x"] * (played - won - drawn)
    for i, winner in enumerate(results):
        state.put(
            MatchRow(
                league_id=book.league_id,
                match_id=f"m{i}",
                season=1,
                home="t",
                away="x",
                status="played",
                winner=winner,
            )
        )
    rows = redraft_rows(state, book.league_id, book.team_row("t", state), 2)
    found, note = redraft.budget(tables(), rows, 2, capped)
    assert found == budget
    counted = ("fixture", played), ("win", won), ("draw", drawn)
    for word, n in counted:  # '1 draw', '3 wins': the words count
        assert re.search(rf"\b{n} {word}{'' if n == 1 else 's'}\b", note), note


def test_rest_and_relaxation_heals_on_four_plus_with_the_apothecary() -> None:
    book = Book()
    [rat] = book.team("rats", "skaven", ["clanrat"], treasury=50_000)
    book.record(
        ev.SidelinePurchased,
        team="rats",
        purchases=({"item": "apothecary", "count": 1, "price": 50_000},),
    )
    book.record(ev.SeasonStarted, season=1, divisions=())  # no table: no prizes
    book.record(ev.SeasonClosed, season=1)
    state = book.fold()
    state.put(book.player_row(rat, state).model_copy(update={"niggling": 2}))
    redraft_event = ev.TeamRedrafted.model_construct(
        team="rats",
        season=2,
        players=(),
        kept=(),
        originator_version=99,  # the event's number (``seq``)
        dice=(roll("niggling_recovery", "2D6", 3, 2, subject=rat),),
    )
    rows = redraft_rows(state, book.league_id, book.team_row("rats", state), 2)
    effects = BB2025.redraft_outcomes(redraft_event, rows, DiceBox(league=book.league_id))
    healed = [e for e in effects if getattr(e, "what", None) == "niggling"]
    assert len(healed) == 1  # 3 + 1 heals, 2 + 1 does not


def test_the_off_season_acts_on_the_current_roster_only() -> None:
    """'Off-season and Re-drafting': the team's players rest and are re-hired or retire; a
    player who has left the team (here: fired with a game to miss and a niggling injury)
    is not among them, and nothing of the re-draft touches him."""
    book = Book()
    kept, fired = book.team("rats", "skaven", ["clanrat", "clanrat"], treasury=50_000)
    book.record(ev.PlayerFired, team="rats", player=fired)
    book.record(ev.SeasonStarted, season=1, divisions=())  # no table: no prizes
    book.record(ev.SeasonClosed, season=1)
    state = book.fold()
    for player in (kept, fired):
        hurt = {"niggling": 1, "miss_next_game": True}
        state.put(book.player_row(player, state).model_copy(update=hurt))
    rows = redraft_rows(state, book.league_id, book.team_row("rats", state), 2)
    assert [p.player_id for p in rows.side.players] == [kept]
    redraft_event = ev.TeamRedrafted.model_construct(
        team="rats", season=2, players=(), kept=(), originator_version=99, dice=()
    )
    needs = BB2025.redraft_dice(rows.team, rows.side.players)
    assert [need.subject for need in needs] == [kept]
    effects = BB2025.redraft_outcomes(
        redraft_event.model_copy(
            update={"dice": (roll("niggling_recovery", "1D6", 4, subject=kept),)}
        ),
        rows,
        DiceBox(league=book.league_id),
    )
    touched = {getattr(e, "player", None) for e in effects} - {None}
    assert touched == {kept}


def test_league_points_and_tiebreakers() -> None:
    """'League Scoring' 3/1/0; ties broken by touchdown difference, touchdowns scored,
    casualties, then head-to-head."""
    rows = [
        StandingRow(league_id="l", season=1, team_id=t, points=p, td_for=f, td_against=a, cas_for=c)
        for t, p, f, a, c in [
            ("a", 6, 5, 3, 2),
            ("b", 6, 6, 4, 1),
            ("c", 6, 5, 3, 4),
            ("d", 1, 1, 9, 0),
        ]
    ]
    ranked = rank_table(rows, [], PointsScheme())
    assert [r.team_id for r in ranked] == ["b", "c", "a", "d"]
    assert [r.separated_by for r in ranked[:2]] == ["touchdowns_for", "casualties_for"]


def test_head_to_head_decides_between_otherwise_equal_teams() -> None:
    rows = [
        StandingRow(league_id="l", season=1, team_id=t, points=3, td_for=2, td_against=2)
        for t in ("x", "y")
    ]
    ranked = rank_table(rows, [("y", "x", 2, 1)], PointsScheme())
    assert [(r.team_id, r.separated_by) for r in ranked] == [("y", "head_to_head"), ("x", None)]


def test_teams_level_on_every_tiebreaker_share_their_place() -> None:
    """'League Scoring' leaves truly level teams to the commissioner: the table lists
    them in team-id order but gives them the same place, and the next team counts both
    (1, 1, 3)."""
    rows = [
        StandingRow(league_id="l", season=1, team_id=t, points=p, td_for=2, td_against=2)
        for t, p in [("q", 4), ("p", 4), ("r", 4), ("s", 1)]
    ]
    ranked = rank_table(rows, [], PointsScheme())
    assert [(r.team_id, r.rank, r.separated_by) for r in ranked] == [
        ("p", 1, LEVEL),
        ("q", 1, LEVEL),
        ("r", 1, None),
        ("s", 4, None),
    ]


@pytest.mark.parametrize(("mode", "points"), [("added", 3 + 2), ("tiebreak", 3)])
def test_bonus_points_added_or_as_tiebreaker(mode: str, points: int) -> None:
    """'League Scoring': 3+ touchdowns, no touchdowns conceded, 3+ SPP casualties."""
    book = Book(options={"bonus_points": mode})
    book.team("jay", "human", ["lineman"] * 11)
    book.team("dan", "skaven", ["clanrat"] * 11)
    book.record(
        ev.MatchRecorded,
        match="g",
        season=1,
        home={
            "team": "jay",
            "touchdowns": 3,
            "dice": (
                roll("fan_factor", "D3", 1, subject="jay"),
                roll("dedicated_fans", "D6", 1, subject="jay"),
            ),
        },
        away={
            "team": "dan",
            "touchdowns": 0,
            "dice": (
                roll("fan_factor", "D3", 1, subject="dan"),
                roll("dedicated_fans", "D6", 1, subject="dan"),
            ),
        },
    )
    row = book.standing("jay")
    assert (row.points, row.bonus) == (points, 2)


def test_round_robin_and_playoff_bracket() -> None:
    """'Regular Season' and 'Play-offs': every pair meets once; qualifiers equally from
    each division plus the best third-placed; no first-round tie within a division."""
    north = Division(name="North", teams=("a", "b", "c", "d"))
    fixtures = round_robin(1, north)
    pairs = {frozenset((f.home, f.away)) for f in fixtures}
    assert len(fixtures) == 6 == len(pairs)
    assert {f.round for f in fixtures} == {1, 2, 3}
    tables_ = {"N": ["a", "b", "c"], "S": ["d", "e", "f"], "E": ["g", "h", "i"]}
    points = {"a": 9, "b": 7, "c": 5, "d": 9, "e": 6, "f": 4, "g": 8, "h": 7, "i": 6}
    chosen = qualifiers(tables_, 8, lambda t: (points[t],))
    assert [q[0] for q in chosen] == ["a", "b", "d", "e", "g", "h", "i", "c"]
    bracket = first_round(1, chosen, lambda t: (points[t],))
    division = {team: name for name, order in tables_.items() for team in order}
    assert all(division[f.home] != division[f.away] for f in bracket)
    assert {f.stage for f in bracket} == {"quarter-final"}


def test_prizes_and_the_trophy() -> None:
    """'Glittering Prizes': 100,000 / 60,000 / 30,000 and the League Trophy's re-roll,
    which counts in TV while held."""
    book = Book()
    for team in ("a", "b", "c", "d"):
        book.team(team, "human", ["lineman"] * 11)
    book.record(
        ev.SeasonStarted,
        season=1,
        divisions=(Division(name="", teams=("a", "b", "c", "d")),),
        playoff_teams=4,
    )
    book.record(
        ev.FixturesScheduled,
        season=1,
        fixtures=(
            Fixture(id="final", round=2, division="", home="b", away="c", stage="final"),
            Fixture(id="third", round=2, division="", home="a", away="d", stage="third-place"),
        ),
    )
    for match, home, away in (("final", "b", "c"), ("third", "a", "d")):
        book.record(
            ev.MatchRecorded,
            match=match,
            kind="playoff",
            home={
                "team": home,
                "touchdowns": 2,
                "dice": (
                    roll("fan_factor", "D3", 1, subject=home),
                    roll("dedicated_fans", "D6", 6, subject=home),
                ),
            },
            away={
                "team": away,
                "touchdowns": 1,
                "dice": (
                    roll("fan_factor", "D3", 1, subject=away),
                    roll("dedicated_fans", "D6", 6, subject=away),
                ),
            },
        )
    before = {t: book.team_row(t).treasury for t in "abcd"}
    book.record(ev.SeasonClosed, season=1)
    state = book.fold()
    prizes = {t: book.team_row(t, state).treasury - before[t] for t in "abcd"}
    assert prizes == {"b": 100_000, "c": 60_000, "a": 30_000, "d": 0}
    assert book.team_row("b", state).trophy
    assert book.team_row("b", state).values["tv"] == 11 * 50_000 + 50_000
    season = state.get(SeasonRow, book.league_id, 1)
    assert season is not None
    assert season.trophy_holder == "b"


def played_off(match_id: str, stage: str, home: str, away: str, winner: str) -> MatchRow:
    return MatchRow(
        league_id="l", match_id=match_id, home=home, away=away, stage=stage, winner=winner
    )


def ranked(*teams: str) -> list[Ranked]:
    return [
        Ranked(team_id=t, rank=n, row=StandingRow(league_id="l", season=1, team_id=t))
        for n, t in enumerate(teams, start=1)
    ]


@pytest.mark.parametrize(
    ("case", "matches", "places"),
    [
        (
            "a final of two: 3rd from the table",
            [played_off("f", "final", "b", "c", "c")],
            ["c", "b", "a"],
        ),
        (
            "semi-finals, no third-place game: the better semi-final loser",
            [
                played_off("s1", "semi-final", "a", "d", "d"),
                played_off("s2", "semi-final", "b", "e", "b"),
                played_off("f", "final", "d", "b", "d"),
            ],
            ["d", "b", "a"],
        ),
        (
            "the third-place game decides",
            [
                played_off("s1", "semi-final", "a", "d", "d"),
                played_off("s2", "semi-final", "b", "e", "b"),
                played_off("f", "final", "d", "b", "d"),
                played_off("t", "third-place", "a", "e", "e"),
            ],
            ["d", "b", "e"],
        ),
    ],
    ids=["final-only", "no-third-place-game", "third-place-game"],
)
def test_the_podium_fills_what_the_play_offs_leave_open(
    case: str, matches: list[MatchRow], places: list[str]
) -> None:
    """'Glittering Prizes' pays 1st, 2nd and 3rd place; the round-2 tester's season of two
    qualifiers paid no 3rd (table: a, b, c, d, e, f)."""
    assert podium(matches, ranked("a", "b", "c", "d", "e", "f")) == places, case


@pytest.mark.parametrize(
    ("teams", "halves"), [(2, True), (4, True), (8, True), (16, True), (3, False), (6, False)]
)
def test_a_knockout_halves_its_qualifiers_to_a_final(teams: int, halves: bool) -> None:
    """'Qualifying for the Play-offs': "we'd recommend either 4, 8 or 16 teams qualify";
    'Play-offs': knockout rounds, the semi-finals' winners to the final."""
    assert halves_to_a_final(teams) is halves
