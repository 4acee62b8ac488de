"""A rebuild whose lines a process of their own writes sends it each event's history as a
note, and that process makes the history's rows from the event as stored
(ledger/projections/history.py): the rows are those the fold makes, and the fold still
makes those that read its state (an amended event, a void that takes closes with it, a
season's close). A match report's note tells its play too, which that process counts
(ledger/projections/plays.py): each player's counters and his side's game lines."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from ledger.application.commands import (
    ClosePostGame,
    CloseSeason,
    Correct,
    RecordMatch,
    ScheduleSeason,
    StartSeason,
)
from ledger.application.service import LeagueLedger
from ledger.application.source import StoreSource
from ledger.domain import events as ev
from ledger.domain.state import EventLine, MatchRow, RefLine, TeamGameLine
from ledger.domain.values import Division
from ledger.persistence.mapper import read_stored
from ledger.projections import parallel, runner, settled
from ledger.projections.history import HistoryNote, Noted, history_rows
from ledger.projections.parallel import LineProcess
from ledger.projections.shapes import insert_statement
from tests.integration.test_corrections_reach import game as played
from tests.projections.test_consistency import journeyman_signed
from tests.projections.test_parallel_rebuild import several_leagues, tables
from tests.support import (
    HUMAN_ELEVEN,
    SKAVEN_ELEVEN,
    draft_team,
    two_team_league,
)


@pytest.fixture
def noted(monkeypatch: pytest.MonkeyPatch) -> list[HistoryNote]:
    """Every log long enough for the line process, its lines handed over in small batches;
    records each note of history the fold sends it."""
    monkeypatch.setattr(runner, "LINES_APART", 1)
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    monkeypatch.setattr(settled, "LINE_BATCH", 7)
    sent: list[HistoryNote] = []
    note = settled.LineRows.note

    def recorded(self: settled.LineRows, history: HistoryNote) -> None:
        sent.append(history)
        note(self, history)

    monkeypatch.setattr(settled.LineRows, "note", recorded)
    return sent


def fixtures(ledger: LeagueLedger) -> list[MatchRow]:
    league = ledger.league_row("test").league_id
    return sorted(
        ledger.view().select(MatchRow, league_id=league), key=lambda m: (m.round or 0, m.match_id)
    )


def game(row: MatchRow, scorer: int) -> RecordMatch:
    """``row`` played 1-0 (``test_corrections_reach.game``): each side's player ``scorer``
    the MVP, the home one scoring, and a casualty a block caused."""
    hurt = {"victim": f"{row.away} 2", "by": f"{row.home} 3", "cause": "block", "roll": 4}
    return RecordMatch("test", played(row, scorer=scorer, away=scorer, casualty=hurt))


def closed(ledger: LeagueLedger, row: MatchRow) -> None:
    for team in (row.home, row.away):
        ledger.handle(
            ClosePostGame("test", row.match_id, team, dice={"expensive_mistakes": 5}),
            by="tester",
        )


def season_with_corrections(ledger: LeagueLedger) -> dict[str, int]:
    """A season of four teams: its first game recorded, closed, voided with its closes and
    played again; its second amended; then the season closed. Returns the events whose
    history reads the fold's state, by what they are."""
    two_team_league(ledger)
    draft_team(ledger, "test", "elves", "human", HUMAN_ELEVEN)
    draft_team(ledger, "test", "vermin", "skaven", SKAVEN_ELEVEN)
    teams = ("reavers", "rats", "elves", "vermin")
    ledger.handle(StartSeason("test", [Division(name="North", teams=teams)]), by="tester")
    ledger.handle(ScheduleSeason("test", legs=1), by="tester")
    first, second, *others = fixtures(ledger)
    ledger.handle(game(first, scorer=1), by="tester")
    closed(ledger, first)
    recorded = ledger.load_log("test").version - 2
    ledger.handle(Correct("test", recorded, "void"), by="tester", reason="wrong game")
    voiding = ledger.load_log("test").version
    ledger.handle(game(first, scorer=4), by="tester")
    closed(ledger, first)
    ledger.handle(game(second, scorer=5), by="tester")
    amended = ledger.load_log("test").version
    closed(ledger, second)
    ledger.handle(
        Correct("test", amended, "amend", amendment={"weather": "nice"}), by="t", reason="typo"
    )
    for scorer, row in enumerate(others, start=6):  # each player's SPP below an advancement
        ledger.handle(game(row, scorer), by="tester")
        closed(ledger, row)
    ledger.handle(CloseSeason("test"), by="tester")
    season_closed = ledger.load_log("test").version
    ledger.catch_up()
    return {"voiding": voiding, "amended": amended, "season closed": season_closed}


