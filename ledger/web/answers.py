"""Answers remembered by what fixes them: a league's read at one version never changes.

Every change to a league is an event in its log, and the league's version (its ``ETag``)
counts them; the read models a request reads are caught up with the version in the same
transaction. So the answer to ``GET path?query`` of league L at version N, for one caller,
is the same bytes until N moves: the guard looks the league's version up anyway (for the
``ETag``), and a route marked ``@needs("read", remembered=True)`` is answered from here
when it has already been computed, without running the route, its queries or its template.

Each answer is kept with the version it shows: the league's row is read again just
before the route reads the read models, and once more after; only when both say the same
version is the answer tagged and kept with it (``guard.consistent``: a command commits a
league's read models and its version together, so nothing moved in between). A request
is given it when that version is at least the one the request found on arrival: then it
shows the league as it stood at some moment after the request came in, as a fresh
computation would. Right after a burst of writes, readers of a page who arrived at
successive versions are all answered by the one computation made after the last of them
(docs/performance-journal.md, 2026-11-25, the write bursts), instead of one computation each.

What else an answer depends on is in its key: who is asking (the account, whether it is
an admin, its role and teams in every league: a grant or a revocation changes the key),
and for a page, the CSRF token its forms carry (the session's, or the login form's own
cookie). Authorization is never remembered: the guard decides it afresh on every request,
so a revoked token is refused at once. Only whole ``200`` answers without cookies are
kept; a page that shows a login token it has just minted is not (it is one visitor's).

Which routes are marked is a choice of what depends on the league's log and read models
alone: not the audit (it re-reads the stored rows, which an edit outside the ledger could
change without moving the version), not the raw log or its export, not what-if jobs (their
progress moves on its own).

Each worker process keeps its own, one answer per key (its latest); the version each is
kept with keeps them exact across processes. Bounded by entries and bytes, least recently
used first out.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Hashable
from dataclasses import dataclass

from starlette.responses import Response

from ledger.application.access import Principal
from ledger.application.accounts import digest

MAX_ENTRIES = 2048
MAX_BYTES = 64 * 1024 * 1024
MAX_ANSWER = 4 * 1024 * 1024
"""An answer larger than this (a season report's zip of a big league) is not kept."""
COMPUTING = 1
"""Answers computed at once in a process (``Answers.computing``). One: under one
interpreter lock two computations side by side each take as long as both, so the first
reader waits for the second's work too; in turn, it does not (docs/performance-journal.md,
2026-11-25: read p99 39-110 ms with one, 101-120 ms with two, quiet machine)."""


@dataclass(frozen=True)
class Kept:
    status: int
    body: bytes
    headers: tuple[tuple[bytes, bytes], ...]
    version: int = 0
    """The league's version the answer shows (its ``ETag``)."""

    def response(self) -> Response:
        reply = Response(self.body, status_code=self.status)
        reply.raw_headers = list(self.headers)
        return reply


def caller(who: Principal | None) -> Hashable:
    """Everything about the caller an answer may show or depend on."""
    if who is None:
        return None
    held = tuple(sorted((slug, m.role, tuple(m.teams)) for slug, m in who.leagues.items()))
    return (who.account, who.admin, held)


def cookie(session_id: str | None) -> str | None:
    """A browser session in a key: its digest, never the id itself (as stored)."""
    return digest(session_id) if session_id else None


def keepable(reply: Response, version: int) -> Kept | None:
    """The answer as bytes, when it is one that may be kept."""
    body = getattr(reply, "body", None)  # a StreamingResponse has none
    if reply.status_code != 200 or not isinstance(body, bytes) or len(body) > MAX_ANSWER:
        return None
    if any(name == b"set-cookie" for name, _ in reply.raw_headers):
        return None
    return Kept(reply.status_code, body, tuple(reply.raw_headers), version)


class Answers:
    """The kept answers of one process, least recently used first out."""

    def __init__(
        self,
        max_entries: int = MAX_ENTRIES,
        max_bytes: int = MAX_BYTES,
        computing: int = COMPUTING,
    ) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.entries: OrderedDict[Hashable, Kept] = OrderedDict()
        self.size = 0
        self.hits = 0
        self.misses = 0
        self.lock = threading.Lock()
        self.turns: dict[Hashable, asyncio.Lock] = {}
        self.waiting: dict[Hashable, int] = {}
        self.computing = asyncio.Semaphore(computing)
        """Where a missed answer waits to be computed. Right after a write every page of
        the league misses at once; computed side by side they share one interpreter
        lock, so each takes as long as all of them, and so does the next write, which
        gets one share of the lock among them. ``COMPUTING`` at a time (one), the first is
        done first and a write waits behind at most that many; a long one (a season
        report's) holds up the misses behind it. Reads answered from here never wait for
        it."""

    def get(self, key: Hashable, version: int) -> Kept | None:
        """The answer of ``key`` kept at ``version`` or later, if any."""
        with self.lock:
            found = self.entries.get(key)
            if found is None or found.version < version:
                self.misses += 1
                return None
            self.entries.move_to_end(key)
            self.hits += 1
            return found

    def busy(self, key: Hashable) -> bool:
        """Whether a request for ``key`` would wait: another request computes or waits for
        its answer, or the computing slot is taken. (Taking a free lock or semaphore does
        not give the event loop a turn, so a request that found neither busy waits for
        neither.)"""
        return key in self.turns or self.computing.locked()

    @contextlib.asynccontextmanager
    async def turn(self, key: Hashable) -> AsyncIterator[None]:
        """One request at a time computes the answer of ``key``: right after a write,
        the readers of a page would otherwise all compute it at once; they wait for the
        first and are given what it kept. (The event loop's own state: no thread lock.)"""
        lock = self.turns.setdefault(key, asyncio.Lock())
        self.waiting[key] = self.waiting.get(key, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self.waiting[key] -= 1
            if not self.waiting[key]:
                del self.waiting[key], self.turns[key]

    def keep(self, key: Hashable, kept: Kept) -> None:
        """Keep ``kept`` as the answer of ``key``, unless a later version's is kept."""
        with self.lock:
            old = self.entries.get(key)
            if old is not None and old.version > kept.version:
                return
            if old is not None:
                del self.entries[key]
                self.size -= len(old.body)
            self.entries[key] = kept
            self.size += len(kept.body)
            while self.entries and (
                len(self.entries) > self.max_entries or self.size > self.max_bytes
            ):
                _, dropped = self.entries.popitem(last=False)
                self.size -= len(dropped.body)
