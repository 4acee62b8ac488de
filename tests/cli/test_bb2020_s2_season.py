"""A short Blood Bowl 2020 Season 2 league from the command line, with Season 2's figures.

One ``ledger run`` script: a league created as ``--ruleset 2020`` (an old alias, now Season
2), a Human team with three Catchers (0-4 at 65,000 in Season 2; 2025 allows two at 75,000)
and a Dwarf team (re-rolls 50,000; 60,000 in 2025), two games with the dice given, both
post-game sequences closed, and a random Primary skill bought between them. The figures
were worked by hand from the Season 2 tables (docs/rulesets/bb2020.md):

- r1, Reavers 2-1 Dwarves. Fan Factors 3 + 3 (fans 3, D3 3) and 2 + 2: attendance 10.
  Reavers win 10 / 2 + 2 = 7 -> 70,000; Dwarves 5 + 1 = 6 -> 60,000 (2025 adds 10,000 each
  for not stalling). Dedicated Fans: Reavers win and roll 5 >= 3 -> 4; Dwarves lose and
  roll 1 < 2 -> 1. Blitzer One's Deflection earns 1 SPP, his MVP 4: 5 SPP.
- Closing r1 with a D6 of 4: Reavers' 205,000 and Dwarves' 130,000 are Crisis Averted.
- Catcher One (2 TDs, 6 SPP) buys a random Primary skill: 3 SPP, +10,000 (2025: +20,000);
  Agility 1-3/1 is Catch (he has it, re-rolled), 1-3/2 Diving Catch. Value 75,000.
- r2, Dwarves 1-1 Reavers. Fan Factors 1 + 1 and 4 + 1: attendance 7; each wins
  7 / 2 + 1 = 4.5 -> 45,000. Catcher One's TD: 3 + 3 = 6 SPP.
- Treasuries: Reavers 135,000 + 70,000 + 45,000 = 250,000; Dwarves 70,000 + 60,000 +
  45,000 = 175,000. Reavers' TV: 745,000 of players + 10,000 + 2 re-rolls at 50,000 =
  855,000; the Dwarves' 870,000 + 50,000 = 920,000.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

LEDGER = str(Path(sys.executable).parent / "ledger")

REAVERS = [
    ("catcher", "Catcher One"),
    ("catcher", "Catcher Two"),
    ("catcher", "Catcher Three"),
    ("thrower", "Thrower"),
    ("blitzer", "Blitzer One"),
    ("blitzer", "Blitzer Two"),
    *[("lineman", f"Lineman {n}") for n in range(7, 13)],
]
DWARVES = [
    ("runner", "Runner One"),
    ("runner", "Runner Two"),
    ("blitzer", "Blitzer One"),
    ("blitzer", "Blitzer Two"),
    ("troll_slayer", "Slayer One"),
    ("troll_slayer", "Slayer Two"),
    *[("lineman", f"Blocker {n}") for n in range(7, 12)],
]
R1 = {
    "match": "r1",
    "home": {
        "team": "reavers",
        "players": [
            {"player": "Catcher One", "td": 2},
            {"player": "Thrower", "comp": 1, "mvp": 1},
        ],
        "dice": {"fan_factor": 3, "dedicated_fans": 5},
    },
    "away": {
        "team": "dwarves",
        "players": [
            {"player": "Runner One", "td": 1},
            {"player": "Blitzer One", "deflections": 1, "mvp": 1},
        ],
        "dice": {"fan_factor": 2, "dedicated_fans": 1},
    },
}
R2 = {
    "match": "r2",
    "home": {
        "team": "dwarves",
        "players": [{"player": "Runner Two", "td": 1, "mvp": 1}],
        "dice": {"fan_factor": 1},
    },
    "away": {
        "team": "reavers",
        "players": [{"player": "Catcher One", "td": 1}, {"player": "Lineman 7", "mvp": 1}],
        "dice": {"fan_factor": 1},
    },
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


def team_lines(team: str, roster: str, players: list[tuple[str, str]]) -> list[str]:
    lines = [f"team register {team} --name {team.title()} --coach Coach --roster {roster}"]
    for number, (position, name) in enumerate(players, 1):
        lines.append(f'team hire {team} {position} "{name}" --number {number}')
    return lines


def season(folder: Path) -> Path:
    for report in (R1, R2):
        (folder / f"{report['match']}.yaml").write_text(yaml.safe_dump(report))
    lines = [
        'league create s2 --name "Season Two" --ruleset 2020',
        *team_lines("reavers", "human", REAVERS),
        "team buy reavers reroll --count 2",
        "team buy reavers dedicated_fans --count 2",
        *team_lines("dwarves", "dwarf", DWARVES),
        "team buy dwarves reroll",
        "team buy dwarves dedicated_fans",
        "match record r1.yaml",
        "match close r1 --die expensive_mistakes=4",
        'team advance reavers "Catcher One" random_primary --category A'
        ' --die random_skill=1,1 --die random_skill=1,2 --skill "Diving Catch"',
        "match record r2.yaml",
        "match close r2 --die expensive_mistakes=4",
    ]
    script = folder / "season.ledger"
    script.write_text("\n".join(lines) + "\n")
    return script


def roster(db: Path, team: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(ledger(db, "roster", team, "--json"))
    return found


def player(team: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in team["players"] if p["name"] == name)


def test_a_short_season_2_league_from_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    ledger(db, "run", str(season(tmp_path)))
    reavers, dwarves = roster(db, "reavers"), roster(db, "dwarves")
    assert reavers["ruleset"] == "bb2020"

    assert (reavers["team"]["treasury"], dwarves["team"]["treasury"]) == (250_000, 175_000)
    assert (reavers["team"]["fans"], dwarves["team"]["fans"]) == (4, 1)
    assert (reavers["team"]["values"]["tv"], dwarves["team"]["values"]["tv"]) == (855_000, 920_000)

    catcher = player(reavers, "Catcher One")
    assert (catcher["spp"], catcher["value"], catcher["skills"][-1]) == (6, 75_000, "Diving Catch")
    assert (catcher["st"], catcher["pa"]) == (2, 5)
    assert player(dwarves, "Blitzer One")["spp"] == 5  # a Deflection (1) and the MVP (4)
