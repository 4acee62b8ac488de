"""The report workflow's other answers over the API: the opposing coach disputes, the
commissioner approves or rejects; each step taken by its own role only, each refused
step 403 with nothing written, and only an approval records the match."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from ledger.domain.log import league_id
from tests.service.conftest import LEAGUE, World, event_count, ledger_of
from tests.service.test_api_reports import FRIENDLY, REPORTS


def submitted(client: TestClient, world: World) -> str:
    reply = client.post(
        REPORTS, params={"roll_missing": True}, json=FRIENDLY, headers=world.auth("jay")
    )
    assert reply.status_code == 201, reply.text
    submission: str = reply.json()["submission"]
    return submission


def status_of(client: TestClient, world: World, submission: str) -> str:
    reply = client.get(f"{REPORTS}/{submission}", headers=world.auth("dan"))
    assert reply.status_code == 200, reply.text
    found: str = reply.json()["status"]
    return found


def matches(client: TestClient, world: World) -> set[str]:
    reply = client.get(f"/api/leagues/{LEAGUE}/matches?limit=500", headers=world.auth("dan"))
    return {m["match_id"] for m in reply.json()["items"]}


def last_event(client: TestClient) -> Any:
    return list(ledger_of(client).source.league_events(str(league_id(LEAGUE))))[-1]


def step(
    client: TestClient, world: World, submission: str, action: str, account: str, body: Any
) -> Any:
    return client.post(f"{REPORTS}/{submission}/{action}", json=body, headers=world.auth(account))


def test_the_opponent_disputes_and_the_commissioner_approves(
    client: TestClient, world: World
) -> None:
    submission = submitted(client, world)
    before = event_count(client)
    for account in ("jay", "steve", "outsider"):  # not the opponent: refused
        reply = step(client, world, submission, "dispute", account, {"reason": "not so"})
        assert reply.status_code == 403, (account, reply.text)
    assert event_count(client) == before
    reply = step(client, world, submission, "dispute", "dan", {"reason": "Ugluk scored twice"})
    assert reply.status_code == 201, reply.text
    assert (last_event(client).account, last_event(client).acting_as) == ("dan", "coach")
    assert status_of(client, world, submission) == "disputed"
    assert "api-friendly-1" not in matches(client, world)  # a dispute records nothing

    before = event_count(client)
    for account in ("jay", "dan"):  # coaches do not decide
        assert step(client, world, submission, "approve", account, None).status_code == 403
    assert event_count(client) == before
    approved = step(client, world, submission, "approve", "commissioner", {"reason": "video"})
    assert approved.status_code == 201, approved.text
    assert approved.json()["match"] == "api-friendly-1"
    assert last_event(client).account == "commissioner"
    assert status_of(client, world, submission) == "approved"
    assert "api-friendly-1" in matches(client, world)


@pytest.mark.parametrize("account", ["commissioner", "admin"])
def test_the_commissioner_rejects_with_a_reason(
    client: TestClient, world: World, account: str
) -> None:
    submission = submitted(client, world)
    before = event_count(client)
    assert step(client, world, submission, "reject", "dan", {"reason": "no"}).status_code == 403
    assert step(client, world, submission, "reject", account, {}).status_code == 422
    assert event_count(client) == before
    reply = step(client, world, submission, "reject", account, {"reason": "never played"})
    assert reply.status_code == 201, reply.text
    assert (last_event(client).account, last_event(client).acting_as) == (account, account)
    assert status_of(client, world, submission) == "rejected"
    assert "api-friendly-1" not in matches(client, world)
    again = step(client, world, submission, "approve", account, None)
    assert again.status_code == 409, again.text  # a rejected report stays rejected


def test_an_unknown_report_is_404(client: TestClient, world: World) -> None:
    reply = step(client, world, "no-such-report", "approve", "commissioner", None)
    assert reply.status_code == 404
    assert reply.headers["content-type"] == "application/problem+json"


def test_a_friendly_recorded_between_two_pages_shifts_neither(
    client: TestClient, world: World
) -> None:
    """A friendly (no season) sorted first: recorded between two pages of the matches, it
    pushed the first page's last match onto the second (a helper's pass, forty-fourth
    session). Games of no season come last, in the order recorded."""
    path = f"/api/leagues/{LEAGUE}/matches"
    first = client.get(path, params={"limit": 3}, headers=world.auth("dan")).json()
    approved = step(client, world, submitted(client, world), "approve", "commissioner", None)
    assert approved.status_code == 201, approved.text
    params = {"limit": 500, "after": first["next"]}
    rest = client.get(path, params=params, headers=world.auth("dan")).json()
    seen = [m["match_id"] for m in first["items"]]
    assert not set(seen) & {m["match_id"] for m in rest["items"]}
    assert rest["items"][-1]["match_id"] == "api-friendly-1"


def test_a_public_leagues_submitted_reports_stay_its_members(
    client: TestClient, world: World
) -> None:
    """The members page says so: anyone reads a public league's pages and books, but a
    report's page, in the API and on the web, is its members' (401 to the anonymous, 403
    to an account of no role), pending or answered."""
    submission = submitted(client, world)
    made = client.post(
        f"/api/leagues/{LEAGUE}/visibility",
        json={"public": True},
        headers=world.auth("commissioner"),
    )
    assert made.status_code == 201
    for path in (REPORTS, f"{REPORTS}/{submission}"):
        assert client.get(path).status_code == 401, path
        assert client.get(path, headers=world.auth("outsider")).status_code == 403, path
        assert client.get(path, headers=world.auth("rob")).status_code == 200, path
    page = client.get(f"/leagues/{LEAGUE}/submissions/{submission}", follow_redirects=False)
    assert page.status_code in (303, 401), page.status_code
    assert "(jay)" not in page.text
    assert client.get(f"/leagues/{LEAGUE}").status_code == 200  # the league itself is public
