"""Big Guys between the 4th edition and the rest: an ally in gold4, a position elsewhere.

Seed 002 MIXED RACE TEAMS: "A team can draw allied players from any allied race", one from
each race of its row of the ALLIED TEAMS TABLE (Human: "... Ogre ..."; Orc: "... Goblin,
... Ogre"), and a Troll is drawn from the Goblin list ("including a Troll, as these are now
part of the Goblin List"). The 2025 lists have the Ogre and the Troll on the team's own list
(Human Ogre 0-1 140,000; Orc Troll 0-1 115,000). ``mappings/teams.yaml`` names the ally as
``ogre.ogre`` / ``goblin.troll`` in the 3rd edition column, both ways.
"""

from __future__ import annotations

import pytest

from ledger.domain import events as ev
from ledger.domain.state import PlayerRow
from ledger.rules import find_ruleset
from ledger.whatif import mapping
from ledger.whatif.replay import Outcome, replay
from tests.support import Book

GOLD4 = find_ruleset("gold4")


def hired(outcome: Outcome, player_id: str) -> PlayerRow:
    found = outcome.store.get(PlayerRow, outcome.league_id, player_id)
    assert found is not None
    return found


def divergences(outcome: Outcome) -> list[tuple[str, str | None, str]]:
    return [(d.rule, d.subject, d.policy) for d in outcome.divergences]


def gold4_men_with_an_ogre() -> Book:
    book = Book("gold4")
    book.team("men", "human", ["lineman"] * 11, treasury=140_000)
    book.record(
        ev.PlayerHired,
        team="men",
        player="p12",
        name="Ogg",
        position="ogre",
        price=120_000,
        from_list="ogre",
    )
    return book


def test_a_gold4_ogre_ally_is_the_human_ogre_of_bb2025() -> None:
    bb = replay(gold4_men_with_an_ogre().events(), find_ruleset("bb2025"))
    ogg = hired(bb, "p12")
    assert (ogg.position, ogg.value) == ("ogre", 140_000)
    assert divergences(bb) == [("position", "p12", "map-by-table")]  # no ally: own list


def test_a_gold4_ogre_ally_is_a_lineman_where_there_are_no_allies_nor_ogres() -> None:
    dz3 = replay(gold4_men_with_an_ogre().events(), find_ruleset("dz3"))
    assert hired(dz3, "p12").position == "lineman"
    assert divergences(dz3) == [
        ("position", "p12", "map-by-table"),
        ("position", "p12", "lineman-instead"),
    ]


@pytest.mark.parametrize(
    ("roster", "position", "ally", "as_position"),
    [
        ("human", "ogre", "ogre", "ogre"),
        ("orc", "troll", "goblin", "troll"),
        ("black_orc", "trained_troll", "goblin", "troll"),
        ("chaos_chosen", "minotaur", "minotaur", "minotaur"),
        ("chaos_chosen", "ogre", "ogre", "ogre"),
        ("wood_elf", "loren_forest_treeman", "treeman", "treeman"),
        ("halfling", "altern_forest_treeman", "treeman", "treeman"),
    ],
)
def test_a_bb2025_big_guy_is_a_gold4_ally(
    roster: str, position: str, ally: str, as_position: str
) -> None:
    book = Book("bb2025")
    bb_list = book.ruleset.catalogue.team_list(roster)
    line = min(bb_list.positions, key=lambda p: (-p.max, p.cost)).id
    book.team("side", roster, [line] * 11 + [position], treasury=200_000)
    gold = replay(book.events(), GOLD4)
    big = hired(gold, "p12")
    assert (big.position, big.roster) == (as_position, ally)
    assert big.value == GOLD4.catalogue.position(ally, as_position).cost
    assert ("position", "p12", "map-by-table") in divergences(gold)
    assert ("position", "p12", "lineman-instead") not in divergences(gold)


def test_every_ally_the_table_names_is_one_gold4_lets_the_list_take() -> None:
    """Each ``<list>.<position>`` of the 3rd edition column is a position of a gold4 list
    that the row's own list may take allies from (seed 002 ALLIED TEAMS TABLE)."""
    table = mapping.tables()[0]
    named = [
        (row.lists["classic3"], cell)
        for row in table.teams
        for p in row.positions
        if "." in (cell := p.get("classic3", ""))
    ]
    assert len(named) >= 15
    for own, cell in named:
        ally, _, position = cell.partition(".")
        assert ally in GOLD4.catalogue.allies(own), (own, cell)
        assert GOLD4.catalogue.team_list(ally).position(position) is not None, cell
