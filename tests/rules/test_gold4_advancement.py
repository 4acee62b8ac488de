"""gold4 Star Player rolls: SPP levels, Big Guys' double SPP and double choices, traits.

Seed 002 (shared/seeds/002_af84a64a17c90723.txt): BLOOD BOWL LEAGUES / BIG GUYS AND STAR PLAYER
POINTS ("a rookie Big Guy needs to earn 12 SPPs to become 'experienced' ... 22 SPPs to become a
veteran"; on a double "+1 ST, +1 AV, or remove any one trait"; "can't be improved by more than 2
points over their starting value, or to greater than 10"), SKILLS AND TRAITS / Acquiring Traits,
ADDITIONS TO THE EXISTING TEAM LISTS ("may not earn SPPs"). The 2D6 Star Player table itself is
Death Zone's (ledger/rules/gold4/data/deathzone.yaml).
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.application.commands import AdvancePlayer
from ledger.application.context import Context
from ledger.application.teams import plan_advance
from ledger.domain import events as ev
from ledger.domain.values import Performance
from ledger.errors import InvalidAdvancement
from ledger.rules.gold4.tables import load_gold4_tables
from tests.rules.seam import said
from tests.support import Book, roll, sheet


def rookie(roster: str, position: str, spp: int = 0) -> tuple[Book, str]:
    """One player who has scored ``spp`` SPP worth of touchdowns (plus completions)."""
    book = Book("gold4")
    (player,) = book.team("us", roster, [position])
    book.team("them", "human", ["lineman"])
    if spp:
        line = Performance(player=player, touchdowns=spp // 3, completions=spp % 3)
        book.record(
            ev.MatchRecorded,
            match="f0",
            kind="friendly",
            home=sheet("us", spp // 3, [line]),
            away=sheet("them"),
        )
    return book, player


def advance(book: Book, player: str, dice: tuple[int, int], **choice: Any) -> None:
    """Through the real command plan: refused with InvalidAdvancement, else recorded."""
    state = book.fold()
    c = Context(view=state, league=book.league(state), ruleset=book.ruleset)
    rolled = (roll("star_roll", "2D6", *dice),)
    (drafted,) = plan_advance(
        c,
        AdvancePlayer(
            c.league.slug,
            "us",
            player,
            "star_roll",
            skill=choice.get("skill"),
            characteristic=choice.get("characteristic"),
            dice=rolled,
        ),
    )
    book.record(type(drafted), **drafted.facts())


def star_roll(player: str, dice: tuple[int, int], **choice: Any) -> ev.PlayerAdvanced:
    """An unsaved PlayerAdvanced as a command drafts it."""
    fields: dict[str, Any] = {"team": "us", "player": player, "kind": "star_roll"}
    fields |= {"skill": None, "characteristic": None, "category": None}
    fields["dice"] = (roll("star_roll", "2D6", *dice),)
    return ev.PlayerAdvanced.model_construct(**{**fields, **choice})


def remove_trait(book: Book, player: str, dice: tuple[int, int], trait: str) -> list[str]:
    """The explicit form (category 'remove_trait'), as `ledger team advance ... --category
    remove_trait` writes it (tests/rules/test_gold4_cli.py)."""
    event = star_roll(player, dice, skill=trait, category="remove_trait")
    state = book.fold()
    return said(
        book.ruleset.check_advancement(
            book.player_row(player, state), book.team_row("us", state), event
        )
    )


def refused(book: Book, player: str, dice: tuple[int, int], match: str, **choice: Any) -> None:
    with pytest.raises(InvalidAdvancement, match=match):
        advance(book, player, dice, **choice)


# --- SPP levels ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roster", "position", "spp", "allowed"),
    [
        ("human", "lineman", 5, False),
        ("human", "lineman", 6, True),
        ("ogre", "ogre", 11, False),
        ("ogre", "ogre", 12, True),
        ("goblin", "troll", 11, False),
        ("skaven", "rat_ogre", 12, True),
    ],
)
def test_big_guys_need_double_spp_for_each_star_player_roll(
    roster: str, position: str, spp: int, allowed: bool
) -> None:
    book, player = rookie(roster, position, spp)
    skill = "Block" if roster == "human" else "Guard"
    if allowed:
        advance(book, player, (1, 2), skill=skill)
        assert skill in book.player_row(player).skills
    else:
        refused(book, player, (1, 2), "Star Player roll", skill=skill)


def test_a_veteran_big_guy_needs_22_spp_for_his_second_roll() -> None:
    book, ogre = rookie("ogre", "ogre", 21)
    advance(book, ogre, (1, 2), skill="Guard")
    refused(book, ogre, (1, 3), "Veteran needs 22", skill="Block")


def test_a_roll_costs_no_spp_and_adds_no_value() -> None:
    """3rd/4th edition players are not bought skills: team rating counts SPP instead."""
    book, player = rookie("human", "lineman", 6)
    before = book.player_row(player)
    advance(book, player, (2, 4), skill="Block")
    after = book.player_row(player)
    assert (after.spp, after.value) == (before.spp, before.value)


# --- the Star Player table ------------------------------------------------------------------------


def test_two_to_nine_is_a_skill_of_his_own_categories() -> None:
    book, player = rookie("human", "lineman", 6)  # General only
    refused(book, player, (3, 4), "not open to us-p1 \\(Lineman: G\\)", skill="Dodge")
    refused(book, player, (3, 4), "only acquired on a double", skill="Frenzy")
    advance(book, player, (3, 4), skill="Tackle")


@pytest.mark.parametrize(("dice", "stat"), [((4, 6), "ma"), ((5, 6), "ag"), ((6, 6), "st")])
def test_ten_eleven_and_twelve_improve_ma_ag_and_st(dice: tuple[int, int], stat: str) -> None:
    book, player = rookie("human", "lineman", 6)
    start = getattr(book.player_row(player), stat)
    advance(book, player, dice, characteristic=stat)
    assert getattr(book.player_row(player), stat) == start + 1


def test_a_non_double_ten_must_be_taken_as_movement() -> None:
    book, player = rookie("human", "lineman", 6)
    refused(book, player, (4, 6), "must be taken as \\+1 MA", skill="Block")
    refused(book, player, (4, 6), "gives MA, not \\+1 ST", characteristic="st")


def test_a_double_opens_any_skill_and_a_trait_of_his_own_categories() -> None:
    """Acquiring Traits: 'a Human Catcher could either take any skill or take either a General
    or an Agility trait'."""
    book, catcher = rookie("human", "catcher", 26)
    advance(book, catcher, (2, 2), skill="Mighty Blow")  # Strength: any skill on a double
    advance(book, catcher, (3, 3), skill="Frenzy")  # a General trait
    refused(book, catcher, (1, 1), "Strength trait", skill="Stand Firm")


