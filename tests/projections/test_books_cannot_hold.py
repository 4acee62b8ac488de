"""A stored event the books cannot hold at all is a fault the audit names, never a second
record over the first or a crash of the SQL read models (the integrity tester's F1, F3, F7,
F8, F9): a second league, team, player, season or report under an id already taken; a
team, player or season the books do not hold. The commands never write one; an altered log
or a correction could. Each case: the events after a small league, and what the fault says.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from ledger.domain import events as ev
from ledger.domain.state import StandingRow
from ledger.domain.values import Division
from ledger.projections.faults import fold_league
from ledger.projections.fold import corrections_of
from tests.support import Book


def report(match: str, visitors: str = "b", **home: Any) -> dict[str, Any]:
    """A friendly of team a against ``visitors``; ``home`` adds to team a's side."""
    return {
        "match": match,
        "kind": "friendly",
        "home": {"team": "a", "touchdowns": 0, **home},
        "away": {"team": visitors, "touchdowns": 0},
    }


def league() -> Book:
    book = Book()
    book.team("a", "human", ["lineman"] * 11)
    book.team("b", "orc", ["lineman"] * 11)
    return book


Case = Callable[[Book], Any]
"""Records the events of the case in the book, or returns them (to follow the book's)."""
CASES: list[tuple[str, Case, str]] = [
    (
        "a second creation",
        lambda b: [b.events()[0].model_copy(update={"originator_version": len(b.events()) + 1})],
        "the league was already created",
    ),
    (
        "a team registered twice",
        lambda b: b.record(
            ev.TeamRegistered, team="a", name="A", coach="c", roster="human", treasury=0
        ),
        "the league already has a team 'a'",
    ),
    (
        "a player id hired twice",
        lambda b: b.record(
            ev.PlayerHired, team="a", player="p1", name="Twin", position="lineman", price=0
        ),
        "the player id p1 is already taken",
    ),
    (
        "a match recorded twice",
        lambda b: [b.record(ev.MatchRecorded, **report("m1")) for _ in range(2)] and None,
        r"match m1 \(a v b\) was already recorded",
    ),
    (
        "a report of a team never registered",
        lambda b: b.record(ev.MatchRecorded, **report("m1", visitors="ghost")),
        "team ghost is not registered",
    ),
    (
        "a report naming a player never hired",
        lambda b: b.record(ev.MatchRecorded, **report("m1", players=[{"player": "p99"}])),
        "match m1 names p99, who is neither a player of the books nor a hireling",
    ),
    (
        "fixtures of a season never started",
        lambda b: b.record(ev.FixturesScheduled, season=1, fixtures=()),
        "season 1 has not started",
    ),
    (
        "a season closed that never started",
        lambda b: b.record(ev.SeasonClosed, season=1),
        "season 1 has not started",
    ),
    (
        "a season started while the last is open",
        lambda b: (
            [
                b.record(ev.SeasonStarted, season=n, divisions=(Division(name="d", teams=("a",)),))
                for n in (1, 2)
            ]
            and None
        ),
        "season 1 is still open: close it first",
    ),
]


@pytest.mark.parametrize(("case", "events", "says"), CASES, ids=[c[0] for c in CASES])
def test_the_event_is_a_fault_and_the_rest_folds(case: str, events: Case, says: str) -> None:
    book = league()
    good = len(book.events())
    extra = events(book)
    log = book.events() + (extra if isinstance(extra, list) and len(extra) == 1 else [])
    folded = fold_league(log, book.league_id, corrections_of(log))
    assert folded.fold is not None, case
    [(seq, problem)] = folded.faults.items()
    assert seq > good
    assert re.search(says, problem), problem


def test_games_recorded_before_the_season_started_still_count_in_it() -> None:
    """A league match recorded before any season starts counts in season 1 (the commands
    allow it); the season's start puts the teams in their divisions without wiping it."""
    book = league()
    book.record(ev.MatchRecorded, **{**report("m1", touchdowns=1), "kind": "league", "season": 1})
    book.record(ev.SeasonStarted, season=1, divisions=(Division(name="d", teams=("a", "b")),))
    state = book.fold()
    standing = state.get(StandingRow, book.league_id, 1, "a")
    assert standing is not None
    assert (standing.played, standing.won, standing.division) == (1, 1, "d")
