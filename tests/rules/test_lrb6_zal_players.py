"""lrb6-zal: Star Player Rolls, ageing, Star Players, mercenaries, journeymen, staff and
the special play cards that reach the books.

Source: shared/seeds/000_e199eb2e30fe6ef5.txt: ZAL 3c-3h, 3k, 8a, 8d (Bankruptcy, Robbery,
Injured in Practice), 17 (promotions), 18 (no value modifiers), 19 (ageing). Readings:
docs/rulesets/lrb6-zal.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.domain import events as ev
from ledger.domain.state import TeamRow, TreasuryLine
from ledger.domain.values import Concession, Hireling
from ledger.errors import InvalidInput, NotAllowed
from ledger.projections.gather import card_rows, hire_rows
from ledger.rules.lrb6_zal.advancement import hurdle
from ledger.rules.lrb6_zal.hiring import signing_price
from ledger.rules.lrb6_zal.tables import tables
from tests.rules.seam import checked, said
from tests.rules.test_lrb6_zal_book import (
    HUMANS,
    ORCS,
    Zal,
    gold_lines,
    played,
    side,
)
from tests.support import roll

# --- Star Player Rolls (ZAL 17) ---------------------------------------------------------------


def with_spp(zal: Zal, player: str, spp: int) -> None:
    """A goalless match that gives ``player`` SPP in MVPs of 5 and completions of 1."""
    state = zal.fold()
    team = zal.player(player, state).team_id
    other = next(t.team_id for t in state.all(TeamRow) if t.team_id != team)
    gains = played(player, mvps=spp // 5, completions=spp % 5)
    zal.match(side(team, 0, [gains]), side(other, 0))


def star_roll(
    zal: Zal,
    player: str,
    dice: tuple[int, int],
    ageing: tuple[int, int] = (6, 6),
    effect: tuple[int, int] | None = None,
    **choice: Any,
) -> list[str]:
    """Check a Star Player Roll as ``ledger team advance`` would; record it if allowed."""
    rolls = [roll("star_roll", "2D6", *dice), roll("ageing", "2D6", *ageing)]
    if effect:
        rolls.append(roll("ageing_effect", "2D6", *effect))
    fields: dict[str, Any] = {
        "team": zal.player(player).team_id,
        "player": player,
        "kind": "star_roll",
        "dice": tuple(rolls),
        "skill": None,
        "characteristic": None,
        **choice,
    }
    event = ev.PlayerAdvanced.model_construct(**fields)
    state = zal.fold()
    row = zal.player(player, state)
    problems = said(zal.ruleset.check_advancement(row, zal.team_row(row.team_id, state), event))
    if not problems:
        zal.book.record(ev.PlayerAdvanced, **fields)
    return problems


def lineman(options: dict[str, Any] | None = None, spp: int = 6) -> tuple[Zal, str]:
    """A Human Lineman (G / ASP) with ``spp`` SPP."""
    zal = Zal(options)
    ours = zal.team("humans", "human", HUMANS)
    zal.team("orcs", "orc", ORCS)
    with_spp(zal, ours[4], spp)
    return zal, ours[4]


def test_a_roll_is_due_at_each_spp_level() -> None:
    zal, player = lineman(spp=5)
    assert star_roll(zal, player, (2, 5), skill="Block")  # Rookie: none due
    with_spp(zal, player, 1)
    assert star_roll(zal, player, (2, 5), skill="Block") == []  # 6 SPP: Experienced
    assert star_roll(zal, player, (2, 5), skill="Tackle")  # used
    with_spp(zal, player, 10)
    assert star_roll(zal, player, (2, 5), skill="Tackle") == []  # 16 SPP: Veteran


@pytest.mark.parametrize(
    ("dice", "choice", "ok"),
    [
        ((4, 6), {"characteristic": "ma"}, True),  # 10: MA or AV
        ((4, 6), {"characteristic": "av"}, True),
        ((4, 6), {"characteristic": "ag"}, False),
        ((5, 6), {"characteristic": "ag"}, True),  # 11: AG
        ((6, 6), {"characteristic": "st"}, True),  # 12: ST
        ((4, 5), {"characteristic": "ma"}, False),  # 9: a skill only
        ((4, 5), {"skill": "Block"}, True),  # Lineman: General on a normal roll
        ((4, 5), {"skill": "Dodge"}, False),
        ((5, 5), {"skill": "Dodge"}, True),  # a double: any GASP skill
        ((6, 6), {"skill": "Mighty Blow"}, True),  # 12 is a double too
        ((5, 6), {"skill": "Dodge"}, False),  # 11: AG or a normal skill
        ((5, 5), {"skill": "Claws"}, False),  # Mutations only for Skaven, Chaos Dwarfs...
        ((5, 5), {"skill": "Loner"}, False),  # Extraordinary: never learnt
        ((4, 5), {"skill": "Block", "characteristic": "ma"}, False),
    ],
)
def test_star_player_roll_table(dice: tuple[int, int], choice: dict[str, Any], ok: bool) -> None:
    zal, player = lineman()
    assert (star_roll(zal, player, dice, **choice) == []) is ok


def test_skaven_and_chaos_dwarfs_take_a_mutation_on_a_double() -> None:
    zal = Zal()
    rats = zal.team("rats", "skaven", ["lineman"] * 11)
    dwarfs = zal.team("orcs", "chaos_dwarf", ["hobgoblin"] * 11)
    with_spp(zal, rats[0], 6)
    with_spp(zal, dwarfs[0], 6)
    assert star_roll(zal, rats[0], (3, 3), skill="Two Heads") == []
    assert star_roll(zal, dwarfs[0], (3, 3), skill="Horns") == []  # Hobgoblin: G / ASP


def test_a_characteristic_rises_at_most_two_points() -> None:
    zal, player = lineman(spp=31)
    assert star_roll(zal, player, (5, 6), characteristic="ag") == []
    assert star_roll(zal, player, (5, 6), characteristic="ag") == []
    assert star_roll(zal, player, (5, 6), characteristic="ag")  # a third AG point
    assert zal.player(player).ag == 5


def test_armour_is_at_most_ten() -> None:
    zal = Zal()
    ours = zal.team("humans", "human", [*HUMANS[:10], "ogre"])  # AV 9
    zal.team("orcs", "orc", ORCS)
    with_spp(zal, ours[10], 16)
    assert star_roll(zal, ours[10], (4, 6), characteristic="av") == []
    name = zal.player(ours[10]).name
    assert star_roll(zal, ours[10], (4, 6), characteristic="av") == [
        f"{name}'s AV is 10: at most 10 (ZAL 17)"
    ]


def test_skills_add_no_value_unless_the_league_uses_lrb6_value_modifiers() -> None:
    for options, value in (({}, 50_000), ({"value_modifiers": True}, 50_000 + 30_000)):
        zal, player = lineman(options)
        assert star_roll(zal, player, (3, 3), skill="Dodge") == []  # a double skill
        assert zal.player(player).value == value


# --- ageing (ZAL 19) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll_number", "by", "title", "target"),
    [
        (1, "title", "Experienced", 3),
        (2, "title", "Veteran", 4),
        (3, "title", "Emerging Star", 5),
        (4, "title", "Star Player", 6),
        (5, "title", "Super-Star", 7),
        (6, "title", "Legend", 9),  # no SPP level is titled Mega-Star
        (5, "roll_number", "Super-Star", 7),
        (6, "roll_number", "Mega-Star", 8),
    ],
)
def test_ageing_hurdle_per_title(roll_number: int, by: str, title: str, target: int) -> None:
    assert hurdle(tables(), roll_number, by) == (title, target)


@pytest.mark.parametrize(
    ("ageing", "effect", "problems"),
    [
        ((1, 2), None, 0),  # Experienced: 3+ passes
        ((1, 1), None, 1),  # fails: the effect roll is missing
        ((1, 1), (3, 3), 0),
        ((2, 2), (3, 3), 1),  # passed: no effect roll
    ],
)
def test_the_ageing_roll_follows_each_star_player_roll(
    ageing: tuple[int, int], effect: tuple[int, int] | None, problems: int
) -> None:
    zal, player = lineman()
    found = star_roll(zal, player, (2, 5), ageing, effect, skill="Block")
    assert len(found) == problems


@pytest.mark.parametrize(
    ("effect", "changed"),
    [
        ((4, 4), {"niggling": 1}),  # 2-8
        ((4, 5), {"av": 7}),  # 9: -1 AV
        ((5, 5), {"ma": 5}),  # 10: -1 MA
        ((5, 6), {"ag": 2}),  # 11: -1 AG
        ((6, 6), {"st": 2}),  # 12: -1 ST
    ],
)
def test_failed_ageing_effects(effect: tuple[int, int], changed: dict[str, int]) -> None:
    zal, player = lineman()
    assert star_roll(zal, player, (2, 5), (1, 1), effect, skill="Block") == []
    row = zal.player(player)
    assert {stat: getattr(row, stat) for stat in changed} == changed
    assert "Block" in row.skills


def test_ageing_never_takes_more_than_two_points() -> None:
    zal, player = lineman(spp=31)
    # rolls 1-3 age on 3+, 4+, 5+: a double 1 fails each, and 10 on the effects is -1 MA
    for skill in ("Block", "Tackle", "Wrestle"):
        assert star_roll(zal, player, (2, 5), (1, 1), (5, 5), skill=skill) == []
    assert zal.player(player).ma == 4  # 6 - 2: the third had nothing left to take


# --- Star Players (ZAL 3f-3h) -----------------------------------------------------------------


def star_hire(zal: Zal, team: str, star: str) -> list[str]:
    state = zal.fold()
    fields: dict[str, Any] = {
        "team": team,
        "player": "new",
        "name": star,
        "position": star,
        "kind": "star",
        "star": star,
        "price": 0,
    }
    event = ev.PlayerHired.model_construct(**fields)
    players = zal.players(team, state)
    rows = hire_rows(state, zal.league_id, zal.team_row(team, state), event, players)
    return said(zal.ruleset.check_hire(event, rows))


def orcs_after_a_match(treasury: int = 1_000_000) -> Zal:
    zal = Zal()
    zal.team("humans", "human", HUMANS)
    zal.team("orcs", "orc", ORCS, treasury=treasury)
    zal.match(side("humans"), side("orcs"))
    return zal


def test_star_players_from_the_second_match_onwards() -> None:
    zal = Zal()
    zal.team("orcs", "orc", ORCS)
    assert star_hire(zal, "orcs", "bomber_dribblesnot")  # before the first match
    assert star_hire(orcs_after_a_match(), "orcs", "bomber_dribblesnot") == []


def test_star_players_at_most_500000_in_all() -> None:
    zal = orcs_after_a_match()
    zal.hire_star("orcs", "scrappa_sorehead")  # 150,000
    zal.hire_star("orcs", "varag_ghoul_chewer")  # 290,000
    assert star_hire(zal, "orcs", "bomber_dribblesnot") == []  # 60,000: exactly 500,000
    assert star_hire(zal, "orcs", "ugroth_bolgrot") == [  # 100,000
        "Star Players worth 540,000 in all would pass the 500,000 limit (ZAL 3h)"
    ]


def test_star_players_at_most_three_and_never_twice() -> None:
    zal = Zal()
    zal.team("pact", "chaos_pact", ["marauder"] * 11)
    zal.team("orcs", "orc", ORCS)
    zal.match(side("pact"), side("orcs"))
    for star in ("bomber_dribblesnot", "ugroth_bolgrot", "crazy_igor"):  # 280,000
        assert star_hire(zal, "pact", star) == []
        zal.hire_star("pact", star)
    assert star_hire(zal, "pact", "lewdgrip_whiparm") == [
        "Pact already have 3 Star Players (at most 3, ZAL 3h)"
    ]
    assert "Pact already have Crazy Igor (ZAL 3g: no duplicates)" in star_hire(
        zal, "pact", "crazy_igor"
    )


def test_a_freebooted_star_costs_half_price_from_the_second_match() -> None:
    zal = orcs_after_a_match()
    freebooter = Hireling(
        id="s1", name="Bomber", kind="star", star="bomber_dribblesnot", price=30_000
    )
    draft = zal.draft_match(side("humans"), side("orcs", hirelings=[freebooter]))
    assert checked(zal.ruleset, zal.fold(), zal.league_id, draft) == []
    zal.match(draft.home, draft.away)
    assert gold_lines(zal.fold(), "orcs", "hireling") == [-30_000]
    first = Zal()
    first.team("humans", "human", HUMANS)
    first.team("orcs", "orc", ORCS, treasury=100_000)
    assert checked(first.ruleset, first.fold(), first.league_id, draft)


# --- mercenaries and journeymen (ZAL 3k, 8a) --------------------------------------------------


@pytest.mark.parametrize(("price", "ok"), [(45_000, True), (90_000, False), (0, False)])
def test_a_mercenary_costs_half_price_and_collects_spp(price: int, ok: bool) -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS, treasury=100_000)
    zal.team("orcs", "orc", ORCS)
    max_ = Hireling(id="m1", name="Max", kind="mercenary", position="blitzer", price=price)
    draft = zal.draft_match(
        side("humans", 1, [played("m1", touchdowns=1)], hirelings=[max_]), side("orcs")
    )
    assert (checked(zal.ruleset, zal.fold(), zal.league_id, draft) == []) is ok
    zal.match(draft.home, draft.away, match="m1")
    assert zal.match_row("m1", zal.fold()).hirelings["m1"]["spp"] == 3


@pytest.mark.parametrize(
    ("kind", "spp", "price"),
    [
        ("mercenary", 0, 90_000),
        ("mercenary", 1, 95_000),  # '1-5 up 5000 Gold'
        ("mercenary", 5, 95_000),
        ("mercenary", 6, 100_000),  # '6-15 up 10,000 Gold'
        ("mercenary", 15, 100_000),
        ("mercenary", 16, 110_000),  # '16-30 up 20,000 Gold'
        ("mercenary", 30, 110_000),
        ("mercenary", 31, 130_000),  # 'etc.': 40,000
        ("journeyman", 30, 90_000),  # ZAL 8a: 'will not incur a financial penalty'
    ],
)
def test_signing_a_hireling_costs_full_price_plus_the_spp_rise(
    kind: str, spp: int, price: int
) -> None:
    assert signing_price(tables(), 90_000, kind, spp) == price


def test_journeymen_are_free_linemen_up_to_eleven_players() -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS[:9])
    zal.team("orcs", "orc", ORCS)

    def check(*hired: Hireling) -> list[str]:
        draft = zal.draft_match(side("humans", hirelings=hired), side("orcs"))
        return checked(zal.ruleset, zal.fold(), zal.league_id, draft)

    jo = Hireling(id="j1", name="Jo", kind="journeyman", position="lineman")
    jim = Hireling(id="j2", name="Jim", kind="journeyman", position="lineman")
    assert check(jo, jim) == []
    assert check(jo, jim, jim.model_copy(update={"id": "j3"}))  # a twelfth player
    assert check(jo.model_copy(update={"position": "blitzer"}))  # not a Lineman
    assert check(jo.model_copy(update={"price": 10_000}))  # for free


def test_a_signed_journeyman_keeps_his_spp() -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS[:10], treasury=50_000)
    zal.team("orcs", "orc", ORCS)
    jo = Hireling(id="j1", name="Jo", kind="journeyman", position="lineman")
    zal.match(
        side("humans", 1, [played("j1", touchdowns=1, mvps=1)], hirelings=[jo]),
        side("orcs"),
        match="g1",
    )
    zal.book.record(
        ev.PlayerHired,
        team="humans",
        player="p99",
        name="Jo",
        position="lineman",
        kind="journeyman",
        hireling="j1",
        from_match="g1",
        price=50_000,
    )
    assert zal.player("p99").spp == 8


# --- staff and Fan Factor (ZAL 3c-3e) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("roster", "apothecary", "wizard"),
    [
        ("human", 50_000, 150_000),
        ("nurgle", 50_000, 150_000),
        ("undead", None, None),
        ("khemri", None, None),
        ("necromantic", None, None),
    ],
)
def test_apothecary_and_wizard(roster: str, apothecary: int | None, wizard: int | None) -> None:
    zal = Zal()
    zal.team("t", roster, [])
    items = zal.ruleset.sideline_items(zal.team_row("t"))
    assert (items["apothecary"].price if "apothecary" in items else None) == apothecary
    assert (items["wizard"].price if "wizard" in items else None) == wizard
    assert (items["fan_factor"].price, items["fan_factor"].max, items["fan_factor"].draft_only) == (
        10_000,
        9,
        True,
    )


def test_a_team_needs_a_fan_factor_before_its_first_match() -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS, fans=0)
    zal.team("orcs", "orc", ORCS)
    draft = zal.draft_match(side("humans", fans=0), side("orcs"))
    assert checked(zal.ruleset, zal.fold(), zal.league_id, draft) == [
        "Humans need at least 1 Fan Factor, paid for, before their first match (ZAL 3c)"
    ]


# --- special play cards (ZAL 8d) --------------------------------------------------------------


@pytest.mark.parametrize(("d6", "lost"), [(1, 130_000), (2, 65_000), (5, 65_000), (6, 0)])
def test_bankruptcy(d6: int, lost: int) -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS)
    zal.team("orcs", "orc", ORCS, treasury=130_000)
    zal.book.record(
        ev.CardPlayed,
        team="humans",
        card="Bankruptcy",
        against="orcs",
        dice=(roll("bankruptcy", "D6", d6, subject="orcs"),),
    )
    assert zal.team_row("orcs").treasury == 130_000 - lost


def robbed_after_g1(d6: int, *, spent: int = 0, forfeit: bool = False) -> Zal:
    """Humans (TR 68) beat the Orcs (TR 80) 1-0 in g1: gate 3 + 3 pips = 6,000 fans, the
    table's +1 at that gate for both ratings, D6 3 each: Humans (3 + 1 + 1 win) x 10,000 =
    50,000, Orcs (3 + 1) x 10,000 = 40,000 on top of their 100,000. Then the Orcs spend
    ``spent``, and the Humans play Robbery on them with ``d6``."""
    zal = Zal()
    humans = zal.team("humans", "human", HUMANS)
    zal.team("orcs", "orc", ORCS, treasury=100_000)
    concession = Concession(team="orcs", kind="forfeit_voluntary") if forfeit else None
    home = side("humans", 3 if forfeit else 1, [played(humans[0], touchdowns=1)])
    zal.match(home, side("orcs", fan=None if forfeit else 3), concession=concession, match="g1")
    if spent:
        zal.book.record(ev.TreasuryAdjusted, team="orcs", amount=-spent)
    zal.book.record(
        ev.CardPlayed,
        team="humans",
        card="robbery",
        match="g1",
        dice=(roll("robbery", "D6", d6, subject="humans"),),
    )
    return zal


@pytest.mark.parametrize(("d6", "stolen"), [(1, 0), (2, 20_000), (5, 20_000), (6, 40_000)])
def test_robbery_steals_from_the_victims_earnings_of_the_match(d6: int, stolen: int) -> None:
    """ZAL 8d ii: "on 2-5, he steals half of the earnings; on 6, ... all of the earnings"."""
    zal = robbed_after_g1(d6)
    state = zal.fold()
    assert zal.match_row("g1", state).winnings == {"humans": 50_000, "orcs": 40_000}
    assert gold_lines(state, "orcs", "card") == ([-stolen] if stolen else [])
    assert gold_lines(state, "humans", "card") == ([stolen] if stolen else [])
    assert zal.team_row("orcs", state).treasury == 140_000 - stolen


def test_robbery_cannot_steal_gold_already_spent() -> None:
    """The Orcs spent 130,000 of their 140,000 before the card was booked: the thief takes
    the 10,000 left, not the 40,000 earned, and no treasury goes below nothing."""
    zal = robbed_after_g1(6, spent=130_000)
    state = zal.fold()
    assert gold_lines(state, "orcs", "card") == [-10_000]
    assert gold_lines(state, "humans", "card") == [10_000]
    assert zal.team_row("orcs", state).treasury == 0


def test_a_team_that_gave_up_earned_nothing_to_rob() -> None:
    """ZAL 9b: "The winnings are determined as usual, with the Winner to receive both
    amounts": the Orcs' 40,000 went to the Humans, so robbing the Orcs of g1 finds nothing."""
    zal = robbed_after_g1(6, forfeit=True)
    state = zal.fold()
    assert zal.match_row("g1", state).winnings == {"humans": 90_000}
    assert gold_lines(state, "orcs", "card") == []


