"""What each edition's ``team_values`` reads (``Ruleset.value_reads``).

The fold asks for a team's values again only when one of the declared fields changes
(``Fold.revalue`` in ledger/projections/fold.py), so a field read and not declared would
leave a team's values stale. For every ruleset and option set of the contract
(tests/rules/contract_support.py), a team and its players are given with every field the
declaration leaves out replaced by a value that fails when it is used; their values must
come out as they do from the plain rows.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.domain.state import PlayerRow, TeamRow
from ledger.rules import find_ruleset
from ledger.rules.protocol import Ruleset
from tests.rules.contract_support import case_id, chosen_lists, line_position, option_sets
from tests.support import unread

CASES = option_sets()


def a_team(ruleset: Ruleset) -> tuple[TeamRow, list[PlayerRow]]:
    """A team with something of everything a value may count: re-rolls, the trophy, fans,
    gold, staff; players active, hurt, retired, dead, with SPP, advancements, injuries."""
    team_list = ruleset.catalogue.team_list(chosen_lists(ruleset)[0])
    team = TeamRow.build(
        league_id="l", team_id="t1", name="Team", coach="coach", roster=team_list.id
    )
    staff = dict.fromkeys(ruleset.sideline_items(team), 1)
    team = team.model_copy(
        update={"treasury": 130_000, "fans": 4, "rerolls": 2, "staff": staff, "trophy": True}
    )
    line = line_position(team_list)
    players = [
        PlayerRow.build(
            league_id="l",
            player_id=f"p{number}",
            team_id="t1",
            name=f"Player {number}",
            roster=team_list.id,
            position=line.id,
            ma=line.ma,
            st=line.st,
            ag=line.ag,
            pa=line.pa,
            av=line.av,
            base_cost=line.cost,
            value=line.cost + 20_000 * (number % 3),
            spp=3 * number,
            spp_earned=7 * number,
            status=status,
            miss_next_game=number % 4 == 1,
            niggling=number % 2,
            changes={"ma": -1} if number % 5 == 2 else {},
            advancements=({"kind": "random", "skill": "block", "spp": 6},) * (number % 3),
        )
        for number, status in enumerate(["active"] * 8 + ["retired", "dead", "fired"])
    ]
    return team, players


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_team_values_read_only_what_they_declare(case: tuple[str, dict[str, Any]]) -> None:
    ruleset = find_ruleset(*case)
    team, players = a_team(ruleset)
    reads = ruleset.value_reads()
    expected = ruleset.team_values(team, players)
    assert expected[ruleset.rating_key] > 0
    hidden = [unread(p, reads.players) for p in players]
    assert ruleset.team_values(unread(team, reads.team), hidden) == expected


def test_an_undeclared_read_is_caught() -> None:
    """The test above can fail: BB2025's values read whether a player misses the game."""
    ruleset = find_ruleset("bb2025", {})
    team, players = a_team(ruleset)
    reads = ruleset.value_reads()
    hidden = [unread(p, reads.players - {"miss_next_game"}) for p in players]
    with pytest.raises(AssertionError, match="leaves out"):
        ruleset.team_values(unread(team, reads.team), hidden)
