"""The read commands (roster, teams, standings, leaders, treasury, history) over a SQLite
ledger whose read models are current answer through a plain sqlite3 connection
(ledger/projections/lean.py) and never import SQLAlchemy (issue 14: ``ledger standings``
under 0.5 s). What they print is what the ledger opened in full prints, to the byte,
refusals included; read models that are not current are caught up or rebuilt as before.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from cli.main import Session
from ledger.projections import lean
from ledger.projections.shapes import fingerprint
from ledger.settings import Settings
from tests.cli.fresh import imported
from tests.cli.inprocess import Outcome, copy_of, run_argv, run_ledger


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two leagues (so that a command without --league is ambiguous) and an account."""
    db = tmp_path_factory.mktemp("lean-reads") / "lean.db"
    run_ledger(db, "generate", "--teams", "8", "--seasons", "2", "--slug", "owl", check=True)
    run_ledger(db, "generate", "--teams", "4", "--slug", "bat", "--seed", "2", check=True)
    run_ledger(db, "account", "add", "tester", "--role", "admin", check=True)
    return db


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    return copy_of(template, tmp_path)


@pytest.fixture
def lean_opened(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each quick start found the read models current (and so answered)."""
    seen: list[bool] = []
    real = lean.open_current

    def watched(path: Path) -> lean.SqliteStore | None:
        found = real(path)
        seen.append(found is not None)
        return found

    monkeypatch.setattr(lean, "open_current", watched)
    return seen


def full(db: Path, *args: str) -> Outcome:
    """The command with the quick start turned off: the ledger opened and caught up."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lean, "open_current", lambda path: None)
        return run_ledger(db, *args)


def names(db: Path) -> dict[str, str]:
    """What the commands below name: a team, a played match, a player and his name."""
    with contextlib.closing(sqlite3.connect(db)) as connection:
        match = connection.execute(
            "SELECT match_id FROM rm_matches WHERE status = 'played' ORDER BY match_id"
        ).fetchone()[0]
        player, name = connection.execute(
            "SELECT player_id, name FROM rm_players WHERE games > 0 ORDER BY spp DESC, player_id"
        ).fetchone()
    return {"team": "t001", "match": match, "player": player, "name": name}


READS = [
    "standings",
    "standings --json",
    "standings --season 1",
    "standings --season 1 --json",
    "--wide teams",
    "teams --json",
    "roster {team}",
    "roster {team} --json",
    "leaders",
    "leaders --stat touchdowns --limit 3 --json",
    "leaders --stat casualties --limit 1000",
    "treasury {team}",
    "treasury {team} --json",
    "history {team}",
    "history team:{team} --json",
    "history {match}",
    "history {player}",
    "history {name} --json",
]
REFUSED = [
    "roster nobody",
    "treasury nobody",
    "standings --season 9",
    "history nobody",
]


@pytest.mark.parametrize("command", READS + REFUSED)
def test_a_read_answers_as_the_full_ledger_does(
    template: Path, lean_opened: list[bool], command: str
) -> None:
    args = ["--league", "owl", *command.format(**names(template)).split()]
    quick = run_ledger(template, *args)
    assert (quick.code, quick.out, quick.err) == astuple(full(template, *args))
    if command in READS:
        assert quick.code == 0, quick.err
        assert quick.out.strip()
    else:
        assert quick.error_line
    assert lean_opened == [True]


def astuple(outcome: Outcome) -> tuple[int, str, str]:
    return outcome.code, outcome.out, outcome.err


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["--league", "nowhere", "standings"], "unknown-league"),
        (["standings"], "ambiguous-league"),  # two leagues, none chosen
        (["--as", "nobody", "--league", "owl", "standings"], "unknown-account"),
    ],
)
def test_a_mistake_is_the_same_one_line_both_ways(
    template: Path, lean_opened: list[bool], argv: list[str], code: str
) -> None:
    command = ["ledger", "--db", str(template), *argv]
    quick = run_argv(command)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lean, "open_current", lambda path: None)
        slow = run_argv(command)
    assert astuple(quick) == astuple(slow)
    assert quick.error_line.startswith(f"error[{code}]: ")
    assert lean_opened == [True]


def test_a_file_that_is_no_ledger_is_refused_as_before(tmp_path: Path) -> None:
    garbage = tmp_path / "notes.db"
    garbage.write_text("not a database\n" * 100)
    quick = run_ledger(garbage, "standings")
    assert astuple(quick) == astuple(full(garbage, "standings"))
    assert quick.error_line.startswith("error[store]: ")


def position(db: Path) -> tuple[int, str, int]:
    """The read models' position and fingerprint, and the newest event's position."""
    with contextlib.closing(sqlite3.connect(db)) as connection:
        stored = connection.execute("SELECT notification_id, fingerprint FROM rm_position")
        at, mark = stored.fetchone()
        (head,) = connection.execute(lean.HEAD).fetchone()
    return at, mark, head


