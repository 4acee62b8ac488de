"""gold4 matches: winnings and fan factor, conceding, MVPs and appearance fees.

Seed 002 (shared/seeds/002_af84a64a17c90723.txt): WINNING THE MATCH / CONCEDING THE MATCH,
PLAYING LEAGUE MATCHES / APPEARANCE FEES. The gate, the Match Winnings Table, the fan factor roll
and the MVP allowance are Death Zone's (ledger/rules/gold4/data/deathzone.yaml, documented as
readings in docs/rulesets/gold4.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.application.commands import PayAppearanceFees
from ledger.application.context import Context
from ledger.application.match_facts import plan_fees
from ledger.domain import events as ev
from ledger.domain.state import TreasuryLine
from ledger.domain.values import Concession, DiceRoll, Division, Performance, Purchase, TeamSheet
from ledger.errors import InvalidInput, NotAllowed
from ledger.projections.gather import match_rows
from ledger.rules.gold4.league_tables import deathzone
from ledger.rules.protocol import DiceNeed
from tests.rules.seam import said
from tests.support import Book, roll, sheet

PLAYERS = ["lineman"] * 11


def checked(book: Book, match: ev.MatchRecorded) -> list[str]:
    """What the ruleset finds wrong with a report, against the books as they stand."""
    rows = match_rows(book.fold(), book.league_id, match, book.ruleset, checking=True)
    return said(book.ruleset.check_match(match, rows))


def dice_of(book: Book, match: ev.MatchRecorded) -> list[DiceNeed]:
    return book.ruleset.match_dice(
        match, match_rows(book.fold(), book.league_id, match, book.ruleset)
    )


def league(fans: tuple[int, int] = (0, 0), treasury: int = 0) -> tuple[Book, list[str], list[str]]:
    """Humans v orcs, each worth exactly 1,000,000 (team rating 100), with these fan factors."""
    book = Book("gold4")
    teams = []
    for (team_id, roster), ff in zip((("humans", "human"), ("orcs", "orc")), fans, strict=True):
        cost = sum(book.ruleset.catalogue.position(roster, p).cost for p in PLAYERS)
        teams.append(book.team(team_id, roster, PLAYERS, treasury=1_000_000 - cost))
        if ff:
            book.record(
                ev.SidelinePurchased,
                team=team_id,
                purchases=(Purchase(item="fan_factor", count=ff, price=ff * 10_000),),
            )
        if treasury:
            book.record(ev.TreasuryAdjusted, team=team_id, amount=treasury, reason="test")
    return book, teams[0], teams[1]


def draft(**fields: Any) -> ev.MatchRecorded:
    """A report as check_match and match_dice see it (the command's unsaved draft)."""
    defaults = {"match": "m1", "kind": "league", "casualties": (), "dice": (), "others": ()}
    return ev.MatchRecorded.model_construct(**{**defaults, "concession": None, **fields})


def play(book: Book, home: TeamSheet, away: TeamSheet, **fields: Any) -> None:
    book.record(ev.MatchRecorded, match=fields.pop("match", "m1"), home=home, away=away, **fields)


def gold_lines(book: Book, team: str, kind: str) -> list[int]:
    lines = book.fold().lines[TreasuryLine]
    return [
        x.amount
        for x in lines
        if isinstance(x, TreasuryLine) and x.team_id == team and x.kind == kind
    ]


# --- winnings and fan factor ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gate", "rating", "modifier"),
    [
        (15, 99, 1),
        (16, 99, 2),
        (15, 100, 0),
        (35, 104, 2),
        (100, 125, 5),
        (101, 126, 5),
        (301, 99, 9),
        (301, 401, 1),
        (300, 401, 0),
    ],
)
def test_match_winnings_table(gate: int, rating: int, modifier: int) -> None:
    assert deathzone().winnings.modifier(gate, rating) == modifier


