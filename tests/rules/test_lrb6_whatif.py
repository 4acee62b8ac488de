"""What-if between lrb6 and lrb6-zal: a league recorded under one replays under the other.

Both share the lrb6 list family (ledger/whatif/mappings/teams.yaml), so teams and players
carry over as recorded; what differs is the sequence. A concession reads as the target's
own kind (mappings/sideline.yaml: ZAL's voluntary forfeit is LRB6's `conceded`, and back),
each edition then books it its way: LRB6 p.29 and ZAL 9b both hand the conceding team's
winnings to the winner and cost it a Fan Factor without a roll. Rolls the target needs and
the log lacks (LRB6's 2D6 gate against ZAL's D6 per Fan Factor) come from the seeded
generator.
"""

from __future__ import annotations

import pytest

from ledger.domain.state import TeamRow, TreasuryLine
from ledger.domain.values import Concession
from ledger.projections.store import MemoryStore
from ledger.rules import find_ruleset
from ledger.whatif.replay import replay
from tests.rules.test_lrb6_rules import (
    RICH_HUMANS,
    RICH_SIDELINE,
    League,
    side,
    two_teams,
    zal_sheet,
)
from tests.rules.test_lrb6_zal_book import gold_lines

KINDS = {"lrb6": "conceded", "lrb6-zal": "forfeit_voluntary"}


@pytest.mark.parametrize(("source", "target"), [("lrb6-zal", "lrb6"), ("lrb6", "lrb6-zal")])
def test_a_conceded_game_replays_as_the_other_editions_concession(source: str, target: str) -> None:
    league = two_teams(source)
    home, away = side("humans", 0, fan=None), side("orcs", 3, fan=(1, 1, 1))
    if source == "lrb6-zal":
        home, away = zal_sheet(home, [3] * 3, 3), zal_sheet(away, [3], 3)
        home = home.model_copy(update={"dice": home.dice[:2]})  # no Fan Factor roll: ZAL 9b
    concession = Concession.model_validate({"team": "humans", "kind": KINDS[source]})
    league.match(home, away, concession=concession)

    outcome = replay(league.book.events(), find_ruleset(target), seed=7)
    state = outcome.store
    humans = state.get(TeamRow, outcome.league_id, "humans")
    assert humans is not None
    assert humans.fans == 2  # -1 without a roll, in both editions
    assert gold_lines(state, "humans", "winnings") == []
    assert len(gold_lines(state, "orcs", "winnings")) == 2  # its own and the loser's
    assert not [d for d in outcome.divergences if "conce" in d.rule or "forfeit" in d.rule]


def winnings_notes(state: MemoryStore, team: str) -> list[str]:
    return [
        line.note
        for line in state.lines[TreasuryLine]
        if isinstance(line, TreasuryLine) and line.team_id == team and line.kind == "winnings"
    ]


def test_spiralling_expenses_appear_only_under_lrb6() -> None:
    """A ZAL league's rich team (team value 1,750,000) pays no spiralling costs (ZAL 18);
    replayed under lrb6 it pays LRB6's 10,000 out of its winnings (p.28)."""
    league = League("lrb6-zal")
    league.team("humans", "human", RICH_HUMANS, **RICH_SIDELINE)
    league.team("orcs", "orc", ["lineman"] * 11, fan_factor=1)
    home = zal_sheet(side("humans", 1, fan=(1, 1, 1)), [3] * 9, 4)
    league.match(home, zal_sheet(side("orcs", 0), [1], 1))
    (native,) = winnings_notes(league.book.fold(), "humans")
    assert "spiralling" not in native
    outcome = replay(league.book.events(), find_ruleset("lrb6"), seed=3)
    (replayed,) = winnings_notes(outcome.store, "humans")
    assert "less 10,000 spiralling expenses (TV 1,750,000)" in replayed
