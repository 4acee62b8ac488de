"""What a rebuild's lines cost the process that folds: the fold of the ``bench/run.py``
ledger, timed with each of the sinks its lines may go to.

    python bench/lines.py [--size N] [--rounds R]

A rebuild's fold makes about nine lines an event (a player's game, a treasury movement,
a team's history, each event's history line and its references) and hands them to the
line process (ledger/projections/linefile.py), which writes them on the other core. At
10^6 events that adds 21-23 s to the rebuilding process's fold. This says where:

- ``none``: no line made (``Fold.keeps_lines`` off), the fold alone;
- ``dropped``: every line made as its row, and dropped by the sink;
- ``batched``: the rows kept in batches (``LineRows``), each batch let go when full;
- ``sent``: the batches sent to the line process, as a rebuild does: each event's
  history as a note, whose rows the line process makes (ledger/projections/history.py),
  and each report's play with it, which the line process counts (plays.py);
- ``history-here``: as ``sent``, each event's history line and references made by the
  fold, and each report's play counted by it (as before the notes, and as the modes
  above make them);
- ``no-history``: as ``dropped``, without each event's history line and references
  (``Fold.emit_refs``).

Each mode folds in a process of its own (``Fold``'s switches are class attributes), the
modes alternated round after round; the figure is that process's CPU in the fold. The
settled records go to the line process in every mode, as in a rebuild.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from instructions import as_rebuilt, fold_rebuild  # bench/: a rebuild's store and fold
from run import ledger_of  # bench/: the cached ledgers of bench/run.py

from ledger.projections.fold import Fold
from ledger.projections.parallel import LineProcess
from ledger.projections.settled import LineRows, SettledFile
from ledger.projections.store import MemoryStore

MODES = ("none", "dropped", "batched", "sent", "history-here", "no-history")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--mode", choices=MODES, help=argparse.SUPPRESS)  # one fold, inside
    arguments = parser.parse_args()
    if arguments.mode:
        print(f"{fold_with(arguments.mode, arguments.size):.2f}")
        return
    ledger_of(arguments.size)  # generated here, once, not inside a timed fold
    times: dict[str, list[str]] = {mode: [] for mode in MODES}
    for _ in range(arguments.rounds):
        for mode in MODES:
            times[mode].append(timed_apart(mode, arguments.size))
    print(f"the fold of the {arguments.size:,}-event ledger, CPU of the folding process:")
    for mode, found in times.items():
        print(f"  {mode:11} {' / '.join(found)} s")


def timed_apart(mode: str, size: int) -> str:
    command = [sys.executable, __file__, "--mode", mode, "--size", str(size)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1]


def fold_with(mode: str, size: int) -> float:
    """The CPU seconds of one fold of the ledger, its lines going as ``mode`` says."""
    if mode == "none":
        Fold.keeps_lines = False
    if mode == "no-history":
        Fold.emit_refs = lambda self, event, voided, stored=None: None  # type: ignore[method-assign]
    spent: list[float] = []

    def timed(fold: Callable[[], object]) -> None:
        started = time.process_time()
        fold()
        spent.append(time.process_time() - started)

    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "ledger.db"
        shutil.copy(ledger_of(size), copy)
        fold_rebuild(copy, run=timed, store_of=lambda *both: store_for(mode, *both))
    return spent[0]


def store_for(mode: str, process: LineProcess, settled: SettledFile) -> MemoryStore:
    """The fold's store, its lines going as ``mode`` says. Only ``sent`` (and ``none``,
    which makes no lines) sends notes, as a rebuild does; in the other modes the fold
    makes the history's rows and counts the play."""
    if mode in ("none", "sent"):
        return as_rebuilt(process, settled)
    if mode == "history-here":
        return MemoryStore(sink=process.add, settled=settled)
    if mode == "batched":
        rows = LineRows(lambda: rows.take())
        return MemoryStore(sink=rows.add, settled=settled)
    return MemoryStore(sink=lambda kind, row: None, settled=settled)  # dropped, no-history


if __name__ == "__main__":
    main()
