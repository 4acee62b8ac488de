"""The High Elf and Slann lists of bb2025 against what each cited source prints for them.

The sources' facts are kept in tests/rules/data/bb2025/<team>.yaml (one block per source,
with where it is); the data files are ledger/rules/bb2025/data/teams/<team>.yaml. Each
source must differ from the data file in exactly the fields its ``readings`` list, and at
least two sources must agree with it on everything they print, so a figure typed wrongly
into the data file, or a disagreement nobody documented, fails here. The star players a
team may hire follow from its League (data/stars.yaml's ``plays_for``); the High Elf ones
are checked against the community site's High Elf page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from ledger.rules.bb2025.contracts import eligible
from ledger.rules.schema import Position, StarPlayerList, TeamList, load_yaml
from ledger.whatif import mapping

DATA = Path(__file__).parents[2] / "ledger" / "rules" / "bb2025" / "data"
FACTS = Path(__file__).parent / "data" / "bb2025"
TEAMS = ("high_elf", "slann")
FIELDS = ("max", "name", "cost", "ma", "st", "ag", "pa", "av", "skills", "primary", "secondary")

Row = dict[str, Any]
Difference = tuple[str, str, str, Any]
"""(source, position name, field, what the source prints)."""


def facts(team: str) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((FACTS / f"{team}.yaml").read_text(encoding="utf-8"))
    return loaded


def team_list(team: str) -> TeamList:
    return load_yaml(DATA / "teams" / f"{team}.yaml", TeamList)


def printed(row: list[Any], spellings: dict[str, str]) -> Row:
    """A source's row in the data file's terms: skills respelled, sets where order means
    nothing (skills, skill access, keywords)."""
    values = dict(zip((*FIELDS, "keywords"), row, strict=True))
    values["skills"] = frozenset(spellings.get(s, s) for s in values["skills"])
    values["primary"] = frozenset(values["primary"])
    values["secondary"] = frozenset(values["secondary"])
    keywords = values["keywords"]
    values["keywords"] = None if keywords is None else frozenset(k.lower() for k in keywords)
    return values


def ours(position: Position) -> Row:
    return {
        "max": position.max,
        "name": position.name,
        "cost": position.cost,
        "ma": position.ma,
        "st": position.st,
        "ag": position.ag,
        "pa": position.pa,
        "av": position.av,
        "skills": frozenset(position.skills),
        "primary": frozenset(position.primary),
        "secondary": frozenset(position.secondary),
        "keywords": frozenset(position.keywords),
    }


def differences(
    letter: str, source: dict[str, Any], data: TeamList, spellings: dict[str, str]
) -> set[Difference]:
    found: set[Difference] = set()
    for field, value in (
        ("reroll_cost", data.reroll_cost),
        ("apothecary", data.apothecary),
        ("special_rules", tuple(data.special_rules)),
    ):
        theirs = source[field]
        if theirs is not None and (tuple(theirs) if isinstance(theirs, list) else theirs) != value:
            found.add((letter, "team", field, as_listed(theirs)))
    rows = {r["name"]: r for r in (printed(row, spellings) for row in source["positions"])}
    mine = {p.name: ours(p) for p in data.positions}
    found |= {(letter, name, "position", "absent") for name in mine.keys() - rows.keys()}
    found |= {(letter, name, "position", "extra") for name in rows.keys() - mine.keys()}
    for name in mine.keys() & rows.keys():
        for field, value in rows[name].items():
            printed_at_all = value is not None or field != "keywords"
            if printed_at_all and value != mine[name][field]:
                found.add((letter, name, field, as_listed(value)))
    return found


def as_listed(value: Any) -> Any:
    """A printed value as the readings list writes it (sets as sorted tuples, or the
    letters of a skill access joined: 'PS')."""
    if isinstance(value, frozenset):
        items = sorted(value)
        return "".join(items) if all(len(i) == 1 for i in items) else tuple(items)
    if isinstance(value, list):
        return tuple(value)
    return value


def readings(team: str) -> set[Difference]:
    return {
        (letter, name, field, tuple(value) if isinstance(value, list) else value)
        for letter, name, field, value in facts(team)["readings"]
    }


@pytest.mark.parametrize("team", TEAMS)
def test_each_source_differs_from_the_data_file_exactly_in_its_readings(team: str) -> None:
    known = facts(team)
    data = team_list(team)
    found = set().union(
        *(
            differences(letter, source, data, known["spellings"])
            for letter, source in known["sources"].items()
        )
    )
    assert found == readings(team)


@pytest.mark.parametrize("team", TEAMS)
def test_at_least_two_sources_agree_with_every_field_of_the_data_file(team: str) -> None:
    known = facts(team)
    agreeing = [
        letter
        for letter, source in known["sources"].items()
        if not differences(letter, source, team_list(team), known["spellings"])
    ]
    assert len(agreeing) >= 2, agreeing


@pytest.mark.parametrize("team", TEAMS)
def test_every_source_is_located(team: str) -> None:
    for letter, source in facts(team)["sources"].items():
        where = source["where"]
        assert "stored_index_file" in where or {"repository", "path", "commit"} <= where.keys(), (
            letter
        )


def stars_for(team: TeamList) -> list[Any]:
    return [s for s in load_yaml(DATA / "stars.yaml", StarPlayerList).stars if eligible(s, team)]


def test_the_high_elf_stars_are_the_ones_the_community_site_lists() -> None:
    """A pair is one line on the page, at the pair's price (kept on its first star)."""
    page = facts("high_elf")["sources"]["C"]["stars"]
    names = {
        "Akhorne The Squirrel": "akhorne_the_squirrel",
        "Gloriel Summerbloom": "gloriel_summerbloom",
        "Kiroth Krakeneye": "kiroth_krakeneye",
        "Eldril Sidewinder": "eldril_sidewinder",
        "Zolcath The Zoat": "zolcath_the_zoat",
        "Grak and Crumbleberry": "grak",
        "Roxanna Darknail": "roxanna_darknail",
        "Jordell Freshbreeze": "jordell_freshbreeze",
        "The Swift Twins": "lucien_swift",
        "Jeremiah Kool": "jeremiah_kool",
        "Morg 'N' Thorg": "morg_n_thorg",
    }
    hireable = stars_for(team_list("high_elf"))
    priced = {s.id: s.cost for s in hireable if s.cost or not s.pair_with}
    assert priced == {names[name]: cost for name, cost in page}
    partners = {s.id for s in hireable if s.pair_with and not s.cost}
    assert partners == {"crumbleberry", "valen_swift"}


