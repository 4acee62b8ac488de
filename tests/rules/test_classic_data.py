"""The 3rd edition (dz3) team lists and the 4th edition "Gold" (gold4) data files.

Figures for gold4 are checked against seed 002 (shared/seeds/002_af84a64a17c90723.txt):
"Minotaur/Ogre/Treeman Team List", "ADDITIONS TO THE EXISTING TEAM LISTS", "ALLIED TEAMS
TABLE", "SECRET WEAPONS TABLE", "APPEARANCE FEES", "NEW INJURY TABLE" and "BIG GUYS AND STAR
PLAYER POINTS". The classic3 lists are checked for shape and internal consistency only; their
figures and doubts are documented in ledger/rules/classic3/data/README.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.rules.gold4.tables import Gold4Tables, load_gold4_tables
from ledger.rules.schema import TeamList, load_team_lists

RULES = Path(__file__).resolve().parents[2] / "ledger" / "rules"
CLASSIC3_TEAMS = RULES / "classic3" / "data" / "teams"
GOLD4_TEAMS = RULES / "gold4" / "data" / "teams"

CLASSIC3 = load_team_lists(CLASSIC3_TEAMS)
BIG_GUY_TEAMS = load_team_lists(GOLD4_TEAMS)


@pytest.fixture(scope="module")
def gold4() -> Gold4Tables:
    return load_gold4_tables()


def fieldable(team: TeamList) -> int:
    return sum(p.max for p in team.positions)


# --- classic3 ---------------------------------------------------------------------------


def test_at_least_ten_third_edition_team_lists_load() -> None:
    assert len(CLASSIC3) >= 10


@pytest.mark.parametrize("team", CLASSIC3.values(), ids=list(CLASSIC3))
def test_every_classic3_team_can_field_its_minimum_players(team: TeamList) -> None:
    assert fieldable(team) >= team.min_players == 11
    assert team.max_players == 16


@pytest.mark.parametrize("team", CLASSIC3.values(), ids=list(CLASSIC3))
def test_every_classic3_team_has_exactly_one_lineman_line(team: TeamList) -> None:
    linemen = [p for p in team.positions if "lineman" in p.keywords]
    assert len(linemen) == 1
    assert linemen[0].max >= 12


@pytest.mark.parametrize("team", CLASSIC3.values(), ids=list(CLASSIC3))
def test_third_edition_has_no_passing_characteristic_and_plain_values(team: TeamList) -> None:
    for p in team.positions:
        assert p.pa is None
        assert 1 <= p.ag <= 6
        assert 5 <= p.av <= 10
        assert p.cost % 10_000 == 0


@pytest.mark.parametrize("team", CLASSIC3.values(), ids=list(CLASSIC3))
def test_a_double_opens_every_other_non_mutation_category(team: TeamList) -> None:
    for p in team.positions:
        assert set(p.primary).isdisjoint(p.secondary)
        assert set(p.primary) | set(p.secondary) >= {"G", "A", "S", "P"}
        assert "M" not in p.secondary


def test_big_guys_are_not_on_third_edition_lists() -> None:
    """In 3rd edition Big Guys were Star Players (seed 002, "BIG GUYS")."""
    assert not [p.id for t in CLASSIC3.values() for p in t.positions if "big_guy" in p.keywords]


def test_orcs_may_hire_four_goblins_from_the_goblin_list() -> None:
    """Death Zone p. 28, quoted in seed 002's Q&A."""
    orc_goblin = CLASSIC3["orc"].position("goblin")
    goblin = CLASSIC3["goblin"].position("goblin")
    assert orc_goblin is not None
    assert goblin is not None
    assert orc_goblin.max == 4
    assert orc_goblin.model_dump(exclude={"max", "keywords"}) == goblin.model_dump(
        exclude={"max", "keywords"}
    )


def test_every_uncertain_list_says_so_in_its_notes() -> None:
    assert all(team.notes for team in CLASSIC3.values())


# --- gold4 Big Guy team lists ----------------------------------------------------------

BIG_GUY_LISTS = {
    # team: (cost, MV, ST, AG, AV, skills then traits as printed)
    "minotaur": (
        110_000,
        5,
        5,
        2,
        8,
        ("Horns", "Mighty Blow", "Thick Skull", "Wild Animal", "Always Hungry"),
    ),
    "ogre": (120_000, 5, 5, 2, 9, ("Mighty Blow", "Thick Skull", "Bone-Head")),
    "treeman": (110_000, 2, 6, 1, 10, ("Mighty Blow", "Stand Firm", "Thick Skull", "Take Root")),
}


