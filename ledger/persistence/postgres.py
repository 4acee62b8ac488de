"""The library's PostgreSQL recorder, able to append through the read models' connection.

The library inserts a unit's events through a pooled connection of its own, in
autocommit, by a database function that takes no lock (``ENABLE_DB_FUNCTIONS``). Lent
the read models' connection (ledger/persistence/lending.py), it inserts through that
connection's transaction instead, with the library's own statements: the table locked in
EXCLUSIVE mode (as the library's insert without the function locks it: appends are then
numbered in the order they commit), the channel notified, the rows inserted, their
positions returned. The events' composite type, which the library registers on its own
connections, is registered on the lent one the first time it is lent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
import sqlalchemy as sa
from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from psycopg.rows import DictRow, dict_row
from psycopg.sql import SQL, Identifier
from psycopg.types.composite import register_composite

from ledger.persistence.lending import Lending


class LendingPostgresRecorder(Lending, PostgresApplicationRecorder):
    """``PostgresApplicationRecorder``, appending through a lent cursor when it has one."""

    version_taken = (psycopg.IntegrityError,)
    busy = (psycopg.OperationalError,)
    dialect = "postgresql"

    def cursor_on(self, conn: sa.Connection) -> psycopg.Cursor[DictRow]:
        driver: psycopg.Connection[Any] = conn.connection.driver_connection  # type: ignore[assignment]
        for info in self.datastore.psycopg_type_adapters.values():
            if not driver.adapters.types.get(info.oid):
                register_composite(info, driver)
        return driver.cursor(row_factory=dict_row)

    def locked_head(self, cursor: psycopg.Cursor[DictRow]) -> int:
        """The table locked as the library's own insert locks it (EXCLUSIVE: appends wait,
        reads do not), held until the transaction ends. An append begun before waits
        for its commit here, so that its events are counted in the head."""
        self._lock_table(cursor)
        cursor.execute(
            SQL("SELECT MAX(notification_id) AS head FROM {0}.{1}").format(
                Identifier(self.datastore.schema), Identifier(self.events_table_name)
            )
        )
        found = cursor.fetchone()
        return int(found["head"] or 0) if found else 0

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        lent = self.lent_to_this_thread()
        if lent is None:
            positions: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
            return positions
        self._insert_stored_events(lent, stored_events, **kwargs)
        return self._fetch_ids_after_insert_events(lent, stored_events)
