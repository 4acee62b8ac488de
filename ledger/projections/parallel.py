"""A rebuild's leagues folded in parallel processes, one share of the leagues each.

Leagues are independent logs (the site's log is one more), so a ledger of several can
fold on every core. Each worker opens the event store itself (``EventSource.reopen``),
folds its leagues one after the other into memory with the same ``LogFolder`` as the
serial rebuild, and writes everything, lines as it goes and the settled and remaining
records as the serial rebuild would, into a SQLite file of the read models' own tables
(ledger/projections/settled.py). The parent then copies the files into its tables in
its one transaction, entities in key order, and builds the indexes: the tables equal a
serial rebuild's row for row.

Processes start with ``forkserver`` (``spawn`` where there is none), never ``fork``:
inside ``ledger serve`` the parent runs threads (the server's, the database pool's, a
rebuild's line writer), and a forked child gets copies of their locks in whatever state
they were, held ones included, and of the pool's open connections; the next use of one
can hang the child or corrupt a connection the parent still uses. A forkserver child
is forked from a clean process that only ever imported this module. As with every use
of these start methods, a worker imports the program's main module, so a program that
rebuilds must keep its work under ``if __name__ == "__main__"`` (the ``ledger`` command
and service do); if a worker cannot start or dies, the rebuild folds serially instead.

Only SQLite folds in parallel. PostgreSQL rebuilds serially: the rows of a worker's file
would reach it through the parent anyway, decoded and sent again row by row (no ATTACH
across servers), which costs about what the second core saves; workers writing straight
into staging tables of their own would avoid that, at the price of tables that outlive a
crash.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import fcntl
import multiprocessing
import os
import resource
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from pathlib import Path
from typing import Protocol, cast

from ledger.domain.events import EventCorrected, LedgerEvent
from ledger.projections import linefile
from ledger.projections.faults import FoldFailed, FoldStopped
from ledger.projections.history import HistoryNote, StoredReader
from ledger.projections.logfold import Faults, LogFolder, few_collections
from ledger.projections.settled import LineRows, SettledFile, create_schema
from ledger.projections.store import MemoryStore, RowSink

BREAK_EVEN = 8000
"""Events each share must hold for two processes to beat one. A serial rebuild already
uses the second core for a part of its work (its lines are written from a thread); a
worker first starts an interpreter and imports the fold, and the rebuilding process
copies the workers' rows and builds the indexes alone at the end. Measured with
bench/run.py --break-even on this 2-core machine shared with other work (load average
2.3): two leagues of 4,000 events lost 0.3 s in two processes, two of 8,000 saved 0.35
s; on a busier machine (4.3) 4,000 already saved 0.5 s. The threshold is the quieter
measurement's."""

HEAD_START = 2000
"""Events the rebuilding process folds while a worker starts: the workers' shares are
made that much smaller."""

YIELDING_SHARE = 0.5
"""A worker whose share holds at most this part of the rebuilding process's events
yields the cores to it (``Share.yields``). The rebuilding process's fold decides when a
rebuild ends, and its line process needs about a third of a core beside it (CPU per
event of the 10^6 ledger's larger league: its fold 147 us, its lines about 50 us; a
worker, writing its own lines, 192 us). So a worker with half its events or fewer still
ends first on what is left of two cores; with more, it would end last, and yields
nothing."""

PIPE_ROOM = 1 << 20
"""Bytes the pipe to the line process holds (Linux gives 64 KiB, and lets a process ask
for up to ``/proc/sys/fs/pipe-max-size``, 1 MiB by default): a batch of lines is 100-130
KiB, so with the default the fold waited, at every batch, for the process to read half of
it. ``LineProcess.send`` in the 10^5 fold (12 s), the batches marshalled, two runs each:
0.76-0.97 s with 64 KiB, 0.47-0.49 s with 1 MiB."""

WORKER_NICENESS = 10
"""How far a yielding worker lowers its priority (``os.nice``): the scheduler then gives
it what the others leave of a core, and all of one that is free."""


