"""The ledger's performance benchmarks: ``make bench`` (or ``python bench/run.py``).

For ledgers of about 10^4, 10^5 and 10^6 events (synthetic BB2025 leagues made by
``ledger.generate`` through the real commands, cached under .benchmarks/), it measures:

- the raw floor: the same stored rows read from SQLite and JSON-decoded, nothing else;
- the library's read and decode of the same events;
- a full rebuild of every read model, in events per second, and its ratio to the floor;
- the CPU and peak memory of the rebuild (in a child process, so they are the rebuild's
  alone): the CPU of every process it starts, and the peak of the largest;
- the latency of recording one match report (p50, p99) into the ledger, against a ledger
  of just the drafted teams;
- the time of the queries (roster, standings, leaders, treasury, history).

The figures and the machine are printed as Markdown, ready for docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import orjson

from ledger.application.commands import ClosePostGame, RecordMatch
from ledger.application.reports import parse_report
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.state import PlayerRow, TeamRow
from ledger.generate import Spec, generate
from ledger.projections.logfold import few_collections
from ledger.projections.queries import Queries
from ledger.rules import find_ruleset

CACHE = Path(__file__).resolve().parents[1] / ".benchmarks"
"""The cached ledgers: this checkout's, wherever the benchmark is run from (a git worktree's
links its own to the main checkout's: ``bench/ab.py``)."""
# The leagues of each ledger, generated in this order (about 40 events per team-season).
# The largest holds two leagues, as a site hosting several would: one of 1,000 teams
# (about 800,000 events) and one of 300 (about 240,000).
SIZES = {
    10_000: (Spec(teams=64, seasons=3, seed=1, division_size=16, slug="bench"),),
    100_000: (Spec(teams=200, seasons=10, seed=1, division_size=16, slug="bench"),),
    1_000_000: (
        Spec(teams=1000, seasons=20, seed=1, division_size=16, slug="bench"),
        Spec(teams=300, seasons=20, seed=2, division_size=16, slug="bench-2"),
    ),
}


TIMED_LEAGUE = "bench"  # the (largest) league whose commands and queries are timed

SHARED = {
    "2 x 800": tuple(
        Spec(teams=16, seasons=1, seed=s, division_size=16, slug=f"l{s}") for s in (1, 2)
    ),
    "2 x 2,000": tuple(
        Spec(teams=16, seasons=3, seed=s, division_size=16, slug=f"l{s}") for s in (1, 2)
    ),
    "2 x 4,000": tuple(
        Spec(teams=32, seasons=3, seed=s, division_size=16, slug=f"l{s}") for s in (1, 2)
    ),
    "2 x 8,000": tuple(
        Spec(teams=64, seasons=3, seed=s, division_size=16, slug=f"l{s}") for s in (1, 2)
    ),
    "8 x 1,000": tuple(
        Spec(teams=16, seasons=3, seed=s, division_size=8, slug=f"s{s}") for s in range(1, 9)
    ),
}
"""Ledgers of several leagues (about that many events each), to find where folding them
in parallel processes starts to pay (``--break-even``): the last is a site of many small
leagues."""


def ledger_of(size: int) -> Path:
    """The cached ledger for this size, generated on first use."""
    return generated(CACHE / f"ledger-{size}.db", SIZES[size])


def generated(path: Path, specs: tuple[Spec, ...]) -> Path:
    if not path.exists():
        CACHE.mkdir(exist_ok=True)
        partial = path.with_suffix(".partial.db")
        for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
            leftover.unlink(missing_ok=True)
        ledger = open_ledger(Settings(sqlite_path=partial))
        for spec in specs:
            started = time.perf_counter()
            summary = generate(ledger, spec)
            print(
                f"  generated {spec.slug}: {summary.events:,} events ({summary.matches:,}"
                f" games) in {time.perf_counter() - started:.0f} s",
                file=sys.stderr,
            )
        close_ledger(ledger)
        checkpoint(partial)
        partial.rename(path)
    return path


