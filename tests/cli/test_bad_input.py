"""Bad input at the command line: one ``error[...]`` line, a non-zero exit, nothing stored.

Each test is one case of issue 11 ("What goes wrong" 1, 5, 6 and 7) that used to store a
wrong fact, print a traceback or leave a ledger that no command could open. The commands
run in this process (``cli.main.main``, as the ``ledger`` script calls it), so an
exception that escapes the error boundary fails the test with its traceback.
"""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.inprocess import Outcome, copy_of, ledger_from_script, run_ledger

LEAGUE_SCRIPT = """
league create owl --name "Old World League" --ruleset bb2025
team register reavers --name "Reikland Reavers" --coach Jay --roster human
team register rats --name Scramblers --coach Rob --roster skaven
team hire rats gutter_runner Skweek --number 1
""" + "".join(f'team hire reavers lineman "Human {i}" --number {i}\n' for i in range(1, 12))

FINE_REPORT = """
match: g1
played_on: "2026-11-16"
home: {team: reavers, players: [{player: Human 1, td: 1, mvp: 1}]}
away: {team: rats, touchdowns: 0, players: [{player: Skweek, mvp: 1}]}
"""


def stored_events(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as connection:
        (count,) = connection.execute("SELECT count(*) FROM stored_events").fetchone()
    return int(count)


def refused(db: Path, code: str, *args: str) -> str:
    """Run a command that must be refused with ``code``; nothing may be stored."""
    before = stored_events(db)
    line = run_ledger(db, *args).error_line
    assert line.startswith(f"error[{code}]: "), line
    assert stored_events(db) == before
    return line


def still_works(db: Path) -> None:
    """Every command still opens the ledger after a refusal."""
    for command in (("standings",), ("roster", "reavers"), ("audit", "verify")):
        done = run_ledger(db, *command)
        assert done.code == 0, done.err


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ledger_from_script(tmp_path_factory.mktemp("template"), LEAGUE_SCRIPT)


@pytest.fixture
def league(template: Path, tmp_path: Path) -> Path:
    """A fresh copy of a league of two teams (the template's ledger is closed)."""
    return copy_of(template, tmp_path)


def report_file(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def record(db: Path, report: Path) -> Outcome:
    return run_ledger(db, "match", "record", str(report), "--roll")


# --- 1. numbers the store cannot hold -------------------------------------------------------


@pytest.mark.parametrize("number", [2**63, 10**20])
def test_a_touchdown_count_beyond_the_bounds_is_refused_and_the_ledger_still_works(
    league: Path, tmp_path: Path, number: int
) -> None:
    report = report_file(
        tmp_path,
        f"home: {{team: reavers, players: [{{player: Human 1, td: {number}}}]}}\n"
        "away: {team: rats}\n",
    )
    line = refused(league, "malformed-report", "match", "record", str(report), "--roll")
    assert "home.players.0.td" in line
    assert "50" in line
    still_works(league)


def test_a_team_score_of_ten_to_the_twentieth_is_refused(league: Path, tmp_path: Path) -> None:
    report = report_file(tmp_path, "home: {team: reavers, touchdowns: 100000000000000000000}\n"
                         "away: {team: rats}\n")  # fmt: skip
    refused(league, "malformed-report", "match", "record", str(report), "--roll")
    still_works(league)


@pytest.mark.parametrize("amount", [str(10**20), str(2**63 - 1), str(2**63)])
def test_a_treasury_adjustment_beyond_a_hundred_million_is_one_line(
    league: Path, amount: str
) -> None:
    line = refused(
        league, "invalid-input", "team", "adjust", "reavers", "--reason", "x", "--", amount
    )
    assert "amount" in line
    still_works(league)


def test_awards_each_within_the_bound_never_take_a_treasury_past_it(league: Path) -> None:
    """Each award of 60,000,000 is a number the event holds; the second would have made a
    treasury of more than 120,000,000 (found by the API hunt, repeated to a billion)."""
    adjust = ["team", "adjust", "reavers", "--reason", "a patron", "--", "60000000"]
    assert run_ledger(league, *adjust).code == 0
    line = refused(league, "not-allowed", *adjust)
    assert "would take the treasury past 100,000,000" in line
    still_works(league)


def test_true_is_not_a_number_in_a_report(league: Path, tmp_path: Path) -> None:
    report = report_file(
        tmp_path,
        "home: {team: reavers, players: [{player: Human 1, td: true}]}\naway: {team: rats}\n",
    )
    assert "home.players.0.td: must be a whole number" in refused(
        league, "malformed-report", "match", "record", str(report)
    )


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            "home:\n  team: reavers\n   players: []\naway: {team: rats}\n",
            "line 3, column 11: mapping values are not allowed here",
        ),
        ("home:\n\tteam: reavers\naway: {team: rats}\n", "line 2, column 1: found character"),
        ("home: {team: reavers\naway: {team: rats}\n", "line 2, column 5: expected ',' or '}'"),
        (
            "match: m1\nmatch: m2\nhome: {team: reavers}\naway: {team: rats}\n",
            "line 2, column 1: 'match' is given twice",
        ),
        (
            "? [a, b]\n: 1\nhome: {team: reavers}\naway: {team: rats}\n",
            "line 1, column 3: found unhashable key",
        ),
    ],
    ids=["indented too far", "a tab", "unclosed", "a key twice", "a list as a key"],
)
def test_a_report_that_is_not_yaml_says_the_line_and_what_is_wrong_there(
    league: Path, tmp_path: Path, text: str, says: str
) -> None:
    """YAML's own first line ('while parsing a block mapping') named neither; a key given
    twice was taken, the last winning."""
    report = report_file(tmp_path, text)
    said = refused(league, "malformed-report", "match", "record", str(report))
    assert f"game.yaml is not valid YAML or JSON: {says}" in said


