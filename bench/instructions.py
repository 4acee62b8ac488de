"""Count the instructions of one Monte Carlo sample: a figure the machine's noise cannot move.

    python bench/instructions.py [--samples N] [--ruleset ID ...] [--db PATH]

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

from whatif import build, work_of  # bench/: the league's maker and the samples' work

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
    parser.add_argument("--inside", help=argparse.SUPPRESS)  # the run under valgrind
    return parser.parse_args()


def main() -> None:
    args = arguments()
    if args.inside:
        draw_samples(args.db, args.inside, args.samples)
        return
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("bench/instructions.py needs valgrind (apt-get install valgrind)")
    build(args.db)
    for ruleset in args.ruleset or ["lrb6-zal", "gold4", "dz3"]:
        count = counted(valgrind, args.db, ruleset, args.samples)
        print(f"{ruleset:9} {count / args.samples / 1e6:8.1f} M instructions per sample")


def counted(valgrind: str, db: Path, ruleset: str, samples: int) -> int:
    """The instructions of ``samples`` samples, counted by callgrind in a process of its own."""
    with tempfile.TemporaryDirectory() as folder:
        command = [
            valgrind,
            "--tool=callgrind",
            "--toggle-collect=starmap_next",
            f"--callgrind-out-file={folder}/callgrind.out",
            sys.executable,
            __file__,
            "--db",
            str(db),
            "--samples",
            str(samples),
            "--inside",
            ruleset,
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind of {ruleset} failed: {done.stderr.strip()[-500:]}")
    return int(found.group(1))


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
