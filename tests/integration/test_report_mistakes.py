"""A report's mistakes, found all at once and said by name; a casualty's dice the ledger
rolls when asked (ledger/application/mistakes.py, matches.resolve_report).

A report is refused once for every mistake it holds (a wrong score, a die of the wrong
shape, a casualty without the die its edition reads it from), each sentence naming the
player and the team by name, and nothing is written. Asked to roll what is left out, the
ledger rolls a casualty's die the edition wants next (gold4: the Specific Injury D6, then a
Seriously Injured result's D66; BB2025: the D16, then a Lasting Injury's D6), never the
gold4 Injury 2D6 (the in-game roll, made at the table with its modifiers).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from ledger.application.commands import RecordMatch, SubmitReport
from ledger.application.matches import check_played
from ledger.application.mistakes import mistakes_of
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.log import league_id
from ledger.domain.state import PlayerRow
from ledger.errors import DieWanted, InvalidDice, InvalidInput, LedgerError, NotAllowed
from tests.support import create_league, draft_team, event_count, report, two_team_league

ORCS = ["lineman"] * 6 + ["black_orc_blocker"] * 2 + ["blitzer", "thrower", "goblin"]
HUMANS = ["lineman"] * 7 + ["blitzer", "blitzer", "thrower", "catcher"]


class Loaded(random.Random):
    """Dice that show the given faces in turn (a fake of the ledger's roller)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces: Iterator[int] = iter(faces)

    def randint(self, a: int, b: int) -> int:
        face = next(self.faces)
        assert a <= face <= b
        return face


@pytest.fixture
def gold(sqlite_ledger: LeagueLedger) -> LeagueLedger:
    create_league(sqlite_ledger, "gold", "gold4")
    draft_team(sqlite_ledger, "gold", "orcs", "orc", ORCS)
    draft_team(sqlite_ledger, "gold", "humans", "human", HUMANS)
    return sqlite_ledger


def friendly(*casualties: dict[str, Any], scored: int | None = None) -> dict[str, Any]:
    """Orcs 9 scores once against the humans; humans 6 is hurt by orcs 1, with these dice."""
    home: dict[str, Any] = {"team": "orcs", "players": [{"player": "orcs 9", "td": 1}]}
    if scored is not None:
        home["touchdowns"] = scored
    return {
        "match": "f1",
        "kind": "friendly",
        "home": home,
        "away": {"team": "humans"},
        "casualties": list(casualties),
    }


def hurt(**dice: Any) -> dict[str, Any]:
    return {"victim": "humans 6", "by": "orcs 1", "dice": dice}


def record(ledger: LeagueLedger, data: dict[str, Any], roll: bool = False) -> ev.MatchRecorded:
    ledger.handle(RecordMatch("gold", report(data), roll_missing=roll), by="tester")
    found = [
        e
        for e in ledger.source.league_events(str(league_id("gold")))
        if isinstance(e, ev.MatchRecorded)
    ]
    return found[-1]


def refused(ledger: LeagueLedger, data: dict[str, Any], roll: bool = False) -> LedgerError:
    before = event_count(ledger)
    with pytest.raises(LedgerError) as caught:
        ledger.handle(RecordMatch("gold", report(data), roll_missing=roll), by="tester")
    assert event_count(ledger) == before
    return caught.value


def faces(casualty: ev.Casualty) -> dict[str, tuple[tuple[int, ...], str]]:
    return {d.purpose: (d.values, d.source) for d in casualty.dice}


# --- the ledger rolls a casualty's dice when asked -------------------------------------------


def test_the_ledger_rolls_the_specific_injury_left_out_and_not_the_injury_roll(
    gold: LeagueLedger,
) -> None:
    """The web form's tester: an injury of 4 6, the Specific Injury left out, 'let the
    ledger roll' ticked, was refused asking for the D6."""
    gold.roller = Loaded(2)
    [casualty] = record(gold, friendly(hurt(injury=[4, 6])), roll=True).casualties
    assert faces(casualty) == {"injury": ((4, 6), "table"), "specific_injury": ((2,), "ledger")}
    assert casualty.outcome == "badly_hurt"


def test_a_seriously_injured_result_rolled_by_the_ledger_rolls_its_d66_too(
    gold: LeagueLedger,
) -> None:
    gold.roller = Loaded(4, 3, 4)  # Seriously Injured; the D66 as its two dice: 34
    [casualty] = record(gold, friendly(hurt(injury=[5, 6])), roll=True).casualties
    assert faces(casualty)["serious_injury"] == ((3, 4), "ledger")
    assert (casualty.outcome, "miss_next_game" in casualty.effects) == ("seriously_injured", True)


def test_a_bb2025_casualty_without_dice_is_rolled_d16_then_its_lasting_injury_d6(
    sqlite_ledger: LeagueLedger,
) -> None:
    two_team_league(sqlite_ledger)
    sqlite_ledger.roller = Loaded(13, 1)  # a Lasting Injury; 1: -1 AV
    data = {
        "match": "g1",
        "kind": "friendly",
        "home": {"team": "reavers"},
        "away": {"team": "rats"},
        "casualties": [{"victim": "rats 4", "by": "reavers 2"}],
    }
    sqlite_ledger.handle(RecordMatch("test", report(data), roll_missing=True), by="tester")
    recorded = next(
        e
        for e in sqlite_ledger.source.league_events(str(league_id("test")))
        if isinstance(e, ev.MatchRecorded)
    )
    [casualty] = recorded.casualties
    assert faces(casualty) == {"casualty": ((13,), "ledger"), "lasting_injury": ((1,), "ledger")}
    assert casualty.outcome == "lasting_injury"


def test_without_the_ledger_rolling_the_file_is_told_the_key_and_the_player_by_name(
    gold: LeagueLedger,
) -> None:
    error = refused(gold, friendly(hurt(injury=[4, 6])))
    assert isinstance(error, DieWanted)
    assert error.code == "invalid-input"
    assert error.message.startswith(
        "casualty of humans 6: give the casualty's Specific Injury D6"
        " (dice: {specific_injury: N}) or its outcome"
    )
    [mistake] = mistakes_of(error)
    assert mistake.place == ("casualties", 0, "dice", "specific_injury")


def test_a_die_of_the_wrong_shape_names_the_victim_not_his_id(gold: LeagueLedger) -> None:
    victim = gold.context("gold").player("humans 6", "humans").player_id
    error = refused(gold, friendly({**hurt(injury=4), "victim": victim}), roll=True)
    assert isinstance(error, InvalidDice)
    assert error.message == "injury for humans 6: a 2D6 roll is 2 dice, not 1"
    assert victim not in error.message


# --- every mistake at once --------------------------------------------------------------------


def test_a_wrong_score_and_two_wrong_dice_are_refused_together_each_at_its_place(
    gold: LeagueLedger,
) -> None:
    """A form once took three submissions to show these, each revealing the next."""
    data = friendly(hurt(injury=4), {**hurt(injury=[5, 6]), "victim": "humans 7"}, scored=2)
    error = refused(gold, data)
    places = [m.place for m in mistakes_of(error)]
    assert places == [
        ("casualties", 0, "dice", "injury"),
        ("casualties", 1, "dice", "specific_injury"),
        ("home", "touchdowns"),
    ]
    said = error.message
    assert "injury for humans 6: a 2D6 roll is 2 dice, not 1" in said
    assert "casualty of humans 7: give the casualty's Specific Injury D6" in said
    assert "Orcs scored 2 but the touchdowns of their players add up to 1" in said
    assert said.count("; ") >= 2  # one line, as a file's shape problems are


def test_a_player_who_may_not_play_leaves_the_whole_game_checks_unasked(
    gold: LeagueLedger,
) -> None:
    """A line left out for its mistake: the game without it would be checked otherwise
    (its MVP, its score), so only the lines' own mistakes are named."""
    data = friendly(scored=1)
    data["home"]["players"].append({"player": "orcs 77"})
    error = refused(gold, data)
    assert [m.place for m in mistakes_of(error)] == [("home", "players", 1)]


def test_a_player_who_may_not_play_is_named_with_the_dice_of_the_wrong_shape(
    gold: LeagueLedger,
) -> None:
    """The commissioner's guide: 'every mistake against the league (a player who may not
    play, ... a die of the wrong shape ...)' on one line, so one edit fixes the file. A die
    given that only the whole game could ask for (or not) is not judged on a game without
    one of its lines."""
    data = {**friendly(scored=1), "kind": "league"}  # a league game: winnings and fans
    data["home"]["players"].append({"player": "orcs 77"})
    data["home"]["dice"] = {"winnings": 7, "fan_factor": [1, 2], "mvp": 3}
    error = refused(gold, data)
    places = [m.place for m in mistakes_of(error)]
    assert places == [
        ("home", "players", 1),
        ("home", "dice", "fan_factor", "orcs"),
        ("home", "dice", "winnings", "orcs"),
    ]  # not the mvp die, which only the whole game says whether it asks
    assert "winnings for Orcs: a D6 shows 1 to 6 on each die, not 7" in error.message
    assert "fan_factor for Orcs: a D6 roll is 1 die, not 2" in error.message


def test_one_mistake_is_said_as_it_always_was(gold: LeagueLedger) -> None:
    error = refused(gold, friendly(scored=3))
    assert isinstance(error, InvalidInput)
    assert error.message == "Orcs scored 3 but the touchdowns of their players add up to 1"


# --- a submitted report is named by its game ------------------------------------------------


def test_a_second_report_is_refused_naming_the_first_by_its_teams(gold: LeagueLedger) -> None:
    first = report({**friendly(), "match": "f1"})
    gold.handle(SubmitReport("gold", "orcs", first, roll_missing=True), by="Anna")
    with pytest.raises(NotAllowed) as caught:
        gold.handle(SubmitReport("gold", "humans", first, roll_missing=True), by="Hal")
    said = caught.value.message
    assert said.startswith(
        "the report of Orcs v Humans (friendly), submitted by Orcs, waits for the opposing"
        " coach to confirm or dispute it"
    )
    assert "s1" not in said
    assert "f1" not in said


@pytest.mark.parametrize("clash", ["twice", "a player's id"])
def test_a_hireling_has_an_id_of_his_own(sqlite_ledger: LeagueLedger, clash: str) -> None:
    """Two hirelings of one id kept one of them; a hireling with a player's id of the books
    had his game credited to that player (the fold reads a report's players by id)."""
    two_team_league(sqlite_ledger)
    rats = sqlite_ledger.view().select(PlayerRow, league_id=str(league_id("test")), team_id="rats")
    journeyman = {"id": "j1", "name": "Jo", "kind": "journeyman", "position": "lineman"}
    if clash == "twice":
        home = {"team": "reavers", "hirelings": [journeyman]}
        away = {"team": "rats", "hirelings": [journeyman | {"position": "clanrat"}]}
        says = "the report names hireling j1 twice: give each his own id"
    else:
        home = {"team": "reavers", "hirelings": [journeyman | {"id": rats[0].player_id}]}
        away = {"team": "rats"}
        says = f"hireling Jo has the id of a player of the books ({rats[0].player_id})"
    game = {"match": "f1", "kind": "friendly", "home": home, "away": away}
    before = event_count(sqlite_ledger)
    with pytest.raises(InvalidInput, match=re.escape(says)):
        sqlite_ledger.handle(RecordMatch("test", report(game)), by="tester")
    assert event_count(sqlite_ledger) == before


def test_a_full_bb2025_team_fields_no_journeyman_and_one_short_fields_a_lineman(
    sqlite_ledger: LeagueLedger,
) -> None:
    """Seed 001 'Take on Journeymen': eleven Reavers able to play take none; a Blitzer is
    no Journeyman (a Lineman line of 0-16 is). Found by the API hunt: both were stored."""
    two_team_league(sqlite_ledger)
    journeyman = {"id": "j1", "name": "Jo", "kind": "journeyman", "position": "blitzer"}
    home = {"team": "reavers", "hirelings": [journeyman]}
    game = {"match": "f1", "kind": "friendly", "home": home, "away": {"team": "rats"}}
    before = event_count(sqlite_ledger)
    with pytest.raises(LedgerError) as refused:
        sqlite_ledger.handle(RecordMatch("test", report(game)), by="tester")
    said = str(refused.value)
    assert "Jo: a Journeyman is a Lineman of Reavers' list with a QTY of 0-16 (lineman)" in said
    assert "Reavers may take 0 Journeymen, not 1" in said
    assert event_count(sqlite_ledger) == before


def test_a_game_dated_to_come_is_refused_at_its_date_with_the_others(gold: LeagueLedger) -> None:
    """A report records a game played: a date still to come is a slip (2099 for 2026),
    named beside the date and with the report's other mistakes."""
    data = {**friendly(scored=2), "played_on": "2099-01-01"}
    error = refused(gold, data)
    assert [m.place for m in mistakes_of(error)] == [("played_on",), ("home", "touchdowns")]
    assert "played on 2099-01-01: that day is still to come (today is " in error.message
    assert record(gold, {**friendly(), "played_on": "2026-11-16"}).played_on == "2026-11-16"


@pytest.mark.parametrize(
    ("played_on", "taken"),
    [("2026-12-05", True), ("2026-12-06", True), ("2026-12-07", False), (None, True)],
)
def test_a_day_past_today_in_utc_is_still_taken(played_on: str | None, taken: bool) -> None:
    """A game played this evening east of Greenwich is dated a day past UTC's today."""
    today = date(2026, 12, 5)
    if taken:
        check_played(played_on, today)
    else:
        with pytest.raises(InvalidInput, match="played on 2026-12-07: that day is still to come"):
            check_played(played_on, today)