def card_needs(zal: Zal, **fields: Any) -> Any:
    event = ev.CardPlayed.model_construct(**{"team": "humans", "card": "robbery", **fields})
    event = event.model_copy(update={"dice": ()})
    return zal.ruleset.card_dice(event, card_rows(zal.fold(), zal.league_id, event))


def test_robbery_needs_a_recorded_match_both_teams_played() -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS)
    zal.team("orcs", "orc", ORCS)
    zal.team("elves", "wood_elf", [])
    with pytest.raises(InvalidInput, match="name the match"):
        card_needs(zal, against="orcs", match=None)
    with pytest.raises(NotAllowed, match="no recorded report yet"):
        card_needs(zal, against="orcs", match="g1")
    zal.match(side("humans"), side("orcs"), match="g1")
    with pytest.raises(InvalidInput, match="did not play each other in g1"):
        card_needs(zal, against="elves", match="g1")
    with pytest.raises(InvalidInput, match="cannot rob itself"):
        card_needs(zal, against="humans", match="g1")
    assert [n.purpose for n in card_needs(zal, against="orcs", match="g1")] == ["robbery"]
    assert [n.purpose for n in card_needs(zal, against=None, match="g1")] == ["robbery"]


def test_injured_in_practice_hurts_but_still_counts_in_the_team_rating() -> None:
    zal = Zal()
    humans = zal.team("humans", "human", HUMANS)
    zal.team("orcs", "orc", ORCS)
    assert zal.team_row("humans").rating == 68
    zal.book.record(
        ev.CardPlayed,
        team="orcs",
        card="injured_in_practice",
        against=humans[0],
        dice=(
            roll("casualty_d6", "D6", 5, subject=humans[0]),
            roll("casualty_d8", "D8", 3, subject=humans[0]),
        ),
    )
    state = zal.fold()
    blitzer = zal.player(humans[0], state)
    assert (blitzer.ma, blitzer.miss_next_game) == (6, False)  # 53 Smashed Hip: -1 MA
    team = zal.team_row("humans", state)
    assert zal.ruleset.match_rating(team, zal.players("humans", state), side("humans")) == 68