def test_read_models_behind_the_log_are_caught_up_first(
    db: Path, tmp_path: Path, lean_opened: list[bool]
) -> None:
    """Events the read models do not include yet (a writer that stopped between storing
    its events and writing their rows): the command catches them up, then answers."""
    (tmp_path / "before").mkdir()
    before = copy_of(db, tmp_path / "before")
    run_ledger(
        db, "--league", "owl", "team", "adjust", "t001", "25000", "--reason", "x", check=True
    )
    expected = full(db, "--league", "owl", "treasury", "t001")
    put_back_read_models(db, before)
    at, _, head = position(db)
    assert at < head
    answered = run_ledger(db, "--league", "owl", "treasury", "t001")
    assert answered.out == expected.out
    assert "25,000" in answered.out
    assert lean_opened == [False]
    assert position(db) == (head, fingerprint(), head)


def put_back_read_models(db: Path, earlier: Path) -> None:
    """The read-model tables (and their position) of ``earlier``, under ``db``'s events."""
    with contextlib.closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("ATTACH DATABASE ? AS earlier", (str(earlier),))
        tables = connection.execute(
            "SELECT name FROM earlier.sqlite_master WHERE type = 'table' AND name LIKE 'rm_%'"
        )
        for (table,) in tables.fetchall():
            connection.execute(f"DELETE FROM main.{table}")
            connection.execute(f"INSERT INTO main.{table} SELECT * FROM earlier.{table}")


def test_read_models_of_another_code_are_rebuilt_first(db: Path, lean_opened: list[bool]) -> None:
    expected = run_ledger(db, "--league", "owl", "standings", "--json")
    with contextlib.closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("UPDATE rm_position SET fingerprint = 'another version of the fold'")
        connection.execute("DELETE FROM rm_standings")  # what a rebuild must put back
    answered = run_ledger(db, "--league", "owl", "standings", "--json")
    assert answered.out == expected.out
    assert lean_opened == [True, False]
    at, mark, head = position(db)
    assert (at, mark) == (head, fingerprint())


def test_a_missing_read_model_table_is_made_by_the_ledgers_open(
    db: Path, lean_opened: list[bool]
) -> None:
    expected = run_ledger(db, "--league", "owl", "teams")
    with contextlib.closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("DROP TABLE rm_faults")
    assert run_ledger(db, "--league", "owl", "teams").out == expected.out
    assert lean_opened == [True, False]
    with contextlib.closing(sqlite3.connect(db)) as connection:
        assert connection.execute("SELECT count(*) FROM rm_faults").fetchone() == (0,)


def test_postgresql_never_takes_the_sqlite_quick_start(
    template: Path, lean_opened: list[bool]
) -> None:
    settings = Settings(sqlite_path=template, database_url="postgresql://nobody@nowhere/none")
    session = Session(settings=settings, league_option="owl", user="tester")
    assert session.current_tables() is None
    assert lean_opened == []


def test_a_scripts_reads_go_through_its_open_ledger(
    db: Path, tmp_path: Path, lean_opened: list[bool]
) -> None:
    script = tmp_path / "prize.ledger"
    script.write_text("team adjust t001 40000 --reason prize\ntreasury t001\n", encoding="utf-8")
    done = run_ledger(db, "--league", "owl", "run", str(script), check=True)
    assert "40,000" in done.out
    assert lean_opened == []


# --- in a process of its own ----------------------------------------------------------------

STORE = ("sqlalchemy", "eventsourcing.application", "eventsourcing.persistence", "ledger.bootstrap")
RULES_FILES = ("yaml",)
"""PyYAML reads an edition's data files, which a read of current tables never opens."""


def probe(db: Path, *args: str) -> dict[str, object]:
    seen = imported(["--db", str(db), "--league", "owl", *args], (*STORE, *RULES_FILES))
    return {"code": seen.code, "heavy": seen.heavy}


@pytest.mark.parametrize(
    "command",
    ["standings", "teams", "roster t001", "leaders", "treasury t001", "history t001"],
)
def test_a_read_in_a_fresh_process_imports_neither_sqlalchemy_nor_yaml(
    template: Path, command: str
) -> None:
    assert probe(template, *command.split()) == {"code": 0, "heavy": []}


def test_the_probe_sees_sqlalchemy_when_the_ledger_must_be_opened(db: Path) -> None:
    with contextlib.closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("UPDATE rm_position SET fingerprint = 'another version of the fold'")
    seen = probe(db, "standings")
    assert seen["code"] == 0
    assert "sqlalchemy" in seen["heavy"]  # type: ignore[operator]
