"""A player asked for by name (``ledger history NAME``, ``player NAME``): two of that name
are told apart by their ids, each with his team, since the name alone does not say which
is whose."""

from __future__ import annotations

import pytest

from ledger.application.commands import HirePlayer
from ledger.application.service import LeagueLedger
from ledger.errors import UnknownPlayer
from ledger.projections.queries import Queries
from ledger.rules import find_ruleset
from tests.support import two_team_league


def test_two_players_of_one_name_are_named_by_id_and_team(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    ledger.handle(HirePlayer("test", "reavers", "lineman", "Skweek"), by="t")
    ledger.handle(HirePlayer("test", "rats", "clanrat", "Skweek"), by="t")
    queries = Queries(ledger.read_models.engine, ledger.league_row("test"), find_ruleset("bb2025"))
    with pytest.raises(UnknownPlayer) as twice:
        queries.player("skweek")
    said = twice.value.message
    assert said.startswith("2 players are called 'skweek' in league test: name one by id (")
    assert " of reavers" in said
    assert " of rats" in said
