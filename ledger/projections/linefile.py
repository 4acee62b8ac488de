"""The process that writes a rebuild's lines, and keeps its settled records, in a file of
their own.

A rebuild makes about nine lines per event (a player's game, a treasury movement, a
history line, the entities an event touched), and binding their values to SQLite's
statements takes the interpreter: from a thread, the writer and the fold took turns
with it, and the fold waited about a fifth of a 10^5-event rebuild. A process has an
interpreter of its own, on the other core. The fold sends it rows already made (tuples
of the values the tables hold, in SQL written once; marshalled, ``encoded``), and it
writes them into a SQLite file that the rebuild copies into its tables at the end, in
SQL, as it copies a worker's (ledger/projections/settled.py).

The fold's settled records (ledger/projections/settled.py) go the same way, in numbered
batches (``Settled``): each is acknowledged once written (``Written``), and a question of
them (``Asked``) is answered at once, ahead of the batches waiting, by the thread that
receives it. The fold asks only of records written and acknowledged (it keeps the others
until then), so an answer never waits for the batches before it: writing them cost the
10^6 rebuild's fold 6 s, and the fold asks of them about 200 times.

This module imports nothing but the standard library, so that it adds nothing to what
the process imports anyway: like every process a rebuild starts (ledger/projections/
parallel.py), it is started by ``forkserver`` or ``spawn`` and imports the program's main
module, which must keep its work under ``if __name__ == "__main__"``.
"""

from __future__ import annotations

import marshal
import pickle
import queue
import sqlite3
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, NamedTuple, cast

Batch = list[tuple[str, list[tuple[object, ...]]]]
"""Rows to write: per table, its INSERT statement and the rows; or, under ``NOTES``, the
fold's notes of events' history, whose rows this process makes."""

Reader = Callable[[str, bytes], Any]
"""How an event is read back from its state as stored (``EventSource.stored_reader``)."""

NOTES = "notes"
"""In place of a statement: the rows are notes of events' history, each with the event
as stored, which this process reads back to make their history's rows
(ledger/projections/history.py, imported with the first notes; the reader's module is
imported with the process's arguments)."""


class Settled(NamedTuple):
    """Settled records' rows to write, acknowledged by their number once written."""

    number: int
    batch: Batch


class Written(NamedTuple):
    """The answer to ``Settled``: its batch is in the file."""

    number: int


class Asked(NamedTuple):
    """A question of the file (a SELECT and its values), answered with its rows."""

    statement: str
    values: tuple[object, ...]


Message = Batch | Settled | Asked | None
"""What the fold sends the process: lines, settled records, a question, or the end."""

MARSHALLED, PICKLED = b"M", b"P"


def encoded(message: Message) -> bytes:
    """``message``'s bytes for the pipe: ``marshal``'s, which writes a batch of rows in
    about three quarters of pickle's time (the 10^5 fold's 488 batches, timed in the fold:
    0.38-0.45 s against 0.52-0.61 s, with 27% more bytes); pickle's for a message marshal
    cannot write (a value of a subclass of a plain type). The first byte says which."""
    plain: Any = message
    if isinstance(message, (Settled, Asked)):
        plain = (type(message).__name__, *message)  # marshal writes no tuple's subclass
    try:
        return MARSHALLED + marshal.dumps(plain)
    except ValueError:
        return PICKLED + pickle.dumps(message, pickle.HIGHEST_PROTOCOL)


def decoded(data: bytes) -> Message:
    """The message ``encoded`` wrote as ``data``."""
    body = memoryview(data)[1:]
    if data[:1] == PICKLED:
        return cast(Message, pickle.loads(body))
    if data[:1] != MARSHALLED:
        raise ValueError("not a message of the fold")
    plain = marshal.loads(body)
    if isinstance(plain, tuple):
        return Settled(*plain[1:]) if plain[0] == "Settled" else Asked(*plain[1:])
    return cast(Message, plain)


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

