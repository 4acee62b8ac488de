"""Game lines are kept one row a side of a game (``TeamGameLine``) and read by its key: a
match's by each of its teams at its report's number (``Queries.match_games``), a player's
by his team's since his hiring (``Queries.player_games``). Either gives the same lines as
reading every side of the league and picking the match's or the player's, an amended
report's players included."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.application import corrections
from ledger.application.commands import Correct
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain import events as ev
from ledger.domain.log import league_id
from ledger.domain.state import PlayerGameLine, TeamGameLine, games_of
from ledger.generate import Spec, generate
from ledger.projections.fold import amended
from ledger.projections.queries import Queries
from ledger.rules import find_ruleset
from tests.projections.test_consistency import journeyman_signed


def queries_of(ledger: LeagueLedger, slug: str) -> Queries:
    row = ledger.league_row(slug)
    return Queries(ledger.read_models.engine, row, find_ruleset(row.ruleset, row.options))


def report_of(ledger: LeagueLedger, slug: str, seq: int) -> ev.MatchRecorded:
    found = ledger.recorder.select_events(league_id(slug), gt=seq - 1, lte=seq, limit=1)
    event = ledger.mapper.to_domain_event(found[0])
    assert isinstance(event, ev.MatchRecorded)
    return event


def every_line(queries: Queries) -> list[PlayerGameLine]:
    """Every game line of the league, unpacked from every side of every game."""
    return games_of(queries.lines(TeamGameLine))


def every_line_of(queries: Queries, match: str) -> list[PlayerGameLine]:
    """The match's lines as a read of the league's every line finds them."""
    lines = [line for line in every_line(queries) if line.match_id == match]
    return sorted(lines, key=lambda line: (line.team_id, line.player_id))


def test_a_matchs_games_are_those_of_its_every_line(ledger: LeagueLedger) -> None:
    generate(ledger, Spec(teams=4, seasons=2, seed=7, division_size=4, slug="lg"))
    queries = queries_of(ledger, "lg")
    played = [m for m in queries.matches() if m.recorded_seq is not None]
    assert len(played) >= 12
    for match in played:
        report = report_of(ledger, "lg", match.recorded_seq or 0)
        lines = queries.match_games(report)
        assert lines  # every game has roster players
        assert lines == every_line_of(queries, match.match_id)


def test_an_amended_reports_games_are_those_of_its_players_as_amended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An amendment that puts another player of the team on the sheet moves the game line
    to him; the report as the fold reads it (amended) names him, and finds his line. A
    sheet is amended today only by a whole corrected report; ledgers from before hold
    such amendments of the sheet alone, which the fold still reads: one is made so here."""
    monkeypatch.setattr(corrections, "FIXED_IN_REPORT", {})
    ledger = open_ledger(Settings(sqlite_path=tmp_path / "ledger.db"))
    try:
        generate(ledger, Spec(teams=4, seasons=1, seed=7, division_size=4, slug="lg"))
        queries = queries_of(ledger, "lg")
        match = next(m for m in queries.matches() if m.recorded_seq is not None)
        seq = match.recorded_seq or 0
        report = report_of(ledger, "lg", seq)
        sheet = report.home
        playing = {p.player for p in sheet.players}
        bench = next(
            p.player_id for p in queries.roster(sheet.team).players if p.player_id not in playing
        )
        home = sheet.model_dump(mode="json")
        home["players"] = [{"player": bench}, *home["players"][1:]]
        ledger.handle(Correct("lg", seq, "amend", amendment={"home": home}), by="t", reason="x")
        correction = ledger.mapper.to_domain_event(
            ledger.recorder.select_events(league_id("lg"), desc=True, limit=1)[0]
        )
        assert isinstance(correction, ev.EventCorrected)
        as_read = amended(report, correction)
        assert isinstance(as_read, ev.MatchRecorded)
        queries = queries_of(ledger, "lg")
        lines = queries.match_games(as_read)
        assert lines == every_line_of(queries, match.match_id)
        players = {line.player_id for line in lines}
        assert bench in players
        assert sheet.players[0].player not in players
    finally:
        close_ledger(ledger)


def test_a_players_games_are_those_of_his_every_line(ledger: LeagueLedger) -> None:
    """Over three seasons, with players hired between games and former ones: each
    player's games, read from his team's sides since his hiring that name him, are the
    league's lines that name him, oldest first; an id no player holds has none. On both
    stores: each finds the sides that name him in the JSON's text its own way."""
    generate(ledger, Spec(teams=4, seasons=3, seed=11, division_size=4, slug="lg"))
    queries = queries_of(ledger, "lg")
    lines = every_line(queries)
    players = {line.player_id for line in lines}
    first_game = min(line.seq for line in lines)
    hired_late = [p for p in players if queries.player(p).hired_seq > first_game]
    assert len(players) > 40
    assert hired_late  # some joined after the first game: their reads start later
    for player in players:
        expected = sorted((ln for ln in lines if ln.player_id == player), key=lambda ln: ln.seq)
        assert queries.player_games(player) == expected
    assert queries.player_games("nobody") == []


def test_a_signed_journeyman_has_the_game_he_played_before_he_was_signed(
    ledger: LeagueLedger,
) -> None:
    """His line of g1 is the match row's, under the report's hireling id, not his team's
    side (seed 001 'Hiring, Firing and Temporarily Retiring' step 5: he "will retain any SPP
    gained during the game"): his games are g1 and g2, as his two games count them, and
    the same after a rebuild, on SQLite and PostgreSQL."""
    jo = journeyman_signed(ledger)
    for _ in ("as events came", "rebuilt"):
        games = queries_of(ledger, "test").player_games(jo)
        assert [(g.match_id, g.touchdowns, g.mvps, g.spp) for g in games] == [
            ("g1", 2, 1, 2 * 3 + 4),
            ("g2", 1, 0, 3),
        ]
        ledger.read_models.rebuild(ledger.source)
