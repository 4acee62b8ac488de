"""A bb2025 league replayed under bb2020 (Season 2) and the reverse, with figures worked by hand.

Each league is recorded through the real commands: the Reavers (Humans, player p1 a
Blitzer at 85,000 in both editions) beat the Dwarves 2-0 twice; p1 scores both touchdowns
and is MVP each time (2 x 3 + 4 = 10 SPP a game in both editions) and takes two
advancements, Sure Hands after the first game and Dodge after the second. The Dwarves buy two
re-rolls while drafting. The mapping tables (ledger/whatif/mappings) read a Season 2 list
or position as the bb2025 one of the same id, and a recorded Season 2 D16 is no 2025 D8.

Season 2 figures: docs/rulesets/bb2020.md (BBBase docs/bb2020); 2025: seed 001.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.application.commands import AdvancePlayer, Buy, ClosePostGame, RecordMatch
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.events import LedgerEvent
from ledger.domain.state import PlayerRow, TeamRow
from ledger.rules import find_ruleset
from ledger.whatif.replay import Outcome, replay
from tests.support import create_league, draft_team, report, roll

DWARVES = ["runner", "runner", "blitzer", "blitzer", *["lineman"] * 7]


def game(match: str) -> dict[str, object]:
    return {
        "match": match,
        "home": {
            "team": "reavers",
            "players": [{"player": "reavers 1", "td": 2, "mvp": 1}],
            "dice": {"fan_factor": 1, "dedicated_fans": 1},
        },
        "away": {
            "team": "dwarves",
            "players": [{"player": "dwarves 5", "mvp": 1}],
            "dice": {"fan_factor": 1, "dedicated_fans": 6},
        },
    }


def close(ledger: LeagueLedger, match: str, dwarves_roll: bool) -> None:
    """Expensive Mistakes with a D6 of 5 (Crisis Averted below 400,000 in both editions);
    the Dwarves roll only where their treasury has reached 100,000."""
    ledger.handle(ClosePostGame("l", match, "reavers", dice={"expensive_mistakes": 5}), by="t")
    dice = {"expensive_mistakes": 5} if dwarves_roll else {}
    ledger.handle(ClosePostGame("l", match, "dwarves", dice=dice), by="t")


def season(
    ledger: LeagueLedger, ruleset: str, reavers: list[str], second: dict[str, object]
) -> str:
    create_league(ledger, "l", ruleset)
    draft_team(ledger, "l", "reavers", "human", reavers)
    draft_team(ledger, "l", "dwarves", "dwarf", DWARVES)
    ledger.handle(Buy("l", "dwarves", "reroll", 2), by="t")
    ledger.handle(RecordMatch("l", report(game("m1"))), by="t")
    ledger.handle(
        AdvancePlayer("l", "reavers", "reavers 1", "chosen_primary", skill="Sure Hands"), by="t"
    )
    close(ledger, "m1", dwarves_roll=ruleset == "bb2020")
    ledger.handle(RecordMatch("l", report(game("m2"))), by="t")
    ledger.handle(AdvancePlayer("l", "reavers", "reavers 1", **second), by="t")  # type: ignore[arg-type]
    close(ledger, "m2", dwarves_roll=ruleset == "bb2020")
    return "l"


def log_of(
    folder: Path, ruleset: str, reavers: list[str], second: dict[str, object]
) -> list[LedgerEvent]:
    ledger = open_ledger(Settings(sqlite_path=folder / "l.db", user="t"))
    try:
        league = season(ledger, ruleset, reavers, second)
        return list(ledger.source.league_events(ledger.league_row(league).league_id))
    finally:
        close_ledger(ledger)


@pytest.fixture(scope="module")
def bb2025_log(tmp_path_factory: pytest.TempPathFactory) -> list[LedgerEvent]:
    """Reavers: 2 Blitzers and 9 Linemen. p1's second advancement: Dodge, chosen Secondary."""
    second = {"kind": "chosen_secondary", "skill": "Dodge"}
    reavers = ["blitzer", "blitzer", *["lineman"] * 9]
    return log_of(tmp_path_factory.mktemp("bb2025"), "bb2025", reavers, second)


@pytest.fixture(scope="module")
def bb2020_log(tmp_path_factory: pytest.TempPathFactory) -> list[LedgerEvent]:
    """Reavers: 2 Blitzers, 3 Catchers (Season 2 allows 4) and 6 Linemen. p1's second
    advancement: a random Secondary skill, Agility, rolled 1-3 then 4: Dodge."""
    second = {
        "kind": "random_secondary",
        "skill": "Dodge",
        "category": "A",
        "dice": (roll("random_skill", "2D6", 1, 4),),
    }
    reavers = ["blitzer", "blitzer", "catcher", "catcher", "catcher", *["lineman"] * 6]
    return log_of(tmp_path_factory.mktemp("bb2020"), "bb2020", reavers, second)


def player(outcome: Outcome, player_id: str) -> PlayerRow:
    found = outcome.store.get(PlayerRow, outcome.league_id, player_id)
    assert found is not None
    return found


def team(outcome: Outcome, team_id: str) -> TeamRow:
    found = outcome.store.get(TeamRow, outcome.league_id, team_id)
    assert found is not None
    return found


