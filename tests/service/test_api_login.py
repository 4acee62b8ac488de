"""A refused sign-in from the browser's form is the form again, with the one-line reason
and the right status, never a JSON document, and never a hint that the account exists."""

from __future__ import annotations

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import password_of


def login(client: TestClient, account: str, password: str, csrf: str = "t") -> httpx.Response:
    client.cookies.set("ledger_csrf", "t")
    reply: httpx.Response = client.post(
        "/login",
        data={"account": account, "password": password, "csrf": csrf, "next": "/leagues/demo"},
        follow_redirects=False,
    )
    return reply


@pytest.mark.parametrize("account", ["jay", "nobody-by-that-name"])
def test_a_wrong_password_shows_the_form_again_with_the_reason(
    client: TestClient, account: str
) -> None:
    reply = login(client, account, "not-the-password")
    assert reply.status_code == 401
    assert reply.headers["content-type"].startswith("text/html")
    page = reply.text
    assert '<form method="post" action="/login"' in page
    assert 'role="alert"' in page
    assert "wrong account name or password" in page
    assert f'value="{account}"' in page  # what was typed stays; the password does not
    assert "not-the-password" not in page
    assert 'name="next" value="/leagues/demo"' in page
    assert "ledger_session" not in client.cookies


def test_an_unknown_account_and_a_wrong_password_read_the_same(client: TestClient) -> None:
    known = login(client, "jay", "not-the-password").text
    unknown = login(client, "jayy", "not-the-password").text
    assert known.replace('value="jay"', "") == unknown.replace('value="jayy"', "")


def test_too_many_failures_is_429_on_the_form_with_retry_after(client: TestClient) -> None:
    for _ in range(5):
        assert login(client, "dan", "wrong").status_code == 401
    blocked = login(client, "dan", password_of("dan"))
    assert blocked.status_code == 429
    assert int(blocked.headers["retry-after"]) > 0
    assert "too many failed sign-ins" in blocked.text
    assert "ledger_session" not in client.cookies


def test_a_forged_login_form_is_403_on_the_form(client: TestClient) -> None:
    reply = login(client, "jay", password_of("jay"), csrf="forged")
    assert reply.status_code == 403
    assert "reload" in reply.text
    assert 'name="csrf" value="t"' in reply.text
    assert "ledger_session" not in client.cookies


def test_the_right_password_still_signs_in(client: TestClient) -> None:
    reply = login(client, "jay", password_of("jay"))
    assert reply.status_code == 303
    assert reply.headers["location"] == "/leagues/demo"


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"account": "jay"}, "give the account&#39;s name and its password"),
        ({"password": "whatever-it-is"}, "give the account&#39;s name and its password"),
        ({"account": "j" * 65, "password": "x"}, "an account&#39;s name is at most 64 characters"),
        ({"account": "jay", "password": "p" * 1025}, "a password is at most 1024 characters"),
    ],
    ids=["no password", "no account", "account too long", "password too long"],
)
def test_a_login_form_missing_or_overlong_is_the_form_again(
    client: TestClient, data: dict[str, str], says: str
) -> None:
    """An edited or scripted form: the form again with the sentence, not a JSON document."""
    client.cookies.set("ledger_csrf", "t")
    reply = client.post("/login", data={"csrf": "t", **data}, follow_redirects=False)
    assert reply.status_code == 422
    assert reply.headers["content-type"].startswith("text/html")
    assert '<form method="post" action="/login"' in reply.text
    assert says in reply.text
    assert "p" * 1025 not in reply.text
    assert "ledger_session" not in client.cookies


def test_signing_out_without_the_csrf_token_is_a_page_and_keeps_the_session(
    client: TestClient,
) -> None:
    login(client, "jay", password_of("jay"))
    reply = client.post("/logout", data={}, follow_redirects=False)
    assert reply.status_code == 403
    assert reply.headers["content-type"].startswith("text/html")
    assert "csrf" in reply.text.lower()
    assert client.get("/leagues/demo").status_code == 200  # still signed in


@pytest.mark.parametrize(
    ("account", "lands"),
    [("jay", "/leagues/demo"), ("commissioner", "/leagues/demo"), ("admin", "/")],
)
def test_a_sign_in_from_the_home_page_lands_on_the_accounts_only_league(
    client: TestClient, account: str, lands: str
) -> None:
    """A coach or commissioner of one league goes there; an admin (every league) home."""
    client.cookies.set("ledger_csrf", "t")
    fields = {"account": account, "password": password_of(account), "csrf": "t", "next": "/"}
    reply = client.post("/login", data=fields, follow_redirects=False)
    assert reply.status_code == 303
    assert reply.headers["location"] == lands