def test_winnings_are_a_d6_plus_the_gate_and_rating_modifier_plus_one_for_the_winner() -> None:
    book, humans, _ = league(fans=(3, 2))
    home_dice = (
        roll("gate", "3D6", 4, 4, 4, subject="humans"),
        roll("winnings", "D6", 3, subject="humans"),
    )
    away_dice = (
        roll("gate", "2D6", 5, 5, subject="orcs"),
        roll("winnings", "D6", 4, subject="orcs"),
    )
    play(
        book,
        sheet("humans", 1, [Performance(player=humans[0], touchdowns=1)], home_dice),
        sheet("orcs", 0, [], away_dice),
    )
    # gate 22,000 (band 16-30) and TR 100 (band 100-125): +1
    assert gold_lines(book, "humans", "winnings") == [(3 + 1 + 1) * 10_000]
    assert gold_lines(book, "orcs", "winnings") == [(4 + 1) * 10_000]
    notes = [x.note for x in book.fold().lines[TreasuryLine] if x.kind == "winnings"]
    assert "D6 3 + 1 (gate 22,000, TR 100) + 1 for the win" in notes


def test_a_gate_of_no_fans_is_said_as_none() -> None:
    book, humans, _ = league(fans=(0, 0))
    dice = (roll("winnings", "D6", 3, subject="humans"),)
    away = (roll("winnings", "D6", 3, subject="orcs"),)
    play(
        book,
        sheet("humans", 1, [Performance(player=humans[0], touchdowns=1)], dice),
        sheet("orcs", 0, [], away),
    )
    notes = [x.note for x in book.fold().lines[TreasuryLine] if x.kind == "winnings"]
    assert notes == ["D6 3 + 0 (gate 0, TR 100) + 1 for the win", "D6 3 + 0 (gate 0, TR 100)"]


@pytest.mark.parametrize(
    ("score", "rolled", "delta"),
    [
        ((1, 0), 5, 1),
        ((1, 0), 4, 0),
        ((0, 1), 2, -1),
        ((0, 1), 3, 0),
        ((0, 0), 6, 1),
        ((0, 0), 1, -1),
    ],
)
def test_the_fan_factor_roll(score: tuple[int, int], rolled: int, delta: int) -> None:
    """D6 +1 won / -1 lost: 1 or less loses a point, 6 or more gains one (004 'Fan Factor Roll')."""
    book, _, _ = league(fans=(3, 3))
    dice = (roll("fan_factor", "D6", rolled, subject="humans"),)
    play(book, sheet("humans", score[0], [], dice), sheet("orcs", score[1]))
    assert book.team_row("humans").fans == 3 + delta


def test_fan_factor_never_drops_below_zero() -> None:
    book, _, _ = league()
    play(
        book,
        sheet("humans", 0, [], (roll("fan_factor", "D6", 1, subject="humans"),)),
        sheet("orcs", 1),
    )
    assert book.team_row("humans").fans == 0


# --- conceding ----------------------------------------------------------------------------------


def veterans(book: Book, players: list[str]) -> None:
    """51, 51 and 50 SPP for the first three players (a friendly: no money moves)."""
    lines = [
        Performance(player=players[0], touchdowns=17),
        Performance(player=players[1], touchdowns=17),
        Performance(player=players[2], touchdowns=16, completions=2),
    ]
    play(book, sheet("orcs", 50, lines), sheet("humans"), match="f0", kind="friendly")


def conceded(book: Book, humans: list[str], orcs: list[str]) -> None:
    orc_dice = (
        roll("gate", "2D6", 3, 3, subject="orcs"),
        roll(f"walkout_{orcs[0]}", "D6", 3, subject="orcs"),
        roll(f"walkout_{orcs[1]}", "D6", 4, subject="orcs"),
    )
    human_dice = (
        roll("winnings", "D6", 2, subject="humans"),
        roll("fan_factor", "D6", 3, subject="humans"),
    )
    play(
        book,
        sheet("humans", 0, [Performance(player=humans[0], mvps=2)], human_dice),
        sheet("orcs", 0, [], orc_dice),
        concession=Concession(team="orcs", kind="conceded"),
    )


