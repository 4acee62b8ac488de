"""`ledger team advance` with --roll: a refusal shows no dice as rolled (nothing is kept);
a roll that leaves a choice is recorded, and the advancement taken from it."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

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
    with sqlite3.connect(db) as conn:  # a known dice key: the ledger's rolls are the same each run
        conn.execute(
            "CREATE TABLE IF NOT EXISTS ledger_dice_key (id INTEGER PRIMARY KEY, secret TEXT)"
        )
        conn.execute("INSERT OR REPLACE INTO ledger_dice_key VALUES (1, ?)", (bytes(32).hex(),))
    return db


def test_a_random_skill_without_its_category_is_refused_before_any_roll(league: Path) -> None:
    refused = run_ledger(league, "team", "advance", "men", "Man 1", "random_primary", "--roll")
    assert refused.code != 0
    assert "is rolled on a Skill Table column: name its category, G (General)" in refused.err
    assert refused.out == ""  # no roll recorded, none said
    assert "ledger rolled" not in refused.err


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


def events_of(league: Path, topic: str) -> list[dict[str, Any]]:
    exported = run_ledger(league, "export", check=True).out.splitlines()
    return [e["event"] for e in map(json.loads, exported) if topic in e.get("topic", "")]


def roll_seq(league: Path) -> int:
    history = run_ledger(league, "history", "Man 1", check=True).out.splitlines()
    return int(next(line for line in history if "the ledger rolled" in line).split()[0])


def test_the_ledgers_roll_is_recorded_before_the_choice_and_taken_as_rolled(
    league: Path,
) -> None:
    """--roll without a skill records the ledger's Skill Table rolls (they leave a
    choice) and names what they give; the same command again is refused naming them;
    another column is refused, the roll standing; with --skill the advancement is taken
    from the roll, its dice recorded as the ledger's."""
    with sqlite3.connect(league) as con:  # a key whose rolls for Man 1 offer a choice
        con.execute("UPDATE ledger_dice_key SET secret = ? WHERE id = 1", (bytes([1] * 32).hex(),))
    asked = ("team", "advance", "men", "Man 1", "random_primary", "--category", "G", "--roll")
    rolled = run_ledger(league, *asked, check=True)
    said = " ".join(rolled.out.split())
    assert "The ledger rolled for Man 1's random primary skill in category G (General):" in said
    assert "random_skill 2,3 and 4,5 (event" in said
    offered = re.search(r"It gives (.+?) or (.+?): take one with", said)
    assert offered, said
    assert "ledger team advance men 'Man 1' random_primary --category G --skill SKILL" in said
    [roll] = events_of(league, "AdvancementRolled")
    assert [(d["values"], d.get("source")) for d in roll["dice"]] == [
        ([2, 3], "ledger"),
        ([4, 5], "ledger"),
    ]

    roster = " ".join(run_ledger(league, "roster", "men", check=True).out.split())
    waits = f"Man 1 (random primary skill, event {roll_seq(league)})"
    assert f"Advancements rolled, waiting to be taken: {waits}" in roster
    again = run_ledger(league, *asked)
    assert again.code != 0
    assert f"gives {offered[1]} or {offered[2]}: choose what he takes" in again.err
    other = run_ledger(league, *asked[:-3], "--category", "S", "--skill", "Dauntless")
    assert other.code != 0
    assert "next advancement is taken from the ledger's roll for a random primary skill in" \
        " category G" in other.err  # fmt: skip
    assert len(events_of(league, "AdvancementRolled")) == 1  # nothing more written

    taken = run_ledger(league, *asked, "--skill", offered[2], check=True)
    assert "Taken from the ledger's roll for a random primary skill in category G" in taken.out
    [advanced] = events_of(league, "PlayerAdvanced")
    assert advanced["skill"] == offered[2]
    assert [(d["values"], d.get("source")) for d in advanced["dice"]] == [
        ([2, 3], "ledger"),
        ([4, 5], "ledger"),
    ]


