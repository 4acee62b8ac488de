"""A rebuild drops the read models' tables this code no longer makes: it drops and makes
only those it knows (``writing.REBUILT``), so a ledger upgraded from a version with other
tables would otherwise keep them for good (the game lines kept one row a player,
``rm_player_games``: hundreds of megabytes at 10^6 events). The service's own tables
(``ledger_*``) are not read models and stay."""

from __future__ import annotations

import sqlalchemy as sa

from ledger.application.service import LeagueLedger
from ledger.projections.writing import REBUILT
from tests.support import two_team_league


def test_a_rebuild_drops_the_read_models_this_code_no_longer_makes(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    engine = ledger.read_models.engine
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE rm_player_games (league_id TEXT, player_id TEXT)")
        conn.exec_driver_sql("INSERT INTO rm_player_games VALUES ('l', 'p')")
        conn.exec_driver_sql("CREATE TABLE ledger_kept (id INTEGER)")
    ledger.read_models.rebuild(ledger.source)
    names = set(sa.inspect(engine).get_table_names())
    assert "rm_player_games" not in names
    assert "ledger_kept" in names
    assert {table.name for table in REBUILT} <= names
