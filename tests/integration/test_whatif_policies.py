"""Each divergence policy of docs/whatif.md, on a league log written by hand.

Given these events, recorded under one edition, replayed under another: expect this
divergence, with this policy, and this state. The logs are written with ``tests.support.Book``
(the facts as the commands would have recorded them) and replayed in memory.
"""

from __future__ import annotations

import pytest

from ledger.domain import events as ev
from ledger.domain.state import PlayerRow, TeamRow, TreasuryLine
from ledger.domain.values import Casualty, Performance, Purchase, TeamSheet
from ledger.rules import find_ruleset
from ledger.whatif.divergence import POLICIES
from ledger.whatif.replay import Outcome, replay
from tests.support import Book, roll, sheet


def run(book: Book, ruleset: str, options: dict[str, object] | None = None) -> Outcome:
    return replay(book.events(), find_ruleset(ruleset, options))


def player(outcome: Outcome, player_id: str) -> PlayerRow | None:
    return outcome.store.get(PlayerRow, outcome.league_id, player_id)


def team(outcome: Outcome, team_id: str) -> TeamRow:
    found = outcome.store.get(TeamRow, outcome.league_id, team_id)
    assert found is not None
    return found


def policies(outcome: Outcome) -> list[tuple[str, str | None, str]]:
    return [(d.rule, d.subject, d.policy) for d in outcome.divergences]


def game(book: Book, match: str, home: TeamSheet, away: TeamSheet, **fields: object) -> None:
    book.record(ev.MatchRecorded, match=match, season=1, home=home, away=away, **fields)


def test_every_policy_named_is_documented() -> None:
    assert set(POLICIES) == {
        "map-by-table",
        "nearest-list",
        "lineman-instead",
        "skip",
        "defer",
        "buy-what-fits",
        "take-what-there-is",
        "substitute-skill",
        "roll-decides",
        "kept-as-recorded",
        "pay-or-sit-out",
        "never-applied",
    }


def test_players_beyond_a_position_limit_are_hired_as_the_lineman() -> None:
    """ZAL Orcs may have 4 Blitzers; BB2025 Orcs 2 (its team list): the 3rd and 4th are
    hired as Linemen, at a Lineman's 50,000."""
    book = Book("lrb6-zal")
    book.team("orcs", "orc", ["blitzer"] * 4 + ["lineman"] * 7)
    bb = run(book, "bb2025")
    assert [player(bb, f"p{n}").position for n in range(1, 5)] == [  # type: ignore[union-attr]
        "blitzer",
        "blitzer",
        "lineman",
        "lineman",
    ]
    assert policies(bb) == [
        ("position-limit", "p3", "lineman-instead"),
        ("position-limit", "p4", "lineman-instead"),
    ]
    assert team(bb, "orcs").treasury == 4 * 80_000 + 7 * 50_000 - (2 * 85_000 + 9 * 50_000)


def test_a_lineman_beyond_the_limit_is_not_hired() -> None:
    """BB2025 Humans may have 16 Linemen, 3rd edition Humans 12: the 13th is not hired."""
    book = Book("bb2025")
    book.team("humans", "human", ["lineman"] * 13)
    dz3 = run(book, "dz3")
    assert player(dz3, "p13") is None
    assert policies(dz3) == [("position-limit", "p13", "skip")]
    assert team(dz3, "humans").treasury == 50_000  # his price stays in the treasury


def test_a_hire_the_treasury_cannot_pay_waits_for_the_winnings() -> None:
    """BB2025 Blitzers cost 85,000, dz3's 90,000: a team that spent its last gold in BB2025
    is 10,000 short for its last Lineman in dz3; he joins once the first game's winnings
    (at least 10,000: a D6 of 1 or more, x 10,000) are in."""
    book = Book("bb2025")
    book.team("humans", "human", ["blitzer", "blitzer", *["lineman"] * 9])
    book.team("others", "human", ["lineman"] * 11)
    game(book, "m1", sheet("humans", 1), sheet("others", 0))
    dz3 = run(book, "dz3")
    [waited] = dz3.divergences
    assert (waited.subject, waited.rule, waited.policy) == ("p11", "treasury", "defer")
    assert waited.reason == "humans-p11 costs 50,000; the replay's treasury holds 40,000"
    assert waited.action == f"hired later (at event {book.events()[-1].seq})"
    assert player(dz3, "p11") is not None


def test_a_hire_never_affordable_is_listed_as_never_applied() -> None:
    book = Book("bb2025")
    book.team("humans", "human", ["blitzer", "blitzer", *["lineman"] * 9])
    dz3 = run(book, "dz3")
    assert policies(dz3) == [("treasury", "p11", "never-applied")]
    assert dz3.divergences[0].action == "never hired: the treasury never allowed it"
    assert player(dz3, "p11") is None


