"""A rebuild holds its scratch folder (a locked file in it) while it runs, and the next
rebuild sweeps away the folders no rebuild holds: a rebuild killed by a signal skips its
cleanup, and at 10^6 events it leaves gigabytes beside the database."""

from __future__ import annotations

import fcntl
import subprocess
import sys
from pathlib import Path

from ledger.application.service import LeagueLedger
from ledger.projections.writing import HELD, SCRATCH_PREFIX, scratch, scratch_folder
from tests.support import two_team_league


def left_behind(folder: Path, name: str, held: bool = True) -> Path:
    made = folder / name
    made.mkdir()
    (made / "share-0.db").write_bytes(b"\0" * 1024)
    if held:
        (made / HELD).touch()
    return made


def test_a_rebuild_sweeps_the_folders_no_rebuild_holds(sqlite_ledger: LeagueLedger) -> None:
    two_team_league(sqlite_ledger, "north")
    where = scratch(sqlite_ledger.read_models.engine)
    assert where is not None  # beside the database
    folder = Path(where)
    killed = left_behind(folder, f"{SCRATCH_PREFIX}k1ll3d")  # its lock went with its process
    running = left_behind(folder, f"{SCRATCH_PREFIX}runn1ng")
    older = left_behind(folder, f"{SCRATCH_PREFIX}abcd_123", held=False)  # older version's

    with open(running / HELD) as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another rebuild, still at work
        sqlite_ledger.read_models.rebuild(sqlite_ledger.source)

    assert not killed.exists()
    assert running.exists()
    assert older.exists()
    assert sorted(folder.glob(f"{SCRATCH_PREFIX}*")) == sorted([running, older])


def test_a_scratch_folder_is_held_while_its_rebuild_runs(sqlite_ledger: LeagueLedger) -> None:
    """Another process (another container sharing the folder, say) finds it held."""
    probe = "import fcntl, sys; fcntl.flock(open(sys.argv[1]), fcntl.LOCK_EX | fcntl.LOCK_NB)"
    with scratch_folder(sqlite_ledger.read_models.engine) as made:
        lock = Path(made) / HELD
        held = subprocess.run([sys.executable, "-c", probe, str(lock)], check=False)
        assert held.returncode != 0  # BlockingIOError: held
    assert not Path(made).exists()
