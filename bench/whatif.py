"""Time a Monte Carlo what-if: ``ledger whatif --samples 1000`` of a 16-team season.

    python bench/whatif.py [--db PATH] [--samples N] [--ruleset ID ...] [--workers N]

The league is a synthetic BB2025 season of 16 teams (``ledger generate --teams 16
--seasons 1 --seed 2026``: two divisions of eight, every game recorded through the real
commands), made once and kept in --db (default .benchmarks/whatif-league.db, which git
ignores). Each ruleset's run is the command a commissioner types, timed from start to
exit (process start, reading the log, the replays in two worker processes, the JSON on
stdout); the CPU time of all its processes and the load average are printed beside it,
since other work on the machine slows the wall clock. Then, in this process, the CPU time
of the parts: the shared start (the steps before the first drawn roll, folded once), one
sample (the mean of --probe samples after a first that fills the caches) and one whole
replay with its explanations (``ledger whatif --ruleset ID`` makes one). The targets of
issue 14: a sample at most 15 ms of CPU, ``--samples 1000`` under 10 s on 2 cores, a
replay under 0.2 s; docs/performance.md records the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.rules import find_ruleset
from ledger.whatif.montecarlo import Sampler, Work, season_of
from ledger.whatif.replay import replay, translate
from ledger.whatif.service import ask

ROOT = Path(__file__).resolve().parents[1]
LEDGER = str(Path(sys.executable).parent / "ledger")
SLUG = "mc16"


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / ".benchmarks" / "whatif-league.db")
    parser.add_argument("--samples", type=int, default=1000, help="0: no command timed")
    parser.add_argument(
        "--ruleset", action="append", help="target ruleset (repeatable; default: all three)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--probe", type=int, default=30, help="samples timed in this process (0: none)"
    )
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
    for ruleset in (args.ruleset or ["lrb6-zal", "gold4", "dz3"]) if args.samples > 0 else []:
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
    if args.probe > 0:
        print(f"CPU in this process ({args.probe} samples each):")
        for ruleset in args.ruleset or ["lrb6-zal", "gold4", "dz3"]:
            print(parts(args.db, ruleset, args.probe))


def work_of(db: Path, ruleset: str) -> Work:
    """What every sample of the season's what-if under ``ruleset`` needs (its log, its
    translated steps, the season counted), as ``ledger whatif`` makes it."""
    ledger = open_ledger(Settings(sqlite_path=db, user="bench"))
    try:
        asked = ask(ledger, SLUG, ruleset, {})
        events = asked.events()
    finally:
        close_ledger(ledger)
    steps = translate(events, asked.target)
    options = asked.target.options.model_dump(mode="json")
    return Work(events, steps, asked.target.id, options, season_of(events, None))


def parts(db: Path, ruleset: str, samples: int) -> str:
    """The CPU time of the shared start, of one sample and of one explained replay."""
    work = work_of(db, ruleset)
    events, steps = work.events, work.steps
    started = time.process_time()
    sampler = Sampler.of(work)
    start = time.process_time() - started
    sampler(1)
    each = []
    for seed in range(2, samples + 2):
        started = time.process_time()
        sampler(seed)
        each.append(time.process_time() - started)
    started = time.process_time()
    replay(events, find_ruleset(work.ruleset, work.options), seed=0, steps=steps)
    whole = time.process_time() - started
    return (
        f"{ruleset:9} start {1000 * start:5.1f} ms ({sampler.start.index} of {len(steps)} steps);"
        f" one sample {1000 * statistics.mean(each):5.1f} ms"
        f" (median {1000 * statistics.median(each):.1f});"
        f" one replay {1000 * whole:5.1f} ms; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