def test_purchases_beyond_the_treasury_buy_what_fits() -> None:
    """ZAL Chaos re-rolls cost 60,000, dz3's 70,000: 180,000 bought 3 in ZAL, buys 2."""
    book = Book("lrb6-zal")
    book.team("chaos", "chaos", ["beastman"] * 11, treasury=180_000)
    book.record(
        ev.SidelinePurchased,
        team="chaos",
        purchases=(Purchase(item="reroll", count=3, price=180_000),),
    )
    dz3 = run(book, "dz3")
    assert policies(dz3) == [("treasury", "reroll", "buy-what-fits")]
    assert dz3.divergences[0].action == "bought 2"
    assert dz3.divergences[0].reason == "3 x Team Re-roll: the treasury holds 180,000"
    assert (team(dz3, "chaos").rerolls, team(dz3, "chaos").treasury) == (2, 40_000)


def test_an_item_the_target_does_not_sell_is_not_bought() -> None:
    """A ZAL Wizard has no BB2025 sideline equivalent (a BB2025 wizard is an inducement)."""
    book = Book("lrb6-zal")
    book.team("humans", "human", ["lineman"] * 11, treasury=150_000)
    book.record(
        ev.SidelinePurchased,
        team="humans",
        purchases=(Purchase(item="wizard", count=1, price=150_000),),
    )
    bb = run(book, "bb2025")
    assert policies(bb) == [("item", "wizard", "skip")]
    assert team(bb, "humans").treasury == 150_000
    assert team(bb, "humans").staff == {}


def test_an_advancement_not_affordable_waits_until_it_is() -> None:
    """ZAL: MVP 5 + a completion 1 = 6 SPP, an Experienced player's Star Player Roll (Block).
    BB2025: MVP 4 + 1 = 5 SPP, one short of a chosen primary skill (6): he waits; his
    touchdown of the next game (3) makes 8, and he takes Block, keeping 2."""
    book = Book("lrb6-zal")
    book.team("humans", "human", ["lineman"] * 11)
    book.team("others", "human", ["lineman"] * 11)
    game(
        book,
        "m1",
        sheet("humans", 0, [Performance(player="p1", mvps=1, completions=1)]),
        sheet("others", 0),
    )
    book.record(
        ev.PlayerAdvanced,
        team="humans",
        player="p1",
        kind="star_roll",
        skill="Block",
        dice=(roll("star_roll", "2D6", 3, 4), roll("ageing", "2D6", 5, 5)),
    )
    game(book, "m2", sheet("humans", 1, [Performance(player="p1", touchdowns=1)]), sheet("others"))
    bb = run(book, "bb2025")
    [waited] = bb.divergences
    assert (waited.rule, waited.policy, waited.action) == (
        "advancement",
        "defer",
        "taken later (Block)",
    )
    assert "5 SPP; chosen primary costs 6" in waited.reason
    scorer = player(bb, "p1")
    assert scorer is not None
    assert (scorer.spp_earned, scorer.spp, scorer.skills) == (8, 2, ("Block",))


def test_a_star_the_target_does_not_have_is_not_hired() -> None:
    book = Book("lrb6-zal")
    book.team("orcs", "orc", ["lineman"] * 11, treasury=430_000)
    book.record(
        ev.PlayerHired,
        team="orcs",
        player="p12",
        name="Morg",
        position="morg_n_thorg",
        price=430_000,
        kind="star",
        star="morg_n_thorg",
    )
    gold = run(book, "gold4")
    assert policies(gold) == [("star", "p12", "skip")]
    assert player(gold, "p12") is None
    assert team(gold, "orcs").treasury == 430_000


def test_a_mechanic_the_target_lacks_is_left_out() -> None:
    """ZAL 21 bounties: no dz3 league posts one; the gold stays in the treasury."""
    book = Book("lrb6-zal")
    book.team("orcs", "orc", ["lineman"] * 11, treasury=30_000)
    book.record(ev.BountyPosted, team="orcs", player="p1", amount=30_000)
    dz3 = run(book, "dz3")
    assert policies(dz3) == [("feature", None, "skip")]
    assert team(dz3, "orcs").treasury == 30_000


def test_a_lost_passing_point_reads_as_a_missed_game_where_there_is_no_passing() -> None:
    """BB2025 Lasting Injury 'Broken Arm' (-1 PA): LRB6 has no PA; the player misses the
    next game, as after LRB6's own Fractured Arm, and the divergence says so."""
    book = Book("bb2025")
    book.team("humans", "human", ["lineman"] * 11)
    book.team("others", "human", ["lineman"] * 11)
    broken_arm = Casualty(
        victim="p12",
        inflicted_by="p1",
        cause="block",
        outcome="lasting_injury",
        effects=("miss_next_game", "-pa"),
    )
    game(book, "m1", sheet("humans"), sheet("others"), casualties=(broken_arm,))
    zal = run(book, "lrb6-zal")
    victim = player(zal, "p12")
    assert victim is not None
    assert (victim.miss_next_game, victim.changes) == (True, {})
    [read] = [d for d in zal.divergences if d.rule == "casualty"]
    assert (read.rule, read.subject, read.policy) == ("casualty", "p12", "map-by-table")
    assert read.action == "read as serious_injury (miss_next_game)"
    bb = run(book, "bb2025", {"bonus_points": "added"})
    assert player(bb, "p12").changes == {"pa": -1}  # type: ignore[union-attr]


