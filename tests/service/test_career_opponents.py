"""A player's page names the opponents of every game he played (pages_reads.opponents):
one query for all his games gives what reading each game's match row gives."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ledger.domain.state import MatchRow, TeamGameLine
from ledger.web import pages_reads as reads
from tests.service.conftest import LEAGUE, ledger_of


def test_a_players_opponents_are_the_other_teams_of_each_game(client: TestClient) -> None:
    league = reads.open_league(ledger_of(client), LEAGUE)
    sides: list[TeamGameLine] = league.queries.lines(TeamGameLine)
    names = league.team_names()
    for player in sorted({player for side in sides for player in side.players})[:5]:
        games = league.queries.player_games(player)
        expected = {}
        for game in games:
            row = league.view.get(MatchRow, league.row.league_id, game.match_id)
            assert row is not None
            teams = (row.home, row.away, *row.others)
            expected[game.match_id] = ", ".join(names[t] for t in teams if t != game.team_id)
        assert expected
        assert reads.opponents(league, games) == expected