class LeagueSource(Protocol):
    """What a worker reads: one league's events up to a version, each with its stored JSON
    (``EventSource``)."""

    def league_stored_events(
        self, league_id: str, last: int | None = None
    ) -> Iterator[tuple[LedgerEvent, bytes]]: ...

    def stored_reader(self) -> StoredReader | None: ...


@dataclass(frozen=True)
class Share:
    """One worker's part of a rebuild: its leagues (each with the version of its last
    event to fold) and all it needs to fold them, in a form that can be pickled."""

    path: Path
    leagues: tuple[tuple[str, int], ...]
    opener: Callable[[], LeagueSource]
    corrections: Mapping[str, Mapping[int, EventCorrected]]
    faults: Faults
    position: int
    """The log's head when the rebuild began: no event after it is folded."""
    lines: Path | None = None
    """Where the share's lines go from a process of their own (``LineProcess``), or None
    to write them into ``path`` as they come: the rebuilding process's share, when long,
    has its lines written apart (the workers, started on the other cores, do not)."""
    yields: bool = False
    """Whether the worker folds at a lower priority (``YIELDING_SHARE``): on a machine of
    two cores, three processes (the rebuilding one, its line process and a worker) would
    otherwise share them evenly, and the rebuilding process, with the most to do, fold a
    quarter slower while the worker runs."""


@dataclass(frozen=True)
class Folded:
    """What a worker hands back: how many events it folded, or the event that failed
    again after being passed over once (then the rebuild fails as a serial one would)."""

    events: int
    failed: tuple[str, int, str] | None = None
    cpu: float = 0.0
    """CPU seconds the worker process used, from its start (for the benchmarks; 0 for
    the share folded in the rebuilding process, which counts its own)."""
    peak: int = 0
    """The worker's peak resident memory, in bytes (0 likewise)."""
    lines: Path | None = None
    """The file holding the share's lines, when a ``LineProcess`` wrote them."""
    files: tuple[Path, ...] = ()
    """The share's settled file, unless its ``LineProcess`` kept the settled records."""


def workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def split(extents: Mapping[str, tuple[int, int]], parts: int) -> list[list[str]] | None:
    """The leagues in at most ``parts`` shares of about equal events, each share holding
    at least ``BREAK_EVEN`` events; None when not even two shares would."""
    while parts >= 2:
        shares, sizes = balanced(extents, parts)
        if min(sizes) >= max(BREAK_EVEN, 1):
            return shares
        parts -= 1
    return None


def balanced(
    extents: Mapping[str, tuple[int, int]], parts: int
) -> tuple[list[list[str]], list[int]]:
    """The largest league first, each to the share with the least work so far; the first
    share (the rebuilding process's) counts no start, the workers' ``HEAD_START``."""
    shares: list[list[str]] = [[] for _ in range(parts)]
    work = [0] + [HEAD_START] * (parts - 1)
    for league_id in sorted(extents, key=lambda league: (-extents[league][0], league)):
        lightest = work.index(min(work))
        shares[lightest].append(league_id)
        work[lightest] += extents[league_id][0]
    return shares, [events_in(extents, share) for share in shares]


def events_in(extents: Mapping[str, tuple[int, int]], leagues: Iterable[str]) -> int:
    """How many events ``leagues`` hold (``extents``: each league's events and last version)."""
    return sum(extents[league][0] for league in leagues)


def fold_shares(shares: list[Share]) -> list[Folded] | None:
    """Fold the first share in this process while workers fold the others: one process
    fewer to start, and this one has its modules imported already (the first share is
    the largest: it has no start to pay for). None when a worker could not start or
    died: then the caller folds the whole log itself."""
    context = start_method(preload=__name__)  # the fold's modules, imported once
    with concurrent.futures.ProcessPoolExecutor(len(shares) - 1, mp_context=context) as pool:
        others = [pool.submit(fold_in_worker, share) for share in shares[1:]]
        here = fold_share(shares[0])
        try:
            return [here, *(future.result() for future in others)]
        except concurrent.futures.process.BrokenProcessPool:
            return None


