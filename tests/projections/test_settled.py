"""A rebuild's store that writes settled records to a file answers every question as the
store that keeps everything in memory does, in key order as the SQL store answers (issue
14: memory that follows the current rosters, not the league's history), whether it writes
the file itself or has its line process keep it (``SettledFile`` ``away``)."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.domain.state import MatchRow, PlayerRow, Record, SeasonRow, StandingRow
from ledger.projections import settled as settled_module
from ledger.projections.faults import FoldFailed, apply_checked
from ledger.projections.parallel import LineProcess, LinesLost
from ledger.projections.settled import WATCHED, SettledFile, looked_at, records_of
from ledger.projections.store import MemoryStore
from tests.support import unread

LEAGUE = "league"
TEAMS = ("reavers", "rats")


def player(number: int, team: str, status: str, spp: int = 0) -> PlayerRow:
    return PlayerRow.build(
        league_id=LEAGUE,
        player_id=f"p{number}",
        team_id=team,
        name=f"Player {number}",
        roster="human",
        position="lineman",
        ma=6,
        st=3,
        ag=3,
        av=9,
        status=status,
        spp=spp,
    )


def match(number: int, season: int | None, closed: tuple[str, ...]) -> MatchRow:
    return MatchRow.build(
        league_id=LEAGUE,
        match_id=f"g{number}",
        season=season,
        home=TEAMS[0],
        away=TEAMS[1],
        status="played",
        closed=closed,
    )


def standing(season: int, team: str, points: int) -> StandingRow:
    return StandingRow.build(league_id=LEAGUE, season=season, team_id=team, points=points)


def season(number: int, status: str) -> SeasonRow:
    return SeasonRow.build(league_id=LEAGUE, season=number, status=status)


players = st.builds(
    player,
    st.integers(1, 6),
    st.sampled_from(TEAMS),
    st.sampled_from(["active", "retired", "dead", "fired", "left"]),
    st.integers(0, 3),
)
matches = st.builds(
    match,
    st.integers(1, 4),
    st.sampled_from([None, 1, 2, 3]),
    st.sampled_from([(), TEAMS[:1], TEAMS, TEAMS[::-1]]),
)

standings = st.builds(standing, st.integers(1, 3), st.sampled_from(TEAMS), st.integers(0, 3))
seasons = st.builds(season, st.integers(1, 4), st.sampled_from(["open", "closed"]))

QUESTIONS: list[tuple[type[Record], dict[str, Any]]] = [
    (PlayerRow, {"league_id": LEAGUE}),
    (PlayerRow, {"league_id": LEAGUE, "team_id": "rats"}),
    (PlayerRow, {"league_id": LEAGUE, "team_id": "reavers", "status": "dead"}),
    (PlayerRow, {"league_id": LEAGUE, "team_id": "reavers", "status": "active"}),
    (PlayerRow, {"league_id": LEAGUE, "spp": 2}),
    (MatchRow, {"league_id": LEAGUE, "season": 1}),
    (MatchRow, {"league_id": LEAGUE, "season": 2, "home": "reavers"}),
    (MatchRow, {"league_id": LEAGUE, "season": None}),
    (MatchRow, {"league_id": LEAGUE}),
    (StandingRow, {"league_id": LEAGUE, "season": 1}),
    (StandingRow, {"league_id": LEAGUE}),
    (SeasonRow, {"league_id": LEAGUE}),
]


@contextlib.contextmanager
def settling(folder: Path, away: bool) -> Iterator[tuple[MemoryStore, Path]]:
    """A store whose settled records go to a file it writes, or to a line process (``away``),
    and the file that holds them once the block is over."""
    path = folder / "settled.db"
    path.unlink(missing_ok=True)
    if not away:
        file = SettledFile(path)
        yield MemoryStore(settled=file), path
        file.close()
        return
    with LineProcess(folder / "lines.db") as process:
        yield MemoryStore(settled=SettledFile(path, away=process)), process.path
    assert not path.exists()  # nothing written here


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settled records sent two at a time: a store holds some waiting, some sent and not
    yet written, some written, and several copies of one record in different places."""
    monkeypatch.setattr(settled_module, "BATCH", 2)