def test_a_league_can_have_the_ledger_roll_every_advancement(league: Path) -> None:
    """``ledger league advancement-dice ledger``: --die refused, the ledger rolls without
    --roll; ``table`` takes dice rolled at the table again."""
    said = run_ledger(league, "league", "advancement-dice", "ledger", "--reason", "witnessed")
    assert said.code == 0, said.err
    assert "The league's advancements are rolled by the ledger only." in said.out
    assert "advancements rolled: by the ledger only" in run_ledger(league, "league", "show").out
    typed = run_ledger(
        league, "team", "advance", "men", "Man 1", "random_primary", "--category", "G",
        "--die", "random_skill=1,2", "--die", "random_skill=1,3",
    )  # fmt: skip
    assert typed.code != 0
    assert typed.err.strip() == (  # the fixture's key: neither roll is the ledger's
        "error[not-allowed]: the advancements of Owl are rolled by the ledger: leave out"
        " random_skill 1,2 and 1,3, and the ledger rolls"
    )
    asked = ("team", "advance", "men", "Man 1", "random_primary", "--category", "G")
    rolled = run_ledger(league, *asked, check=True)  # no --roll
    assert "The ledger rolled" in rolled.out
    run_ledger(league, "league", "advancement-dice", "table", check=True)
    assert "by the ledger or at the table" in run_ledger(league, "league", "show").out


SIX = f"""\
league create six --name Six --ruleset lrb6
team register men --name Men --coach Jay --roster human
team register rats --name Rats --coach Rob --roster skaven
{HUMANS}
{RATS.replace("clanrat", "lineman")}
match record six.yaml --roll
"""
SIX_GAME = """\
match: m1
home: {team: men, players: [{player: Man 1, td: 2}]}
away: {team: rats, touchdowns: 0}
"""


def test_a_star_player_roll_is_rolled_by_the_ledger_and_the_choice_takes_its_dice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """LRB6: Man 1's two touchdowns (6 SPP) give a Star Player Roll. `--roll` without a
    choice is refused naming the ledger's 2D6 and what they give (exit 1, nothing
    written), the same every time; with a choice they give, it is taken with those dice."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "six.yaml").write_text(SIX_GAME)
    (tmp_path / "setup.ledger").write_text(SIX)
    db = tmp_path / "six.db"
    run_ledger(db, "run", "setup.ledger", check=True)
    before = run_ledger(db, "export", check=True).out
    asked = ("team", "advance", "men", "Man 1", "star_roll", "--roll")
    refused = run_ledger(db, *asked)
    line = refused.error_line
    assert line.startswith(
        "error[choice-needed]: the ledger's Star Player Roll for Man 1 (star_roll "
    )
    assert run_ledger(db, *asked).error_line == line
    assert run_ledger(db, "export", check=True).out == before
    values = re.search(r"star_roll (\d),(\d)\)", line)
    assert values is not None
    first = re.split(r", | or | \(", line.split(" gives ")[1])[0]
    chosen = (
        ("--characteristic", first[1:].lower()) if first.startswith("+") else ("--skill", first)
    )
    taken = run_ledger(db, *asked, *chosen, check=True)
    assert f"The ledger rolled: star_roll {values[1]},{values[2]}" in taken.out
    events = [json.loads(e) for e in run_ledger(db, "export", check=True).out.splitlines()]
    advanced = events[-1]
    assert advanced["topic"].endswith(":PlayerAdvanced")
    assert [(d["values"], d["source"]) for d in advanced["event"]["dice"]] == [
        ([int(values[1]), int(values[2])], "ledger")
    ]


@pytest.mark.parametrize(
    ("die", "said"),
    [
        ("random_skill=3", "random_skill is a 2D6 roll: 2 values, as random_skill=2,3, not 3"),
        ("random_skill=1,2,3,4", "random_skill is a 2D6 roll: 2 values, as random_skill=2,3"),
        ("characteristic=3,4", "characteristic is a D8 roll: 1 value, as characteristic=2"),
        ("random_skill=7,9", "7,9 is not a 2D6 roll"),
    ],
)
def test_a_roll_of_the_wrong_shape_is_a_usage_error_naming_its_dice(
    league: Path, die: str, said: str
) -> None:
    """A Skill Table roll of one value was taken for a D6 and refused by the rules as "0 of
    the 0 given do" (exit 1), where one of two values too high was a usage error (exit 2)."""
    before = run_ledger(league, "export", check=True).out
    asked = ("team", "advance", "men", "Man 1", "random_primary", "--category", "G")
    refused = run_ledger(league, *asked, "--die", die)
    assert refused.code == 2
    assert said in refused.error_line
    assert run_ledger(league, "export", check=True).out == before
