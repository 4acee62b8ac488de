"""Mistakes in a re-draft, at the command line and in its corrections, refused in one line
with nothing written (a helper's pass through the off-season, forty-fourth session):

- a player kept twice was re-hired, and charged, twice;
- a roll the re-draft does not ask (a purpose misspelt, a player with nothing to roll) was
  dropped without a word, where a post-game close refuses it;
- an item misspelt got no suggestion, a count of 0 or less a sentence about prices, and an
  item given twice kept the last count;
- an amended re-draft was not planned again: another team's player, or one player twice,
  could be written into it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli.inprocess import copy_of, run_ledger

SEASON = Path(__file__).parents[1] / "integration" / "season_bb2025"
CLOSED = "season close"


@pytest.fixture(scope="module")
def closed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The BB2025 season of tests/integration/season_bb2025, up to its close."""
    folder = tmp_path_factory.mktemp("closed")
    shutil.copytree(SEASON / "reports", folder / "reports")
    script = (SEASON / "season.ledger").read_text().split(f"\n{CLOSED}\n")[0]
    (folder / "closed.ledger").write_text(f"{script}\n{CLOSED}\n")
    db = folder / "season.db"
    run_ledger(db, "run", str(folder / "closed.ledger"), check=True)
    return db


@pytest.fixture
def league(closed: Path, tmp_path: Path) -> Path:
    return copy_of(closed, tmp_path)


def head(db: Path) -> str:
    return run_ledger(db, "audit", "verify", check=True).out


@pytest.mark.parametrize(
    ("args", "code", "says"),
    [
        (["--keep", "Reavers 1", "--keep", "Reavers 1"], 2, "Reavers 1 is kept twice"),
        (["--keep", "Reavers 1", "--keep", "p1"], 2, "Reavers 1 is kept twice"),
        (["--die", "x=1"], 2, "the re-draft asks no x roll (it asks no roll of this team)"),
        (["--die", "hatred:Reavers 2=3"], 2, "asks no hatred roll of Reavers 2"),
        (["--carry", "cheerleaders=1"], 2, "(re-rolls and sideline staff can: apothecary,"),
        (["--carry", "cheerleaders=1"], 2, "; did you mean 'cheerleader'?"),
        (["--carry", "reroll=0"], 2, "carry 1 or more x Team Re-roll, not 0"),
        (["--carry", "reroll=1", "--carry", "reroll=2"], 2, "reroll is given twice"),
    ],
    ids=[
        "kept-twice",
        "kept-twice-by-id",
        "no-such-roll",
        "no-roll-of-his",
        "misspelt",
        "suggested",
        "none-carried",
        "carried-twice",
    ],
)
def test_a_redraft_mistake_is_refused_with_nothing_written(
    league: Path, args: list[str], code: int, says: str
) -> None:
    before = head(league)
    done = run_ledger(league, "team", "redraft", "reavers", *args)
    assert done.code == code
    assert says in done.error_line
    assert head(league) == before


def test_an_amended_redraft_is_planned_again(league: Path) -> None:
    run_ledger(league, "team", "redraft", "reavers", "--keep", "Reavers 1", check=True)
    seq = int(head(league).split(" events")[0].split()[-1])
    others = run_ledger(league, "roster", "gouged", "--json").json()
    stranger = others["players"][0]["player_id"]  # type: ignore[call-overload, index]
    before = head(league)
    for players, says in [
        (f'[{{"item": "{stranger}", "price": 70000}}]', "plays for gouged, not reavers"),
        ('[{"item": "p1", "price": 70000}, {"item": "p1", "price": 70000}]', "kept twice"),
    ]:
        done = run_ledger(
            league, "correct", str(seq), "--set", f"players={players}", "--reason", "x"
        )
        assert done.code == 1
        assert done.error_line.startswith(f"error[correction-refused]: event {seq} amended so")
        assert says in done.error_line
    assert head(league) == before
