"""`ledger team advance` with --roll: a refusal shows no dice as rolled (nothing is kept)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from tests.cli.inprocess import run_ledger

HUMANS = "\n".join(f"team hire men lineman 'Man {n}' --number {n}" for n in range(1, 12))
RATS = "\n".join(f"team hire rats clanrat 'Rat {n}' --number {n}" for n in range(1, 12))
SETUP = f"""\
league create owl --name Owl --ruleset bb2025
team register men --name Men --coach Jay --roster human
team register rats --name Rats --coach Rob --roster skaven
{HUMANS}
{RATS}
match record game.yaml
"""
GAME = """\
match: m1
home: {team: men, players: [{player: Man 1, td: 2}], dice: {fan_factor: 2, dedicated_fans: 3}}
away: {team: rats, touchdowns: 0, dice: {fan_factor: 2, dedicated_fans: 3}}
"""


@pytest.fixture
def league(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.yaml").write_text(GAME)
    (tmp_path / "setup.ledger").write_text(SETUP)
    db = tmp_path / "owl.db"
    run_ledger(db, "run", "setup.ledger", check=True)
    return db


def test_a_random_skill_without_its_category_is_refused_before_any_roll(league: Path) -> None:
    refused = run_ledger(league, "team", "advance", "men", "Man 1", "random_primary", "--roll")
    assert refused.code != 0
    assert "needs one of G as its category (its Skill Table column)" in refused.err
    assert "rolled" not in refused.out + refused.err


def test_the_category_is_explained_in_the_help(league: Path) -> None:
    shown = run_ledger(league, "team", "advance", "--help")
    assert "The category a random skill is drawn from" in " ".join(shown.out.split())


def test_a_roll_the_advancement_does_not_read_is_refused_and_nothing_written(
    league: Path,
) -> None:
    """A characteristic die given with a chosen skill was stored beside it, unread."""
    before = run_ledger(league, "export", check=True).out.count("\n")
    refused = run_ledger(
        league, "team", "advance", "men", "Man 1", "chosen_primary", "--skill", "Block",
        "--die", "characteristic=3",
    )  # fmt: skip
    assert refused.code != 0
    assert refused.err.strip() == (
        "error[invalid-dice]: a chosen primary advancement reads no roll: leave out characteristic"
    )
    assert run_ledger(league, "export", check=True).out.count("\n") == before
    run_ledger(league, "team", "advance", "men", "Man 1", "chosen_primary", "--skill", "Block",
               check=True)  # fmt: skip


def test_the_ledgers_dice_are_the_same_on_every_try_and_recorded_as_its_own(
    league: Path,
) -> None:
    """The refusal names the ledger's Skill Table rolls and the skills they offer; asked
    again, the ledger rolls the same dice (a coach cannot roll until the skill he wants
    comes up), and taken with --roll and --skill they are recorded as the ledger's."""
    with sqlite3.connect(league) as con:  # a known key: Man 1's rolls offer a choice
        con.execute("CREATE TABLE ledger_dice_key (id INTEGER PRIMARY KEY, secret TEXT)")
        con.execute("INSERT INTO ledger_dice_key VALUES (1, ?)", (bytes([1] * 32).hex(),))
    asked = ("team", "advance", "men", "Man 1", "random_primary", "--category", "G", "--roll")
    tries = [run_ledger(league, *asked) for _ in range(2)]
    assert [t.code != 0 for t in tries] == [True, True]
    assert tries[0].err == tries[1].err
    assert "entering the same dice (random_skill 2,3 and 4,5)" in tries[0].err
    offered = re.search(r"the rolls give (.+?) or ", tries[0].err)
    assert offered
    taken = run_ledger(league, *asked, "--skill", offered[1], check=True)
    assert "The ledger rolled: random_skill 2,3, random_skill 4,5" in taken.out
    exported = run_ledger(league, "export", check=True).out.splitlines()
    [advanced] = [
        e["event"] for e in map(json.loads, exported) if "PlayerAdvanced" in e.get("topic", "")
    ]
    assert [(d["values"], d.get("source")) for d in advanced["dice"]] == [
        ([2, 3], "ledger"),
        ([4, 5], "ledger"),
    ]
