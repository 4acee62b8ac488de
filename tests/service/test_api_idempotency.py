"""``Idempotency-Key`` beyond one worker's life: a key whose worker died mid-request is
taken over by the retry (the write made once, never twice), and what makes two requests
the same includes the query string."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx import Response

from ledger.errors import ConcurrentUpdate
from ledger.web.idempotency import IDEMPOTENCY, Idempotency, fingerprint
from ledger.web.problems import from_error
from tests.service.conftest import LEAGUE, World, event_count
from tests.service.test_api_reports import FRIENDLY

ADJUST = f"/api/leagues/{LEAGUE}/treasury-adjustments"
BODY = json.dumps({"team": "reikland-reavers", "amount": 1000, "reason": "a gift"}).encode()


def dead_pid() -> int:
    """The id of a process of this machine that has ended (and been reaped)."""
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(ended.stdout)


def store_of(client: TestClient) -> Idempotency:
    app: FastAPI = client.app  # type: ignore[assignment]
    store: Idempotency = app.state.service.idempotency
    return store


def reserved(
    client: TestClient, key: str, holder: str | None, ago: timedelta = timedelta()
) -> None:
    """A reservation of ``key`` for the commissioner's treasury adjustment, left as a
    worker that died while running it leaves it."""
    with store_of(client).engine.begin() as conn:
        conn.execute(
            IDEMPOTENCY.insert().values(
                account="commissioner",
                key=key,
                fingerprint=fingerprint("POST", ADJUST, BODY),
                created_at=(datetime.now(UTC) - ago).isoformat(),
                **({"holder": holder} if holder else {}),
            )
        )


def adjust(client: TestClient, world: World, key: str) -> Response:
    headers = {**world.auth("commissioner"), "Idempotency-Key": key}
    return client.post(
        ADJUST, content=BODY, headers={**headers, "Content-Type": "application/json"}
    )


def test_a_key_whose_worker_died_is_run_by_the_retry(client: TestClient, world: World) -> None:
    reserved(client, "k-dead", f"{dead_pid()}@{socket.gethostname()}/req-never-recorded")
    before = event_count(client)
    retried = adjust(client, world, "k-dead")
    assert retried.status_code == 201, retried.text
    assert event_count(client) == before + 1
    again = adjust(client, world, "k-dead")
    assert again.status_code == 201
    assert again.headers["idempotent-replayed"] == "true"
    assert event_count(client) == before + 1


def test_a_key_held_elsewhere_waits_for_its_lease(client: TestClient, world: World) -> None:
    reserved(client, "k-young", "4242@another-machine/req-a")
    reserved(client, "k-old", "4242@another-machine/req-b", ago=timedelta(minutes=6))
    before = event_count(client)
    waiting = adjust(client, world, "k-young")
    assert waiting.status_code == 409
    assert waiting.headers["retry-after"] == "1"
    assert waiting.json()["title"] == "Still running"
    assert adjust(client, world, "k-old").status_code == 201
    assert event_count(client) == before + 1


def test_a_reservation_that_names_no_holder_expires_with_its_lease(
    client: TestClient, world: World
) -> None:
    reserved(client, "k-before", None, ago=timedelta(minutes=6))  # made before holders
    before = event_count(client)
    assert adjust(client, world, "k-before").status_code == 201
    assert event_count(client) == before + 1


def test_a_table_made_before_holders_gets_the_column(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    old = sa.MetaData()
    sa.Table(
        IDEMPOTENCY.name,
        old,
        sa.Column("account", sa.String(64), primary_key=True),
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer, nullable=True),
        sa.Column("body", sa.LargeBinary, nullable=True),
        sa.Column("etag", sa.String(40), nullable=True),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    old.create_all(engine)
    Idempotency(engine)
    Idempotency(engine)  # a second worker starting: nothing to add
    columns = {column["name"] for column in sa.inspect(engine).get_columns(IDEMPOTENCY.name)}
    assert "holder" in columns
    engine.dispose()


def test_a_key_whose_worker_died_after_recording_is_not_recorded_twice(
    client: TestClient, world: World
) -> None:
    first = client.post(
        ADJUST,
        content=BODY,
        headers={**world.auth("commissioner"), "Content-Type": "application/json"},
    )
    assert first.status_code == 201
    dead = first.headers["x-request-id"]  # as if its worker died before keeping the answer
    reserved(client, "k-lost", f"{dead_pid()}@{socket.gethostname()}/{dead}", timedelta(seconds=1))
    before = event_count(client)
    for _ in range(2):
        retried = adjust(client, world, "k-lost")
        assert retried.status_code == 409
        assert retried.json()["code"] == "idempotency-answer-lost"
        assert dead in retried.json()["detail"]
    assert event_count(client) == before


def test_the_same_key_with_another_query_is_another_request(
    client: TestClient, world: World
) -> None:
    reports = f"/api/leagues/{LEAGUE}/reports"
    headers = {**world.auth("jay"), "Idempotency-Key": "report-1"}
    first = client.post(reports, json=FRIENDLY, headers=headers)
    assert first.status_code == 201, first.text
    before = event_count(client)
    other = client.post(reports, params={"roll_missing": True}, json=FRIENDLY, headers=headers)
    assert other.status_code == 422
    assert other.json()["code"] == "idempotency-key-reused"
    assert event_count(client) == before


def test_a_concurrent_writers_409_is_not_titled_a_refusal_of_the_books() -> None:
    said = from_error(ConcurrentUpdate("the ledger kept changing while this ran"))
    assert said.status_code == 409
    assert json.loads(bytes(said.body))["title"] == "Another request got in first"


def test_a_password_and_a_new_token_are_not_kept_with_their_key(
    client: TestClient, world: World
) -> None:
    """The key's row kept a SHA-256 of a body holding the password (quick to guess it
    from) and the answer holding the new token in the clear: the fingerprint leaves the
    password out, and the kept answer says the token null (a replay does not show it)."""
    body = {"account": "newbie", "password": "correct horse battery", "token": True}
    headers = {**world.auth("admin"), "Idempotency-Key": "k-account"}
    first = client.post("/api/accounts", json=body, headers=headers)
    assert first.status_code == 201, first.text
    token = first.json()["token"]
    assert token
    replay = client.post("/api/accounts", json=body, headers=headers)
    assert replay.status_code == 201
    assert replay.headers["idempotent-replayed"] == "true"
    assert replay.json()["token"] is None
    with store_of(client).engine.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(sa.select(IDEMPOTENCY))]
    kept = repr(rows)
    assert token not in kept
    assert "correct horse battery" not in kept
    hashed = fingerprint("POST", "/api/accounts", json.dumps(body).encode())
    assert all(row["fingerprint"] != hashed for row in rows)
