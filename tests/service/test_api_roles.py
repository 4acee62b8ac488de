"""Every role against every write of the API: a refused request is 403 (401 without an
account) whatever its body and writes nothing; an allowed one records events that name the
account, the role it acted in, the API and the request."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from ledger.application.accounts import Accounts
from ledger.domain.events import LedgerEvent
from ledger.domain.log import SITE_ID, league_id
from tests.service.conftest import LEAGUE, World, event_count, ledger_of
from tests.service.test_pages import last_event

REAVERS = "reikland-reavers"
LEAGUE_PATH = f"/api/leagues/{LEAGUE}"

WRITES: dict[str, tuple[str, dict[str, Any]]] = {
    "hire": (f"{LEAGUE_PATH}/teams/{REAVERS}/players", {"position": "lineman", "name": "Fresh"}),
    "buy": (f"{LEAGUE_PATH}/teams/{REAVERS}/purchases", {"item": "cheerleader"}),
    "adjust": (
        f"{LEAGUE_PATH}/treasury-adjustments",
        {"team": REAVERS, "amount": 5000, "reason": "league sponsor"},
    ),
    "correct": (f"{LEAGUE_PATH}/corrections", {"event": 0, "action": "void", "reason": "typo"}),
    "grant": (
        f"{LEAGUE_PATH}/members",
        {"account": "outsider", "role": "coach", "teams": [REAVERS]},
    ),
    "visibility": (f"{LEAGUE_PATH}/visibility", {"public": True}),
    "advancement_dice": (f"{LEAGUE_PATH}/advancement-dice", {"by_ledger": True}),
    "create_league": ("/api/leagues", {"slug": "second", "name": "Second", "ruleset": "bb2025"}),
    "create_account": ("/api/accounts", {"account": "newcomer", "password": "long-enough"}),
}

ALLOWED: dict[str, set[str]] = {
    "hire": {"admin", "commissioner", "jay"},
    "buy": {"admin", "commissioner", "jay"},
    "adjust": {"admin", "commissioner"},
    "correct": {"admin", "commissioner"},
    "grant": {"admin", "commissioner"},
    "visibility": {"admin", "commissioner"},
    "advancement_dice": {"admin", "commissioner"},
    "create_league": {"admin"},
    "create_account": {"admin"},
}
ROLES = {"admin": "admin", "commissioner": "commissioner", "jay": "coach"}
EVERYONE = ("admin", "commissioner", "dan", "steve", "jay", "rob", "outsider")
ENVELOPE_CLASH = {"grant", "create_account"}
"""Events whose own field ``account`` names their subject: they record the acting
account's name only, until the field is renamed (ledger/web/guard.py ``Call.write``)."""


def body_for(client: TestClient, world: World, action: str) -> dict[str, Any]:
    _, body = WRITES[action]
    if action == "correct":  # something a correction may void: a fresh adjustment
        adjust_path, adjust = WRITES["adjust"]
        done = client.post(adjust_path, json=adjust, headers=world.auth("commissioner"))
        assert done.status_code == 201, done.text
        body = {**body, "event": done.json()["version"]}
    return body


def events_since(client: TestClient, log: UUID, after: int) -> list[LedgerEvent]:
    ledger = ledger_of(client)
    return [ledger.source.decode(s) for s in ledger.recorder.select_events(log, gt=after or None)]


def log_of(action: str) -> UUID:
    if action == "create_account":
        return SITE_ID
    return league_id("second" if action == "create_league" else LEAGUE)


@pytest.mark.parametrize("action", sorted(WRITES))
@pytest.mark.parametrize("account", EVERYONE)
def test_each_role_may_do_what_its_role_allows_and_nothing_else(
    client: TestClient, world: World, action: str, account: str
) -> None:
    path, _ = WRITES[action]
    body = body_for(client, world, action)
    log = log_of(action)
    before_log = ledger_of(client).recorder.max_notification_id() or 0
    before = event_count(client)
    versions = {e.originator_version for e in events_since(client, log, 0)}
    reply = client.post(path, json=body, headers=world.auth(account))
    if account not in ALLOWED[action]:
        assert reply.status_code == 403, reply.text
        assert reply.headers["content-type"] == "application/problem+json"
        assert reply.json()["code"] == "forbidden"
        assert event_count(client) == before
        return
    assert reply.status_code == 201, reply.text
    assert event_count(client) > before_log
    recorded = [e for e in events_since(client, log, 0) if e.originator_version not in versions]
    assert recorded
    for event in recorded:
        if action in ENVELOPE_CLASH:
            assert event.recorded_by != "demo"
            continue
        assert (event.account, event.acting_as, event.via) == (account, ROLES[account], "api")
        assert event.request_id == reply.headers["x-request-id"]


