"""kill -9 in the middle of a command never leaves a partial log (issue 11's crash test).

A league plays match after match through the real ``ledger`` command line (``match
record``, ``match close``), each command run in a forked process that is killed with
SIGKILL after a random delay within its running time; then a fresh ledger is exported
and ``ledger import``-ed, and the league ``ledger rebuild``-t, under the same kills.
After every kill: the command's events are all stored or none (the event count is the
one before or the one an uninterrupted run reaches), the hash chain verifies, and the
next command works; at the end the read models equal a rebuild and the log holds what
an uninterrupted run of the same commands holds.

Forking from this process (which has the ledger imported) rather than starting
``ledger`` afresh makes a kill cost milliseconds instead of the import time, so that
enough of them fit in the time CI allows.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import sys
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml

from cli.main import main
from ledger.application.audit import verify_chain
from ledger.application.transfer import export_lines
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.log import league_id
from ledger.projections.sql import ALL_TABLES, POSITION
from tests.support import create_league, draft_team

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork"),
]

MID_COMMAND_KILLS = 50
KILLS_PER_STEP = 3
MAX_MATCHES = 30
SQL_KILLS = 6
"""Kills each of import and rebuild take."""

SLUG = "test"
ELEVEN = 11


@dataclass
class Kills:
    rng: random.Random = field(default_factory=lambda: random.Random(11))
    mid_command: int = 0
    after_exit: int = 0

    def kill(self, args: list[str], cwd: Path, duration: float) -> None:
        """Runs ``ledger ARGS`` and SIGKILLs it at a random moment of its usual run."""
        pid = fork_cli(args, cwd)
        time.sleep(self.rng.uniform(0.02, 0.9) * duration)
        if os.waitpid(pid, os.WNOHANG) == (0, 0):
            self.mid_command += 1
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        else:
            self.after_exit += 1


def fork_cli(args: list[str], cwd: Path) -> int:
    """``ledger ARGS`` in a forked child: this process has everything imported already."""
    pid = os.fork()
    if pid == 0:  # the child: run the command and leave without any of pytest's cleanup
        code = 70
        try:
            os.chdir(cwd)
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - open until _exit
            sys.stderr = open(cwd / "errors.log", "a")  # noqa: SIM115
            sys.argv = ["ledger", "--as", "crash", *args]
            main()
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    return pid


def run_cli(args: list[str], cwd: Path) -> tuple[int, float]:
    """``ledger ARGS`` to its end: its exit status and how long it took."""
    began = time.monotonic()
    _, status = os.waitpid(fork_cli(args, cwd), 0)
    return os.waitstatus_to_exitcode(status), time.monotonic() - began


def errors(folder: Path) -> str:
    found = folder / "errors.log"
    return found.read_text()[-2000:] if found.exists() else ""


def events(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM stored_events").fetchone()[0])


def chain_intact(db: Path) -> bool:
    ledger = open_ledger(Settings(sqlite_path=db, user="check"))
    try:
        return verify_chain(ledger.recorder, league_id(SLUG), SLUG).ok
    finally:
        close_ledger(ledger)


def read_models(db: Path, rebuild: bool = False) -> dict[str, list[tuple[Any, ...]]]:
    """Every read-model row (after a fresh rebuild when asked), in a stable order."""
    ledger = open_ledger(Settings(sqlite_path=db, user="check"))
    try:
        if rebuild:
            ledger.read_models.rebuild(ledger.source)
        with ledger.read_models.engine.connect() as conn:
            return {
                t.name: sorted((tuple(r) for r in conn.execute(sa.select(t))), key=repr)
                for t in [*ALL_TABLES, POSITION]
            }
    finally:
        close_ledger(ledger)


def game(number: int) -> dict[str, Any]:
    """A 1-0 home win with a casualty, scored by a different player each time (so that no
    one earns enough SPP to owe an advancement before the next game)."""
    home, away = ("reavers", "rats") if number % 2 else ("rats", "reavers")
    scorer = [{"player": f"{home} {number % ELEVEN + 1}", "td": 1}]
    return {
        "match": f"m{number}",
        "home": {"team": home, "players": scorer, "dice": {"fan_factor": 2, "dedicated_fans": 4}},
        "away": {"team": away, "players": [], "dice": {"fan_factor": 1, "dedicated_fans": 3}},
        "casualties": [
            {
                "victim": f"{away} {number % ELEVEN + 1}",
                "by": f"{home} {number % ELEVEN + 1}",
                "cause": "block",
                "outcome": "badly_hurt",
            }
        ],
    }


def steps(*folders: Path) -> Iterator[list[str]]:
    """Record and close match after match; the dice are given, so every run of a step
    stores the same number of events."""
    for number in range(1, MAX_MATCHES + 1):
        for folder in folders:
            (folder / f"m{number}.yaml").write_text(yaml.safe_dump(game(number)))
        yield ["match", "record", f"m{number}.yaml"]
        yield ["match", "close", f"m{number}", "--die", "expensive_mistakes=5"]  # averted, any band


def league(db: Path) -> None:
    ledger = open_ledger(Settings(sqlite_path=db, user="setup"))
    try:
        create_league(ledger, SLUG)
        draft_team(ledger, SLUG, "reavers", "human", ["lineman"] * ELEVEN)
        draft_team(ledger, SLUG, "rats", "skaven", ["clanrat"] * ELEVEN)
    finally:
        close_ledger(ledger)


def copy_ledger(source: Path, target: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", f"{target}{suffix}")


def crash_step(db: Path, args: list[str], kills: Kills, clean: tuple[int, float]) -> None:
    """Kill ``args`` a few times, check the log after each, then let it run to its end."""
    stores, duration = clean
    before = events(db)
    for _ in range(KILLS_PER_STEP):
        kills.kill(["--db", str(db), *args], db.parent, duration)
        after = events(db)
        assert after in (before, before + stores), f"{args}: a partial command was stored"
        assert chain_intact(db), f"{args}: the chain broke"
        if after == before + stores:
            return  # the killed run got to store it all: the step is done
    status, _ = run_cli(["--db", str(db), *args], db.parent)
    assert status == 0, f"{args} failed after its kills: {errors(db.parent)}"
    assert events(db) == before + stores


def test_kill_9_mid_command_never_leaves_a_partial_log(tmp_path: Path) -> None:
    kills = Kills()
    clean_db, crash_db = tmp_path / "clean" / "ledger.db", tmp_path / "crash" / "ledger.db"
    clean_db.parent.mkdir()
    crash_db.parent.mkdir()
    league(clean_db)
    copy_ledger(clean_db, crash_db)

    # record and close: each step first runs uninterrupted on the clean copy
    deadline = time.monotonic() + 70
    for args in steps(clean_db.parent, crash_db.parent):
        before = events(clean_db)
        status, duration = run_cli(["--db", str(clean_db), *args], clean_db.parent)
        assert status == 0, f"{args} failed without any kill: {errors(clean_db.parent)}"
        crash_step(crash_db, args, kills, (events(clean_db) - before, duration))
        if kills.mid_command >= MID_COMMAND_KILLS - 2 * SQL_KILLS or time.monotonic() > deadline:
            break
    assert events(crash_db) == events(clean_db)
    assert read_models(crash_db) == read_models(crash_db, rebuild=True)

    crash_imports(tmp_path, clean_db, kills)
    crash_rebuilds(crash_db, kills)
    assert kills.mid_command >= MID_COMMAND_KILLS, f"only {kills.mid_command} kills mid-command"


def crash_imports(tmp_path: Path, clean_db: Path, kills: Kills) -> None:
    """An import stores the whole league or nothing; a second import finishes the job."""
    exported = tmp_path / "league.jsonl"
    ledger = open_ledger(Settings(sqlite_path=clean_db, user="export"))
    try:
        exported.write_bytes(b"".join(export_lines(ledger.recorder, SLUG)))
    finally:
        close_ledger(ledger)
    total = events(clean_db)
    _, duration = run_cli(["--db", str(tmp_path / "timing.db"), "import", str(exported)], tmp_path)
    for attempt in attempts(kills):
        db = tmp_path / f"import{attempt}" / "ledger.db"
        db.parent.mkdir()
        kills.kill(["--db", str(db), "import", str(exported)], tmp_path, duration)
        stored = events(db) if db.exists() and has_log(db) else 0
        assert stored in (0, total), f"a killed import stored {stored} of {total} events"
        if stored == 0:
            status, _ = run_cli(["--db", str(db), "import", str(exported)], tmp_path)
            assert status == 0, f"import failed after a killed one: {errors(tmp_path)}"
        assert events(db) == total
        assert chain_intact(db)


def attempts(kills: Kills) -> Iterator[int]:
    """Numbers attempts until SQL_KILLS of them were killed mid-command (or too many
    ran out first)."""
    target = kills.mid_command + SQL_KILLS
    for attempt in range(3 * SQL_KILLS):
        if kills.mid_command >= target:
            return
        yield attempt


def has_log(db: Path) -> bool:
    with sqlite3.connect(db) as conn:
        found = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'stored_events'"
        ).fetchone()
    return found is not None


def crash_rebuilds(db: Path, kills: Kills) -> None:
    """A killed rebuild leaves the read models as they were, or rebuilt; never half."""
    expected = read_models(db)
    _, duration = run_cli(["--db", str(db), "rebuild"], db.parent)
    for _ in attempts(kills):
        kills.kill(["--db", str(db), "rebuild"], db.parent, duration)
        assert read_models(db) == expected
        status, _ = run_cli(["--db", str(db), "standings"], db.parent)
        assert status == 0, f"the next command failed after a killed rebuild: {errors(db.parent)}"
