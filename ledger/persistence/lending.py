"""A recorder that appends through a connection it is lent.

A command's events and its read models are committed in one transaction (DESIGN.md
decision 9; ledger/application/unit.py, ``commit_together``): the read models' connection
lends the recorder a cursor of its own and writes the rehearsed rows, and the library's
insert runs through that cursor inside the open transaction, which commits or rolls back
both. Each store's recorder says how it is lent a connection, how the log's head is read
with other writers' appends held off until the transaction ends, and which of its driver's
errors mean that another writer took a version first.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import sqlalchemy as sa


class Lending:
    """What a recorder adds to the library's to append through a lent cursor."""

    version_taken: ClassVar[tuple[type[Exception], ...]]
    """The driver's errors of an insert whose version another writer took first."""
    busy: ClassVar[tuple[type[Exception], ...]]
    """The driver's errors of a lock another writer holds past the wait."""
    dialect: ClassVar[str]
    """The SQLAlchemy dialect of the read models this store's recorder can be lent."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lent: dict[int, Any] = {}
        """The cursor each thread's inserts go through, while one is lent to it."""

    @contextmanager
    def lent_cursor(self, conn: sa.Connection) -> Iterator[Any]:
        """A driver cursor on ``conn``, inside its open transaction, that the inserts of
        this thread go through in the block: the library's own inserts take a connection
        and a transaction of their own."""
        cursor = self.cursor_on(conn)
        thread = threading.get_ident()
        self.lent[thread] = cursor
        try:
            yield cursor
        finally:
            del self.lent[thread]
            cursor.close()

    def lent_to_this_thread(self) -> Any | None:
        return self.lent.get(threading.get_ident())

    def cursor_on(self, conn: sa.Connection) -> Any:
        """A cursor of ``conn``'s driver connection that the library's insert can use."""
        raise NotImplementedError

    def locked_head(self, cursor: Any) -> int:
        """The log's last position, with every other append held off until ``cursor``'s
        transaction ends (none of them can then come between the head read here and the
        events this transaction appends)."""
        raise NotImplementedError
