"""Count the instructions of one Monte Carlo sample, or of a rebuild's fold: figures the
machine's noise cannot move.

    python bench/instructions.py [--samples N] [--ruleset ID ...] [--db PATH]
    python bench/instructions.py --rebuild [SIZE]

The timings of ``bench/whatif.py`` wander by several per cent from run to run on a shared
2-core machine, more than most single changes made for speed. This runs the samples of
the 16-team season (the same league, ``bench/whatif.py`` builds it) under valgrind's
callgrind, counting only what happens inside them, with string hashing fixed
(``PYTHONHASHSEED=0``), so the same code gives the same count on every run: compare two
commits by running this from each (the old one from a git worktree on ``PYTHONPATH``).
Needs valgrind (Debian: ``apt-get install valgrind``); runs about 40 s per edition.

How only the samples are counted: they are drawn inside a call through ``ctypes`` (a C
function pointer wrapping them, ``counted_call``), and callgrind collects only while
libffi's ``ffi_call``, which makes that call, is on the stack; the start, the imports and
two samples that fill the caches before are not counted. ``ffi_call`` is a symbol libffi
exports, so callgrind finds it in any CPython build, also one whose own symbols are
stripped (Debian's). Until the twenty-third session the counts toggled on CPython's
``starmap_next``, which a stripped build does not name; on the same code and interpreter
the two ways differ by 0.5% for the rebuild and 0.2% for a sample: compare counts made
the same way. A run that collects nothing stops with an error.

``--rebuild`` counts, the same way, the fold of a serial rebuild of the ``bench/run.py``
ledger of that size (10^4 events unless said; generated on first use): the log read and
decoded, every event applied, the lines and settled records batched, pickled and sent
to a line process (``LineProcess``; the process that writes them runs outside valgrind
and is not counted). A rebuild's fold is three quarters of its time, and its timings
drift by more than one change for speed gains.

``--caches`` has callgrind simulate the processor's caches as it counts (two to three
times as slow), and prints, beside the instructions, the reads of instructions and of
data that missed the first-level caches (32 KiB each, as this machine's) and those that
missed the last level as well (``--last-level`` bytes, this machine's L3 of 32 MiB unless said; its
L2 is 1 MiB a core). A miss of the first level costs about a dozen cycles where the next
level holds the line, one of the last about a hundred nanoseconds: whether a change cut
instructions or the memory's waits shows here, which the timings cannot tell apart.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from run import ledger_of  # bench/: the cached ledgers of bench/run.py
from whatif import build, work_of  # bench/: the league's maker and the samples' work

from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.events import LedgerEvent
from ledger.projections.faults import fold_league
from ledger.projections.fold import corrections_of
from ledger.projections.logfold import few_collections
from ledger.projections.parallel import LineProcess
from ledger.projections.runner import EventSource
from ledger.projections.settled import SettledFile
from ledger.projections.store import MemoryStore
from ledger.whatif.montecarlo import sample, start_worker

ROOT = Path(__file__).resolve().parents[1]
WARM = 2
"""Samples drawn before counting: the first fills the rulesets' and the memo's caches."""


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / ".benchmarks" / "whatif-league.db")
    parser.add_argument("--samples", type=int, default=6)
    parser.add_argument(
        "--ruleset", action="append", help="target ruleset (repeatable; default: all three)"
    )
    parser.add_argument(
        "--rebuild",
        type=int,
        nargs="?",
        const=10_000,
        metavar="SIZE",
        help="count a rebuild's fold of bench/run.py's ledger of SIZE events (10000)",
    )
    parser.add_argument(
        "--caches", action="store_true", help="simulate the caches: count their misses too"
    )
    parser.add_argument(
        "--last-level",
        type=int,
        default=LAST_LEVEL,
        metavar="BYTES",
        help=f"the simulated last-level cache with --caches ({LAST_LEVEL:,} bytes)",
    )
    parser.add_argument("--inside", help=argparse.SUPPRESS)  # the run under valgrind
    return parser.parse_args()


def main() -> None:
    args = arguments()
    if args.inside:
        if args.rebuild:
            fold_rebuild(Path(args.inside))
        else:
            draw_samples(args.db, args.inside, args.samples)
        return
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("bench/instructions.py needs valgrind (apt-get install valgrind)")
    caches = cache_options(args.last_level) if args.caches else []
    if args.rebuild:
        count_rebuild(valgrind, args.rebuild, caches)
        return
    build(args.db)
    for ruleset in args.ruleset or ["lrb6-zal", "gold4", "dz3"]:
        inside = ["--db", str(args.db), "--samples", str(args.samples), "--inside", ruleset]
        events = counted(valgrind, inside, ruleset, caches)
        count = events["Ir"]
        print(f"{ruleset:9} {count / args.samples / 1e6:8.1f} M instructions per sample")
        print_misses(events, per=args.samples)


def count_rebuild(valgrind: str, size: int, caches: list[str]) -> None:
    """The fold of a copy of the ledger of ``size`` events (a rebuild writes its tables)."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "ledger.db"
        shutil.copy(ledger_of(size), copy)
        inside = ["--rebuild", str(size), "--inside", str(copy)]
        events = counted(valgrind, inside, "the fold", caches)
    print(f"rebuild of {size:,} events: {events['Ir'] / 1e6:,.1f} M instructions in its fold")
    print_misses(events, per=1)


