"""The two stores behind the fold answer alike, including the shortcuts the SQL one takes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.bootstrap import sqlite_engine
from ledger.domain.state import PlayerRow, PlayerStatus, roster_of
from ledger.projections.runner import ReadModels
from ledger.projections.sql import SqlStore
from ledger.projections.store import MemoryStore


def player(player_id: str, status: PlayerStatus, team: str = "reavers") -> PlayerRow:
    return PlayerRow(
        league_id="l",
        player_id=player_id,
        team_id=team,
        name=player_id.title(),
        roster="human",
        position="lineman",
        ma=6,
        st=3,
        ag=3,
        pa=4,
        av=9,
        status=status,
    )


@pytest.fixture(params=["memory", "sql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryStore | SqlStore]:
    if request.param == "memory":
        yield MemoryStore()
        return
    engine = sqlite_engine(tmp_path / "models.db")
    ReadModels(engine).create()
    with engine.begin() as conn:
        yield SqlStore(engine, conn)
    engine.dispose()


def test_the_roster_is_the_current_players_in_key_order(store: MemoryStore | SqlStore) -> None:
    statuses: list[PlayerStatus] = ["dead", "active", "fired", "retired", "left", "active"]
    for number, status in enumerate(statuses):
        store.put(player(f"p{number}", status))
    store.put(player("x1", "active", team="rats"))

    found = roster_of(store, "l", "reavers")

    assert [(p.player_id, p.status) for p in found] == [
        ("p1", "active"),
        ("p3", "retired"),
        ("p5", "active"),
    ]


def test_a_player_who_dies_leaves_the_roster(store: MemoryStore | SqlStore) -> None:
    store.put(player("p1", "active"))
    assert [p.player_id for p in roster_of(store, "l", "reavers")] == ["p1"]
    store.put(player("p1", "dead"))
    assert roster_of(store, "l", "reavers") == []


def test_a_key_found_missing_is_found_once_it_is_put(store: MemoryStore | SqlStore) -> None:
    assert store.get(PlayerRow, "l", "p1") is None
    assert store.get(PlayerRow, "l", "p1") is None
    store.put(player("p1", "active"))
    found = store.get(PlayerRow, "l", "p1")
    assert found is not None
    assert found.name == "P1"
