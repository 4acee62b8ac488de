"""Each edition from the command line, as a commissioner runs it (issue 5's acceptance).

For every registered ruleset: ``ledger league create --ruleset ID``, two teams registered
and drafted from that edition's own team lists, fans and a re-roll bought, a home and an
away game recorded (``match record FILE --roll``), the post-game sequences closed where the
edition has them (BB2025), then ``roster`` and ``standings``: one ``ledger run SCRIPT``
process, then ``--json`` queries. The figures shown are the edition's own: TR for the older
editions, TV and CTV for BB2025.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from ledger.domain.state import TeamRow
from ledger.rules import RULESETS, find_ruleset
from ledger.rules.protocol import Ruleset
from tests.rules.contract_support import chosen_lists, starting_positions

LEDGER = str(Path(sys.executable).parent / "ledger")
TEAMS = ("reavers", "raiders")


def ledger(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [LEDGER, "--db", str(db), "--as", "commissioner", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"ledger {' '.join(args)} failed:\n{done.stderr}"
    assert "Traceback" not in done.stderr
    return done


def game(match: str, home: str, away: str, scores: tuple[int, int]) -> dict[str, Any]:
    """A report naming players by name; the ledger rolls the edition's post-game dice."""
    return {
        "match": match,
        "home": {
            "team": home,
            "players": [{"player": f"{home} 1", "td": scores[0], "mvp": 1}],
        },
        "away": {
            "team": away,
            "players": [{"player": f"{away} 2", "td": scores[1], "mvp": 1}],
        },
        "casualties": [
            {"victim": f"{away} 5", "by": f"{home} 3", "cause": "block", "outcome": "badly_hurt"}
        ],
    }


def draft_lines(ruleset: Ruleset, team: str, roster: str) -> list[str]:
    lines = [f'team register {team} --name "{team.title()}" --coach Coach --roster {roster}']
    for number, position in enumerate(starting_positions(ruleset.catalogue.team_list(roster)), 1):
        lines.append(f'team hire {team} {position} "{team} {number}" --number {number}')
    return lines


def purchase_lines(ruleset: Ruleset, team: str, roster: str) -> list[str]:
    """Fans while drafting (ZAL refuses a first game without Fan Factor), and a re-roll."""
    items = ruleset.sideline_items(
        TeamRow(league_id="", team_id=team, name=team, coach="", roster=roster)
    )
    fans = next(i.id for i in items.values() if i.counts_as == "fans" and i.draft_only)
    return [f"team buy {team} {fans} --count 2", f"team buy {team} reroll"]


def season_script(folder: Path, ruleset: Ruleset) -> Path:
    lists = chosen_lists(ruleset)[:2]
    lines = [f'league create short --name "A Short Season" --ruleset {ruleset.id}']
    for team, roster in zip(TEAMS, lists, strict=True):
        lines += draft_lines(ruleset, team, roster) + purchase_lines(ruleset, team, roster)
    games = [("r1", TEAMS[0], TEAMS[1], (2, 1)), ("r2", TEAMS[1], TEAMS[0], (1, 1))]
    for match, home, away, scores in games:
        (folder / f"{match}.yaml").write_text(yaml.safe_dump(game(match, home, away, scores)))
        lines.append(f"match record {match}.yaml --roll")
        if ruleset.post_game_closes:
            lines.append(f"match close {match} --roll")
    lines += [f"roster {TEAMS[0]}", "standings"]
    script = folder / "season.ledger"
    script.write_text("\n".join(lines) + "\n")
    return script


@pytest.mark.parametrize("ruleset_id", [cls.id for cls in RULESETS])
def test_a_short_season_from_the_command_line(tmp_path: Path, ruleset_id: str) -> None:
    ruleset = find_ruleset(ruleset_id)
    db = tmp_path / "ledger.db"
    shown = ledger(db, "run", str(season_script(tmp_path, ruleset))).stdout
    labels = list(ruleset.value_labels.values())  # ["TR"] or ["TV", "CTV"]
    figures = set(ruleset.value_labels)

    # the human roster and table carry the edition's own figures
    assert any(line.startswith(tuple(labels)) for line in shown.splitlines())
    header = next(line for line in shown.splitlines() if line.startswith("#  team"))
    assert header.split()[2 : 2 + len(labels)] == labels

    roster = json.loads(ledger(db, "roster", TEAMS[0], "--json").stdout)
    assert roster["value_labels"] == dict(ruleset.value_labels)
    assert set(roster["team"]["values"]) == figures
    assert roster["team"]["games"] == 2
    assert roster["team"]["treasury"] >= 0

    table = json.loads(ledger(db, "standings", "--json").stdout)
    rows = {r["team_id"]: r for rows in table["divisions"].values() for r in rows}
    assert table["value_labels"] == dict(ruleset.value_labels)
    assert {t: (r["row"]["won"], r["row"]["drawn"], r["row"]["lost"]) for t, r in rows.items()} == {
        "reavers": (1, 1, 0),
        "raiders": (0, 1, 1),
    }
    assert [r["team_id"] for r in sorted(rows.values(), key=lambda r: r["rank"])] == list(TEAMS)
    for row in rows.values():
        assert set(row["values"]) == figures
        assert all(value > 0 for value in row["values"].values())


def test_ledger_rulesets_explains_every_option() -> None:
    """``ledger rulesets`` prints each option with its docstring (the Options models'
    attribute docstrings), so a commissioner can choose without the source."""
    done = subprocess.run([LEDGER, "rulesets"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    for cls in RULESETS:
        for name, field in cls.Options.model_fields.items():
            assert field.description, f"{cls.id} option {name} has no docstring"
            assert f"option {name} =" in text
            assert " ".join(field.description.split()) in text
