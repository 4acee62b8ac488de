"""A rebuild's scratch folder is named for its process, and the next rebuild sweeps away
the folders of rebuilds whose process is gone: a rebuild killed by a signal skips its
cleanup, and at 10^6 events it leaves gigabytes beside the database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ledger.application.service import LeagueLedger
from ledger.projections.writing import SCRATCH_PREFIX, scratch, scratch_folder
from tests.support import two_team_league


def ended_process() -> int:
    """The number of a process that has ended."""
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


def left_behind(folder: Path, name: str) -> Path:
    made = folder / name
    made.mkdir()
    (made / "share-0.db").write_bytes(b"\0" * 1024)
    return made


def test_a_rebuild_sweeps_the_folders_of_rebuilds_whose_process_is_gone(
    sqlite_ledger: LeagueLedger,
) -> None:
    two_team_league(sqlite_ledger, "north")
    where = scratch(sqlite_ledger.read_models.engine)
    assert where is not None  # beside the database
    folder = Path(where)
    killed = left_behind(folder, f"{SCRATCH_PREFIX}{ended_process()}-k1ll3d")
    running = left_behind(folder, f"{SCRATCH_PREFIX}{os.getpid()}-runn1ng")
    older = left_behind(folder, f"{SCRATCH_PREFIX}abcd_123")  # an older version's name

    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)

    assert not killed.exists()
    assert running.exists()
    assert older.exists()
    assert sorted(folder.glob(f"{SCRATCH_PREFIX}*")) == sorted([running, older])


def test_a_scratch_folder_is_named_for_its_process(sqlite_ledger: LeagueLedger) -> None:
    with scratch_folder(sqlite_ledger.read_models.engine) as made:
        assert Path(made).name.startswith(f"{SCRATCH_PREFIX}{os.getpid()}-")
    assert not Path(made).exists()