def test_conceding_hands_the_winner_all_the_losers_money() -> None:
    book, humans, orcs = league(fans=(0, 2))
    veterans(book, orcs)
    money = book.team_row("orcs").treasury
    before = book.team_row("humans").treasury
    conceded(book, humans, orcs)
    assert book.team_row("orcs").treasury == 0
    assert gold_lines(book, "humans", "concession") == [money]
    notes = {x.note for x in book.fold().lines[TreasuryLine] if x.kind == "concession"}
    assert notes == {f"{book.team_row('orcs').name} conceded m1: all of the loser's money"}
    assert gold_lines(book, "orcs", "winnings") == []  # the loser rolls no winnings
    # the winner's own winnings: a gate of 6,000 and TR 100 give +0: (2 + 0 + 1) x 10,000
    assert gold_lines(book, "humans", "winnings") == [30_000]
    assert book.team_row("humans").treasury == before + money + 30_000


def test_conceding_costs_the_loser_a_fan_factor_and_gives_the_winner_plus_two() -> None:
    book, humans, orcs = league(fans=(0, 2))
    veterans(book, orcs)
    conceded(book, humans, orcs)
    assert book.team_row("orcs").fans == 1  # no roll
    assert book.team_row("humans").fans == 1  # 3 + 1 (won) + 2 (concession) = 6


def test_players_with_51_spp_leave_a_conceding_team_on_1_to_3() -> None:
    book, humans, orcs = league()
    veterans(book, orcs)
    needs = {
        n.purpose
        for n in dice_of(
            book,
            draft(
                home=sheet("humans"),
                away=sheet("orcs"),
                concession=Concession(team="orcs", kind="conceded"),
            ),
        )
    }
    assert {f"walkout_{orcs[0]}", f"walkout_{orcs[1]}"} <= needs
    assert f"walkout_{orcs[2]}" not in needs  # 50 SPP: no roll
    conceded(book, humans, orcs)
    assert book.player_row(orcs[0]).status == "left"  # rolled 3
    assert book.player_row(orcs[1]).status == "active"  # rolled 4


def test_the_winner_of_a_concession_takes_the_losers_mvp_and_the_loser_awards_none() -> None:
    book, humans, orcs = league()
    state = book.fold()
    match = draft(
        home=sheet(
            "humans",
            0,
            [Performance(player=humans[0], mvps=1), Performance(player=humans[1], mvps=1)],
        ),
        away=sheet("orcs", 0, [Performance(player=orcs[0], mvps=1)]),
        concession=Concession(team="orcs", kind="conceded"),
    )
    assert said(
        book.ruleset.check_match(
            match, match_rows(state, book.league_id, match, book.ruleset, checking=True)
        )
    ) == ["Orcs awarded 1 MVP where gold4 allows 0"]


def test_a_concession_is_a_win_in_the_league_table_whatever_the_score() -> None:
    book, _, _ = league()
    book.record(
        ev.SeasonStarted, season=1, divisions=(Division(name="", teams=("humans", "orcs")),)
    )
    play(
        book,
        sheet("humans", 0),
        sheet("orcs", 1),
        season=1,
        concession=Concession(team="orcs", kind="conceded"),
    )
    assert book.standing("humans").points == 3
    assert book.standing("orcs").points == 0
    # the W/D/L columns too: the fold asks the ruleset for the result, not the score
    assert (book.standing("humans").won, book.standing("orcs").lost) == (1, 1)


# --- MVPs ---------------------------------------------------------------------------------------


def test_one_mvp_per_team_and_per_player() -> None:
    book, humans, orcs = league()
    match = draft(
        home=sheet("humans", 0, [Performance(player=humans[0], mvps=2)]),
        away=sheet("orcs", 0, [Performance(player=orcs[0], mvps=1)]),
    )
    assert said(
        book.ruleset.check_match(
            match, match_rows(book.fold(), book.league_id, match, book.ruleset, checking=True)
        )
    ) == [
        "Humans awarded 2 MVPs where gold4 allows 1",
        "humans-p1 was given 2 MVPs: no player may receive more than 1",  # by his name
    ]