@pytest.mark.parametrize(
    ("trait", "why"),
    [
        ("Regeneration", "may not be chosen"),
        ("Daemonic Aura", "may not be chosen"),
        ("Stunty", "Physical trait"),  # humans cannot mutate
    ],
)
def test_traits_a_human_may_never_take(trait: str, why: str) -> None:
    book, player = rookie("human", "lineman", 6)
    refused(book, player, (4, 4), why, skill=trait)


def test_stunty_needs_strength_two_and_physical_traits_need_mutations() -> None:
    book, skaven = rookie("skaven", "storm_vermin", 6)  # ST 3, may mutate
    refused(book, skaven, (2, 2), "strength 2 or less", skill="Stunty")
    advance(book, skaven, (2, 2), skill="Big Hand")


# --- Big Guys' doubles and the characteristic ceiling ------------------------------------------


def test_a_big_guy_double_gives_plus_one_st_or_av_not_another_category() -> None:
    book, ogre = rookie("ogre", "ogre", 22)
    refused(book, ogre, (2, 2), "not open to us-p1 \\(Ogre: GS\\)", skill="Dodge")
    advance(book, ogre, (2, 2), characteristic="av")
    advance(book, ogre, (1, 1), characteristic="st")
    row = book.player_row(ogre)
    assert (row.st, row.av) == (6, 10)


def test_a_big_guy_double_removes_a_trait() -> None:
    book, ogre = rookie("ogre", "ogre", 12)
    advance(book, ogre, (5, 5), skill="Bone-Head")
    assert "Bone-Head" not in book.player_row(ogre).skills


def test_only_a_big_guy_double_removes_a_trait() -> None:
    book, troll = rookie("goblin", "troll", 12)
    assert remove_trait(book, troll, (2, 5), "Really Stupid") == [
        "only a Big Guy rolling a double may remove a trait"
    ]
    assert remove_trait(book, troll, (2, 2), "Really Stupid") == []
    refused(book, troll, (2, 2), "is a skill, not a trait", skill="Mighty Blow")


def test_strength_and_armour_never_more_than_two_over_the_start() -> None:
    book, ogre = rookie("ogre", "ogre", 52)  # three rolls: Experienced, Veteran, Star Player
    advance(book, ogre, (1, 1), characteristic="st")
    advance(book, ogre, (2, 2), characteristic="st")
    refused(book, ogre, (3, 3), "never more than 2 over the starting 5", characteristic="st")


def test_nothing_is_improved_past_ten() -> None:
    book, treeman = rookie("treeman", "treeman", 12)  # AV 10
    refused(book, treeman, (4, 4), "nor above 10", characteristic="av")
    advance(book, treeman, (4, 4), characteristic="st")


def test_a_characteristic_roll_at_its_ceiling_is_lost() -> None:
    book, player = rookie("human", "lineman", 26)
    advance(book, player, (5, 6), characteristic="ag")
    advance(book, player, (6, 5), characteristic="ag")
    advance(book, player, (5, 6))  # AG 5 is 3 + 2: the roll is wasted, and recorded
    assert book.player_row(player).ag == 5
    assert len(book.player_row(player).advancements) == 3


