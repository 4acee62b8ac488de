"""``ledger submission ...`` as coaches and a commissioner run it: real processes, real
files; a refusal is one ``error[...]`` line and writes nothing."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
import yaml

from tests.cli.test_cli import events, ledger, refused
from tests.integration.test_audit_and_transfer import GAME
from tests.support import HUMAN_ELEVEN, SKAVEN_ELEVEN

SETUP = (
    "league create owl --name 'Old World League' --ruleset bb2025\n"
    "team register reavers --name 'Reikland Reavers' --coach Anna --roster human\n"
    "team register rats --name Scramblers --coach Rob --roster skaven\n"
    + "".join(
        f"team hire {team} {position} '{team} {i}' --number {i}\n"
        for team, positions in (("reavers", HUMAN_ELEVEN), ("rats", SKAVEN_ELEVEN))
        for i, position in enumerate(positions, start=1)
    )
)


@pytest.fixture
def league(tmp_path: Path) -> Path:
    db = tmp_path / "owl.db"
    script = tmp_path / "setup.ledger"
    script.write_text(SETUP)
    ledger(db, "run", str(script))
    (tmp_path / "g1.yaml").write_text(yaml.safe_dump(GAME))
    return db


def pending(db: Path, *options: str) -> list[dict[str, object]]:
    found = orjson.loads(ledger(db, "submission", "list", "--json", *options).stdout)
    assert isinstance(found, list)
    return found


def test_a_coach_submits_and_the_opposing_coach_confirms(league: Path) -> None:
    report = str(league.parent / "g1.yaml")
    done = ledger(league, "submission", "submit", report, "--team", "reavers")
    assert done.stdout.startswith("Submitted report s1 of match g1: reavers v rats")
    [waiting] = pending(league)
    assert (waiting["submission"], waiting["team"], waiting["status"]) == (
        "s1",
        "reavers",
        "submitted",
    )
    assert "s1" in ledger(league, "submission", "list").stdout
    refused(league, "not-allowed", "submission", "confirm", "s1", "--team", "reavers")
    done = ledger(league, "submission", "confirm", "s1", "--team", "rats")
    assert done.stdout.strip() == "rats confirmed report s1: recorded match g1."
    assert pending(league) == []
    standings = orjson.loads(ledger(league, "standings", "--json").stdout)
    assert standings["divisions"][""][0]["team_id"] == "reavers"


def test_a_disputed_report_is_rejected_then_a_new_one_approved(league: Path) -> None:
    report = str(league.parent / "g1.yaml")
    ledger(league, "submission", "submit", report, "--team", "reavers")
    ledger(league, "submission", "dispute", "s1", "--team", "rats", "--reason", "wrong score")
    before = events(league)
    ledger(league, "submission", "reject", "s1", "--reason", "play it again")
    assert events(league) == before + 1
    [rejected] = pending(league, "--all")
    assert (rejected["status"], rejected["rejection"]) == ("rejected", "play it again")
    ledger(league, "submission", "submit", report, "--team", "rats")
    done = ledger(league, "submission", "approve", "s2")
    assert done.stdout.strip() == "Approved report s2: recorded match g1."
    assert [row["status"] for row in pending(league, "--all")] == ["rejected", "approved"]


def test_a_report_that_does_not_hold_is_refused_when_submitted(league: Path) -> None:
    bad = league.parent / "bad.yaml"
    game = yaml.safe_load(yaml.safe_dump(GAME))
    game["home"]["players"] = [{"player": "Nobody", "td": 1}]
    bad.write_text(yaml.safe_dump(game))
    refused(league, "unknown-player", "submission", "submit", str(bad), "--team", "reavers")
    refused(league, "malformed-report", "submission", "submit", str(league), "--team", "reavers")
    assert pending(league, "--all") == []
