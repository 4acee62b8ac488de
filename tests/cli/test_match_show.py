"""``ledger match show`` and what ``match record`` says: the game as recorded, what the
league's ruleset made of it, which dice the ledger rolled, and its corrections.

The league is BB2025 (Reavers, human, against the Scramblers, skaven); the numbers are the
edition's: a touchdown 3 SPP, an MVP 4, a casualty from a block 2; winnings (attendance / 2
+ touchdowns + 1 for not stalling) x 10,000.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.inprocess import run_ledger

LEAGUE_SCRIPT = """
league create owl --name "Old World League" --ruleset bb2025
team register reavers --name "Reikland Reavers" --coach Jay --roster human
team register rats --name Scramblers --coach Rob --roster skaven
team hire rats gutter_runner Skweek --number 1
team hire rats clanrat "Rat 2" --number 2
""" + "".join(f'team hire reavers lineman "Human {i}" --number {i}\n' for i in range(1, 12))

REPORT = """
match: g1
played_on: "2026-11-16"
home:
  team: reavers
  players: [{player: Human 1, td: 2, mvp: 1}, {player: Human 2, comp: 1}]
  dice: {fan_factor: 2, dedicated_fans: 5}
away:
  team: rats
  players: [{player: Skweek, td: 1, mvp: 1}]
  dice: {fan_factor: 1}
casualties:
  - {victim: Human 3, by: Skweek, roll: 13, lasting: 1}
"""


@pytest.fixture
def league(tmp_path: Path) -> Path:
    db = tmp_path / "owl.db"
    script = tmp_path / "setup.ledger"
    script.write_text(LEAGUE_SCRIPT)
    run_ledger(db, "run", str(script), check=True)
    return db


@pytest.fixture
def played(league: Path, tmp_path: Path) -> Path:
    """g1 recorded: the rats' Dedicated Fans die left for the ledger to roll."""
    report = tmp_path / "g1.yaml"
    report.write_text(REPORT)
    recorded = run_ledger(league, "match", "record", str(report), "--roll", check=True)
    assert "The ledger rolled: dedicated_fans D6 for Scramblers: " in recorded.out
    return league


def sheet(db: Path, match: str = "g1") -> Any:
    return run_ledger(db, "match", "show", match, "--json").json()


def test_the_report_as_recorded_and_the_spp_the_ruleset_awarded(played: Path) -> None:
    found = sheet(played)
    assert (found["status"], found["played_on"], found["winner"]) == (
        "played",
        "2026-11-16",
        "reavers",
    )
    assert [(s["team_id"], s["touchdowns"]) for s in found["sides"]] == [
        ("reavers", 2),
        ("rats", 1),
    ]
    players = {p["name"]: p for p in found["players"]}
    assert (players["Human 1"]["touchdowns"], players["Human 1"]["mvps"]) == (2, 1)
    assert players["Human 1"]["spp"] == 2 * 3 + 4
    assert players["Human 2"]["spp"] == 1  # a completion
    assert (players["Skweek"]["casualties"], players["Skweek"]["spp"]) == (1, 3 + 4 + 2)


def test_a_casualty_with_its_dice_and_outcome(played: Path) -> None:
    (casualty,) = sheet(played)["casualties"]
    assert (casualty["victim_name"], casualty["by_name"]) == ("Human 3", "Skweek")
    assert (casualty["outcome"], casualty["effects"]) == (
        "lasting_injury",
        ["miss_next_game", "-av"],
    )
    assert [(d["purpose"], d["dice"], d["values"]) for d in casualty["dice"]] == [
        ("casualty", "D16", [13]),
        ("lasting_injury", "D6", [1]),
    ]


def test_winnings_and_fans_as_the_ruleset_has_them(played: Path) -> None:
    sides = {s["team_id"]: s for s in sheet(played)["sides"]}
    reavers = sides["reavers"]
    (winnings,) = reavers["gold"]
    assert winnings["kind"] == "winnings"
    # Fan Factor 1 + 2 and 1 + 1: attendance 5, 5 / 2 + 2 TD + 1 no stalling, x 10,000
    assert winnings["amount"] == 55_000
    assert (reavers["fans_before"], reavers["fans_after"]) == (1, 2)  # won, rolled 5 >= 1
    assert reavers["closed_seq"] is None


