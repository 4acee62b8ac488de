"""What each edition's catalogue offers a team beyond its own list (``Catalogue.allies``,
``stars_joining``, ``equipment``), as data.

- gold4 (seed 002, MIXED RACE TEAMS and the ALLIED TEAMS TABLE): 'one ally from each
  allowed race', the races of the team's row (ANY OTHER for a team without one), lists
  gold4 has; SECRET WEAPONS: 'Allied players may only use weapons allowed in the team they
  are allied to', none for a player who comes armed, none without the rules.
- lrb6-zal (seed 000, ZAL 3f): Star Players 'permanently integrated into a team', those
  who play for the team's list.
- dz3 (seed 004, 'Star Players'): the books' stars, Alt (c) 'except those with secret
  weapons', Alt (d) 'not permitted'.
- bb2025, bb2020, lrb6: stars are induced for one game, never hired; no allies, no weapons.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.rules import find_ruleset

STARS = [
    ("lrb6-zal", {}, "orc", ["bomber_dribblesnot", "morg_n_thorg", "ripper_bolgrot",
                             "scrappa_sorehead", "ugroth_bolgrot", "varag_ghoul_chewer"]),
    ("lrb6-zal", {}, "human", ["griff_oberwald", "helmut_wulf", "mighty_zug", "morg_n_thorg",
                               "puggy_baconbreath", "zara_the_slayer"]),
    ("dz3", {}, "orc", ["bomber_dribblesnot", "morg_n_thorg", "nobbla_blackwart"]),
    ("dz3", {"star_players": "secret_weapons"}, "orc", ["bomber_dribblesnot", "nobbla_blackwart"]),
    ("dz3", {"star_players": "none"}, "orc", []),
    ("bb2025", {}, "orc", []),
    ("bb2020", {}, "orc", []),
    ("lrb6", {}, "orc", []),
    ("gold4", {}, "orc", []),
]  # fmt: skip


@pytest.mark.parametrize(("ruleset", "options", "roster", "stars"), STARS)
def test_the_stars_who_may_join_a_team_for_good(
    ruleset: str, options: dict[str, Any], roster: str, stars: list[str]
) -> None:
    joining = find_ruleset(ruleset, options).catalogue.stars_joining(roster)
    assert sorted(s.id for s in joining) == stars


ALLIES = [
    ("orc", {"chaos": 1, "chaos_dwarf": 1, "goblin": 1, "ogre": 1}),  # Norse: no gold4 list
    ("goblin", {"ogre": 1, "orc": 1, "skaven": 1}),
    ("halfling", {"human": 1, "ogre": 1, "treeman": 1, "wood_elf": 1}),
]


@pytest.mark.parametrize(("roster", "allies"), ALLIES)
def test_the_lists_a_gold4_team_may_take_allies_from(roster: str, allies: dict[str, int]) -> None:
    assert dict(find_ruleset("gold4").catalogue.allies(roster)) == allies


@pytest.mark.parametrize("ruleset", ["bb2025", "bb2020", "lrb6", "lrb6-zal", "dz3"])
def test_editions_without_allies_offer_none(ruleset: str) -> None:
    assert dict(find_ruleset(ruleset).catalogue.allies("orc")) == {}


WEAPONS = [
    ({}, "orc", "orc", "lineman", ["chainsaw"]),
    ({}, "orc", "goblin", "troll", ["chainsaw"]),  # an ally uses his new team's weapons
    ({}, "orc", "goblin", "fanatic", []),  # comes armed
    ({"secret_weapons": False}, "orc", "orc", "lineman", []),
]


@pytest.mark.parametrize(("options", "team", "from_list", "position", "weapons"), WEAPONS)
def test_the_secret_weapons_a_gold4_player_may_be_bought_with(
    options: dict[str, Any], team: str, from_list: str, position: str, weapons: list[str]
) -> None:
    catalogue = find_ruleset("gold4", options).catalogue
    offered = catalogue.equipment(team, catalogue.position(from_list, position))
    assert [w.id for w in offered] == weapons


ARMOURIES = [
    ("goblin", "goblin", {"chainsaw": 60_000, "explosive_bomb": 40_000, "stink_bomb": 20_000,
                          "pogo_stick": 20_000}),
    ("dwarf", "longbeard", {"chainsaw": 60_000, "blunderbuss": 30_000, "explosive_bomb": 40_000}),
]  # fmt: skip


@pytest.mark.parametrize(("team", "position", "weapons"), ARMOURIES)
def test_each_team_buys_the_weapons_of_its_row_at_the_table_s_cost(
    team: str, position: str, weapons: dict[str, int]
) -> None:
    """SECRET WEAPONS TABLE: the teams that may use each weapon, and its cost."""
    catalogue = find_ruleset("gold4").catalogue
    offered = catalogue.equipment(team, catalogue.position(team, position))
    assert {w.id: w.cost for w in offered} == weapons
