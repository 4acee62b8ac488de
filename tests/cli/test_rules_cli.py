"""``ledger rules ...``: a commissioner reads an edition's team lists before hiring.

The figures asserted are the books' own (BB2025 Human roster, LRB6 star players), so a
command that stops reading the ruleset's data fails here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.inprocess import run_ledger


@pytest.fixture
def league(tmp_path: Path) -> Path:
    db = tmp_path / "owl.db"
    run_ledger(db, "league", "create", "owl", "--name", "Owl", "--ruleset", "lrb6-zal", check=True)
    return db


def test_a_team_list_gives_each_position_its_id_price_limit_and_profile(tmp_path: Path) -> None:
    found: Any = run_ledger(
        tmp_path / "none.db", "rules", "team", "bb2025", "human", "--json"
    ).json()
    assert (found["ruleset"], found["reroll_cost"], found["apothecary"]) == ("bb2025", 50_000, True)
    assert "Team Captain" in found["special_rules"]
    blitzer = next(p for p in found["positions"] if p["id"] == "blitzer")
    assert (blitzer["cost"], blitzer["max"]) == (85_000, 2)
    assert (blitzer["ma"], blitzer["st"], blitzer["ag"], blitzer["pa"], blitzer["av"]) == (
        7,
        3,
        3,
        4,
        9,
    )
    assert blitzer["skills"] == ["Block", "Tackle"]
    assert (blitzer["primary"], blitzer["secondary"]) == (["G", "S"], ["A", "D"])


def test_a_team_list_as_a_table_writes_bb2025_targets_and_prices(tmp_path: Path) -> None:
    out = run_ledger(tmp_path / "none.db", "rules", "team", "bb2025", "human").out
    assert "re-roll 50,000  apothecary yes" in out
    ogre = next(line for line in out.splitlines() if line.startswith("ogre "))
    for shown in ("0-1", "140,000", "10+", "Loner (3+)"):
        assert shown in ogre


def test_no_ruleset_named_means_the_leagues(league: Path) -> None:
    found: Any = run_ledger(league, "rules", "team", "human", "--json").json()
    assert found["ruleset"] == "lrb6-zal"
    teams: Any = run_ledger(league, "rules", "teams", "--json").json()
    assert teams["ruleset"] == "lrb6-zal"
    human = next(t for t in teams["teams"] if t["id"] == "human")
    assert (human["reroll_cost"], human["positions"]) == (50_000, 5)
    assert len(teams["teams"]) == 24


def test_the_team_lists_of_every_edition_are_listed(tmp_path: Path) -> None:
    for ruleset, team_list in (("bb2025", "skaven"), ("lrb6", "orc"), ("gold4", "ogre"),
                               ("dz3", "dwarf")):  # fmt: skip
        found: Any = run_ledger(tmp_path / "x.db", "rules", "teams", ruleset, "--json").json()
        assert team_list in {t["id"] for t in found["teams"]}, ruleset
    out = run_ledger(tmp_path / "x.db", "rules", "teams", "bb2025").out
    assert "ledger rules team bb2025 TEAM_LIST" in out
    skaven = next(line for line in out.splitlines() if line.startswith("skaven "))
    assert "50,000" in skaven


def test_stars_name_their_price_and_teams(tmp_path: Path) -> None:
    found: Any = run_ledger(tmp_path / "x.db", "rules", "stars", "dz3", "--json").json()
    griff = next(s for s in found["stars"] if s["id"] == "griff_oberwald")
    assert (griff["cost"], griff["plays_for"]) == (320_000, ["human"])
    out = run_ledger(tmp_path / "x.db", "rules", "stars", "bb2025").out
    akhorne = next(line for line in out.splitlines() if line.startswith("akhorne_the_squirrel"))
    assert "80,000" in akhorne
    gold = run_ledger(tmp_path / "x.db", "rules", "stars", "gold4")
    assert gold.code == 0
    assert "no star players" in gold.out


def test_skills_by_category(tmp_path: Path) -> None:
    found: Any = run_ledger(tmp_path / "x.db", "rules", "skills", "bb2025", "--json").json()
    by_name = {s["name"]: s for s in found["skills"]}
    assert (by_name["Dodge"]["category"], by_name["Dodge"]["elite"]) == ("A", True)
    assert len(found["skills"]) == 108
    out = run_ledger(tmp_path / "x.db", "rules", "skills", "gold4").out
    general = next(line for line in out.splitlines() if line.startswith("G General"))
    assert "Block" in general
    for ruleset in ("lrb6", "dz3"):
        assert run_ledger(tmp_path / "x.db", "rules", "skills", ruleset, "--json").json()


def test_an_unknown_team_list_or_ruleset_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    line = run_ledger(db, "rules", "team", "bb2025", "wizards").error_line
    assert line.startswith("error[unknown-team]: ")
    assert "human" in line
    line = run_ledger(db, "rules", "stars", "bb1987").error_line
    assert line.startswith("error[unknown-ruleset]: ")
    assert "bb2025" in line
    assert not db.exists()  # reading the rules never makes a ledger


def test_without_a_league_the_ruleset_must_be_named(tmp_path: Path) -> None:
    line = run_ledger(tmp_path / "x.db", "rules", "teams").error_line
    assert line.startswith("error[invalid-input]: name a ruleset (bb2025, ")
    assert "no ledger at" in line


def test_a_ruleset_alone_asks_for_the_team_list(tmp_path: Path) -> None:
    line = run_ledger(tmp_path / "x.db", "rules", "team", "lrb6").error_line
    assert line.startswith("error[invalid-input]: 'lrb6' is a ruleset: name a team list too")


def test_with_two_leagues_the_ruleset_or_the_league_must_be_named(league: Path) -> None:
    run_ledger(league, "league", "create", "cup", "--name", "Cup", "--ruleset", "dz3", check=True)
    line = run_ledger(league, "rules", "teams").error_line
    assert line.startswith("error[invalid-input]: name a ruleset")
    assert "--league" in line
    found: Any = run_ledger(league, "--league", "cup", "rules", "teams", "--json").json()
    assert found["ruleset"] == "dz3"
