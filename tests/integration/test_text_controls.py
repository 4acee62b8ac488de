"""Text a league cannot read or a store cannot keep is refused where it is given: a NUL
(PostgreSQL's text holds none) or another control character in a name or a reason, from
any command, with nothing written."""

from __future__ import annotations

import pytest

from ledger.application.commands import AdjustTreasury, RegisterTeam
from ledger.application.service import LeagueLedger
from ledger.errors import InvalidInput
from tests.support import create_league, event_count, two_team_league


@pytest.mark.parametrize("text", ["fair\x00play", "bell\x07", "esc\x1b[31m", "del\x7f"])
def test_a_reason_with_a_control_character_is_refused(ledger: LeagueLedger, text: str) -> None:
    two_team_league(ledger)
    before = event_count(ledger)
    with pytest.raises(InvalidInput, match=r"^reason: must hold no control character"):
        ledger.handle(AdjustTreasury("test", "reavers", 20_000), by="tester", reason=text)
    assert event_count(ledger) == before


def test_a_name_with_a_nul_is_refused(ledger: LeagueLedger) -> None:
    create_league(ledger)
    before = event_count(ledger)
    with pytest.raises(InvalidInput, match="name must be one line of printable text"):
        ledger.handle(RegisterTeam("test", "nul", "Nul\x00Team", "jay", "human"), by="tester")
    assert event_count(ledger) == before


def test_lines_and_tabs_stay_in_a_reason(ledger: LeagueLedger) -> None:
    two_team_league(ledger)
    reason = "fair play award:\n\tvoted by the coaches\r\n"
    ledger.handle(AdjustTreasury("test", "reavers", 20_000), by="tester", reason=reason)
    last = list(ledger.source.league_events(ledger.league_row("test").league_id))[-1]
    assert last.reason == reason


@pytest.mark.parametrize("who", ["Bob\nEvil", "Bob\tEvil", " "])
def test_who_recorded_is_one_line_of_text(ledger: LeagueLedger, who: str) -> None:
    """Names are checked by the commands; who recorded (``--as`` where the ledger has no
    accounts) is the events' own name, held to the same."""
    two_team_league(ledger)
    before = event_count(ledger)
    with pytest.raises(InvalidInput, match=r"^recorded_by: must be one line of printable text"):
        ledger.handle(AdjustTreasury("test", "reavers", 20_000), by=who, reason="award")
    assert event_count(ledger) == before
