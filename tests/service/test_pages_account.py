"""The site admin manages one account (``/admin/accounts/{account}`` and its API twin,
``/api/accounts/{account}/...``): sets a new password for an owner who forgot theirs (the
site's log says who, never the password; the account's sessions end), issues another API
token (shown once), revokes the account (its sessions and tokens stop at once). Only an
admin, and never on their own account (ledger/web/pages_account.py, api_accounts.py)."""

from __future__ import annotations

import re

import httpx
import pytest
from fastapi.testclient import TestClient

from ledger.domain import events as ev
from ledger.domain.log import SITE_ID
from ledger.web.auth import SESSION_COOKIE
from tests.service.conftest import World, event_count, ledger_of, password_of, sign_in
from tests.service.test_pages import csrf_in, error_beside, page_text, post
from tests.service.test_pages_password import service_of, signs_in

PAGE = "/admin/accounts/jay"
NEW = "a-forgotten-no-more"


def site_events(client: TestClient) -> list[ev.LedgerEvent]:
    ledger = ledger_of(client)
    return [ledger.source.decode(s) for s in ledger.recorder.select_events(SITE_ID)]


def form_fields(client: TestClient, path: str = PAGE) -> dict[str, str]:
    html = client.get(path).text
    once = re.search(r'name="once" value="([^"]+)"', html)
    assert once, html[-800:]
    return {"csrf": csrf_in(html), "once": once.group(1)}


def set_password(client: TestClient, **fields: str) -> httpx.Response:
    sent = {"password": NEW, "password_again": NEW, **fields}
    return post(client, f"{PAGE}/password", {**form_fields(client), **sent})


def test_the_accounts_list_leads_to_each_account_s_page(client: TestClient) -> None:
    sign_in(client, "admin")
    assert f'href="{PAGE}"' in client.get("/admin/accounts").text
    html = client.get(PAGE).text
    assert "<h1>Account jay</h1>" in html
    assert 'href="/leagues/demo/members">demo</a>: coach of Reikland Reavers' in html
    for form in ("password", "token", "revoke"):
        assert f'action="{PAGE}/{form}"' in html


def test_a_new_password_signs_the_account_out_everywhere_and_the_log_says_who_set_it(
    client: TestClient,
) -> None:
    elsewhere, _ = service_of(client).sessions.start("jay")  # jay, signed in on a phone
    sign_in(client, "admin")
    reply = set_password(client, why="forgot it at the club")
    assert reply.status_code == 303, reply.text[-800:]
    assert reply.headers["location"] == f"{PAGE}?done=password&ended=1"
    shown = client.get(reply.headers["location"]).text
    assert "The password of jay is set, and 1 browser session of it signed out" in shown
    assert NEW not in shown
    assert service_of(client).sessions.find(elsewhere) is None
    assert signs_in(client, "jay", NEW)
    assert not signs_in(client, "jay", password_of("jay"))
    last = site_events(client)[-1]
    assert isinstance(last, ev.PasswordSet)
    assert (last.login, last.account, last.reason) == ("jay", "admin", "forgot it at the club")
    stored = ledger_of(client).recorder.select_events(SITE_ID, desc=True, limit=1)[0]
    assert NEW.encode() not in stored.state
    phone = TestClient(client.app, base_url=str(client.base_url))  # jay's other browser
    phone.cookies.set(SESSION_COOKIE, elsewhere)
    sent_back = phone.get("/account/password", follow_redirects=False)
    assert sent_back.headers["location"] == "/login?next=/account/password&ended=1"
    assert f'{SESSION_COOKIE}=""' in sent_back.headers["set-cookie"]  # the stale cookie goes
    assert "Max-Age=0" in sent_back.headers["set-cookie"]
    said = page_text(phone.get(sent_back.headers["location"]).text)
    assert "Your session has ended: its password was set anew" in said
    fresh = TestClient(client.app, base_url=str(client.base_url))  # never signed in: no such note
    assert fresh.get("/account/password", follow_redirects=False).headers["location"] == (
        "/login?next=/account/password"
    )


