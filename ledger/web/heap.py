"""Keeping the garbage collector's full passes short in a serving process.

A full pass of CPython's cycle collector walks every tracked object, and pydantic-core's
validators are costly to walk: with the service started, one pass took 90-130 ms here
(about 140,000 objects: the modules, the routes' and events' validators, the rulesets'
tables, the opened ledger), and under load the requests' short-lived objects set one off
every 2-4 s. Each stopped every request of the process for that long: most of the reads'
p99 in docs/performance-journal.md (2026-11-25).

So a serving process *settles* its heap twice: when it has started, and once it has
served its first requests (FastAPI builds each router's models on first use, the event
mapper and the rulesets fill their caches on first use). Settling collects what is already
garbage, then freezes the rest (``gc.freeze``): full passes no longer walk it. A frozen
object is still freed by reference counting when dropped; only a cycle among frozen
objects would never be freed, and what is alive at start-up lives as long as the process.
The second settling may freeze the few objects of the requests in flight at that moment:
a bounded, one-time cost.

The young generation is also made larger than CPython's 700: a request makes thousands
of objects, and those alive when a young pass runs are promoted towards the old
generation, whose growth is what starts a full pass. Fewer young passes promote fewer of
them.

And a thread waiting for the interpreter lock is handed it after 1 ms rather than 5: while
a write's command or a page runs in a request thread, the event loop, which takes every
request in and hands every answer back, waits for the lock at each of those steps (with
5 ms, the guard's step alone of reads answered from memory took 10-30 ms beside a burst
of writes; docs/performance-journal.md, 2026-11-25, the switch interval).
"""

from __future__ import annotations

import gc
import sys

WARM_REQUESTS = 1000
"""Requests served before the second settling: by then every route a site uses has run."""

YOUNG = 10_000
"""Allocations between two passes over the young generation (CPython's default: 700)."""

SWITCH = 0.001
"""Seconds a thread holds the interpreter lock while another waits (CPython's: 0.005)."""


def settle() -> None:
    gc.collect()  # nothing that is already garbage is frozen
    gc.freeze()


class Heap:
    """The collector's settings of one serving process (``create_app(settle=True)``)."""

    def __init__(self, warm_requests: int = WARM_REQUESTS) -> None:
        self.left = warm_requests

    def started(self) -> None:
        sys.setswitchinterval(SWITCH)
        _, older, oldest = gc.get_threshold()
        gc.set_threshold(YOUNG, older, oldest)
        settle()

    def served(self) -> None:
        """One more request answered; the second settling once warm."""
        self.left -= 1
        if self.left == 0:
            settle()
