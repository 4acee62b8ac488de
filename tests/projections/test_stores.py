"""The two stores behind the fold answer alike, including the shortcuts the SQL one takes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.bootstrap import sqlite_engine
from ledger.domain.state import ON_ROSTER, PlayerRow, PlayerStatus, roster_of
from ledger.projections.runner import ReadModels
from ledger.projections.sql import SqlStore
from ledger.projections.store import MemoryStore


def player(
    player_id: str, status: PlayerStatus, team: str = "reavers", league: str = "l"
) -> PlayerRow:
    return PlayerRow(
        league_id=league,
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


MOVES = st.lists(
    st.tuples(
        st.sampled_from(["p1", "p2", "p3", "p4", "p5"]),
        st.sampled_from(["reavers", "rats"]),
        st.sampled_from(["active", "retired", "dead", "fired", "left"]),
        st.integers(min_value=0, max_value=3),
    ),
    max_size=40,
)


@given(MOVES)
def test_kept_rosters_and_buckets_follow_every_change(
    moves: list[tuple[str, str, str, int]],
) -> None:
    """The in-memory store keeps each roster and each bucket's order between changes; after
    any sequence of hires, transfers, deaths and games they answer as a plain scan would."""
    store = MemoryStore()
    for player_id, team, status, games in moves:
        row = player(player_id, cast(PlayerStatus, status), team=team)
        row = row.model_copy(update={"games": games})
        store.put(row)
        everyone = store.all(PlayerRow)
        for team_id in ("reavers", "rats"):
            expected = [p for p in everyone if p.team_id == team_id and p.status in ON_ROSTER]
            assert roster_of(store, "l", team_id) == expected
            assert store.select(PlayerRow, league_id="l", team_id=team_id) == [
                p for p in everyone if p.team_id == team_id
            ]


def test_a_change_is_what_every_later_read_answers(store: MemoryStore | SqlStore) -> None:
    store.put(player("p1", "active"))
    current = store.get(PlayerRow, "l", "p1")
    assert current is not None

    changed = store.change(current, games=3, spp=6)
    moved = store.change(changed, team_id="rats")

    assert (moved.games, moved.spp, moved.team_id) == (3, 6, "rats")
    assert store.get(PlayerRow, "l", "p1") == moved
    assert roster_of(store, "l", "reavers") == []
    assert roster_of(store, "l", "rats") == [moved]


def test_a_record_the_store_alone_holds_is_changed_where_it_stands() -> None:
    """The fold's counters and SPP change in place: no copy per change."""
    store = MemoryStore()
    store.put(player("p1", "active"))
    current = store.get(PlayerRow, "l", "p1")
    assert current is not None

    assert store.change(current, games=1) is current
    assert store.change(current, status="dead") is not current  # it leaves the roster


def test_a_store_and_its_copy_never_change_each_others_records() -> None:
    """A what-if's samples start from copies of one store: each copies a shared record the
    first time it changes it, so the others (and the start) keep theirs."""
    start = MemoryStore()
    start.put(player("p1", "active"))
    shared = start.get(PlayerRow, "l", "p1")
    assert shared is not None
    first, second = start.copy(), start.copy()

    mine = first.change(shared, games=5)
    first.change(mine, games=6)
    second.change(shared, spp=2)
    start.change(shared, niggling=1)

    assert (shared.games, shared.spp, shared.niggling) == (0, 0, 0)
    assert [
        (p.games, p.spp, p.niggling) for s in (first, second, start) for p in s.all(PlayerRow)
    ] == [
        (6, 0, 0),
        (0, 2, 0),
        (0, 0, 1),
    ]


def test_a_copy_shares_the_facts_of_classes_its_twin_reads() -> None:
    """What a store reads of each record class (``looked_at``, worked out when a class is
    first asked) is shared with its copies, not copied into a plain dict: a sample that
    changes a class its start never changed (a season closed) asks it there too."""
    start = MemoryStore()
    twin = start.copy()
    assert twin.looked_at is start.looked_at
    twin.put(player("p1", "active"))
    current = twin.get(PlayerRow, "l", "p1")
    assert current is not None
    assert twin.change(current, games=1).games == 1


@given(MOVES)
def test_changes_in_place_and_by_copy_keep_rosters_and_buckets(
    moves: list[tuple[str, str, str, int]],
) -> None:
    """Whether a change is made in place (counters) or on a copy (a transfer, a death), the
    store answers as if every record were put anew."""
    store, plain = MemoryStore(), MemoryStore()
    for player_id, team, status, games in moves:
        current = store.get(PlayerRow, "l", player_id)
        if current is None:
            store.put(player(player_id, cast(PlayerStatus, status), team=team))
        else:
            changed = store.change(current, team_id=team, status=status, games=games)
            store.change(changed, games=games + 1)
        found = store.get(PlayerRow, "l", player_id)
        assert found is not None
        plain.put(found.model_copy())
        for team_id in ("reavers", "rats"):
            assert roster_of(store, "l", team_id) == roster_of(plain, "l", team_id)
            assert store.select(PlayerRow, league_id="l", team_id=team_id) == plain.select(
                PlayerRow, league_id="l", team_id=team_id
            )


def played(store: MemoryStore, moves: list[tuple[str, str, str, int]]) -> None:
    """Each move changes a player as the fold does (``change``), or hires him."""
    for player_id, team, status, games in moves:
        current = store.get(PlayerRow, "l", player_id)
        if current is None:
            store.put(player(player_id, cast(PlayerStatus, status), team=team))
            continue
        if current.team_id == team and current.status == status:
            store.change(current, games=games)  # in place, or on a copy of a shared one
        else:
            store.change(current, team_id=team, status=status, games=games)


def answers(store: MemoryStore) -> list[object]:
    """What the fold asks of a store about players: each team's players and roster."""
    return [
        (store.select(PlayerRow, league_id=league, team_id=team), roster_of(store, league, team))
        for league in ("l", "m")
        for team in ("reavers", "rats")
    ]


@given(MOVES, MOVES)
def test_a_copy_changed_answers_as_a_store_put_anew_and_leaves_its_twin(
    before: list[tuple[str, str, str, int]], after: list[tuple[str, str, str, int]]
) -> None:
    """A Monte Carlo sample's store starts as a copy and changes records it shares with its
    twin on copies that take their slots; it must answer as a store with every record put
    anew, with another league's players of the same teams beside them, and its twin as
    before."""
    start = MemoryStore()
    start.put(player("p2", "active", team="reavers", league="m"))
    start.put(player("p9", "active", team="rats", league="m"))
    played(start, before)
    kept = [repr(answer) for answer in answers(start)]
    twin = start.copy()
    played(twin, after)
    plain = MemoryStore()
    for record in twin.all(PlayerRow):
        plain.put(record.model_copy())
    assert answers(twin) == answers(plain)
    assert [repr(answer) for answer in answers(start)] == kept


def test_selects_by_other_fields_of_the_key_are_not_answered_alike() -> None:
    """A team's players asked by league, then by player id, from the same bucket: a value
    that names both a league and a player must not answer the second as the first."""
    store = MemoryStore()
    for player_id in ("x", "y"):
        store.put(player(player_id, "active", league="x"))
    assert [p.player_id for p in store.select(PlayerRow, team_id="reavers", league_id="x")] == [
        "x",
        "y",
    ]
    found = store.select(PlayerRow, team_id="reavers", player_id="x")
    assert [p.player_id for p in found] == ["x"]
