"""What each process a rebuild starts spends: its CPU (with the kernel's share) and its
peak memory, sampled from ``/proc`` (Linux only). ``bench/phases.py`` prints them per
process; ``bench/run.py``'s rebuild adds the line process's to its CPU and peak memory
columns (the workers report their own; the line process reports nothing back).

Standard library only: ``bench/run.py``'s rebuild imports it in a process whose workers
import that process's main module again.
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from typing import NamedTuple


class Cpu(NamedTuple):
    """A process's CPU seconds: in all (user and system), and of them the system's. The
    line process at 10^6 spent more than half of its CPU in the kernel (the twenty-ninth
    session): its file's pages read and written through the system. With its peak
    resident memory so far (``VmHWM``)."""

    total: float
    system: float
    peak: int
    """Bytes."""


class ProcessCpu(threading.Thread):
    """The CPU (user and system) and peak memory of every process this one starts, and
    those they start (a rebuild's line process and workers are children of a forkserver,
    a child of this one), sampled from ``/proc`` every quarter second until ``stop``. A
    process's CPU is its last sample: up to a quarter second of its end may be missing;
    its peak is the kernel's own (``VmHWM``), read at each sample. A sample costs this
    process about 1 ms (half a per cent of a core). Linux only.

    Each process is named by the file it writes (``role``): the line process and the
    workers have the same command line, and were once told apart wrongly by their order."""

    def __init__(self) -> None:
        super().__init__(name="process-cpu", daemon=True)
        self.seen: dict[int, Cpu] = {}
        self.roles: dict[int, str] = {}
        self.stopped = threading.Event()
        self.tick = os.sysconf("SC_CLK_TCK")

    def run(self) -> None:
        while not self.stopped.wait(0.25):
            self.sample()

    def stop(self) -> dict[int, Cpu]:
        self.stopped.set()
        self.join()
        self.sample()
        return self.seen

    def sample(self) -> None:
        parents: dict[int, int] = {}
        spent: dict[int, Cpu] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                stat = Path("/proc", entry, "stat").read_text()
            except OSError:  # it ended between the listing and the read
                continue
            fields = stat[stat.rfind(")") + 2 :].split()  # after the command's name
            parents[int(entry)] = int(fields[1])
            user, system = (int(fields[n]) / self.tick for n in (11, 12))
            spent[int(entry)] = Cpu(user + system, system, 0)
        for pid in descendants(os.getpid(), parents):
            before = self.seen.get(pid)  # an ended process not yet waited for shows none
            peak = max(peak_memory(pid), before.peak if before else 0)
            self.seen[pid] = spent[pid]._replace(peak=peak)
            if pid not in self.roles and (named := role(pid)):
                self.roles[pid] = named


WRITES = (
    (re.compile(r"lines\.db$"), "line process"),
    (re.compile(r"share-\d+\.db$"), "worker"),
)
"""A rebuild's processes by the file each has open: the line process writes the lines'
file (``lines.db``, ``share-0-lines.db``), a worker its share's (``share-1.db``...)."""


def role(pid: int) -> str | None:
    """What process ``pid`` is in the rebuild, by the files it has open; None while it has
    none of ``WRITES`` open (or is no process of the rebuild's: the forkserver)."""
    try:
        opened = [os.readlink(link) for link in Path("/proc", str(pid), "fd").iterdir()]
    except OSError:  # it ended, or a descriptor closed while being read
        return None
    for pattern, name in WRITES:
        if any(pattern.search(path) for path in opened):
            return name
    return None


def peak_memory(pid: int) -> int:
    """Process ``pid``'s peak resident memory in bytes (``VmHWM``); 0 once it has ended."""
    try:
        status = Path("/proc", str(pid), "status").read_text()
    except OSError:
        return 0
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
    return int(found.group(1)) * 1024 if found else 0


def descendants(root: int, parents: dict[int, int]) -> set[int]:
    """The processes below ``root`` in the tree that ``parents`` (child to parent) makes."""
    found: set[int] = set()
    grown = True
    while grown:
        grown = False
        for pid, parent in parents.items():
            if pid not in found and (parent == root or parent in found):
                found.add(pid)
                grown = True
    return found
