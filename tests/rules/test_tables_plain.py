"""The editions' tables are plain models (ledger/rules/schema.py, ``Frozen``): validated
through their twins when loaded, with pydantic's errors; read as plain objects; compared
and hashed by their fields, whatever answers they keep beside them."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from ledger.rules import find_ruleset
from ledger.rules.schema import Band, Range, RulesDataError, load_yaml


def test_a_table_is_read_by_its_aliases_and_refused_as_pydantic_refuses() -> None:
    """Data files write a range ``{from: 11, to: 20}``; the fields are ``start`` and ``end``."""
    band = Band.model_validate({"from": 7, "to": 9, "outcome": "badly_hurt"})
    assert (band.start, band.end, band.holds(8), band.holds(10)) == (7, 9, True, False)
    assert not isinstance(band, BaseModel)  # read as a plain object (no ``__getattr__``)
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        Range.model_validate({"from": 1, "to": 2, "by": 3})
    with pytest.raises(AttributeError, match="frozen"):
        band.start = 1  # type: ignore[misc]


def test_a_bad_data_file_is_refused_naming_the_file_and_the_field(tmp_path: Path) -> None:
    path = tmp_path / "range.yaml"
    path.write_text("from: 1\nto: many\n", encoding="utf-8")
    with pytest.raises(RulesDataError, match=r"(?s)range\.yaml.*\nto\n.*valid integer"):
        load_yaml(path, Range)


def test_a_table_compares_and_hashes_by_its_fields_alone() -> None:
    """A team list keeps its positions by id once asked (``position_index``): the answer
    sits beside its fields, and changes neither its equality, its hash nor its JSON."""
    team_list = next(iter(find_ruleset("bb2025").catalogue.team_lists().values()))
    twin = type(team_list).model_validate_json(team_list.model_dump_json())
    before, shown = hash(team_list), team_list.model_dump_json()
    position = team_list.positions[0]
    assert team_list.position(position.id) == position
    assert "position_index" in team_list.__dict__
    assert "position_index" not in twin.__dict__
    assert team_list == twin
    assert hash(team_list) == before == hash(twin)
    assert team_list.model_dump_json() == shown
    assert Range.model_validate({"from": 1, "to": 2}) != Range.model_validate({"from": 1, "to": 3})
