"""The read models' reads follow their indexes on SQLite: its query planner is given the
tables' statistics (``writing.plan_statistics``) by every rebuild, and by the opening of a
ledger whose tables have lines and none yet. Without them it read a league's every event
line to find its corrections (the audit page's), as it once read a league's every game
line to find one match's (29.7 ms at 10^5 events, against 0.16 ms by an index)."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.state import PlayerRow
from ledger.generate import Spec, generate
from ledger.projections.queries import player_games_statement
from ledger.projections.shapes import select_statement

CORRECTIONS = "SELECT * FROM rm_events WHERE league_id = ? AND event_type = ?"
"""A league's corrections, as the audit page asks (``Queries.rows``)."""

MATCH_GAMES = "SELECT * FROM rm_team_games WHERE league_id = ? AND seq = ? AND team_id IN (?, ?)"
"""A match's game lines, as the match page and the match sheet ask (``Queries.match_games``)."""
PLAYER_GAMES = player_games_statement("sqlite")
"""A player's game lines, as his page asks (``Queries.player_games``)."""
ROSTER = select_statement(PlayerRow, ("league_id", "team_id", "status"), "sqlite")
"""A team's current players of one status, as every command asks (``roster_of``)."""
VALUES = {
    CORRECTIONS: ("lg", "EventCorrected"),
    MATCH_GAMES: ("lg", 5, "a", "b"),
    ROSTER: ("lg", "t", "active"),
}


def plan(path: Path, statement: str = CORRECTIONS) -> str:
    """How SQLite reads ``statement``, asked on a connection of its own (one that loaded
    the statistics there are now)."""
    values = VALUES.get(statement, ("lg", "t", 5, '"p":'))
    with contextlib.closing(sqlite3.connect(path)) as db:
        steps = db.execute(f"EXPLAIN QUERY PLAN {statement}", values).fetchall()
    return " ".join(str(step[-1]) for step in steps)


def test_a_rebuild_gives_the_planner_statistics(tmp_path: Path) -> None:
    path = tmp_path / "ledger.db"
    ledger = open_ledger(Settings(sqlite_path=path))
    try:
        generate(ledger, Spec(teams=4, seasons=2, seed=3, division_size=4, slug="lg"))
        ledger.read_models.rebuild(ledger.source)
        with ledger.read_models.engine.connect() as conn:
            known = conn.exec_driver_sql("SELECT tbl, idx FROM sqlite_stat1").all()
    finally:
        close_ledger(ledger)
    assert ("rm_events", "ix_rm_events_event_type") in known
    assert "USING INDEX ix_rm_events_event_type" in plan(path)


def test_a_ledger_built_by_its_commands_gets_them_when_next_opened(tmp_path: Path) -> None:
    path = built_by_commands(tmp_path / "ledger.db")
    without_statistics(path)  # as made before statistics were
    assert "ix_rm_events_event_type" not in plan(path)  # the league's every line read
    close_ledger(open_ledger(Settings(sqlite_path=path)))
    assert "USING INDEX ix_rm_events_event_type" in plan(path)


@pytest.mark.parametrize(
    ("statement", "by_key"),
    [
        (
            MATCH_GAMES,
            "SEARCH rm_team_games USING PRIMARY KEY (league_id=? AND team_id=? AND seq=?)",
        ),
        (
            PLAYER_GAMES,
            "SEARCH rm_team_games USING PRIMARY KEY (league_id=? AND team_id=? AND seq>?)",
        ),
    ],
)
def test_game_lines_are_read_by_their_key_with_or_without_statistics(
    tmp_path: Path, statement: str, by_key: str
) -> None:
    """The game lines keep no secondary index (``TeamGameLine``): a match's sides and a
    player's team's are found by the key, in its order, whatever the planner knows."""
    path = built_by_commands(tmp_path / "ledger.db")
    assert plan(path, statement) == by_key
    without_statistics(path)
    assert plan(path, statement) == by_key


def built_by_commands(path: Path) -> Path:
    """A ledger of one generated season, its read models written by its commands."""
    ledger = open_ledger(Settings(sqlite_path=path))
    try:
        generate(ledger, Spec(teams=4, seasons=1, seed=3, division_size=4, slug="lg"))
    finally:
        close_ledger(ledger)
    return path


def without_statistics(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("DROP TABLE IF EXISTS sqlite_stat1")
        db.commit()


def test_a_teams_current_players_are_read_by_an_index_of_their_status(tmp_path: Path) -> None:
    """Every command reads its teams' rosters (``roster_of``, by status): the index walks
    a team's current players only, not its dead and departed of every past season."""
    path = built_by_commands(tmp_path / "ledger.db")
    wanted = "USING INDEX ix_rm_players_team_id_status (league_id=? AND team_id=? AND status=?)"
    assert wanted in plan(path, ROSTER)
    without_statistics(path)
    assert wanted in plan(path, ROSTER)
