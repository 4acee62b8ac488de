"""Callers and league rows kept between requests (ledger/web/known.py): a grant, a
revocation or a sign-out takes effect at the next request, in the worker that did it and in
any other worker on the same ledger."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from ledger.application.accounts import Accounts
from ledger.bootstrap import Settings
from ledger.web.app import create_app
from tests.service.conftest import CHEAP, LEAGUE, World, ledger_of, sign_in

REAVERS = "reikland-reavers"
TEAM = f"/api/leagues/{LEAGUE}/teams/{REAVERS}"
HIRE = f"{TEAM}/players"


@pytest.fixture
def other_worker(world: World) -> Iterator[TestClient]:
    """A second application on the same ledger file: another worker process's view."""
    app = create_app(Settings(sqlite_path=world.db), hasher=CHEAP)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_a_grant_and_its_removal_count_from_the_next_request(
    client: TestClient, other_worker: TestClient, world: World
) -> None:
    outsider = world.auth("outsider")
    assert other_worker.get(TEAM, headers=outsider).status_code == 403
    granted = client.post(
        f"/api/leagues/{LEAGUE}/members",
        json={"account": "outsider", "role": "coach", "teams": [REAVERS]},
        headers=world.auth("commissioner"),
    )
    assert granted.status_code == 201, granted.text
    assert other_worker.get(TEAM, headers=outsider).status_code == 200
    hired = other_worker.post(
        HIRE, json={"position": "lineman", "name": "Newly Allowed"}, headers=outsider
    )
    assert hired.status_code == 201, hired.text


def test_a_revoked_account_is_refused_by_every_worker_at_once(
    client: TestClient, other_worker: TestClient, world: World
) -> None:
    for worker in (client, other_worker):
        assert worker.get(TEAM, headers=world.auth("jay")).status_code == 200
    Accounts(ledger_of(client), CHEAP).revoke("jay", by="admin", reason="left")
    for worker in (client, other_worker):
        assert worker.get(TEAM, headers=world.auth("jay")).status_code == 401
        assert (
            worker.post(
                HIRE, json={"position": "lineman", "name": "X"}, headers=world.auth("jay")
            ).status_code
            == 401
        )


def test_signing_out_ends_the_session_in_every_worker(
    client: TestClient, other_worker: TestClient
) -> None:
    csrf = sign_in(client, "jay")
    other_worker.cookies.update(client.cookies)
    assert other_worker.get("/api/session").json()["account"] == "jay"
    out = client.post("/logout", data={"csrf": csrf}, follow_redirects=False)
    assert out.status_code == 303
    assert other_worker.get("/api/session").json()["account"] is None
    assert other_worker.get(TEAM).status_code == 401


def test_an_unknown_token_is_refused_every_time(client: TestClient) -> None:
    forged = {"Authorization": "Bearer bbl_" + "x" * 40}
    for _ in range(2):
        assert client.get(TEAM, headers=forged).status_code == 401
