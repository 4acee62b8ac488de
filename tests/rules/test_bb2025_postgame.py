"""BB2025 post-game sequence, as data (seed 001, 'Post-game Sequence' and 'Conceding').

Given the events of a game, under ``bb2025``, expect the numbers the rules text gives.
"""

from __future__ import annotations

import pytest

from ledger.domain import events as ev
from ledger.domain.state import StandingRow
from ledger.domain.values import Casualty, Concession, Hireling, Performance
from ledger.rules.bb2025.postgame import mishap
from ledger.rules.bb2025.tables import tables
from tests.support import Book, roll, sheet

ELEVEN = ["lineman"] * 11


def two_teams(book: Book, treasury: int = 0) -> tuple[list[str], list[str]]:
    jay = book.team("jay", "human", ELEVEN, treasury=treasury)
    dan = book.team("dan", "skaven", ["clanrat"] * 11, treasury=treasury)
    return jay, dan


def game(book: Book, home: object, away: object, **fields: object) -> str:
    match = f"m{book.log.version + 1}"
    book.record(ev.MatchRecorded, match=match, season=1, home=home, away=away, **fields)
    return match


def test_winnings_the_worked_example_65000() -> None:
    """'Record Outcome and Collect Winnings': Fan Factors 4 and 3, 2 touchdowns, no
    stalling: (7 / 2 + 2 + 1) x 10,000 = 65,000."""
    book = Book()
    _jay, _dan = two_teams(book)
    game(
        book,
        sheet(
            "jay",
            2,
            dice=[
                roll("fan_factor", "D3", 3, subject="jay"),
                roll("dedicated_fans", "D6", 1, subject="jay"),
            ],
        ),
        sheet(
            "dan",
            1,
            dice=[
                roll("fan_factor", "D3", 2, subject="dan"),
                roll("dedicated_fans", "D6", 6, subject="dan"),
            ],
        ),
    )
    state = book.fold()
    assert book.team_row("jay", state).treasury == 65_000
    assert book.team_row("dan", state).treasury == (7 * 10_000) // 2 + 10_000 + 10_000


def test_a_stalling_team_loses_the_plus_one() -> None:
    book = Book()
    two_teams(book)
    game(
        book,
        sheet(
            "jay",
            2,
            stalling=True,
            dice=[
                roll("fan_factor", "D3", 3, subject="jay"),
                roll("dedicated_fans", "D6", 1, subject="jay"),
            ],
        ),
        sheet(
            "dan",
            1,
            dice=[
                roll("fan_factor", "D3", 2, subject="dan"),
                roll("dedicated_fans", "D6", 6, subject="dan"),
            ],
        ),
    )
    assert book.team_row("jay").treasury == 55_000


@pytest.mark.parametrize(
    ("fans", "result", "die", "after"),
    [
        (1, "win", 1, 2),  # roll >= Dedicated Fans: +1
        (3, "win", 2, 3),  # roll below: no change
        (6, "win", 6, 7),  # up to 7...
        (7, "win", 6, 7),  # ..."This can never go above 7"
        (3, "loss", 2, 2),  # roll below: -1
        (3, "loss", 3, 3),  # not below: no change
        (1, "loss", 1, 1),  # "This can never go below 1"
        (4, "draw", 1, 4),  # a draw: unchanged, no roll
    ],
)
def test_dedicated_fans(fans: int, result: str, die: int, after: int) -> None:
    book = Book()
    two_teams(book, treasury=200_000)
    if fans > 1:
        book.record(
            ev.SidelinePurchased,
            team="jay",
            purchases=(
                {"item": "dedicated_fans", "count": fans - 1, "price": (fans - 1) * 10_000},
            ),
        )
    scores = {"win": (1, 0), "loss": (0, 1), "draw": (1, 1)}[result]
    ours = [roll("fan_factor", "D3", 1, subject="jay")]
    if result != "draw":
        ours.append(roll("dedicated_fans", "D6", die, subject="jay"))
    theirs = [
        roll("fan_factor", "D3", 1, subject="dan"),
        roll("dedicated_fans", "D6", 6, subject="dan"),
    ]
    game(book, sheet("jay", scores[0], dice=ours), sheet("dan", scores[1], dice=theirs))
    assert book.team_row("jay").fans == after


