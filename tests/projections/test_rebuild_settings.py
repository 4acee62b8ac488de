"""A rebuild's transaction runs with its own settings of the connection (``writing.
REBUILD_PRAGMAS``): it frees the old read models' pages without zeroing them (SQLite built
with SECURE_DELETE, as Debian's is, would write them all once more), and SQLite's sorter
makes the indexes on every core. It hands its connection back to the pool with the
settings it had."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Connection

from ledger.application.service import LeagueLedger
from ledger.projections import parallel, runner
from tests.projections.test_parallel_rebuild import several_leagues, tables


def settings(conn: Connection) -> dict[str, int]:
    return {
        name: int(conn.exec_driver_sql(f"PRAGMA {name}").scalar_one())
        for name in ("secure_delete", "threads")
    }


@pytest.mark.parametrize("setting", [1, 0])
def test_the_rebuild_works_with_its_settings_and_the_connection_gets_its_own_back(
    sqlite_ledger: LeagueLedger, monkeypatch: pytest.MonkeyPatch, setting: int
) -> None:
    several_leagues(sqlite_ledger)
    incremental = tables(sqlite_ledger)
    engine = sqlite_ledger.read_models.engine
    engine.dispose()  # one pooled connection from here on, set as a user's might be
    own = {"secure_delete": setting, "threads": setting}
    with engine.connect() as conn:
        for name, value in own.items():
            conn.exec_driver_sql(f"PRAGMA {name} = {value}")
    seen: list[dict[str, int]] = []
    create = runner.create_tables

    def watched(conn: Connection) -> None:
        seen.append(settings(conn))  # right after the old tables were dropped
        create(conn)

    monkeypatch.setattr(runner, "create_tables", watched)
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    rebuilding = {"secure_delete": 0, "threads": parallel.workers()}
    assert seen == [rebuilding, rebuilding]  # the fold that met the bad event, the one after
    with engine.connect() as conn:
        assert settings(conn) == own
    assert tables(sqlite_ledger) == incremental
