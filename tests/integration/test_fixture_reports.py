"""A report of a scheduled fixture, and of its casualties, against the league's season.

A four-team BB2025 season with a final for its top two: a report naming a fixture is of
that fixture (its kind, season and round); a play-off ends with a winner; a casualty
names its victim; a post-game sequence is closed only by a team that played. Every
refusal is a ``LedgerError`` naming what is wrong, and leaves the log as it was.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.application.commands import (
    CloseMatch,
    ClosePostGame,
    RecordMatch,
    SchedulePlayoffs,
    ScheduleSeason,
    StartSeason,
)
from ledger.application.service import LeagueLedger
from ledger.domain.state import MatchRow
from ledger.domain.values import Division
from ledger.errors import CasualtyDice, InvalidInput, LedgerError
from tests.integration.test_commands import FIRST_GAME, refused
from tests.support import HUMAN_ELEVEN, create_league, draft_team, report, two_team_league

TEAMS = ("aa", "bb", "cc", "dd")
FAN_DICE = {"fan_factor": 2, "dedicated_fans": 3}


def season(ledger: LeagueLedger) -> None:
    create_league(ledger, "test")
    for team in TEAMS:
        draft_team(ledger, "test", team, "human", ["lineman", "lineman"])
    ledger.handle(
        StartSeason("test", [Division(name="Only", teams=TEAMS)], playoff_teams=2), by="t"
    )
    ledger.handle(ScheduleSeason("test"), by="t")


def fixtures(ledger: LeagueLedger) -> list[MatchRow]:
    league_id = ledger.league_row("test").league_id
    rows = ledger.view().select(MatchRow, league_id=league_id)
    return sorted((m for m in rows if m.status == "scheduled"), key=lambda m: m.match_id)


def game(fixture: MatchRow, kind: str, home: int, away: int, **more: Any) -> dict[str, Any]:
    return {
        "match": fixture.match_id,
        "kind": kind,
        "home": {"team": fixture.home, "touchdowns": home, "dice": FAN_DICE},
        "away": {"team": fixture.away, "touchdowns": away, "dice": FAN_DICE},
        **more,
    }


def record(ledger: LeagueLedger, data: dict[str, Any]) -> None:
    ledger.handle(RecordMatch("test", report(data), roll_missing=True), by="t")


@pytest.fixture
def final(sqlite_ledger: LeagueLedger) -> MatchRow:
    """The season played 1-0 to the home sides and closed, and its final drawn."""
    season(sqlite_ledger)
    for fixture in fixtures(sqlite_ledger):
        record(sqlite_ledger, game(fixture, "league", 1, 0))
        for team in (fixture.home, fixture.away):
            close = ClosePostGame("test", fixture.match_id, team, roll_missing=True)
            sqlite_ledger.handle(close, by="t")
    sqlite_ledger.handle(SchedulePlayoffs("test"), by="t")
    [drawn] = fixtures(sqlite_ledger)
    return drawn


def record_refused(
    ledger: LeagueLedger, data: dict[str, Any], error: type[LedgerError], match: str
) -> None:
    refused(ledger, error, lambda: record(ledger, data), match)


@pytest.mark.parametrize("kind", ["friendly", "exhibition", "league", "unplayed"])
def test_the_final_is_recorded_only_as_a_playoff(
    sqlite_ledger: LeagueLedger, final: MatchRow, kind: str
) -> None:
    """A friendly final decided the League Trophy: a fixture's report is of its kind, and
    the refusal says so before any word about its dice."""
    sentence = f"s1-final-1 is a play-off fixture: record it with kind: playoff, not {kind}"
    record_refused(sqlite_ledger, game(final, kind, 0, 1), InvalidInput, sentence)


@pytest.mark.parametrize("kind", ["friendly", "exhibition", "playoff"])
def test_a_league_fixture_is_recorded_as_played_or_unplayed(
    sqlite_ledger: LeagueLedger, kind: str
) -> None:
    season(sqlite_ledger)
    fixture = fixtures(sqlite_ledger)[0]
    sentence = f"is a league fixture: record it with kind: league or unplayed, not {kind}"
    record_refused(sqlite_ledger, game(fixture, kind, 1, 0), InvalidInput, sentence)


@pytest.mark.parametrize(("field", "value"), [("season", 7), ("round", 99)])
def test_a_report_gives_its_fixtures_season_and_round_or_none(
    sqlite_ledger: LeagueLedger, field: str, value: int
) -> None:
    season(sqlite_ledger)
    fixture = fixtures(sqlite_ledger)[0]
    played = game(fixture, "league", 1, 0, **{field: value})
    sentence = f"is season 1, round {fixture.round}, not {field} {value}"
    record_refused(sqlite_ledger, played, InvalidInput, sentence)
    record(sqlite_ledger, game(fixture, "league", 1, 0, season=1, round=fixture.round))


@pytest.mark.parametrize("given", ["typo-of-the-fixture", None], ids=["another id", "no id"])
@pytest.mark.parametrize("kind", ["league", "unplayed"])
def test_a_league_game_of_a_fixture_still_to_play_is_recorded_as_that_fixture(
    ledger: LeagueLedger, kind: str, given: str | None
) -> None:
    """A mistyped fixture id made a second league game of the pair, counted in the
    standings, with the fixture left scheduled (seed 001 'League Fixtures')."""
    season(ledger)
    fixture = fixtures(ledger)[0]
    mistyped = {**game(fixture, kind, 1, 0), "match": given}
    still = f"is fixture {fixture.match_id} of season 1, still to play: record the report as"
    record_refused(ledger, mistyped, InvalidInput, still)
    record(ledger, game(fixture, "league", 1, 0))  # under its own id
    for team in (fixture.home, fixture.away):
        ledger.handle(ClosePostGame("test", fixture.match_id, team, roll_missing=True), by="t")
    # once played, a league game of theirs under another id is no mistyped fixture
    second = {"home": {"team": fixture.home}, "away": {"team": fixture.away}}
    record(ledger, {"match": "their-second-game", "kind": kind, **second})


def test_a_decided_league_match_has_no_shootout(sqlite_ledger: LeagueLedger) -> None:
    season(sqlite_ledger)
    shootout = {"extra_time": True, "penalties_home": 3, "penalties_away": 2}
    played = game(fixtures(sqlite_ledger)[0], "league", 1, 0, shootout=shootout)
    record_refused(sqlite_ledger, played, InvalidInput, "only a play-off goes to extra time")


@pytest.mark.parametrize(
    ("penalties", "sentence"),
    [
        (None, "a play-off needs a winner, and s1-final-1 ended 1-1: give the penalties"),
        ((2, 2), "the shoot-out of s1-final-1 is level at 2-2"),
    ],
)
def test_a_drawn_playoff_asks_for_its_shootout_not_for_dice(
    sqlite_ledger: LeagueLedger,
    final: MatchRow,
    penalties: tuple[int, int] | None,
    sentence: str,
) -> None:
    """The report carries a winner's Dedicated Fans die: the refusal is the missing
    winner, not a die the draw does not need."""
    shootout = (
        {"shootout": {"penalties_home": penalties[0], "penalties_away": penalties[1]}}
        if penalties
        else {}
    )
    record_refused(sqlite_ledger, game(final, "playoff", 1, 1, **shootout), InvalidInput, sentence)
    decided = {"shootout": {"penalties_home": 3, "penalties_away": 2}}
    record(sqlite_ledger, game(final, "playoff", 1, 1, **decided))


def with_casualties(*casualties: dict[str, Any]) -> dict[str, Any]:
    return {**FIRST_GAME, "casualties": list(casualties)}


def test_a_player_is_a_casualty_twice_only_after_a_recovered_one(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    first = {"victim": "rats 4", "by": "reavers 2", "roll": 3}
    again = {"victim": "rats 4", "by": "reavers 2", "roll": 2}
    twice = with_casualties(first, again)
    record_refused(
        ledger, twice, InvalidInput, "rats 4 is a casualty twice and neither was recovered"
    )
    record(ledger, with_casualties({**first, "recovered": True}, again))


def test_a_lasting_injury_die_on_another_casualty_is_refused(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    badly_hurt = with_casualties({"victim": "rats 4", "by": "reavers 2", "roll": 3, "lasting": 2})
    sentence = "casualty of rats 4: a casualty that is badly hurt takes no Lasting Injury roll"
    record_refused(ledger, badly_hurt, CasualtyDice, sentence)


def test_a_lasting_injury_without_its_die_names_the_victim_and_the_die(
    ledger: LeagueLedger,
) -> None:
    """Unless the ledger rolls it (tests/integration/test_report_mistakes.py)."""
    two_team_league(ledger)
    lasting = report(with_casualties({"victim": "rats 4", "by": "reavers 2", "roll": 13}))
    sentence = (
        "casualty of rats 4: a casualty roll of 13 is a lasting_injury: give its Lasting Injury D6"
    )
    refused(
        ledger, InvalidInput, lambda: ledger.handle(RecordMatch("test", lasting), by="t"), sentence
    )


def test_a_team_that_did_not_play_is_refused_before_any_die_is_asked(
    ledger: LeagueLedger,
) -> None:
    """The web's close for a team of another match asked for its Expensive Mistakes die."""
    two_team_league(ledger)
    draft_team(ledger, "test", "dwarfs", "human", HUMAN_ELEVEN)
    record(ledger, FIRST_GAME)
    close = CloseMatch("test", "g1", ["dwarfs"], dice={})
    refused(
        ledger, InvalidInput, lambda: ledger.handle(close, by="t"), "Dwarfs did not play match g1"
    )
    ledger.handle(CloseMatch("test", "g1", ["reavers"], dice={}, roll_missing=True), by="t")
    again = CloseMatch("test", "g1", ["reavers"], dice={})
    refused(ledger, LedgerError, lambda: ledger.handle(again, by="t"), "Reavers already closed")
