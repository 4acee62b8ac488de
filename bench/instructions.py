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

How only the samples are counted: they are drawn through ``itertools.starmap``, and
callgrind collects only while the C function that steps it (``starmap_next``) is on the
stack; the start, the imports and two samples that fill the caches before are not counted.

``--rebuild`` counts, the same way, the fold of a serial rebuild of the ``bench/run.py``
ledger of that size (10^4 events unless said; generated on first use): the log read and
decoded, every event applied, the lines and settled records batched, pickled and sent
to a line process (``LineProcess``; the process that writes them runs outside valgrind
and is not counted). A rebuild's fold is three quarters of its time, and its timings
drift by more than one change for speed gains.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from run import ledger_of  # bench/: the cached ledgers of bench/run.py
from whatif import build, work_of  # bench/: the league's maker and the samples' work

from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.projections.logfold import few_collections
from ledger.projections.parallel import LineProcess
from ledger.projections.settled import SettledFile
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
    if args.rebuild:
        count_rebuild(valgrind, args.rebuild)
        return
    build(args.db)
    for ruleset in args.ruleset or ["lrb6-zal", "gold4", "dz3"]:
        inside = ["--db", str(args.db), "--samples", str(args.samples), "--inside", ruleset]
        count = counted(valgrind, inside, ruleset)
        print(f"{ruleset:9} {count / args.samples / 1e6:8.1f} M instructions per sample")


def count_rebuild(valgrind: str, size: int) -> None:
    """The fold of a copy of the ledger of ``size`` events (a rebuild writes its tables)."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "ledger.db"
        shutil.copy(ledger_of(size), copy)
        count = counted(valgrind, ["--rebuild", str(size), "--inside", str(copy)], "the fold")
    print(f"rebuild of {size:,} events: {count / 1e6:,.1f} M instructions in its fold")


def counted(valgrind: str, inside: list[str], what: str) -> int:
    """The instructions counted by callgrind in a process of its own, run with ``inside``."""
    with tempfile.TemporaryDirectory() as folder:
        command = [
            valgrind,
            "--tool=callgrind",
            "--toggle-collect=starmap_next",
            f"--callgrind-out-file={folder}/callgrind.out",
            sys.executable,
            __file__,
            *inside,
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind of {what} failed: {done.stderr.strip()[-500:]}")
    return int(found.group(1))


def fold_rebuild(db: Path) -> None:
    """A serial rebuild's fold of ``db``'s log, its lines and settled records handed to a
    line process; only the fold inside ``starmap`` is counted (not opening the ledger,
    reading its corrections first, nor starting the process)."""
    ledger = open_ledger(Settings(sqlite_path=db))
    corrections: dict[str, dict[int, Any]] = {}
    for correction in ledger.source.all_corrections():
        corrections.setdefault(str(correction.originator_id), {})[correction.target] = correction
    with (
        tempfile.TemporaryDirectory() as folder,
        few_collections(),
        LineProcess(Path(folder) / "lines.db", indexed=True) as process,
    ):
        settled = SettledFile(Path(folder) / "settled.db", away=process)
        job: tuple[Any, ...] = (process.add, settled, ledger.source, corrections, {}, None)
        list(itertools.starmap(ledger.read_models.fold_into, [job]))
    close_ledger(ledger)


def draw_samples(db: Path, ruleset: str, samples: int) -> None:
    """The samples, as a pool worker draws them (its collector set as ``start_worker``
    sets it); only those drawn through ``starmap`` are counted."""
    start_worker(work_of(db, ruleset), None)
    for seed in range(1, WARM + 1):
        sample(seed)
    seeds = [(seed,) for seed in range(WARM + 1, WARM + 1 + samples)]
    list(itertools.starmap(sample, seeds))


if __name__ == "__main__":
    main()
