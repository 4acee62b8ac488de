"""Lines written straight as their rows (``row_writer``) are the rows of the records the
same values would build, so a rebuild's tables, which hold those rows, are unchanged; a
store that keeps its lines (a replay's, a command's) gets them back as those records."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from ledger.domain import events as ev
from ledger.domain.state import (
    EventLine,
    Line,
    PlayerGameLine,
    RefLine,
    TeamHistoryLine,
    TreasuryLine,
)
from ledger.domain.values import Casualty, DiceRoll, Performance
from ledger.projections.match_applier import GAME_LINE_COLUMNS
from ledger.projections.shapes import LineRow, row_writer, shape_of
from ledger.projections.sql import SqlStore
from ledger.projections.store import MemoryStore
from tests.support import Book, roll, sheet

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


def test_a_game_line_is_written_in_its_tables_column_order() -> None:
    """``count_games`` writes a game line's row as a tuple, in ``GAME_LINE_COLUMNS``."""
    assert shape_of(PlayerGameLine).columns == GAME_LINE_COLUMNS


def test_each_count_of_a_players_game_is_in_its_own_column() -> None:
    """A game whose every count differs, folded: its line holds each in its place (two
    counts swapped in ``count_games``'s tuple would show here). BB2025's SPP: a completion
    1, an interception 2, a casualty 2, a touchdown 3, an MVP 4 (seed 001 'Earning Star
    Player Points')."""
    book = Book()
    jay = book.team("jay", "human", ["blitzer", "thrower"])
    dan = book.team("dan", "skaven", ["clanrat"] * 3)
    played = Performance(player=jay[1], touchdowns=2, completions=3, interceptions=4, mvps=1)
    book.record(
        ev.MatchRecorded,
        match="m1",
        season=1,
        round=5,
        home=sheet("jay", 2, players=[played], dice=fan_rolls("jay")),
        away=sheet("dan", 0, dice=fan_rolls("dan")),
        casualties=(
            Casualty(
                victim=dan[0], inflicted_by=jay[1], cause="block", outcome="dead", effects=("dead",)
            ),
            Casualty(victim=dan[1], inflicted_by=jay[1], cause="block", outcome="badly_hurt"),
            Casualty(victim=jay[1], inflicted_by=dan[2], cause="foul", outcome="badly_hurt"),
        ),
    )
    (line,) = [g for g in book.fold().lines[PlayerGameLine] if g.player_id == jay[1]]
    assert (line.team_id, line.match_id, line.season, line.round) == ("jay", "m1", 1, 5)
    counts = (line.touchdowns, line.completions, line.interceptions, line.mvps)
    assert counts == (2, 3, 4, 1)
    assert (line.casualties, line.kills, line.injury) == (2, 1, "badly_hurt")
    assert line.spp == 3 * 1 + 2 * 4 + 2 * 3 + 4 + 2 * 2


def fan_rolls(team: str) -> list[DiceRoll]:
    return [
        roll("fan_factor", "D3", 1, subject=team),
        roll("dedicated_fans", "D6", 3, subject=team),
    ]
