"""Tables fit the terminal: at 80 columns ``roster``, ``standings`` and ``history`` print
no line wider than 80 (names wrap first, then the columns docs/commissioners-guide.md
lists are left out, and a line says which); ``--wide`` and a pipe show every column;
colour only on a terminal, never with $NO_COLOR."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len

from tests.support import drain

LEDGER = str(Path(sys.executable).parent / "ledger")
ROSTER = ("roster", "skavenblight-scramblers")
STANDINGS = ("standings",)
HISTORY = ("history", "Skweek")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("narrow")
    done = subprocess.run(
        [LEDGER, "demo", "--dir", str(folder)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return folder / "demo.db"


def shown(db: Path, *args: str, columns: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "NO_COLOR")}
    if columns is not None:
        env["COLUMNS"] = columns
    done = subprocess.run(
        [LEDGER, "--db", str(db), *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def widest(text: str) -> int:
    return max(cell_len(line) for line in text.splitlines())


@pytest.mark.parametrize("command", [ROSTER, STANDINGS, HISTORY], ids=lambda c: c[0])
def test_no_line_is_wider_than_80_columns(demo: Path, command: tuple[str, ...]) -> None:
    assert widest(shown(demo, *command)) > 80  # else this test would prove nothing
    narrow = shown(demo, *command, columns="80")
    assert widest(narrow) <= 80, narrow


def test_a_narrow_roster_keeps_names_skills_spp_and_status(demo: Path) -> None:
    narrow = shown(demo, *ROSTER, columns="80")
    header = next(line for line in narrow.splitlines() if line.startswith("#"))
    assert header.split() == [
        "#",
        "name",
        "position",
        "MA",
        "ST",
        "AG",
        "PA",
        "AV",
        "skills",
        "SPP",
        "status",
    ]
    assert "Skweek" in narrow
    assert "MNG" in narrow  # the status column survived
    assert "(not shown at 80 columns: advancements, value; --wide shows all)" in narrow


def test_a_narrow_standings_drops_the_team_values_first(demo: Path) -> None:
    narrow = shown(demo, *STANDINGS, columns="80")
    header = next(line for line in narrow.splitlines() if line.startswith("#"))
    assert "TV" not in header.split()
    assert {"P", "W", "L", "TDΔ", "pts", "separated"} <= set(header.split())
    assert "not shown at 80 columns: TV, CTV" in narrow
    assert "Scramblers" in narrow  # a long name wraps rather than being cut


def test_very_narrow_still_shows_the_essentials(demo: Path) -> None:
    narrow = shown(demo, *ROSTER, columns="50")
    header = next(line for line in narrow.splitlines() if line.startswith("#"))
    assert header.split() == ["#", "name", "skills", "SPP", "status"]
    assert widest(narrow) <= 50


@pytest.mark.parametrize("how", ["--wide after", "--wide before", "a pipe"])
def test_wide_and_a_pipe_show_every_column(demo: Path, how: str) -> None:
    if how == "a pipe":
        text = shown(demo, *ROSTER)
    elif how == "--wide after":
        text = shown(demo, *ROSTER, "--wide", columns="80")
    else:
        text = shown(demo, "--wide", *ROSTER, columns="80")
    assert "advancements" in text
    assert "value" in text
    assert "not shown" not in text


TABLES = (
    ROSTER,
    STANDINGS,
    HISTORY,
    ("teams",),
    ("leaders",),
    ("treasury", "skavenblight-scramblers"),
    ("match", "list"),
    ("match", "show", "r1-reavers-gouged-eye"),
)


@pytest.mark.parametrize("command", TABLES, ids=lambda c: " ".join(c[:2]))
def test_every_table_takes_wide_after_the_command(demo: Path, command: tuple[str, ...]) -> None:
    """As the commissioner's guide says ('--wide (after the command, or ledger --wide ...
    for any command)'): history and the match tables refused it after the command."""
    assert shown(demo, *command, "--wide", columns="40") == shown(demo, "--wide", *command)


@pytest.mark.parametrize("columns", ["", "abc", "-3", "0"])
def test_a_columns_that_is_no_width_is_ignored(demo: Path, columns: str) -> None:
    text = shown(demo, *ROSTER, columns=columns)
    assert "advancements" in text
    assert "not shown" not in text


def on_a_terminal(db: Path, *args: str, no_color: bool) -> str:
    """Run ``ledger`` with a pseudo-terminal as its stdout; what it wrote."""
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(COLUMNS="200", TERM="xterm-256color")
    if no_color:
        env["NO_COLOR"] = "1"
    main, child = pty.openpty()
    done = subprocess.run(
        [LEDGER, "--db", str(db), *args],
        stdout=child,
        stderr=subprocess.PIPE,
        env=env,
        timeout=120,
    )
    os.close(child)
    printed = drain(main)
    assert done.returncode == 0, done.stderr
    return printed.decode()


def test_colour_on_a_terminal_only_and_never_with_no_color(demo: Path) -> None:
    assert "\x1b[" in on_a_terminal(demo, *STANDINGS, no_color=False)
    plain = on_a_terminal(demo, *STANDINGS, no_color=True)
    assert "\x1b[" not in plain
    assert "Skavenblight" in plain
    assert "\x1b[" not in shown(demo, *STANDINGS)  # a pipe


def test_too_narrow_for_all_it_must_keep_is_wider_never_cut(demo: Path) -> None:
    """``leaders`` leaves no column out: at 20 columns its lines are wider than 20 rather
    than losing the status column to the terminal's edge."""
    text = shown(demo, "leaders", columns="20")
    header = next(line for line in text.splitlines() if line.startswith("#"))
    assert header.split() == ["#", "player", "team", "spp", "status"]
    assert "active" in text
