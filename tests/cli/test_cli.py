"""The ``ledger`` command as a commissioner runs it: real processes, real files.

A mistake prints one ``error[...]`` line on stderr, exits non-zero, shows no traceback
and leaves the event count unchanged.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

LEDGER = str(Path(sys.executable).parent / "ledger")
EXAMPLES = Path(__file__).parents[2] / "examples"


def ledger(db: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [LEDGER, "--db", str(db), "--as", "tester", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if check and done.returncode != 0:
        raise AssertionError(f"ledger {' '.join(args)} failed:\n{done.stderr}")
    return done


def events(db: Path) -> int:
    found = json.loads(ledger(db, "league", "list", "--json").stdout)
    return int(found[0]["version"]) if found else 0


def refused(db: Path, code: str, *args: str) -> str:
    before = events(db)
    done = ledger(db, *args, check=False)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error[{code}]: "), lines[0]
    assert events(db) == before
    return lines[0]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    done = subprocess.run(
        [LEDGER, "demo", "--dir", str(folder)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "Skavenblight Scramblers" in done.stdout
    return folder / "demo.db"


LEAGUE_SCRIPT = """
league create owl --name "Old World League" --ruleset bb2025
team register reavers --name "Reikland Reavers" --coach Jay --roster human
team register rats --name Scramblers --coach Rob --roster skaven
team hire rats gutter_runner Skweek --number 1
""" + "".join(f'team hire reavers lineman "Human {i}" --number {i}\n' for i in range(1, 12))


@pytest.fixture
def league(tmp_path: Path) -> Path:
    """Two teams in one ``ledger run`` process (one process per command is slow to start)."""
    db = tmp_path / "cli.db"
    script = tmp_path / "setup.ledger"
    script.write_text(LEAGUE_SCRIPT)
    ledger(db, "run", str(script))
    return db


def test_the_demo_prints_standings_and_a_roster_that_add_up(demo: Path) -> None:
    roster = orjson.loads(ledger(demo, "roster", "skavenblight-scramblers", "--json").stdout)
    skweek = next(p for p in roster["players"] if p["name"] == "Skweek")
    # 2 TD + MVP (10) - Sprint (6) + TD (3) + TD (3) = 10; value 85,000 + 20,000
    assert (skweek["spp"], skweek["value"], skweek["miss_next_game"]) == (10, 105_000, True)
    assert roster["team"]["treasury"] == 205_000
    table = orjson.loads(ledger(demo, "standings", "--json").stdout)
    # The demo season's one division (ledger/demo/league.yaml).
    assert [r["team_id"] for r in table["divisions"]["Old World"]] == [
        "skavenblight-scramblers",
        "reikland-reavers",
        "gouged-eye",
        "grudgebearers",
    ]
    assert ledger(demo, "audit", "verify").returncode == 0


def test_the_query_commands_read_the_demo(demo: Path) -> None:
    leaders = orjson.loads(ledger(demo, "leaders", "--stat", "touchdowns", "--json").stdout)
    top = {(row["name"], row["value"]) for row in leaders[:2]}
    assert top == {("Skweek", 4), ("Ugluk", 4)}  # 2+1+1 and 1+2+1 touchdowns
    treasury = orjson.loads(ledger(demo, "treasury", "gouged-eye", "--json").stdout)
    assert treasury[-1]["balance"] == 145_000
    assert treasury[-1]["kind"] == "expensive_mistake"
    history = ledger(demo, "history", "Skweek").stdout
    assert "took a chosen primary skill: Sprint" in history
    assert "hired Skweek" in history
    assert "Ugluk" in ledger(demo, "roster", "gouged-eye").stdout
    # his games' reports and his team's closes of them, not the opponents' own acts
    twitch = " ".join(ledger(demo, "--wide", "history", "Twitch").stdout.split())
    assert "Skavenblight Scramblers closed the post-game sequence" in twitch
    assert "Dwarf Grudgebearers closed" not in twitch
    assert "league match r1-scramblers-grudgebearers" in twitch
    # the edition's names and the game in words, not the books' ids alone
    reavers = " ".join(ledger(demo, "--wide", "history", "reikland-reavers").stdout.split())
    assert "Reikland Reavers (Human, coach Jay) registered" in reavers
    assert "hired Griff Junior (Human Blitzer) for 85,000" in reavers
    assert "bought 3 x Team Re-roll (150,000)" in reavers
    assert "closed the post-game sequence of match r1-reavers-gouged-eye" in reavers


DEMO_DIVISION = "Old World=reikland-reavers,gouged-eye,skavenblight-scramblers,grudgebearers"


def test_the_demo_season_is_under_way_with_a_final_for_its_top_two(
    demo: Path, tmp_path: Path
) -> None:
    """The demo starts its season as a commissioner starts one, so its next steps can be
    tried on it: the play-offs (League Play, "Play-offs", seed 001), then the close."""
    db = tmp_path / "demo.db"
    shutil.copy(demo, db)
    line = refused(db, "season-state", "season", "start", "--division", DEMO_DIVISION)
    assert line.endswith("season 1 is still open: close it first")
    scheduled = ledger(db, "season", "playoffs").stdout
    assert scheduled.startswith("Scheduled 1 play-off fixture")
    fixtures = orjson.loads(ledger(db, "match", "list", "--json").stdout)
    [final] = [m for m in fixtures if m["stage"] != "regular"]
    assert (final["stage"], final["home"], final["away"]) == (
        "final",
        "skavenblight-scramblers",  # first on 7 points
        "reikland-reavers",  # second on 4
    )
    line = refused(db, "season-state", "season", "close")
    final_said = "the final, Skavenblight Scramblers v Reikland Reavers (s1-final-1)"
    assert line.endswith(f"fixtures still to record: {final_said}")


def test_a_season_owing_its_final_closes_only_when_told_then_schedules_no_play_offs(
    demo: Path, tmp_path: Path
) -> None:
    """Prizes come "after the final games have been played" (seed 001, League Play,
    'Glittering Prizes'): closing the demo's season before its final is refused, unless
    the commissioner says so; the places (1st 100,000, 2nd 60,000, 3rd 30,000) then come
    from the table. A closed season schedules no play-offs: its prizes are given."""
    db = tmp_path / "demo.db"
    shutil.copy(demo, db)
    line = refused(db, "season-state", "season", "close")
    assert "season 1 plays off its top 2 and its final is not played" in line
    assert ledger(db, "season", "close", "--without-playoffs").stdout.strip() == "Season closed."
    prizes = {}
    for team in ("skavenblight-scramblers", "reikland-reavers", "gouged-eye", "grudgebearers"):
        lines = orjson.loads(ledger(db, "treasury", team, "--json").stdout)
        prizes[team] = sum(line["amount"] for line in lines if line["kind"] == "prize")
    assert prizes == {
        "skavenblight-scramblers": 100_000,
        "reikland-reavers": 60_000,
        "gouged-eye": 30_000,
        "grudgebearers": 0,
    }
    history = ledger(db, "history", "grudgebearers").stdout  # no prize: the close still tells
    assert history.splitlines()[-1].endswith("season 1 closed")
    line = refused(db, "season-state", "season", "playoffs")
    assert line.endswith(
        "season 1 is closed: its prizes are given, so its play-offs can no longer be scheduled"
    )
    started = ledger(db, "season", "start", "--division", DEMO_DIVISION).stdout
    assert started.splitlines() == [
        "Season 2 started with 1 division.",
        # none re-drafted (seed 001: a coach who wishes to); the commissioner is told
        "Not re-drafted, so playing as they stand: gouged-eye, grudgebearers,"
        " reikland-reavers, skavenblight-scramblers.",
    ]


def test_a_commissioner_session_from_the_shell(league: Path, tmp_path: Path) -> None:
    ledger(league, "team", "buy", "reavers", "reroll", "--count", "2")
    out = ledger(league, "roster", "reavers").stdout
    assert "TV 650,000" in out
    assert "treasury 350,000" in out
    report = tmp_path / "game.yaml"
    report.write_text(
        "match: g1\nhome: {team: reavers, touchdowns: 1, players: "
        "[{player: Human 1, td: 1, mvp: 1}]}\naway: {team: rats, touchdowns: 0}\n"
    )
    done = ledger(league, "match", "record", str(report), check=False)
    assert "lacks these rolls" in done.stderr
    ledger(league, "match", "record", str(report), "--roll")
    closed = ledger(league, "match", "close", "g1", "--roll").stdout.splitlines()
    # The reavers hold 350,000: BB2025 rolls their Expensive Mistakes, and says so, and
    # what the roll cost them (nothing on a roll that spares them).
    at = next(i for i, line in enumerate(closed) if line.startswith("Closed the post-game"))
    cost = r"Closed the post-game sequence of g1 for reavers(: treasury [0-9,]+ -> [0-9,]+)?\."
    assert re.fullmatch(cost, closed[at]), closed[at]
    # ... and the D3 of the amount, when the D6 calls for one (BB2025 Expensive Mistakes)
    rolled = (
        r"  The ledger rolled: expensive_mistakes D6 [1-6]"
        r"(; expensive_mistakes_amount D3 [1-3])?\."
    )
    assert re.fullmatch(rolled, closed[at + 1])
    assert ledger(league, "audit", "verify").returncode == 0
    backup = tmp_path / "owl.jsonl"
    ledger(league, "export", "--out", str(backup))
    restored = tmp_path / "restored.db"
    ledger(restored, "import", str(backup))
    exported_again = ledger(restored, "export").stdout
    assert exported_again == backup.read_text()


def test_user_mistakes_are_one_line_and_write_nothing(league: Path, tmp_path: Path) -> None:
    refused(league, "unknown-team", "team", "hire", "nobody", "lineman", "X")
    refused(league, "unknown-position", "team", "hire", "reavers", "wizard", "X")
    ledger(
        league,
        "team",
        "register",
        "poor",
        "--name",
        "Poor",
        "--coach",
        "P",
        "--roster",
        "orc",
        "--treasury",
        "40000",
    )
    refused(league, "insufficient-treasury", "team", "hire", "poor", "lineman", "Gob")
    for i in range(5):
        ledger(league, "team", "hire", "reavers", "lineman", f"Extra {i}")
    refused(league, "roster-full", "team", "hire", "reavers", "lineman", "Seventeen")
    refused(
        league, "unknown-ruleset", "league", "create", "x", "--name", "X", "--ruleset", "bb1987"
    )
    create = ("league", "create", "x", "--name", "X", "--ruleset", "bb2025")
    assert "3/1/0" in refused(league, "invalid-option", *create, "--points", "3/1")
    assert "head_to_head" in refused(league, "invalid-option", *create, "--tiebreakers", "coin")
    refused(league, "player-not-in-team", "team", "fire", "rats", "Human 1")
    bad = tmp_path / "bad.yaml"
    bad.write_text("home: {team: reavers\n")
    refused(league, "malformed-report", "match", "record", str(bad))
    refused(league, "malformed-report", "match", "record", str(tmp_path / "missing.yaml"))
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(
        "match: g9\nhome: {team: reavers, players: [{player: Skweek, td: 1}]}\naway: {team: rats}\n"
    )
    refused(league, "player-not-in-team", "match", "record", str(wrong), "--roll")


def test_a_league_keeps_its_own_points_scheme(tmp_path: Path) -> None:
    db = tmp_path / "points.db"
    ledger(db, "league", "create", "cup", "--name", "Cup", "--ruleset", "bb2025",
           "--points", "2/1/0", "--bonus", "clean_sheet", "--bonus-mode", "tiebreak",
           "--tiebreakers", "wins,head_to_head")  # fmt: skip
    shown = orjson.loads(ledger(db, "--league", "cup", "league", "show", "--json").stdout)
    assert shown["points"] == {
        "win": 2,
        "draw": 1,
        "loss": 0,
        "bonus": ["clean_sheet"],
        "bonus_mode": "tiebreak",
        "tiebreakers": ["wins", "head_to_head"],
    }


def test_the_same_match_twice_is_refused(league: Path, tmp_path: Path) -> None:
    report = tmp_path / "game.yaml"
    report.write_text(
        "match: g1\nhome: {team: reavers, touchdowns: 0}\naway: {team: rats, touchdowns: 0}\n"
    )
    ledger(league, "match", "record", str(report), "--roll")
    line = refused(league, "match-already-recorded", "match", "record", str(report), "--roll")
    assert "g1" in line


def test_audit_verify_fails_and_names_the_altered_event(league: Path) -> None:
    with sqlite3.connect(league) as db:
        (state,) = db.execute(
            "SELECT state FROM stored_events WHERE originator_version = 4"
        ).fetchone()
        changed = orjson.loads(state)
        changed["name"] = "Someone Else"
        db.execute(
            "UPDATE stored_events SET state = ? WHERE originator_version = 4",
            (orjson.dumps(changed),),
        )
    done = ledger(league, "audit", "verify", check=False)
    assert done.returncode == 1
    assert "CHAIN BROKEN" in done.stdout
    assert "PlayerHired" in done.stdout
    assert "altered after it was recorded" in done.stdout


def test_audit_verify_reads_the_leagues_from_the_stored_events(league: Path) -> None:
    """A league's read-model row deleted (with one of its events altered) does not hide it
    from the audit: the logs to verify are those the store holds events of."""
    ledger(league, "league", "create", "second", "--name", "Second League", "--ruleset", "bb2025")
    with sqlite3.connect(league) as db:
        slug = next(s for (s,) in db.execute("SELECT slug FROM rm_leagues") if s != "second")
        (state,) = db.execute(
            "SELECT state FROM stored_events WHERE originator_version = 4"
        ).fetchone()  # the second league has one event: this is the first league's
        db.execute(
            "UPDATE stored_events SET state = ? WHERE originator_version = 4",
            (orjson.dumps({**orjson.loads(state), "name": "Someone Else"}),),
        )
        db.execute("DELETE FROM rm_leagues WHERE slug = ?", (slug,))
    done = ledger(league, "audit", "verify", check=False)
    assert done.returncode == 1
    assert f"{slug}: " in done.stdout
    assert "CHAIN BROKEN" in done.stdout
    assert "second: 1 event, chain intact" in done.stdout


def test_a_league_whose_first_event_is_gone_keeps_its_name(league: Path) -> None:
    """Its events are still stored: creating a league of that name is refused in a
    sentence (it used to end in the library's assertion)."""
    with sqlite3.connect(league) as db:
        (slug,) = db.execute("SELECT slug FROM rm_leagues").fetchone()
        db.execute("DELETE FROM stored_events WHERE originator_version = 1")
    again = ledger(
        league, "league", "create", slug, "--name", "X", "--ruleset", "bb2025", check=False
    )
    assert again.returncode != 0
    assert (
        again.stderr.strip()
        == f"error[league-exists]: a league '{slug}' already exists in this ledger"
    )
    done = ledger(league, "audit", "verify", check=False)
    assert done.returncode == 1
    assert "CHAIN BROKEN" in done.stdout


def test_a_final_is_not_voided_under_the_close_it_decided(demo: Path, tmp_path: Path) -> None:
    """The round-2 tester's F6: voided after the season closed, the final left the season
    closed with its final unplayed and the prizes read again from the table. The close
    could not have been recorded without the final: the void is refused."""
    db = tmp_path / "demo.db"
    shutil.copy(demo, db)
    ledger(db, "season", "playoffs")
    final = tmp_path / "final.yaml"
    final.write_text(
        "match: s1-final-1\nkind: playoff\n"
        "home: {team: skavenblight-scramblers, touchdowns: 1}\n"
        "away: {team: reikland-reavers, touchdowns: 0}\n"
    )
    ledger(db, "match", "record", str(final), "--roll")
    ledger(db, "match", "close", "s1-final-1", "--roll")
    assert ledger(db, "season", "close").stdout.strip() == "Season closed."
    shown = orjson.loads(ledger(db, "match", "show", "s1-final-1", "--json").stdout)
    line = refused(
        db, "correction-refused", "correct", str(shown["recorded_seq"]), "--void", "--reason", "x"
    )
    assert (
        "(season closed) could not have been recorded: fixtures still to record: the final," in line
    )