def start_method(preload: str) -> ForkServerContext | SpawnContext:
    """How a rebuild starts a process (see the module's docstring): ``forkserver`` with
    ``preload`` imported by the server before it forks (when the server is started by
    this call: it keeps the first preload it was given), else ``spawn``."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([preload])
    return context


def yields(share_events: int, first_share_events: int) -> bool:
    """Whether a worker's share is small enough to yield the cores (``YIELDING_SHARE``)."""
    return share_events <= first_share_events * YIELDING_SHARE


def fold_in_worker(share: Share) -> Folded:
    if share.yields:
        os.nice(WORKER_NICENESS)
    with few_collections():
        done = fold_share(share)
    cpu, peak = own_usage()
    return dataclasses.replace(done, cpu=cpu, peak=peak)


def fold_share(share: Share) -> Folded:
    """Fold the share's leagues into its file. An event that fails is passed over and the
    share folded again, as the serial rebuild does with the whole log; so is a share whose
    line process was lost, its lines then written into the file as they come."""
    source = share.opener()
    faults = {league: dict(known) for league, known in share.faults.items()}
    lines = share.lines
    while True:
        share.path.unlink(missing_ok=True)
        try:
            with kept(share.path, lines, source.stored_reader()) as memory:
                folder = LogFolder(memory, share.corrections, faults)
                count = 0
                for league_id, last in share.leagues:
                    for event, stored in source.league_stored_events(league_id, last):
                        folder.apply(event, stored)
                        count += 1
                settled = memory.settled
                assert settled is not None
                settled.absorb(memory.all)
        except FoldFailed as failed:
            known = faults.setdefault(failed.league_id, {})
            if failed.seq in known:
                return Folded(0, (failed.league_id, failed.seq, failed.problem))
            known[failed.seq] = failed.problem
            continue
        except LinesLost:
            lines = None
            continue
        return Folded(count, lines=lines, files=tuple(settled.files))


@contextlib.contextmanager
def kept(path: Path, lines: Path | None, reader: StoredReader | None) -> Iterator[MemoryStore]:
    """The store a share's fold keeps its state in, with where its lines and settled
    records go: to a ``LineProcess`` writing the file ``lines`` (its notes of history
    too, which it reads back with ``reader``; the fold counts the play, the process having
    a worker beside it: ledger/projections/plays.py), else into a settled file at
    ``path``, lines as they come. The settled file is closed (committed when the fold went
    through) after it."""
    if lines is None:
        with SettledFile(path) as settled:
            yield MemoryStore(sink=settled.emit, settled=settled)
        return
    with LineProcess(lines, reader=reader) as process:
        away = SettledFile(path, away=process)
        yield MemoryStore(sink=process.add, settled=away, notes=process.notes)


class LinesLost(FoldStopped):
    """The line-writing process stopped before the end (or could not start): the fold is
    done again with its lines written as they come (the process's file is not used)."""


