"""A gold4 league through the real commands on SQLite: creation, team rating, fees, concession.

The rules tests beside this one fold hand-written events in memory; this one checks the same
rules through LeagueLedger and the SQL read models, where the appearance-fee check reads the
treasury lines the fold persisted (seed 002, APPEARANCE FEES).
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.application.commands import PayAppearanceFees, RecordMatch
from ledger.application.service import LeagueLedger
from ledger.domain.state import TeamRow
from ledger.errors import RuleViolation
from ledger.rules.gold4 import Gold4
from tests.support import create_league, draft_team, report

ORCS = ["lineman"] * 6 + ["black_orc_blocker"] * 2 + ["blitzer", "thrower", "goblin"]
HUMANS = ["lineman"] * 7 + ["blitzer", "blitzer", "thrower", "catcher"]


def team(ledger: LeagueLedger, team_id: str) -> TeamRow:
    found = ledger.view().get(TeamRow, ledger.league_row("gold").league_id, team_id)
    assert found is not None
    return found


@pytest.fixture
def gold(sqlite_ledger: LeagueLedger) -> LeagueLedger:
    create_league(sqlite_ledger, "gold", "gold4")
    draft_team(sqlite_ledger, "gold", "orcs", "orc", ORCS)
    draft_team(sqlite_ledger, "gold", "humans", "human", HUMANS)
    return sqlite_ledger


def game(match: str, kind: str, scorer: str, touchdowns: int, **extra: Any) -> Any:
    return report(
        {
            "match": match,
            "kind": kind,
            "home": {"team": "orcs", "players": [{"player": scorer, "td": touchdowns}]},
            "away": {"team": "humans"},
            **extra,
        }
    )


@pytest.mark.parametrize("options", Gold4.example_option_sets)
def test_a_league_is_created_under_each_example_option_set(
    sqlite_ledger: LeagueLedger, options: dict[str, Any]
) -> None:
    row = sqlite_ledger.create_league("g", "G", "gold4", by="tester", options=options)
    assert row.ruleset == "gold4"
    assert row.options == Gold4(options).options.model_dump(mode="json")


def test_every_starting_team_is_rated_100(gold: LeagueLedger) -> None:
    assert team(gold, "orcs").values == {"tr": 100}
    assert team(gold, "humans").rating == 100


def test_an_unpaid_star_is_refused_until_his_fee_is_paid(gold: LeagueLedger) -> None:
    gold.handle(RecordMatch("gold", game("f1", "friendly", "orcs 9", 17)), by="tester")
    with pytest.raises(RuleViolation, match="appearance fee of 25,000"):
        gold.handle(
            RecordMatch("gold", game("g2", "league", "orcs 9", 1), roll_missing=True), by="tester"
        )
    before = team(gold, "orcs").treasury
    gold.handle(PayAppearanceFees("gold", "g2", "orcs", ["orcs 9"]), by="tester")
    assert team(gold, "orcs").treasury == before - 25_000
    gold.handle(
        RecordMatch("gold", game("g2", "league", "orcs 9", 1), roll_missing=True), by="tester"
    )


def test_a_concession_moves_all_the_losers_money(gold: LeagueLedger) -> None:
    money = team(gold, "humans").treasury
    before = team(gold, "orcs").treasury
    conceded = {"concession": {"team": "humans", "kind": "conceded"}}
    gold.handle(
        RecordMatch("gold", game("g1", "league", "orcs 9", 1, **conceded), roll_missing=True),
        by="tester",
    )
    assert team(gold, "humans").treasury == 0
    assert team(gold, "orcs").treasury > before + money  # plus the winner's own winnings