@pytest.mark.parametrize("action", sorted(WRITES))
@pytest.mark.parametrize("body", ["valid", b"{not json", b'{"unknown": 1}'])
def test_without_credentials_every_write_is_401_whatever_its_body(
    client: TestClient, world: World, action: str, body: str | bytes
) -> None:
    path, valid = WRITES[action]
    before = event_count(client)
    headers = {"Content-Type": "application/json"}
    content = body if isinstance(body, bytes) else None
    reply = client.post(
        path, json=valid if content is None else None, content=content, headers=headers
    )
    assert reply.status_code == 401
    assert reply.json()["code"] == "unauthenticated"
    assert reply.headers["www-authenticate"].startswith("Bearer")
    assert event_count(client) == before


@pytest.mark.parametrize("account", ["dan", "outsider"])
def test_a_forbidden_write_is_403_even_with_a_malformed_body(
    client: TestClient, world: World, account: str
) -> None:
    before = event_count(client)
    reply = client.post(
        WRITES["hire"][0],
        content=b"{not json",
        headers={**world.auth(account), "Content-Type": "application/json"},
    )
    assert reply.status_code == 403
    assert event_count(client) == before


def test_a_token_that_does_not_hold_is_401(client: TestClient, world: World) -> None:
    for header in ("Bearer bbl_00000000_forged", "Basic YWRtaW46eA==", "Bearer "):
        reply = client.get(f"{LEAGUE_PATH}/standings", headers={"Authorization": header})
        assert reply.status_code == 401, header


@pytest.mark.parametrize(
    ("path", "sentence"),
    [
        (
            f"{LEAGUE_PATH}/visibility",
            "only the commissioner of Old World Demo League may change who may read",
        ),
        (
            f"{LEAGUE_PATH}/season/playoffs",
            "only the commissioner of Old World Demo League may draw the play-offs",
        ),
        (
            f"{LEAGUE_PATH}/season/schedule",
            "only the commissioner of Old World Demo League may schedule the",
        ),
        ("/api/leagues", "only an admin may create a league"),
    ],
)
def test_a_refusal_names_the_action_in_words(
    client: TestClient, world: World, path: str, sentence: str
) -> None:
    reply = client.post(path, json={}, headers=world.auth("jay"))
    assert reply.status_code == 403
    assert reply.json()["detail"].startswith(sentence)


def test_a_member_is_removed_by_delete_and_the_league_keeps_its_commissioner(
    client: TestClient, world: World
) -> None:
    removed = client.delete(
        f"{LEAGUE_PATH}/members/jay",
        params={"reason": "left the league"},
        headers=world.auth("commissioner"),
    )
    assert removed.status_code == 200, removed.text
    assert removed.json()["league"] == LEAGUE
    event = last_event(client)
    assert event["topic"].endswith("MemberRemoved")
    assert (event["account"], event["reason"]) == ("commissioner", "left the league")
    path, body = WRITES["hire"]
    gone = client.post(path, json=body, headers=world.auth("jay"))
    assert gone.status_code == 403
    before = event_count(client)
    for path, status in (("jay", 422), ("commissioner", 409)):
        refused = client.delete(f"{LEAGUE_PATH}/members/{path}", headers=world.auth("admin"))
        assert refused.status_code == status, refused.text
        assert refused.headers["content-type"] == "application/problem+json"
    demoted = client.post(
        f"{LEAGUE_PATH}/members",
        json={"account": "commissioner", "role": "coach", "teams": [REAVERS]},
        headers=world.auth("commissioner"),
    )
    assert demoted.status_code == 409
    assert "only commissioner" in demoted.json()["detail"]
    assert event_count(client) == before


def test_a_revoked_account_is_granted_no_role(client: TestClient, world: World) -> None:
    Accounts(ledger_of(client)).revoke("outsider", by="admin")
    before = event_count(client)
    path, body = WRITES["grant"]
    granted = client.post(path, json=body, headers=world.auth("commissioner"))
    assert granted.status_code == 409
    assert granted.json()["detail"] == "account 'outsider' is revoked: it can hold no role"
    assert event_count(client) == before