def checkpoint(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def best_of(runs: int, action: Callable[[], Any]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def raw_floor(path: Path, decoder: Callable[[bytes], Any]) -> tuple[int, float]:
    def read() -> int:
        with sqlite3.connect(path) as db:
            cursor = db.execute("SELECT state FROM stored_events ORDER BY rowid")
            count = 0
            while rows := cursor.fetchmany(5000):
                for (state,) in rows:
                    decoder(state)
                count += len(rows)
            return count

    count = read()
    return count, best_of(3 if count < 500_000 else 1, read)


def library_decode(ledger: LeagueLedger) -> float:
    """Reading and decoding every event as the rebuild does: with the collector run
    rarely (``few_collections``). With the default thresholds the collector walks each
    page of 5,000 decoded events again and again, and decoding takes 2.7 times as long."""

    def read() -> None:
        after = 0
        with few_collections():
            while page := ledger.source.page(after, 5000):
                after = page[-1][0]

    return best_of(1, read)


REBUILD = """
import json, os, resource, sys, time
from pathlib import Path
from ledger.bootstrap import Settings, open_ledger
from ledger.projections import parallel

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

if __name__ == "__main__":
    sys.path.insert(0, sys.argv[4])  # bench/, for the line processes' figures and peaks
    # VmHWM, not ru_maxrss, for this process too: Linux keeps in ru_maxrss the size of
    # the process it was forked from (this benchmark, large by now) when it starts a new
    # program.
    from processes import ProcessCpu, peak_memory
    ledger = open_ledger(Settings(sqlite_path=Path(sys.argv[1])))
    ledger.read_models.processes = int(sys.argv[2]) or None
    if sys.argv[3] != "-":  # every league its own process: no minimum, no head start
        parallel.BREAK_EVEN, parallel.HEAD_START = int(sys.argv[3]), 0
    sampler = ProcessCpu()
    sampler.start()
    started, before = time.perf_counter(), cpu()
    stats = ledger.read_models.rebuild(ledger.source)
    seconds, used = time.perf_counter() - started, cpu() - before
    # The workers report their own figures; a line process reports nothing back, so its
    # are sampled from /proc (bench/processes.py).
    seen = sampler.stop()
    lines = [seen[pid] for pid, role in sampler.roles.items() if role == "line process"]
    peaks = [peak_memory(os.getpid())]
    peaks += [worker.peak for worker in stats.workers] + [line.peak for line in lines]
    print(json.dumps({
        "events": stats.events, "seconds": seconds, "peak": max(peaks),
        "cpu": used + sum(w.cpu for w in stats.workers) + sum(line.total for line in lines),
        "cpu_here": used, "cpu_workers": max([w.cpu for w in stats.workers], default=0),
        "processes": len(stats.workers) or 1,
    }))
"""


def rebuild_in_child(
    path: Path, processes: int = 0, break_even: int | None = None
) -> dict[str, float]:
    """Rebuild in a child process: its wall time, the CPU time of the rebuild (the
    workers' and the line process's whole lives included, when it started them), and the
    peak memory of the largest process. ``processes``: 0 lets the rebuild choose, 1 keeps
    it serial; ``break_even`` replaces parallel.BREAK_EVEN (and no share gets a head start)."""
    opened = "import sys; from pathlib import Path; from ledger.bootstrap import *;"
    opened += " open_ledger(Settings(sqlite_path=Path(sys.argv[1])))"
    # Opened once before, in a process of its own: read models written by another version
    # of the code are rebuilt on open, and that rebuild's memory is not the one measured.
    subprocess.run([sys.executable, "-c", opened, str(path)], check=True, capture_output=True)
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "rebuild.py"  # a file: the workers import its main safely
        script.write_text(REBUILD)
        args = [str(path), str(processes), "-" if break_even is None else str(break_even)]
        args.append(str(Path(__file__).resolve().parent))
        done = subprocess.run(
            [sys.executable, str(script), *args], capture_output=True, text=True, check=True
        )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def free_pair(ledger: LeagueLedger, league: str, rng: random.Random) -> tuple[str, str]:
    view = ledger.view()
    teams = [
        t
        for t in view.select(TeamRow, league_id=ledger.league_row(league).league_id)
        if not t.open_games
    ]
    first, second = rng.sample(teams, 2)
    return first.team_id, second.team_id


def friendly(ledger: LeagueLedger, league: str, home: str, away: str, n: int) -> Any:
    view = ledger.view()
    league_id = ledger.league_row(league).league_id
    sides = {}
    for team in (home, away):
        players = [
            p
            for p in view.select(PlayerRow, league_id=league_id, team_id=team)
            if p.status == "active" and not p.miss_next_game
        ][:11]
        sides[team] = {
            "team": team,
            "players": [
                {"player": p.player_id, "td": 1 if i == 0 else 0, "mvp": 1 if i == 1 else 0}
                for i, p in enumerate(players)
            ],
        }
    return parse_report(
        json.dumps(
            {"match": f"bench-{n}", "kind": "friendly", "home": sides[home], "away": sides[away]}
        )
    )


def latency(path: Path, samples: int, cpu: list[float] | None = None) -> list[float]:
    """Record ``samples`` friendlies into a copy of the ledger, timing each command (wall
    time; its CPU time too, into ``cpu``, which a busy machine disturbs less)."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "copy.db"
        shutil.copy(path, copy)
        # The copy's pages are written back now, not by the first commit that checkpoints
        # the WAL: its fsync would flush the whole copy (at 10^6 events, 4 GB: 0.8 s).
        with copy.open("rb+") as written:
            os.fsync(written.fileno())
        return timed_records(Settings(sqlite_path=copy), samples, cpu)


def timed_records(settings: Settings, samples: int, cpu: list[float] | None = None) -> list[float]:
    """Record ``samples`` friendlies into the ledger of ``settings``, timing each."""
    ledger = open_ledger(settings)
    rng = random.Random(7)
    league = TIMED_LEAGUE
    times = []
    for n in range(samples):
        home, away = free_pair(ledger, league, rng)
        report = friendly(ledger, league, home, away, n)
        started, used = time.perf_counter(), time.process_time()
        ledger.handle(RecordMatch(league, report, roll_missing=True), by="bench")
        times.append(time.perf_counter() - started)
        if cpu is not None:
            cpu.append(time.process_time() - used)
        for team in (home, away):
            ledger.handle(ClosePostGame(league, f"bench-{n}", team, roll_missing=True), by="bench")
    close_ledger(ledger)
    return times


def latency_on_postgres(samples: int, cpu: list[float]) -> list[float]:
    """``latency`` on PostgreSQL: the small league generated into a fresh database (of a
    private cluster, or of the server ``LEDGER_DATABASE_URL`` names: bench/serve.py's)."""
    from serve import Config, store  # bench/: a fresh PostgreSQL database for one run

    with tempfile.TemporaryDirectory() as folder, store(Config("postgres", 1), Path(folder)) as at:
        ledger = open_ledger(at)
        generate(ledger, SMALL)
        close_ledger(ledger)
        return timed_records(at, samples, cpu)


def record_only(sizes: list[int], samples: int, postgres: bool = False) -> str:
    """Only the recording of a match, for each size and the small ledger (``--record-only``),
    and the small league on PostgreSQL (``--postgres``)."""
    lines = [
        f"Machine: {machine()}; load average {os.getloadavg()[0]:.2f} at the start",
        "",
        "| ledger | record p50 | record p99 | record CPU p50 | record CPU p99 |",
        "|---|---:|---:|---:|---:|",
    ]
    named = [(f"~{size:,} events", ledger_of(size)) for size in sizes]
    runs: list[tuple[str, Callable[[list[float]], list[float]]]] = [
        (name, partial(latency, path, samples))
        for name, path in [*named, ("8 teams drafted (~200 events)", small_ledger())]
    ]
    if postgres:
        runs.append(("8 teams drafted, PostgreSQL", partial(latency_on_postgres, samples)))
    for name, run in runs:
        cpu: list[float] = []
        wall = run(cpu)
        lines.append(
            f"| {name} | {percentile(wall, 0.5) * 1000:.1f} ms |"
            f" {percentile(wall, 0.99) * 1000:.1f} ms | {percentile(cpu, 0.5) * 1000:.1f} ms |"
            f" {percentile(cpu, 0.99) * 1000:.1f} ms |"
        )
    return "\n".join(lines)


SMALL = Spec(teams=8, seasons=1, seed=2, division_size=8, slug="bench")
"""The small league: 8 teams drafted, about 200 events."""


def small_ledger() -> Path:
    path = CACHE / "ledger-drafted.db"
    if not path.exists():
        ledger = open_ledger(Settings(sqlite_path=path))
        generate(ledger, SMALL)
        close_ledger(ledger)
        checkpoint(path)
    return path


def query_times(path: Path) -> dict[str, float]:
    ledger = open_ledger(Settings(sqlite_path=path))
    row = ledger.league_row(TIMED_LEAGUE)
    ruleset = find_ruleset(row.ruleset, row.options)

    def fresh() -> Queries:  # a new one each time: its cache would answer a second ask
        return Queries(ledger.read_models.engine, row, ruleset)

    team = fresh().teams()[0].team_id
    player = fresh().roster(team).players[0].player_id
    found = {
        "roster": best_of(3, lambda: fresh().roster(team)),
        "standings": best_of(3, lambda: fresh().standings()),
        "leaders (SPP)": best_of(3, lambda: fresh().leaders("spp")),
        "treasury": best_of(3, lambda: fresh().treasury(team)),
        "history (player)": best_of(3, lambda: fresh().history(f"player:{player}")),
        "history (team)": best_of(3, lambda: fresh().history(f"team:{team}")),
    }
    close_ledger(ledger)
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        model = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        )
    except (OSError, StopIteration):
        model = cpu
    return (
        f"{model}, {os.cpu_count()} cores; Python {platform.python_version()};"
        f" SQLite {sqlite3.sqlite_version}; {platform.system()} {platform.release()}"
    )


def measure(size: int, samples: int) -> dict[str, Any]:
    path = ledger_of(size)
    count, raw_json = raw_floor(path, json.loads)
    _, raw_orjson = raw_floor(path, orjson.loads)
    ledger = open_ledger(Settings(sqlite_path=path))
    decode = library_decode(ledger)
    close_ledger(ledger)
    rebuild = rebuild_in_child(path)
    times = latency(path, samples)
    return {
        "size": size,
        "events": count,
        "raw_json": count / raw_json,
        "raw_orjson": count / raw_orjson,
        "decode": count / decode,
        "rebuild": rebuild["events"] / rebuild["seconds"],
        "rebuild_seconds": rebuild["seconds"],
        "rebuild_cpu": rebuild["cpu"],
        "peak_mib": rebuild["peak"] / 2**20,
        "p50_ms": percentile(times, 0.5) * 1000,
        "p99_ms": percentile(times, 0.99) * 1000,
        "queries": query_times(path),
    }


def break_even() -> str:
    """Each ledger of several leagues rebuilt serially and in two processes (whatever
    parallel.BREAK_EVEN says), each in a child process of its own. On a busy machine the
    wall times mislead; the CPU of the rebuilding process and of the busiest worker show
    what each core had to do (a worker's includes its start, not the forkserver's)."""
    lines = [
        f"Machine: {machine()}; load average {os.getloadavg()[0]:.2f} at the start",
        "",
        "| leagues | events | serial wall | serial CPU | parallel wall | parallel CPU |"
        " of which the rebuilding process / the busiest worker | wall saved | serial peak |"
        " largest process's peak |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, specs in SHARED.items():
        slug = name.replace(" ", "").replace(",", "")
        path = generated(CACHE / f"shared-{slug}.db", specs)
        serial = rebuild_in_child(path, processes=1)
        shared = rebuild_in_child(path, processes=2, break_even=0)
        lines.append(
            f"| {name} | {serial['events']:,} | {serial['seconds']:.2f} s | {serial['cpu']:.2f} s |"
            f" {shared['seconds']:.2f} s | {shared['cpu']:.2f} s |"
            f" {shared['cpu_here']:.2f} s / {shared['cpu_workers']:.2f} s |"
            f" {serial['seconds'] - shared['seconds']:+.2f} s |"
            f" {serial['peak'] / 2**20:.0f} MiB | {shared['peak'] / 2**20:.0f} MiB |"
        )
    return "\n".join(lines)


def report(results: list[dict[str, Any]], empty: list[float]) -> str:
    lines = [
        f"Machine: {machine()}",
        "",
        "| events | raw floor (json) | raw floor (orjson) | library decode | rebuild |"
        " rebuild / floor (json) | rebuild time | rebuild CPU | peak memory | record p50 |"
        " record p99 |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r['events']:,} | {r['raw_json']:,.0f}/s | {r['raw_orjson']:,.0f}/s |"
            f" {r['decode']:,.0f}/s | {r['rebuild']:,.0f}/s | {r['rebuild'] / r['raw_json']:.3f} |"
            f" {r['rebuild_seconds']:.1f} s | {r['rebuild_cpu']:.1f} s | {r['peak_mib']:.0f} MiB |"
            f" {r['p50_ms']:.1f} ms | {r['p99_ms']:.1f} ms |"
        )
    lines += [
        "",
        "Recording into a small ledger (8 teams, one season, about 200 events): p50"
        f" {percentile(empty, 0.5) * 1000:.1f} ms, p99 {percentile(empty, 0.99) * 1000:.1f} ms.",
        "",
        "| query | " + " | ".join(f"{r['events']:,} events" for r in results) + " |",
        "|---|" + "---:|" * len(results),
    ]
    for name in results[0]["queries"]:
        lines.append(
            f"| {name} | "
            + " | ".join(f"{r['queries'][name] * 1000:.1f} ms" for r in results)
            + " |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="10000,100000,1000000", help="comma-separated: 10000, 100000, 1000000"
    )
    parser.add_argument("--samples", type=int, default=100, help="match reports timed")
    parser.add_argument(
        "--record-only", action="store_true", help="time only the recording of a match"
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="with --record-only: the small league on PostgreSQL too (a private cluster)",
    )
    parser.add_argument(
        "--break-even",
        action="store_true",
        help="only the rebuild of ledgers of several leagues, serial against parallel",
    )
    args = parser.parse_args()
    if args.break_even:
        print(break_even())
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.record_only:
        print(record_only(sizes, args.samples, args.postgres))
        return
    results = []
    for size in sizes:
        print(f"measuring a ledger of ~{size:,} events", file=sys.stderr)
        results.append(measure(size, args.samples))
    empty = latency(small_ledger(), args.samples)
    print(report(results, empty))


if __name__ == "__main__":
    main()
