"""Two versions of the ledger's code timed against each other, run after run.

    python bench/ab.py BASE [OTHER] [--measure MEASURE] [--size N] [--pairs K]

On this shared 2-core machine the same fold's time drifts by 10-35% within an hour, more
than most changes made for speed gain or lose (docs/performance.md). A single run of each
version decides nothing; so this runs the two versions alternately, each run in a process
of its own, the first of each pair switching sides (A B, B A, A B...) so that a steady
drift adds to both alike, and reads the figures as pairs: the mean of the differences, an
interval for it, and how many pairs the other version won.

BASE and OTHER are commits; OTHER left out is this checkout as it stands, uncommitted
changes included. Each commit is checked out in a git worktree of its own for the
comparison (removed after it), which shares this checkout's ``.benchmarks/`` (the cached
ledgers); each run imports the ledger's code from its own checkout (on ``PYTHONPATH``:
the editable install would import this one's), which is checked before the first run.

What is measured (each version's own bench/ scripts run it, so both must have them):

- ``fold`` (the default): the CPU of a serial rebuild's fold of the ``bench/run.py``
  ledger of SIZE events, its lines sent to the line process (``bench/lines.py --mode
  sent``): what most changes to the fold's code change;
- ``fold-alone``: the same fold making no lines (``--mode none``);
- ``rebuild``: the wall time of a whole rebuild, its tail included (``bench/phases.py``);
- ``instructions``: the instructions of the fold (``bench/instructions.py --rebuild``,
  under valgrind): the same on every run, so one pair tells (``--pairs 1``), but blind
  to what memory costs; about a minute a run at ``--size 10000``;
- ``record``: the median wall time of recording a match into a copy of that ledger
  (``bench/run.py --record-only``, 100 friendlies): what a change to the command path
  changes;
- ``record-postgres``: the same into the small league on PostgreSQL (``--postgres``, from
  the commit that added it on: both sides' ``bench/run.py`` must have it).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WALL = re.compile(r"^rebuild of [\d,]+ events.*: ([\d.]+) s wall", re.MULTILINE)
T_975 = (12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.20, 2.18, 2.16, 2.14)
"""Student's t at 97.5% for 1 to 14 degrees of freedom (a 95% interval); 2.0 beyond."""


COUNT = re.compile(r"([\d,.]+) M instructions in its fold")
RECORD = re.compile(r"^\| ~[\d,]+ events \| ([\d.]+) ms", re.MULTILINE)
RECORD_POSTGRES = re.compile(r"^\| 8 teams drafted, PostgreSQL \| ([\d.]+) ms", re.MULTILINE)


@dataclass(frozen=True)
class Measure:
    script: str
    arguments: Callable[[int], list[str]]
    """The script's arguments for a ledger of so many events."""
    unit: str
    read: Callable[[str], float]


def last_figure(output: str) -> float:
    return float(output.split()[-1])


def found(pattern: re.Pattern[str], output: str) -> float:
    match = pattern.search(output)
    if match is None:
        raise SystemExit(f"ab: no figure in the benchmark's output:\n{output}")
    return float(match.group(1).replace(",", ""))


MEASURES = {
    "fold": Measure(
        "lines.py", lambda size: ["--mode", "sent", "--size", str(size)], "s of CPU", last_figure
    ),
    "fold-alone": Measure(
        "lines.py", lambda size: ["--mode", "none", "--size", str(size)], "s of CPU", last_figure
    ),
    "rebuild": Measure(
        "phases.py", lambda size: ["--size", str(size)], "s wall", lambda out: found(WALL, out)
    ),
    "instructions": Measure(
        "instructions.py",
        lambda size: ["--rebuild", str(size)],
        "M instructions",
        lambda out: found(COUNT, out),
    ),
    "record": Measure(
        "run.py",
        lambda size: ["--record-only", "--sizes", str(size), "--samples", "100"],
        "ms p50 wall",
        lambda out: found(RECORD, out),
    ),
    "record-postgres": Measure(
        "run.py",
        lambda size: ["--record-only", "--sizes", str(size), "--samples", "100", "--postgres"],
        "ms p50 wall",
        lambda out: found(RECORD_POSTGRES, out),
    ),
}


