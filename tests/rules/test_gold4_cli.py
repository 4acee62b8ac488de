"""gold4 from the command line: what docs/rulesets/gold4.md once listed as "shared changes
needed", each through the CLI a commissioner uses (seed 002).

- MIXED RACE TEAMS: an ally hired with ``team hire ... --from-list LIST``;
- SECRET WEAPONS: a weapon bought with the player, ``--equipment WEAPON``;
- BIG GUYS AND STAR PLAYER POINTS: a Big Guy's double removes a trait, ``team advance
  ... --category remove_trait``;
- APPEARANCE FEES and the Q&A ("Do freebooted star players charge an appearance fee? Yes"):
  ``match fees MATCH TEAM zug=120000`` pays for a star freebooted in the coming report.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

LEDGER = str(Path(sys.executable).parent / "ledger")
ORCS = ["lineman"] * 6 + ["black_orc_blocker"] * 2 + ["blitzer", "thrower"]
DWARFS = ["longbeard"] * 11


def ledger(db: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [LEDGER, "--db", str(db), "--as", "commissioner", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode == 0) == ok, f"ledger {' '.join(args)}:\n{done.stderr}"
    return done


def hires(team: str, positions: list[str]) -> list[str]:
    return [
        f'team hire {team} {position} "{team} {number}" --number {number}'
        for number, position in enumerate(positions, 1)
    ]


def report(match: str, kind: str, home: dict[str, Any], **extra: Any) -> str:
    side = {"team": "dwarfs", "dice": {"winnings": 3, "fan_factor": 3}} if kind == "league" else {}
    return yaml.safe_dump(
        {"match": match, "kind": kind, "home": home, "away": {"team": "dwarfs", **side}, **extra}
    )


def season(folder: Path) -> Path:
    (folder / "f1.yaml").write_text(
        report("f1", "friendly", {"team": "orcs", "players": [{"player": "Grub", "td": 4}]})
    )
    lines = [
        'league create gold --name "Gold" --ruleset gold4',
        "team register orcs --name Orcs --coach A --roster orc",
        'team adjust orcs 300000 --reason "sponsors"',
        *hires("orcs", ORCS),
        "team hire orcs troll Grub --number 11 --from-list goblin",
        "team register dwarfs --name Dwarfs --coach B --roster dwarf",
        *hires("dwarfs", DWARFS[:10]),
        "team hire dwarfs longbeard Sawbeard --number 11 --equipment chainsaw",
        "match record f1.yaml",  # Grub scores 4: 12 SPP, a Big Guy's first roll
        'team advance orcs Grub star_roll --die star_roll=2,2 --skill "Really Stupid"'
        " --category remove_trait",
    ]
    script = folder / "season.ledger"
    script.write_text("\n".join(lines) + "\n")
    return script


def players(db: Path, team: str) -> dict[str, Any]:
    found = json.loads(ledger(db, "roster", team, "--json").stdout)
    return {p["name"]: p for p in found["players"]} | {"": found["team"]}


def test_allies_weapons_trait_removal_and_a_freebooted_stars_fee(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    ledger(db, "run", str(season(tmp_path)))
    orcs, dwarfs = players(db, "orcs"), players(db, "dwarfs")
    assert orcs["Grub"]["roster"] == "goblin"  # the Goblin list's Troll, an ally
    assert "Really Stupid" not in orcs["Grub"]["skills"]
    # a Big Guy's double took the trait away: said so, not as a skill taken ('+NONE')
    assert "Really Stupid removed" in ledger(db, "--wide", "roster", "orcs").stdout
    history = " ".join(ledger(db, "--wide", "history", "Grub").stdout.split())
    assert "Grub took a Star Player Roll: Really Stupid removed" in history
    assert "Chainsaw" in dwarfs["Sawbeard"]["skills"]

    # gold4 has no star list: the star is named by his hireling id, with his cost as price
    zug = {
        "id": "zug",
        "name": "The Mighty Zug",
        "kind": "star",
        "price": 120_000,
    }
    home = {
        "team": "orcs",
        "players": [{"player": "zug", "td": 1}],
        "hirelings": [zug],
        "dice": {"winnings": 3, "fan_factor": 3},
    }
    (tmp_path / "g1.yaml").write_text(report("g1", "league", home))
    refused = ledger(db, "match", "record", str(tmp_path / "g1.yaml"), ok=False).stderr
    assert "with g1's appearance fees (the star as zug, cost 120000)" in refused
    before = orcs[""]["treasury"]
    ledger(db, "match", "fees", "g1", "orcs", "zug=120000")
    assert players(db, "orcs")[""]["treasury"] == before - 50_000
    ledger(db, "match", "record", str(tmp_path / "g1.yaml"))
    assert players(db, "orcs")[""]["games"] == 2
