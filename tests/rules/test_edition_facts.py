"""Edition facts that reports, the command line and the generator read from the ruleset
instead of comparing ids: given an edition, expect these facts.

- Characteristic targets: Blood Bowl 2020 (Season 2) and 2025 print Agility, Passing and
  Armour as the roll needed (AG 3+, PA 4+, AV 9+); LRB6, ZAL, 4th and 3rd edition print
  them as plain numbers (AG 3, AV 8), as each book's team lists do.
- The headline figure in gold or in points: Team Value (BB2020/2025, LRB6) is gold; a
  Team Rating (ZAL 1, 4th edition's 'Team Ratings', 3rd edition's Spike! system, see
  ../shared/seeds/README.md) is points: value / 10,000 plus SPP / 5.
- Optional mechanics (``Ruleset.features``): which commands an edition has at all.
- The casualty dice a report gives: BB2020/2025 a D16 then a D6 for a Lasting Injury
  (Casualty Table and Lasting Injury Table); LRB6 and ZAL a D68 (Competition Rules p.25);
  4th edition's injury 2D6, Specific Injury D6 and Death Zone D66; 3rd edition's D6 and
  Serious Injury D66.

Each table names every registered edition, so a new edition fails here until its facts
are written down.
"""

from __future__ import annotations

import pytest

from ledger.projections.queries import Queries
from ledger.reports.build import league_info
from ledger.rules import REGISTRY, find_ruleset
from ledger.rules.protocol import Feature
from tests.support import Book

CHARACTERISTIC_TARGETS = {
    "bb2025": True,
    "bb2020": True,
    "lrb6": False,
    "lrb6-zal": False,
    "gold4": False,
    "dz3": False,
}

RATING_IN_GOLD = {
    "bb2025": True,
    "bb2020": True,
    "lrb6": True,
    "lrb6-zal": False,
    "gold4": False,
    "dz3": False,
}

GAME_VALUE_LABEL = {  # the figure inducements and handicaps compare
    "bb2025": "CTV",
    "bb2020": "CTV",
    "lrb6": "TV",
    "lrb6-zal": "TR",
    "gold4": "TR",
    "dz3": "TR",
}

FEATURES = {
    "bb2025": {
        Feature.INDUCEMENTS,
        Feature.REDRAFT,
        Feature.STAR_CONTRACTS,
        Feature.TEMPORARY_RETIREMENT,
    },
    "bb2020": {
        Feature.INDUCEMENTS,
        Feature.REDRAFT,
        Feature.STAR_CONTRACTS,
        Feature.TEMPORARY_RETIREMENT,
    },
    "lrb6": {Feature.INDUCEMENTS},
    "lrb6-zal": {Feature.BOUNTIES, Feature.CARDS},
    "gold4": {Feature.APPEARANCE_FEES},
    "dz3": set(),
}

CASUALTY_DICE = {
    "bb2025": {"casualty": "D16", "lasting_injury": "D6"},
    "bb2020": {"casualty": "D16", "lasting_injury": "D6"},
    "lrb6": {"casualty": "D68", "casualty_d6": "D6", "casualty_d8": "D8"},
    "lrb6-zal": {"casualty": "D68", "casualty_d6": "D6", "casualty_d8": "D8"},
    "gold4": {"injury": "2D6", "specific_injury": "D6", "serious_injury": "D66"},
    "dz3": {"casualty": "D6", "serious_injury": "D66"},
}


@pytest.mark.parametrize(
    "table", [CHARACTERISTIC_TARGETS, RATING_IN_GOLD, GAME_VALUE_LABEL, FEATURES, CASUALTY_DICE]
)
def test_every_registered_edition_has_its_facts_written_down(table: dict[str, object]) -> None:
    assert set(table) == set(REGISTRY)


@pytest.mark.parametrize(("ruleset_id", "targets"), CHARACTERISTIC_TARGETS.items())
def test_the_season_report_writes_characteristics_as_the_edition_does(
    ruleset_id: str, targets: bool
) -> None:
    book = Book(ruleset_id)
    state = book.fold()
    queries = Queries.over(state, book.league(state), book.ruleset)
    assert find_ruleset(ruleset_id).characteristic_targets is targets
    assert league_info(queries).characteristic_targets is targets


@pytest.mark.parametrize(("ruleset_id", "features"), FEATURES.items())
def test_an_edition_has_exactly_its_optional_mechanics(
    ruleset_id: str, features: set[Feature]
) -> None:
    assert find_ruleset(ruleset_id).features == features


@pytest.mark.parametrize(("ruleset_id", "dice"), CASUALTY_DICE.items())
def test_a_casualty_is_reported_with_the_edition_dice(
    ruleset_id: str, dice: dict[str, str]
) -> None:
    assert dict(find_ruleset(ruleset_id).casualty_dice) == dice


@pytest.mark.parametrize(("ruleset_id", "in_gold"), RATING_IN_GOLD.items())
def test_the_season_report_knows_whether_the_rating_is_gold(ruleset_id: str, in_gold: bool) -> None:
    book = Book(ruleset_id)
    state = book.fold()
    queries = Queries.over(state, book.league(state), book.ruleset)
    assert league_info(queries).rating_in_gold is in_gold


@pytest.mark.parametrize(("ruleset_id", "label"), GAME_VALUE_LABEL.items())
def test_the_game_value_is_called_what_the_books_call_it(ruleset_id: str, label: str) -> None:
    ruleset = find_ruleset(ruleset_id)
    assert ruleset.game_value_label == label
    assert label in ruleset.value_labels.values()


@pytest.mark.parametrize("ruleset_id", sorted(REGISTRY))
def test_every_edition_says_where_a_hireling_s_spp_are_ruled(ruleset_id: str) -> None:
    """The match and signing pages cite it beside an unsigned hireling's SPP."""
    assert find_ruleset(ruleset_id).hireling_spp_source
