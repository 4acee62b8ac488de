"""The process that writes a rebuild's lines into a file of their own.

A rebuild makes about nine lines per event (a player's game, a treasury movement, a
history line, the entities an event touched), and binding their values to SQLite's
statements takes the interpreter: from a thread, the writer and the fold took turns
with it, and the fold waited about a fifth of a 10^5-event rebuild. A process has an
interpreter of its own, on the other core. The fold sends it rows already made (tuples
of the values the tables hold, in SQL written once), and it writes them into a SQLite
file that the rebuild copies into its tables at the end, in SQL, as it copies a worker's
(ledger/projections/settled.py).

This module imports nothing but the standard library, so that it adds nothing to what
the process imports anyway: like every process a rebuild starts (ledger/projections/
parallel.py), it is started by ``forkserver`` or ``spawn`` and imports the program's main
module, which must keep its work under ``if __name__ == "__main__"``.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
from multiprocessing.connection import Connection

Batch = list[tuple[str, list[tuple[object, ...]]]]
"""Rows to write: per table, its INSERT statement and the rows."""

SCRATCH_PRAGMAS = ("journal_mode=OFF", "synchronous=OFF", "temp_store=MEMORY")
"""How a rebuild's own files are written (this one, and ledger/projections/settled.py's):
they live for one rebuild, so without a journal or fsync."""

INDEXED_CACHE = -65536
"""The page cache of a file whose line tables keep their secondary indexes (64 MiB; SQLite
gives 2 MiB): the rows arrive in the fold's order, not an index's, so each insert
reaches pages all over the indexes. With the default cache the 10^5 rebuild's fold took
0.7 s more (medians of four alternated pairs), with this one none."""

WAITING = 2
"""Batches received and not yet written: the fold can hand over the next batch while the
last is written, and memory stays flat."""


def write_lines(path: str, inbox: Connection, indexed: bool = False) -> None:
    """Write every batch that arrives on ``inbox`` into the file at ``path`` (its tables
    made already, ``indexed`` if its line tables keep secondary indexes) until None
    arrives, then commit. A reader thread takes the batches off the pipe while this one
    writes, so the fold seldom waits. Any failure ends the process with status 1 and
    nothing on its error output: the rebuild then writes its lines itself, and reports a
    failure its own way if it meets one."""
    received: queue.Queue[Batch | Closed | None] = queue.Queue(maxsize=WAITING)
    threading.Thread(target=receive, args=(inbox, received), daemon=True).start()
    try:
        db = sqlite3.connect(path, isolation_level=None)
        for pragma in SCRATCH_PRAGMAS:
            db.execute(f"PRAGMA {pragma}")
        if indexed:
            db.execute(f"PRAGMA cache_size = {INDEXED_CACHE}")
        db.execute("BEGIN")
        while isinstance(batch := received.get(), list):
            for statement, rows in batch:
                db.executemany(statement, rows)
        if batch is not None:  # the pipe closed before the end: the rebuild stopped
            raise SystemExit(1)
        db.execute("COMMIT")
        db.close()
    except Exception:
        raise SystemExit(1) from None


class Closed:
    """The pipe closed without the end of the lines."""


def receive(inbox: Connection, received: queue.Queue[Batch | Closed | None]) -> None:
    """Move batches from the pipe to the writer. Whatever ends the reading (a closed pipe,
    a batch that cannot be unpickled, no memory for one) ends the writing too: a writer
    left waiting would keep the rebuild, which holds the database's write lock, waiting
    for it."""
    while True:
        try:
            batch: Batch | None = inbox.recv()
        except BaseException:  # any end of the reading: the process's status says it
            received.put(Closed())
            return
        received.put(batch)
        if batch is None:
            return