@pytest.mark.parametrize(
    ("fields", "field", "sentence"),
    [
        ({"password": "short", "password_again": "short"}, "password", "8 to 1024"),
        ({"password_again": "another-one"}, "password_again", "the two passwords differ"),
        ({"password": "", "password_again": ""}, "password", "give the new password"),
        ({"why": "x" * 2001}, "why", "a reason"),
    ],
)
def test_a_refused_password_is_said_beside_its_field_and_nothing_changes(
    client: TestClient, fields: dict[str, str], field: str, sentence: str
) -> None:
    sign_in(client, "admin")
    before = event_count(client)
    reply = set_password(client, **fields)
    assert reply.status_code == 422
    assert sentence in error_beside(reply.text, field)
    assert not re.search(r'type="password"[^>]*value=', reply.text)
    assert event_count(client) == before
    assert signs_in(client, "jay", password_of("jay"))


def test_an_admin_s_own_account_is_changed_on_the_password_page_only(client: TestClient) -> None:
    sign_in(client, "admin")
    html = client.get("/admin/accounts/admin").text
    assert 'href="/account/password"' in html
    for form in ("password", "token", "revoke"):  # its own tokens it may still revoke
        assert f'action="/admin/accounts/admin/{form}"' not in html
    before = event_count(client)
    fields = {**form_fields(client), "password": NEW, "password_again": NEW}
    reply = post(client, "/admin/accounts/admin/password", fields)
    assert reply.status_code == 409
    assert "admin is the account you act as: change your password on your Password page" in (
        error_beside(reply.text, "password-form")
    )
    revoked = post(client, "/admin/accounts/admin/revoke", form_fields(client))
    assert revoked.status_code == 409
    assert event_count(client) == before
    assert signs_in(client, "admin", password_of("admin"))


def test_a_revoked_account_is_out_at_once_and_offers_nothing_more(
    client: TestClient, world: World
) -> None:
    elsewhere, _ = service_of(client).sessions.start("jay")
    sign_in(client, "admin")
    unticked = post(client, f"{PAGE}/revoke", {**form_fields(client), "reason": "left"})
    assert unticked.status_code == 422  # one click is not enough
    assert "tick the box: jay is to sign in no more" in error_beside(unticked.text, "confirm")
    assert signs_in(client, "jay", password_of("jay"))
    confirmed = {**form_fields(client), "reason": "left the club", "confirm": "1"}
    reply = post(client, f"{PAGE}/revoke", confirmed)
    assert reply.status_code == 303, reply.text[-800:]
    html = client.get(reply.headers["location"]).text
    assert "jay is revoked: it can no longer sign in" in html
    assert f'action="{PAGE}/' not in html  # nothing more to do to it
    assert service_of(client).sessions.find(elsewhere) is None
    assert client.get("/api/session", headers=world.auth("jay")).status_code == 401
    assert not signs_in(client, "jay", password_of("jay"))
    last = site_events(client)[-1]
    assert isinstance(last, ev.AccountRevoked)
    assert (last.login, last.reason) == ("jay", "left the club")
    again = post(
        client, f"{PAGE}/revoke", {**form_fields(client, "/admin/accounts/dan"), "confirm": "1"}
    )
    assert again.status_code == 409
    assert "account 'jay' is already revoked" in error_beside(again.text, "revoked-form")


def test_a_token_issued_is_shown_once_and_works(client: TestClient) -> None:
    sign_in(client, "admin")
    reply = post(client, f"{PAGE}/token", form_fields(client))
    assert reply.status_code == 201, reply.text[-800:]
    assert "shown this once" in reply.text
    token = re.search(r'value="(bbl_[^"]+)"', reply.text)
    assert token
    auth = {"Authorization": f"Bearer {token.group(1)}"}
    assert client.get("/api/session", headers=auth).json()["account"] == "jay"
    listed = client.get(PAGE).text
    assert token.group(1) not in listed
    assert token.group(1).split("_")[1] in listed  # its id, with the others


