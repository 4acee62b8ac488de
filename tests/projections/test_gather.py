"""The rows a match report is judged with (``gather.match_rows``): both teams' rosters, the
players it names besides, and the ids it names that the books hold no player for."""

from __future__ import annotations

from ledger.domain import events as ev
from ledger.domain.values import Casualty, Performance
from ledger.projections.gather import match_rows
from tests.support import Book, sheet


def league() -> Book:
    book = Book()
    book.team("a", "human", ["lineman"] * 3)  # p1-p3
    book.team("b", "orc", ["lineman"] * 3)  # p4-p6
    book.team("c", "orc", ["lineman"])  # p7: of neither side
    book.record(ev.PlayerFired, team="a", player="p3")  # p3: a's former player
    return book


def report(*home: str, victims: tuple[str, ...] = (), by: str | None = None) -> ev.MatchRecorded:
    casualties = tuple(
        Casualty(victim=v, inflicted_by=by, cause="block", outcome="badly_hurt") for v in victims
    )
    return ev.MatchRecorded(
        match="m1",
        kind="friendly",
        home=sheet("a", players=[Performance(player=p) for p in home]),
        away=sheet("b", players=[Performance(player="p4")]),
        casualties=casualties,
    )


def test_a_report_names_its_players_on_sheets_and_in_casualties() -> None:
    match = report("p1", "h1", victims=("p5",), by="p2")
    assert match.named_players() == {"p1", "h1", "p4", "p5", "p2"}


def test_players_off_both_rosters_are_named_and_unknown_ids_are_strangers() -> None:
    book = league()
    state = book.fold()
    match = report("p1", "p3", "h1", victims=("p7", "ghost"), by="p4")
    rows = match_rows(state, book.league_id, match, book.ruleset)
    assert [p.player_id for p in rows.players("a")] == ["p1", "p2"]
    assert sorted(rows.named) == ["p3", "p7"]  # a former player, another team's
    assert rows.strangers == {"h1", "ghost"}  # a hireling's id, and one nobody holds
    assert rows.player("p4") is not None
    assert rows.player("h1") is None


def test_a_report_of_the_books_players_has_no_strangers() -> None:
    book = league()
    rows = match_rows(book.fold(), book.league_id, report("p1", "p2"), book.ruleset)
    assert rows.named == {}
    assert rows.strangers == frozenset()
