"""A read command's quick start: a SQLite ledger's read models through a plain ``sqlite3``
connection, when they are current.

Opening the ledger (ledger/bootstrap.py) loads SQLAlchemy, builds every table object and
opens the event store, to catch the read models up or rebuild them: most of the time
``ledger standings`` took. A read command needs none of it when the read models already
include every event and were written by this code. So it first asks that of the file,
in one read transaction: every read-model table is there, the position row holds this
code's ``fingerprint`` and no event lies past its position (as ``ReadModels.catch_up``
finds nothing to apply). Then the same transaction answers the questions (``Queries``
over a ``SqliteStore``): one snapshot for the check and every answer, which a writer's
commit meanwhile does not change. Otherwise (read models behind or another code's, a
table missing, a file that is no ledger) the command opens the ledger as every other
command does, which catches up or rebuilds, or names what is wrong.

Worked example: after ``ledger match record ...`` has been caught up,
``open_current(Path("league.db"))`` is a ``SqliteStore`` and ``ledger standings``
imports no SQLAlchemy; after a fold change (another fingerprint) it is None, and the
command's ``open_ledger`` rebuilds the read models.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ledger.projections.rowstore import RowStore
from ledger.projections.shapes import (
    POSITION_NAME,
    POSITION_TABLE,
    RECORDS,
    fingerprint,
    position_statement,
    shape_of,
)

EVENTS_TABLE = "stored_events"
HEAD = f"SELECT MAX(rowid) FROM {EVENTS_TABLE}"
"""The newest event's notification id, as the eventsourcing library's SQLite recorder
asks it (tests/projections/test_lean.py holds the two to the same SQL)."""

BUSY_MS = 30_000
"""How long a read waits for a writer's lock, as the ledger's own connections do."""


class SqliteStore(RowStore):
    """The read models through one plain ``sqlite3`` connection, inside the read
    transaction ``open_current`` began."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        super().__init__("sqlite")
        self.connection = connection

    @contextlib.contextmanager
    def cursor(self, statement: str, params: Any) -> Iterator[sqlite3.Cursor]:
        with contextlib.closing(self.connection.cursor()) as cursor:
            yield cursor

    def close(self) -> None:
        self.connection.close()


def open_current(path: Path) -> SqliteStore | None:
    """The read models of the SQLite ledger at ``path`` if they are current, else None
    (then the ledger is opened, which catches them up, rebuilds them or says why not)."""
    if not path.is_file():
        return None  # no ledger there: opening it names the mistake (or makes one)
    try:
        # read-only (a file deleted since the check is not made anew), and autocommit, so
        # that the BEGIN below starts the one read transaction
        uri = f"file:{path.resolve()}?mode=ro"
        connection = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        connection.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        connection.execute("BEGIN")  # the check and every answer read one snapshot
        if current(connection):
            return SqliteStore(connection)
    except sqlite3.Error:
        pass  # not a ledger this code can read as it is: the ledger's own open will say
    connection.close()
    return None


def current(connection: sqlite3.Connection) -> bool:
    """Whether every read-model table is there, written by this code, up to the newest
    event (a position at or past the head: ``ReadModels.catch_up`` would apply nothing)."""
    found = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    tables = {name for (name,) in found}
    wanted = {EVENTS_TABLE, POSITION_TABLE, *(shape_of(kind).table for kind in RECORDS)}
    if not wanted <= tables:
        return False
    stored = connection.execute(position_statement("sqlite"), (POSITION_NAME,)).fetchone()
    (head,) = connection.execute(HEAD).fetchone()
    return stored is not None and stored[1] == fingerprint() and (head or 0) <= stored[0]