@pytest.mark.usefixtures("small_batches")
@pytest.mark.parametrize("away", [False, True])
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(writes=st.lists(st.one_of(players, matches, standings, seasons), min_size=1, max_size=50))
def test_a_store_with_a_settled_file_answers_as_one_that_keeps_everything(
    tmp_path: Path, away: bool, writes: list[Record]
) -> None:
    plain = MemoryStore()
    with settling(tmp_path, away) as (settled, path):
        for record in writes:
            plain.put(record)
            settled.put(record)
            for number in range(1, 7):
                key = (LEAGUE, f"p{number}")
                assert settled.get(PlayerRow, *key) == plain.get(PlayerRow, *key)
            for team in TEAMS:
                assert settled.get(StandingRow, LEAGUE, 1, team) == plain.get(
                    StandingRow, LEAGUE, 1, team
                )
            for kind, where in QUESTIONS:
                expected = sorted(plain.select(kind, **where), key=lambda r: r.key_values())
                assert settled.select(kind, **where) == expected
            for team in TEAMS:
                assert settled.roster(LEAGUE, team) == plain.roster(LEAGUE, team)
        assert settled.settled is not None
        settled.settled.absorb(settled.all)
    with sqlite3.connect(path) as db:
        for kind in (PlayerRow, MatchRow, StandingRow, SeasonRow):
            written = [record for batch in records_of(db, kind) for record in batch]
            assert written == plain.all(kind)


def written(process: LineProcess, batches: int) -> None:
    """Wait until the process has acknowledged ``batches`` batches of settled records."""
    deadline = time.monotonic() + 30
    while process.written < batches and time.monotonic() < deadline:
        process.take_replies(wait=False)
        time.sleep(0.01)
    assert process.written == batches


@pytest.mark.usefixtures("small_batches")
def test_a_record_written_away_is_asked_of_the_process_and_one_sent_is_read_from_memory(
    tmp_path: Path,
) -> None:
    with LineProcess(tmp_path / "lines.db") as process:
        file = SettledFile(tmp_path / "settled.db", away=process)
        store = MemoryStore(settled=file)
        for number in range(1, 5):
            store.put(player(number, "rats", "dead"))  # two batches of two
        written(process, 2)
        assert store.get(PlayerRow, LEAGUE, "p2") == player(2, "rats", "dead")
        assert file.sent == {}  # forgotten once written: the process answered
        store.put(player(1, "rats", "active"))  # back in memory, changed, gone again
        store.put(player(1, "rats", "fired", spp=3))
        store.put(player(5, "rats", "dead"))  # a batch sent, maybe not yet written
        assert store.get(PlayerRow, LEAGUE, "p1") == player(1, "rats", "fired", spp=3)
        assert store.select(PlayerRow, league_id=LEAGUE, status="fired") == [
            player(1, "rats", "fired", spp=3)
        ]
        assert store.select(PlayerRow, league_id=LEAGUE, status="dead") == [
            player(number, "rats", "dead") for number in (2, 3, 4, 5)
        ]


class Asking:
    """A fold whose event asks the settled records kept by a lost line process."""

    league_id = LEAGUE

    def __init__(self, file: SettledFile) -> None:
        self.file = file

    def apply(self, event: Any, stored: bytes | None = None) -> None:
        self.file.get(PlayerRow, (LEAGUE, "p1"))


@pytest.mark.usefixtures("small_batches")
def test_a_question_the_lost_process_cannot_answer_stops_the_fold_and_blames_no_event(
    tmp_path: Path,
) -> None:
    """The fold then starts again with the lines and settled records written here, as
    after any lost line process (ledger/projections/parallel.py, ``fold_share``)."""
    process = LineProcess(tmp_path / "lines.db")
    file = SettledFile(tmp_path / "settled.db", away=process)
    for number in (1, 2):
        file.put(player(number, "rats", "dead"))
    written(process, 1)
    process.process.kill()  # as the system would end it, out of memory
    process.process.join()
    with pytest.raises(LinesLost) as stopped:
        apply_checked(Asking(file), object())  # type: ignore[arg-type]
    assert not isinstance(stopped.value, FoldFailed)
    with pytest.raises(LinesLost):  # the end of the fold says so as well
        process.__exit__(None)


