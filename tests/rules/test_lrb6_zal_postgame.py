"""lrb6-zal: the post-match sequence: Fan Factor Table, SPP, casualties, forfeits,
bounties, no spiralling expenses and the league table.

Source: shared/seeds/000_e199eb2e30fe6ef5.txt: FAN FACTOR TABLE, ZAL 3d, 15, 16a-b, ZAL 9a-b
(forfeits), ZAL 18 (no spiralling costs), ZAL 21 (bounties), ZAL 6 (a league of wins,
draws and losses); LRB6 p.25 for the Casualty Table. Readings: docs/rulesets/lrb6-zal.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.domain import events as ev
from ledger.domain.values import Concession, Fixture
from ledger.errors import InvalidDice, InvalidInput
from ledger.rules.dice import DiceBox
from ledger.rules.lrb6_zal.tables import tables
from tests.rules.seam import checked, dice_for, said
from tests.rules.test_lrb6_zal_book import (
    HUMANS,
    ORCS,
    Zal,
    gold_lines,
    hurt,
    killed,
    played,
    side,
)
from tests.support import roll

# --- Fan Factor Table -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "fan_roll", "change"),
    [
        ((0, 1), 2, -1),  # lost: 2 - 1 = 1, '1 or Less' loses a point
        ((0, 1), 3, 0),  # lost: 2, stays
        ((1, 1), 2, 0),  # drawn: no modifier
        ((1, 1), 5, 0),
        ((1, 1), 6, 1),  # '6 or More' gains a point
        ((1, 0), 5, 1),  # won: 5 + 1 = 6
        ((2, 0), 3, 0),  # won, 2+ TDs: 3 + 1 + 1 = 5
        ((2, 0), 4, 1),  # 4 + 1 + 1 = 6
        ((0, 2), 1, -1),
        ((0, 2), 6, 0),  # lost: 6 - 1 = 5
    ],
)
def test_fan_factor_table(score: tuple[int, int], fan_roll: int, change: int) -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS, fans=3)
    zal.team("orcs", "orc", ORCS)
    zal.match(side("humans", score[0], fans=3, fan=fan_roll), side("orcs", score[1]))
    assert zal.team_row("humans").fans == 3 + change


@pytest.mark.parametrize(
    ("all_count", "fans"),
    [(True, 4), (False, 3)],  # ZAL 16b: 'all Casualties ... are counted' for the roll
)
def test_two_casualties_count_every_casualty_the_opponents_suffered(
    all_count: bool, fans: int
) -> None:
    zal = Zal({"all_casualties_count": all_count})
    humans = zal.team("humans", "human", HUMANS, fans=3)
    orcs = zal.team("orcs", "orc", ORCS)
    zal.match(
        side("humans", 0, [played(humans[0])], fans=3, fan=5),  # drawn: 5 + 1 for 2+ CAS
        side("orcs", 0, [played(orcs[0]), played(orcs[1])]),
        casualties=[hurt(orcs[0], humans[0]), hurt(orcs[1], None, "going_for_it")],
    )
    assert zal.team_row("humans").fans == fans
    assert zal.standing("humans").cas_for == (2 if all_count else 1)


@pytest.mark.parametrize(("stage", "fans"), [("regular", 3), ("semi-final", 3), ("final", 4)])
def test_cup_semi_finals_and_finals_raise_the_fan_roll(stage: str, fans: int) -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS, fans=3)
    zal.team("orcs", "orc", ORCS)
    fixture = Fixture(id="cup", round=1, division="cup", home="humans", away="orcs", stage=stage)
    zal.book.record(ev.SeasonStarted, season=1, divisions=())  # a season schedules fixtures
    zal.book.record(ev.FixturesScheduled, season=1, fixtures=(fixture,))
    zal.match(side("humans", 0, fans=3, fan=4), side("orcs", 0), match="cup", kind="playoff")
    # drawn 4, + 1 semi-final (5: stays) or + 2 final (6: up)
    assert zal.team_row("humans").fans == fans


def test_fan_factor_never_drops_below_nothing() -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS, fans=1)
    zal.team("orcs", "orc", ORCS)
    zal.match(side("humans", 0, fan=1), side("orcs", 1))
    zal.match(side("humans", 0, fans=0, fan=1), side("orcs", 1))
    assert zal.team_row("humans").fans == 0


# --- Star Player Points -----------------------------------------------------------------------


def test_spp_awards_of_lrb6_with_throw_team_mate_completions() -> None:
    zal = Zal()
    humans = zal.team("humans", "human", [*HUMANS[:10], "ogre"])
    orcs = zal.team("orcs", "orc", ORCS)
    zal.match(
        side(
            "humans",
            1,
            [
                played(humans[0], touchdowns=1, mvps=1),  # 3 + 5
                played(humans[2], completions=2, interceptions=1),  # 2 + 2
                played(humans[10], throws=2, superb_throws=1),  # ZAL 16a: 2 completions
            ],
        ),
        side("orcs", 0, [played(orcs[0])]),
        casualties=[hurt(orcs[0], humans[0])],  # + 2
    )
    state = zal.fold()
    assert [zal.player(p, state).spp for p in (humans[0], humans[2], humans[10])] == [10, 4, 2]


@pytest.mark.parametrize(
    ("cause", "by_blocker", "recovered", "spp"),
    [
        ("block", True, False, 2),  # made a block
        ("block", False, False, 2),  # was himself the target of the block
        ("foul", True, False, 2),  # committed a foul
        ("block", True, True, 2),  # ZAL 3d: healed by the apothecary, SPP still awarded
        ("crowd", True, False, 0),
        ("card", True, False, 0),  # 'Flying Fist or Banana Skin'
        ("going_for_it", True, False, 0),
        ("failed_dodge", True, False, 0),
        ("secret_weapon", True, False, 0),
    ],
)
def test_casualty_spp_only_for_a_block_or_a_foul(
    cause: str, by_blocker: bool, recovered: bool, spp: int
) -> None:
    zal = Zal()
    humans = zal.team("humans", "human", HUMANS)
    orcs = zal.team("orcs", "orc", ORCS)
    credited = humans[0] if by_blocker else humans[1]
    zal.match(
        side("humans", 0, [played(credited)]),
        side("orcs", 0, [played(orcs[0])]),
        casualties=[hurt(orcs[0], credited, cause, recovered=recovered)],
    )
    assert zal.player(credited).spp == spp


@pytest.mark.parametrize(
    ("spp", "title", "rolls"),
    [
        (0, "Rookie", 0),
        (5, "Rookie", 0),
        (6, "Experienced", 1),
        (15, "Experienced", 1),
        (16, "Veteran", 2),
        (30, "Veteran", 2),
        (31, "Emerging Star", 3),
        (50, "Emerging Star", 3),
        (51, "Star", 4),
        (75, "Star", 4),
        (76, "Super Star", 5),
        (175, "Super Star", 5),
        (176, "Legend", 6),
        (400, "Legend", 6),
    ],
)
def test_spp_levels_titles_and_star_player_rolls(spp: int, title: str, rolls: int) -> None:
    from ledger.rules.lrb6.advancement import level

    found = level(tables(), spp)
    assert (found.title, found.rolls) == (title, rolls)


# --- the LRB6 Casualty Table (D68) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("d68", "outcome", "effects"),
    [
        (11, "badly_hurt", ()),
        (38, "badly_hurt", ()),
        (41, "broken_ribs", ("miss_next_game",)),
        (48, "pinched_nerve", ("miss_next_game",)),
        (51, "damaged_back", ("miss_next_game", "niggling")),
        (52, "smashed_knee", ("miss_next_game", "niggling")),
        (53, "smashed_hip", ("miss_next_game", "-ma")),
        (55, "serious_concussion", ("miss_next_game", "-av")),
        (57, "broken_neck", ("miss_next_game", "-ag")),
        (58, "smashed_collar_bone", ("miss_next_game", "-st")),
        (61, "dead", ("dead",)),
        (68, "dead", ("dead",)),
    ],
)
def test_casualty_table_d68(d68: int, outcome: str, effects: tuple[str, ...]) -> None:
    ruleset = Zal().ruleset
    whole = roll("casualty", "D68", d68)
    assert ruleset.casualty_from_report(None, (), [whole]) == (outcome, effects)
    split = [roll("casualty_d6", "D6", d68 // 10), roll("casualty_d8", "D8", d68 % 10)]
    assert ruleset.casualty_from_report(None, (), split) == (outcome, effects)


@pytest.mark.parametrize("d68", [19, 49, 71, 4])
def test_a_roll_that_is_no_d68_is_refused(d68: int) -> None:
    with pytest.raises(InvalidDice):
        Zal().ruleset.casualty_from_report(None, (), [roll("casualty", "D68", d68)])


def test_a_casualty_may_be_named_instead_of_rolled() -> None:
    ruleset = Zal().ruleset
    assert ruleset.casualty_from_report("fractured_skull", (), []) == (
        "fractured_skull",
        ("miss_next_game", "-av"),
    )
    with pytest.raises(InvalidInput, match="not an LRB6 casualty result"):
        ruleset.casualty_from_report("lasting_injury", (), [])


def test_a_casualty_roll_must_agree_with_its_outcome() -> None:
    casualty = hurt("p1", "p2", outcome="gouged_eye", effects=["miss_next_game"])
    rolled = casualty.model_copy(update={"dice": (roll("casualty", "D68", 43),)})
    assert said(Zal().ruleset.check_casualty(rolled)) == []
    wrong = casualty.model_copy(update={"dice": (roll("casualty", "D68", 44),)})
    assert said(Zal().ruleset.check_casualty(wrong))


def test_a_serious_injury_misses_the_next_match_and_lasts() -> None:
    zal = Zal()
    humans = zal.team("humans", "human", HUMANS)
    zal.team("orcs", "orc", ORCS)
    smashed = hurt(humans[4], None, "going_for_it", "smashed_hip", ["miss_next_game", "-ma"])
    zal.match(side("humans", 0, [played(humans[4])]), side("orcs"), casualties=[smashed])
    assert (zal.player(humans[4]).ma, zal.player(humans[4]).miss_next_game) == (5, True)
    zal.match(side("humans"), side("orcs"))
    assert (zal.player(humans[4]).ma, zal.player(humans[4]).miss_next_game) == (5, False)


# --- forfeits (ZAL 9) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "ok"),
    [((3, 0), True), ((4, 1), True), ((5, 5), False), ((3, 1), False), ((2, 0), False)],
)
def test_a_voluntary_forfeit_is_won_3_0_or_by_a_higher_score(
    score: tuple[int, int], ok: bool
) -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS)
    zal.team("orcs", "orc", ORCS)
    draft = zal.draft_match(
        side("humans", score[0]),
        side("orcs", score[1]),
        concession=Concession(team="orcs", kind="forfeit_voluntary"),
    )
    assert (checked(zal.ruleset, zal.fold(), zal.league_id, draft) == []) is ok


def test_lrb6_concessions_are_zal_forfeits() -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS)
    zal.team("orcs", "orc", ORCS)
    draft = zal.draft_match(
        side("humans", 3), side("orcs"), concession=Concession(team="orcs", kind="conceded")
    )
    assert checked(zal.ruleset, zal.fold(), zal.league_id, draft) == [
        "ZAL forfeits are forfeit_forced (ZAL 9a) or forfeit_voluntary (ZAL 9b), not conceded"
    ]


def veteran(zal: Zal, orcs: list[str], spp: int) -> str:
    """A goalless first match (gate 15,000) that makes a veteran of the Orcs' first
    player, then a Star Player hired: the two the ZAL 9b walk-out roll is for."""
    zal.match(side("humans", 0, fans=2), side("orcs", 0, [played(orcs[0], mvps=spp // 5)], fans=3))
    return zal.hire_star("orcs", "bomber_dribblesnot")


@pytest.mark.parametrize(
    ("spp", "walkout", "leaves"), [(50, 1, False), (55, 3, True), (55, 4, False)]
)
def test_a_voluntary_forfeit_costs_fans_winnings_and_veterans(
    spp: int, walkout: int, leaves: bool
) -> None:
    zal = Zal()
    humans = zal.team("humans", "human", HUMANS, fans=2)
    orcs = zal.team("orcs", "orc", ORCS, fans=3, treasury=60_000)
    star = veteran(zal, orcs, spp)
    walkouts = [
        roll(f"walkout_{orcs[0]}", "D6", walkout, subject="orcs"),
        roll(f"walkout_{star}", "D6", 4, subject="orcs"),
    ]
    zal.match(
        side(
            "humans",
            3,
            [played(humans[0], touchdowns=3, mvps=1), played(humans[1], mvps=1)],
            fans=2,
        ),
        side("orcs", 0, [played(orcs[0], touchdowns=1)], fans=3, fan=None, extra=walkouts),
        concession=Concession(team="orcs", kind="forfeit_voluntary"),
    )
    state = zal.fold()
    # gate 15,000, both teams under TR 100 (+1): the Humans win (3 + 1 + 1) and take the
    # Orcs' (3 + 1) too; the first match paid each 3 + 1
    assert gold_lines(state, "humans", "winnings") == [40_000, 50_000, 40_000]
    assert gold_lines(state, "orcs", "winnings") == [40_000]
    assert zal.team_row("orcs", state).fans == 2  # automatically, no roll
    assert (zal.player(orcs[0], state).status == "left") is leaves
    assert zal.player(star, state).status == "active"  # rolled 4: stays
    assert zal.player(orcs[0], state).spp == spp + 3  # keeps his touchdown's SPP
    assert zal.player(humans[1], state).spp == 5  # the winner's extra MVP


def test_a_voluntary_forfeit_asks_a_walkout_roll_for_each_veteran_and_star() -> None:
    zal = Zal()
    humans = zal.team("humans", "human", HUMANS, fans=2)
    orcs = zal.team("orcs", "orc", ORCS, fans=3, treasury=60_000)
    star = veteran(zal, orcs, 55)
    draft = zal.draft_match(
        side("humans", 3, [played(humans[0], mvps=1), played(humans[1], mvps=1)]),
        side("orcs", 0),
        concession=Concession(team="orcs", kind="forfeit_voluntary"),
    )
    needs = dice_for(zal.ruleset, zal.fold(), zal.league_id, draft)
    orc_rolls = sorted(n.purpose for n in needs if n.subject == "orcs")
    assert orc_rolls == ["gate", f"walkout_{orcs[0]}", f"walkout_{star}", "winnings"]
    assert checked(zal.ruleset, zal.fold(), zal.league_id, draft) == []


@pytest.mark.parametrize(
    ("winner_mvps", "forfeiter_mvps", "problems"),
    [
        (2, 0, 0),  # one each + 1 for the winner; 'no MVP' for the coach giving up
        (3, 0, 1),
        (2, 1, 1),
    ],
)
def test_a_voluntary_forfeit_moves_the_mvp_to_the_winner(
    winner_mvps: int, forfeiter_mvps: int, problems: int
) -> None:
    zal = Zal()
    humans = zal.team("humans", "human", HUMANS)
    orcs = zal.team("orcs", "orc", ORCS)
    draft = zal.draft_match(
        side("humans", 3, [played(p, mvps=1) for p in humans[:winner_mvps]]),
        side("orcs", 0, [played(p, mvps=1) for p in orcs[:forfeiter_mvps]]),
        concession=Concession(team="orcs", kind="forfeit_voluntary"),
    )
    assert len(checked(zal.ruleset, zal.fold(), zal.league_id, draft)) == problems


def test_a_forced_forfeit_is_played_out_as_usual() -> None:
    zal = Zal()
    humans = zal.team("humans", "human", HUMANS)
    orcs = zal.team("orcs", "orc", ORCS)
    draft = zal.draft_match(
        side("humans", 1, [played(humans[0], mvps=1)]),
        side("orcs", 1, [played(orcs[0], mvps=1)]),
        concession=Concession(team="orcs", kind="forfeit_forced"),
    )
    assert checked(zal.ruleset, zal.fold(), zal.league_id, draft) == []
    zal.match(draft.home, draft.away, concession=draft.concession)
    state = zal.fold()
    assert gold_lines(state, "orcs", "winnings") == [40_000]  # gate 6,000: 3 + 1
    assert zal.team_row("orcs", state).fans == 1  # rolled 3, drawn: stays


# --- bounties (ZAL 21) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cause", "recovered", "paid"),
    [
        ("block", False, [40_000]),
        ("foul", False, [40_000]),
        ("block", True, []),  # the apothecary saved him: not killed
        ("going_for_it", False, []),  # self-inflicted
        ("crowd", False, []),
        ("spell", False, []),
        ("card", False, []),
    ],
)
def test_a_bounty_is_paid_for_a_kill_that_earns_spp(
    cause: str, recovered: bool, paid: list[int]
) -> None:
    zal = Zal()
    humans = zal.team("humans", "human", HUMANS, treasury=100_000)
    orcs = zal.team("orcs", "orc", ORCS, treasury=100_000)
    zal.book.record(ev.BountyPosted, team="humans", player=humans[0], amount=25_000)
    zal.book.record(ev.BountyPosted, team="orcs", player=humans[0], amount=15_000)  # added to
    zal.match(
        side("humans", 0, [played(humans[0])]),
        side("orcs", 0, [played(orcs[4])]),
        casualties=[killed(humans[0], orcs[4], cause, recovered)],
    )
    state = zal.fold()
    assert gold_lines(state, "orcs", "bounty") == [-15_000, *paid]
    assert gold_lines(state, "humans", "bounty") == [-25_000]


# --- no spiralling expenses, and the league table ---------------------------------------------


def test_no_spiralling_expenses_however_rich_the_team() -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS, treasury=1_500_000)
    zal.team("orcs", "orc", ORCS)
    zal.match(side("humans", 1), side("orcs"))
    team = zal.team_row("humans")
    assert team.treasury == 1_500_000 + 50_000  # only the winnings: 3 + 1 + 1
    fields: dict[str, Any] = {"match": "m1", "team": "humans", "dice": ()}
    closing = ev.PostGameClosed.model_construct(**fields)
    assert zal.ruleset.close_outcomes(closing, team, DiceBox(league="zal")) == []


def test_standings_count_wins_draws_and_losses_home_and_away() -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS)
    zal.team("orcs", "orc", ORCS)
    zal.book.record(
        ev.SeasonStarted, season=1, divisions=({"name": "ZAL 1", "teams": ("humans", "orcs")},)
    )
    zal.match(side("humans", 2), side("orcs", 1))
    zal.match(side("orcs", 1), side("humans", 1))
    zal.match(side("orcs", 3), side("humans", 0))
    humans, orcs = zal.standing("humans"), zal.standing("orcs")
    assert (humans.won, humans.drawn, humans.lost, humans.points) == (1, 1, 1, 4)
    assert (orcs.won, orcs.drawn, orcs.lost, orcs.points) == (1, 1, 1, 4)
    assert (humans.td_for, humans.td_against) == (3, 5)
