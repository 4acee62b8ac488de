"""A season's play-offs and a game's winner, refused in words where the books would go
wrong: a knock-out of qualifiers that do not halve to a final (it raised an IndexError in
its second round, leaving the season stuck), and a ``winner`` who did not play, or whom
the score contradicts (crowned over the score, he took the prize)."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.application.commands import (
    ClosePostGame,
    CloseSeason,
    RecordMatch,
    SchedulePlayoffs,
    ScheduleSeason,
    StartSeason,
)
from ledger.application.service import LeagueLedger
from ledger.domain.state import MatchRow
from ledger.domain.values import Division
from ledger.errors import InvalidInput, SeasonState
from tests.support import create_league, draft_team, event_count, report

TEAMS = ("jay", "dan", "rob", "sam")


def regular_season_played(ledger: LeagueLedger, playoff_teams: int) -> str:
    """Four teams, one division, every league game won by its home side and closed."""
    create_league(ledger)
    for team in TEAMS:
        draft_team(ledger, "test", team, "human", ["lineman"] * 11)
    ledger.handle(
        StartSeason("test", [Division(name="", teams=TEAMS)], playoff_teams=playoff_teams), by="t"
    )
    ledger.handle(ScheduleSeason("test"), by="t")
    league_id = ledger.league_row("test").league_id
    for match in ledger.view().select(MatchRow, league_id=league_id, season=1):
        play(ledger, {"match": match.match_id, "home": {"team": match.home, "touchdowns": 1},
                      "away": {"team": match.away, "touchdowns": 0}})  # fmt: skip
    return league_id


def play(ledger: LeagueLedger, game: dict[str, Any]) -> None:
    ledger.handle(RecordMatch("test", report(game), roll_missing=True), by="t")
    for side in (game["home"], game["away"], *game.get("others", ())):
        ledger.handle(ClosePostGame("test", game["match"], side["team"], roll_missing=True), by="t")


def test_a_knockout_of_three_is_refused_when_it_is_drawn(sqlite_ledger: LeagueLedger) -> None:
    regular_season_played(sqlite_ledger, playoff_teams=3)
    before = event_count(sqlite_ledger)
    with pytest.raises(SeasonState, match="season 1's 3 play-off places make no knock-out"):
        sqlite_ledger.handle(SchedulePlayoffs("test"), by="t")
    assert event_count(sqlite_ledger) == before
    # the way on the sentence names: the three meet in one final
    assert sqlite_ledger.handle(SchedulePlayoffs("test", dungeon_bowl=True), by="t") == 1


def dungeon_bowl_final(ledger: LeagueLedger) -> MatchRow:
    league_id = regular_season_played(ledger, playoff_teams=3)
    ledger.handle(SchedulePlayoffs("test", dungeon_bowl=True), by="t")
    final = ledger.view().get(MatchRow, league_id, "s1-dungeon-bowl-final")
    assert final is not None
    return final


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ({"winner": "absent"}, "the winner given for s1-dungeon-bowl-final, absent, did not play"),
        ({"winner": None}, "s1-dungeon-bowl-final is a play-off of 3 teams: name its winner"),
        ({"others": []}, "fixture s1-dungeon-bowl-final is "),
    ],
)
def test_a_dungeon_bowl_final_is_of_its_qualifiers_and_names_one_of_them_winner(
    sqlite_ledger: LeagueLedger, change: dict[str, Any], refusal: str
) -> None:
    final = dungeon_bowl_final(sqlite_ledger)
    absent = next(t for t in TEAMS if t not in (final.home, final.away, *final.others))
    game = {"match": final.match_id, "kind": "playoff", "winner": final.others[0],
            "home": {"team": final.home}, "away": {"team": final.away},
            "others": [{"team": t} for t in final.others]}  # fmt: skip
    game |= {k: absent if v == "absent" else v for k, v in change.items()}
    before = event_count(sqlite_ledger)
    with pytest.raises(InvalidInput, match=refusal.replace("absent", absent)):
        sqlite_ledger.handle(RecordMatch("test", report(game), roll_missing=True), by="t")
    assert event_count(sqlite_ledger) == before


@pytest.mark.parametrize(
    ("game", "refusal"),
    [
        (
            {"winner": "rob"},
            "the winner given for f1, rob, did not play in it (its teams: jay, dan)",
        ),
        ({"winner": "dan"}, "f1 ended jay 1-0 dan: its winner is the one its score"),
        ({"winner": "jay"}, None),
        ({"winner": "dan", "concession": {"team": "jay", "kind": "conceded"}}, None),
    ],
)
def test_a_winner_of_two_is_the_one_the_game_decides(
    sqlite_ledger: LeagueLedger, game: dict[str, Any], refusal: str | None
) -> None:
    create_league(sqlite_ledger)
    for team in ("jay", "dan", "rob"):
        draft_team(sqlite_ledger, "test", team, "human", ["lineman"] * 11)
    game |= {"match": "f1", "kind": "friendly", "home": {"team": "jay", "touchdowns": 1},
             "away": {"team": "dan", "touchdowns": 0}}  # fmt: skip
    record = RecordMatch("test", report(game), roll_missing=True)
    if refusal is None:
        sqlite_ledger.handle(record, by="t")
        return
    with pytest.raises(InvalidInput, match=refusal.replace("(", r"\(").replace(")", r"\)")):
        sqlite_ledger.handle(record, by="t")


@pytest.mark.parametrize("kind", ["league", "unplayed"])
def test_a_league_game_is_not_recorded_in_a_closed_season(
    sqlite_ledger: LeagueLedger, kind: str
) -> None:
    """It had changed the standings after their places and prizes were given."""
    regular_season_played(sqlite_ledger, playoff_teams=0)
    sqlite_ledger.handle(CloseSeason("test"), by="t")
    game = {"match": "late", "kind": kind, "home": {"team": "jay", "touchdowns": 3},
            "away": {"team": "dan", "touchdowns": 0}}  # fmt: skip
    before = event_count(sqlite_ledger)
    with pytest.raises(
        SeasonState, match=f"season 1 is closed, its places and prizes given: a {kind}"
    ):
        sqlite_ledger.handle(RecordMatch("test", report(game), roll_missing=True), by="t")
    assert event_count(sqlite_ledger) == before
    play(sqlite_ledger, game | {"kind": "friendly"})  # a friendly counts in no season


def test_a_division_named_beyond_ascii_is_scheduled(sqlite_ledger: LeagueLedger) -> None:
    """Its name made its fixtures' ids, which are ASCII: 'Süd' kept its 'ü', and the
    schedule was refused on an id the commissioner never typed."""
    create_league(sqlite_ledger)
    for team in TEAMS:
        draft_team(sqlite_ledger, "test", team, "human", ["lineman"] * 11)
    south = Division(name="Süd", teams=TEAMS)
    sqlite_ledger.handle(StartSeason("test", [south]), by="t")
    sqlite_ledger.handle(ScheduleSeason("test"), by="t")
    league_id = sqlite_ledger.league_row("test").league_id
    fixtures = sqlite_ledger.view().select(MatchRow, league_id=league_id, season=1)
    assert {m.match_id.split("-r")[0] for m in fixtures} == {"s1-sud"}
