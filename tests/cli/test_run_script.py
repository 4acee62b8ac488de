"""``ledger run SCRIPT`` is all or nothing; ``--each`` stores line by line and says how
to resume (issue 11, problem 4)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

LEDGER = str(Path(sys.executable).parent / "ledger")

SETUP = """\
league create owl --name "Old World League" --ruleset bb2025
team register reavers --name "Reikland Reavers" --coach Jay --roster human
team hire reavers lineman "Otto Brandt" --number 6
"""
TYPO = 'team hire reavers linemen "Hans Kohl" --number 7\n'
FIXED = 'team hire reavers lineman "Hans Kohl" --number 7\n'


def ledger(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LEDGER, "--db", str(db), "--as", "tester", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def players(db: Path) -> list[str]:
    done = ledger(db, "roster", "reavers", "--json")
    assert done.returncode == 0, done.stderr
    return [p["name"] for p in json.loads(done.stdout)["players"]]


def one_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode != 0
    # besides the note a writing command gives when it creates the ledger file
    lines = [n for n in done.stderr.strip().splitlines() if not n.startswith("ledger: created")]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error["), lines[0]
    return lines[0]


def test_a_script_failing_at_its_last_line_stores_nothing_and_runs_again_whole(
    tmp_path: Path,
) -> None:
    db, script = tmp_path / "ledger.db", tmp_path / "setup.ledger"
    script.write_text(SETUP + TYPO)
    error = one_error(ledger(db, "run", str(script)))
    assert "setup.ledger:4:" in error
    assert "nothing of the script was stored" in error
    assert json.loads(ledger(db, "league", "list", "--json").stdout or "[]") == []

    script.write_text(SETUP + FIXED)
    done = ledger(db, "run", str(script))
    assert done.returncode == 0, done.stderr
    assert "as one unit" in done.stdout
    assert players(db) == ["Otto Brandt", "Hans Kohl"]


def test_each_stores_line_by_line_and_says_how_to_resume(tmp_path: Path) -> None:
    db, script = tmp_path / "ledger.db", tmp_path / "setup.ledger"
    script.write_text(SETUP + TYPO)
    error = one_error(ledger(db, "run", str(script), "--each"))
    assert "lines 1-3 are stored" in error
    assert "--each --from 4" in error
    assert players(db) == ["Otto Brandt"]

    script.write_text(SETUP + FIXED)
    done = ledger(db, "run", str(script), "--each", "--from", "4")
    assert done.returncode == 0, done.stderr
    assert players(db) == ["Otto Brandt", "Hans Kohl"]


def test_a_unit_reads_at_its_end_only(tmp_path: Path) -> None:
    """Queries read the stored tables, which a unit changes only once stored: at the end
    of a script they show it; before a recording line they are refused."""
    db, script = tmp_path / "ledger.db", tmp_path / "setup.ledger"
    script.write_text(SETUP + "roster reavers\n" + FIXED)
    assert "'roster' only reads" in one_error(ledger(db, "run", str(script)))
    script.write_text(SETUP + FIXED + "roster reavers\n")
    done = ledger(db, "run", str(script))
    assert done.returncode == 0, done.stderr
    assert "Hans Kohl" in done.stdout.split("as one unit.")[1]


def test_the_rules_and_a_matchs_sheet_read_at_a_units_end(tmp_path: Path) -> None:
    db, script = tmp_path / "ledger.db", tmp_path / "setup.ledger"
    script.write_text(SETUP + "rules team bb2025 human\n" + FIXED)
    assert "'rules' only reads" in one_error(ledger(db, "run", str(script)))
    script.write_text(SETUP + FIXED + "rules team bb2025 human\nmatch show nothing-yet\n")
    done = ledger(db, "run", str(script))
    assert done.returncode != 0  # the last line asks for a match that does not exist
    assert "unknown-match" in done.stderr
    assert "Human" in done.stdout  # the team list was printed after the unit was stored
    assert players(db) == ["Otto Brandt", "Hans Kohl"]


def test_a_line_choosing_another_ledger_league_or_name_is_refused_not_ignored(
    tmp_path: Path,
) -> None:
    """'--db other.db standings' in a script printed the script's own ledger: a line runs
    in the script's session, so an option that would choose another is refused."""
    db, script = tmp_path / "ledger.db", tmp_path / "setup.ledger"
    script.write_text(SETUP)
    assert "Stored 3 commands of setup.ledger as one unit." in ledger(db, "run", str(script)).stdout
    for line in ("--db other.db standings", "--league zzz roster reavers", "--as eve standings"):
        script.write_text(FIXED + line + "\n")
        error = one_error(ledger(db, "run", str(script)))
        option = line.split()[0]
        assert (
            f"setup.ledger:2: {option} applies to the whole script: give it before 'run'" in error
        )
        assert players(db) == ["Otto Brandt"]  # nothing of the script was stored
    assert not (tmp_path / "other.db").exists()


def test_the_lines_after_a_league_s_creation_are_about_it_beside_other_leagues(
    tmp_path: Path,
) -> None:
    """Its second line was refused as ambiguous where the ledger held another league."""
    db, script = tmp_path / "ledger.db", tmp_path / "setup.ledger"
    created = ledger(db, "league", "create", "elf", "--name", "Elves", "--ruleset", "bb2025")
    assert created.returncode == 0, created.stderr
    script.write_text(SETUP + "roster reavers\n")
    done = ledger(db, "run", str(script))
    assert done.returncode == 0, done.stderr
    assert "Reikland Reavers (reavers)" in done.stdout
    assert ledger(db, "--league", "owl", "roster", "reavers").returncode == 0
    assert ledger(db, "--league", "elf", "roster", "reavers").returncode != 0


def test_a_script_that_cannot_be_run_is_refused_before_any_line(tmp_path: Path) -> None:
    """'serve' on a line would hold the unit open for as long as it serves; a file that is
    not UTF-8, or no regular file (``run /dev/zero`` read for ever), is refused."""
    db = tmp_path / "owl.db"
    served = tmp_path / "serve.ledger"
    served.write_text(SETUP + "serve --port 8999\n")
    assert one_error(ledger(db, "run", str(served))) == (
        "error[invalid-input]: serve.ledger:4: 'serve' cannot run in a script"
    )
    latin = tmp_path / "latin.ledger"
    latin.write_bytes(
        SETUP.encode() + 'team register rats --name "Ratsk\xf6pfe"\n'.encode("latin-1")
    )
    assert one_error(ledger(db, "run", str(latin))).startswith(
        "error[invalid-input]: latin.ledger is not UTF-8 text (byte "
    )
    assert one_error(ledger(db, "run", "/dev/zero")).endswith("/dev/zero is not a regular file")
    assert not db.exists()
