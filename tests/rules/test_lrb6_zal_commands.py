"""lrb6-zal through the real commands: a short ZAL season on a ledger (SQLite), and the
refusals a commissioner meets (seed 000: ZAL 3c, 8a, 9b, 17, 21, the Handicap Table).

Each refusal leaves the log as it was; every figure is the one the rules tests derive.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.application.commands import (
    AdvancePlayer,
    Buy,
    HirePlayer,
    PlayCard,
    PostBounty,
    RecordMatch,
    StartSeason,
)
from ledger.application.service import LeagueLedger
from ledger.domain.state import MatchRow, PlayerRow, StandingRow, TeamRow
from ledger.domain.values import Division
from ledger.errors import (
    FanFactorRefused,
    HirelingAlreadySigned,
    InvalidAdvancement,
    InvalidInput,
    LedgerError,
    NotAllowed,
    RuleViolation,
    TooFewPlayers,
)
from ledger.rules.lrb6_zal.ruleset import LRB6ZAL
from tests.rules.test_lrb6_zal_book import HUMANS, ORCS
from tests.support import draft_team, event_count, report, zal_forfeit_report
from tests.support import roll as make_roll

FIRST: dict[str, Any] = {
    "match": "r1",
    "home": {
        "team": "reavers",
        "players": [{"player": "reavers 1", "td": 2, "mvp": 1}, {"player": "reavers 3", "comp": 1}],
        "dice": {"gate": [4, 4, 4, 3, 3], "winnings": 4, "fan_factor": 3},
    },
    "away": {
        "team": "gouged",
        "players": [{"player": "gouged 1", "td": 1, "mvp": 1}],
        "dice": {"gate": [4, 3, 3, 3], "winnings": 2, "fan_factor": 2},
    },
    "casualties": [
        {"victim": "gouged 5", "by": "reavers 1", "cause": "block", "roll": 47},
        {"victim": "reavers 5", "by": "gouged 2", "cause": "foul", "roll": 61},
    ],
}


def zal_league(ledger: LeagueLedger, options: dict[str, Any] | None = None) -> str:
    ledger.create_league("zal", "ZAL", "lrb6-zal", by="tester", options=options)
    draft_team(ledger, "zal", "reavers", "human", HUMANS)
    draft_team(ledger, "zal", "gouged", "orc", ORCS)
    ledger.handle(Buy("zal", "reavers", "fan_factor", 5), by="tester")
    ledger.handle(Buy("zal", "gouged", "fan_factor", 4), by="tester")
    return "zal"


def row(ledger: LeagueLedger, kind: type[Any], *key: Any) -> Any:
    found = ledger.view().get(kind, ledger.league_row("zal").league_id, *key)
    assert found is not None
    return found


def refused(ledger: LeagueLedger, error: type[LedgerError], action: Any, match: str) -> None:
    before = event_count(ledger)
    with pytest.raises(error, match=match):
        action()
    assert event_count(ledger) == before


def test_a_short_zal_season(sqlite_ledger: LeagueLedger) -> None:
    ledger = sqlite_ledger
    zal_league(ledger)
    assert row(ledger, TeamRow, "reavers").values == {"tr": 72}  # 670,000 + 5 Fan Factor
    ledger.handle(RecordMatch("zal", report(FIRST)), by="tester")
    reavers, gouged = row(ledger, TeamRow, "reavers"), row(ledger, TeamRow, "gouged")
    # gate 31,000: Reavers TR 72 (+3, +1 win, D6 4), Gouged TR 83 (+3, D6 2)
    assert (reavers.treasury, gouged.treasury) == (
        330_000 - 50_000 + 80_000,
        210_000 - 40_000 + 50_000,
    )
    # Reavers 3 + 1 + 1 = 5 stay at 5; Gouged 2 - 1 = 1 drop to 3
    assert (reavers.fans, gouged.fans) == (5, 3)
    # a dead Lineman (-50,000) and 2 TD + MVP + casualty (13 SPP) + a completion
    assert reavers.values == {"tr": 72 - 5 + 14 // 5}
    standing = row(ledger, StandingRow, 1, "reavers")
    assert (standing.won, standing.points, standing.cas_for, standing.cas_against) == (1, 3, 1, 1)

    ledger.handle(PostBounty("zal", "gouged", "reavers 1", 30_000), by="tester")
    roll_dice = (make_roll("star_roll", "2D6", 6, 6), make_roll("ageing", "2D6", 2, 1))
    ledger.handle(
        AdvancePlayer(
            "zal", "reavers", "reavers 1", "star_roll", characteristic="st", dice=roll_dice
        ),
        by="tester",
    )
    assert row(ledger, PlayerRow, "p1").st == 4
    refused(
        ledger,
        InvalidAdvancement,
        lambda: ledger.handle(
            AdvancePlayer(
                "zal", "reavers", "reavers 1", "star_roll", skill="Dodge", dice=roll_dice
            ),
            by="tester",
        ),
        "none is due",
    )

    ledger.handle(RecordMatch("zal", report(zal_forfeit_report())), by="tester")
    gouged_after = row(ledger, TeamRow, "gouged")
    assert gouged_after.fans == 2  # gave up: one Fan Factor lost
    assert gouged_after.treasury == gouged.treasury - 30_000 + 30_000  # posted, then paid
    assert row(ledger, PlayerRow, "p1").status == "dead"
    # Only a team he played for signs a journeyman (ZAL 3k): not the opponents of r2.
    refused(
        ledger,
        InvalidInput,
        lambda: ledger.handle(
            HirePlayer("zal", "gouged", "lineman", "Jo", journeyman="j1", match="r2"),
            by="tester",
        ),
        "no hireling 'j1' played for gouged in match r2",
    )
    ledger.handle(
        HirePlayer("zal", "reavers", "lineman", "Jo", journeyman="j1", match="r2"), by="tester"
    )
    jo = next(
        p
        for p in ledger.view().select(PlayerRow, league_id=reavers.league_id, team_id="reavers")
        if p.name == "Jo"
    )
    assert jo.spp == 3 * 3 + 5
    assert row(ledger, MatchRow, "r2").hirelings["j1"]["signed"] == jo.player_id
    # He joins once for that game: a second signing is refused, whatever his new name.
    refused(
        ledger,
        HirelingAlreadySigned,
        lambda: ledger.handle(
            HirePlayer("zal", "reavers", "lineman", "Jo Again", journeyman="j1", match="r2"),
            by="tester",
        ),
        rf"Jo, who played match r2 for reavers, was already signed after it \(player"
        rf" {jo.player_id}\)",
    )


def test_the_commands_refuse_what_zal_forbids(sqlite_ledger: LeagueLedger) -> None:
    ledger = sqlite_ledger
    zal_league(ledger)
    too_many_mvps = {
        **FIRST,
        "home": {
            **FIRST["home"],
            "players": [
                {"player": "reavers 1", "td": 2, "mvp": 1},
                {"player": "reavers 3", "mvp": 1},
            ],
        },
    }
    refused(
        ledger,
        RuleViolation,
        lambda: ledger.handle(RecordMatch("zal", report(too_many_mvps)), by="tester"),
        "Reavers named 2 MVPs where ZAL allows 1",
    )
    refused(
        ledger,
        RuleViolation,
        lambda: ledger.handle(Buy("zal", "reavers", "fan_factor", 5), by="tester"),
        "at most 9",
    )
    refused(
        ledger,
        InvalidInput,
        lambda: ledger.handle(PlayCard("zal", "reavers", "robbery", against="gouged"), by="tester"),
        "name the match",
    )
    refused(
        ledger,
        NotAllowed,
        lambda: ledger.handle(PlayCard("zal", "reavers", "robbery", match="r1"), by="tester"),
        "no recorded report yet",
    )
    ledger.handle(RecordMatch("zal", report(FIRST)), by="tester")
    refused(
        ledger,
        NotAllowed,
        lambda: ledger.handle(Buy("zal", "reavers", "fan_factor", 1), by="tester"),
        "only be bought while drafting",
    )


def test_robbery_takes_the_victims_winnings_of_the_match(sqlite_ledger: LeagueLedger) -> None:
    """ZAL 8d ii through the commands: the Reavers earned 80,000 in r1 (see the short
    season above); the Gouged Eye's thief rolls a 6 and takes all of it."""
    ledger = sqlite_ledger
    zal_league(ledger)
    ledger.handle(RecordMatch("zal", report(FIRST)), by="tester")
    before = {t: row(ledger, TeamRow, t).treasury for t in ("reavers", "gouged")}
    ledger.handle(
        PlayCard("zal", "gouged", "robbery", match="r1", dice={"robbery": 6}), by="tester"
    )
    after = {t: row(ledger, TeamRow, t).treasury for t in ("reavers", "gouged")}
    assert after == {"reavers": before["reavers"] - 80_000, "gouged": before["gouged"] + 80_000}


