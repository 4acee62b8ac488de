"""Time a Monte Carlo what-if: ``ledger whatif --samples 1000`` of a 16-team season.

    python bench/whatif.py [--db PATH] [--samples N] [--ruleset ID ...] [--workers N]

The league is a synthetic BB2025 season of 16 teams (``ledger generate --teams 16
--seasons 1 --seed 2026``: two divisions of eight, every game recorded through the real
commands), made once and kept in --db (default .benchmarks/whatif-league.db, which git
ignores). Each ruleset's run is the command a commissioner types, timed from start to
exit (process start, reading the log, the replays in two worker processes, the JSON on
stdout); the CPU time of all its processes and the load average are printed beside it,
since other work on the machine slows the wall clock. The target of issue 6 is under a
minute on a 2-core machine; docs/performance.md ("What-if Monte Carlo") records the
figures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEDGER = str(Path(sys.executable).parent / "ledger")
SLUG = "mc16"


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / ".benchmarks" / "whatif-league.db")
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument(
        "--ruleset", action="append", help="target ruleset (repeatable; default: all three)"
    )
    parser.add_argument("--workers", type=int, default=2)
    return parser.parse_args()


def ledger(db: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "LEDGER_DATABASE_URL"}
    done = subprocess.run(
        [LEDGER, "--db", str(db), *args], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"ledger {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def build(db: Path) -> None:
    if db.exists():
        return
    db.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    ledger(db, "generate", "--teams", "16", "--seasons", "1", "--seed", "2026", "--slug", SLUG)
    print(f"built the 16-team season in {time.perf_counter() - started:.1f} s ({db})")


def main() -> None:
    args = arguments()
    build(args.db)
    print(f"{os.cpu_count()} CPUs; {args.samples} samples, {args.workers} workers")
    for ruleset in args.ruleset or ["lrb6-zal", "gold4", "dz3"]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        out = ledger(
            args.db,
            "whatif",
            SLUG,
            "--ruleset",
            ruleset,
            "--samples",
            str(args.samples),
            "--workers",
            str(args.workers),
            "--json",
        )
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        found = json.loads(out)
        print(
            f"{ruleset:9} {seconds:6.1f} s  {found['samples']} samples of"
            f" {len(found['teams'])} teams ({1000 * seconds / found['samples']:.1f} ms each);"
            f" CPU {cpu:.1f} s in all processes, load average {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