# --- players that may not earn SPP --------------------------------------------------------------


def test_fanatics_and_death_rollers_earn_no_spp_and_never_roll() -> None:
    book = Book("gold4")
    (fanatic,) = book.team("gobs", "goblin", ["fanatic"])
    book.team("them", "human", ["lineman"])
    line = Performance(player=fanatic, touchdowns=3)
    book.record(
        ev.MatchRecorded,
        match="f0",
        kind="friendly",
        home=sheet("gobs", 3, [line]),
        away=sheet("them"),
    )
    assert book.player_row(fanatic).spp == 0
    refused_player = book.player_row(fanatic)
    problems = said(
        book.ruleset.check_advancement(
            refused_player,
            book.team_row("gobs"),
            star_roll(fanatic, (1, 2), team="gobs", skill="Block"),
        )
    )
    assert problems == ["a Fanatic may not earn SPPs, so never rolls on the Star Player table"]


# --- which traits may be acquired (SKILLS AND TRAITS / Acquiring Traits) ------------------------


def acquirable(book: Book, player: str, dice: tuple[int, int]) -> set[str]:
    """The traits of the Skills and Trait Table the rules let ``player`` take on ``dice``."""
    state = book.fold()
    row, team = book.player_row(player, state), book.team_row("us", state)
    table = load_gold4_tables().tables.skills_and_traits
    return {
        t.name
        for t in table
        if t.kind == "trait"
        and not book.ruleset.check_advancement(row, team, star_roll(player, dice, skill=t.name))
    }


def test_a_human_blitzer_may_acquire_his_general_and_strength_traits_on_a_double() -> None:
    """Acquiring Traits: "the restrictions that apply to picking a skill DO apply" (his own
    categories, G and S); Physical "only ... players that can have mutations"; "Daemonic
    traits may not be chosen"; Regeneration "no more players can acquire it" (NEW SKILLS &
    TRAITS). Nothing excludes the traits that only hinder: the seed lists no such rule."""
    book, blitzer = rookie("human", "blitzer", 6)
    assert acquirable(book, blitzer, (3, 3)) == {
        *("Always Hungry", "Dauntless", "Frenzy", "Leader", "Nerves of Steel"),
        *("Off For A Bite", "Pro", "Stupid", "Take Root", "Wild Animal"),
        "Stand Firm",  # printed in the Traits columns as (Strength)
    }
    assert acquirable(book, blitzer, (3, 4)) == set()  # "you roll a double"


@pytest.mark.parametrize("trait", ["Stupid", "Wild Animal", "Take Root", "Always Hungry"])
def test_a_trait_that_only_hinders_may_still_be_chosen_on_a_double(trait: str) -> None:
    """Acquiring Traits: "you may choose to let the player acquire a trait rather than
    picking 'any skill'" - a coach's choice, however bad; traits "must" be used (Traits)."""
    book, blitzer = rookie("human", "blitzer", 6)
    advance(book, blitzer, (5, 5), skill=trait)
    assert trait in book.player_row(blitzer).skills


def test_a_mutant_may_take_physical_traits_but_never_daemonic_or_regeneration() -> None:
    book, vermin = rookie("skaven", "storm_vermin", 6)  # G S primary, may mutate (M), ST 3
    found = acquirable(book, vermin, (2, 2))
    assert {"Bone-Head", "Big Hand", "Two Heads", "Very Long Legs"} <= found
    assert not found & {"Daemonic Aura", "Split", "Unstable", "Regeneration", "Stunty"}


def test_the_catalogue_lists_the_tables_traits_as_traits() -> None:
    """The Skills and Trait Table's Traits columns are the catalogue's category T, so a
    pick-list can set them apart; its skills keep their access letters."""
    skills = {s.name: s.category for s in Book("gold4").ruleset.catalogue.skills()}
    assert (skills["Stupid"], skills["Stand Firm"], skills["Daemonic Aura"]) == ("T", "T", "T")
    assert (skills["Block"], skills["Dodge"], skills["Claw"]) == ("G", "A", "M")


# --- no Passing characteristic ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roster", "position", "spp", "dice"),
    [
        ("human", "thrower", 6, (4, 6)),
        ("human", "thrower", 6, (5, 6)),
        ("human", "thrower", 6, (6, 6)),
        ("human", "thrower", 6, (2, 2)),
        ("ogre", "ogre", 12, (3, 3)),
    ],
)
def test_no_star_player_roll_raises_pa(
    roster: str, position: str, spp: int, dice: tuple[int, int]
) -> None:
    """3rd and 4th edition profiles are MA ST AG AV: the Star Player table gives 10 +1 MA,
    11 +1 AG, 12 +1 ST (Death Zone), and a Big Guy's double "+1 to his strength" or "+1 to
    his armour value" (BIG GUYS AND STAR PLAYER POINTS) - never PA."""
    book, player = rookie(roster, position, spp)
    refused(book, player, dice, "not \\+1 PA", characteristic="pa")
