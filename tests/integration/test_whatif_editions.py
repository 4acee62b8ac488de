"""The same season under another edition's rules, checked against numbers worked by hand.

Two small leagues are recorded through the real commands, every die given:

- a BB2025 league (seed 001): the Reavers (11 Human Linemen, 2 Dedicated Fans bought) beat
  the Rats (11 Skaven Clanrats, 1 bought) 2-1; Reavers 1 scores twice and is MVP, then
  takes Block; Reavers 3 blocks Rats 5 into the casualty box. It is replayed under
  lrb6-zal (seed 000), gold4 (seed 002) and dz3 (seed 004).
- a ZAL league (seed 000, tests/integration/test_whatif_native.py's two games) replayed
  under bb2025.

Rolls the record lacks come from the replay's generator, seeded by (league, event,
purpose, subject, seed 0); each test first checks the generator gives the values used in
its working (``drawn``), so the arithmetic below is the rules texts' alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.application.commands import AdvancePlayer, Buy, ClosePostGame, RecordMatch
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.events import LedgerEvent
from ledger.domain.state import MatchRow, PlayerRow, TeamRow, TreasuryLine
from ledger.rules import find_ruleset
from ledger.rules.dice import DiceBox
from ledger.whatif.replay import Outcome, replay
from tests.integration.test_whatif_native import zal_season
from tests.support import create_league, draft_team, report

MATCH = {
    "match": "m1",
    "home": {
        "team": "reavers",
        "players": [{"player": "reavers 1", "td": 2, "mvp": 1}],
        "dice": {"fan_factor": 1, "dedicated_fans": 6},
    },
    "away": {
        "team": "rats",
        "players": [{"player": "rats 1", "td": 1}, {"player": "rats 2", "mvp": 1}],
        "dice": {"fan_factor": 2, "dedicated_fans": 6},
    },
    "casualties": [{"victim": "rats 5", "by": "reavers 3", "cause": "block", "roll": 8}],
}
MATCH_EVENT = 28
"""The match is the 28th event: creation, 2 x (registration + 11 hires), 2 purchases."""
ADVANCEMENT_EVENT = 29


def bb2025_league(ledger: LeagueLedger) -> str:
    create_league(ledger, "hand")
    draft_team(ledger, "hand", "reavers", "human", ["lineman"] * 11)
    draft_team(ledger, "hand", "rats", "skaven", ["clanrat"] * 11)
    ledger.handle(Buy("hand", "reavers", "dedicated_fans", 2), by="tester")
    ledger.handle(Buy("hand", "rats", "dedicated_fans", 1), by="tester")
    ledger.handle(RecordMatch("hand", report(MATCH)), by="tester")
    ledger.handle(
        AdvancePlayer("hand", "reavers", "reavers 1", "chosen_primary", skill="Block"), by="t"
    )
    for team in ("reavers", "rats"):
        ledger.handle(
            ClosePostGame("hand", "m1", team, dice={"expensive_mistakes": 5}), by="tester"
        )
    return "hand"


@pytest.fixture(scope="module")
def bb2025_log(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[LedgerEvent]]:
    ledger = open_ledger(
        Settings(sqlite_path=tmp_path_factory.mktemp("hand") / "hand.db", user="t")
    )
    league = bb2025_league(ledger)
    yield list(ledger.source.league_events(ledger.league_row(league).league_id))
    close_ledger(ledger)


@pytest.fixture(scope="module")
def zal_log(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[LedgerEvent]]:
    ledger = open_ledger(Settings(sqlite_path=tmp_path_factory.mktemp("zal") / "z.db", user="t"))
    league = zal_season(ledger)
    yield list(ledger.source.league_events(ledger.league_row(league).league_id))
    close_ledger(ledger)


def drawn(log: list[LedgerEvent], event: int, purpose: str, dice: str, subject: str) -> int:
    box = DiceBox(league=str(log[0].originator_id), seed=0, event=event)
    return sum(box.draw(purpose, dice, subject))


def player(outcome: Outcome, player_id: str) -> PlayerRow:
    found = outcome.store.get(PlayerRow, outcome.league_id, player_id)
    assert found is not None
    return found


def team(outcome: Outcome, team_id: str) -> TeamRow:
    found = outcome.store.get(TeamRow, outcome.league_id, team_id)
    assert found is not None
    return found


def winnings(outcome: Outcome, match: str) -> dict[str, int]:
    found = outcome.store.get(MatchRow, outcome.league_id, match)
    assert found is not None
    return found.winnings


# --- a BB2025 season under the older editions -----------------------------------------------


def test_the_bb2025_figures_as_recorded(bb2025_log: list[LedgerEvent]) -> None:
    """Seed 001. SPP: 2 TD x 3 + MVP 4 = 10; Block, a chosen primary skill, costs 6 as a
    first advancement (Advancement Table), leaving 4; it adds 20,000 + 10,000 (an elite
    skill) to the Lineman's 50,000. Winnings: Fan Factor = Dedicated Fans + D3, so
    attendance (3 + 1) + (2 + 2) = 8; Reavers (8 / 2 + 2 TD + 1) x 10,000 = 70,000; Rats
    (4 + 1 + 1) x 10,000 = 60,000. Treasuries: 1,000,000 - 550,000 - 20,000 + 70,000."""
    real = replay(bb2025_log, find_ruleset("bb2025"))
    scorer = player(real, "p1")
    assert (scorer.spp_earned, scorer.spp, scorer.value) == (10, 4, 80_000)
    assert winnings(real, "m1") == {"reavers": 70_000, "rats": 60_000}
    assert team(real, "reavers").treasury == 500_000
    assert team(real, "rats").treasury == 1_000_000 - 550_000 - 10_000 + 60_000


def test_under_lrb6_zal_mvps_are_worth_5_and_winnings_follow_the_match_winnings_table(
    bb2025_log: list[LedgerEvent],
) -> None:
    """Seed 000 (ZAL 16: TD 3, MVP 5): Reavers 1 earns 2 x 3 + 5 = 11 SPP and spends none
    (ZAL counts Star Player Rolls by SPP earned). The Dedicated Fans bought are ZAL's Fan
    Factor (ZAL 3c: none comes free): Reavers 2, Rats 1.

    Gate (pre-match 3): one D6 per Fan Factor: 3 + 5 and 1, so 9,000 fans. Team Ratings
    for the match (ZAL 8a): Reavers (550,000 + 2 x 10,000) / 10,000 = 57, Rats 56.
    Match Winnings Table, gate 0-15,000, TR 0-99: +1. Reavers (D6 5 + 1 + 1 for the win)
    x 10,000 = 70,000; Rats (D6 2 + 1) x 10,000 = 30,000.

    Reavers 1's Star Player Roll (6 SPP: Experienced, one roll due) is 2 + 4 = 6: a skill
    of his categories, so Block stands; the Ageing Roll 1 + 5 = 6 beats Experienced's 3+.
    ZAL 18: skills add no value, he stays at 50,000. TR after: (570,000) / 10,000 + 13 SPP
    / 5 = 59."""
    assert drawn(bb2025_log, MATCH_EVENT, "gate", "2D6", "reavers") == 8
    assert drawn(bb2025_log, MATCH_EVENT, "gate", "D6", "rats") == 1
    assert drawn(bb2025_log, MATCH_EVENT, "winnings", "D6", "reavers") == 5
    assert drawn(bb2025_log, MATCH_EVENT, "winnings", "D6", "rats") == 2
    assert drawn(bb2025_log, ADVANCEMENT_EVENT, "star_roll", "2D6", "p1") == 6
    assert drawn(bb2025_log, ADVANCEMENT_EVENT, "ageing", "2D6", "p1") == 6
    zal = replay(bb2025_log, find_ruleset("lrb6-zal"))
    scorer = player(zal, "p1")
    assert (scorer.spp_earned, scorer.spp, scorer.value) == (11, 11, 50_000)
    assert scorer.skills == ("Block",)
    assert player(zal, "p3").spp_earned == 2  # the casualty: 2 SPP in every edition
    assert winnings(zal, "m1") == {"reavers": 70_000, "rats": 30_000}
    assert (team(zal, "reavers").treasury, team(zal, "rats").treasury) == (500_000, 470_000)
    assert (team(zal, "reavers").fans, team(zal, "rats").fans) == (2, 1)
    assert team(zal, "reavers").values == {"tr": 59}
    # The position renamed by the tables: a BB2025 Clanrat is an LRB6 Skaven Lineman.
    assert player(zal, "p12").position == "lineman"
    assert zal.simulated == {"rats": 3, "reavers": 5}  # gate, winnings, fans; + 2 for p1


@pytest.mark.parametrize("ruleset", ["dz3", "gold4"])
def test_under_the_3rd_and_4th_editions_the_team_rating_counts_the_treasury(
    bb2025_log: list[LedgerEvent], ruleset: str
) -> None:
    """Seeds README / 004 3.8 (dz3) and 002 TEAM RATINGS (gold4): TR = team value with the
    treasury / 10,000 + SPP / 5: both teams start the match at 1,000,000, TR 100. Gate: the
    same 9 dice pips, 9,000. Match Winnings Table (Death Zone): gate up to 15,000 and TR
    100-125 give +0; Reavers (D6 5 + 0 + 1) x 10,000 = 60,000; Rats (2 + 0) x 10,000 =
    20,000. SPP 2 x 3 + MVP 5 = 11. After: Reavers (550,000 + 20,000 + 490,000) / 10,000 +
    13 / 5 = 108; Rats (550,000 + 10,000 + 460,000) / 10,000 + 8 / 5 = 103."""
    other = replay(bb2025_log, find_ruleset(ruleset))
    assert winnings(other, "m1") == {"reavers": 60_000, "rats": 20_000}
    assert player(other, "p1").spp_earned == 11
    assert player(other, "p1").skills == ("Block",)  # star player roll 2 + 4: a skill
    assert (team(other, "reavers").treasury, team(other, "rats").treasury) == (490_000, 460_000)
    assert (team(other, "reavers").rating, team(other, "rats").rating) == (108, 103)
    assert player(other, "p22").position == "lineman"  # a Clanrat, a 3rd edition Lineman


def test_a_bb2025_blitzer_is_a_storm_vermin_in_the_3rd_edition(tmp_path: Path) -> None:
    ledger = open_ledger(Settings(sqlite_path=tmp_path / "b.db", user="t"))
    try:
        create_league(ledger, "rats")
        draft_team(ledger, "rats", "rats", "skaven", ["blitzer", "gutter_runner", "clanrat"])
        events = list(ledger.source.league_events(ledger.league_row("rats").league_id))
    finally:
        close_ledger(ledger)
    dz3 = replay(events, find_ruleset("dz3"))
    assert [player(dz3, p).position for p in ("p1", "p2", "p3")] == [
        "storm_vermin",
        "gutter_runner",
        "lineman",
    ]
    assert [player(dz3, p).value for p in ("p1", "p2", "p3")] == [90_000, 80_000, 50_000]
    assert dz3.divergences == []


# --- a ZAL season under BB2025 --------------------------------------------------------------


def test_a_zal_season_under_bb2025(zal_log: list[LedgerEvent]) -> None:
    """Seed 001 readings of the ZAL record (tests/integration/test_whatif_native.py):

    SPP: Reavers 1 scored twice, was MVP and blocked Gouged 5 into the casualty box:
    ZAL 2 x 3 + 5 + 2 = 13, BB2025 2 x 3 + 4 + 2 = 12. Gouged 2's casualty came from a foul:
    ZAL 16b pays 2 SPP for it, BB2025 only a Block ('Casualty'): 0.

    Draft: the Reavers' BB2025 prices (Blitzers 85,000, Thrower and Catcher 75,000,
    Linemen 50,000) add up to ZAL's 670,000; their 5 Fan Factors are 5 more Dedicated Fans
    on the 1 every BB2025 team starts with (6, the draft maximum), 50,000. Treasury
    1,000,000 - 670,000 - 50,000 = 280,000.

    Game 1: Fan Factor = Dedicated Fans + D3 (drawn: 2 and 3): attendance (6 + 2) +
    (5 + 3) = 16; Reavers (16 / 2 + 2 TD + 1) x 10,000 = 110,000, Gouged (8 + 1 + 1) x
    10,000 = 100,000. Dedicated Fans: the Reavers won but rolled 1 (< 6): stay 6; the Gouged
    lost and rolled 2 (< 5): 4.
    Game 2, conceded by the Gouged (ZAL's voluntary forfeit reads as a concession with its
    penalty): the Reavers take (attendance + TD) x 10,000 with attendance (6 + 3) + (4 + 2)
    = 15: (15 + 3) x 10,000 = 180,000; the Gouged nothing.
    Jo, the journeyman signed, costs a Lineman's 50,000. BB2025 closes each post-game
    sequence (the log has none): before game 2 Expensive Mistakes rolls 5 with 390,000
    (crisis averted); at the end 4 with 520,000: a minor incident, D3 2 x 10,000 lost.
    280,000 + 110,000 + 180,000 - 50,000 - 20,000 = 500,000."""
    assert drawn(zal_log, 28, "fan_factor", "D3", "reavers") == 2
    assert drawn(zal_log, 28, "fan_factor", "D3", "gouged") == 3
    assert drawn(zal_log, 28, "dedicated_fans", "D6", "reavers") == 1
    assert drawn(zal_log, 28, "dedicated_fans", "D6", "gouged") == 2
    assert drawn(zal_log, 32, "fan_factor", "D3", "reavers") == 3
    assert drawn(zal_log, 32, "fan_factor", "D3", "gouged") == 2
    assert drawn(zal_log, 28, "expensive_mistakes", "D6", "reavers") == 5
    assert drawn(zal_log, 32, "expensive_mistakes", "D6", "reavers") == 4
    assert drawn(zal_log, 32, "expensive_mistakes_amount", "D3", "reavers") == 2
    real, bb = replay(zal_log, find_ruleset("lrb6-zal")), replay(zal_log, find_ruleset("bb2025"))
    assert (player(real, "p1").spp_earned, player(bb, "p1").spp_earned) == (13, 12)
    assert (player(real, "p13").spp_earned, player(bb, "p13").spp_earned) == (2, 0)
    assert winnings(bb, "r1") == {"reavers": 110_000, "gouged": 100_000}
    assert winnings(bb, "r2") == {"reavers": 180_000}
    lines = [x for x in bb.store.lines[TreasuryLine] if isinstance(x, TreasuryLine)]
    reavers = [(x.amount, x.kind) for x in lines if x.team_id == "reavers"]
    assert reavers == [
        (1_000_000, "starting treasury"),
        *[(-price, "hire") for price in (85_000, 85_000, 75_000, 75_000, *[50_000] * 7)],
        (-50_000, "purchase"),
        (110_000, "winnings"),
        (180_000, "winnings"),
        (-50_000, "hire"),
        (-20_000, "expensive_mistake"),
    ]
    assert team(bb, "reavers").treasury == 500_000
    assert (team(bb, "reavers").fans, team(bb, "gouged").fans) == (6, 4 - 3)  # conceded: -D3


def test_what_bb2025_would_not_allow_in_the_zal_season_is_listed(
    zal_log: list[LedgerEvent],
) -> None:
    """BB2025's Orc list has 2 Blitzers and 2 Big Un Blockers (ZAL: 4 and 4 Black Orcs):
    the third and fourth of each are hired as Linemen. BB2025 has no bounties. Reavers 1's
    +1 ST (a ZAL Star Player Roll at 6 SPP) is a characteristic improvement costing 14 SPP
    in BB2025; with 12 he waits, and dies in game 2 before he has them."""
    bb = replay(zal_log, find_ruleset("bb2025"))
    found = [(d.seq, d.rule, d.subject, d.policy) for d in bb.divergences]
    assert found == [
        (17, "position-limit", "p14", "lineman-instead"),
        (18, "position-limit", "p15", "lineman-instead"),
        (21, "position-limit", "p18", "lineman-instead"),
        (22, "position-limit", "p19", "lineman-instead"),
        (29, "feature", None, "skip"),
        (30, "advancement", "p1", "never-applied"),
    ]
    assert "12 SPP; characteristic costs 14" in bb.divergences[-1].reason
    assert team(bb, "gouged").treasury == 1_000_000 - 710_000 - 40_000 + 100_000 - 20_000
