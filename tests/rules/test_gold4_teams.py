"""gold4 team building: team lists, allies, secret weapons, free re-rolls and team rating.

Given these events, under the 4th edition "Gold" rules (seed 002,
shared/seeds/002_af84a64a17c90723.txt), expect these prices, refusals and ratings. Sections:
"ADDITIONS TO THE EXISTING TEAM LISTS", the Big Guy team lists, "MIXED RACE TEAMS" / "ALLIED
TEAMS TABLE", "SECRET WEAPONS", "BUYING RE-ROLLS & FAN FACTORS", "TEAM RATINGS" and the Q&A.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.application.commands import Buy, HirePlayer
from ledger.application.context import Context
from ledger.application.teams import plan_buy, plan_hire
from ledger.domain import events as ev
from ledger.domain.state import PlayerRow
from ledger.domain.values import Performance, Purchase
from ledger.errors import LedgerError
from ledger.projections.store import MemoryStore
from tests.support import Book, sheet

GOBLIN_ELEVEN = ["goblin"] * 11
DWARF_ELEVEN = ["longbeard"] * 7 + ["blitzer", "blitzer", "runner", "troll_slayer"]


def context(book: Book) -> tuple[Context, MemoryStore]:
    state = book.fold()
    return Context(view=state, league=book.league(state), ruleset=book.ruleset), state


def hire(book: Book, team: str, position: str, name: str, **extra: Any) -> dict[str, Any]:
    """Hire through the real command plan; the event it drafts is recorded in the book."""
    c, _ = context(book)
    (drafted,) = plan_hire(
        c,
        HirePlayer(
            c.league.slug,
            team,
            position,
            name,
            from_list=extra.get("from_list"),
            equipment=tuple(extra.get("equipment", ())),
        ),
    )
    book.record(type(drafted), **drafted.facts())
    return drafted.facts()


def refused(book: Book, team: str, position: str, match: str, **extra: Any) -> None:
    with pytest.raises(LedgerError, match=match):
        hire(book, team, position, "refused", **extra)


def buy(book: Book, team: str, item: str, count: int = 1) -> int:
    c, _ = context(book)
    (drafted,) = plan_buy(c, Buy(c.league.slug, team, item, count))
    assert isinstance(drafted, ev.SidelinePurchased)
    book.record(type(drafted), **drafted.facts())
    price: int = drafted.purchases[0].price
    return price


# --- team lists -------------------------------------------------------------------------------


def test_gold_team_lists_are_third_edition_plus_additions_plus_big_guy_teams() -> None:
    book = Book("gold4")
    lists = book.ruleset.catalogue.team_lists()
    assert {"minotaur", "ogre", "treeman"} <= set(lists)
    assert lists["goblin"].position("troll") is not None
    assert lists["goblin"].position("fanatic") is not None
    assert lists["skaven"].position("rat_ogre") is not None
    assert lists["chaos_dwarf"].position("bull_centaur") is not None
    assert lists["dwarf"].position("death_roller") is not None
    assert lists["ogre"].min_players == 8


@pytest.mark.parametrize(
    ("roster", "position", "cost"),
    [
        ("chaos_dwarf", "bull_centaur", 130_000),
        ("skaven", "rat_ogre", 130_000),
        ("goblin", "troll", 100_000),
        ("goblin", "fanatic", 60_000),
        ("dwarf", "death_roller", 160_000),
        ("minotaur", "minotaur", 110_000),
        ("ogre", "ogre", 120_000),
        ("treeman", "treeman", 110_000),
    ],
)
def test_added_players_and_big_guys_are_hired_at_their_printed_cost(
    roster: str, position: str, cost: int
) -> None:
    book = Book("gold4")
    book.team("t", roster, [], treasury=1_000_000)
    fields = hire(book, "t", position, "New Boy")
    assert fields["price"] == cost
    assert book.team_row("t").treasury == 1_000_000 - cost


def test_a_big_guy_team_may_field_eight_ogres() -> None:
    book = Book("gold4")
    book.team("ogres", "ogre", ["ogre"] * 8, treasury=40_000)
    assert book.team_row("ogres").values == {"tr": 100}


# --- allies: one from each allowed race -----------------------------------------------------------


def test_an_orc_team_takes_a_goblin_ally_on_top_of_its_four_goblins() -> None:
    """Q&A: 'goblin allies may be hired in addition to the 4 you can have anyway'."""
    book = Book("gold4")
    book.team("orcs", "orc", ["goblin"] * 4, treasury=500_000)
    fields = hire(book, "orcs", "goblin", "Snivel", from_list="goblin")
    assert fields["price"] == 40_000
    assert book.player_row(fields["player"]).roster == "goblin"


def test_only_one_ally_from_each_allowed_race() -> None:
    book = Book("gold4")
    book.team("orcs", "orc", ["lineman"] * 5, treasury=800_000)
    hire(book, "orcs", "troll", "Grub", from_list="goblin")
    refused(book, "orcs", "goblin", "already have a goblin ally", from_list="goblin")
    hire(book, "orcs", "ogre", "Morgy", from_list="ogre")  # another race is fine
    refused(book, "orcs", "ogre", r"already have an ogre ally \(Morgy\)", from_list="ogre")


@pytest.mark.parametrize(
    ("roster", "ally", "position"),
    [
        ("goblin", "chaos_dwarf", "hobgoblin"),  # 'can you imagine a proud Chaos Dwarf...'
        ("ogre", "goblin", "goblin"),  # Big Guy teams: OGRES None
        ("human", "orc", "lineman"),
    ],
)
def test_allies_only_from_the_races_the_table_allows(roster: str, ally: str, position: str) -> None:
    book = Book("gold4")
    book.team("t", roster, [], treasury=1_000_000)
    refused(book, "t", position, "may not take", from_list=ally)


def test_chaos_dwarfs_may_take_goblin_allies_though_goblins_may_not_take_chaos_dwarfs() -> None:
    book = Book("gold4")
    book.team("cd", "chaos_dwarf", [], treasury=1_000_000)
    assert hire(book, "cd", "goblin", "Sneaky", from_list="goblin")["price"] == 40_000


@pytest.mark.parametrize(("roster", "ally"), [("goblin", "ogre"), ("halfling", "treeman")])
def test_goblin_and_halfling_teams_pay_double_for_allies_but_rate_them_at_list(
    roster: str, ally: str
) -> None:
    """Q&A: non-goblin (non-halfling) players cost double; TEAM RATINGS: 'irrespective of
    what you actually paid'."""
    book = Book("gold4")
    book.team("t", roster, [], treasury=1_000_000)
    cost = book.ruleset.catalogue.position(ally, ally).cost
    fields = hire(book, "t", ally, "Big Lad", from_list=ally)
    assert fields["price"] == 2 * cost
    assert book.player_row(fields["player"]).value == cost
    assert book.team_row("t").values["tr"] == (1_000_000 - cost) // 10_000


