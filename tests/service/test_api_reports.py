"""The report workflow over the API: the coach submits, the opponent confirms, and each
step's events name the account that took it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ledger.domain.log import league_id
from tests.service.conftest import LEAGUE, World, event_count, ledger_of

REPORTS = f"/api/leagues/{LEAGUE}/reports"
FRIENDLY: dict[str, Any] = {
    "match": "api-friendly-1",
    "kind": "friendly",
    "home": {"team": "reikland-reavers", "players": [{"player": "Griff Junior", "td": 2}]},
    "away": {"team": "gouged-eye", "players": [{"player": "Ugluk", "td": 1}]},
}


def last_events(client: TestClient, count: int) -> list[Any]:
    ledger = ledger_of(client)
    return list(ledger.source.league_events(str(league_id(LEAGUE))))[-count:]


def test_a_coach_submits_and_the_opponent_confirms(client: TestClient, world: World) -> None:
    submitted = client.post(
        REPORTS, params={"roll_missing": True}, json=FRIENDLY, headers=world.auth("jay")
    )
    assert submitted.status_code == 201, submitted.text
    submission = submitted.json()["submission"]
    assert last_events(client, 1)[0].account == "jay"
    pending = client.get(REPORTS, params={"status": "submitted"}, headers=world.auth("dan"))
    assert [r["submission"] for r in pending.json()["items"]] == [submission]
    before = event_count(client)
    version = client.get(f"/api/leagues/{LEAGUE}", headers=world.auth("dan")).json()["version"]
    refused = client.post(f"{REPORTS}/{submission}/confirm", headers=world.auth("steve"))
    assert refused.status_code == 403
    assert event_count(client) == before
    confirmed = client.post(f"{REPORTS}/{submission}/confirm", headers=world.auth("dan"))
    assert confirmed.status_code == 201, confirmed.text
    assert confirmed.json()["match"] == "api-friendly-1"
    steps = [e for e in last_events(client, 5) if e.seq > version]
    assert [type(e).__name__ for e in steps][-1] == "MatchRecorded"
    assert {(e.account, e.acting_as, e.via) for e in steps} == {("dan", "coach", "api")}


def test_a_coach_may_not_submit_for_teams_not_their_own(client: TestClient, world: World) -> None:
    before = event_count(client)
    reply = client.post(REPORTS, json=FRIENDLY, headers=world.auth("rob"))
    assert reply.status_code == 403
    assert event_count(client) == before


def test_a_dispute_and_a_rejection_name_no_match(client: TestClient, world: World) -> None:
    submitted = client.post(REPORTS, json=FRIENDLY, headers=world.auth("jay"))
    submission = submitted.json()["submission"]
    disputed = client.post(
        f"{REPORTS}/{submission}/dispute", json={"reason": "two"}, headers=world.auth("dan")
    )
    rejected = client.post(
        f"{REPORTS}/{submission}/reject", json={"reason": "replay"}, headers=world.auth("admin")
    )
    assert (disputed.status_code, rejected.status_code) == (201, 201), rejected.text
    assert "match" not in disputed.json()
    assert "match" not in rejected.json()
    assert rejected.json()["version"] == int(rejected.headers["etag"].strip('"'))
