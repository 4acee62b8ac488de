"""Callers and league rows kept between requests (ledger/web/known.py): a grant, a
revocation or a sign-out takes effect at the next request, in the worker that did it and in
any other worker on the same ledger."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from ledger.application.accounts import Accounts
from ledger.bootstrap import Settings
from ledger.domain.state import LeagueRow
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
    assert "You are signed out." in client.get(out.headers["location"]).text
    assert other_worker.get("/api/session").json()["account"] is None
    assert other_worker.get(TEAM).status_code == 401


def test_an_unknown_token_is_refused_every_time(client: TestClient) -> None:
    forged = {"Authorization": "Bearer bbl_" + "x" * 40}
    for _ in range(2):
        assert client.get(TEAM, headers=forged).status_code == 401


def read_then_written(client: TestClient, world: World, account: str, path: str) -> dict[str, str]:
    """``account`` reads ``path`` (its answer kept), then the commissioner writes to the
    league: the next read finds every kept answer and caller stale. Its headers."""
    reader = world.auth(account)
    assert client.get(path, headers=reader).status_code == 200
    adjusted = client.post(
        f"/api/leagues/{LEAGUE}/treasury-adjustments",
        json={"team": REAVERS, "amount": 10_000, "reason": "a sponsor"},
        headers=world.auth("commissioner"),
    )
    assert adjusted.status_code == 201, adjusted.text
    return reader


@pytest.mark.parametrize(
    "path", [f"/api/leagues/{LEAGUE}/standings", TEAM, f"/leagues/{LEAGUE}"], ids=str
)
def test_a_read_after_a_write_takes_a_connection_a_step_not_one_a_question(
    client: TestClient, world: World, path: str
) -> None:
    """After a write every kept answer and caller is stale, and the read asks a dozen
    questions again (who the caller is, the league, the route's own): through one pooled
    connection for each of its steps (the guard, the route, the version read after it),
    not one a question, which on PostgreSQL cost a round trip for the pool's ping and one
    for its rollback each (docs/performance-journal.md, fortieth session). A read that
    waited for no other is not given the league's row again before its route (the guard
    has just read it: forty-first session)."""
    reader = read_then_written(client, world, "jay", path)
    checkouts: list[object] = []
    pool = ledger_of(client).read_models.engine.pool
    sa.event.listen(pool, "checkout", lambda *_: checkouts.append(None))
    assert client.get(path, headers=reader).status_code == 200
    assert len(checkouts) <= 3


@pytest.mark.parametrize(
    ("account", "path"),
    [("jay", f"/leagues/{LEAGUE}"), ("dan", f"/leagues/{LEAGUE}/teams/gouged-eye")],
    ids=["league home, a member's", "team page, its coach's"],
)
def test_a_page_after_a_write_reads_the_league_row_once(
    client: TestClient, world: World, account: str, path: str
) -> None:
    """The league's row is read by the guard, and the page is shown at it: the reports
    waiting for a member (league home) and whether the coach may re-draft (team page) are
    asked of that league, not of one read again (forty-second session). Read twice in all:
    by the guard, and after the route, whose version keeps the ETag true to the page."""
    reader = read_then_written(client, world, account, path)
    statements: list[str] = []
    pool = ledger_of(client).read_models.engine.pool
    sa.event.listen(
        pool,
        "checkout",
        lambda dbapi, *_: dbapi.set_trace_callback(statements.append),
    )
    assert client.get(path, headers=reader).status_code == 200
    row_reads = [s for s in statements if f'FROM "{LeagueRow.table}" WHERE' in s]
    assert len(row_reads) == 2, row_reads  # the guard's, and the version after the route


def test_a_write_that_moves_no_role_leaves_the_callers_known(
    client: TestClient, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Who a caller is changes with the site's log, a grant, a removal or a correction
    alone: after a treasury adjustment, the next read does not ask the store again who
    sends it."""
    reader = world.auth("jay")
    assert client.get(TEAM, headers=reader).status_code == 200
    credentials = client.app.state.service.known.credentials  # type: ignore[attr-defined]
    asked: list[str] = []
    by_token = credentials.by_token
    monkeypatch.setattr(
        credentials, "by_token", lambda token: asked.append(token) or by_token(token)
    )
    adjusted = client.post(
        f"/api/leagues/{LEAGUE}/treasury-adjustments",
        json={"team": REAVERS, "amount": 10_000, "reason": "a sponsor"},
        headers=world.auth("commissioner"),
    )
    assert adjusted.status_code == 201, adjusted.text
    team = client.get(TEAM, headers=reader)
    assert team.status_code == 200
    assert team.headers["etag"] == f'"{adjusted.json()["version"]}"'  # the league read afresh
    assert asked == [world.tokens["commissioner"]]  # the writer's own, once: jay's is kept


def test_a_voided_grant_is_refused_from_the_next_request(
    client: TestClient, other_worker: TestClient, world: World
) -> None:
    """A correction moves the league's members' version as a grant does: voiding the
    grant takes the league's members back to before it, and no worker keeps the caller
    it had let in."""
    outsider = world.auth("outsider")
    granted = client.post(
        f"/api/leagues/{LEAGUE}/members",
        json={"account": "outsider", "role": "coach", "teams": [REAVERS]},
        headers=world.auth("commissioner"),
    )
    assert granted.status_code == 201, granted.text
    for worker in (client, other_worker):
        assert worker.get(TEAM, headers=outsider).status_code == 200
    voided = client.post(
        f"/api/leagues/{LEAGUE}/corrections",
        json={"event": granted.json()["version"], "action": "void", "reason": "wrong account"},
        headers=world.auth("commissioner"),
    )
    assert voided.status_code == 201, voided.text
    for worker in (client, other_worker):
        assert worker.get(TEAM, headers=outsider).status_code == 403
