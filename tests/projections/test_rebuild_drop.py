"""A rebuild frees the old read models' pages without zeroing them (SQLite built with
SECURE_DELETE, as Debian's is, would write them all once more), and hands its connection
back to the pool with the setting it had."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Connection

from ledger.application.service import LeagueLedger
from ledger.projections import runner
from tests.projections.test_parallel_rebuild import several_leagues, tables


def secure_delete(conn: Connection) -> int:
    return int(conn.exec_driver_sql("PRAGMA secure_delete").scalar_one())


@pytest.mark.parametrize("setting", [1, 0])
def test_the_old_tables_are_dropped_without_zeroing_and_the_setting_comes_back(
    sqlite_ledger: LeagueLedger, monkeypatch: pytest.MonkeyPatch, setting: int
) -> None:
    several_leagues(sqlite_ledger)
    incremental = tables(sqlite_ledger)
    engine = sqlite_ledger.read_models.engine
    engine.dispose()  # one pooled connection from here on, set as a user's might be
    with engine.connect() as conn:
        conn.exec_driver_sql(f"PRAGMA secure_delete = {setting}")
    seen: list[int] = []
    create = runner.create_tables

    def watched(conn: Connection) -> None:
        seen.append(secure_delete(conn))  # right after the old tables were dropped
        create(conn)

    monkeypatch.setattr(runner, "create_tables", watched)
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert seen == [0, 0]  # the fold that met the bad event, and the one after it
    with engine.connect() as conn:
        assert secure_delete(conn) == setting
    assert tables(sqlite_ledger) == incremental
