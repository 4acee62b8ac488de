"""A command for an optional mechanic is refused, naming the mechanic, exactly in the
editions without it (``Ruleset.features``): temporary retirement (BB2020/2025), bounties
(ZAL 21), long-term star contracts (Spike! 2021, under bb2020 and bb2025), the off-season
re-draft (BB2020/2025), special play cards (ZAL 8d), inducements (BB2020/2025, LRB6) and
appearance fees (4th edition)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ledger.application.commands import (
    BuyInducements,
    OrderStarDraft,
    PayAppearanceFees,
    PlayCard,
    PostBounty,
    Redraft,
    RetirePlayer,
)
from ledger.application.service import LeagueLedger
from ledger.errors import LedgerError
from ledger.rules import REGISTRY, find_ruleset
from ledger.rules.protocol import Feature
from tests.rules.contract_support import chosen_lists, starting_positions
from tests.support import create_league, draft_team

Command = Callable[[LeagueLedger, str], object]

COMMANDS: dict[Feature, tuple[Command, str]] = {
    Feature.TEMPORARY_RETIREMENT: (
        lambda ledger, player: ledger.handle(RetirePlayer("facts", "t1", player), by="tester"),
        "leagues have no temporary retirement",
    ),
    Feature.BOUNTIES: (
        lambda ledger, player: ledger.handle(
            PostBounty("facts", "t1", player, 10_000), by="tester"
        ),
        "leagues have no bounties",
    ),
    Feature.STAR_CONTRACTS: (
        lambda ledger, player: ledger.handle(OrderStarDraft("facts"), by="tester"),
        "leagues have no long-term star contracts",
    ),
    Feature.REDRAFT: (
        lambda ledger, player: ledger.handle(Redraft("facts", "t1"), by="tester"),
        "leagues have no off-season re-drafts",
    ),
    Feature.CARDS: (
        lambda ledger, player: ledger.handle(PlayCard("facts", "t1", "bankruptcy"), by="tester"),
        "leagues have no special play cards",
    ),
    Feature.INDUCEMENTS: (
        lambda ledger, player: ledger.handle(BuyInducements("facts", "m1", "t1", {}), by="tester"),
        "leagues buy no inducements",
    ),
    Feature.APPEARANCE_FEES: (
        lambda ledger, player: ledger.handle(
            PayAppearanceFees("facts", "m1", "t1", [player]), by="tester"
        ),
        "leagues have no appearance fees",
    ),
}


def refusal(ledger: LeagueLedger, command: Command, player: str) -> str:
    try:
        command(ledger, player)
    except LedgerError as error:
        return str(error)
    return ""


@pytest.mark.parametrize("ruleset_id", sorted(REGISTRY))
def test_a_mechanic_the_edition_lacks_is_refused_by_name(
    sqlite_ledger: LeagueLedger, ruleset_id: str
) -> None:
    ruleset = find_ruleset(ruleset_id)
    roster = chosen_lists(ruleset)[0]
    create_league(sqlite_ledger, "facts", ruleset_id)
    players = draft_team(
        sqlite_ledger,
        "facts",
        "t1",
        roster,
        starting_positions(ruleset.catalogue.team_list(roster))[:2],
    )
    for feature, (command, missing) in COMMANDS.items():
        refused = refusal(sqlite_ledger, command, players[0])
        assert (missing in refused) is (feature not in ruleset.features), (feature, refused)


def test_every_optional_mechanic_has_its_command_here() -> None:
    assert set(COMMANDS) == set(Feature)
