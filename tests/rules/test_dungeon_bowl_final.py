"""A Dungeon Bowl final of three teams (seed 003, 'Multi-player Dungeon Bowl' as the league
final), under every edition: won by the report's winner, lost by every other team, whatever
their touchdowns ('Winning the Game': the game-winning touchdown decides), and every team
of it goes through the edition's post-game sequence, collecting its winnings (our reading:
docs/rulesets.md, 'A Dungeon Bowl final')."""

from __future__ import annotations

import pytest

from ledger.domain import events as ev
from ledger.domain.state import MatchRow
from ledger.rules import RULESETS
from tests.support import Book, final_of_many

TEAMS = ("men", "elves", "more")


@pytest.mark.parametrize("edition", [c.id for c in RULESETS])
def test_every_team_of_a_three_team_final_is_paid_and_the_winner_won(edition: str) -> None:
    book = Book(edition)
    for team in TEAMS:
        book.team(team, "human", ["lineman"] * 11, treasury=100_000)
    final = book.record(ev.MatchRecorded, **final_of_many("more", men=2, elves=1, more=0))
    assert isinstance(final, ev.MatchRecorded)
    results = {team: book.ruleset.match_result(final, team) for team in TEAMS}
    assert results == {"men": "loss", "elves": "loss", "more": "win"}
    state = book.fold()
    row = state.get(MatchRow, book.league_id, "f1")
    assert row is not None
    assert sorted(row.winnings) == sorted(TEAMS)
    for team in TEAMS:
        assert book.team_row(team, state).treasury == 100_000 + row.winnings[team]