@pytest.mark.parametrize(("team_id", "printed"), BIG_GUY_LISTS.items())
def test_big_guy_team_list_matches_seed_002(team_id: str, printed: tuple[object, ...]) -> None:
    team = BIG_GUY_TEAMS[team_id]
    (position,) = team.positions
    assert (position.min, position.max) == (0, 12)
    assert (position.cost, position.ma, position.st, position.ag, position.av, position.skills) == (
        printed
    )
    assert position.pa is None
    assert position.keywords == ("big_guy",)
    assert team.reroll_cost == 100_000
    assert (team.min_players, team.max_players) == (8, 12)


def test_only_the_three_printed_big_guy_teams_exist() -> None:
    assert set(BIG_GUY_TEAMS) == set(BIG_GUY_LISTS)


# --- gold4 additions -------------------------------------------------------------------

ADDITIONS = {
    # (team, position): (qty max, cost, MV, ST, AG, AV, skills then traits, keywords)
    ("chaos_dwarf", "bull_centaur"): (
        2,
        130_000,
        6,
        4,
        2,
        9,
        ("Sprint", "Sure Feet", "Thick Skull"),
        ("big_guy",),
    ),
    ("skaven", "rat_ogre"): (
        2,
        130_000,
        6,
        5,
        3,
        8,
        ("Mighty Blow", "Prehensile Tail", "Wild Animal"),
        ("big_guy",),
    ),
    ("goblin", "troll"): (
        2,
        100_000,
        4,
        5,
        1,
        9,
        ("Mighty Blow", "Really Stupid", "Regenerate", "Always Hungry"),
        ("big_guy",),
    ),
    ("goblin", "fanatic"): (1, 60_000, 4, 2, 3, 7, (), ("secret_weapon", "no_spp")),
    ("dwarf", "death_roller"): (
        1,
        160_000,
        4,
        7,
        1,
        10,
        ("Mighty Blow", "Stand Firm", "Multiple Block"),
        ("secret_weapon", "no_spp"),
    ),
}


def test_additions_are_exactly_the_five_printed_players(gold4: Gold4Tables) -> None:
    listed = {(team, p.id) for team, ps in gold4.additions.additions.items() for p in ps}
    assert listed == set(ADDITIONS)


@pytest.mark.parametrize(("key", "printed"), ADDITIONS.items(), ids=[k[1] for k in ADDITIONS])
def test_addition_matches_seed_002(
    gold4: Gold4Tables, key: tuple[str, str], printed: tuple[object, ...]
) -> None:
    team, position_id = key
    p = next(p for p in gold4.additions.additions[team] if p.id == position_id)
    assert (p.max, p.cost, p.ma, p.st, p.ag, p.av, p.skills, p.keywords) == printed
    assert p.min == 0
    assert p.pa is None


def test_additions_extend_existing_classic3_lists_without_clashing(gold4: Gold4Tables) -> None:
    for team, positions in gold4.additions.additions.items():
        assert team in CLASSIC3
        assert all(CLASSIC3[team].position(p.id) is None for p in positions)


@pytest.mark.parametrize(
    ("team", "position", "weapon", "penalty"),
    [("goblin", "fanatic", "Ball & Chain", 8), ("dwarf", "death_roller", "Death Roller", 7)],
)
def test_secret_weapon_additions_carry_penalty_roll_and_earn_no_spp(
    gold4: Gold4Tables, team: str, position: str, weapon: str, penalty: int
) -> None:
    special = gold4.additions.special(team, position)
    assert special is not None
    assert (special.weapon, special.penalty_roll, special.earns_spp) == (weapon, penalty, False)


def test_big_guy_additions_take_strength_and_general_and_rat_ogres_mutate(
    gold4: Gold4Tables,
) -> None:
    access = {p.id: p.primary for ps in gold4.additions.additions.values() for p in ps}
    assert access["bull_centaur"] == access["troll"] == ("G", "S")
    assert access["rat_ogre"] == ("G", "S", "M")
    assert access["fanatic"] == access["death_roller"] == ()


# --- gold4 tables ----------------------------------------------------------------------


def test_mighty_zug_counts_as_120_spp_and_pays_the_101_to_150_fee(gold4: Gold4Tables) -> None:
    fees = gold4.tables.appearance_fees
    spp = fees.star_player_spp(120_000)
    assert spp == 120
    assert fees.fee(spp, "monty_haul") == 0
    assert fees.fee(spp, "laissez_faire") == 25_000
    assert fees.fee(spp, "balanced") == 50_000


@pytest.mark.parametrize(
    ("spp", "laissez_faire", "balanced"),
    [
        (50, 0, 0),
        (51, 15_000, 25_000),
        (100, 15_000, 25_000),
        (101, 25_000, 50_000),
        (151, 50_000, 100_000),
        (400, 50_000, 100_000),
    ],
)
def test_appearance_fee_bands(
    gold4: Gold4Tables, spp: int, laissez_faire: int, balanced: int
) -> None:
    fees = gold4.tables.appearance_fees
    assert fees.fee(spp, "laissez_faire") == laissez_faire
    assert fees.fee(spp, "balanced") == balanced
    assert fees.fee(spp, "monty_haul") == 0