LAST_LEVEL = 32 << 20
"""This machine's L3 (``lscpu``: 32 MiB, shared by its two cores)."""


def cache_options(last_level: int) -> list[str]:
    """Callgrind's cache simulation, its first levels as this machine's (32 KiB, 8-way, 64-byte
    lines) and its last of ``last_level`` bytes (16-way): it finds the machine's own on its
    own, but this virtual machine's processor reports an L3 of 320 MB, direct-mapped."""
    return [
        "--cache-sim=yes",
        "--I1=32768,8,64",
        "--D1=32768,8,64",
        f"--LL={last_level},16,64",
    ]


MISSES = {
    "I1mr": "instruction reads missing the first level",
    "D1mr": "data reads missing the first level",
    "D1mw": "data writes missing the first level",
    "DLmr": "data reads missing the last level",
    "DLmw": "data writes missing the last level",
}


def print_misses(events: dict[str, int], per: int) -> None:
    """The misses ``events`` counted (none without ``--caches``), divided among ``per``
    samples (1: a fold's)."""
    for event, meaning in MISSES.items():
        if event in events:
            count = f"{events[event] // per:,}"
            print(f"  {count:>14} {meaning} ({events[event] / events['Ir']:.2%} of instructions)")


def counted(valgrind: str, inside: list[str], what: str, caches: list[str]) -> dict[str, int]:
    """What callgrind counted in a process of its own, run with ``inside``, by event:
    ``Ir`` the instructions, and the misses of ``MISSES`` with ``caches``."""
    compiled_first()
    with tempfile.TemporaryDirectory() as folder:
        command = [
            valgrind,
            "--tool=callgrind",
            *caches,
            f"--toggle-collect={COUNTED}",
            f"--callgrind-out-file={folder}/callgrind.out",
            sys.executable,
            __file__,
            *inside,
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    names = re.search(r"Events +: ([\w ]+)", done.stderr)
    found = re.search(r"Collected : ([\d ]+)", done.stderr)
    if done.returncode != 0 or names is None or found is None:
        raise SystemExit(f"callgrind of {what} failed: {done.stderr.strip()[-500:]}")
    events = dict(zip(names.group(1).split(), map(int, found.group(1).split()), strict=True))
    if not events["Ir"]:
        raise SystemExit(f"callgrind of {what} collected nothing: no call of {COUNTED} seen")
    return events


def compiled_first() -> None:
    """Compile the ledger's modules and these scripts before counting: a module first
    imported inside the counted call (the appliers, an edition's rules) is compiled there
    when its checkout has no ``__pycache__`` yet. The 10^4 fold of a fresh git worktree
    counted 4,880.1 M instructions, against 4,812.2 M once compiled, and 4,809.9 M in
    this checkout (docs/performance-journal.md, thirty-first session)."""
    package = sys.modules["ledger"].__file__  # the code imported, wherever it is from
    assert package is not None
    folders = [str(Path(package).parent), str(Path(__file__).parent)]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *folders], check=True)


