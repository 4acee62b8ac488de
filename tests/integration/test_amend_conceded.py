"""A conceded match is amended like any other: its concession is part of the corrected
report, and the amendment is recorded (before, the concession could not be turned into
the amendment's fields and the command failed with a traceback)."""

from __future__ import annotations

from ledger.application.commands import CorrectMatch, RecordMatch
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.log import league_id
from tests.support import reavers_rats, report, two_team_league


def conceded(mvp: str) -> dict[str, object]:
    game = reavers_rats()
    game["home"]["players"] = [{"player": "reavers 4", "td": 2}, {"player": mvp, "mvp": 1}]
    game["away"]["players"] = [{"player": "rats 1"}]
    game["away"]["dice"]["concession_fans"] = 2
    return {**game, "concession": {"team": "rats", "kind": "conceded"}}


def test_a_conceded_match_is_amended(ledger: LeagueLedger) -> None:
    slug = two_team_league(ledger)
    ledger.handle(RecordMatch(slug, report(conceded("reavers 1"))), by="tester")
    recorded = ledger.source.head()
    ledger.handle(
        CorrectMatch(slug, recorded, report(conceded("reavers 2"))), by="tester", reason="MVP"
    )
    amended = list(ledger.source.league_events(str(league_id(slug))))[-1]
    assert isinstance(amended, ev.EventCorrected)
    assert amended.action == "amend"
    assert "concession" not in amended.amendment  # unchanged: not in the amendment
    assert set(amended.amendment) == {"home"}  # the MVP moved
