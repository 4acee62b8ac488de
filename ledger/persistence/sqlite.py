"""The library's SQLite recorder, reading every event's content as the bytes stored.

The ledger writes an event's content as a BLOB, but SQLite keeps whatever storage class a
value was given: a hand edit with ``||`` or ``replace()`` stores TEXT, and Python's
``sqlite3`` decodes TEXT to ``str`` when a row is fetched. One such value that is not
UTF-8 then fails the whole fetch (``Could not decode to UTF-8 column 'state'``): the
audit, the export and the rebuild of every league stopped at it. Cast to BLOB in the
query, the row comes back as its bytes, and the one event is unreadable in its place
(``audit verify``: "its content is not UTF-8"; the fold passes over it), as an event
stored as a BLOB with the same byte is. Only ``state`` is cast: the library writes the
other columns from ``str`` values, and reads them so.

PostgreSQL stores the content as ``bytea``, which the driver never decodes.

The recorder also inserts a unit's events through a cursor it is lent (ledger/persistence/
lending.py): the read models' connection's, inside the transaction that writes the unit's
rehearsed read models (ledger/application/unit.py), so that both are committed together or
not at all.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, cast
from uuid import UUID

import sqlalchemy as sa
from eventsourcing.persistence import Notification, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor, SQLiteDatastore

from ledger.domain.readback import IDS
from ledger.persistence.lending import Lending

COLUMNS = "originator_id, originator_version, topic, CAST(state AS BLOB) AS state"


class BytesSQLiteRecorder(Lending, SQLiteApplicationRecorder):
    """``SQLiteApplicationRecorder`` with ``state`` selected as a BLOB; its statements are
    the library's (9.5) otherwise."""

    version_taken = (sqlite3.IntegrityError,)
    busy = (sqlite3.OperationalError,)
    dialect = "sqlite"

    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name)
        self.select_events_statement = (
            f"SELECT {COLUMNS} FROM {self.events_table_name} WHERE originator_id=? "
        )

    def cursor_on(self, conn: sa.Connection) -> sqlite3.Cursor:
        return cast(sqlite3.Cursor, conn.connection.cursor())

    def locked_head(self, cursor: sqlite3.Cursor) -> int:
        """SQLite's write lock is the database's: the read models' connection took it with
        its first write (``lock_position``), and no other connection appends until it
        commits."""
        cursor.execute(self.select_max_notification_id_statement)
        return int(cursor.fetchone()[0] or 0)

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        lent = self.lent_to_this_thread()
        if lent is None:
            return super().insert_events(stored_events, **kwargs)
        return self._insert_events(SQLiteCursor(lent), stored_events, **kwargs)

    def convert_originator_id(self, originator_id: str) -> UUID | str:
        """A log's id, made once for all its rows (``IDS``), as the library makes it."""
        if self.datastore.originator_id_type == "uuid":
            return IDS[originator_id]
        return originator_id

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        conditions: list[str] = []
        params: list[Any] = []
        if start is not None:
            conditions.append("rowid>=?" if inclusive_of_start else "rowid>?")
            params.append(start)
        if stop is not None:
            conditions.append("rowid<=?")
            params.append(stop)
        if topics:
            conditions.append(f"topic IN ({','.join('?' * len(topics))})")
            params.extend(topics)
        where = f"WHERE {' AND '.join(conditions)} " if conditions else ""
        statement = (
            f"SELECT rowid, {COLUMNS} FROM {self.events_table_name} {where}ORDER BY rowid LIMIT ?"
        )
        with self.datastore.transaction(commit=False) as c:
            c.execute(statement, [*params, limit])
            return [
                Notification(
                    id=row["rowid"],
                    originator_id=self.convert_originator_id(row["originator_id"]),
                    originator_version=row["originator_version"],
                    topic=row["topic"],
                    state=row["state"],
                )
                for row in c.fetchall()
            ]