def test_injured_in_practice_can_kill() -> None:
    zal = Zal()
    humans = zal.team("humans", "human", HUMANS)
    zal.team("orcs", "orc", ORCS)
    zal.book.record(
        ev.CardPlayed,
        team="orcs",
        card="Injured in Practice",
        against=humans[0],
        dice=(
            roll("casualty_d6", "D6", 6, subject=humans[0]),
            roll("casualty_d8", "D8", 1, subject=humans[0]),
        ),
    )
    assert zal.player(humans[0]).status == "dead"


def test_a_card_is_not_played_on_ones_own_team_or_player() -> None:
    """ZAL 8d names the coach who plays a card apart from the one it affects: Bankruptcy
    and Injured in Practice on one's own team were booked (a reading: see cards.py)."""
    zal = Zal()
    humans = zal.team("humans", "human", HUMANS)
    orcs = zal.team("orcs", "orc", ORCS)
    with pytest.raises(InvalidInput, match="bankruptcy: humans played it, and it is played on"):
        card_needs(zal, card="bankruptcy", against="humans")
    with pytest.raises(InvalidInput, match="plays for humans, which played the card"):
        card_needs(zal, card="injured_in_practice", against=humans[0])
    assert [n.purpose for n in card_needs(zal, card="bankruptcy", against="orcs")] == ["bankruptcy"]
    injured = card_needs(zal, card="injured_in_practice", against=orcs[0])
    assert [n.purpose for n in injured] == ["casualty_d6", "casualty_d8"]