STRETCH = 256
"""Rows written at a time while the file is held (``File.lock``): a question waits for
at most this many, not for a whole batch."""


class File:
    """The file, written by one thread and asked by another, one at a time; answers and
    acknowledgements go back to the fold on ``replies``, one at a time."""

    def __init__(
        self, path: str, indexed: bool, replies: Connection | None, reader: Reader | None = None
    ) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        for pragma in SCRATCH_PRAGMAS:
            self.db.execute(f"PRAGMA {pragma}")
        if indexed:
            self.db.execute(f"PRAGMA cache_size = {INDEXED_CACHE}")
        self.db.execute("BEGIN")
        self.lock = threading.Lock()
        self.replies = replies
        self.replying = threading.Lock()
        self.reader = reader
        """How an event is read back from its state as stored, for ``NOTES``."""
        self.noted: Any = None
        """What makes the rows of ``NOTES`` (``history.Noted``), from the first of them."""

    def write(self, batch: Batch) -> None:
        for statement, rows in batch:
            if statement == NOTES:
                if self.noted is None:
                    from ledger.projections.history import Noted  # the first notes import it

                    self.noted = Noted(self.reader)  # type: ignore[arg-type]
                self.write(self.noted.batch(rows))
                continue
            for start in range(0, len(rows), STRETCH):
                with self.lock:
                    self.db.executemany(statement, rows[start : start + STRETCH])

    def answer(self, asked: Asked) -> None:
        with self.lock:
            rows = self.db.execute(asked.statement, asked.values).fetchall()
        self.reply(rows)

    def reply(self, message: object) -> None:
        if self.replies is None:
            raise ValueError("this writer was given no way to answer")
        with self.replying:
            self.replies.send(message)


def write_lines(
    path: str,
    inbox: Connection,
    indexed: bool = False,
    replies: Connection | None = None,
    reader: Reader | None = None,
) -> None:
    """Write every batch that arrives on ``inbox`` into the file at ``path`` (its tables
    made already, ``indexed`` if its line tables keep secondary indexes) until None
    arrives, then commit; acknowledge each ``Settled`` batch and answer each question on
    ``replies``; read the events of ``NOTES`` back with ``reader``. A reader thread takes
    the batches off the pipe while this one writes, so the fold seldom waits. Any failure
    ends the process with status 1 and nothing on its error output: the rebuild then
    writes its lines itself, and reports a failure its own way if it meets one."""
    received: queue.Queue[Batch | Settled | Closed | None] = queue.Queue(maxsize=WAITING)
    try:
        file = File(path, indexed, replies, reader)
        threading.Thread(target=receive, args=(inbox, received, file), daemon=True).start()
        while isinstance(batch := received.get(), (list, Settled)):
            if isinstance(batch, Settled):
                file.write(batch.batch)
                file.reply(Written(batch.number))
            else:
                file.write(batch)
        if batch is not None:  # the pipe closed before the end: the rebuild stopped
            raise SystemExit(1)
        if file.noted is not None:  # what the notes leave to the end (players' counters)
            file.write(file.noted.finished())
        file.db.execute("COMMIT")
        file.db.close()
    except Exception:
        raise SystemExit(1) from None


class Closed:
    """The pipe closed without the end of the lines."""


def receive(
    inbox: Connection, received: queue.Queue[Batch | Settled | Closed | None], file: File
) -> None:
    """Move batches from the pipe to the writer, and answer questions at once. Whatever
    ends the reading (a closed pipe, a batch that cannot be read, no memory for one,
    a question that cannot be answered) ends the writing too: a writer left waiting would
    keep the rebuild, which holds the database's write lock, waiting for it."""
    while True:
        try:
            batch = decoded(inbox.recv_bytes())
            if isinstance(batch, Asked):
                file.answer(batch)
                continue
        except BaseException:  # any end of the reading: the process's status says it
            received.put(Closed())
            return
        received.put(batch)
        if batch is None:
            return