def test_orc_may_ally_with_goblins(gold4: Gold4Tables) -> None:
    allies = gold4.tables.allied_teams
    assert "Goblin" in allies.allies_of("Orc")
    assert allies.allies_of("ORC") == ("Chaos", "Chaos Dwarf", "Goblin", "Norse", "Ogre")


def test_goblins_cannot_ally_with_chaos_dwarfs_but_chaos_dwarfs_can_with_goblins(
    gold4: Gold4Tables,
) -> None:
    """The seed's own example of a one-way alliance."""
    allies = gold4.tables.allied_teams
    assert "Goblin" in allies.allies_of("Chaos Dwarf")
    assert "Chaos Dwarf" not in allies.allies_of("Goblin")


def test_big_guy_teams_and_unlisted_teams_take_no_allies(gold4: Gold4Tables) -> None:
    allies = gold4.tables.allied_teams
    assert allies.allies_of("Ogres") == allies.allies_of("Minotaurs") == ()
    assert allies.allies_of("Slann") == ()
    assert allies.max_allies_per_allowed_race == 1
    assert allies.team_rerolls_on_allies is False


def test_free_starting_reroll_races(gold4: Gold4Tables) -> None:
    free = gold4.tables.free_reroll_races
    assert set(free.races) == {"High Elf", "Dark Elf", "Wood Elf", "Dwarf"}
    assert free.free_team_rerolls == 1
    assert free.applies_to_mixed_race_teams is False


def test_chainsaw_costs_60000_with_penalty_8(gold4: Gold4Tables) -> None:
    chainsaw = gold4.tables.secret_weapons.weapon("chainsaw")
    assert (chainsaw.cost, chainsaw.penalty_roll) == (60_000, 8)
    assert "Goblin" in chainsaw.teams


def test_secret_weapons_table_as_printed(gold4: Gold4Tables) -> None:
    weapons = gold4.tables.secret_weapons
    assert {w.id: (w.cost, w.penalty_roll) for w in weapons.weapons} == {
        "chainsaw": (60_000, 8),
        "blunderbuss": (30_000, 10),
        "poison_dagger": (10_000, 10),
        "explosive_bomb": (40_000, 8),
        "stink_bomb": (20_000, 10),
        "pogo_stick": (20_000, 10),
    }


def test_one_secret_weapon_per_team_and_four_for_goblins(gold4: Gold4Tables) -> None:
    weapons = gold4.tables.secret_weapons
    assert weapons.limit_for("Human") == 1
    assert weapons.limit_for("Goblin") == 4


@pytest.mark.parametrize(
    ("total", "result"),
    [
        (2, "stunned"),
        (7, "stunned"),
        (8, "knocked_out"),
        (9, "knocked_out"),
        (10, "injury"),
        (12, "injury"),
        (14, "injury"),
    ],
)
def test_new_injury_table(gold4: Gold4Tables, total: int, result: str) -> None:
    assert gold4.tables.injury_table.result(total) == result


@pytest.mark.parametrize(
    ("roll", "result"),
    [
        (1, "badly_hurt"),
        (3, "badly_hurt"),
        (4, "seriously_injured"),
        (5, "seriously_injured"),
        (6, "dead"),
    ],
)
def test_specific_injury_table_is_unmodified_d6(gold4: Gold4Tables, roll: int, result: str) -> None:
    table = gold4.tables.specific_injury_table
    assert table.modifiers_apply is False
    assert table.result(roll) == result


@pytest.mark.parametrize(
    ("spp", "big_guy", "title"),
    [
        (5, False, "Rookie"),
        (6, False, "Experienced"),
        (11, False, "Veteran"),
        (6, True, "Rookie"),
        (11, True, "Rookie"),
        (12, True, "Experienced"),
        (21, True, "Experienced"),
        (22, True, "Veteran"),
        (52, True, "Star Player"),
        (51, False, "Super Star"),
    ],
)
def test_big_guys_need_double_spp(gold4: Gold4Tables, spp: int, big_guy: bool, title: str) -> None:
    spp_rules = gold4.tables.big_guy_spp
    assert spp_rules.level(spp, big_guy=big_guy) == title


def test_big_guy_first_levels_are_the_seed_example(gold4: Gold4Tables) -> None:
    levels = {lv.title: lv.big_guy_min_spp for lv in gold4.tables.big_guy_spp.levels}
    assert (levels["Experienced"], levels["Veteran"]) == (12, 22)


def test_big_guy_traits_are_traits_in_the_printed_table(gold4: Gold4Tables) -> None:
    tables = gold4.tables
    for name in ("Wild Animal", "Always Hungry", "Bone-Head", "Take Root"):
        assert tables.is_trait(name)
    for name in ("Horns", "Mighty Blow", "Sprint", "Sure Feet"):
        assert not tables.is_trait(name)
