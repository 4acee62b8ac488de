"""The bb2025 data files load through ledger.rules.schema and keep the edition's invariants.

Source texts: shared/seeds/001_df046463b98a88b8.txt (League Play chapter: 'Take on
Journeymen', 'Inducements', 'New Skills' with its Elite Skills and the D category, the
Value Increase Table, and the 'Re-draft Team' example of Skweek the Gutter Runner) and
shared/seeds/003_4ab5acb6d0b504fb.txt (Spike! Almanac 2021: the Star Players named in the
All-Star and Long Term Contract examples, and the paired stars). Team rosters, star
profiles, the skill list and the inducement list are not in the seeds; where they come
from, and every reading made, is in ledger/rules/bb2025/data/README.md.

Skill names: positions and stars store skills as printed ('Loner (4+)', 'Hatred (Troll)',
'Animosity (all)'); skills.yaml stores each parameterised skill once with X ('Loner (X+)',
'Hatred (X)'). The comparison normalises both sides by dropping one trailing parenthesised
part, so 'Loner (4+)' and 'Loner (X+)' both become 'Loner' and 'Mighty Blow (+1)' becomes
'Mighty Blow'. A printed name with a parameter must match an entry that takes one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ledger.rules import schema
from ledger.rules.schema import (
    InducementList,
    SkillList,
    StarPlayerList,
    TeamList,
    load_team_lists,
    load_yaml,
)

DATA = Path(schema.__file__).resolve().parent / "bb2025" / "data"

REQUIRED_TEAMS = {
    "human",
    "orc",
    "skaven",
    "dwarf",
    "wood_elf",
    "dark_elf",
    "shambling_undead",
    "necromantic_horror",
    "chaos_chosen",
}
# Team rosters: these four may not hire an Apothecary.
NO_APOTHECARY = {"shambling_undead", "necromantic_horror", "tomb_kings", "nurgle"}
# Seed 001 'Take on Journeymen': a Journeyman is a Lineman with QTY 0-16. Every team list
# of this edition has one; a team listed here would have none (documented in the README).
NO_JOURNEYMAN_LINE: dict[str, str] = {}
JOURNEYMAN_QTY = 16
# Seed 001 'New Skills' / 'Value Increase Table'.
ELITE_SKILLS = {"Block", "Dodge", "Guard", "Mighty Blow"}
PRIMARY_SKILL_VALUE = 20_000
SKILL_CATEGORIES = {"A", "D", "G", "M", "P", "S"}
SKILLS_PER_CATEGORY = 12  # the Skill Table is rolled on 2D6: two halves of six rows
# Seed 001 'Re-draft Team': Skweek, a Gutter Runner with three Primary Skills, is worth
# 145,000 gold pieces.
SKWEEK_VALUE = 145_000
SKWEEK_PRIMARY_SKILLS = 3
# Seed 003: stars named in the All-Star draft and Long Term Contract examples.
SEED_003_STARS = {
    "morg_n_thorg",
    "deeproot_strongbranch",
    "varag_ghoul_chewer",
    "the_mighty_zug",
    "lord_borak_the_despoiler",
    "roxanna_darknail",
    "frank_n_stein",
    "zolcath_the_zoat",
    "gloriel_summerbloom",
    "the_black_gobbo",
    "glart_smashrip",
    "wilhelm_chaney",
    "lucien_swift",
    "valen_swift",
    "grak",
    "crumbleberry",
}
SEED_003_PAIRS = {("grak", "crumbleberry"), ("lucien_swift", "valen_swift")}
MIN_STARS = 25
REQUIRED_INDUCEMENTS = {
    "prayers_to_nuffle",
    "part_time_assistant_coaches",
    "temp_agency_cheerleaders",
    "team_mascot",
    "blitzers_best_kegs",
    "bribes",
    "extra_team_training",
    "halfling_master_chef",
    "mortuary_assistant",
    "plague_doctor",
    "riotous_rookies",
    "wandering_apothecary",
    "weather_mage",
    "biased_referee_dodgy_league_rep",
}
BLITZERS_BEST_KEG = 50_000  # seed 001 'Inducements' example
GOLD_STEP = 5_000
ANY_TEAM = "any"
KEYWORD = re.compile(r"^[a-z0-9_]+$")
PARAMETER = re.compile(r"\s*\([^()]*\)$")


def base_name(skill: str) -> str:
    return PARAMETER.sub("", skill).strip()


@pytest.fixture(scope="module")
def teams() -> dict[str, TeamList]:
    return load_team_lists(DATA / "teams")


@pytest.fixture(scope="module")
def stars() -> StarPlayerList:
    return load_yaml(DATA / "stars.yaml", StarPlayerList)


@pytest.fixture(scope="module")
def skills() -> SkillList:
    return load_yaml(DATA / "skills.yaml", SkillList)


@pytest.fixture(scope="module")
def inducements() -> InducementList:
    return load_yaml(DATA / "inducements.yaml", InducementList)


@pytest.fixture(scope="module")
def skill_bases(skills: SkillList) -> dict[str, bool]:
    """Base name -> whether the skill takes a parameter."""
    return {base_name(s.name): base_name(s.name) != s.name for s in skills.skills}


@pytest.fixture(scope="module")
def team_rules(teams: dict[str, TeamList]) -> set[str]:
    return {rule for team in teams.values() for rule in team.special_rules}


def test_file_names_match_team_ids(teams: dict[str, TeamList]) -> None:
    assert {p.stem for p in (DATA / "teams").glob("*.yaml")} == set(teams)


def test_the_required_teams_exist(teams: dict[str, TeamList]) -> None:
    assert set(teams) >= REQUIRED_TEAMS


@pytest.mark.parametrize("team_id", sorted(REQUIRED_TEAMS))
def test_every_required_team_has_notes_and_a_source(
    teams: dict[str, TeamList], team_id: str
) -> None:
    assert teams[team_id].source
    assert teams[team_id].notes


def test_every_team_can_field_eleven_players(teams: dict[str, TeamList]) -> None:
    short = {
        t.id: sum(p.max for p in t.positions)
        for t in teams.values()
        if sum(p.max for p in t.positions) < t.min_players
    }
    assert not short


def test_every_cost_is_a_multiple_of_5000(
    teams: dict[str, TeamList], stars: StarPlayerList, inducements: InducementList
) -> None:
    costs = {f"{t.id} re-roll": t.reroll_cost for t in teams.values()}
    costs |= {f"{t.id}/{p.id}": p.cost for t in teams.values() for p in t.positions}
    costs |= {f"star {s.id}": s.cost for s in stars.stars}
    costs |= {f"inducement {i.id}": i.cost for i in inducements.inducements}
    costs |= {
        f"inducement {i.id} for {who}": price
        for i in inducements.inducements
        for who, price in i.reduced_cost.items()
    }
    off_step = {what: cost for what, cost in costs.items() if cost % GOLD_STEP}
    assert not off_step
    assert all(cost > 0 for what, cost in costs.items() if not what.startswith("star "))


def test_every_team_has_a_journeyman_line(teams: dict[str, TeamList]) -> None:
    """Seed 001: Journeymen are Linemen with a QTY of 0-16."""
    missing = {
        t.id
        for t in teams.values()
        if not any("lineman" in p.keywords and p.max == JOURNEYMAN_QTY for p in t.positions)
    }
    assert missing == set(NO_JOURNEYMAN_LINE)


def test_sixteen_strong_positions_are_tagged_lineman(teams: dict[str, TeamList]) -> None:
    untagged = {
        f"{t.id}/{p.id}"
        for t in teams.values()
        for p in t.positions
        if p.max == JOURNEYMAN_QTY and "lineman" not in p.keywords
    }
    assert not untagged


def test_skaven_clanrat_and_gutter_runner(teams: dict[str, TeamList]) -> None:
    skaven = teams["skaven"]
    clanrat = skaven.position("clanrat")
    runner = skaven.position("gutter_runner")
    assert clanrat is not None
    assert runner is not None
    assert clanrat.name == "Skaven Clanrat"
    assert clanrat.cost == 50_000
    assert "lineman" in clanrat.keywords
    assert clanrat.max == JOURNEYMAN_QTY
    assert runner.name == "Gutter Runner"
    assert runner.cost + SKWEEK_PRIMARY_SKILLS * PRIMARY_SKILL_VALUE == SKWEEK_VALUE


def test_apothecaries(teams: dict[str, TeamList]) -> None:
    assert {t.id for t in teams.values() if not t.apothecary} == NO_APOTHECARY


def test_skill_access_uses_skill_categories_only(teams: dict[str, TeamList]) -> None:
    for team in teams.values():
        for p in team.positions:
            assert set(p.primary) <= SKILL_CATEGORIES, (team.id, p.id)
            assert set(p.secondary) <= SKILL_CATEGORIES, (team.id, p.id)
            assert not set(p.primary) & set(p.secondary), (team.id, p.id)


def test_profiles_are_in_range(teams: dict[str, TeamList], stars: StarPlayerList) -> None:
    profiles = [(f"{t.id}/{p.id}", p) for t in teams.values() for p in t.positions]
    profiles += [(f"star {s.id}", s) for s in stars.stars]
    for what, p in profiles:
        assert 1 <= p.ma <= 9, what
        assert 1 <= p.st <= 8, what
        assert 1 <= p.ag <= 6, what
        assert p.pa is None or 1 <= p.pa <= 6, what
        assert 3 <= p.av <= 11, what


def test_keywords(teams: dict[str, TeamList], stars: StarPlayerList) -> None:
    tagged = [(f"{t.id}/{p.id}", p.skills, p.keywords) for t in teams.values() for p in t.positions]
    tagged += [(f"star {s.id}", s.skills, s.keywords) for s in stars.stars]
    for what, skill_list, keywords in tagged:
        assert all(KEYWORD.match(k) for k in keywords), what
        assert ("secret_weapon" in keywords) == ("Secret Weapon" in skill_list), what


def test_skill_list(skills: SkillList) -> None:
    names = [s.name for s in skills.skills]
    assert len(names) == len(set(names))
    assert len({base_name(n) for n in names}) == len(names)
    for category in SKILL_CATEGORIES:
        in_category = [s for s in skills.skills if s.category == category]
        assert len(in_category) == SKILLS_PER_CATEGORY, category
    assert {s.name for s in skills.skills if s.elite} == ELITE_SKILLS
    assert all(s.category != "T" for s in skills.skills if s.elite)


def test_every_skill_used_is_in_the_skill_list(
    teams: dict[str, TeamList], stars: StarPlayerList, skill_bases: dict[str, bool]
) -> None:
    used = [(f"{t.id}/{p.id}", s) for t in teams.values() for p in t.positions for s in p.skills]
    used += [(f"star {st.id}", s) for st in stars.stars for s in st.skills]
    unknown = {(what, s) for what, s in used if base_name(s) not in skill_bases}
    assert not unknown
    # 'Mighty Blow (+1)' (the BB2025 printing kept on Frank 'n' Stein) is the one
    # parameter written on a skill that this edition prints without one.
    wrong_form = {
        (what, s)
        for what, s in used
        if base_name(s) != s and not skill_bases[base_name(s)] and s != "Mighty Blow (+1)"
    }
    assert not wrong_form
    missing_parameter = {(what, s) for what, s in used if base_name(s) == s and skill_bases[s]}
    assert not missing_parameter


def test_stars(stars: StarPlayerList) -> None:
    ids = [s.id for s in stars.stars]
    assert len(ids) == len(set(ids))
    assert len(ids) >= MIN_STARS
    assert set(ids) >= SEED_003_STARS


def test_star_pairs_reference_each_other(stars: StarPlayerList) -> None:
    by_id = {s.id: s for s in stars.stars}
    for star in stars.stars:
        if star.pair_with is None:
            continue
        partner = by_id[star.pair_with]
        assert partner.pair_with == star.id, star.id
        assert partner.plays_for == star.plays_for, star.id
        # The pair's price is printed once; exactly one of the two carries it.
        assert (star.cost == 0) != (partner.cost == 0), star.id
    for first, second in SEED_003_PAIRS:
        assert by_id[first].pair_with == second
        assert by_id[second].pair_with == first


def test_every_star_can_play_for_some_team(stars: StarPlayerList, team_rules: set[str]) -> None:
    for star in stars.stars:
        assert star.plays_for, star.id
        assert set(star.plays_for) <= team_rules | {ANY_TEAM}, star.id


def test_inducements(
    inducements: InducementList, teams: dict[str, TeamList], team_rules: set[str]
) -> None:
    by_id = {i.id: i for i in inducements.inducements}
    assert len(by_id) == len(inducements.inducements)
    assert set(by_id) >= REQUIRED_INDUCEMENTS
    assert by_id["blitzers_best_kegs"].cost == BLITZERS_BEST_KEG
    assert by_id["bribes"].reduced_cost["Bribery and Corruption"] < by_id["bribes"].cost
    for item in inducements.inducements:
        assert item.max >= 1, item.id
        assert set(item.only_for) <= team_rules | set(teams), item.id
        assert set(item.reduced_cost) <= team_rules | set(teams), item.id
        assert all(price < item.cost for price in item.reduced_cost.values()), item.id
    # Restricted inducements can each be bought by at least one team list.
    for item in inducements.inducements:
        if item.only_for:
            assert any(set(item.only_for) & ({t.id, *t.special_rules}) for t in teams.values()), (
                item.id
            )
