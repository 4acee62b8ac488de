"""Corrections the fold would not read, or that would break the league, are refused with
nothing written (CLI report 7, items 2 to 4).

- A voided event is not voided again: a second void changes nothing and would rewrite
  what history says the first one voided. That holds for a post-game close voided with its
  match report too; only bringing the report back brings its closes back.
- ``--set`` changes the facts an event records, not what ties it to others (its match) or
  what a match report's own checks decide (kind, season, round, winner, the sides'
  sheets, casualties and dice: a player of the other team credited with a touchdown, a
  score the players' touchdowns do not add up to): those are corrected with a corrected
  report, checked as a report is.
- An amendment that leaves the event reading as it stands is not stored.
- A reason of spaces is no reason.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ledger.application.commands import (
    Buy,
    ClosePostGame,
    Correct,
    CorrectMatch,
    HirePlayer,
    RecordMatch,
    StartSeason,
)
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain import events as ev
from ledger.domain.log import league_id
from ledger.domain.state import MatchRow, PlayerRow
from ledger.domain.values import Division
from ledger.errors import CorrectionRefused, InvalidInput, LedgerError
from tests.integration.test_corrections_reach import (
    build_season,
    close_both,
    fixture,
    game,
    recorded_seq,
    version,
)
from tests.support import HUMAN_ELEVEN, SKAVEN_ELEVEN, draft_team, report, two_team_league

EVEN = {"expensive_mistakes": 5}
"""A close die that changes nothing (BB2025: no mistake at 5)."""


@pytest.fixture(scope="module")
def played_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A four-team BB2025 season whose first reavers-rats game is recorded and closed."""
    path = tmp_path_factory.mktemp("played") / "played.db"
    ledger = open_ledger(Settings(sqlite_path=path, user="tester"))
    try:
        build_season(ledger)
        first = fixture(ledger, "reavers", "rats")
        ledger.handle(RecordMatch("test", game(first)), by="tester")
        close_both(ledger, first, reavers=EVEN, rats=EVEN)
    finally:
        close_ledger(ledger)
    return path


@pytest.fixture
def played(
    played_file: Path, tmp_path: Path, open_ledgers: Callable[[Settings], LeagueLedger]
) -> LeagueLedger:
    path = tmp_path / "ledger.db"
    shutil.copy(played_file, path)
    return open_ledgers(Settings(sqlite_path=path, user="tester"))


def first_game(ledger: LeagueLedger) -> MatchRow:
    return fixture(ledger, "reavers", "rats")


def correct(ledger: LeagueLedger, seq: int, action: str, **amendment: Any) -> None:
    ledger.handle(Correct("test", seq, action, amendment=amendment), by="tester", reason="why")


def refused(
    ledger: LeagueLedger,
    error: type[LedgerError],
    says: str,
    seq: int,
    amendment: dict[str, Any] | None = None,
) -> None:
    """Ask for a correction (a void, or this amendment) that must be refused with ``error``
    saying ``says``; nothing may be written."""
    before = version(ledger)
    with pytest.raises(error, match=says):
        correct(ledger, seq, "amend" if amendment else "void", **(amendment or {}))
    assert version(ledger) == before


# --- item 2: what is voided stays voided once ---------------------------------------------


def test_a_voided_match_report_is_not_voided_again(played: LeagueLedger) -> None:
    report = recorded_seq(played, first_game(played).match_id)
    correct(played, report, "void")
    refused(
        played,
        CorrectionRefused,
        rf"event {report} is already voided \(event {report + 3}\)",
        report,
    )


@pytest.mark.parametrize("close", [1, 2], ids=["home-close", "away-close"])
def test_a_close_voided_with_its_match_is_neither_voided_nor_amended_alone(
    played: LeagueLedger, close: int
) -> None:
    report = recorded_seq(played, first_game(played).match_id)
    correct(played, report, "void")
    voided_by = rf"match report {report} \(event {report + 3}\)"
    refused(played, CorrectionRefused, f"already voided with {voided_by}", report + close)
    refused(played, CorrectionRefused, f"voided with {voided_by}", report + close, {"dice": []})


