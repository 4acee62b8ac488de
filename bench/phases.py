"""Time a rebuild's phases: the fold, then the tail that writes the read models.

    python bench/phases.py [--size N] [--without-lines]

Rebuilds a fresh copy of ``bench/run.py``'s ledger of N events (10^6 unless said;
generated on first use) in this process, and prints the wall time of each phase of
``ReadModels.rebuild_once``: the fold (of the shares in worker processes, or here), and
the tail after it, which the fold's speed-ups do not touch (the old tables dropped, the
folded files copied in, the secondary indexes made, the query planner's statistics
gathered, the commit). The phases are timed by wrapping the runner's functions for the
one rebuild, so an old commit can be timed the same way from a git worktree on
``PYTHONPATH`` (run from outside both checkouts).

It prints the CPU of each process too: this one's, and that of every process the rebuild
starts (its line process, the workers), sampled from ``/proc`` (``ProcessCpu``), each with
the part spent in the kernel (a file's pages read and written through the system), and
each one's peak memory (``VmHWM``). On two cores that are both busy, the rebuild's length
follows their sum, not this process's.

``--without-lines`` folds as a Monte Carlo sample does (``Fold.keeps_lines`` off, in every
process of the rebuild): every record, no game line, treasury movement, team history or
history of events. The line tables stay empty, so it is a measurement, not a rebuild to
keep: what the fold itself costs, apart from the lines it makes and writes.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from processes import Cpu, ProcessCpu  # bench/: each process's CPU and peak, from /proc
from run import SIZES, generated  # bench/: the ledgers' maker
from sqlalchemy.engine import base

from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.projections import runner, sql
from ledger.projections.fold import Fold

ROOT = Path(__file__).resolve().parents[1]
PHASES = (
    "fold_shares",
    "fold_here",
    "copy_into",
    "create_indexes",
    "plan_statistics",
    "drop",
    "commit",
)

WITHOUT_LINES = "LEDGER_BENCH_WITHOUT_LINES"
"""Set by ``--without-lines`` before any process starts: the line process and the workers
import this file again (as their main module), and read it here."""
if os.environ.get(WITHOUT_LINES):
    Fold.keeps_lines = False

spent: dict[str, float] = {}


def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.perf_counter() - started

    return wrapped


def watch_phases() -> None:
    for name in ("copy_into", "create_indexes", "plan_statistics"):
        setattr(runner, name, timed(name, getattr(runner, name)))
    for name in ("fold_shares", "fold_here"):
        setattr(runner.ReadModels, name, timed(name, getattr(runner.ReadModels, name)))
    sql.METADATA.drop_all = timed("drop", sql.METADATA.drop_all)  # type: ignore[method-assign]
    base.RootTransaction._do_commit = timed("commit", base.RootTransaction._do_commit)  # type: ignore[method-assign]


def print_cpu(
    others: dict[int, Cpu], roles: dict[int, str], before: resource.struct_rusage
) -> None:
    """Each process's CPU in the rebuild: this one's since ``before`` (its usage when the
    rebuild began: until the thirty-second session it took in the copy of the ledger made
    for it, 7.8 s of system CPU at 10^6, and the imports), the others' whole."""
    now = resource.getrusage(resource.RUSAGE_SELF)
    user, system = now.ru_utime - before.ru_utime, now.ru_stime - before.ru_stime
    print(
        "CPU of each process (user and system; of which system: the kernel's, page I/O),"
        " and its peak memory:"
    )
    own = f"{user + system:6.1f} s ({system:.1f})"
    print(f"  {'this process':22s} {own:16s} {now.ru_maxrss // 1024:5d} MiB")  # KiB on Linux
    for pid, cpu in sorted(others.items(), key=lambda item: -item[1].total):
        if cpu.total >= 0.1:
            name = roles.get(pid, "process")
            spent = f"{cpu.total:6.1f} s ({cpu.system:.1f})"
            print(f"  {name:13s} {pid:<8d} {spent:16s} {cpu.peak // 2**20:5d} MiB")
    everything = user + system + sum(cpu.total for cpu in others.values())
    print(f"  {'in all':22s} {everything:6.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000, choices=sorted(SIZES))
    parser.add_argument("--without-lines", action="store_true", help="fold, writing no lines")
    arguments = parser.parse_args()
    size = arguments.size
    if arguments.without_lines:
        os.environ[WITHOUT_LINES] = "1"
        Fold.keeps_lines = False
    cached = generated(ROOT / ".benchmarks" / f"ledger-{size}.db", SIZES[size])
    sampler = ProcessCpu() if Path("/proc/self/stat").exists() else None
    if sampler is not None:
        sampler.start()
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "ledger.db"
        shutil.copy(cached, copy)
        watch_phases()
        before = resource.getrusage(resource.RUSAGE_SELF)  # not the copy's, nor the imports'
        started = time.perf_counter()
        ledger = open_ledger(Settings(sqlite_path=copy))  # rebuilds read models of other code
        if ledger.read_models.rebuilt is None:  # they were this code's: rebuild them now
            ledger.read_models.rebuild(ledger.source)
        total = time.perf_counter() - started
        close_ledger(ledger)
    used = resource.getrusage(resource.RUSAGE_SELF)
    lines = ", writing no lines" if arguments.without_lines else ""
    print(
        f"rebuild of {size:,} events{lines}: {total:.1f} s wall,"
        f" {used.ru_utime - before.ru_utime:.1f} s user CPU here"
    )
    for name in PHASES:
        if name in spent:
            print(f"  {name:15s} {spent[name]:6.1f} s")
    if sampler is not None:
        print_cpu(sampler.stop(), sampler.roles, before)


if __name__ == "__main__":  # the line process and the workers import this file again
    main()