@pytest.mark.parametrize("form", ["password", "token", "revoke"])
def test_only_an_admin_manages_accounts(client: TestClient, form: str) -> None:
    sign_in(client, "commissioner")
    assert client.get(PAGE).status_code == 403
    before = event_count(client)
    fields = {"csrf": csrf_in(client.get("/").text), "password": NEW, "password_again": NEW}
    reply = post(client, f"{PAGE}/{form}", fields)
    assert reply.status_code == 403
    assert "only an admin may manage accounts" in reply.text
    assert event_count(client) == before
    client.cookies.clear()
    assert client.get(PAGE, follow_redirects=False).headers["location"] == f"/login?next={PAGE}"


def test_no_such_account_is_a_404_and_a_form_without_its_csrf_token_a_403(
    client: TestClient,
) -> None:
    sign_in(client, "admin")
    assert client.get("/admin/accounts/nobody").status_code == 404
    missing = post(client, "/admin/accounts/nobody/revoke", form_fields(client))
    assert missing.status_code == 404
    before = event_count(client)
    fields = {k: v for k, v in form_fields(client).items() if k != "csrf"}
    assert post(client, f"{PAGE}/revoke", fields).status_code == 403
    assert event_count(client) == before


# --- the API ---------------------------------------------------------------------------------


def test_the_api_sets_a_password_and_says_how_many_sessions_ended(
    client: TestClient, world: World
) -> None:
    service_of(client).sessions.start("jay")
    reply = client.post(
        "/api/accounts/jay/password", json={"password": NEW}, headers=world.auth("admin")
    )
    assert reply.status_code == 200, reply.text
    assert reply.json()["sessions_ended"] == 1
    assert signs_in(client, "jay", NEW)
    assert client.get("/api/session", headers=world.auth("jay")).status_code == 200  # tokens stay


@pytest.mark.parametrize(
    ("who", "path", "body", "status", "said"),
    [
        ("commissioner", "jay/password", {"password": NEW}, 403, "only an admin"),
        ("admin", "jay/password", {"password": "short"}, 422, "password"),
        ("admin", "jay/password", {"password": NEW, "extra": 1}, 422, "extra"),
        ("admin", "nobody/password", {"password": NEW}, 404, "no account 'nobody'"),
        ("admin", "admin/password", {"password": NEW}, 409, "the account you act as"),
        ("admin", "admin/revocation", {}, 409, "the account you act as"),
        ("coach", "jay/tokens", None, 403, "only an admin"),
        ("admin", "nobody/tokens", None, 404, "no account 'nobody'"),
    ],
)
def test_the_api_refuses_with_a_problem_and_writes_nothing(
    client: TestClient,
    world: World,
    who: str,
    path: str,
    body: dict[str, object] | None,
    status: int,
    said: str,
) -> None:
    before = event_count(client)
    account = "jay" if who == "coach" else who
    reply = client.post(f"/api/accounts/{path}", json=body, headers=world.auth(account))
    assert reply.status_code == status, reply.text
    assert reply.headers["content-type"] == "application/problem+json"
    assert said in reply.json()["detail"]
    assert event_count(client) == before
    assert signs_in(client, "jay", password_of("jay"))


def test_the_api_revokes_and_a_revoked_account_gets_no_token(
    client: TestClient, world: World
) -> None:
    admin = world.auth("admin")
    reply = client.post("/api/accounts/jay/revocation", json={"reason": "left"}, headers=admin)
    assert reply.status_code == 200, reply.text
    assert client.get("/api/session", headers=world.auth("jay")).status_code == 401
    token = client.post("/api/accounts/jay/tokens", headers=admin)
    assert token.status_code == 409
    assert "account 'jay' is revoked: it can have no token" in token.json()["detail"]
    password = client.post("/api/accounts/jay/password", json={"password": NEW}, headers=admin)
    assert password.status_code == 409


