"""History summaries name teams and players as the league knows them when the event is
folded; an id stands only where nothing else exists (a match, an unknown player)."""

from __future__ import annotations

from ledger.application.commands import FirePlayer, HirePlayer
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.log import league_id
from ledger.domain.state import EventLine, TreasuryLine
from ledger.projections.describe import describe
from tests.integration.test_audit_and_transfer import played_league
from tests.support import final_of_many


def summaries(ledger: LeagueLedger, slug: str) -> dict[str, str]:
    lines = ledger.view().select(EventLine, league_id=str(league_id(slug)))
    return {line.event_type: line.summary for line in lines}


def test_history_names_the_teams_and_players_an_event_touched(ledger: LeagueLedger) -> None:
    slug = played_league(ledger)
    for number, name in ((20, "Squeak"), (21, "Sniv")):
        ledger.handle(HirePlayer(slug, "rats", "clanrat", name, number=number), by="tester")
    ledger.handle(FirePlayer(slug, "rats", "Squeak"), by="tester")
    said = summaries(ledger, slug)
    assert said["MatchRecorded"] == "league match g1: Reavers 1-0 Rats"
    assert said["PostGameClosed"] == "Rats closed the post-game sequence of match g1"
    assert said["PlayerFired"] == "Rats fired Squeak"
    assert said["PlayerHired"] == "Rats hired Sniv (Skaven Clanrat) for 50,000"
    assert said["SidelinePurchased"].startswith("Reavers bought 1 x Team Re-roll")
    assert said["TeamRegistered"].startswith("Rats (Skaven, coach ")


def test_history_names_items_positions_and_lists_as_the_edition_does(
    ledger: LeagueLedger,
) -> None:
    """Not the books' ids (``reroll``, ``gutter_runner``, ``skaven``): a coach reads them.
    A regular's kind goes unsaid."""
    slug = played_league(ledger)
    ledger.handle(HirePlayer(slug, "rats", "gutter_runner", "Skweek", number=20), by="tester")
    lines = ledger.view().select(EventLine, league_id=str(league_id(slug)))
    said = [line.summary for line in lines]
    assert "Rats hired Skweek (Gutter Runner) for 85,000" in said
    assert not any("_" in line or "reroll" in line for line in said)


def test_an_event_described_without_the_state_keeps_its_ids(ledger: LeagueLedger) -> None:
    slug = played_league(ledger)
    recorded = list(ledger.source.league_events(str(league_id(slug))))[-3]
    assert isinstance(recorded, ev.MatchRecorded)
    assert describe(recorded) == "league match g1: reavers 1-0 rats"


def test_a_game_of_three_teams_reads_by_each_sides_touchdowns_and_its_winner() -> None:
    """A Dungeon Bowl final is won by the game-winning touchdown, not the most (seed 003,
    'Winning the Game'): its summary names every side and the winner."""
    final = ev.MatchRecorded(**final_of_many("orcs", reavers=2, rats=1, orcs=1))
    assert describe(final) == "playoff match f1: reavers 2 v rats 1 v orcs 1, won by orcs"
    submitted = ev.ReportSubmitted(
        submission="s1",
        match="f1",
        team="orcs",
        report={
            "home": {"team": "reavers", "touchdowns": 2},
            "away": {"team": "rats", "touchdowns": 1},
            "others": [{"team": "orcs", "touchdowns": 1}],
        },
    )
    assert describe(submitted).endswith("reavers 2 v rats 1 v orcs 1")


def test_the_treasury_names_what_was_bought_as_the_edition_does(ledger: LeagueLedger) -> None:
    """A treasury line is read by coaches: the item and the position by the edition's
    names, never the books' ids (``reroll``, ``gutter_runner``)."""
    slug = played_league(ledger)
    ledger.handle(HirePlayer(slug, "rats", "gutter_runner", "Skweek", number=20), by="tester")
    lines = ledger.view().select(TreasuryLine, league_id=str(league_id(slug)))
    notes = {line.note for line in lines if line.kind in ("purchase", "hire")}
    assert {"1 x Team Re-roll", "Skweek (Gutter Runner)"} <= notes
    assert not any("_" in note or "reroll" in note for note in notes)
