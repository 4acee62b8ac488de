"""The lines a fold writes by the thousand are made straight as their rows: tuples of
their columns' values, in their classes' field order (``history_rows``). A folded game
whose every figure differs holds each in its own column, so two values swapped in a
tuple, or a line class's fields reordered, show here; a store that keeps its lines (a
replay's, a command's) gets a row back as the record the same values build."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from ledger.domain import events as ev
from ledger.domain.state import (
    EventLine,
    Line,
    RefLine,
    TeamGameLine,
    TeamHistoryLine,
    TreasuryLine,
)
from ledger.domain.values import Casualty, DiceRoll, Performance
from ledger.projections.shapes import LineRow, shape_of
from ledger.projections.sql import SqlStore
from ledger.projections.store import MemoryStore
from tests.support import Book, roll, sheet


def fan_rolls(team: str) -> list[DiceRoll]:
    return [
        roll("fan_factor", "D3", 1, subject=team),
        roll("dedicated_fans", "D6", 3, subject=team),
    ]


@pytest.fixture(scope="module")
def game() -> tuple[Book, list[Line], int]:
    """One BB2025 game whose every figure differs from the others of its line, recorded
    with a reason by an account in a role, and folded."""
    book = Book()
    jay = book.team("jay", "human", ["blitzer", "thrower"], treasury=7_000)
    dan = book.team("dan", "skaven", ["clanrat"] * 3)
    played = Performance(player=jay[1], touchdowns=2, completions=3, interceptions=4, mvps=1)
    killed = Casualty(
        victim=dan[0], inflicted_by=jay[1], cause="block", outcome="dead", effects=("dead",)
    )
    recorded = book.log.record(
        ev.MatchRecorded,
        recorded_by="Jay",
        reason="the final",
        account="jay-coach",
        acting_as="coach",
        match="m1",
        season=1,
        round=5,
        home=sheet("jay", 2, players=[played], dice=fan_rolls("jay")),
        away=sheet("dan", 0, dice=fan_rolls("dan")),
        casualties=(
            killed,
            Casualty(victim=dan[1], inflicted_by=jay[1], cause="block", outcome="badly_hurt"),
            Casualty(victim=jay[1], inflicted_by=dan[2], cause="foul", outcome="badly_hurt"),
        ),
    )
    state = book.fold()
    return book, [line for lines in state.lines.values() for line in lines], recorded.seq


def lines_of(kind: type[Line], found: list[Line], **where: Any) -> list[Any]:
    return [
        line
        for line in found
        if isinstance(line, kind) and all(getattr(line, k) == v for k, v in where.items())
    ]


def test_each_count_of_a_players_game_is_in_its_own_column(
    game: tuple[Book, list[Line], int],
) -> None:
    """BB2025's SPP: a completion 1, an interception 2, a casualty 2, a touchdown 3, an
    MVP 4 (seed 001 'Earning Star Player Points')."""
    _, found, _ = game
    (side,) = lines_of(TeamGameLine, found, team_id="jay", match_id="m1")
    (line,) = side.player_lines()
    assert (line.player_id, line.season, line.round) == ("p2", 1, 5)
    assert (line.touchdowns, line.completions, line.interceptions, line.mvps) == (2, 3, 4, 1)
    assert (line.casualties, line.kills, line.injury) == (2, 1, "badly_hurt")
    assert line.spp == 3 * 1 + 2 * 4 + 2 * 3 + 4 + 2 * 2


def test_the_games_history_line_holds_who_recorded_it_and_why(
    game: tuple[Book, list[Line], int],
) -> None:
    book, found, seq = game
    (line,) = lines_of(EventLine, found, event_type="MatchRecorded")
    assert (line.league_id, line.seq, line.voided, line.target) == (
        book.league_id,
        seq,
        False,
        None,
    )
    assert (line.recorded_by, line.reason) == ("Jay", "the final")
    assert (line.account, line.acting_as) == ("jay-coach", "coach")
    assert line.recorded_at.startswith("20")
    assert line.summary.startswith("league match m1")
    refs = lines_of(RefLine, found, seq=seq)
    assert [ref.ref for ref in refs] == sorted(ref.ref for ref in refs)
    assert {"match:m1", "team:jay", "team:dan"} <= {ref.ref for ref in refs}


def test_the_games_winnings_and_each_teams_history_in_their_columns(
    game: tuple[Book, list[Line], int],
) -> None:
    """Winnings, seed 001 'Record Outcome and Collect Winnings': (attendance 4 / 2 + 2 TD
    + 1 for not stalling) x 10,000 = 50,000, on top of the 7,000 the team kept (the
    attendance: each team's Dedicated Fans 1 and a D3 of 1). Its history line, at the game,
    has both."""
    book, found, seq = game
    (paid,) = lines_of(TreasuryLine, found, team_id="jay", seq=seq)
    assert (paid.line, paid.amount, paid.balance) == (1, 50_000, 57_000)
    assert (paid.kind, paid.note) == ("winnings", "attendance 4 / 2 + 2 TD + 1 no stalling")
    (history,) = lines_of(TeamHistoryLine, found, team_id="jay", seq=seq)
    team = book.team_row("jay")
    assert (history.match_id, history.season, history.round) == ("m1", 1, 5)
    assert (history.rating, history.values) == (team.rating, team.values)
    assert (history.treasury, history.fans_before, history.fans) == (57_000, 1, team.fans)
    assert history.rating != history.treasury


WRITTEN: list[tuple[type[Line], dict[str, Any]]] = [
    (
        TeamGameLine,
        {
            "league_id": "l",
            "team_id": "t",
            "seq": 4,
            "match_id": "m",
            "season": 2,
            "players": {"p1": [0, 0, 0, 0, 0, 0, 0, "dead"], "p2": [1, 2]},
        },
    ),
    (EventLine, {"league_id": "l", "seq": 3, "voided": True, "summary": "x"}),
    (
        TeamHistoryLine,
        {
            "league_id": "l",
            "team_id": "t",
            "seq": 5,
            "rating": 1_050_000,
            "values": {"tv": 1_050_000, "ctv": 990_000},
            "treasury": 40_000,
            "fans": 3,
            "fans_before": 2,
        },
    ),
]


@pytest.mark.parametrize(("kind", "values"), WRITTEN)
def test_a_store_keeping_its_lines_keeps_a_row_as_the_record_built(
    kind: type[Line], values: dict[str, Any]
) -> None:
    """A JSON column's text is read back as its value (a team's history line's values)."""
    row = shape_of(kind).row(kind.build(**values))
    memory, sql = MemoryStore(), SqlStore(sa.create_engine("sqlite://"))
    for store in (memory, sql):
        store.emit_row(kind, row)
    assert memory.lines[kind] == sql.lines == [kind.build(**values)]


def test_a_store_with_a_sink_hands_it_rows_emitted_as_records_or_rows() -> None:
    got: list[tuple[type[Line], LineRow]] = []
    store = MemoryStore(sink=lambda kind, row: got.append((kind, row)))
    kind, values = WRITTEN[0]
    row = shape_of(kind).row(kind.build(**values))
    store.emit(kind.build(**values))
    store.emit_row(kind, row)
    assert got == [(kind, row)] * 2
    assert store.lines[kind] == []
