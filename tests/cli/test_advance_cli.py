"""`ledger team advance` with --roll: a refusal shows no dice as rolled (nothing is kept)."""

from __future__ import annotations

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