def test_a_close_voided_on_its_own_is_not_voided_again(played: LeagueLedger) -> None:
    report = recorded_seq(played, first_game(played).match_id)
    correct(played, report + 1, "void")
    refused(played, CorrectionRefused, rf"already voided \(event {report + 3}\)", report + 1)


def test_a_close_voided_alone_is_not_brought_back_beside_the_close_made_after_it(
    played: LeagueLedger,
) -> None:
    """Voided alone, then made again, a close amended back stood beside the new one: two
    closes of one team, its Expensive Mistakes charged twice (a helper's pass, forty-fourth
    session). A close amended is planned again by its command, as a hire is."""
    report = recorded_seq(played, first_game(played).match_id)
    home_close = report + 1
    correct(played, home_close, "void")
    row = first_game(played)
    played.handle(ClosePostGame("test", row.match_id, row.home, dice=EVEN), by="tester")
    refused(
        played,
        CorrectionRefused,
        f"event {home_close} .* could not have been recorded: .*already closed",
        home_close,
        {
            "dice": [
                {"purpose": "expensive_mistakes", "dice": "D6", "values": [6], "subject": "reavers"}
            ]
        },
    )


def test_a_close_amended_must_keep_the_rolls_the_edition_asks(played: LeagueLedger) -> None:
    report = recorded_seq(played, first_game(played).match_id)
    refused(
        played,
        CorrectionRefused,
        f"event {report + 1} amended so could not have been recorded: .* needs",
        report + 1,
        {"dice": []},
    )


def test_a_voided_report_brought_back_as_it_was_can_be_voided_again(played: LeagueLedger) -> None:
    row = first_game(played)
    report = recorded_seq(played, row.match_id)
    correct(played, report, "void")
    correct(played, report, "amend", match=row.match_id)  # back as it was recorded
    played.handle(
        CorrectMatch("test", report, game(row, scorer=3)), by="tester", reason="Human 3 scored"
    )
    correct(played, report, "void")
    refused(played, CorrectionRefused, "already voided", report)


# --- item 3: what --set may change ---------------------------------------------------------


@pytest.mark.parametrize(
    ("close", "amendment", "says"),
    [
        (0, {"kind": "exhibition"}, "the kind of match report .* whole corrected report"),
        (0, {"winner": "rats"}, "the winner of match report .* follows from its score"),
        (0, {"season": 7}, "the season of match report .* comes from its fixture"),
        (0, {"round": 99}, "the round of match report .* whole corrected report"),
        (0, {"home": {"team": "reavers", "touchdowns": 3}}, "the home of .* side's sheet"),
        (0, {"away": {"team": "rats", "players": [{"player": "p1"}]}}, "the away of .* sheet"),
        (0, {"casualties": [{"victim": "p1"}]}, "the casualties of .* whole corrected report"),
        (0, {"dice": [{"purpose": "x", "dice": "D6", "values": [1]}]}, "the dice of .* report"),
        (0, {"match": "oops"}, "the match of event .* cannot be amended"),
        (1, {"match": "renamed"}, "the match of event .* cannot be amended"),
        (0, {"weather": None}, "already reads so: nothing to amend"),
        (0, {"played_on": "notadate"}, "amended played_on: 'notadate' is not an ISO date"),
        (0, {"played_on": "2026-13-45"}, "amended played_on: 2026-13-45 is not a date"),
        (0, {"played_on": "2999-01-01"}, "played on 2999-01-01: that day is still to come"),
        (0, {"kind": "league"}, "already reads so: nothing to amend"),
        (1, {"team": "reavers"}, "already reads so: nothing to amend"),
    ],
    ids=[
        "kind",
        "winner",
        "season",
        "round",
        "home-sheet",
        "away-sheet",
        "casualties",
        "dice",
        "match",
        "close-match",
        "no-op",
        "played-on-text",
        "played-on-no-day",
        "played-on-to-come",
        "same-kind",
        "same-team",
    ],
)
def test_an_amendment_the_fold_would_not_read_or_that_cuts_a_tie_is_refused(
    played: LeagueLedger, close: int, amendment: dict[str, Any], says: str
) -> None:
    report = recorded_seq(played, first_game(played).match_id)
    refused(played, InvalidInput, says, report + close, amendment)