def test_slann_hire_the_stars_of_their_league_as_lizardmen_do() -> None:
    """No source prints a bb2025 Slann star list; both lists play in the Lustrian
    Superleague only, which is what a star's ``plays_for`` names."""
    slann, lizardmen = team_list("slann"), team_list("lizardmen")
    assert slann.special_rules == lizardmen.special_rules == ("Lustrian Superleague",)
    assert [s.id for s in stars_for(slann)] == [s.id for s in stars_for(lizardmen)]
    assert "anqi_panqi" in {s.id for s in stars_for(slann)}


@pytest.mark.parametrize("team", TEAMS)
def test_a_what_if_replays_the_list_as_lrb6s_list_of_the_same_name_and_back(team: str) -> None:
    """ledger/whatif/mappings/teams.yaml: every position of the list has its LRB6 position
    (LRB6 has both lists), and the LRB6 list replays as this one."""
    there = mapping.team_list("bb2025", "lrb6-zal", team)
    back = mapping.team_list("lrb6-zal", "bb2025", team)
    assert there is not None
    assert back is not None
    assert (there.name, there.approx, back.name, back.approx) == (team, False, team, False)
    for position in team_list(team).positions:
        theirs = mapping.position(there.row, "bb2025", "lrb6-zal", position.id)
        assert theirs is not None, position.id
        assert mapping.position(back.row, "lrb6-zal", "bb2025", theirs) == position.id