def test_a_quoted_number_is_not_a_number_in_a_json_report(league: Path, tmp_path: Path) -> None:
    data = {"home": {"team": "reavers", "touchdowns": "1"}, "away": {"team": "rats"}}
    report = report_file(tmp_path, json.dumps(data), "game.json")
    assert "home.touchdowns" in refused(league, "malformed-report", "match", "record", str(report))


# --- 5. contradicting facts -----------------------------------------------------------------


def test_a_casualty_outcome_that_disagrees_with_its_roll_is_refused_naming_both(
    league: Path, tmp_path: Path
) -> None:
    report = report_file(
        tmp_path,
        FINE_REPORT + "casualties: [{victim: Human 2, by: Skweek, roll: 3, outcome: dead}]\n",
    )
    line = refused(league, "casualty-dice", "match", "record", str(report), "--roll")
    assert "3" in line
    assert "badly_hurt" in line
    assert "dead" in line


def test_a_casualty_outcome_that_agrees_with_its_roll_is_recorded(
    league: Path, tmp_path: Path
) -> None:
    report = report_file(
        tmp_path,
        FINE_REPORT + "casualties: [{victim: Human 2, by: Skweek, roll: 3, outcome: badly_hurt}]\n",
    )
    assert record(league, report).code == 0


def test_a_day_first_date_is_refused_with_the_iso_date_to_write(
    league: Path, tmp_path: Path
) -> None:
    report = report_file(tmp_path, FINE_REPORT.replace('"2026-11-16"', '"16/11/2026"'))
    line = refused(league, "malformed-report", "match", "record", str(report), "--roll")
    assert "played_on" in line
    assert "2026-11-16" in line


def test_an_unquoted_impossible_date_is_one_line(league: Path, tmp_path: Path) -> None:
    report = report_file(tmp_path, FINE_REPORT.replace('"2026-11-16"', "2026-02-30"))
    assert "played_on" in refused(league, "malformed-report", "match", "record", str(report))


def test_an_unquoted_yaml_date_is_recorded_as_an_iso_date(league: Path, tmp_path: Path) -> None:
    report = report_file(tmp_path, FINE_REPORT.replace('"2026-11-16"', "2026-11-16"))
    assert record(league, report).code == 0
    with sqlite3.connect(league) as connection:
        (state,) = connection.execute(
            "SELECT state FROM stored_events WHERE topic LIKE '%MatchRecorded'"
        ).fetchone()
    assert json.loads(state)["played_on"] == "2026-11-16"