def dwarf_costs(outcome: Outcome) -> tuple[int, int]:
    """(the players' values, the team's TV) of the Dwarves, who took no advancement."""
    players = outcome.store.select(PlayerRow, league_id=outcome.league_id, team_id="dwarves")
    return sum(p.value for p in players), team(outcome, "dwarves").values["tv"]


# --- a bb2025 league under Season 2 -----------------------------------------------------------


def test_the_bb2025_league_as_recorded(bb2025_log: list[LedgerEvent]) -> None:
    """2025: Sure Hands, a chosen Primary skill, costs 6 SPP as first advancement (+20,000);
    Dodge, a chosen Secondary skill and an Elite Skill, 12 as second (+40,000 + 10,000).
    p1 earned 20 SPP, spent 18, kept 2: 85,000 + 20,000 + 50,000 = 155,000. The Dwarves:
    2 Runners at 80,000, 2 Blitzers at 100,000, 7 Linemen at 70,000 = 850,000, and 2
    re-rolls at 60,000: TV 970,000."""
    real = replay(bb2025_log, find_ruleset("bb2025"))
    p1 = player(real, "p1")
    assert (p1.spp_earned, p1.spp, p1.value) == (20, 2, 155_000)
    assert dwarf_costs(real) == (850_000, 970_000)


def test_under_season_2_the_advancements_cost_20_spp_and_add_60000(
    bb2025_log: list[LedgerEvent],
) -> None:
    """Season 2: Sure Hands 6 SPP (+20,000); Dodge, a chosen Secondary skill, 14 SPP as second
    advancement and +40,000 (no Elite Skills). Spent 6 + 14 = 20 of 20: 85,000 + 20,000 +
    40,000 = 145,000."""
    s2 = replay(bb2025_log, find_ruleset("bb2020"))
    p1 = player(s2, "p1")
    assert (p1.spp_earned, p1.spp, p1.value) == (20, 0, 145_000)
    assert p1.skills == ("Block", "Sure Hands", "Dodge")  # a Season 2 Blitzer has no Tackle


def test_under_season_2_the_dwarves_cost_season_2_prices(bb2025_log: list[LedgerEvent]) -> None:
    """Season 2 Dwarves: Runners 85,000, Blitzers 80,000, Linemen 70,000: 170,000 + 160,000
    + 490,000 = 820,000; re-rolls 50,000: TV 820,000 + 100,000 = 920,000."""
    s2 = replay(bb2025_log, find_ruleset("bb2020"))
    assert dwarf_costs(s2) == (820_000, 920_000)
    assert team(s2, "dwarves").rerolls == 2


# --- a Season 2 league under bb2025 -----------------------------------------------------------


def test_the_season_2_league_as_recorded(bb2020_log: list[LedgerEvent]) -> None:
    """Season 2: Sure Hands 6 SPP (+20,000); the random Secondary skill 8 SPP as second
    advancement (+20,000). Spent 14 of 20, kept 6: 85,000 + 40,000 = 125,000. The Dwarves:
    820,000 and re-rolls 2 x 50,000: TV 920,000."""
    real = replay(bb2020_log, find_ruleset("bb2020"))
    p1 = player(real, "p1")
    assert (p1.spp_earned, p1.spp, p1.value) == (20, 6, 125_000)
    assert dwarf_costs(real) == (820_000, 920_000)


def test_under_bb2025_the_random_secondary_is_a_chosen_one(bb2020_log: list[LedgerEvent]) -> None:
    """2025 has no random Secondary skill: the replay takes Dodge as a chosen Secondary
    (12 SPP as second advancement, +40,000 + 10,000 for an Elite Skill). Spent 6 + 12 = 18,
    kept 2: 85,000 + 20,000 + 50,000 = 155,000."""
    b25 = replay(bb2020_log, find_ruleset("bb2025"))
    p1 = player(b25, "p1")
    assert (p1.spp_earned, p1.spp, p1.value) == (20, 2, 155_000)
    assert p1.skills == ("Block", "Tackle", "Sure Hands", "Dodge")
    assert ("p1", "advancement") in {(d.subject, d.rule) for d in b25.divergences}


def test_under_bb2025_the_dwarves_and_the_third_catcher_cost_2025_prices(
    bb2020_log: list[LedgerEvent],
) -> None:
    """2025 Dwarves: 850,000 and 2 re-rolls at 60,000, TV 970,000. The Reavers' third
    Catcher is over 2025's 0-2 limit: he is hired as a Lineman (lineman-instead), so the
    Reavers' players are 2 x 85,000 + 2 x 75,000 + 7 x 50,000 = 670,000 (Season 2:
    2 x 85,000 + 3 x 65,000 + 6 x 50,000 = 665,000) before p1's advancements."""
    b25 = replay(bb2020_log, find_ruleset("bb2025"))
    assert dwarf_costs(b25) == (850_000, 970_000)
    assert player(b25, "p5").position == "lineman"
    rules = {(d.subject, d.rule, d.policy) for d in b25.divergences}
    assert ("p5", "position-limit", "lineman-instead") in rules
    reavers = b25.store.select(PlayerRow, league_id=b25.league_id, team_id="reavers")
    assert sum(p.base_cost for p in reavers) == 670_000