def test_entered_dice_and_the_dice_the_ledger_rolled(played: Path) -> None:
    dice = sheet(played)["dice"]
    by = {(d["purpose"], d["subject"]): d["source"] for d in dice}
    assert by[("dedicated_fans", "reavers")] == "table"
    assert by[("dedicated_fans", "rats")] == "ledger"
    assert by[("casualty", "Human 3")] == "table"
    named = {(d["purpose"], d["subject_name"]) for d in dice}  # each subject by name
    assert {("dedicated_fans", "Scramblers"), ("dedicated_fans", "Reikland Reavers")} <= named
    out = run_ledger(played, "match", "show", "g1").out
    assert "Reikland Reavers 2-1 Scramblers" in out
    assert "Winner: Reikland Reavers." in out  # by its name, not its id
    assert "rolled by the ledger" in out


def test_record_prints_the_summary(league: Path, tmp_path: Path) -> None:
    report = tmp_path / "g1.yaml"
    report.write_text(
        REPORT.replace("dice: {fan_factor: 1}", "dice: {fan_factor: 1, dedicated_fans: 2}")
    )
    out = run_ledger(league, "match", "record", str(report), check=True).out
    assert out.startswith("Recorded match g1.\n")
    assert "Match g1: Reikland Reavers 2-1 Scramblers" in out
    assert "Casualties" in out
    assert "winnings" in out
    assert "rolled by the ledger" not in out


def test_the_close_and_its_expensive_mistakes_die_are_shown(played: Path) -> None:
    # Reavers 505,000 in the treasury: a 3 is a Minor Incident, a D3 x 10,000 lost
    run_ledger(played, "match", "close", "g1", "--die", "expensive_mistakes=3",
               "--die", "reavers:expensive_mistakes_amount=2", check=True)  # fmt: skip
    found = sheet(played)
    reavers = next(s for s in found["sides"] if s["team_id"] == "reavers")
    assert reavers["closed_seq"] is not None
    assert [(m["kind"], m["amount"]) for m in reavers["gold"]] == [
        ("winnings", 55_000),
        ("expensive_mistake", -20_000),
    ]
    close_dice = [(d["purpose"], d["subject"]) for d in found["dice"] if d["step"] == "close"]
    assert ("expensive_mistakes_amount", "reavers") in close_dice
    assert "post-game closed (event" in run_ledger(played, "match", "show", "g1").out


def test_a_closes_amended_dice_are_shown_as_amended(played: Path) -> None:
    """The gold followed the amendment, the dice shown stayed as first recorded."""
    run_ledger(played, "match", "close", "g1", "--die", "expensive_mistakes=3",
               "--die", "reavers:expensive_mistakes_amount=2", check=True)  # fmt: skip
    reavers = next(s for s in sheet(played)["sides"] if s["team_id"] == "reavers")
    close = reavers["closed_seq"]
    dice = (
        '[{"purpose": "expensive_mistakes", "dice": "D6", "values": [3], "subject": "reavers"},'
        ' {"purpose": "expensive_mistakes_amount", "dice": "D3", "values": [1],'
        ' "subject": "reavers"}]'
    )
    run_ledger(played, "correct", str(close), "--set", f"dice={dice}", "--reason", "a 1",
               check=True)  # fmt: skip
    found = sheet(played)
    reavers = next(s for s in found["sides"] if s["team_id"] == "reavers")
    assert ("expensive_mistake", -10_000) in [(m["kind"], m["amount"]) for m in reavers["gold"]]
    amounts = [d["values"] for d in found["dice"] if d["purpose"] == "expensive_mistakes_amount"]
    assert amounts == [[1]]


def test_a_voided_match_says_so_who_voided_it_and_why(played: Path) -> None:
    seq = sheet(played)["recorded_seq"]
    run_ledger(played, "correct", str(seq), "--void", "--reason", "wrong teams", check=True)
    found = sheet(played)
    assert found["status"] == "voided"
    (correction,) = found["corrections"]
    assert (correction["reason"], correction["summary"]) == ("wrong teams", f"event {seq} voided")
    assert correction["by"] == "tester"
    assert all(p["spp"] is None for p in found["players"])
    out = run_ledger(played, "match", "show", "g1").out
    assert "VOIDED" in out
    assert "wrong teams" in out


def test_an_amended_match_shows_the_amended_report(played: Path, tmp_path: Path) -> None:
    seq = sheet(played)["recorded_seq"]
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text(REPORT.replace("td: 2, mvp: 1", "td: 3, mvp: 1"))
    run_ledger(
        played, "correct", str(seq), "--report", str(fixed), "--reason", "a third TD", check=True
    )
    found = sheet(played)
    assert found["sides"][0]["touchdowns"] == 3
    assert next(p for p in found["players"] if p["name"] == "Human 1")["spp"] == 3 * 3 + 4
    assert [c["reason"] for c in found["corrections"]] == ["a third TD"]