COUNTED = "ffi_call"
"""The C function callgrind collects inside (``counted_call``)."""


def counted_call(work: Callable[[], object]) -> None:
    """``work()``, called through a C function pointer (``ctypes``), so that callgrind
    counts it alone (``COUNTED``). An exception cannot cross the C call: it is kept and
    raised again after it."""
    failed: list[BaseException] = []

    def call() -> None:
        try:
            work()
        except BaseException as error:  # raised again below
            failed.append(error)

    ctypes.CFUNCTYPE(None)(call)()
    if failed:
        raise failed[0]


def as_rebuilt(process: LineProcess, settled: SettledFile) -> MemoryStore:
    """The store of a serial rebuild's fold: its lines, notes of history and settled
    records go to the line process."""
    return MemoryStore(
        sink=process.add,
        settled=settled,
        notes=process.notes,
        plays_apart=process.notes is not None,
    )


def fold_rebuild(
    db: Path,
    run: Callable[[Callable[[], object]], None] = counted_call,
    store_of: Callable[[LineProcess, SettledFile], MemoryStore] = as_rebuilt,
) -> None:
    """A serial rebuild's fold of ``db``'s log, its lines and settled records handed to a
    line process; only the fold is counted (``run``, ``counted_call``: not opening the
    ledger, reading its corrections first, nor starting the process). ``store_of`` says
    where the lines go: to the line process, as in a rebuild (``bench/lines.py`` tries
    others)."""
    ledger = open_ledger(Settings(sqlite_path=db))
    rules_loaded(ledger.source)
    corrections: dict[str, dict[int, Any]] = {}
    for correction in ledger.source.all_corrections():
        corrections.setdefault(str(correction.originator_id), {})[correction.target] = correction
    with (
        tempfile.TemporaryDirectory() as folder,
        few_collections(),
        LineProcess(
            Path(folder) / "lines.db", indexed=True, reader=ledger.source.stored_reader()
        ) as process,
    ):
        memory = store_of(process, SettledFile(Path(folder) / "settled.db", away=process))
        job: tuple[Any, ...] = (memory, ledger.source, corrections, {}, None)
        run(lambda: ledger.read_models.fold_into(*job))
    close_ledger(ledger)


WARMING = 2_000
"""The log's first events, folded before the counted fold (``rules_loaded``)."""


def rules_loaded(source: EventSource) -> None:
    """Fold the log's first events in memory, uncounted, so that the counted fold finds the
    rules' tables loaded: each edition's tables, team lists and skills are read from their
    files once per process, at a fold's first need, and opening a ledger reads them only if
    it rebuilds read models of other code. Without this the count of the same code and log
    took them in or not as the cached ledger's read models were current or not: 4,810.6 M
    against 4,343.5 M instructions at 10^4 events (docs/performance-journal.md, thirty-first
    session)."""
    leagues: dict[str, list[LedgerEvent]] = {}
    for _, event in source.page(0, WARMING):
        leagues.setdefault(str(event.originator_id), []).append(event)
    for league_id, events in leagues.items():
        fold_league(events, league_id, corrections_of(events))


def draw_samples(db: Path, ruleset: str, samples: int) -> None:
    """The samples, as a pool worker draws them (its collector set as ``start_worker``
    sets it); only those after ``WARM`` are counted (``counted_call``)."""
    start_worker(work_of(db, ruleset), None)
    for seed in range(1, WARM + 1):
        sample(seed)
    counted_call(lambda: [sample(seed) for seed in range(WARM + 1, WARM + 1 + samples)])


if __name__ == "__main__":
    main()
