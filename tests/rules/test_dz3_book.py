"""dz3 team rating, given the events (seeds README; seed 004 3.8 Handicaps and the TR
rulings: 3.5 re-rolls [JJ], 6.28/6.31 Special Offer and That Boy's Got Talent [JJ], trophy
re-rolls [JJ], Peaked players [JJ], freebooters).

TR = team value incl. treasury / 10,000 + the team's SPP / 5, each rounded down. This file
also holds the small helpers the other test_dz3_* files write their leagues with.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, cast

import pytest

from ledger.domain import events as ev
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import (
    Casualty,
    Concession,
    DiceRoll,
    Hireling,
    Performance,
    Purchase,
    TeamSheet,
)
from ledger.projections.store import MemoryStore
from ledger.rules.dz3.tables import tables
from tests.rules.seam import checked
from tests.support import Book, roll

E = TypeVar("E", bound=ev.LedgerEvent)

REAVERS = ["blitzer", "blitzer", "thrower", *["lineman"] * 8]  # 650,000
ORCS = ["blitzer", "blitzer", "black_orc_blocker", "black_orc_blocker", "thrower"] + [
    "lineman"
] * 6  # 690,000


# --- helpers for the test_dz3_* files --------------------------------------------------------


def dz3(**options: Any) -> Book:
    return Book("dz3", options)


def drafted(
    book: Book, team_id: str, roster: str, positions: Sequence[str], budget: int = 1_000_000
) -> list[str]:
    """A team registered with ``budget`` that hires one player per position at list price."""
    cost = sum(book.ruleset.catalogue.position(roster, p).cost for p in positions)
    return book.team(team_id, roster, positions, treasury=budget - cost)


def buy(book: Book, team_id: str, item: str, count: int, price: int) -> None:
    purchase = Purchase(item=item, count=count, price=price)
    book.record(ev.SidelinePurchased, team=team_id, purchases=(purchase,))


def two_teams(book: Book, reavers_fans: int = 0, orcs_fans: int = 0) -> tuple[list[str], list[str]]:
    """Humans and Orcs drafted with 1,000,000 each (TR 100), with some fan factor bought."""
    humans, orcs = drafted(book, "reavers", "human", REAVERS), drafted(book, "orcs", "orc", ORCS)
    for team, fans in (("reavers", reavers_fans), ("orcs", orcs_fans)):
        if fans:
            buy(book, team, "fan_factor", fans, fans * 10_000)
    return humans, orcs


def side(
    team: str,
    touchdowns: int = 0,
    players: Sequence[Performance] = (),
    dice: Sequence[DiceRoll] = (),
    hirelings: Sequence[Hireling] = (),
) -> TeamSheet:
    return TeamSheet(
        team=team,
        touchdowns=touchdowns,
        players=tuple(players),
        dice=tuple(dice),
        hirelings=tuple(hirelings),
    )


def rolls(
    team: str, *, gate: Sequence[int] = (), winnings: int = 3, fans: int = 3
) -> list[DiceRoll]:
    """The Death Zone post-match dice of one team (gate dice only if it has fan factor)."""
    found = [
        roll("winnings", "D6", winnings, subject=team),
        roll("fan_factor", "D6", fans, subject=team),
    ]
    if gate:
        found.append(roll("gate", f"{len(gate)}D6", *gate, subject=team))
    return found


def play(
    book: Book,
    home: TeamSheet,
    away: TeamSheet,
    match: str = "m1",
    *,
    kind: str = "league",
    casualties: Sequence[Casualty] = (),
    concession: Concession | None = None,
) -> None:
    book.record(
        ev.MatchRecorded,
        match=match,
        kind=kind,
        home=home,
        away=away,
        casualties=tuple(casualties),
        concession=concession,
    )


def problems(
    book: Book,
    home: TeamSheet,
    away: TeamSheet,
    *,
    kind: str = "league",
    casualties: Sequence[Casualty] = (),
    concession: Concession | None = None,
) -> list[str]:
    """What the ruleset says of this report against the league as it stands (the command)."""
    draft = unrecorded(
        ev.MatchRecorded,
        match="next",
        kind=kind,
        home=home,
        away=away,
        casualties=tuple(casualties),
        concession=concession,
    )
    return checked(book.ruleset, book.fold(), book.league_id, draft)


def unrecorded(cls: type[E], **fields: Any) -> E:
    """An event as a command drafts it, before the log gives it an envelope."""
    return cast("E", cls.model_construct(**fields))


def tr(book: Book, team_id: str, state: MemoryStore | None = None) -> int:
    return book.team_row(team_id, state).rating


def roster(book: Book, team_id: str) -> tuple[TeamRow, list[PlayerRow]]:
    state = book.fold()
    team = book.team_row(team_id, state)
    return team, list(state.select(PlayerRow, league_id=book.league_id, team_id=team_id))


# --- every starting team has TR 100 ----------------------------------------------------------


@pytest.mark.parametrize("roster_id", sorted(dz3().ruleset.catalogue.team_lists()))
def test_every_starting_team_has_tr_100(roster_id: str) -> None:
    """seeds README: 'every starting team has TR 100', whatever it bought at list price."""
    book = dz3()
    team_list = book.ruleset.catalogue.team_list(roster_id)
    line = next(p.id for p in team_list.positions if "lineman" in p.keywords)
    drafted(book, "t", roster_id, [line] * 11)
    assert tr(book, "t") == 100
    buy(book, "t", "reroll", 1, team_list.reroll_cost)
    buy(book, "t", "fan_factor", 3, 30_000)
    buy(book, "t", "cheerleader", 2, 20_000)
    assert tr(book, "t") == 100


# --- rounding: value / 10,000 and the team's SPP / 5, each rounded down ----------------------


@pytest.mark.parametrize(
    ("extra_gold", "spp", "expected"),
    [
        (9_999, [], 100),  # 1,009,999 / 10,000 -> 100
        (10_000, [], 101),
        (0, [4], 100),  # 4 / 5 -> 0
        (0, [5], 101),
        (0, [9], 101),
        (0, [10], 102),
        (0, [2, 3], 101),  # the team's total: 5 / 5
        (0, [4, 4], 101),  # 8 / 5 -> 1 (per player it would be 0)
        (5_000, [4, 4, 4], 102),  # 100 + 12 / 5
    ],
)
def test_tr_rounds_value_and_team_spp_down(extra_gold: int, spp: list[int], expected: int) -> None:
    book = dz3()
    drafted(book, "reavers", "human", REAVERS)
    team, players = roster(book, "reavers")
    players = [
        p.model_copy(update={"spp_earned": s}) for p, s in zip(players, spp, strict=False)
    ] + (players[len(spp) :])
    team = team.model_copy(update={"treasury": team.treasury + extra_gold})
    assert book.ruleset.team_values(team, players) == {"tr": expected}


# --- list prices, never prices paid ----------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "paid", "expected"),
    [
        ("list price", 70_000, 100),
        ("Special Offer", 30_000, 104),
        ("That Boy's Got Talent", 0, 107),
    ],
)
def test_discounted_hires_count_their_list_price(card: str, paid: int, expected: int) -> None:
    """6.28/6.31: 'contribute their list price for Team Rating purposes, not the price
    actually paid' [JJ]. The treasury keeps the discount, so TR rises by it."""
    book = dz3()
    drafted(book, "reavers", "human", REAVERS)
    book.record(
        ev.PlayerHired,
        team="reavers",
        player="p99",
        name="Lucky",
        position="catcher",
        price=paid,
        reason=card,
    )
    lucky = book.player_row("p99")
    assert (lucky.base_cost, lucky.price_paid, lucky.value) == (70_000, paid, 70_000)
    assert tr(book, "reavers") == expected


