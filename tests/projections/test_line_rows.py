"""Lines written straight as their rows (``row_writer``) are the rows of the records the
same values would build, so a rebuild's tables, which hold those rows, are unchanged; a
store that keeps its lines (a replay's, a command's) gets them back as those records."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from ledger.domain.state import (
    EventLine,
    Line,
    PlayerGameLine,
    RefLine,
    TeamHistoryLine,
    TreasuryLine,
)
from ledger.domain.values import Casualty
from ledger.projections.shapes import LineRow, row_writer, shape_of
from ledger.projections.sql import SqlStore
from ledger.projections.store import MemoryStore

WRITTEN: list[tuple[type[Line], dict[str, Any]]] = [
    (
        PlayerGameLine,
        {"league_id": "l", "player_id": "p1", "team_id": "t", "match_id": "m", "seq": 7},
    ),
    (PlayerGameLine, {"league_id": "l", "player_id": "p1", "season": 2, "injury": "dead"}),
    (EventLine, {"league_id": "l", "seq": 3, "event_type": "MatchRecorded"}),
    (EventLine, {"league_id": "l", "seq": 3, "voided": True, "summary": "x"}),
    (RefLine, {"league_id": "l", "ref": "team:t", "seq": 3}),
    (TreasuryLine, {"league_id": "l", "team_id": "t", "seq": 4, "line": 2, "amount": -5}),
    (
        TeamHistoryLine,
        {
            "league_id": "l",
            "team_id": "t",
            "seq": 5,
            "match_id": "m",
            "rating": 1_050_000,
            "values": {"tv": 1_050_000, "ctv": 990_000},
            "treasury": 40_000,
            "fans": 3,
            "fans_before": 2,
        },
    ),
    (TeamHistoryLine, {"league_id": "l", "team_id": "t", "seq": 6, "rating": 0}),
]


@pytest.mark.parametrize(("kind", "values"), WRITTEN)
def test_a_line_written_as_its_row_is_the_row_of_the_record_built(
    kind: type[Line], values: dict[str, Any]
) -> None:
    """Fields left out take their defaults, as ``build`` gives them."""
    assert row_writer[kind](**values) == shape_of(kind).row(kind.build(**values))


def test_a_name_not_a_field_is_refused_and_a_line_holding_models_has_no_row_writer() -> None:
    with pytest.raises(TypeError, match="touchdown"):
        row_writer[PlayerGameLine](league_id="l", touchdown=1)
    with pytest.raises(TypeError, match="touchdown"):
        row_writer[TeamHistoryLine](league_id="l", touchdown=1)
    with pytest.raises(TypeError, match="Carded holds models"):
        row_writer[Carded]  # its row is its values dumped


class Carded(Line):
    """A line holding a model, as no line of the books does."""

    table = "rm_test_carded"
    key = ("league_id",)

    league_id: str
    card: Casualty | None = None


@pytest.mark.parametrize(("kind", "values"), WRITTEN)
def test_a_store_keeping_its_lines_keeps_a_row_as_the_record_built(
    kind: type[Line], values: dict[str, Any]
) -> None:
    memory, sql = MemoryStore(), SqlStore(sa.create_engine("sqlite://"))
    for store in (memory, sql):
        store.emit_row(kind, row_writer[kind](**values))
    assert memory.lines[kind] == sql.lines == [kind.build(**values)]


def test_a_store_with_a_sink_hands_it_rows_emitted_as_records_or_rows() -> None:
    got: list[tuple[type[Line], LineRow]] = []
    store = MemoryStore(sink=lambda kind, row: got.append((kind, row)))
    kind, values = WRITTEN[0]
    store.emit(kind.build(**values))
    store.emit_row(kind, row_writer[kind](**values))
    assert got == [(kind, shape_of(kind).row(kind.build(**values)))] * 2
    assert store.lines[kind] == []
