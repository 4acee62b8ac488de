"""Shell completion: ``ledger completion bash|zsh|fish`` prints click's script, and league,
team, player and match ids complete from the ledger, read-only and silent on any error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

LEDGER = str(Path(sys.executable).parent / "ledger")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("complete")
    done = subprocess.run(
        [LEDGER, "demo", "--dir", str(folder)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return folder / "demo.db"


def completions(line: str, **env: str) -> tuple[list[str], str]:
    """What bash would offer after ``line`` (a trailing space: a new, empty word)."""
    words = line.split()
    current = len(words) if line.endswith(" ") else len(words) - 1
    environment = {k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")}
    environment |= {"_LEDGER_COMPLETE": "bash_complete", "COMP_WORDS": line}
    environment |= {"COMP_CWORD": str(current), **env}
    done = subprocess.run(
        [LEDGER], capture_output=True, text=True, env=environment, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    offered = [item.split(",", 1)[1] for item in done.stdout.splitlines() if item]
    return offered, done.stderr


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_completion_script_of_each_shell(shell: str) -> None:
    done = subprocess.run([LEDGER, "completion", shell], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "_LEDGER_COMPLETE" in done.stdout
    assert f"{shell}_complete" in done.stdout


def test_an_unknown_shell_is_refused() -> None:
    done = subprocess.run([LEDGER, "completion", "tcsh"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "'tcsh' is not one of 'bash', 'zsh', 'fish'" in done.stderr


def test_team_ids_complete_from_the_ledger(demo: Path) -> None:
    offered, _ = completions(f"ledger --db {demo} roster ")
    assert offered == [
        "gouged-eye",
        "grudgebearers",
        "reikland-reavers",
        "skavenblight-scramblers",
    ]
    assert completions(f"ledger --db {demo} treasury g")[0] == ["gouged-eye", "grudgebearers"]


def test_league_match_player_and_history_refs_complete(demo: Path) -> None:
    assert completions(f"ledger --db {demo} --league ")[0] == ["demo"]
    matches, _ = completions(f"ledger --db {demo} match close r1-")
    assert matches
    assert all(m.startswith("r1-") for m in matches)
    players, _ = completions(f"ledger --db {demo} team fire skavenblight-scramblers ")
    assert "p1" in players
    refs, _ = completions(f"ledger --db {demo} history match:r2")
    assert refs
    assert all(r.startswith("match:r2-") for r in refs)


def test_the_ledger_named_by_the_environment(demo: Path) -> None:
    offered, _ = completions("ledger roster s", LEDGER_DB=str(demo))
    assert offered == ["skavenblight-scramblers"]


def test_no_ledger_or_a_broken_one_completes_nothing_and_says_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "none.db"
    assert completions(f"ledger --db {missing} roster ") == ([], "")
    assert not missing.exists()  # completion never creates a ledger
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"this is not a database" * 100)
    assert completions(f"ledger --db {broken} roster ") == ([], "")
    assert broken.read_bytes() == b"this is not a database" * 100
    other = completions("ledger roster ", LEDGER_DATABASE_URL="mysql://nowhere/db")
    assert other == ([], "")


def test_command_names_still_complete() -> None:
    offered, _ = completions("ledger stand")
    assert offered == ["standings"]
