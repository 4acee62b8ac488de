"""Secrets stay secret, sign-ins are limited, cookies need their CSRF token, and a
sign-in always makes a new session id."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import LEAGUE, World, event_count, password_of, sign_in

HIRE = f"/api/leagues/{LEAGUE}/teams/reikland-reavers/players"
LINEMAN = {"position": "lineman", "name": "Fresh"}


def test_passwords_and_tokens_never_appear_in_responses_or_logs(
    client: TestClient, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    answers = [sign_in(client, "jay")]
    client.cookies.clear()
    made = client.post(
        "/api/accounts",
        json={"account": "newcomer", "password": "a-new-password", "token": True},
        headers=world.auth("admin"),
    )
    new_token = made.json()["token"]  # shown once, in that answer only
    for path in ("", "/events?limit=500", "/export", "/audit", "/teams/reikland-reavers"):
        answers.append(client.get(f"/api/leagues/{LEAGUE}{path}", headers=world.auth("admin")).text)
    answers.append(client.get("/api/session", headers=world.auth("jay")).text)
    wrong = client.post("/login", data={"account": "jay", "password": "jay-password-x"})
    answers.append(wrong.text)
    everything = "\n".join([*answers, caplog.text])
    for secret in (password_of("jay"), "a-new-password", new_token, *world.tokens.values()):
        assert secret not in everything
    assert "argon2" not in everything


def test_sign_ins_are_limited_per_account(client: TestClient) -> None:
    client.cookies.set("ledger_csrf", "t")
    form = {"account": "dan", "csrf": "t"}
    for _ in range(5):
        reply = client.post("/login", data={**form, "password": "wrong-password"})
        assert reply.status_code in (401, 200)  # the form again, with the reason
    blocked = client.post("/login", data={**form, "password": password_of("dan")})
    assert blocked.status_code == 429
    assert int(blocked.headers["retry-after"]) > 0
    client.cookies.set("ledger_csrf", "t")
    other = client.post(
        "/login",
        data={"account": "rob", "password": password_of("rob"), "csrf": "t"},
        follow_redirects=False,
    )
    assert other.status_code == 303  # another account from the same address still may


def test_the_login_form_needs_its_csrf_token(client: TestClient) -> None:
    client.cookies.set("ledger_csrf", "expected")
    reply = client.post(
        "/login", data={"account": "jay", "password": password_of("jay"), "csrf": "forged"}
    )
    assert reply.status_code == 403
    assert "ledger_session" not in client.cookies


def test_a_cookie_post_needs_the_sessions_csrf_token(client: TestClient) -> None:
    csrf = sign_in(client, "jay")
    before = event_count(client)
    assert client.post(HIRE, json=LINEMAN).status_code == 403
    assert client.post(HIRE, json=LINEMAN, headers={"X-CSRF-Token": "forged"}).status_code == 403
    assert event_count(client) == before
    done = client.post(HIRE, json=LINEMAN, headers={"X-CSRF-Token": csrf})
    assert done.status_code == 201


def session_ids(client: TestClient) -> list[str]:
    return [c.value or "" for c in client.cookies.jar if c.name == "ledger_session"]


def test_the_session_id_changes_at_sign_in(client: TestClient) -> None:
    client.cookies.set("ledger_session", "planted-by-someone-else", domain="testserver.local")
    sign_in(client, "jay")
    first = session_ids(client)
    assert len(first) == 1
    assert first[0] != "planted-by-someone-else"
    sign_in(client, "jay")
    assert session_ids(client) != first
    client.cookies.clear()
    client.cookies.set("ledger_session", first[0], domain="testserver.local")
    assert client.get("/api/session").json()["account"] is None  # the old id opens nothing


def test_sign_in_redirects_only_within_the_site(client: TestClient) -> None:
    client.cookies.set("ledger_csrf", "t")
    reply = client.post(
        "/login",
        data={
            "account": "jay",
            "password": password_of("jay"),
            "csrf": "t",
            "next": "//evil.example/",
        },
        follow_redirects=False,
    )
    assert reply.headers["location"] == "/leagues/demo"  # as from home: jay's only league
