"""gold4: freebooted Star Players pay appearance fees, and a team's one-game players are paid
from its treasury; the free re-roll is refused to a team with allies.

Seed 002 (shared/seeds/002_af84a64a17c90723.txt), APPEARANCE FEES: "This rule *does* apply to
Star Players. For the purposes of the table above Star Players are assumed to have a number of
SPPs equal to their cost divided by a thousand ... you do have to pay the appearance free right
from the very first match"; Q&A: "Do freebooted star players charge an appearance fee? A: Yes."
BUYING RE-ROLLS & FAN FACTORS: the free re-roll "does not apply to mixed race teams".
Readings G16, G21 and G2 of docs/rulesets/gold4.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.application.commands import PayAppearanceFees
from ledger.application.context import Context
from ledger.application.match_facts import plan_fees
from ledger.domain import events as ev
from ledger.domain.state import PlayerRow
from ledger.domain.values import Hireling, Performance, TeamSheet
from ledger.errors import InvalidInput
from ledger.rules.gold4.fees import star_fee
from tests.rules.seam import checked, said
from tests.rules.test_gold4_matches import draft, gold_lines, league, play
from tests.support import Book, sheet


@pytest.mark.parametrize(
    ("cost", "laissez_faire", "balanced"),
    [
        (50_000, 0, 0),  # 50 SPP: no fee below 51
        (51_000, 15_000, 25_000),
        (120_000, 25_000, 50_000),  # 'The Mighty Zug has a cost of 120,000 gps'
        (150_000, 25_000, 50_000),
        (151_000, 50_000, 100_000),
        (330_000, 50_000, 100_000),
    ],
)
def test_a_stars_fee_is_that_of_his_cost_in_thousands_of_spp(
    cost: int, laissez_faire: int, balanced: int
) -> None:
    assert star_fee(cost, "monty_haul") == 0
    assert star_fee(cost, "laissez_faire") == laissez_faire
    assert star_fee(cost, "balanced") == balanced


def zug(price: int = 120_000) -> Hireling:
    return Hireling(id="zug", name="The Mighty Zug", kind="star", price=price)


def with_zug(line: Performance | None, price: int = 120_000) -> TeamSheet:
    players = (line,) if line else ()
    return TeamSheet(
        team="humans",
        touchdowns=line.touchdowns if line else 0,
        players=players,
        hirelings=(zug(price),),
    )


def check(book: Book, home: TeamSheet) -> list[str]:
    match = draft(match="m1", home=home, away=sheet("orcs"))
    return checked(book.ruleset, book.fold(), book.league_id, match)


def pay(book: Book, *refs: str) -> None:
    state = book.fold()
    c = Context(view=state, league=book.league(state), ruleset=book.ruleset)
    for drafted in plan_fees(c, PayAppearanceFees(c.league.slug, "m1", "humans", list(refs))):
        book.record(type(drafted), **drafted.facts())


@pytest.mark.parametrize(
    ("line", "refused"),
    [
        (Performance(player="zug", touchdowns=1), True),  # he took the field unpaid
        (Performance(player="zug", mvps=1), False),  # '... and even MVPs'
        (None, False),  # sat in the dug-out
    ],
)
def test_an_unpaid_freebooted_star_does_not_play(line: Performance | None, refused: bool) -> None:
    book, _, _ = league(treasury=300_000)
    problems = check(book, with_zug(line))
    assert bool(problems) == refused, problems
    if refused:
        assert "asks an appearance fee of 50,000" in problems[0]
        assert "paid first, with m1's appearance fees (the star as zug, cost 120000)" in problems[0]


def test_paying_a_freebooted_stars_fee_lets_him_play() -> None:
    book, _, _ = league(treasury=300_000)
    before = book.team_row("humans").treasury
    pay(book, "zug=120000")
    assert book.team_row("humans").treasury == before - 50_000
    assert check(book, with_zug(Performance(player="zug", touchdowns=1))) == []


def test_a_fee_paid_for_a_cheaper_cost_does_not_cover_a_dearer_star() -> None:
    """The fee is checked against the cost his report line gives, not only against his id
    having been paid for: 25,000 paid for a 51,000 star does not cover a 330,000 one."""
    book, _, _ = league(treasury=300_000)
    pay(book, "zug=51000")
    problems = check(book, with_zug(Performance(player="zug", touchdowns=1), price=330_000))
    assert len(problems) == 1
    assert (
        "asks an appearance fee of 100,000 that Humans did not pay (paid 25,000)" in (problems[0])
    )
    pay(book, "zug=330000")  # his fee at the cost he plays at, paid before the report
    assert check(book, with_zug(Performance(player="zug", touchdowns=1), price=330_000)) == []


@pytest.mark.parametrize(
    ("ref", "error"),
    [
        ("zug=40000", "asks no appearance fee"),  # 40 SPP
        ("zug=", "HIRELING_ID=COST"),
        ("=120000", "HIRELING_ID=COST"),
        ("zug=lots", "HIRELING_ID=COST"),
    ],
)
def test_naming_a_freebooted_star_for_his_fee(ref: str, error: str) -> None:
    book, _, _ = league(treasury=300_000)
    with pytest.raises(InvalidInput, match=error):
        pay(book, ref)


def test_a_freebooted_star_needs_his_cost() -> None:
    book, _, _ = league(treasury=300_000)
    problems = check(book, with_zug(Performance(player="zug", mvps=1), price=0))
    assert problems == [
        "freebooted star The Mighty Zug: give his cost as his price (gold4 has no star list;"
        " his fee counts cost / 1,000 SPP)"
    ]


def test_the_freeboot_price_leaves_the_treasury_with_the_match() -> None:
    book, _, _ = league(treasury=300_000)
    pay(book, "zug=120000")
    play(book, with_zug(Performance(player="zug", mvps=1)), sheet("orcs"), kind="friendly")
    assert gold_lines(book, "humans", "freebooter") == [-120_000]
    assert gold_lines(book, "humans", "appearance fee") == [-50_000]


def test_freebooters_the_treasury_cannot_pay_are_refused() -> None:
    book, _, _ = league()
    held = book.team_row("humans").treasury  # 1,000,000 less eleven Linemen: 450,000
    problems = check(book, with_zug(Performance(player="zug", mvps=1), price=held + 10_000))
    assert problems == [
        f"the freebooters of humans cost {held + 10_000:,} but its treasury holds {held:,}"
    ]


# --- G2: the free re-roll and allies ---------------------------------------------------------


def buy_problems(book: Book, team: str, item: str) -> list[str]:
    state = book.fold()
    roster = list(state.select(PlayerRow, league_id=book.league_id, team_id=team))
    return said(book.ruleset.check_buy(book.team_row(team, state), roster, item, 1))


@pytest.mark.parametrize(("ally", "refused"), [(False, False), (True, True)])
def test_the_free_reroll_is_refused_to_a_team_with_allies(ally: bool, refused: bool) -> None:
    book = Book("gold4")
    book.team("dwarfs", "dwarf", ["longbeard"] * 11, treasury=200_000)
    if ally:
        fields: dict[str, Any] = {
            "team": "dwarfs",
            "player": "a1",
            "name": "Grobi",
            "position": "lineman",
            "from_list": "human",
            "price": 50_000,
        }
        book.record(ev.PlayerHired, **fields)
    problems = buy_problems(book, "dwarfs", "free_reroll")
    assert bool(problems) == refused, problems
    if refused:
        assert "does not apply to mixed race teams" in problems[0]
    assert buy_problems(book, "dwarfs", "reroll") == []
