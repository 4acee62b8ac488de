"""``ledger ...`` run in this process, through the same error boundary as the script
(``cli.main.main``): far quicker than a process per command, and an exception that
escapes the boundary fails the test with its traceback."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import orjson
from click.testing import CliRunner

from cli.main import main


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str

    def json(self) -> object:
        assert self.code == 0, self.err
        return orjson.loads(self.out)

    @property
    def error_line(self) -> str:
        """The one line a refusal prints (the test fails if there is more)."""
        lines = self.err.strip().splitlines()
        assert self.code != 0, f"accepted:\n{self.out}"
        assert len(lines) == 1, self.err
        assert lines[0].startswith("error["), lines[0]
        return lines[0]


def run_ledger(
    db: Path, *args: str, check: bool = False, env: dict[str, str | None] | None = None
) -> Outcome:
    """``ledger --db DB --as tester ARGS...``; ``check``: fail unless it succeeds; ``env``:
    variables to set (a value) or unset (None) for the command."""
    outcome = run_argv(["ledger", "--db", str(db), "--as", "tester", *args], env)
    if check:
        assert outcome.code == 0, f"ledger {' '.join(args)} failed:\n{outcome.err}"
    return outcome


def run_argv(argv: list[str], env: dict[str, str | None] | None = None) -> Outcome:
    """A command line as typed (``argv[0]`` is ``ledger``), in the current folder."""
    code = 0
    unset: dict[str, str | None] = {"LEDGER_LEAGUE": None, "LEDGER_DATABASE_URL": None}
    with CliRunner().isolation(env={**unset, "LEDGER_DB": None, **(env or {})}) as (out, err, _):
        before, sys.argv = sys.argv, argv
        try:
            main()
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        finally:
            sys.argv = before
    return Outcome(
        code, out.getvalue().decode(errors="replace"), err.getvalue().decode(errors="replace")
    )


def ledger_from_script(folder: Path, script: str) -> Path:
    """A ledger in ``folder`` made by ``ledger run`` of ``script`` (one unit)."""
    (folder / "setup.ledger").write_text(script)
    db = folder / "owl.db"
    run_ledger(db, "run", str(folder / "setup.ledger"), check=True)
    return db


def copy_of(template: Path, folder: Path) -> Path:
    """A fresh copy of a closed ledger file, for a test to change."""
    db = folder / template.name
    db.write_bytes(template.read_bytes())
    return db