def test_a_reroll_bought_at_double_price_counts_its_list_price() -> None:
    """3.5: 'Rerolls contribute their list price for Team Rating purposes, not the actual
    price paid' [JJ]: after the first game a Human re-roll costs 100,000 but counts 50,000."""
    book = dz3()
    two_teams(book)
    play(book, side("reavers"), side("orcs"), kind="friendly")
    team = book.team_row("reavers")
    assert book.ruleset.sideline_price(team, "reroll", 1) == 100_000
    buy(book, "reavers", "reroll", 1, 100_000)
    assert tr(book, "reavers") == 95


def test_a_trophy_reroll_does_not_count() -> None:
    """'Trophy rerolls do not add to team rating [JJ]'."""
    book = dz3()
    drafted(book, "reavers", "human", REAVERS)
    team, players = roster(book, "reavers")
    held = team.model_copy(update={"trophy": True})
    assert book.ruleset.team_values(held, players) == book.ruleset.team_values(team, players)


# --- SPP in TR: peaked players, freebooters, players who left --------------------------------


def test_a_peaked_players_spp_stay_in_tr() -> None:
    """3.8: 'A non-star player who has been Peaked keeps any star player points accumulated
    prior to being peaked and these contribute to team rating' [JJ]."""
    book = dz3()
    humans, _ = two_teams(book)
    thrower = Performance(player=humans[2], touchdowns=1, completions=2)  # 5 SPP
    play(book, side("reavers", 1, [thrower], rolls("reavers")), side("orcs", 0, [], rolls("orcs")))
    before = tr(book, "reavers")
    book.record(ev.CardPlayed, team="orcs", card="peaked", against=humans[2])
    assert book.player_row(humans[2]).spp_earned == 5
    assert tr(book, "reavers") == before


