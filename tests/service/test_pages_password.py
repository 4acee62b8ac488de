"""A signed-in account changes its own password (``/account/password``, linked from every
page's header): the current one checked as a sign-in checks it (argon2, and the same
count of failures), the new one typed twice within the application's bounds; done, the
account's other sessions end. No password is ever sent back, kept in a form's key or
logged (ledger/web/pages_password.py)."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from ledger.application.access import Principal
from ledger.errors import Unauthenticated
from ledger.web.app import Service
from ledger.web.auth import SESSION_COOKIE
from ledger.web.idempotency import IDEMPOTENCY
from tests.service.conftest import password_of, sign_in
from tests.service.test_pages import csrf_in, error_beside, post

PAGE = "/account/password"
NEW = "a-new-secret-phrase"


def service_of(client: TestClient) -> Service:
    service: Service = client.app.state.service  # type: ignore[attr-defined]
    return service


def signs_in(client: TestClient, account: str, password: str) -> bool:
    try:
        found: Principal = service_of(client).credentials.sign_in(account, password)
    except Unauthenticated:
        return False
    return found.account == account


def change(client: TestClient, current: str, new: str = NEW, again: str | None = None) -> Any:
    csrf = csrf_in(client.get(PAGE).text)
    fields = {"current_password": current, "password": new, "password_again": again or new}
    return post(client, PAGE, {"csrf": csrf, **fields})


def shows_no_password(html: str, *passwords: str) -> None:
    for password in passwords:
        assert password not in html
    assert not re.search(r'type="password"[^>]*value=', html)


def test_the_header_links_the_page_for_a_signed_in_account_only(client: TestClient) -> None:
    assert f'href="{PAGE}"' not in client.get("/").text
    sign_in(client, "dan")
    assert f'href="{PAGE}"' in client.get("/").text


def test_an_account_changes_its_password_and_its_other_sessions_end(client: TestClient) -> None:
    elsewhere, _ = service_of(client).sessions.start("dan")  # dan signed in on another device
    someone_else, _ = service_of(client).sessions.start("jay")
    sign_in(client, "dan")
    reply = change(client, password_of("dan"))
    assert reply.status_code == 303, reply.text[-800:]
    assert reply.headers["location"] == f"{PAGE}?changed=1"
    done = client.get(reply.headers["location"])
    assert "Your password is changed" in done.text
    assert client.get("/api/session").json()["account"] == "dan"  # this session stays
    sessions = service_of(client).sessions
    assert sessions.find(elsewhere) is None
    assert sessions.find(someone_else) is not None  # another account's: untouched
    assert signs_in(client, "dan", NEW)
    assert not signs_in(client, "dan", password_of("dan"))
    client.cookies.clear()
    sign_in(client, "dan", NEW)  # through the login form, as a browser


def test_a_wrong_current_password_changes_nothing_and_counts_as_a_failed_sign_in(
    client: TestClient,
) -> None:
    sign_in(client, "dan")
    reply = change(client, "not-dans-password")
    assert reply.status_code == 403
    assert "that is not your current password" in error_beside(reply.text, "current_password")
    shows_no_password(reply.text, "not-dans-password", NEW)
    assert signs_in(client, "dan", password_of("dan"))
    assert not signs_in(client, "dan", NEW)
    assert len(service_of(client).attempts.failures["account:dan"]) == 1


def test_past_the_sign_in_limit_even_the_right_password_is_refused_with_429(
    client: TestClient,
) -> None:
    sign_in(client, "dan")
    for _ in range(service_of(client).attempts.limit_account):
        assert change(client, "guess-guess").status_code == 403
    locked = change(client, password_of("dan"))
    assert locked.status_code == 429
    assert int(locked.headers["Retry-After"]) > 0
    assert "too many failed sign-ins" in error_beside(locked.text, "current_password")
    assert not signs_in(client, "dan", NEW)


@pytest.mark.parametrize(
    ("new", "again", "field", "sentence"),
    [
        (NEW, NEW + "x", "password_again", "the two new passwords differ"),
        ("short", "short", "password", "a password needs 8 to 1024 characters (this one has 5)"),
        ("", "", "password", "give the new password"),
    ],
)
def test_a_new_password_refused_changes_nothing_and_is_not_sent_back(
    client: TestClient, new: str, again: str, field: str, sentence: str
) -> None:
    sign_in(client, "dan")
    reply = change(client, password_of("dan"), new, again)
    assert reply.status_code == 422
    assert sentence in error_beside(reply.text, field)
    shows_no_password(reply.text, password_of("dan"), NEW)
    assert signs_in(client, "dan", password_of("dan"))
    assert "account:dan" not in service_of(client).attempts.failures  # not a failed sign-in


def test_a_form_without_its_csrf_token_is_refused_with_403(client: TestClient) -> None:
    sign_in(client, "dan")
    fields = {"current_password": password_of("dan"), "password": NEW, "password_again": NEW}
    reply = post(client, PAGE, fields)
    assert reply.status_code == 403
    assert "CSRF" in reply.text
    shows_no_password(reply.text, password_of("dan"), NEW)
    assert not signs_in(client, "dan", NEW)


def test_signed_out_the_page_sends_to_sign_in_and_the_form_is_refused_with_401(
    client: TestClient,
) -> None:
    shown = client.get(PAGE, follow_redirects=False)
    assert shown.status_code == 303
    assert shown.headers["location"] == f"/login?next={PAGE}"
    fields = {"current_password": password_of("dan"), "password": NEW, "password_again": NEW}
    sent = post(client, PAGE, fields)
    assert sent.status_code == 401
    assert "text/html" in sent.headers["content-type"]
    assert not signs_in(client, "dan", NEW)


def test_no_password_is_logged_or_kept_beside_a_forms_key(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    sign_in(client, "dan")
    html = client.get(PAGE).text
    assert 'name="once"' not in html  # no key: its row would keep a quick hash of the form
    wrong = change(client, "wrong-current-one")
    short = change(client, password_of("dan"), "tiny", "tiny")
    done = change(client, password_of("dan"))
    assert (wrong.status_code, short.status_code, done.status_code) == (403, 422, 303)
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    for password in ("wrong-current-one", "tiny", password_of("dan"), NEW):
        assert password not in logged
    engine = service_of(client).ledger.read_models.engine
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(IDEMPOTENCY)).scalar() == 0
    assert SESSION_COOKIE in client.cookies