def test_one_token_revoked_from_the_page_stops_alone(client: TestClient, world: World) -> None:
    sign_in(client, "admin")
    issued = post(client, f"{PAGE}/token", form_fields(client))
    second = re.search(r'value="(bbl_[^"]+)"', issued.text)
    assert second
    first_id = world.tokens["jay"].split("_")[1]
    html = client.get(PAGE).text
    action = f"{PAGE}/tokens/{first_id}/revoke"
    assert f'action="{action}"' in html
    reply = post(client, action, {"csrf": csrf_in(html)})
    assert reply.status_code == 303, reply.text[-800:]
    assert "The token is revoked" in client.get(reply.headers["location"]).text
    assert client.get("/api/session", headers=world.auth("jay")).status_code == 401
    second_auth = {"Authorization": f"Bearer {second.group(1)}"}
    assert client.get("/api/session", headers=second_auth).json()["account"] == "jay"
    last = site_events(client)[-1]
    assert isinstance(last, ev.TokenRevoked)
    assert (last.login, last.token) == ("jay", first_id)
    again = post(client, action, {"csrf": csrf_in(html)})
    assert again.status_code == 404
    assert "has no working token" in error_beside(again.text, "token-revoked-form")


def test_the_api_revokes_one_token(client: TestClient, world: World) -> None:
    token_id = world.tokens["jay"].split("_")[1]
    path = f"/api/accounts/jay/tokens/{token_id}"
    reply = client.delete(path, params={"reason": "leaked"}, headers=world.auth("admin"))
    assert reply.status_code == 200, reply.text
    assert client.get("/api/session", headers=world.auth("jay")).status_code == 401
    assert client.delete(path, headers=world.auth("admin")).status_code == 404
    assert client.delete(path, headers=world.auth("commissioner")).status_code == 403


def test_the_token_form_sent_twice_issues_one_token(client: TestClient) -> None:
    """A double click, or the token's page reloaded: the second send goes to the account's
    page saying a token was shown already, and no second token nobody saw is issued."""
    sign_in(client, "admin")
    fields = form_fields(client)
    first = post(client, f"{PAGE}/token", fields)
    assert first.status_code == 201, first.text[-800:]
    assert "x-ledger-kept-as" not in first.headers
    tokens = service_of(client).credentials.tokens("jay")
    before = [t for t, _, revoked in tokens if revoked is None]
    again = post(client, f"{PAGE}/token", fields)
    assert again.status_code == 303
    assert again.headers["location"] == f"{PAGE}?done=token-shown"
    assert "This form issued a token already" in client.get(again.headers["location"]).text
    after = [t for t, _, revoked in service_of(client).credentials.tokens("jay") if revoked is None]
    assert after == before


def test_the_sign_in_page_keeps_the_address_asked_whole_and_a_live_cookie_stays(
    client: TestClient,
) -> None:
    """The address asked comes back quoted, query and all (an '&' in it injects nothing);
    a wrong token sent beside a live session's cookie does not end that session."""
    asked = client.get("/leagues/nope%26ended%3D1/whatif?a=1&b=2", follow_redirects=False)
    quoted = "/leagues/nope%26ended%3D1/whatif%3Fa%3D1%26b%3D2"
    assert asked.headers["location"] == f"/login?next={quoted}"
    live, _ = service_of(client).sessions.start("jay")
    client.cookies.set(SESSION_COOKIE, live)
    wrong = client.get(
        "/account/password", headers={"Authorization": "Bearer nope"}, follow_redirects=False
    )
    assert "ended" not in wrong.headers.get("location", "")
    assert "set-cookie" not in wrong.headers
    assert service_of(client).sessions.find(live) is not None