def test_spp_for_each_achievement() -> None:
    """'Earning Star Player Points': completion 1, superb throw 1, landing 1,
    interception 2, casualty 2, touchdown 3, MVP 4."""
    book = Book()
    jay, dan = two_teams(book)
    game(
        book,
        sheet(
            "jay",
            1,
            players=[
                Performance(player=jay[0], completions=2, interceptions=1),
                Performance(player=jay[1], superb_throws=1, landings=1, touchdowns=1, mvps=1),
            ],
            dice=[
                roll("fan_factor", "D3", 1, subject="jay"),
                roll("dedicated_fans", "D6", 1, subject="jay"),
            ],
        ),
        sheet(
            "dan",
            0,
            dice=[
                roll("fan_factor", "D3", 1, subject="dan"),
                roll("dedicated_fans", "D6", 1, subject="dan"),
            ],
        ),
        casualties=(
            Casualty(victim=dan[0], inflicted_by=jay[0], cause="block", outcome="badly_hurt"),
            Casualty(victim=dan[1], inflicted_by=jay[0], cause="foul", outcome="badly_hurt"),
        ),
    )
    state = book.fold()
    assert book.player_row(jay[0], state).spp == 2 * 1 + 2 + 2  # the foul earns nothing
    assert book.player_row(jay[1], state).spp == 1 + 1 + 3 + 4
    assert book.standing("jay", state=state).cas_for == 1  # only SPP-earning casualties


def test_star_players_earn_nothing_and_journeymen_keep_their_spp() -> None:
    book = Book()
    _jay, _ = two_teams(book, treasury=100_000)
    played = game(
        book,
        sheet(
            "jay",
            2,
            players=[
                Performance(player="morg", touchdowns=1),
                Performance(player="j1", touchdowns=1, mvps=1),
            ],
            dice=[
                roll("fan_factor", "D3", 1, subject="jay"),
                roll("dedicated_fans", "D6", 6, subject="jay"),
            ],
        ).model_copy(
            update={
                "hirelings": (
                    Hireling(id="morg", name="Morg 'n' Thorg", kind="star", star="morg_n_thorg"),
                    Hireling(id="j1", name="Journeyman", kind="journeyman", position="lineman"),
                )
            }
        ),
        sheet(
            "dan",
            0,
            dice=[
                roll("fan_factor", "D3", 1, subject="dan"),
                roll("dedicated_fans", "D6", 6, subject="dan"),
            ],
        ),
    )
    book.record(
        ev.PlayerHired,
        team="jay",
        player="p23",
        name="Journeyman Joe",
        position="lineman",
        price=50_000,
        kind="journeyman",
        hireling="j1",
        from_match=played,
    )
    signed = book.player_row("p23")
    assert (signed.spp, signed.kind) == (3 + 4, "regular")
    assert not any(s.startswith("Loner") for s in signed.skills)