def test_other_cards_do_not_reach_the_books() -> None:
    zal = Zal()
    zal.team("humans", "human", HUMANS)
    fields: dict[str, Any] = {"team": "humans", "card": "Away Fans Banned", "dice": ()}
    event = ev.CardPlayed.model_construct(**fields)
    with pytest.raises(InvalidInput, match="no effect on the books"):
        zal.ruleset.card_dice(event, card_rows(zal.fold(), zal.league_id, event))


def test_zal_admits_its_24_team_lists() -> None:
    """ZAL 3a: the 12 original teams, the 10 of version 3.0 ('Elf' and 'Pro-Elf' are one
    LRB6 list) and the three BBRC supplement teams."""
    lists = Zal().ruleset.catalogue.team_lists()
    assert len(lists) == 24
    assert {"chaos_pact", "slann", "underworld", "khemri", "human", "orc"} <= set(lists)


def test_the_winnings_a_team_that_gave_up_passed_on_are_said_by_its_name() -> None:
    """ZAL 9b, as the treasury's line says it: the team that gave up by its name, not the
    books' id."""
    zal = robbed_after_g1(6, forfeit=True)
    state = zal.fold()
    humans = zal.team_row("humans", state)
    orcs = zal.team_row("orcs", state)
    notes = [
        line.note
        for line in state.lines[TreasuryLine]
        if isinstance(line, TreasuryLine) and line.team_id == "humans" and line.kind == "winnings"
    ]
    assert any(note.startswith(f"winnings of {orcs.name}, who gave up (ZAL 9b)") for note in notes)
    assert humans.name != "humans"