# --- 6. one line for every mistake ----------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "place"),
    [
        (("team", "register", "", "--name", "X", "--coach", "C", "--roster", "human"), "team"),
        (
            ("team", "register", "elves", "--name", "  ", "--coach", "C", "--roster", "human"),
            "name",
        ),
        (("team", "register", "elves", "--name", "E", "--coach", "", "--roster", "human"), "coach"),
        (
            ("team", "register", "a" * 5000, "--name", "E", "--coach", "C", "--roster", "human"),
            "team",
        ),
        (("team", "hire", "reavers", "lineman", " "), "name"),
        (("league", "create", "a" * 65, "--name", "X", "--ruleset", "bb2025"), "slug"),
        (("league", "create", "x", "--name", "", "--ruleset", "bb2025"), "name"),
    ],
)
def test_empty_blank_and_endless_ids_and_names_are_one_line(
    league: Path, args: tuple[str, ...], place: str
) -> None:
    said = refused(league, "invalid-input", *args)
    assert said.startswith(f"error[invalid-input]: {place}: "), said  # no event class named


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("team", "hire", "reavers", "lineman", "Tab\tby"),
            "name must be one line of printable text",
        ),
        (
            (
                "team",
                "register",
                "elves",
                "--name",
                "Two\nLines",
                "--coach",
                "C",
                "--roster",
                "human",
            ),
            "name must be one line of printable text",
        ),
        (
            ("team", "register", "elves", "--name", "E", "--coach", "C\r", "--roster", "human"),
            "coach must be one line of printable text",
        ),
        (
            ("league", "create", "tab", "--name", "T\tab", "--ruleset", "bb2025"),
            "name must be one line of printable text",
        ),
        (
            ("team", "hire", "reavers", "lineman", "p1"),
            "a player may not be called p1: it reads as a player's id or shirt number",
        ),
        (
            ("team", "hire", "reavers", "lineman", "#5"),
            "a player may not be called #5: it reads as a player's id or shirt number",
        ),
    ],
)
def test_a_name_that_would_break_a_table_or_name_another_player_is_refused(
    league: Path, args: tuple[str, ...], expected: str
) -> None:
    """A tab or line break in a name broke every table that shows it; a player called p1
    or #5 could never be named: reports and commands read ids and shirts first."""
    assert refused(league, "invalid-input", *args).endswith(expected)


@pytest.mark.parametrize(
    ("divisions", "expected"),
    [
        (("A=reavers,reavers",), "division A names reavers twice"),
        (("A=reavers", "A=rats"), "two divisions are called 'A': give each its own name"),
        (("A=reavers", "B=reavers"), "teams in more than one division: reavers"),
        (
            ("North=reavers", "north=rats"),
            "two divisions 'North' and 'north' would name the same fixtures: give each its"
            " own name",
        ),
        (
            ("=reavers", "B=rats"),
            "a division needs a name beside another: its fixtures and its table are named by it",
        ),
    ],
)
def test_a_season_plan_naming_a_team_or_a_division_twice_says_which(
    league: Path, divisions: tuple[str, ...], expected: str
) -> None:
    args = [arg for division in divisions for arg in ("--division", division)]
    assert refused(league, "invalid-input", "season", "start", *args).endswith(expected)


def test_ten_megabytes_of_free_text_are_refused(league: Path) -> None:
    line = refused(
        league, "invalid-input", "team", "adjust", "reavers", "5000", "--reason", "x" * 10_000_000
    )
    assert "reason" in line


def test_free_text_in_a_report_is_bounded(league: Path, tmp_path: Path) -> None:
    report = report_file(tmp_path, FINE_REPORT + f"weather: {'rain ' * 400}\n")
    assert "weather" in refused(league, "malformed-report", "match", "record", str(report))


