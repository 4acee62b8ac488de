"""BB2025 Star Players are Inducements: bought before the fixture, fielded in its report.

Seed 001 'Inducements': "teams are allowed to spend gold pieces from their Treasury or
Petty Cash in order to buy Inducements ... They may also spend up to a maximum of 50,000
gold pieces from their Treasury to top up their Petty Cash"; the list 'on page 142' holds
the Star Players (0-2), and seed 003 'Unsigned Star Players': they "are still eligible to
be hired by any team as Inducements in the usual way" (ledger/rules/bb2025/stars.py).

The league: Humans (645,000: two Blitzers, a Thrower, eight Linemen) v Orcs (550,000:
eleven Linemen). The Humans buy first and buy nothing; the Orcs get 95,000 petty cash and
may top it up with 50,000 of their 450,000.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.application.commands import BuyInducements, RecordMatch, ScheduleSeason, StartSeason
from ledger.application.service import LeagueLedger
from ledger.domain.state import EventLine, MatchRow, TeamRow, TreasuryLine
from ledger.domain.values import Division
from ledger.errors import (
    HirelingRefused,
    InsufficientTreasury,
    InvalidInput,
    LedgerError,
    NotAllowed,
)
from ledger.rules import find_ruleset
from ledger.rules.bb2025 import stars
from tests.support import HUMAN_ELEVEN, create_league, draft_team, event_count, report

BB2025 = find_ruleset("bb2025")
NOBBLA = {"id": "nobbla", "name": "Nobbla", "kind": "star", "star": "nobbla_blackwart"}


@pytest.fixture
def fixture(sqlite_ledger: LeagueLedger) -> str:
    """The Humans v Orcs fixture of a four-team season; the Humans bought nothing."""
    ledger = sqlite_ledger
    create_league(ledger, "test")
    draft_team(ledger, "test", "men", "human", HUMAN_ELEVEN)
    draft_team(ledger, "test", "orcs", "orc", ["lineman"] * 11)
    for team in ("cc", "dd"):
        draft_team(ledger, "test", team, "human", ["lineman"] * 11)
    teams = ("men", "orcs", "cc", "dd")
    ledger.handle(StartSeason("test", [Division(name="Only", teams=teams)]), by="t")
    ledger.handle(ScheduleSeason("test"), by="t")
    league_id = ledger.league_row("test").league_id
    rows = ledger.view().select(MatchRow, league_id=league_id)
    match = next(m.match_id for m in rows if {m.home, m.away} == {"men", "orcs"})
    ledger.handle(BuyInducements("test", match, "men", {}), by="t")
    return match


def treasury(ledger: LeagueLedger, team: str) -> int:
    league_id = ledger.league_row("test").league_id
    row = ledger.view().get(TeamRow, league_id, team)
    assert row is not None
    return row.treasury


def game(ledger: LeagueLedger, match: str, *hirelings: dict[str, Any]) -> None:
    """The Orcs win 1-0, the star (if any) scoring."""
    row = next(m for m in ledger.view().select(MatchRow) if m.match_id == match)
    orcs = {
        "team": "orcs",
        "touchdowns": 1,
        "hirelings": list(hirelings),
        "players": [{"player": h["id"], "td": 1} for h in hirelings[:1]],
    }
    men = {"team": "men", "touchdowns": 0}
    home, away = (orcs, men) if row.home == "orcs" else (men, orcs)
    data = {"match": match, "home": home, "away": away}
    ledger.handle(RecordMatch("test", report(data), roll_missing=True), by="t")


def refused(ledger: LeagueLedger, error: type[LedgerError], says: str, run: Any) -> None:
    before = event_count(ledger)
    with pytest.raises(error) as caught:
        run()
    assert says in str(caught.value)
    assert event_count(ledger) == before


def test_the_stars_offered_are_those_who_play_for_the_team_at_their_price() -> None:
    orcs = TeamRow(league_id="l", team_id="orcs", name="Orcs", coach="c", roster="orc")
    offer = BB2025.inducement_offer(orcs)
    assert (offer["morg_n_thorg"].price, offer["morg_n_thorg"].max) == (340_000, 1)
    assert offer["grak"].name == "Grak & Crumbleberry"  # a pair is one purchase
    assert "crumbleberry" not in offer
    assert "count_luthor_von_drakenborg" not in offer  # Sylvanian Spotlight only
    assert "blitzers_best_kegs" in offer


def test_a_star_is_paid_from_petty_cash_then_the_treasury_top_up(
    sqlite_ledger: LeagueLedger, fixture: str
) -> None:
    """Nobbla Blackwart, 120,000: 95,000 petty cash and 25,000 of the treasury."""
    before = treasury(sqlite_ledger, "orcs")
    sqlite_ledger.handle(BuyInducements("test", fixture, "orcs", {"nobbla_blackwart": 1}), by="t")
    assert treasury(sqlite_ledger, "orcs") == before - 25_000
    game(sqlite_ledger, fixture, NOBBLA)


def test_a_star_beyond_petty_cash_and_the_50000_top_up_is_refused(
    sqlite_ledger: LeagueLedger, fixture: str
) -> None:
    buy = BuyInducements("test", fixture, "orcs", {"morg_n_thorg": 1})
    refused(sqlite_ledger, InsufficientTreasury, "at most 50,000 from the treasury",
            lambda: sqlite_ledger.handle(buy, by="t"))  # fmt: skip


def test_at_most_two_star_players_a_game(sqlite_ledger: LeagueLedger, fixture: str) -> None:
    three = {"akhorne_the_squirrel": 1, "bomber_dribblesnot": 1, "fungus_the_loon": 1}
    buy = BuyInducements("test", fixture, "orcs", three)
    refused(sqlite_ledger, HirelingRefused, "at most 2 a game",
            lambda: sqlite_ledger.handle(buy, by="t"))  # fmt: skip


@pytest.mark.parametrize(
    ("star", "says"),
    [
        ({}, "Nobbla Blackwart was not induced by orcs for"),
        ({"star": "count_luthor_von_drakenborg"}, "does not play for Orc teams"),
        ({"price": 120_000}, "was paid for when induced; his report line takes no price"),
    ],
    ids=["not-induced", "not-his-list", "priced-again"],
)
def test_a_report_fields_only_a_star_induced_for_the_fixture(
    sqlite_ledger: LeagueLedger, fixture: str, star: dict[str, Any], says: str
) -> None:
    if "price" in star:
        wanted = {"nobbla_blackwart": 1}
        sqlite_ledger.handle(BuyInducements("test", fixture, "orcs", wanted), by="t")
    else:
        sqlite_ledger.handle(BuyInducements("test", fixture, "orcs", {}), by="t")
    refused(sqlite_ledger, HirelingRefused, says,
            lambda: game(sqlite_ledger, fixture, NOBBLA | star))  # fmt: skip


def test_a_pair_is_induced_under_its_priced_star_and_fields_both() -> None:
    assert stars.induced({"grak": 1}, BB2025.catalogue.stars()) == {"grak", "crumbleberry"}


def test_a_pair_partner_is_named_by_the_star_to_buy(
    sqlite_ledger: LeagueLedger, fixture: str
) -> None:
    crumbleberry = {"id": "crumb", "name": "Crumbleberry", "kind": "star", "star": "crumbleberry"}
    refused(sqlite_ledger, HirelingRefused, "buy grak among",
            lambda: game(sqlite_ledger, fixture, crumbleberry))  # fmt: skip


def test_a_star_left_out_of_the_purchase_is_not_offered_a_second_one(
    sqlite_ledger: LeagueLedger, fixture: str
) -> None:
    """Inducements are bought once a fixture: the round-2 tester was told to buy the star
    with a command that then refused; the sentence now says to correct the purchase."""
    sqlite_ledger.handle(BuyInducements("test", fixture, "orcs", {}), by="t")
    refused(sqlite_ledger, HirelingRefused, "without him (void that purchase and buy again)",
            lambda: game(sqlite_ledger, fixture, NOBBLA))  # fmt: skip


@pytest.mark.parametrize("count", [0, -1])
def test_an_inducement_bought_none_of_is_refused_in_words(
    sqlite_ledger: LeagueLedger, fixture: str, count: int
) -> None:
    """None was stored as a purchase of 0 for 0; -1 was refused in the purchase's fields'
    words ("count: must be at least 0; price: must be at least 0")."""
    buy = BuyInducements("test", fixture, "orcs", {"bribes": count})
    says = f"{count} x Bribes asked for: leave out an inducement not bought"
    refused(sqlite_ledger, InvalidInput, says, lambda: sqlite_ledger.handle(buy, by="t"))


def test_a_second_purchase_and_a_team_of_another_game_are_each_told_why(
    sqlite_ledger: LeagueLedger, fixture: str
) -> None:
    """Found by the API hunt: one sentence answered both ("does not play it, or has already
    bought"), a 422 for what is a refusal of the books."""

    def buy(team: str) -> Any:
        return lambda: sqlite_ledger.handle(BuyInducements("test", fixture, team, {}), by="t")

    says = f"Men have already bought their inducements for {fixture}"
    refused(sqlite_ledger, NotAllowed, says, buy("men"))
    refused(sqlite_ledger, InvalidInput, f"cc does not play {fixture}", buy("cc"))


def test_the_history_names_what_was_induced_as_the_offer_does(
    sqlite_ledger: LeagueLedger, fixture: str
) -> None:
    """Not the books' ids (``nobbla_blackwart``): a coach reads them."""
    bought = {"nobbla_blackwart": 1}
    sqlite_ledger.handle(BuyInducements("test", fixture, "orcs", bought), by="t")
    league_id = sqlite_ledger.league_row("test").league_id
    lines = sqlite_ledger.view().select(EventLine, league_id=league_id)
    said = next(line.summary for line in reversed(lines) if line.event_type == "InducementsBought")
    assert said.endswith(f"bought inducements for match {fixture}: 1 x Nobbla Blackwart")
    notes = [t.note for t in sqlite_ledger.view().select(TreasuryLine, league_id=league_id)]
    assert f"{fixture}: 1 x Nobbla Blackwart" in notes  # the treasury's line names him too
