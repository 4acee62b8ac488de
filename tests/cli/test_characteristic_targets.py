"""``ledger rules team`` and ``ledger roster`` write Agility and Armour as each edition's
books do: as targets (AG 3+, AV 9+) in Blood Bowl 2020 Season 2 and 2025, as plain numbers
(AG 3, AV 8) in LRB6, ZAL, 4th and 3rd edition. The edition says which
(``Ruleset.characteristic_targets``); tests/rules/test_edition_facts.py has the table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ledger.rules import REGISTRY, find_ruleset
from tests.cli.inprocess import run_ledger
from tests.rules.contract_support import chosen_lists, starting_positions
from tests.rules.test_edition_facts import CHARACTERISTIC_TARGETS


def column(shown: str, name: str) -> list[str]:
    """The cells of column ``name`` of the first table printed (its spans are the dashes
    under its header); the table ends at the first blank line."""
    lines = shown.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("--"))
    spans = [m.span() for m in re.finditer(r"-+", lines[rule])]
    headers = [lines[rule - 1][a:b].strip() for a, b in spans]
    start, end = spans[headers.index(name)]
    rows = []
    for line in lines[rule + 1 :]:
        if not line.strip():
            break
        rows.append(line[start:end].strip())
    return rows


def written_as_targets(shown: str) -> set[bool]:
    """For each AG and AV cell, whether it is written as a target (``3+``)."""
    cells = column(shown, "AG") + column(shown, "AV")
    assert cells
    assert all(re.fullmatch(r"\d+\+?", cell) for cell in cells), cells
    return {cell.endswith("+") for cell in cells}


@pytest.mark.parametrize("ruleset_id", sorted(REGISTRY))
def test_a_team_list_writes_characteristics_as_the_edition_does(
    tmp_path: Path, ruleset_id: str
) -> None:
    team_list = chosen_lists(find_ruleset(ruleset_id))[0]
    shown = run_ledger(tmp_path / "none.db", "rules", "team", ruleset_id, team_list, check=True)
    assert written_as_targets(shown.out) == {CHARACTERISTIC_TARGETS[ruleset_id]}


@pytest.mark.parametrize("ruleset_id", sorted(REGISTRY))
def test_a_roster_writes_characteristics_as_the_edition_does(
    tmp_path: Path, ruleset_id: str
) -> None:
    ruleset = find_ruleset(ruleset_id)
    team_list = chosen_lists(ruleset)[0]
    db = tmp_path / "ledger.db"
    run_ledger(db, "league", "create", "facts", "--name", "Facts", "--ruleset", ruleset_id)
    run_ledger(db, "team", "register", "t1", "--name", "T1", "--coach", "C", "--roster", team_list)
    for number, position in enumerate(
        starting_positions(ruleset.catalogue.team_list(team_list))[:3], 1
    ):
        run_ledger(db, "team", "hire", "t1", position, f"Player {number}", check=True)
    shown = run_ledger(db, "roster", "t1", check=True)
    assert written_as_targets(shown.out) == {CHARACTERISTIC_TARGETS[ruleset_id]}