def test_the_line_process_makes_the_history_the_fold_would_have_made(
    sqlite_ledger: LeagueLedger, noted: list[HistoryNote]
) -> None:
    kept_here = season_with_corrections(sqlite_ledger)
    incremental = tables(sqlite_ledger)
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert tables(sqlite_ledger) == incremental
    league = sqlite_ledger.league_row("test").league_id
    events = list(sqlite_ledger.source.league_events(league))
    told = {seq_of(note) for note in noted if note[3] is not None}
    assert told == {e.seq for e in events} - set(kept_here.values())
    assert any(note[4] for note in noted)  # the voided report and its closes: noted voided
    # The play of every report applied (not the voided one), the amended one as it reads
    played = [seq_of(note) for note in noted if note[5] is not None]
    reports = [e.seq for e in events if isinstance(e, ev.MatchRecorded)]
    assert played == [seq for seq in reports if seq != kept_here["voiding"] - 3]
    amended = next(note for note in noted if note[3] is None)
    assert isinstance(amended[2], ev.MatchRecorded)
    assert amended[2].weather == "nice"


def seq_of(note: HistoryNote) -> int:
    stored = note[2]
    return orjson.loads(stored)["originator_version"] if isinstance(stored, bytes) else stored.seq


def test_a_share_of_a_parallel_rebuild_counts_its_play_itself(
    sqlite_ledger: LeagueLedger, noted: list[HistoryNote], shared: list[int]
) -> None:
    """The rebuilding process's share has a line process too, but that one shares the
    other core with a worker: its notes tell the history, and the fold counts the play
    (``Store.plays_apart``, ledger/projections/plays.py)."""
    several_leagues(sqlite_ledger)
    incremental = tables(sqlite_ledger)
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert shared == [2]
    assert noted  # the first share's history went to its line process
    assert all(note[5] is None for note in noted)
    assert tables(sqlite_ledger) == incremental


def test_the_line_process_counts_a_signed_hireling_from_his_game(
    sqlite_ledger: LeagueLedger, noted: list[HistoryNote]
) -> None:
    """A journeyman signed after his game joins with what he did in it: the line process,
    which counts play in a rebuild, starts him from that game as the fold does
    (``plays.Totals.signed``)."""
    journeyman_signed(sqlite_ledger)
    incremental = tables(sqlite_ledger)
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert any(note[5] is not None for note in noted)  # the play counted apart
    assert tables(sqlite_ledger) == incremental


def test_a_rebuild_without_the_line_process_sends_no_note(
    sqlite_ledger: LeagueLedger, noted: list[HistoryNote]
) -> None:
    season_with_corrections(sqlite_ledger)
    incremental = tables(sqlite_ledger)
    sqlite_ledger.read_models.processes = 1  # one process: the lines go from a thread
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert tables(sqlite_ledger) == incremental
    assert noted == []


def test_a_note_makes_the_rows_the_fold_makes(sqlite_ledger: LeagueLedger) -> None:
    """Each event read back from its stored JSON gives its history the rows the fold
    gives the event it read (``history_rows`` both ways), every event of a season."""
    season_with_corrections(sqlite_ledger)
    league = sqlite_ledger.league_row("test").league_id
    stored = list(sqlite_ledger.source.league_stored_events(league))
    notes: list[HistoryNote] = [
        (league, type(event).__name__, state, f"said {event.seq}", event.seq % 2 == 0, None)
        for event, state in stored
    ]
    lines: list[tuple[object, ...]] = []
    references: list[tuple[object, ...]] = []
    for event, _ in stored:
        line, found = history_rows(league, event, f"said {event.seq}", event.seq % 2 == 0)
        lines.append(line)
        references += found
    assert Noted(read_stored).batch(notes) == [
        (insert_statement(EventLine, "sqlite"), lines),
        (insert_statement(RefLine, "sqlite"), references),
        (insert_statement(TeamGameLine, "sqlite"), []),
    ]
    assert any(isinstance(event, ev.MatchRecorded) for event, _ in stored)


def unreadable(kind: str, data: bytes) -> ev.LedgerEvent:
    """A reader that cannot read what it is given (imported by the line process)."""
    raise ValueError(f"cannot read {kind}")


def test_a_note_the_line_process_cannot_read_leaves_the_fold_to_write_the_lines(
    sqlite_ledger: LeagueLedger, noted: list[HistoryNote], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The line process ends with status 1 and the fold is done again, its lines written
    from a thread (``LinesLost``): the read models are whole all the same."""
    season_with_corrections(sqlite_ledger)
    incremental = tables(sqlite_ledger)
    ended: list[int | None] = []
    leaving = LineProcess.__exit__

    def noted_exit(self: LineProcess, *failure: Any) -> None:
        try:
            leaving(self, *failure)
        finally:
            ended.append(self.exitcode)

    monkeypatch.setattr(StoreSource, "stored_reader", lambda self: unreadable)
    monkeypatch.setattr(LineProcess, "__exit__", noted_exit)
    sqlite_ledger.read_models.rebuild(sqlite_ledger.source)
    assert ended == [1]  # the one line process, which could not read the first notes
    assert noted  # they were sent
    assert tables(sqlite_ledger) == incremental