def test_conceding_costs_the_concession_penalties() -> None:
    """'Conceding': 2-0 to the opponent, who gets Winnings of the entire Fan Attendance
    plus its touchdowns; the conceding team earns nothing, loses its SPP and D3 Dedicated
    Fans (to a minimum of 1)."""
    book = Book()
    jay, dan = two_teams(book, treasury=0)
    book.record(
        ev.SidelinePurchased,
        team="dan",
        purchases=({"item": "dedicated_fans", "count": 2, "price": 0},),
    )
    game(
        book,
        sheet(
            "jay",
            2,
            players=[Performance(player=jay[0], touchdowns=2, mvps=2)],
            dice=[
                roll("fan_factor", "D3", 2, subject="jay"),
                roll("dedicated_fans", "D6", 4, subject="jay"),
            ],
        ),
        sheet(
            "dan",
            0,
            players=[Performance(player=dan[0], completions=1)],
            dice=[
                roll("fan_factor", "D3", 3, subject="dan"),
                roll("concession_fans", "D3", 3, subject="dan"),
                roll("dedicated_fans", "D6", 6, subject="dan"),
            ],
        ),
        concession=Concession(team="dan", kind="conceded"),
    )
    state = book.fold()
    # Fan Attendance: (1 + 2) + (3 + 3) = 9; (9 + 2 TD) x 10,000
    assert book.team_row("jay", state).treasury == 110_000
    assert book.team_row("dan", state).treasury == 0
    assert book.player_row(dan[0], state).spp == 0
    assert book.player_row(jay[0], state).spp == 2 * 3 + 2 * 4
    assert book.team_row("dan", state).fans == 1  # 3 - D3 of 3, never below 1


def test_conceding_without_penalty_is_a_normal_post_game() -> None:
    book = Book()
    _jay, dan = two_teams(book)
    game(
        book,
        sheet(
            "jay",
            2,
            dice=[
                roll("fan_factor", "D3", 1, subject="jay"),
                roll("dedicated_fans", "D6", 1, subject="jay"),
            ],
        ),
        sheet(
            "dan",
            0,
            players=[Performance(player=dan[0], completions=1)],
            dice=[
                roll("fan_factor", "D3", 1, subject="dan"),
                roll("dedicated_fans", "D6", 6, subject="dan"),
            ],
        ),
        concession=Concession(team="dan", kind="without_penalty"),
    )
    state = book.fold()
    assert book.team_row("dan", state).treasury == 30_000  # 4/2 + 0 TD + 1 = 3
    assert book.player_row(dan[0], state).spp == 1


def test_walkouts_after_a_concession_take_players_with_three_advancements() -> None:
    """'Conceding': "roll a D6 for each of their players with three or more
    advancements... on a 1-3, the player immediately quits the team"."""
    book = Book()
    _jay, dan = two_teams(book)
    game(
        book,
        sheet(
            "jay",
            0,
            dice=[
                roll("fan_factor", "D3", 1, subject="jay"),
                roll("dedicated_fans", "D6", 6, subject="jay"),
            ],
        ),
        sheet(
            "dan",
            3,
            players=[
                Performance(player=dan[0], touchdowns=3, mvps=1),
                Performance(player=dan[1], touchdowns=0, mvps=0),
            ],
            dice=[
                roll("fan_factor", "D3", 1, subject="dan"),
                roll("dedicated_fans", "D6", 1, subject="dan"),
            ],
        ),
    )
    for skill in ("Block", "Tackle", "Wrestle"):  # 3 + 4 + 6 of his 13 SPP
        book.record(
            ev.PlayerAdvanced, team="dan", player=dan[0], kind="random_primary", skill=skill
        )
    game(
        book,
        sheet(
            "jay",
            2,
            dice=[
                roll("fan_factor", "D3", 1, subject="jay"),
                roll("dedicated_fans", "D6", 6, subject="jay"),
            ],
        ),
        sheet(
            "dan",
            0,
            dice=[
                roll("fan_factor", "D3", 1, subject="dan"),
                roll("concession_fans", "D3", 1, subject="dan"),
                roll("dedicated_fans", "D6", 6, subject="dan"),
                roll("walkout", "D6", 3, subject=dan[0]),
            ],
        ),
        concession=Concession(team="dan", kind="conceded"),
    )
    state = book.fold()
    assert book.player_row(dan[0], state).status == "left"
    assert book.player_row(dan[1], state).status == "active"  # no advancements: no roll


@pytest.mark.parametrize(
    ("treasury", "die", "expected"),
    [
        (95_000, 1, "averted"),  # under 100,000: no roll at all
        (100_000, 1, "minor"),
        (195_000, 1, "minor"),  # still the first column
        (195_000, 2, "averted"),
        (200_000, 2, "minor"),  # the second column
        (300_000, 1, "major"),
        (500_000, 1, "catastrophe"),
        (650_000, 6, "minor"),
        (650_000, 5, "averted"),
    ],
)
def test_the_expensive_mistakes_table(treasury: int, die: int, expected: str) -> None:
    assert mishap(tables(), treasury, die) == expected


