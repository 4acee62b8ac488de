"""A short lrb6 season from the command line, beside the same season under lrb6-zal.

One ``ledger run SCRIPT`` per edition drafts the same two teams (a Human team grown to a
team value of 1,750,000, and Orcs), records the same two games with the dice each
edition's sequence asks for, then ``roster --json`` reads the books. The figures are each
edition's own: LRB6 pays (D6 + FAME, +1 won or tied) x 10,000 less spiralling expenses and
moves Fan Factor on 3D6/2D6 against the current figure (Competition Rules 2010 p.18, p.28);
ZAL pays the Match Winnings Table with no spiralling costs and rolls its Fan Factor Table
(seed 000: MATCH WINNINGS TABLE, FAN FACTOR TABLE, ZAL 18).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

LEDGER = str(Path(sys.executable).parent / "ledger")
# 16 players worth 1,170,000; with 8 re-rolls, Fan Factor 9, an apothecary and four
# cheerleaders the team value is 1,750,000 (spiralling expenses 10,000 a game in LRB6).
HUMANS = [*["blitzer"] * 4, *["catcher"] * 4, "thrower", "thrower", "ogre", *["lineman"] * 5]
HUMAN_SIDELINE = ["reroll --count 8", "fan_factor --count 9", "apothecary", "cheerleader --count 4"]
ORCS = [*["blitzer"] * 4, *["black_orc_blocker"] * 4, *["lineman"] * 3]  # 790,000
ORC_SIDELINE = ["reroll", "fan_factor --count 3"]  # 60,000 + 30,000

# Per edition and game: each side's dice. LRB6: the gate's 2D6, the winnings D6, the Fan
# Factor roll (3D6 for a winner). ZAL: one gate D6 per Fan Factor, the winnings D6 and
# the Fan Factor Table's D6.
DICE: dict[str, dict[str, dict[str, dict[str, Any]]]] = {
    "lrb6": {
        # Humans 4+4+9 = 17,000 fans, Orcs 2+2+3 = 7,000: Humans FAME +2.
        "r1": {
            "humans": {"gate": [4, 4], "winnings": 4, "fan_factor": [1, 2, 3]},
            "orcs": {"gate": [2, 2], "winnings": 3, "fan_factor": [1, 1]},
        },
        # Orcs (Fan Factor 2 now) 3+3+2 = 8,000, Humans 1+1+9 = 11,000: Humans FAME +1.
        "r2": {
            "orcs": {"gate": [3, 3], "winnings": 5, "fan_factor": [1, 1]},
            "humans": {"gate": [1, 1], "winnings": 2, "fan_factor": [6, 5]},
        },
    },
    "lrb6-zal": {
        # 27 + 6 pips: 33,000 fans. Humans TR 175 (table 0), Orcs TR 88 (table 3).
        "r1": {
            "humans": {"gate": [3] * 9, "winnings": 4, "fan_factor": 3},
            "orcs": {"gate": [2, 2, 2], "winnings": 3, "fan_factor": 1},
        },
        # 6 + 9 pips: 15,000 fans. Humans TR 177 (table 0), Orcs TR 87 + SPP (table 1).
        "r2": {
            "orcs": {"gate": [3, 3], "winnings": 5, "fan_factor": 3},
            "humans": {"gate": [1] * 9, "winnings": 2, "fan_factor": 6},
        },
    },
}

# What the books say after the two games: (Humans treasury, Humans Fan Factor, Orcs
# treasury, Orcs Fan Factor). Both start with 50,000 and 120,000 left after the draft.
EXPECTED = {
    # r1: Humans (4 + 2 + 1) x 10,000 - 10,000 = 60,000; 3D6 6 against 9: no change.
    #     Orcs (3 + 0) x 10,000 = 30,000; 2D6 2 under 3: Fan Factor 2.
    # r2 (1-1): Humans (2 + 1 + 1) x 10,000 - 10,000 = 30,000; 2D6 11 beats 9: 10.
    #     Orcs (5 + 0 + 1) x 10,000 = 60,000; 2D6 2 against 2: no change.
    "lrb6": (140_000, 10, 210_000, 2),
    # r1: Humans D6 4 + 0 + 1 (won) = 50,000; Fan Factor 3 + 1 won + 1 (2 TDs) = 5: stays.
    #     Orcs D6 3 + 3 = 60,000; 1 - 1 lost = 0: Fan Factor 2.
    # r2 (1-1, no +1 for a draw): Humans D6 2 + 0 = 20,000; 6: Fan Factor 10.
    #     Orcs D6 5 + 1 = 60,000; 3: stays.
    "lrb6-zal": (120_000, 10, 240_000, 2),
}


def ledger(db: Path, *args: str) -> str:
    done = subprocess.run(
        [LEDGER, "--db", str(db), "--as", "commissioner", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"ledger {' '.join(args)} failed:\n{done.stderr}"
    return done.stdout


def draft(team: str, roster: str, positions: list[str], sideline: list[str]) -> list[str]:
    lines = [f'team register {team} --name "{team.title()}" --coach Coach --roster {roster}']
    if team == "humans":  # a team grown over earlier seasons: the commissioner funds it
        lines.append('team adjust humans 800000 --reason "carried over from last season"')
    for number, position in enumerate(positions, 1):
        lines.append(f'team hire {team} {position} "{team} {number}" --number {number}')
    return lines + [f"team buy {team} {item}" for item in sideline]


def report(
    match: str, home: str, away: str, score: tuple[int, int], edition: str
) -> dict[str, Any]:
    dice = DICE[edition][match]
    return {
        "match": match,
        "home": {
            "team": home,
            "players": [{"player": f"{home} 1", "td": score[0], "mvp": 1}],
            "dice": dice[home],
        },
        "away": {
            "team": away,
            "players": [{"player": f"{away} 1", "td": score[1], "mvp": 1}],
            "dice": dice[away],
        },
    }


def season(folder: Path, edition: str) -> Path:
    lines = [f'league create short --name "A Short Season" --ruleset {edition}']
    lines += draft("humans", "human", HUMANS, HUMAN_SIDELINE)
    lines += draft("orcs", "orc", ORCS, ORC_SIDELINE)
    for match, home, away, score in (
        ("r1", "humans", "orcs", (2, 1)),
        ("r2", "orcs", "humans", (1, 1)),
    ):
        path = folder / f"{match}.yaml"
        path.write_text(yaml.safe_dump(report(match, home, away, score, edition)))
        lines.append(f"match record {path.name}")
    script = folder / "season.ledger"
    script.write_text("\n".join(lines) + "\n")
    return script


@pytest.mark.parametrize("edition", ["lrb6", "lrb6-zal"])
def test_the_same_season_books_each_editions_own_figures(tmp_path: Path, edition: str) -> None:
    db = tmp_path / "ledger.db"
    ledger(db, "run", str(season(tmp_path, edition)))
    humans = json.loads(ledger(db, "roster", "humans", "--json"))["team"]
    orcs = json.loads(ledger(db, "roster", "orcs", "--json"))["team"]
    found = (humans["treasury"], humans["fans"], orcs["treasury"], orcs["fans"])
    assert found == EXPECTED[edition]
    assert humans["games"] == orcs["games"] == 2