class LineProcess:
    """Writes a fold's lines from a process of its own into a SQLite file of the read
    models' tables (ledger/projections/linefile.py), which the rebuild copies into its
    tables with the rest (``copy_into``): the fold keeps this process's interpreter to
    itself. Only for a long log on SQLite: the process costs a start, and the copy one
    more pass over the lines, in SQL. It keeps the fold's settled records too
    (``SettledFile`` with ``away``), and answers the fold's questions of them.

    A lost process stops the fold without blaming an event: ``LinesLost`` is a
    ``FoldStopped``, which ``apply_checked`` raises as it is (any other error raised while
    an event is applied counts as that event's fault). It shows when the fold next hears
    from the process (an acknowledgement, an answer it waits for), or when the fold ends.

    Its lines need room beside the database until they are copied (gigabytes at 10^6
    events): if that disk fills, the process ends and the fold is done again, its lines
    written as they come."""

    def __init__(
        self, path: Path, indexed: bool = False, reader: StoredReader | None = None
    ) -> None:
        """``indexed``: the file's line tables kept with the read models' secondary
        indexes, for a rebuild whose lines are all in it (``settled.indexed_alike``).
        ``reader``: how the process reads an event back from its state as stored, to make
        the history a fold sends it notes of (``notes``; None: it takes none)."""
        self.path = path
        path.unlink(missing_ok=True)  # a fold again after a lost process
        with contextlib.closing(sqlite3.connect(path)) as db:
            create_schema(db, indexed_lines=indexed)
        context = start_method(preload=linefile.__name__)
        inbox, self.outbox = context.Pipe(duplex=False)
        widen(self.outbox, PIPE_ROOM)
        self.replies, replying = context.Pipe(duplex=False)
        self.process = context.Process(
            target=linefile.write_lines,
            args=(str(path), inbox, indexed, replying, reader),
            name="rebuild-lines",
        )
        try:
            self.process.start()
        except OSError as error:  # no process to be had: the lines are written here
            self.outbox.close()
            self.replies.close()
            raise LinesLost(str(error)) from None
        finally:
            inbox.close()  # the process's ends: closed here, a lost process shows at once
            replying.close()
        self.pending = LineRows(full=self.hand_over)
        self.add: RowSink = self.pending.add
        """Where the fold sends its lines (``MemoryStore``'s sink)."""
        self.notes: Callable[[HistoryNote], None] | None = (
            self.pending.note if reader is not None else None
        )
        """Where the fold sends its notes of events' history (``Store.notes``), given
        a ``reader`` for them."""
        self.lost: str | None = None
        self.exitcode: int | None = None
        """The process's exit status, once it has ended (0: every line is in the file)."""
        self.settled = 0
        """The number of the last batch of settled records sent."""
        self.written = 0
        """The number of the last batch of settled records known to be in the file."""

    def hand_over(self) -> None:
        """Send the pending lines' rows, per table with its statement."""
        self.send(self.pending.take_for_sqlite())

    def send(self, batch: linefile.Message) -> None:
        if self.lost is not None:
            return
        try:
            self.outbox.send_bytes(linefile.encoded(batch))
        except OSError as error:  # the process ended: the pipe is broken
            self.lost = str(error)

    # --- the settled records (``settled.Keeper``) ------------------------------------------

    def settle(self, batch: linefile.Batch) -> int:
        """Send settled records' rows; the batch's number, which ``written`` reaches once
        they are in the file."""
        self.settled += 1
        self.send(linefile.Settled(self.settled, batch))
        self.take_replies(wait=False)
        return self.settled

    def ask(self, statement: str, values: tuple[object, ...]) -> list[tuple[object, ...]]:
        """The rows the file answers a SELECT with (records written before it was asked)."""
        self.send(linefile.Asked(statement, values))
        rows = self.take_replies(wait=True)
        assert rows is not None
        return rows

    def take_replies(self, wait: bool) -> list[tuple[object, ...]] | None:
        """Note the batches acknowledged so far; with ``wait``, until an answer comes,
        which is returned. A process that ended cannot answer: ``LinesLost``."""
        try:
            while wait or self.replies.poll():
                reply = self.replies.recv()
                if isinstance(reply, linefile.Written):
                    self.written = reply.number
                else:
                    return cast("list[tuple[object, ...]]", reply)
        except (OSError, EOFError) as error:
            self.lost = self.lost or str(error) or "the line writer ended"
            raise LinesLost(self.lost) from None
        return None

    def __enter__(self) -> LineProcess:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        """Send what is left and wait for the file to be written. A fold that failed
        closes the pipe unfinished, which ends the process (its file is not used)."""
        try:
            if kind is None:
                self.hand_over()
                self.send(None)
        finally:
            self.outbox.close()
            self.process.join()
            self.replies.close()
            self.exitcode = self.process.exitcode
            self.process.close()
        if kind is None and (self.lost is not None or self.exitcode != 0):
            raise LinesLost(self.lost or f"the line writer ended with {self.exitcode}")


def widen(pipe: Connection, room: int) -> None:
    """Ask for ``room`` bytes in ``pipe`` (``PIPE_ROOM``). Where that cannot be had (not
    on Linux, or past the user's share of pipe memory), the pipe stays as it was: only
    slower."""
    with contextlib.suppress(AttributeError, OSError):
        fcntl.fcntl(pipe.fileno(), fcntl.F_SETPIPE_SZ, room)


def own_usage() -> tuple[float, int]:
    """This process's CPU seconds and peak memory in bytes (Linux counts KiB)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024