def test_an_unknown_match_is_one_line(league: Path) -> None:
    line = run_ledger(league, "match", "show", "nope").error_line
    assert line.startswith("error[unknown-match]: no match 'nope'")


def test_history_takes_a_bare_match_id(played: Path) -> None:
    lines: Any = run_ledger(played, "history", "g1", "--json").json()
    assert {line["ref"] for line in lines} == {"match:g1"}
    assert lines[0]["summary"] == "league match g1: Reikland Reavers 2-1 Scramblers"


def test_a_players_history_names_his_game_and_his_injury(played: Path) -> None:
    lines: Any = run_ledger(played, "history", "Human 3", "--json").json()
    game = next(line for line in lines if line["event_type"] == "MatchRecorded")
    assert game["summary"] == (
        "league match g1: Reikland Reavers 2-1 Scramblers; 0 SPP;"
        " lasting injury (misses the next game, -1 AV)"
    )
    scorer: Any = run_ledger(played, "history", "Skweek", "--json").json()
    game = next(line for line in scorer if line["event_type"] == "MatchRecorded")
    assert game["summary"].endswith("; 1 TD, 1 cas, 1 MVP: 9 SPP")


def test_history_of_nothing_known_is_one_line(played: Path) -> None:
    line = run_ledger(played, "history", "Nobody").error_line
    assert line.startswith("error[not-found]: no team, match or player 'Nobody' in league ")


def test_close_names_every_die_both_teams_need_at_once(played: Path) -> None:
    line = run_ledger(played, "match", "close", "g1").error_line
    said = "error[invalid-dice]: closing g1 for Reikland Reavers (reavers) needs expensive_mistakes"
    assert line.startswith(said)
    assert "and for Scramblers (rats) needs expensive_mistakes (D6)" in line
    # Reavers 505,000: a 1 is a Catastrophe (keep 2D6 x 10,000), 3-4 a Minor Incident (D3)
    assert "on 1 also expensive_mistakes_amount (2D6): catastrophe incident" in line
    assert "on 3-4 also expensive_mistakes_amount (D3): minor incident" in line
    line = run_ledger(played, "match", "close", "g1", "--die", "expensive_mistakes=3").error_line
    assert (
        "for Reikland Reavers (reavers) needs expensive_mistakes_amount (D3): minor incident"
        in line
    )
    assert "Scramblers" not in line  # 3 at 865,000: a Major Incident, no more dice
    assert sheet(played)["sides"][0]["closed_seq"] is None  # nothing closed


def test_a_fixture_not_yet_played_is_shown_as_scheduled(league: Path) -> None:
    for team, roster in (("orcs", "orc"), ("dwarfs", "dwarf")):
        run_ledger(league, "team", "register", team, "--name", team.title(), "--coach", "C",
                   "--roster", roster, check=True)  # fmt: skip
    run_ledger(league, "season", "start", "--division", "A=reavers,rats,orcs,dwarfs", check=True)
    run_ledger(league, "season", "schedule", check=True)
    fixture: Any = run_ledger(league, "match", "list", "--json").json()
    first = fixture[0]["match_id"]
    found = sheet(league, first)
    assert (found["status"], found["recorded_seq"], found["players"]) == ("scheduled", None, [])
    out = run_ledger(league, "match", "show", first).out
    assert "Not recorded yet (scheduled)." in out
    assert " v " in out.splitlines()[0]


def test_fans_bought_before_the_game_count_as_the_team_took_the_field(
    league: Path, tmp_path: Path
) -> None:
    """Dedicated Fans bought at the draft (BB2025, 10,000 each) are the fans the game's
    roll starts from: 1 + 2 bought = 3 before, a win and a 5 make it 4 after."""
    run_ledger(league, "team", "buy", "reavers", "dedicated_fans", "--count", "2", check=True)
    report = tmp_path / "g1.yaml"
    report.write_text(REPORT)
    run_ledger(league, "match", "record", str(report), "--roll", check=True)
    reavers = {s["team_id"]: s for s in sheet(league)["sides"]}["reavers"]
    assert (reavers["fans_before"], reavers["fans_after"]) == (3, 4)