def test_an_amendment_repeated_is_refused_as_nothing_to_amend(played: LeagueLedger) -> None:
    report = recorded_seq(played, first_game(played).match_id)
    correct(played, report, "amend", weather="sweltering")
    refused(played, InvalidInput, "nothing to amend", report, {"weather": "sweltering"})


# --- item 4: a reason of spaces ----------------------------------------------------------------


def test_a_correction_with_a_reason_of_spaces_is_refused(played: LeagueLedger) -> None:
    report = recorded_seq(played, first_game(played).match_id)
    before = version(played)
    with pytest.raises(InvalidInput, match="a correction needs a reason"):
        played.handle(Correct("test", report, "void"), by="tester", reason="   ")
    assert version(played) == before


# --- what later events stand on (the tester's integrity report, F8 and F9) -----------------


def events_of(ledger: LeagueLedger) -> list[ev.LedgerEvent]:
    return list(ledger.source.league_events(str(league_id("test"))))


def first_of(ledger: LeagueLedger, kind: type[ev.LedgerEvent]) -> ev.LedgerEvent:
    return next(e for e in events_of(ledger) if isinstance(e, kind))


def test_the_hire_of_a_player_who_played_is_not_voided(played: LeagueLedger) -> None:
    """Voided, his touchdowns and casualties would belong to nobody the books hold."""
    report = first_of(played, ev.MatchRecorded)
    assert isinstance(report, ev.MatchRecorded)
    player = report.home.players[0].player
    hire = next(
        e for e in events_of(played) if isinstance(e, ev.PlayerHired) and e.player == player
    )
    refused(
        played,
        CorrectionRefused,
        rf"event {report.seq} match .* names {player}, who is neither a player of the books",
        hire.seq,
    )


def test_a_season_start_is_not_voided_under_its_fixtures(played: LeagueLedger) -> None:
    start = first_of(played, ev.SeasonStarted)
    refused(played, CorrectionRefused, "season 1 of event .* has games played", start.seq)


def test_a_season_start_is_not_voided_under_its_games_played_without_a_schedule(
    tmp_path: Path, open_ledgers: Callable[[Settings], LeagueLedger]
) -> None:
    """The demo's league plays its season unscheduled: no fixture held its games to the
    season, so its start was voided, the games stood in no season, and the next season
    started took them in (a helper's pass through the corrections, 44th session)."""
    ledger = open_ledgers(Settings(sqlite_path=tmp_path / "ledger.db", user="tester"))
    two_team_league(ledger)
    draft_team(ledger, "test", "elves", "human", HUMAN_ELEVEN)
    draft_team(ledger, "test", "orcs", "skaven", SKAVEN_ELEVEN)
    teams = ("reavers", "rats", "elves", "orcs")
    ledger.handle(StartSeason("test", [Division(name="A", teams=teams)]), by="tester")
    ledger.handle(RecordMatch("test", report({"match": "g1", **SIDES})), by="tester")
    start = first_of(ledger, ev.SeasonStarted)
    played = first_of(ledger, ev.MatchRecorded)
    refused(ledger, CorrectionRefused, f"has games played .*event {played.seq}", start.seq)
    correct(ledger, played.seq, "void")
    correct(ledger, start.seq, "void")  # with its game voided, nothing stands on it


SIDES = {
    "home": {"team": "reavers", "dice": {"fan_factor": 2}},
    "away": {"team": "rats", "dice": {"fan_factor": 3}},
}


def test_a_schedule_is_not_voided_once_a_fixture_is_played(played: LeagueLedger) -> None:
    schedule = first_of(played, ev.FixturesScheduled)
    row = first_game(played)
    refused(
        played,
        CorrectionRefused,
        rf"fixture {row.match_id} of event {schedule.seq} was played \(event"
        rf" {recorded_seq(played, row.match_id)}\): void its report first",
        schedule.seq,
    )


