"""A whole BB2025 season through the CLI, checked against numbers worked out by hand.

The season (tests/integration/season_bb2025/) drafts eight teams of 11 linemen (Human, Orc
and Skaven linemen 50,000; Dwarf 70,000: treasuries 450,000 and 230,000 after the draft),
plays a round robin in two divisions, semi-finals, a final and a third-place play-off, then
re-drafts two teams. In every game each team's Fan Factor D3 is a 1, a winner's Dedicated
Fans D6 is a 6 (so +1) and a loser's a 6 (so no loss); every Expensive Mistakes roll is a
5 ('Crisis Averted' in every column).

Winnings ('Record Outcome and Collect Winnings'): (Fan Attendance / 2 + touchdowns + 1)
x 10,000, Fan Attendance = each team's Dedicated Fans + 1.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

LEDGER = str(Path(sys.executable).parent / "ledger")
SEASON = Path(__file__).parent / "season_bb2025" / "season.ledger"


def ledger(db: Path, *args: str) -> str:
    done = subprocess.run(
        [LEDGER, "--db", str(db), *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("season") / "season.db"
    ledger(db, "--as", "commissioner", "run", str(SEASON))
    return db


def roster(db: Path, team: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(ledger(db, "roster", team, "--json"))
    return found


def table(db: Path, season: int = 1) -> dict[str, list[dict[str, Any]]]:
    found = json.loads(ledger(db, "standings", "--season", str(season), "--json"))
    return dict(found["divisions"])


def test_the_division_tables(season: Path) -> None:
    """North: Gouged Eye D1 W3-1 D1-1 = 5 pts; Scramblers D W L = 4, TD 4-3; Reavers W L D
    = 4, TD 3-4 (so TD difference puts the Scramblers second); Grudgebearers L L W = 3.
    South: Pestilent D W D = 5; Bloodbay and Karak 4 each with TD difference -1 (4-5 and
    2-3), so touchdowns scored separate them; Altdorf L L W = 3."""
    divisions = table(season)
    north = [(r["team_id"], r["row"]["points"], r["separated_by"]) for r in divisions["North"]]
    assert north == [
        ("gouged", 5, None),
        ("scramblers", 4, "touchdown_difference"),
        ("reavers", 4, None),
        ("grudge", 3, None),
    ]
    south = [(r["team_id"], r["row"]["points"], r["separated_by"]) for r in divisions["South"]]
    assert south == [
        ("pestilent", 5, None),
        ("bloodbay", 4, "touchdowns_for"),
        ("karak", 4, None),
        ("altdorf", 3, None),
    ]
    reavers = next(r["row"] for r in divisions["North"] if r["team_id"] == "reavers")
    assert (
        reavers["won"],
        reavers["drawn"],
        reavers["lost"],
        reavers["td_for"],
        reavers["td_against"],
        reavers["cas_for"],
    ) == (1, 1, 1, 3, 4, 1)


def test_the_play_offs(season: Path) -> None:
    """Semi-finals cross the divisions: the division winners against the other division's
    runners-up; Pestilent beat the Scramblers on penalties, then won the final."""
    matches = json.loads(ledger(season, "match", "list", "--season", "1", "--json"))
    knockout = {
        m["match_id"]: (m["home"], m["away"], m["winner"])
        for m in matches
        if m["stage"] != "regular"
    }
    assert knockout == {
        "s1-semi-final-1": ("gouged", "bloodbay", "gouged"),
        "s1-semi-final-2": ("pestilent", "scramblers", "pestilent"),
        "s1-final-1": ("gouged", "pestilent", "pestilent"),
        "s1-third-place": ("bloodbay", "scramblers", "scramblers"),
    }


# Treasury = after the draft + winnings + prize ('Glittering Prizes' 100/60/30,000).
# Dedicated Fans shown before each game:
#   Gouged Eye: D 1-1 (1 v 1: 4/2+1+1 = 40k), W 3-1 (1 v 1: 2+3+1 = 60k), D 1-1 (2 v 2:
#   6/2+1+1 = 50k), SF W 2-1 (2 v 2: 3+2+1 = 60k), F L 1-2 (3 v 3: 8/2+1+1 = 60k), 2nd.
#   Scramblers: D (40k), W 2-0 (1 v 2: 5/2+2+1 = 55k), L 1-2 (2 v 1: 2.5+1+1 = 45k),
#   SF on penalties (2 v 2: 3+1+1 = 50k), 3rd place W 1-0 (2 v 2: 3+1+1 = 50k), 3rd.
#   Bloodbay: D 2-2 (50k), W 2-0 (1 v 2: 2.5+2+1 = 55k), L 0-3 (2 v 1: 2.5+0+1 = 35k),
#   SF L 1-2 (50k), 3rd place L 0-1 (3+0+1 = 40k).
#   Altdorf: L 0-1 (30k), L 0-1 (30k), W 3-0 (1 v 2: 2.5+3+1 = 65k).
#   Grudgebearers (Dwarfs, 230,000): L 1-2 (40k), L 1-3 (40k), W 2-1 (1 v 2: 55k).
#   Karak (Dwarfs, 230,000): W 1-0 (40k), L 0-2 (2 v 1: 2.5+0+1 = 35k), D 1-1 (50k).
SEASON_END = {
    "gouged": 450_000 + 40_000 + 60_000 + 50_000 + 60_000 + 60_000 + 60_000,
    "scramblers": 450_000 + 40_000 + 55_000 + 45_000 + 50_000 + 50_000 + 30_000,
    "bloodbay": 450_000 + 50_000 + 55_000 + 35_000 + 50_000 + 40_000,
    "altdorf": 450_000 + 30_000 + 30_000 + 65_000,
    "grudge": 230_000 + 40_000 + 40_000 + 55_000,
    "karak": 230_000 + 40_000 + 35_000 + 50_000,
}


@pytest.mark.parametrize(("team", "treasury"), sorted(SEASON_END.items()))
def test_treasuries_at_the_end_of_the_season(season: Path, team: str, treasury: int) -> None:
    assert roster(season, team)["team"]["treasury"] == treasury


def test_forced_advancements_and_values(season: Path) -> None:
    """'Spending Star Player Points': a player with SPP for a characteristic improvement
    (14 for a first advancement, 16 for a second) must advance before the post-game closes.
    Eye 1: 3 + 6+4 + 6+4 = 23 SPP; Block (6, Elite: +30,000) leaves 17, enough for a second
    characteristic (16), so Tackle (8, +20,000) leaves 9: value 100,000. Eye 2: 4 + 3 + 3+4 =
    14; Block: 8 left, value 80,000."""
    players = {p["name"]: p for p in roster(season, "gouged")["players"]}
    assert (players["Eye 1"]["spp"], players["Eye 1"]["value"]) == (9, 100_000)
    assert (players["Eye 2"]["spp"], players["Eye 2"]["value"]) == (8, 80_000)
    assert players["Eye 1"]["skills"] == ["Block", "Tackle"]
    assert roster(season, "gouged")["team"]["values"] == {"tv": 630_000, "ctv": 630_000}
    scramblers = {p["name"]: p for p in roster(season, "scramblers")["players"]}
    assert (scramblers["Scramblers 1"]["spp"], scramblers["Scramblers 1"]["value"]) == (
        14,
        70_000,
    )  # 3 + 6+4 + 3+4 = 20, Wrestle (6, not Elite: +20,000)


def test_the_champions_and_their_redraft(season: Path) -> None:
    """Pestilent: 450,000 + D 2-2 (50k) + W 1-0 (40k) + D 1-1 (2 v 2: 50k) + SF on penalties
    (50k) + F W 2-1 (3 v 3: 4+2+1 = 70k) + 100,000 = 810,000. 'Raise Funds': 1,000,000 +
    810,000 + 3 fixtures x 20,000 + 1 win x 20,000 + 2 draws x 10,000 = 1,910,000, capped at
    1,300,000. 'Re-draft Team': every one of the eleven took part in season 1, on the roster at
    its games (+20,000 agent's fee each, seed 001 'Re-drafting'), whether a report named him
    (Packs 1-3) or not: Packs 1 (Block: 100,000), 2 (Dauntless: 90,000), 3 (70,000) and eight
    more at 70,000 = 820,000; 480,000 left."""
    found = roster(season, "pestilent")
    team = found["team"]
    assert team["treasury"] == 1_300_000 - 820_000
    assert team["trophy"] is True  # held "until the end of the next Season"
    assert team["values"]["tv"] == 9 * 50_000 + 80_000 + 70_000 + 50_000  # + the Trophy re-roll
    assert (team["fans"], team["season"], team["drafting"]) == (1, 2, True)
    treasury = json.loads(ledger(season, "treasury", "pestilent", "--json"))
    kinds = [line["kind"] for line in treasury]
    assert "prize" in kinds
    assert kinds.count("re-hire") == 11
    rehired = [line["note"] for line in treasury if line["kind"] == "re-hire"]
    assert "Packs 1 (clanrat)" in rehired  # named as a hire is, never by player id


def test_the_reavers_redraft(season: Path) -> None:
    """Reavers: 450,000 + W 2-1 (1 v 1: 2+2+1 = 50k) + L 0-2 (2 v 1: 2.5+0+1 = 35k) + D 1-1
    (2 v 2: 3+1+1 = 50k) = 585,000; budget 1,000,000 + 585,000 + 60,000 + 20,000 + 10,000 =
    1,675,000, capped at 1,300,000; all eleven took part in season 1 (50,000 + 20,000 agent's
    fee each), named in a report (Reavers 1-3) or not: 770,000; 530,000 left."""
    assert roster(season, "reavers")["team"]["treasury"] == 530_000


def test_the_season_is_audited_end_to_end(season: Path) -> None:
    assert "chain intact" in ledger(season, "audit", "verify")