def test_a_goblin_drawn_from_the_orc_list_is_no_outsider_on_a_goblin_team() -> None:
    """Q&A: only 'non-goblin players' cost double on a Goblin team; the Orc list's Goblin
    (40,000) is a goblin."""
    book = Book("gold4")
    book.team("gobs", "goblin", [], treasury=1_000_000)
    book.team("grots", "goblin", [], treasury=1_000_000)
    assert hire(book, "gobs", "goblin", "Sneaky", from_list="orc")["price"] == 40_000
    assert hire(book, "grots", "blitzer", "Grishnak", from_list="orc")["price"] == 2 * 80_000


def test_a_goblin_teams_own_troll_costs_its_list_price() -> None:
    book = Book("gold4")
    book.team("gobs", "goblin", [], treasury=1_000_000)
    assert hire(book, "gobs", "troll", "Thicky")["price"] == 100_000


# --- secret weapons -----------------------------------------------------------------------------


def test_a_secret_weapon_is_bought_with_the_player_and_added_to_his_value() -> None:
    book = Book("gold4")
    book.team("dwarves", "dwarf", [], treasury=1_000_000)
    fields = hire(book, "dwarves", "longbeard", "Sawbeard", equipment=["chainsaw"])
    player = book.player_row(fields["player"])
    assert fields["price"] == 70_000 + 60_000
    assert player.value == 130_000
    assert "Chainsaw" in player.skills
    assert book.team_row("dwarves").values["tr"] == 100  # value moved from treasury to player


def test_one_player_with_secret_weapons_per_team() -> None:
    book = Book("gold4")
    book.team("dwarves", "dwarf", [], treasury=1_000_000)
    hire(book, "dwarves", "longbeard", "Sawbeard", equipment=["chainsaw"])
    refused(book, "dwarves", "longbeard", "at most 1", equipment=["blunderbuss"])
    refused(book, "dwarves", "death_roller", "at most 1")  # the Death Roller is armed too


def test_goblins_may_have_four_players_with_secret_weapons() -> None:
    book = Book("gold4")
    book.team("gobs", "goblin", [], treasury=1_000_000)
    hire(book, "gobs", "fanatic", "Spinner")
    for name, weapon in (("Boom", "explosive_bomb"), ("Pong", "stink_bomb"), ("Hop", "pogo_stick")):
        hire(book, "gobs", "goblin", name, equipment=[weapon])
    refused(book, "gobs", "goblin", "at most 4", equipment=["chainsaw"])
    # the table prints "Stink" in its row of "Bombs": the player carries a Stink Bomb
    pong = next(p for p in book.fold().select(PlayerRow) if p.name == "Pong")
    assert pong.skills[-1] == "Stink Bomb"


def test_a_bomb_is_named_as_the_text_calls_it() -> None:
    book = Book("gold4")
    book.team("t", "human", [], treasury=1_000_000)
    refused(
        book,
        "t",
        "lineman",
        r"may not use the Stink Bomb \(Goblin, Snotling\)",
        equipment=["stink_bomb"],
    )