@pytest.mark.parametrize("options", LRB6ZAL.example_option_sets)
def test_every_option_set_records_a_match_the_same_way_twice(
    sqlite_ledger: LeagueLedger, options: dict[str, Any]
) -> None:
    ledger = sqlite_ledger
    zal_league(ledger, options)
    ledger.handle(
        PlayCard("zal", "gouged", "bankruptcy", against="reavers", roll_missing=True), by="tester"
    )
    ledger.handle(
        PlayCard(
            "zal",
            "gouged",
            "injured_in_practice",
            against="p3",
            dice={"casualty_d6": 5, "casualty_d8": 3},
        ),
        by="tester",
    )
    ledger.handle(
        RecordMatch(
            "zal",
            report(
                {
                    **FIRST,
                    "home": {**FIRST["home"], "dice": {}},
                    "away": {**FIRST["away"], "dice": {}},
                }
            ),
            roll_missing=True,
        ),
        by="tester",
    )
    before = {t: row(ledger, TeamRow, t) for t in ("reavers", "gouged")}
    ledger.read_models.rebuild(ledger.source)
    after = {t: row(ledger, TeamRow, t) for t in ("reavers", "gouged")}
    assert before == after
    assert all(t.treasury >= 0 for t in after.values())


def test_a_team_starts_its_first_season_with_eleven_players_and_a_fan_factor(
    sqlite_ledger: LeagueLedger,
) -> None:
    """ZAL 3c 'Minimum Team Requirements': "A team starting the season, must have at least
    11 players ... Each team must have at least one Fan Factor (which must be paid for)".
    Asked when the season starts, not first at a refused report."""
    ledger = sqlite_ledger
    ledger.create_league("zal", "ZAL", "lrb6-zal", by="tester")
    draft_team(ledger, "zal", "reavers", "human", HUMANS[:9])
    draft_team(ledger, "zal", "gouged", "orc", ORCS)
    start = StartSeason("zal", [Division(name="", teams=("reavers", "gouged"))])
    refused(
        ledger,
        TooFewPlayers,
        lambda: ledger.handle(start, by="tester"),
        "needs at least 11 players, Star Players aside \\(ZAL 3c\\): Reavers 9$",
    )
    for n in (10, 11):
        ledger.handle(
            HirePlayer("zal", "reavers", "lineman", f"reavers {n}", number=n), by="tester"
        )
    ledger.handle(Buy("zal", "reavers", "fan_factor", 2), by="tester")
    refused(
        ledger,
        FanFactorRefused,
        lambda: ledger.handle(start, by="tester"),
        "at least 1 Fan Factor, paid for \\(ZAL 3c\\): Gouged has none$",
    )
    ledger.handle(Buy("zal", "gouged", "fan_factor", 1), by="tester")
    assert ledger.handle(start, by="tester") == 1
