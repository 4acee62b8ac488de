"""A report's records of play, counted by the functions the fold and a rebuild's line
process share (ledger/projections/plays.py): what the line process keeps of a player is
every counter ``played`` adds to, and it counts a game as the fold counts it."""

from __future__ import annotations

from dataclasses import fields

from ledger.domain import events as ev
from ledger.domain.state import PlayerRow
from ledger.domain.values import Casualty, Performance
from ledger.projections.plays import (
    COUNTERS,
    NONE_CAUSED,
    Caused,
    Counters,
    Totals,
    casualty_facts,
    played,
)
from tests.support import sheet

BUSY = Performance(player="p1", touchdowns=2, completions=1, interceptions=1, mvps=1)


def test_the_line_process_keeps_every_counter_a_game_adds_to() -> None:
    changed = played(Counters(), BUSY, 3, Caused(earning_spp=1, kills=1, all=2))
    assert set(changed) == {*COUNTERS, "seasons"}
    assert set(COUNTERS) < {field.name for field in fields(Counters)}
    player_fields = PlayerRow.model_fields
    assert all(player_fields[name].default == 0 for name in COUNTERS)  # a new player's


def test_a_casualty_counts_for_its_causer_and_its_victim() -> None:
    casualties = [
        Casualty(victim="v1", inflicted_by="p1", cause="block", outcome="dead", effects=("dead",)),
        Casualty(victim="v1", inflicted_by="p2", cause="foul", outcome="badly_hurt"),
        Casualty(victim="v2", inflicted_by=None, cause="crowd", outcome="badly_hurt"),
    ]
    caused, injuries = casualty_facts(casualties, (True, False, False))
    assert caused == {"p1": Caused(1, 1, 1), "p2": Caused(0, 0, 1)}
    assert injuries == {"v1": "dead", "v2": "badly_hurt"}  # the first one a player suffered


def test_totals_count_each_game_of_the_books_players_and_leave_hirelings_out() -> None:
    report = ev.MatchRecorded(
        match="m1",
        kind="league",
        season=1,
        home=sheet("a", players=[BUSY, Performance(player="hireling")]),
        away=sheet("b", players=[]),
    )
    totals = Totals()
    for _ in range(2):
        rows = totals.count("league", report, ({"p1": 7}, (), frozenset({"hireling"})))
    assert set(totals.players) == {("league", "p1")}
    kept = totals.players[("league", "p1")]
    assert (kept.games, kept.touchdowns, kept.mvps) == (2, 4, 2)
    assert [row[1] for row in rows] == ["a"]  # the away side holds nobody of the books
    statement, written = totals.written()
    assert statement.startswith('UPDATE "rm_players" SET "games" = ?')
    assert written == [(2, 4, 2, 2, 2, 0, 0, 0, "league", "p1")]
    assert Caused(0, 0, 0) == NONE_CAUSED
