"""``ledger report`` and ``ledger schema report`` as a commissioner runs them.

The commands run in-process through ``cli.main.main`` (the real error boundary), on a
copy of the demo league built once for the module.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from cli.main import main
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.demo import build_demo

Run = tuple[int, str, str]
Runner = Callable[..., Run]


@pytest.fixture(scope="module")
def built_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli-demo") / "demo.db"
    ledger = open_ledger(Settings(sqlite_path=path, user="demo"))
    try:
        build_demo(ledger)
    finally:
        close_ledger(ledger)
    return path


@pytest.fixture
def db(built_demo: Path, tmp_path: Path) -> Path:
    for suffix in ("", "-wal", "-shm"):
        source = built_demo.with_name(built_demo.name + suffix)
        if source.exists():
            shutil.copy(source, tmp_path / source.name)
    return tmp_path / built_demo.name


@pytest.fixture
def ledger_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> Runner:
    """``run(*args)``: (exit code, stdout, stderr) of ``ledger ARGS`` in ``tmp_path``."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LEDGER_DATABASE_URL", raising=False)

    def run(*args: str) -> Run:
        monkeypatch.setattr(sys, "argv", ["ledger", *args])
        with pytest.raises(SystemExit) as done:
            main()
        captured = capsys.readouterr()
        return int(done.value.code or 0), captured.out, captured.err

    return run


def test_report_writes_html_by_default_and_says_where(
    ledger_cli: Runner, db: Path, tmp_path: Path
) -> None:
    code, out, _ = ledger_cli("--db", str(db), "report")
    assert code == 0
    path = tmp_path / "reports" / "demo-season-1.html"
    assert out.strip() == (
        "Wrote the HTML report of Old World Demo League, Season 1, to reports/demo-season-1.html"
    )
    assert path.read_text("utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    ("fmt", "out", "check"),
    [
        ("md", "season.md", "## Standings after"),
        ("json", "season.json", '"schema_version": 1'),
    ],
)
def test_report_writes_each_document_format(
    ledger_cli: Runner, db: Path, tmp_path: Path, fmt: str, out: str, check: str
) -> None:
    code, _, _ = ledger_cli(
        "--db", str(db), "report", "demo", "--season", "1", "--format", fmt, "--out", out
    )
    assert code == 0
    assert check in (tmp_path / out).read_text("utf-8")


def test_report_writes_csv_to_a_folder_or_a_zip(
    ledger_cli: Runner, db: Path, tmp_path: Path
) -> None:
    assert ledger_cli("--db", str(db), "report", "--format", "csv", "--out", "tables")[0] == 0
    assert (tmp_path / "tables" / "standings.csv").exists()
    assert ledger_cli("--db", str(db), "report", "--out", "season.zip")[0] == 0
    assert (tmp_path / "season.zip").stat().st_size > 0


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--season", "9"], "unknown-season", "league demo has no season 9 (seasons: 1)"),
        (["--format", "pdf"], "unknown-format", "unknown report format 'pdf'"),
        (["--out", "report.txt"], "unknown-format", "cannot tell the report format"),
        (["--whatif", "nowhere"], "unknown-ruleset", "unknown ruleset 'nowhere'"),
        (["nowhere"], "unknown-league", "no league 'nowhere'"),
        (["--format", "md", "--out", "x.html"], "unknown-format", "(md) is not the one x.html"),
        (["--format", "json", "--out", "x.csv"], "unknown-format", "named for (csv)"),
        (["--out", ""], "usage", "'--out': is empty"),
        (["--whatif", " "], "invalid-input", "--whatif names a ruleset"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(
    ledger_cli: Runner, db: Path, args: list[str], code: str, message: str
) -> None:
    status, out, err = ledger_cli("--db", str(db), "report", *args)
    assert status != 0
    assert out == ""
    assert err.startswith(f"error[{code}]: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_a_csv_folder_written_again_keeps_no_table_of_the_report_before(
    ledger_cli: Runner, db: Path, tmp_path: Path
) -> None:
    """whatif.csv of a report with a comparison stayed beside a later report's tables
    without one: a season's standings beside another's what-if, nothing to tell them
    apart (a helper's pass through the reports, forty-fourth session)."""
    with_whatif = ("--db", str(db), "report", "--format", "csv", "--out", "tables")
    assert ledger_cli(*with_whatif, "--whatif", "lrb6-zal")[0] == 0
    assert (tmp_path / "tables" / "whatif.csv").exists()
    (tmp_path / "tables" / "notes.txt").write_text("the commissioner's own")
    assert ledger_cli(*with_whatif)[0] == 0
    assert not (tmp_path / "tables" / "whatif.csv").exists()
    assert (tmp_path / "tables" / "standings.csv").exists()
    assert (tmp_path / "tables" / "notes.txt").exists()  # only the report's own tables go


def test_an_unwritable_out_is_refused_in_one_line(
    ledger_cli: Runner, db: Path, tmp_path: Path
) -> None:
    (tmp_path / "taken").write_text("a file, not a folder")
    status, _, err = ledger_cli("--db", str(db), "report", "--out", "taken/report.html")
    assert status == 1
    assert err.startswith("error[report-not-written]: cannot write the report to taken")
    assert len(err.strip().splitlines()) == 1


def test_schema_report_prints_the_json_schema(ledger_cli: Runner) -> None:
    code, out, _ = ledger_cli("schema", "report")
    schema = json.loads(out)
    assert code == 0
    assert schema["title"] == "SeasonReport"
    assert {"league", "season", "standings", "teams", "audit"} <= set(schema["required"])