@pytest.mark.parametrize(
    ("roster", "position", "weapon"),
    [("human", "lineman", "pogo_stick"), ("wood_elf", "lineman", "chainsaw")],
)
def test_a_weapon_only_for_the_teams_the_table_names(
    roster: str, position: str, weapon: str
) -> None:
    book = Book("gold4")
    book.team("t", roster, [], treasury=1_000_000)
    refused(book, "t", position, "may not use", equipment=[weapon])


def test_an_ally_uses_the_weapons_of_the_team_he_joins() -> None:
    """'Allied players may only use weapons allowed in the team they are allied to.'"""
    book = Book("gold4")
    book.team("orcs", "orc", [], treasury=1_000_000)
    refused(book, "orcs", "goblin", "may not use", from_list="goblin", equipment=["pogo_stick"])
    assert hire(book, "orcs", "goblin", "Zip", from_list="goblin", equipment=["chainsaw"])[
        "price"
    ] == (40_000 + 60_000)


def test_a_league_without_the_secret_weapon_rules_sells_none() -> None:
    book = Book("gold4", {"secret_weapons": False})
    book.team("dwarves", "dwarf", [], treasury=1_000_000)
    refused(book, "dwarves", "longbeard", "secret weapons rules", equipment=["chainsaw"])


# --- re-rolls, fan factor, staff and the team rating ---------------------------------------------


def test_free_reroll_races_get_one_free_starting_reroll_that_team_rating_ignores() -> None:
    """BUYING RE-ROLLS & FAN FACTORS; Q&A: the team rating 'remains at 100'."""
    book = Book("gold4")
    book.team("dwarves", "dwarf", DWARF_ELEVEN, treasury=0)
    spent = sum(book.ruleset.catalogue.position("dwarf", p).cost for p in DWARF_ELEVEN)
    book.record(ev.TreasuryAdjusted, team="dwarves", amount=1_000_000 - spent, reason="budget")
    assert buy(book, "dwarves", "free_reroll") == 0
    assert buy(book, "dwarves", "reroll") == 40_000
    team = book.team_row("dwarves")
    assert team.staff == {"free_reroll": 1}
    assert team.rerolls == 1
    assert team.values == {"tr": 100}


def test_other_races_have_no_free_reroll() -> None:
    book = Book("gold4")
    book.team("humans", "human", ["lineman"], treasury=500_000)
    c, _ = context(book)
    assert "free_reroll" not in book.ruleset.sideline_items(book.team_row("humans"))
    with pytest.raises(LedgerError, match="sells no 'free_reroll' to this team's list"):
        plan_buy(c, Buy(c.league.slug, "humans", "free_reroll", 1))


def test_a_team_with_the_free_reroll_may_not_draft_allies() -> None:
    """'does not apply to mixed race teams'."""
    book = Book("gold4")
    book.team("dwarves", "dwarf", ["longbeard"], treasury=800_000)
    buy(book, "dwarves", "free_reroll")
    refused(book, "dwarves", "lineman", "mixed race", from_list="human")


def test_rerolls_bought_after_the_first_game_cost_double_but_rate_at_list() -> None:
    book = Book("gold4")
    book.team("humans", "human", ["lineman"] * 11, treasury=450_000)
    book.record(
        ev.SidelinePurchased,
        team="humans",
        purchases=(Purchase(item="fan_factor", count=5, price=50_000),),
    )
    team = book.team_row("humans").model_copy(update={"drafting": False})
    assert book.ruleset.sideline_price(team, "reroll", 1) == 100_000
    assert book.team_row("humans").values == {"tr": 100}


def test_team_rating_counts_value_rerolls_fans_staff_treasury_and_spp() -> None:
    """TEAM RATINGS with the Death Zone rating: gold / 10,000 + SPP / 5, each rounded down."""
    book = Book("gold4")
    (scorer,) = book.team("humans", "human", ["blitzer"], treasury=0)
    book.record(ev.TreasuryAdjusted, team="humans", amount=205_000, reason="budget")
    buy(book, "humans", "reroll")  # 50,000
    buy(book, "humans", "fan_factor", 3)  # 30,000
    buy(book, "humans", "apothecary")  # 50,000
    buy(book, "humans", "cheerleader")  # 10,000
    base = book.team_row("humans").values["tr"]
    assert base == (90_000 + 205_000) // 10_000  # 29: every 10,000 of it; 5,000 rounds away
    book.team("orcs", "orc", ["lineman"])
    book.record(
        ev.MatchRecorded,
        match="f1",
        kind="friendly",  # SPP, no gate or winnings: the treasury does not move
        home=sheet("humans", 2, [Performance(player=scorer, touchdowns=2)]),
        away=sheet("orcs"),
    )
    assert book.player_row(scorer).spp_earned == 6
    assert book.team_row("humans").values["tr"] == base + 6 // 5


def test_an_allied_fanatic_brings_a_weapon_his_new_team_may_not_use() -> None:
    """A Goblin ally may be a Troll (MIXED RACE TEAMS), but not an armed Fanatic for Orcs."""
    book = Book("gold4")
    book.team("orcs", "orc", [], treasury=1_000_000)
    refused(book, "orcs", "fanatic", "may not use", from_list="goblin")
    assert hire(book, "orcs", "troll", "Lunk", from_list="goblin")["price"] == 100_000
