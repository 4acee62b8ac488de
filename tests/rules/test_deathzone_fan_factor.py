"""The Death Zone Fan Factor Table, alike in gold4 and dz3 (ledger/rules/classic3/fans.py).

Seed 000 FAN FACTOR TABLE: "1 or Less Fan Factor goes down one point / 2-5 Fan Factor stays
the same / 6 or More Fan Factor goes up one point. Modifiers: Won the Match +1, Team Scored
2+ TDs +1, Lost the Match -1, Team Inflicted 2+ CAS +1, Tournament Semi-Final +1, Final +2".
Seed 002 (gold4) changes only the roll after a concession; both editions play the Death
Zone post-match sequence, so a game and its dice give the same fan factor in both. A
play-off level after overtime and settled on penalties is a tie for the roll (seed 004
"Overtime" Var (b): "the game is declared a tie"; docs/rulesets/dz3.md R14).
"""

from __future__ import annotations

import pytest

from ledger.domain import events as ev
from ledger.domain.values import Casualty, Fixture, Performance, Purchase, Shootout
from tests.support import Book, roll, sheet

EDITIONS = ("gold4", "dz3")

ROWS = [
    # score, casualties by the home side, stage, D6, fan factor change   (modified roll)
    ((2, 1), 2, "regular", 4, +1),  # 4 +1 won +1 2 TDs +1 2 CAS = 7
    ((2, 1), 0, "regular", 3, 0),  # 3 +1 +1 = 5
    ((1, 0), 0, "regular", 4, 0),  # 4 +1 = 5
    ((1, 0), 2, "regular", 4, +1),  # 4 +1 +1 = 6
    ((2, 2), 0, "regular", 5, +1),  # 5 +1 2 TDs = 6 (a draw: no won/lost)
    ((0, 1), 0, "regular", 2, -1),  # 2 -1 lost = 1
    ((0, 1), 2, "regular", 2, 0),  # 2 -1 +1 = 2
    ((1, 0), 0, "semi-final", 3, 0),  # 3 +1 +1 semi = 5
    ((1, 0), 0, "semi-final", 4, +1),  # 4 +1 +1 semi = 6
    ((0, 1), 0, "final", 5, +1),  # 5 -1 lost +2 final = 6
    ((0, 1), 0, "final", 4, 0),  # 4 -1 +2 = 5
    ((1, 1), 0, "final", 3, 0),  # 3 +2 = 5: won on penalties, still a tie (dz3.md R14)
]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(("score", "casualties", "stage", "rolled", "change"), ROWS)
def test_the_fan_factor_table(
    edition: str,
    score: tuple[int, int],
    casualties: int,
    stage: str,
    rolled: int,
    change: int,
) -> None:
    book = Book(edition)
    men = book.team("men", "human", ["lineman"] * 11)
    rats = book.team("rats", "skaven", ["lineman"] * 11)
    for team in ("men", "rats"):
        fans = Purchase(item="fan_factor", count=2, price=20_000)
        book.record(ev.TreasuryAdjusted, team=team, amount=20_000, reason="test")
        book.record(ev.SidelinePurchased, team=team, purchases=(fans,))
    kind = "league"
    if stage != "regular":
        fixture = Fixture(id="m1", round=1, division="", home="men", away="rats", stage=stage)
        book.record(ev.SeasonStarted, season=1, divisions=())  # a season schedules fixtures
        book.record(ev.FixturesScheduled, season=1, fixtures=(fixture,))
        kind = "playoff"
    hurt = tuple(
        Casualty(victim=rats[i], inflicted_by=men[i], cause="block", outcome="badly_hurt")
        for i in range(casualties)
    )
    scorers = [Performance(player=men[0], touchdowns=score[0])] if score[0] else []
    home = sheet("men", score[0], scorers, (roll("fan_factor", "D6", rolled, subject="men"),))
    away = sheet("rats", score[1])
    level = kind == "playoff" and score[0] == score[1]
    tied = {"shootout": Shootout(penalties_home=4, penalties_away=2)} if level else {}
    book.record(
        ev.MatchRecorded, match="m1", kind=kind, home=home, away=away, casualties=hurt, **tied
    )
    assert book.team_row("men").fans == 2 + change