@pytest.mark.parametrize(
    ("treasury", "dice", "after"),
    [
        (95_000, [], 95_000),
        (150_000, [1, 2], 130_000),  # minor: lose D3 x 10,000
        (315_000, [1], 155_000),  # major: half (157,500), rounded down to 5,000
        (195_000, [2], 195_000),  # crisis averted
        (600_000, [1, 3, 4], 70_000),  # catastrophe: keep 2D6 x 10,000
    ],
)
def test_expensive_mistakes_at_the_close_of_the_post_game(
    treasury: int, dice: list[int], after: int
) -> None:
    book = Book()
    book.team("jay", "human", ELEVEN, treasury=treasury)
    rolls = []
    if dice:
        rolls.append(roll("expensive_mistakes", "D6", dice[0], subject="jay"))
    kind = mishap(tables(), treasury, dice[0]) if dice else "averted"
    if kind == "minor":
        rolls.append(roll("expensive_mistakes_amount", "D3", dice[1], subject="jay"))
    if kind == "catastrophe":
        rolls.append(roll("expensive_mistakes_amount", "2D6", *dice[1:], subject="jay"))
    book.record(ev.PostGameClosed, match="m1", team="jay", dice=tuple(rolls))
    assert book.team_row("jay").treasury == after


def test_friendlies_award_no_spp_no_winnings_and_hurt_nobody() -> None:
    """'Friendlies': no SPP, no League Points, no Winnings, casualties Badly Hurt."""
    book = Book()
    jay, dan = two_teams(book)
    game(
        book,
        sheet("jay", 1, players=[Performance(player=jay[0], touchdowns=1, mvps=1)]),
        sheet("dan", 0),
        kind="friendly",
        casualties=(
            Casualty(
                victim=dan[0], inflicted_by=jay[1], cause="block", outcome="dead", effects=("dead",)
            ),
        ),
    )
    state = book.fold()
    assert book.player_row(jay[0], state).spp == 0
    assert book.team_row("jay", state).treasury == 0
    assert book.player_row(dan[0], state).status == "active"
    assert state.get(StandingRow, book.league_id, 1, "jay") is None


def test_unplayed_fixtures_are_a_loss_for_both() -> None:
    book = Book()
    two_teams(book)
    game(
        book,
        sheet("jay", 0, dice=[roll("dedicated_fans", "D6", 6, subject="jay")]),
        sheet("dan", 0, dice=[roll("dedicated_fans", "D6", 6, subject="dan")]),
        kind="unplayed",
    )
    state = book.fold()
    for team in ("jay", "dan"):
        row = book.standing(team, state=state)
        assert (row.played, row.lost, row.points) == (1, 1, 0)
        assert book.team_row(team, state).treasury == 0


def test_an_unplayed_fixture_conceded_by_agreement() -> None:
    """'League Fixtures': the other team makes two MVP awards and gains D6 x 10,000."""
    book = Book()
    jay, _ = two_teams(book)
    game(
        book,
        sheet(
            "jay",
            2,
            players=[Performance(player=jay[0], mvps=1), Performance(player=jay[1], mvps=1)],
            dice=[
                roll("winnings", "D6", 4, subject="jay"),
                roll("dedicated_fans", "D6", 1, subject="jay"),
            ],
        ),
        sheet("dan", 0, dice=[roll("dedicated_fans", "D6", 6, subject="dan")]),
        kind="unplayed",
        concession=Concession(team="dan", kind="without_penalty"),
    )
    state = book.fold()
    assert book.team_row("jay", state).treasury == 40_000
    assert book.player_row(jay[0], state).spp == 4
    assert book.standing("jay", state=state).won == 1