def test_the_lower_rated_team_awards_handicap_mvps() -> None:
    """Death Zone Handicap Table: a difference of 21-30 gives the weaker team one more MVP."""
    book, humans, _ = league()
    book.record(ev.TreasuryAdjusted, team="orcs", amount=250_000, reason="rich")  # TR 125
    home = sheet(
        "humans", 0, [Performance(player=humans[0], mvps=1), Performance(player=humans[1], mvps=1)]
    )
    match = draft(
        home=home,
        away=sheet("orcs"),
    )
    assert (
        said(
            book.ruleset.check_match(
                match, match_rows(book.fold(), book.league_id, match, book.ruleset, checking=True)
            )
        )
        == []
    )
    off = Book("gold4", {"handicap_mvps": False}).ruleset
    assert said(
        off.check_match(match, match_rows(book.fold(), book.league_id, match, off, checking=True))
    ) == ["Humans awarded 2 MVPs where gold4 allows 1"]


# --- appearance fees ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spp", "laissez_faire", "balanced"),
    [
        (50, 0, 0),
        (51, 15_000, 25_000),
        (100, 15_000, 25_000),
        (101, 25_000, 50_000),
        (150, 25_000, 50_000),
        (151, 50_000, 100_000),
        (400, 50_000, 100_000),
    ],
)
def test_appearance_fee_bands(spp: int, laissez_faire: int, balanced: int) -> None:
    book, humans, _ = league()
    player = book.player_row(humans[0]).model_copy(update={"spp_earned": spp, "spp": spp})
    for level, fee in (("monty_haul", 0), ("laissez_faire", laissez_faire), ("balanced", balanced)):
        assert Book("gold4", {"appearance_fees": level}).ruleset.appearance_fee(player) == fee


def test_the_mighty_zug_counts_his_cost_in_thousands_as_spp() -> None:
    """'The Mighty Zug has a cost of 120,000 gps, and therefore counts as having 120 SPPs.'"""
    book, humans, _ = league()
    zug = book.player_row(humans[0]).model_copy(update={"kind": "star", "base_cost": 120_000})
    assert book.ruleset.appearance_fee(zug) == 50_000
    assert Book("gold4", {"appearance_fees": "laissez_faire"}).ruleset.appearance_fee(zug) == 25_000


def fee_match(humans: list[str], line: Performance) -> ev.MatchRecorded:
    return draft(
        match="m2",
        home=sheet("humans", line.touchdowns, [line]),
        away=sheet("orcs"),
    )


def test_a_player_whose_fee_was_not_paid_does_not_play() -> None:
    book, humans, _ = league(treasury=100_000)
    play(
        book,
        sheet("humans", 17, [Performance(player=humans[0], touchdowns=17)]),
        sheet("orcs"),
        match="f1",
        kind="friendly",
    )
    star = Performance(player=humans[0], touchdowns=1)
    problems = checked(book, fee_match(humans, star))
    assert len(problems) == 1
    assert "asks an appearance fee of 25,000 that Humans did not pay for m2" in problems[0]


def test_an_unpaid_player_may_still_be_the_mvp() -> None:
    """'... still counts towards the teams team rating, for throw a rock, and even MVPs'."""
    book, humans, _ = league(treasury=100_000)
    play(
        book,
        sheet("humans", 17, [Performance(player=humans[0], touchdowns=17)]),
        sheet("orcs"),
        match="f1",
        kind="friendly",
    )
    mvp = Performance(player=humans[0], mvps=1)
    assert checked(book, fee_match(humans, mvp)) == []


