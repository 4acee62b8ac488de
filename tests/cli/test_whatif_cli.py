"""``ledger whatif`` as a commissioner runs it, on the demo league (BB2025, four teams).

In-process through ``cli.main.main`` (the real error boundary), and twice as separate
processes with different hash seeds, whose output must be byte for byte the same.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_report_cli import Runner, built_demo, db, ledger_cli

__all__ = ["built_demo", "db", "ledger_cli"]  # the report CLI's fixtures, shared

LEDGER = str(Path(sys.executable).parent / "ledger")


def test_the_comparison_shows_the_season_side_by_side(ledger_cli: Runner, db: Path) -> None:
    status, out, err = ledger_cli("--db", str(db), "whatif", "--ruleset", "lrb6-zal")
    assert status == 0, err
    assert out.startswith(
        "What if Old World Demo League (demo), season 1, were played under lrb6-zal"
    )
    for heading in (
        "Standings, season 1 (real | what-if)",
        "Treasury and fans (real | what-if)",
        "Players that differ",
        "Divergences",
    ):
        assert heading in out
    standings = out.split("Standings, season 1")[1].split("\n\n")[0]
    # The places and points are the season's; the TV and TR are the teams' now.
    assert standings.startswith(" (real | what-if); TV and TR as the log ends\n")
    assert "Treasury and fans (real | what-if) as the log ends" in out
    assert "TV" in standings
    assert "TR" in standings
    assert "reikland-reavers" in standings


def test_the_json_is_one_document_with_every_part(ledger_cli: Runner, db: Path) -> None:
    status, out, _ = ledger_cli("--db", str(db), "whatif", "demo", "--ruleset", "dz3", "--json")
    assert status == 0
    found = json.loads(out)
    assert set(found) >= {"teams", "players", "playoffs", "divergences", "dice", "actual"}
    assert found["whatif"]["ruleset"] == "dz3"
    assert len(found["teams"]) == 4
    team = found["teams"][0]
    assert set(team) == {
        "team_id",
        "name",
        "division",
        "actual",
        "whatif",
        "rank_change",
        "dice",
    }
    assert sum(t["dice"]["simulated"] for t in found["teams"]) <= found["dice"]["simulated"]


def test_options_of_the_league_own_ruleset_are_a_what_if_too(ledger_cli: Runner, db: Path) -> None:
    status, out, _ = ledger_cli(
        "--db", str(db), "whatif", "--option", "bonus_points=added", "--json"
    )
    assert status == 0
    found = json.loads(out)
    assert found["whatif"]["ruleset"] == "bb2025"
    assert found["whatif"]["options"]["bonus_points"] == "added"
    assert found["divergences"] == []
    assert found["dice"]["simulated"] == 0  # the same edition: every roll is recorded
    more = [t for t in found["teams"] if t["whatif"]["points"] > t["actual"]["points"]]
    assert more, "bonus points added raise someone's total"


def test_the_same_command_twice_gives_the_same_bytes(db: Path, tmp_path: Path) -> None:
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        env.pop("LEDGER_DATABASE_URL", None)
        done = subprocess.run(
            [LEDGER, "--db", str(db), "whatif", "--ruleset", "gold4"],
            capture_output=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]


def test_monte_carlo_reports_distributions(ledger_cli: Runner, db: Path) -> None:
    status, out, err = ledger_cli(
        "--db", str(db), "whatif", "--ruleset", "lrb6-zal", "--samples", "6", "--json"
    )
    assert status == 0, err
    found = json.loads(out)
    assert (found["samples"], found["first_seed"]) == (6, 1)
    for team in found["teams"]:
        assert sum(team["places"]) == pytest.approx(1.0)
        assert 0.0 <= team["playoffs"] <= 1.0
        assert team["treasury"]["sd"] >= 0
    assert sum(t["champion"] for t in found["teams"]) == pytest.approx(1.0)
    assert "Replaying" not in err  # no progress bar off a terminal, nor for --json


def test_monte_carlo_in_words(ledger_cli: Runner, db: Path) -> None:
    status, out, _ = ledger_cli("--db", str(db), "whatif", "--ruleset", "dz3", "--samples", "3")
    assert status == 0
    assert out.startswith("Monte Carlo: 3 replays of demo, season 1, under dz3 (seeds 1 to 3)")
    assert "100%" in out  # the table rests on recorded results: each place is certain


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--ruleset", "nowhere"], "unknown-ruleset", "unknown ruleset 'nowhere'"),
        (["--ruleset", "gold4", "-o", "appearance_fees=free"], "invalid-option", "ruleset gold4"),
        (["-o", "nonsense"], "invalid-option", "options are KEY=VALUE"),
        (["nowhere", "--ruleset", "dz3"], "unknown-league", "no league 'nowhere'"),
        (["--ruleset", "dz3", "--samples", "0"], "invalid-input", "--samples must be at least 1"),
        (["--ruleset", "dz3", "--season", "7"], "unknown-season", "no season 7"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(
    ledger_cli: Runner, db: Path, args: list[str], code: str, message: str
) -> None:
    status, out, err = ledger_cli("--db", str(db), "whatif", *args)
    assert status != 0
    assert out == ""
    assert err.startswith(f"error[{code}]: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_the_season_report_takes_a_what_if(ledger_cli: Runner, db: Path, tmp_path: Path) -> None:
    status, _, err = ledger_cli(
        "--db", str(db), "report", "--format", "json", "--out", "r.json", "--whatif", "lrb6-zal"
    )
    assert status == 0, err
    made = json.loads((tmp_path / "r.json").read_text())
    assert made["whatif"]["ruleset"] == "lrb6-zal"
    assert len(made["whatif"]["rows"]) == 4
    assert made["whatif"]["simulated_rolls"] > 0