@pytest.mark.parametrize("out", [".", "/", "missing-folder/owl.jsonl", "/dev/full"])
def test_export_to_a_place_that_cannot_hold_it_is_one_line(
    league: Path, tmp_path: Path, out: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if out == "/dev/full" and not Path(out).exists():
        pytest.skip("no /dev/full here")
    monkeypatch.chdir(tmp_path)
    assert out in refused(league, "file", "export", "--out", out)


def test_a_report_name_longer_than_the_system_allows_is_one_line(
    league: Path, tmp_path: Path
) -> None:
    out = tmp_path / ("r" * 300 + ".html")
    assert "too long" in refused(league, "report-not-written", "report", "--out", str(out))


@pytest.mark.parametrize(
    ("name", "text"),
    [("deep.json", '{"home": ' * 5000 + "1" + "}" * 5000), ("deep.yaml", "home: " + "[" * 5000)],
)
def test_a_report_nested_five_thousand_deep_is_one_line(
    league: Path, tmp_path: Path, name: str, text: str
) -> None:
    report = report_file(tmp_path, text, name)
    refused(league, "malformed-report", "match", "record", str(report))


def test_a_report_that_is_not_utf8_is_one_line(league: Path, tmp_path: Path) -> None:
    report = tmp_path / "latin1.yaml"
    report.write_bytes(
        "home: {team: reavers}\naway: {team: rats}\nweather: sp\xe4t\n".encode("latin-1")
    )
    assert "UTF-8" in refused(league, "malformed-report", "match", "record", str(report))


def test_a_report_over_a_mebibyte_is_refused_unread(league: Path, tmp_path: Path) -> None:
    padding = "#" + " " * 100 + "\n"
    report = report_file(tmp_path, FINE_REPORT + padding * 11_000)
    assert "1 MiB" in refused(league, "malformed-report", "match", "record", str(report), "--roll")


def limited_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def run_in_a_child(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``ledger`` in a child process with 1 GiB of memory: the old code read /dev/zero
    until it ran out, which must not take the machine's memory with it."""
    ledger = str(Path(sys.executable).parent / "ledger")
    return subprocess.run(
        [ledger, "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limited_memory,
        env={**os.environ, "LEDGER_LEAGUE": ""},
    )


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_report_from_dev_zero_is_refused_without_reading_it_all(league: Path) -> None:
    done = run_in_a_child(league, "match", "record", "/dev/zero")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error[malformed-report]: /dev/zero is larger than 1 MiB")
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_an_import_file_that_is_a_device_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    done = run_in_a_child(db, "import", "/dev/zero")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == "error[file]: /dev/zero is not a regular file"
    assert not db.exists()


@pytest.mark.parametrize(
    "lines",
    [
        ['{"format": "bb-league-ledger/events", "version": 1, "league": "owl", "events": 1}', "5"],
        ['{"format": "bb-league-ledger/events", "version": 1, "league": "owl", "events": 0}'],
    ],
    ids=["an-event-that-is-a-number", "a-header-and-no-events"],
)
def test_an_import_file_that_is_no_league_is_refused(tmp_path: Path, lines: list[str]) -> None:
    backup = tmp_path / "backup.jsonl"
    backup.write_text("\n".join(lines) + "\n")
    db = tmp_path / "restored.db"
    refused(db, "import-refused", "import", str(backup))
    assert stored_events(db) == 0


@pytest.mark.parametrize(
    "args",
    [
        ("match", "inducements", "g1", "reavers", "--buy", "bribes=1", "--buy", "bribes=2"),
        ("team", "redraft", "reavers", "--carry", "reroll", "--carry", "reroll=2"),
    ],
)
def test_an_item_counted_twice_is_a_usage_error(league: Path, args: tuple[str, ...]) -> None:
    """The last count had won, silently."""
    before = stored_events(league)
    done = run_ledger(league, *args)
    assert done.code == 2
    assert "is given twice: once, with its count" in done.error_line
    assert stored_events(league) == before


@pytest.mark.parametrize(
    "args",
    [
        ("match", "inducements", "g1", "reavers", "--buy", "bribes=lots"),
        ("team", "redraft", "reavers", "--carry", "reroll=two"),
        ("team", "advance", "reavers", "Human 1", "characteristic", "--die", "characteristic=x"),
    ],
)
def test_a_count_that_is_not_a_number_is_a_usage_error(league: Path, args: tuple[str, ...]) -> None:
    before = stored_events(league)
    done = run_ledger(league, *args)
    assert done.code == 2
    assert done.error_line.startswith("error[usage]: Invalid value for ")
    assert done.error_line.endswith(f"(see 'ledger {args[0]} {args[1]} --help')")
    assert stored_events(league) == before


# --- 7. a typo in --db ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args", [("standings",), ("audit", "verify"), ("export",), ("history", "reavers"), ("report",)]
)
def test_a_reading_command_on_a_missing_ledger_file_creates_nothing(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    typo = tmp_path / "owll.db"
    line = refused(typo, "no-ledger", *args)
    assert str(typo) in line
    assert list(tmp_path.iterdir()) == []


def test_advancing_on_a_missing_ledger_or_league_names_what_is_missing(
    league: Path, tmp_path: Path
) -> None:
    """The edition's characteristic die is the league's: with no league to read it from, the
    refusal is the missing ledger or league, as for any command (there is no ruleset to
    name in 'team advance')."""
    advance = ("team", "advance", "reavers", "Human 1", "characteristic")
    refused(tmp_path / "owll.db", "no-ledger", *advance)
    refused(league, "unknown-league", "--league", "owll", *advance)


def test_creating_a_league_says_it_made_a_new_ledger_file(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    done = run_ledger(db, "league", "create", "owl", "--name", "OWL", "--ruleset", "bb2025")
    assert done.code == 0, done.err
    assert done.err.strip() == f"ledger: created a new ledger at {db}"
    again = run_ledger(db, "league", "create", "two", "--name", "Two", "--ruleset", "bb2025")
    assert again.err == ""


def test_a_refused_league_creation_leaves_no_ledger_file(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    refused(
        db, "invalid-input", "league", "create", "Old World", "--name", "O", "--ruleset", "bb2025"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_demo_builds_its_league_in_the_file_db_names(in_tmp: Path) -> None:
    db = in_tmp / "mine.db"
    done = run_ledger(db, "demo")
    assert done.code == 0, done.err
    assert stored_events(db) > 50
    assert not (in_tmp / "demo").exists()
    assert "already exists" in refused(db, "file", "demo")


# --- CLI report 7, items 4, 5 and 8 ---------------------------------------------------------


def test_a_negative_adjustment_is_taken_as_the_help_writes_it(league: Path) -> None:
    done = run_ledger(league, "team", "adjust", "reavers", "-20000", "--reason", "fine")
    assert done.code == 0, done.err
    treasury = run_ledger(league, "treasury", "reavers").out
    assert "-20,000" in treasury


POINTS = ("league", "create", "cup", "--name", "Cup", "--ruleset", "bb2025", "--points")


@pytest.mark.parametrize(
    ("code", "args", "says"),
    [
        ("invalid-input", ("team", "adjust", "reavers", "0", "--reason", "x"), "changes nothing"),
        ("invalid-input", ("team", "adjust", "reavers", "5", "--reason", "   "), "needs a reason"),
        ("invalid-input", ("correct", "2", "--void", "--reason", " \t "), "needs a reason"),
        ("invalid-option", (*POINTS, "-3/1/0"), "never negative: a win gives -3"),
        ("invalid-option", (*POINTS, "3/1/-1"), "never negative: a loss gives -1"),
        ("invalid-option", (*POINTS, "3/4/0"), "a draw gives 4 league points"),
        ("invalid-option", (*POINTS, "0/0/0"), "a win must give more league points than a loss"),
    ],
    ids=["zero-gold", "blank-adjust", "blank-correct", "win", "loss", "draw", "all-equal"],
)
def test_meaningless_gold_points_and_reasons_are_refused(
    league: Path, code: str, args: tuple[str, ...], says: str
) -> None:
    assert says in refused(league, code, *args)


# --- an amendment's file, read as a report's is ---------------------------------------------


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"price: 60000\nprice: 70000\n", "line 2, column 1: 'price' is given twice"),
        (b"price: [1,\n  x: y\n", "is not valid YAML or JSON: line 3, column 1: expected ','"),
        (b"price: \xff\n", "amend.yaml is not UTF-8 text (byte 0xff at 7)"),
        (b"- 1\n", "must hold a mapping of field: value"),
    ],
    ids=["key-twice", "yaml", "not-utf8", "not-a-mapping"],
)
def test_an_amendment_file_is_read_as_strictly_as_a_report(
    league: Path, tmp_path: Path, content: bytes, says: str
) -> None:
    """A key given twice kept the last; a YAML error named no line; a file not UTF-8 was
    not named (a helper's pass through the corrections, forty-fourth session)."""
    amendment = tmp_path / "amend.yaml"
    amendment.write_bytes(content)
    line = refused(
        league, "invalid-input", "correct", "3", "--amend", str(amendment), "--reason", "x"
    )
    assert says in line


def test_an_amended_value_out_of_bounds_is_said_in_the_leagues_words(league: Path) -> None:
    tab = refused(league, "invalid-input", "correct", "3", "--set", 'name="A\\tB"', "--reason", "x")
    assert tab.endswith("amended name: must be one line of printable text, not blank")
    big = refused(league, "invalid-input", "correct", "4", "--set", "number=200", "--reason", "x")
    assert big.endswith("amended number: must be at most 99")


def test_empty_tables_say_so(tmp_path: Path) -> None:
    """A league with no season printed nothing for its standings and a bare header for its
    leaders, with exit 0: a new commissioner could not tell it from a fault."""
    db = tmp_path / "new.db"
    run_ledger(db, "league", "create", "new", "--name", "New", "--ruleset", "bb2025", check=True)
    assert run_ledger(db, "standings", check=True).out == (
        "No standings yet: league new has started no season.\n"
    )
    assert run_ledger(db, "leaders", check=True).out == "Nobody on the spp board yet.\n"


def test_dice_a_friendly_does_not_ask_are_refused_saying_so(league: Path, tmp_path: Path) -> None:
    """It said '(expected: )': a friendly has no post-game sequence to roll dice for."""
    friendly = FINE_REPORT.replace("match: g1", "match: g1\nkind: friendly").replace(
        "home: {team: reavers,", "home: {team: reavers, dice: {fan_factor: 2},"
    )
    line = refused(league, "invalid-dice", "match", "record", str(report_file(tmp_path, friendly)))
    assert line.endswith("are not part of this match's sequence (it asks no dice of it)")