def test_a_fine_beyond_the_treasury_takes_what_there_is() -> None:
    book = Book("bb2025")
    book.team("humans", "human", ["blitzer", *["lineman"] * 10], treasury=20_000)
    book.record(ev.TreasuryAdjusted, team="humans", amount=-20_000, reason="a fine")
    dz3 = run(book, "dz3")  # a dz3 Blitzer costs 5,000 more: 15,000 left
    assert policies(dz3) == [("treasury", None, "take-what-there-is")]
    assert team(dz3, "humans").treasury == 0


@pytest.mark.parametrize(("extra", "paid"), [(200_000, True), (0, False)])
def test_appearance_fees_are_paid_or_the_player_sits_out(extra: int, paid: bool) -> None:
    """gold4 APPEARANCE FEES: a Monty Haul league asks none; replayed as Balanced, a player
    with 151+ SPP asks 100,000 before each match. 50 touchdowns and a completion (151 SPP,
    as many as one game can record) in game 1; in
    game 2 the team pays if its treasury can (it had 200,000 to spare), else he earns
    nothing from the game (his touchdown of game 2, 3 SPP, is lost)."""
    book = Book("gold4", {"appearance_fees": "monty_haul"})
    book.team("humans", "human", ["lineman"] * 11, treasury=extra)
    book.team("others", "human", ["lineman"] * 11)
    star = sheet("humans", 50, [Performance(player="p1", touchdowns=50, completions=1)])
    game(book, "m1", star, sheet("others"))
    game(book, "m2", sheet("humans", 1, [Performance(player="p1", touchdowns=1)]), sheet("others"))
    balanced = run(book, "gold4", {"appearance_fees": "balanced"})
    lines = [x for x in balanced.store.lines[TreasuryLine] if isinstance(x, TreasuryLine)]
    fees = [line.amount for line in lines if line.kind == "appearance fee"]
    assert player(balanced, "p1").spp_earned == (154 if paid else 151)  # type: ignore[union-attr]
    assert policies(balanced) == [("fees", "p1", "pay-or-sit-out")]  # said either way
    (fee,) = balanced.divergences
    if paid:
        assert (fees, fee.action) == ([-100_000], "paid before match m2")
    else:
        assert (fees, fee.action) == ([], "not paid: he earns nothing from match m2")


def test_a_fee_the_target_does_not_ask_is_left_out_and_said() -> None:
    """The log's Balanced league paid 25,000 for a 51-SPP player; replayed as Monty Haul
    ('no appearance fees') the treasury keeps it, and the divergence says why it differs."""
    book = Book("gold4", {"appearance_fees": "balanced"})
    book.team("humans", "human", ["lineman"] * 11, treasury=100_000)
    book.team("others", "human", ["lineman"] * 11)
    star = sheet("humans", 17, [Performance(player="p1", touchdowns=17)])
    game(book, "m1", star, sheet("others"))
    book.record(
        ev.AppearanceFeesPaid, match="m2", team="humans", fees=(Purchase(item="p1", price=25_000),)
    )
    monty = run(book, "gold4", {"appearance_fees": "monty_haul"})
    assert policies(monty) == [("fees", "p1", "skip")]
    assert monty.divergences[0].action == "no fee paid"
    assert "the log paid 25,000" in monty.divergences[0].reason
    assert team(monty, "humans").treasury == team(run(book, "gold4"), "humans").treasury + 25_000


def test_a_team_list_without_an_equivalent_plays_the_nearest_one() -> None:
    book = Book("bb2025")
    book.team("gnomes", "gnome", ["lineman"] * 11)
    zal = run(book, "lrb6-zal")
    assert team(zal, "gnomes").roster == "halfling"
    assert player(zal, "p1").position == "halfling"  # type: ignore[union-attr]
    assert policies(zal) == [("team-list", None, "nearest-list")]


def test_the_same_seed_replays_the_same_and_another_seed_draws_other_dice() -> None:
    book = Book("bb2025")
    book.team("humans", "human", ["lineman"] * 11)
    book.team("others", "human", ["lineman"] * 11)
    for number in range(1, 6):
        game(book, f"m{number}", sheet("humans", number % 3), sheet("others", 1))
    first, again = run(book, "lrb6-zal"), run(book, "lrb6-zal")
    assert first.store.all(TeamRow) == again.store.all(TeamRow)
    other = replay(book.events(), find_ruleset("lrb6-zal"), seed=7)
    assert [t.treasury for t in other.store.all(TeamRow)] != [
        t.treasury for t in first.store.all(TeamRow)
    ]
    assert sum(first.simulated.values()) > 0