@dataclass(frozen=True)
class Side:
    name: str
    checkout: Path

    def run(self, measure: Measure, size: int) -> float:
        script = self.checkout / "bench" / measure.script
        command = [sys.executable, str(script), *measure.arguments(size)]
        return measure.read(self.output(command))

    def output(self, command: list[str]) -> str:
        """What ``command`` prints, run in this side's checkout with its code first (in it,
        so that a benchmark that finds its cached ledgers from where it runs, as
        ``bench/run.py`` did before the thirty-first session, finds the shared ones)."""
        env = {**os.environ, "PYTHONPATH": str(self.checkout)}
        done = subprocess.run(command, cwd=self.checkout, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"ab: {self.name} failed ({' '.join(command)}):\n{done.stderr}")
        return done.stdout

    def prepare(self) -> None:
        """Compile the checkout's modules, so that no run pays for it (a fresh worktree has
        no ``__pycache__``, and a fold imports some modules inside its timing), and stop
        unless this side's runs import the ledger from its own checkout."""
        folders = [str(self.checkout / name) for name in ("ledger", "bench")]
        self.output([sys.executable, "-m", "compileall", "-q", *folders])
        command = [sys.executable, "-c", "import ledger; print(ledger.__file__)"]
        imported = Path(self.output(command).strip()).resolve()
        if not imported.is_relative_to(self.checkout.resolve()):
            raise SystemExit(f"ab: {self.name} would import {imported}, not its own code")


@contextmanager
def checkout_of(commit: str) -> Iterator[Path]:
    """A git worktree of ``commit``, sharing this checkout's cached ledgers; removed after."""
    with tempfile.TemporaryDirectory(prefix="ab-") as parent:
        tree = Path(parent) / "tree"
        git("worktree", "add", "--detach", "--quiet", str(tree), commit)
        try:
            shared = ROOT / ".benchmarks"
            shared.mkdir(exist_ok=True)  # a link to nothing would stop the ledgers' making
            (tree / ".benchmarks").symlink_to(shared)
            yield tree
        finally:
            git("worktree", "remove", "--force", str(tree))


def git(*arguments: str) -> None:
    done = subprocess.run(["git", "-C", str(ROOT), *arguments], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"ab: git {' '.join(arguments)}: {done.stderr.strip()}")


def interval(differences: list[float]) -> float:
    """The half-width of a 95% interval for the mean of ``differences`` (Student's t)."""
    if len(differences) < 2:
        return float("nan")
    t = T_975[len(differences) - 2] if len(differences) - 1 <= len(T_975) else 2.0
    return t * statistics.stdev(differences) / math.sqrt(len(differences))


def compare(base: Side, other: Side, measure: Measure, size: int, pairs: int) -> None:
    figures: dict[Side, list[float]] = {base: [], other: []}  # two checkouts: two sides
    for side in (base, other):
        side.prepare()
    for number in range(pairs):
        order = (base, other) if number % 2 == 0 else (other, base)
        for side in order:
            figures[side].append(side.run(measure, size))
        print(
            f"pair {number + 1:2d} ({order[0].name} first):"
            f" {base.name} {figures[base][-1]:.2f}"
            f" | {other.name} {figures[other][-1]:.2f} {measure.unit}",
            flush=True,
        )
    report(base.name, figures[base], other.name, figures[other], measure.unit)


def report(base: str, old: list[float], other: str, new: list[float], unit: str) -> None:
    differences = [n - o for o, n in zip(old, new, strict=True)]
    mean_old, change = statistics.mean(old), statistics.mean(differences)
    won = sum(1 for d in differences if d < 0)
    for name, values in ((base, old), (other, new)):
        print(
            f"{name}: mean {statistics.mean(values):.2f}, median {statistics.median(values):.2f},"
            f" best {min(values):.2f} {unit}"
        )
    print(
        f"{other} - {base}: {change:+.2f} {unit} ({change / mean_old:+.1%}),"
        f" 95% interval ±{interval(differences):.2f}; {other} faster in {won} of"
        f" {len(differences)} pairs"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the commit to compare with")
    parser.add_argument("other", nargs="?", help="another commit (else this checkout)")
    parser.add_argument("--measure", choices=sorted(MEASURES), default="fold")
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--pairs", type=int, default=6)
    arguments = parser.parse_args()
    if arguments.pairs < 1:
        parser.error("--pairs must be at least 1")
    with ExitStack() as stack:
        base = Side(arguments.base, stack.enter_context(checkout_of(arguments.base)))
        other = (
            Side(arguments.other, stack.enter_context(checkout_of(arguments.other)))
            if arguments.other
            else Side("this checkout", ROOT)
        )
        measure = MEASURES[arguments.measure]
        compare(base, other, measure, arguments.size, arguments.pairs)


if __name__ == "__main__":
    main()