def test_freebooters_never_enter_tr_and_their_fee_leaves_with_the_match() -> None:
    """3.8: 'Team rating is calculated after the end of each match. The team rating does not
    change if a player spends money on freebooters at the start of the next match.'"""
    book = dz3()
    two_teams(book)
    booted = Hireling(
        id="h1", name="Hired Hand", kind="mercenary", position="catcher", price=20_000
    )
    scorer = Performance(player="h1", touchdowns=1)
    home = side("reavers", 1, [scorer], rolls("reavers", winnings=2), [booted])
    play(book, home, side("orcs", 0, [], rolls("orcs")))
    # gate 0 (no fan factor), TR 100: D6 2 + 0 + 1 for the win = 30,000; fee -20,000
    assert book.team_row("reavers").treasury == 350_000 - 20_000 + 30_000
    assert tr(book, "reavers") == 101  # 1,010,000; the freebooter's 3 SPP are not the team's


def test_dead_and_fired_players_leave_tr() -> None:
    book = dz3()
    humans = drafted(book, "reavers", "human", REAVERS)
    book.record(ev.PlayerFired, team="reavers", player=humans[0])
    book.record(ev.PlayerDied, team="reavers", player=humans[1])
    assert tr(book, "reavers") == 82  # two 90,000 Blitzers gone, no refund


def test_the_upgrades_variant_counts_two_per_upgrade_less_injuries() -> None:
    """3.8 variant: 'Add up all the upgrades to players ... and subtract 1 for each stat
    downgrade or niggling injury. Multiply this value by 2 for a player score. Add the team
    value score to the player score.'"""
    book = dz3(team_rating="upgrades")
    drafted(book, "reavers", "human", REAVERS)
    team, players = roster(book, "reavers")
    skilled = players[0].model_copy(
        update={
            "advancements": ({"skill": "Dodge"}, {"characteristic": "ma"}),
            "changes": {"ma": 1},
            "spp_earned": 30,
        }
    )
    hurt = players[1].model_copy(update={"niggling": 1, "changes": {"av": -1}})
    values = book.ruleset.team_values(team, [skilled, hurt, *players[2:]])
    assert values == {"tr": 100 + 2 * (2 - 2)}
    assert book.ruleset.team_values(team, [skilled, *players[1:]]) == {"tr": 104}


def test_the_tables_say_where_tr_comes_from() -> None:
    rating = tables().team_rating
    assert (rating.gold_per_point, rating.spp_per_point) == (10_000, 5)
