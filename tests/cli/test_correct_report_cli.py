"""``ledger match show M --report`` prints the report file that records the match as it
stands; edited and given to ``ledger correct N --report``, it amends what was changed
alone, and shown again it is the corrected report. Unchanged, it amends nothing."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.cli.inprocess import run_ledger
from tests.cli.test_report_cli import built_demo, db

__all__ = ["built_demo", "db"]  # the demo's ledger, copied for each test

MATCH = "r1-reavers-gouged-eye"


def test_a_report_shown_edited_and_sent_back_amends_what_was_changed(
    db: Path, tmp_path: Path
) -> None:
    shown = run_ledger(db, "match", "show", MATCH, "--report", check=True).out
    assert shown.startswith(f"# Match {MATCH} as it stands (event 64).")
    assert "# ledger correct 64 --report FILE --reason WHY" in shown
    report = yaml.safe_load(shown)
    assert report["home"]["players"][0] == {"player": "Griff Junior", "touchdowns": 1}
    assert report["casualties"][0] == {
        "victim": "Snaga",
        "cause": "block",
        "by": "Griff Junior",
        "dice": {"casualty": 8},
        "outcome": "seriously_hurt",
    }
    file = tmp_path / "r1.yaml"
    file.write_text(shown)
    same = run_ledger(db, "correct", "64", "--report", str(file), "--reason", "checking")
    assert same.code == 2
    assert same.error_line.endswith("as event 64 already stands: nothing to amend")
    report["casualties"][0]["cause"] = "foul"
    file.write_text(yaml.safe_dump(report))
    done = run_ledger(db, "correct", "64", "--report", str(file), "--reason", "a foul")
    assert done.code == 0, done.err
    assert done.out.strip() == "Event 64 amended (casualties): a foul"
    again = yaml.safe_load(run_ledger(db, "match", "show", MATCH, "--report", check=True).out)
    assert again["casualties"][0]["cause"] == "foul"
    assert again["home"] == yaml.safe_load(shown)["home"]


def test_a_match_without_a_report_has_none_to_show(db: Path) -> None:
    unknown = run_ledger(db, "match", "show", "nope", "--report")
    assert unknown.code == 1
    assert unknown.error_line == "error[unknown-match]: no match 'nope' in league demo"