def test_paying_the_fee_lets_him_play_and_comes_out_of_the_treasury() -> None:
    book, humans, _ = league(treasury=100_000)
    play(
        book,
        sheet("humans", 17, [Performance(player=humans[0], touchdowns=17)]),
        sheet("orcs"),
        match="f1",
        kind="friendly",
    )
    state = book.fold()
    c = Context(view=state, league=book.league(state), ruleset=book.ruleset)
    before = book.team_row("humans").treasury
    (drafted,) = plan_fees(c, PayAppearanceFees(c.league.slug, "m2", "humans", [humans[0]]))
    book.record(type(drafted), **drafted.facts())
    assert book.team_row("humans").treasury == before - 25_000
    notes = [x.note for x in book.fold().lines[TreasuryLine] if x.kind == "appearance fee"]
    assert notes == ["m2: humans-p1"]  # the player by name, not by his id (p1)
    star = Performance(player=humans[0], touchdowns=1)
    assert checked(book, fee_match(humans, star)) == []
    with pytest.raises(InvalidInput, match="asks no appearance fee"):
        plan_fees(c, PayAppearanceFees(c.league.slug, "m2", "humans", [humans[1]]))
    state = book.fold()  # the fee recorded: asked again, for the same match
    c = Context(view=state, league=book.league(state), ruleset=book.ruleset)
    with pytest.raises(InvalidInput, match="fee for m2 is paid already \\(25,000\\)"):
        plan_fees(c, PayAppearanceFees(c.league.slug, "m2", "humans", [humans[0]]))
    with pytest.raises(InvalidInput, match="paid already"):  # or twice in one payment
        plan_fees(c, PayAppearanceFees(c.league.slug, "m3", "humans", [humans[0], humans[0]]))


def test_fees_are_paid_for_a_game_of_the_team_still_to_be_recorded() -> None:
    """They had been taken for a game already recorded, and for another pair's game; an id
    the books do not hold yet is the one the report to come will carry (a friendly's)."""
    book, humans, _ = league(treasury=100_000)
    play(
        book,
        sheet("humans", 17, [Performance(player=humans[0], touchdowns=17)]),
        sheet("orcs"),
        match="f1",
        kind="friendly",
    )
    book.team("ogres", "ogre", ["ogre"])
    play(book, sheet("orcs"), sheet("ogres"), match="f2", kind="friendly")
    state = book.fold()
    c = Context(view=state, league=book.league(state), ruleset=book.ruleset)
    with pytest.raises(NotAllowed, match=r"match f1 was recorded \(event \d+\): appearance fees"):
        plan_fees(c, PayAppearanceFees(c.league.slug, "f1", "humans", [humans[0]]))
    with pytest.raises(InvalidInput, match="do not play match f2 \\(orcs v ogres\\)"):
        plan_fees(c, PayAppearanceFees(c.league.slug, "f2", "humans", [humans[0]]))
    assert plan_fees(c, PayAppearanceFees(c.league.slug, "f3", "humans", [humans[0]]))


def test_a_monty_haul_league_charges_no_fees() -> None:
    book = Book("gold4", {"appearance_fees": "monty_haul"})
    (star,) = book.team("humans", "human", ["blitzer"])
    book.team("orcs", "orc", ["lineman"])
    play(
        book,
        sheet("humans", 17, [Performance(player=star, touchdowns=17)]),
        sheet("orcs"),
        match="f1",
        kind="friendly",
    )
    match = draft(
        match="m2",
        home=sheet("humans", 1, [Performance(player=star, touchdowns=1)]),
        away=sheet("orcs"),
    )
    assert (
        said(
            book.ruleset.check_match(
                match, match_rows(book.fold(), book.league_id, match, book.ruleset, checking=True)
            )
        )
        == []
    )


def test_dice_a_report_gives_are_shaped_by_the_fan_factor() -> None:
    book, _, _ = league(fans=(4, 0))
    needs = dice_of(book, draft(home=sheet("humans"), away=sheet("orcs")))
    shapes = {(n.purpose, n.subject): n.dice for n in needs}
    assert shapes == {
        ("gate", "humans"): "4D6",
        ("winnings", "humans"): "D6",
        ("fan_factor", "humans"): "D6",
        ("winnings", "orcs"): "D6",
        ("fan_factor", "orcs"): "D6",
    }
    assert isinstance(roll("gate", "4D6", 1, 2, 3, 4), DiceRoll)