def test_a_former_player_leaves_memory_and_comes_back_when_he_changes(tmp_path: Path) -> None:
    store = MemoryStore(settled=SettledFile(tmp_path / "settled.db"))
    store.put(player(1, "rats", "active"))
    store.put(player(1, "rats", "dead"))
    assert store.records[PlayerRow] == {}  # out of memory
    assert store.get(PlayerRow, LEAGUE, "p1") == player(1, "rats", "dead")
    store.put(player(1, "rats", "active", spp=2))  # a correction brought him back
    assert store.roster(LEAGUE, "rats") == [player(1, "rats", "active", spp=2)]
    assert store.select(PlayerRow, league_id=LEAGUE, team_id="rats", status="dead") == []


def test_a_closed_match_settles_when_the_next_season_starts(tmp_path: Path) -> None:
    """A season's close reads its games, and so do the re-drafts after it: those stay."""
    store = MemoryStore(settled=SettledFile(tmp_path / "settled.db"))
    store.put(season(1, "open"))
    store.put(match(1, 1, TEAMS))
    assert list(store.records[MatchRow]) == [(LEAGUE, "g1")]
    store.put(season(2, "open"))
    assert store.records[MatchRow] == {}
    assert store.select(MatchRow, league_id=LEAGUE, season=1) == [match(1, 1, TEAMS)]
    store.put(match(2, 2, TEAMS[:1]))  # not closed by both: stays
    store.put(season(3, "open"))
    assert list(store.records[MatchRow]) == [(LEAGUE, "g2")]


def test_a_closed_seasons_standings_leave_memory(tmp_path: Path) -> None:
    store = MemoryStore(settled=SettledFile(tmp_path / "settled.db"))
    for team in TEAMS:
        store.put(standing(1, team, 3))
    store.put(season(1, "closed"))
    assert store.records[StandingRow] == {}
    assert store.select(StandingRow, league_id=LEAGUE, season=1) == [
        standing(1, team, 3) for team in sorted(TEAMS)
    ]


def test_a_record_changed_in_place_settles_as_one_put_anew(tmp_path: Path) -> None:
    """The fold changes the records it alone holds in place (``MemoryStore.change``): a
    match closed by its last team that way settles, and a season closed that way takes
    its standings out of memory, as when they are put."""
    store = MemoryStore(settled=SettledFile(tmp_path / "settled.db"))
    store.put(season(1, "open"))
    store.put(match(1, 1, TEAMS[:1]))
    for team in TEAMS:
        store.put(standing(1, team, 3))
    store.put(season(2, "open"))
    played = store.get(MatchRow, LEAGUE, "g1")
    assert played is not None

    store.change(played, closed=TEAMS)
    first = store.get(SeasonRow, LEAGUE, 1)
    assert first is not None
    store.change(first, status="closed")

    assert store.records[MatchRow] == {}
    assert store.records[StandingRow] == {}
    assert store.get(MatchRow, LEAGUE, "g1") == match(1, 1, TEAMS)
    assert store.select(StandingRow, league_id=LEAGUE, season=1) == [
        standing(1, team, 3) for team in sorted(TEAMS)
    ]


def test_what_settles_a_record_changed_in_place_is_declared(tmp_path: Path) -> None:
    """Whether a record settles, or lets others settle, reads only the fields a change
    looks at (``looked_at``): those that place it in memory (changed on a copy, which
    ``put`` shows the file) and those ``SETTLING_IN_PLACE`` names (a change of which in
    place asks the file). Any other field of each watched record fails here when read."""
    records: list[Record] = [
        player(1, "rats", "dead"),
        match(1, 1, TEAMS),
        standing(1, "rats", 3),
        season(2, "open"),
        season(1, "closed"),
    ]
    assert {type(record) for record in records} == WATCHED
    file = SettledFile(tmp_path / "settled.db")
    file.settles(season(3, "open"))  # a later season: the match of season 1 may settle
    for record in records:
        kind = type(record)
        reads = looked_at[kind]
        hidden = unread(record, reads)
        assert (file.takes(hidden), file.settles(hidden)) == (
            file.takes(record),
            file.settles(record),
        )
