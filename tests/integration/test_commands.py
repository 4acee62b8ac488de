"""Commands on a real store (SQLite and PostgreSQL): what they record, and what they refuse.

Every refusal is a specific ``LedgerError`` and leaves the log exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ledger.application.commands import (
    AdjustTreasury,
    Buy,
    ClosePostGame,
    FirePlayer,
    HirePlayer,
    RecordMatch,
    RegisterTeam,
)
from ledger.application.service import LeagueLedger
from ledger.domain.state import MatchRow, PlayerRow, StandingRow, TeamRow
from ledger.errors import (
    InsufficientTreasury,
    InvalidDice,
    InvalidOption,
    LedgerError,
    MalformedReport,
    MatchAlreadyRecorded,
    PlayerNotInTeam,
    PlayerUnavailable,
    PositionLimitReached,
    RosterFull,
    TooFewPlayers,
    UnknownPosition,
    UnknownRuleset,
    UnknownTeam,
)
from tests.support import (
    HUMAN_ELEVEN,
    create_league,
    draft_team,
    event_count,
    report,
    two_team_league,
)

FIRST_GAME = {
    "match": "g1",
    "home": {
        "team": "reavers",
        "players": [{"player": "reavers 1", "td": 2, "mvp": 1}],
        "dice": {"fan_factor": 2, "dedicated_fans": 4},
    },
    "away": {
        "team": "rats",
        "players": [{"player": "rats 1", "td": 1, "mvp": 1}],
        "dice": {"fan_factor": 1, "dedicated_fans": 6},
    },
    "casualties": [{"victim": "rats 4", "by": "reavers 2", "cause": "block", "roll": 15}],
}


def refused(
    ledger: LeagueLedger, error: type[LedgerError], action: Callable[[], object], match: str
) -> None:
    """The action raises ``error`` with a message containing ``match``; nothing written."""
    before = event_count(ledger)
    with pytest.raises(error, match=match):
        action()
    assert event_count(ledger) == before


def team(ledger: LeagueLedger, team_id: str, league: str = "test") -> TeamRow:
    found = ledger.view().get(TeamRow, ledger.league_row(league).league_id, team_id)
    assert found is not None
    return found


def test_a_drafted_team_pays_list_prices_from_its_treasury(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    # Human: 2 Blitzers 85,000, a Thrower 75,000, 8 Linemen 50,000 = 645,000
    assert team(ledger, "reavers").treasury == 1_000_000 - 645_000
    ledger.handle(Buy("test", "reavers", "reroll", 2), by="tester")
    assert team(ledger, "reavers").treasury == 355_000 - 2 * 50_000
    assert team(ledger, "reavers").values == {"tv": 745_000, "ctv": 745_000}


def test_a_recorded_match_pays_winnings_and_awards_spp(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    ledger.handle(RecordMatch("test", report(FIRST_GAME)), by="tester")
    league_id = ledger.league_row("test").league_id
    view = ledger.view()
    # Fan Attendance (1 Dedicated Fan + D3 of 2) + (1 + 1) = 5:
    # reavers 5/2 + 2 TD + 1 no stalling = 5.5 -> 55,000; rats 2.5 + 1 + 1 -> 45,000
    assert team(ledger, "reavers").treasury == 355_000 + 55_000
    assert team(ledger, "rats").treasury == 1_000_000 - 655_000 + 45_000
    scorer = view.get(PlayerRow, league_id, "p1")
    assert scorer is not None
    assert scorer.spp == 2 * 3 + 4
    killer = view.get(PlayerRow, league_id, "p2")
    assert killer is not None
    assert killer.spp == 2
    assert killer.kills == 1
    dead = [
        p for p in view.select(PlayerRow, league_id=league_id, team_id="rats") if p.name == "rats 4"
    ]
    assert dead[0].status == "dead"
    standing = view.get(StandingRow, league_id, 1, "reavers")
    assert standing is not None
    assert (standing.won, standing.points, standing.cas_for) == (1, 3, 1)


def test_unknown_team_and_position_are_refused(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    refused(
        ledger,
        UnknownTeam,
        lambda: ledger.handle(HirePlayer("test", "nobody", "lineman", "X"), by="t"),
        "no team 'nobody'",
    )
    refused(
        ledger,
        UnknownPosition,
        lambda: ledger.handle(HirePlayer("test", "reavers", "wizard", "X"), by="t"),
        "has no position 'wizard'",
    )


def test_a_seventeenth_player_is_refused(ledger: LeagueLedger) -> None:
    create_league(ledger)
    ledger.handle(
        RegisterTeam("test", "reavers", "Reavers", "coach", "human", treasury=2_000_000), by="t"
    )
    for i in range(16):
        ledger.handle(HirePlayer("test", "reavers", "lineman", f"L{i}"), by="t")
    refused(
        ledger,
        RosterFull,
        lambda: ledger.handle(HirePlayer("test", "reavers", "lineman", "L16"), by="t"),
        "16 players",
    )


def test_position_quantities_are_enforced(ledger: LeagueLedger) -> None:
    create_league(ledger)
    ledger.handle(RegisterTeam("test", "reavers", "Reavers", "coach", "human"), by="t")
    ledger.handle(HirePlayer("test", "reavers", "blitzer", "B1"), by="t")
    ledger.handle(HirePlayer("test", "reavers", "blitzer", "B2"), by="t")
    refused(
        ledger,
        PositionLimitReached,
        lambda: ledger.handle(HirePlayer("test", "reavers", "blitzer", "B3"), by="t"),
        "at most 2",
    )


def test_overspending_is_refused(ledger: LeagueLedger) -> None:
    create_league(ledger)
    ledger.handle(
        RegisterTeam("test", "reavers", "Reavers", "coach", "human", treasury=100_000), by="t"
    )
    ledger.handle(HirePlayer("test", "reavers", "blitzer", "B1"), by="t")
    refused(
        ledger,
        InsufficientTreasury,
        lambda: ledger.handle(HirePlayer("test", "reavers", "blitzer", "B2"), by="t"),
        "costs 85,000 but .* 15,000",
    )


def test_the_same_match_cannot_be_recorded_twice(ledger: LeagueLedger) -> None:
    """Said once: its own post-game sequence, open since it was recorded, is not also
    named as a close to make first (which read as if closing it let it be recorded)."""
    two_team_league(ledger)
    ledger.handle(RecordMatch("test", report(FIRST_GAME)), by="t")
    refused(
        ledger,
        MatchAlreadyRecorded,
        lambda: ledger.handle(RecordMatch("test", report(FIRST_GAME)), by="t"),
        r"^match g1 \(reavers v rats\) was already recorded \(event \d+\)(?!.*post-game)",
    )


def test_a_report_naming_a_player_of_another_team_is_refused(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    wrong = {
        **FIRST_GAME,
        "home": {
            **FIRST_GAME["home"],  # type: ignore[dict-item]
            "players": [{"player": "rats 2", "td": 2}],
        },
    }
    refused(
        ledger,
        PlayerNotInTeam,
        lambda: ledger.handle(RecordMatch("test", report(wrong)), by="t"),
        "plays for rats, not reavers",
    )


def test_a_dead_player_cannot_play(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    ledger.handle(RecordMatch("test", report(FIRST_GAME)), by="t")
    ledger.handle(ClosePostGame("test", "g1", "reavers", roll_missing=True), by="t")
    ledger.handle(ClosePostGame("test", "g1", "rats", roll_missing=True), by="t")
    second = {
        "match": "g2",
        "home": {"team": "rats", "players": [{"player": "rats 4"}]},
        "away": {"team": "reavers"},
    }
    refused(
        ledger,
        PlayerUnavailable,
        lambda: ledger.handle(RecordMatch("test", report(second), roll_missing=True), by="t"),
        "is dead",
    )


def test_a_die_no_step_asks_for_is_named_in_words(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    ledger.handle(RecordMatch("test", report(FIRST_GAME)), by="t")
    close = ClosePostGame("test", "g1", "reavers", dice={"mistakes": 2}, roll_missing=True)
    refused(
        ledger,
        InvalidDice,
        lambda: ledger.handle(close, by="t"),
        r"closing g1 for Reavers \(reavers\) needs no mistakes roll \(leave it out\)$",
    )


def test_missing_dice_are_named_unless_the_ledger_rolls_them(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    bare = {
        "match": "g1",
        "home": {"team": "reavers", "touchdowns": 1},
        "away": {"team": "rats", "touchdowns": 0},
    }
    refused(
        ledger,
        InvalidDice,
        lambda: ledger.handle(RecordMatch("test", report(bare)), by="t"),
        "fan_factor .D3. for Reavers",  # the team by its name
    )
    ledger.handle(RecordMatch("test", report(bare), roll_missing=True), by="t")
    row = ledger.view().get(MatchRow, ledger.league_row("test").league_id, "g1")
    assert row is not None
    assert row.status == "played"


def test_firing_below_eleven_eligible_players_is_refused(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    refused(
        ledger,
        TooFewPlayers,
        lambda: ledger.handle(FirePlayer("test", "reavers", "reavers 5"), by="t"),
        "at least 11",
    )


def test_an_unknown_ruleset_or_option_is_refused(ledger: LeagueLedger) -> None:
    refused(
        ledger,
        UnknownRuleset,
        lambda: ledger.create_league("x", "X", "bb1987", by="t"),
        "unknown ruleset 'bb1987'",
    )
    refused(
        ledger,
        InvalidOption,
        lambda: ledger.create_league(
            "x", "X", "bb2025", by="t", options={"bonus_points": "sometimes"}
        ),
        "bonus_points",
    )


def test_a_malformed_report_is_refused_before_anything_is_read() -> None:
    with pytest.raises(MalformedReport, match="home"):
        report("away: {team: rats}\n")
    with pytest.raises(MalformedReport, match="not valid YAML"):
        report("home: [unclosed\n")
    with pytest.raises(MalformedReport, match="td"):
        report(
            {"home": {"team": "a", "players": [{"player": "x", "td": -1}]}, "away": {"team": "b"}}
        )


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("playedon: 2026-01-01\n", "playedon: no such field (did you mean 'played_on'?)"),
        (
            "casualties: [{victim: x, rol: 3}]\n",
            "casualties.0.rol: no such field (did you mean 'roll'?)",
        ),
        (
            "home: {team: a, players: [{player: x, TD: 1}]}\n",
            "home.players.0.TD: no such field (did you mean 'td'?)",
        ),
        ("visitors: {team: c}\n", "visitors: no such field (fields: match, season, round, kind,"),
    ],
    ids=["report", "casualty", "player line", "none close"],
)
def test_a_field_no_report_has_is_named_with_the_one_meant(text: str, says: str) -> None:
    full = text if text.startswith("home") else f"{text}home: {{team: a}}\n"
    with pytest.raises(MalformedReport) as refused:
        report(f"{full}away: {{team: b}}\n")
    assert says in refused.value.message


def test_commands_record_who_and_why(ledger: LeagueLedger) -> None:
    create_league(ledger)
    draft_team(ledger, "test", "reavers", "human", HUMAN_ELEVEN[:1])
    ledger.handle(
        AdjustTreasury("test", "reavers", 20_000), by="the commissioner", reason="fair play award"
    )
    last = list(ledger.source.league_events(ledger.league_row("test").league_id))[-1]
    assert (last.recorded_by, last.reason) == ("the commissioner", "fair play award")


def test_a_long_league_log_is_snapshotted_and_reloads(ledger: LeagueLedger) -> None:
    create_league(ledger)
    ledger.handle(
        RegisterTeam("test", "reavers", "Reavers", "coach", "human", treasury=10_000_000), by="t"
    )
    for i in range(250):
        ledger.handle(AdjustTreasury("test", "reavers", 1_000), by="t", reason=f"fine {i}")
    log = ledger.load_log("test")
    assert log.version == 252
    assert log.last_hash == list(ledger.source.league_events(str(log.id)))[-1].hash
    assert ledger.snapshots is not None
    assert [s.originator_version for s in ledger.snapshots.get(log.id)] == [100, 200]
    assert team(ledger, "reavers").treasury == 10_250_000