def test_a_second_amendment_keeps_what_the_first_set(played: LeagueLedger) -> None:
    """The fold reads an event's latest correction alone: setting the name after the
    number put the number back as hired, while history listed both as in force."""
    hire = second_hire(played)
    correct(played, hire.seq, "amend", number=42)
    correct(played, hire.seq, "amend", name="Hans Armstrong")
    player = played.view().get(PlayerRow, str(league_id("test")), hire.player)
    assert player is not None
    assert (player.name, player.number) == ("Hans Armstrong", 42)
    correct(played, hire.seq, "amend", number=hire.number)  # undone by setting it back
    player = played.view().get(PlayerRow, str(league_id("test")), hire.player)
    assert player is not None
    assert (player.name, player.number) == ("Hans Armstrong", hire.number)


def second_hire(ledger: LeagueLedger) -> ev.PlayerHired:
    hires = [e for e in events_of(ledger) if isinstance(e, ev.PlayerHired)]
    same_team = [h for h in hires if h.team == hires[0].team]
    return same_team[1]


@pytest.mark.parametrize(
    ("kind", "amendment", "says"),
    [
        (ev.SeasonStarted, {"divisions": []}, "a season needs divisions with teams"),
        (ev.SeasonStarted, {"season": 5}, "follows from the seasons before it: 1, not 5"),
        (ev.SeasonStarted, {"playoff_teams": 64}, "64 play-off places"),
        (ev.PostGameClosed, {"team": "tide"}, "it ties the event to its team and what followed it"),
        (ev.PlayerHired, {"player": "p999"}, "it ties the event to every later event about him"),
        (ev.PlayerHired, {"position": "dragon"}, "could not have been recorded: .*dragon"),
        (ev.TeamRegistered, {"roster": "orc"}, "it ties the event to every player the team"),
    ],
    ids=[
        "no-divisions",
        "season-number",
        "play-off-places",
        "close-team",
        "player-id",
        "unknown-position",
        "team-list",
    ],
)
def test_set_stores_only_what_the_command_could_have_recorded(
    played: LeagueLedger, kind: type[ev.LedgerEvent], amendment: dict[str, Any], says: str
) -> None:
    """The amended event is planned again by its command where it stands (the tester's
    F10: an unknown item, an impossible season plan, a close moved to the other side)."""
    event = first_of(played, kind)
    error = InvalidInput if "ties" in says else CorrectionRefused
    refused(played, error, says, event.seq, amendment)


def test_set_cannot_give_a_player_a_team_mates_name(played: LeagueLedger) -> None:
    """Free when he was hired, the name was taken by a team-mate since."""
    first, second = first_of(played, ev.PlayerHired), second_hire(played)
    assert isinstance(first, ev.PlayerHired)
    refused(
        played, CorrectionRefused, "already have a player called", first.seq, {"name": second.name}
    )


def test_set_cannot_buy_an_item_the_edition_does_not_sell(played: LeagueLedger) -> None:
    played.handle(Buy("test", "reavers", "reroll"), by="tester")
    bought = first_of(played, ev.SidelinePurchased)
    dragon = {"purchases": [{"item": "dragon", "count": 1, "price": 1}]}
    refused(played, CorrectionRefused, "cannot buy 'dragon'", bought.seq, dragon)


def test_an_amendment_is_refused_when_a_later_event_could_no_longer_be_recorded(
    played: LeagueLedger,
) -> None:
    """The review's case: a lineman amended into a thrower was a thrower the team had room
    for when hired, but the thrower hired later then makes three (BB2025 Humans: 0-2)."""
    later = played.handle(HirePlayer("test", "reavers", "thrower", "Late Arm"), by="tester")
    hires = [e for e in events_of(played) if isinstance(e, ev.PlayerHired)]
    lineman = next(h for h in hires if h.team == "reavers" and h.position == "lineman")
    late = next(h for h in hires if h.player == later)
    refused(
        played,
        CorrectionRefused,
        rf"with event {lineman.seq} amended, event {late.seq} \(player hired\) could not have"
        r" been recorded: Reavers already have 2 x Human Thrower \(at most 2\)",
        lineman.seq,
        {"position": "thrower"},
    )
