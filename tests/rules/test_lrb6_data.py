"""The lrb6-zal data files load through ledger.rules.schema and keep LRB6's invariants.

Source texts: shared/seeds/000_e199eb2e30fe6ef5.txt (ZAL Season 5 house rules: 3a admitted
teams, 3d apothecaries, 3j home-grown stars) on top of LRB6 (Blood Bowl Competition Rules
2010) team lists, star players and skill list. Readings are in
ledger/rules/lrb6/data/README.md (the lists lrb6 and lrb6-zal share).

Skill names are compared exactly as stored: LRB6 skills take no parameters, and the one
normalisation made in the data (LRB6's "Claw/Claws" heading and the "Claw" spelling on some
star profiles, stored as "Claws") is documented in the README.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.rules import schema
from ledger.rules.schema import SkillList, StarPlayerList, TeamList, load_team_lists, load_yaml

DATA = Path(schema.__file__).resolve().parent / "lrb6" / "data"

# ZAL Season 5, rule 3a (ids of the LRB6 team lists; "Elf" and "Pro-Elf" are one list).
ZAL_ADMITTED = {
    "chaos",
    "chaos_dwarf",
    "dwarf",
    "high_elf",
    "dark_elf",
    "wood_elf",
    "goblin",
    "halfling",
    "human",
    "orc",
    "skaven",
    "undead",
    "amazon",
    "elf",
    "khemri",
    "lizardman",
    "necromantic",
    "norse",
    "nurgle",
    "ogre",
    "vampire",
    "chaos_pact",
    "slann",
    "underworld",
}
# ZAL Season 5, rule 3d: every team except these may buy an apothecary.
NO_APOTHECARY = {"undead", "khemri", "necromantic"}
# ZAL Season 5, rule 3j: home-grown stars whose figures we do not have.
ZAL_HOME_GROWN = {"lupius", "thorn", "smiley", "hrist"}
SKILL_ACCESS = {"G", "A", "S", "P", "M"}
MIN_TEAMS = 12
MIN_STARS = 20
GOLD_STEP = 5_000


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
def skill_names(skills: SkillList) -> set[str]:
    return {skill.name for skill in skills.skills}


def test_at_least_twelve_zal_teams_are_listed(teams: dict[str, TeamList]) -> None:
    assert len(teams) >= MIN_TEAMS
    assert set(teams) <= ZAL_ADMITTED


def test_team_files_are_named_after_their_ids(teams: dict[str, TeamList]) -> None:
    for path in sorted((DATA / "teams").glob("*.yaml")):
        assert path.stem in teams, path


def test_every_team_can_field_eleven_players(teams: dict[str, TeamList]) -> None:
    for team in teams.values():
        assert sum(p.max for p in team.positions) >= team.min_players, team.id


def test_costs_are_printed_in_steps_of_five_thousand(
    teams: dict[str, TeamList], stars: StarPlayerList
) -> None:
    for team in teams.values():
        assert team.reroll_cost % GOLD_STEP == 0, team.id
        for position in team.positions:
            assert position.cost > 0, (team.id, position.id)
            assert position.cost % GOLD_STEP == 0, (team.id, position.id)
    for star in stars.stars:
        assert star.cost % GOLD_STEP == 0, star.id


def test_every_team_has_a_line_position(teams: dict[str, TeamList]) -> None:
    for team in teams.values():
        lines = [p for p in team.positions if "lineman" in p.keywords]
        assert lines, team.id
        # The line position is the 0-16 (or, for Chaos Pact and Underworld, 0-12) one.
        assert all(p.max >= 12 for p in lines), team.id


def test_apothecary_is_barred_exactly_for_the_zal_undead_teams(
    teams: dict[str, TeamList],
) -> None:
    barred = {team.id for team in teams.values() if not team.apothecary}
    assert barred == NO_APOTHECARY & set(teams)


def test_lrb6_has_no_passing_characteristic(
    teams: dict[str, TeamList], stars: StarPlayerList
) -> None:
    for team in teams.values():
        assert all(p.pa is None for p in team.positions), team.id
    assert all(star.pa is None for star in stars.stars)


def test_skill_access_uses_the_five_lrb6_categories_once_each(
    teams: dict[str, TeamList],
) -> None:
    for team in teams.values():
        for p in team.positions:
            assert p.primary, (team.id, p.id)
            assert set(p.primary) | set(p.secondary) <= SKILL_ACCESS, (team.id, p.id)
            assert not set(p.primary) & set(p.secondary), (team.id, p.id)
            assert set(p.primary) | set(p.secondary) >= {"G", "A", "S", "P"}, (team.id, p.id)


def test_position_skills_exist_in_the_skill_list(
    teams: dict[str, TeamList], skill_names: set[str]
) -> None:
    for team in teams.values():
        for p in team.positions:
            assert set(p.skills) <= skill_names, (team.id, p.id, set(p.skills) - skill_names)


def test_big_guy_and_secret_weapon_tags_follow_the_printed_skills(
    teams: dict[str, TeamList],
) -> None:
    for team in teams.values():
        for p in team.positions:
            assert ("secret_weapon" in p.keywords) == ("Secret Weapon" in p.skills), p.id
            if "big_guy" in p.keywords:
                assert "Loner" in p.skills, (team.id, p.id)
            if "Loner" in p.skills:
                assert {"big_guy", "secret_weapon"} & set(p.keywords), (team.id, p.id)


def test_skill_list_is_unique_and_categorised(skills: SkillList) -> None:
    names = [skill.name for skill in skills.skills]
    assert len(names) == len(set(names))
    assert {skill.category for skill in skills.skills} == {"G", "A", "P", "S", "M", "T"}
    assert not any(skill.elite for skill in skills.skills)


def test_at_least_twenty_stars_with_unique_ids(stars: StarPlayerList) -> None:
    ids = [star.id for star in stars.stars]
    assert len(ids) >= MIN_STARS
    assert len(ids) == len(set(ids))


def test_stars_play_for_existing_teams(teams: dict[str, TeamList], stars: StarPlayerList) -> None:
    for star in stars.stars:
        assert star.plays_for, star.id
        assert set(star.plays_for) <= set(teams), (star.id, set(star.plays_for) - set(teams))


def test_star_skills_exist_and_every_star_is_a_loner(
    stars: StarPlayerList, skill_names: set[str]
) -> None:
    for star in stars.stars:
        assert set(star.skills) <= skill_names, (star.id, set(star.skills) - skill_names)
        assert "Loner" in star.skills, star.id  # ZAL 3f: Star Players always have Loner.


def test_paired_stars_point_at_each_other(stars: StarPlayerList) -> None:
    by_id = {star.id: star for star in stars.stars}
    for star in stars.stars:
        if star.pair_with is not None:
            assert by_id[star.pair_with].pair_with == star.id, star.id


def test_morg_n_thorg_plays_for_everyone_but_the_undead_teams(
    teams: dict[str, TeamList], stars: StarPlayerList
) -> None:
    morg = next(star for star in stars.stars if star.id == "morg_n_thorg")
    assert set(morg.plays_for) == set(teams) - NO_APOTHECARY


def test_zal_home_grown_stars_are_not_invented(stars: StarPlayerList) -> None:
    listed = {word for star in stars.stars for word in star.id.split("_")}
    assert not listed & ZAL_HOME_GROWN
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    for name in ("Lupius", "Thorn", "Smiley", "Hrist"):
        assert name in readme
