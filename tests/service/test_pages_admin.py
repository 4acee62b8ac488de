"""The site admin's pages (TestClient): creating a league with its ruleset's options and,
if asked, points of its own; the site's accounts, and adding one with a password or a
token shown once. Only an admin may open them; every refusal is the form again, as
filled (but for a password), with the command's sentence beside its field.

The ledger holds the played demo league (BB2025) and its accounts (conftest.py)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from ledger.domain.log import SITE_ID, league_id
from ledger.web.idempotency import IDEMPOTENCY, fingerprint
from tests.service.conftest import World, event_count, ledger_of, sign_in
from tests.service.test_pages import csrf_in, error_beside, post

NEW = "/admin/leagues/new"
ACCOUNTS = "/admin/accounts"
PASSWORDS = ("password", "password_again")


def form_for(client: TestClient, path: str) -> dict[str, str]:
    """The hidden fields of the page's POST form: its CSRF token and its key."""
    html = client.get(path).text
    once = re.search(r'name="once" value="([^"]+)"', html)
    assert once, html[-800:]
    return {"csrf": csrf_in(html), "once": once.group(1)}


def league_fields(client: TestClient, **fields: Any) -> dict[str, Any]:
    return {**form_for(client, NEW), "ruleset": "bb2025", "name": "Second League", **fields}


def value_of(html: str, field: str) -> str:
    found = re.search(rf'id="{field}" name="{field}"[^>]*value="([^"]*)"', html)
    assert found, f"no value for {field}"
    return found.group(1)


def stored(client: TestClient, slug: str) -> dict[str, Any]:
    ledger = ledger_of(client)
    row = ledger.league_row(slug)
    first = ledger.recorder.select_events(league_id(slug), limit=1)[0]
    return {"row": row, "event": ledger.source.decode(first)}


# --- create a league ---------------------------------------------------------------------------


def test_the_home_page_offers_the_admin_pages_to_an_admin_only(client: TestClient) -> None:
    sign_in(client, "admin")
    html = client.get("/").text
    assert f'href="{NEW}"' in html
    assert f'href="{ACCOUNTS}"' in html
    client.cookies.clear()
    sign_in(client, "commissioner")
    html = client.get("/").text
    assert NEW not in html
    assert ACCOUNTS not in html


def test_the_form_offers_every_ruleset_and_the_chosen_one_s_options(client: TestClient) -> None:
    sign_in(client, "admin")
    html = client.get(NEW).text
    for ruleset in ("bb2025", "bb2020", "lrb6", "lrb6-zal", "gold4", "dz3"):
        assert f'<option value="{ruleset}"' in html
    assert '<select id="bonus_points" name="bonus_points"' in html  # BB2025's, typed
    assert 'name="redraft_cap" value="true" checked' in html
    assert 'name="win"' not in html  # the ruleset's points, unless asked for
    dz3 = client.get(NEW, params={"ruleset": "dz3"}).text
    assert '<input type="hidden" name="ruleset" value="dz3">' in dz3
    assert 'name="forfeit_penalties" value="income"' in dz3  # a set of choices: checkboxes
    assert "bonus_points" not in dz3


def test_an_admin_creates_a_league_under_a_ruleset_with_its_options(client: TestClient) -> None:
    sign_in(client, "admin")
    fields = league_fields(
        client, ruleset="gold4", slug="gold-cup", appearance_fees="balanced", reason="a new cup"
    )
    reply = post(client, NEW, fields)  # secret_weapons unticked: off
    assert reply.status_code == 303, reply.text[-1500:]
    assert reply.headers["location"] == "/leagues/gold-cup?done=created"
    assert "The league is created: register its teams" in client.get(reply.headers["location"]).text
    made = stored(client, "gold-cup")
    assert (made["row"].name, made["row"].ruleset) == ("Second League", "gold4")
    assert made["row"].options["appearance_fees"] == "balanced"
    assert made["row"].options["secret_weapons"] is False
    assert made["row"].points is None  # the ruleset's
    event = made["event"]
    assert (event.account, event.acting_as, event.via) == ("admin", "admin", "web")
    assert event.reason == "a new cup"
    assert client.get("/leagues/gold-cup").status_code == 200


def test_a_league_sets_its_own_points_and_tie_breakers(client: TestClient) -> None:
    sign_in(client, "admin")
    html = client.get(NEW, params={"ruleset": "bb2025", "points": "own"}).text
    assert value_of(html, "win") == "3"  # filled with the ruleset's
    assert '<option value="touchdown_difference" selected>' in html
    fields = {
        **league_fields(client, slug="own-points", points="own"),
        "win": "2",
        "draw": "1",
        "loss": "0",
        "bonus": ["clean_sheet", "three_touchdowns"],
        "bonus_mode": "tiebreak",
        "tiebreaker-1": "wins",
        "tiebreaker-2": "",
        "tiebreaker-3": "head_to_head",
    }
    reply = post(client, NEW, fields)
    assert reply.status_code == 303, reply.text[-1500:]
    assert stored(client, "own-points")["row"].points == {
        "win": 2,
        "draw": 1,
        "loss": 0,
        "bonus": ["clean_sheet", "three_touchdowns"],
        "bonus_mode": "tiebreak",
        "tiebreakers": ["wins", "head_to_head"],
    }


def test_a_taken_slug_is_refused_beside_it_with_the_form_as_filled(client: TestClient) -> None:
    sign_in(client, "admin")
    before = event_count(client)
    reply = post(client, NEW, league_fields(client, slug="demo", bonus_points="added"))
    assert reply.status_code == 409
    assert "a league 'demo' already exists" in error_beside(reply.text, "slug")
    assert value_of(reply.text, "name") == "Second League"
    assert '<option value="added" selected>' in reply.text
    assert event_count(client) == before


def test_a_slug_the_books_cannot_hold_is_refused_beside_it(client: TestClient) -> None:
    sign_in(client, "admin")
    reply = post(client, NEW, league_fields(client, slug="Second League"))
    assert reply.status_code == 422
    assert "lower-case letters, digits and dashes" in error_beside(reply.text, "slug")


def test_an_empty_league_form_names_its_slug_and_its_name_at_once(client: TestClient) -> None:
    sign_in(client, "admin")
    reply = post(client, NEW, league_fields(client, slug="", name=""))
    assert reply.status_code == 422
    assert "give the league a slug" in error_beside(reply.text, "slug")
    assert "give the league a name" in error_beside(reply.text, "name")


def test_an_unknown_ruleset_is_refused_with_the_closest_known_name(client: TestClient) -> None:
    sign_in(client, "admin")
    shown = client.get(NEW, params={"ruleset": "bb2052"})
    assert shown.status_code == 404
    assert "did you mean 'bb2025'?" in error_beside(shown.text, "ruleset")
    before = event_count(client)
    sent = post(client, NEW, league_fields(client, slug="typo", ruleset="bb2052"))
    assert sent.status_code == 404
    assert "unknown ruleset 'bb2052'" in error_beside(sent.text, "ruleset")
    assert event_count(client) == before


def test_an_option_outside_its_choices_is_refused_beside_it(client: TestClient) -> None:
    sign_in(client, "admin")
    reply = post(client, NEW, league_fields(client, slug="bad", bonus_points="sometimes"))
    assert reply.status_code == 422
    assert "bonus_points: must be 'none', 'added' or 'tiebreak'" in error_beside(
        reply.text, "bonus_points"
    )
    assert '<a href="#bonus_points-error">' in reply.text  # and atop the long form


@pytest.mark.parametrize(
    ("changes", "field", "sentence"),
    [
        ({"win": "0", "loss": "1"}, "points", "a win must give more league points than a loss"),
        ({"tiebreaker-2": "wins", "tiebreaker-4": "wins"}, "points", "'wins' is named twice"),
        ({"draw": "one"}, "draw", "a draw is a whole number from 0 to 50, not 'one'"),
    ],
)
def test_points_the_league_could_not_count_by_are_refused(
    client: TestClient, changes: dict[str, str], field: str, sentence: str
) -> None:
    sign_in(client, "admin")
    points = {"win": "3", "draw": "1", "loss": "0", "bonus_mode": "added", "tiebreaker-1": "wins"}
    fields = {**league_fields(client, slug="pts", points="own"), **points, **changes}
    reply = post(client, NEW, fields)
    assert reply.status_code == 422
    assert sentence in error_beside(reply.text, field)
    assert value_of(reply.text, "slug") == "pts"


# --- the API's body: what the command line takes ------------------------------------------


def test_the_api_takes_a_league_s_own_points_over_the_ruleset_s(
    client: TestClient, world: World
) -> None:
    body = {
        "slug": "api-points",
        "name": "API Points",
        "ruleset": "bb2025",
        "options": {"bonus_points": "added"},
        "points": {"win": 2, "tiebreakers": ["wins"]},
        "reason": "from a script",
    }
    reply = client.post("/api/leagues", json=body, headers=world.auth("admin"))
    assert reply.status_code == 201, reply.text
    made = stored(client, "api-points")
    # the parts not given are the ruleset's, as its options set them (bonus points added)
    assert made["row"].points["win"] == 2
    assert made["row"].points["tiebreakers"] == ["wins"]
    assert made["row"].points["bonus"] == ["three_touchdowns", "clean_sheet", "three_casualties"]
    assert made["event"].reason == "from a script"
    wrong = client.post(
        "/api/leagues",
        json={**body, "slug": "api-bad", "points": {"win": 0, "loss": 1}},
        headers=world.auth("admin"),
    )
    assert wrong.status_code == 422
    assert wrong.json()["code"] == "invalid-option"


# --- who may ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [NEW, ACCOUNTS])
def test_a_coach_and_the_commissioner_get_a_403_and_write_nothing(
    client: TestClient, path: str
) -> None:
    for account in ("jay", "commissioner"):
        client.cookies.clear()
        csrf = sign_in(client, account)
        shown = client.get(path)
        assert shown.status_code == 403
        assert "only an admin may" in shown.text
        before = event_count(client)
        data = {"csrf": csrf, "slug": "x", "name": "X", "ruleset": "bb2025", "account": "x"}
        assert post(client, path, {**data, "password": "long-enough"}).status_code == 403
        assert event_count(client) == before


@pytest.mark.parametrize("path", [NEW, ACCOUNTS])
def test_a_visitor_is_sent_to_sign_in_and_a_post_without_an_account_is_401(
    client: TestClient, path: str
) -> None:
    shown = client.get(path, follow_redirects=False)
    assert shown.status_code == 303
    assert shown.headers["location"] == f"/login?next={path}"
    before = event_count(client)
    data = {"slug": "x", "name": "X", "ruleset": "bb2025", "account": "x"}
    assert post(client, path, {**data, "password": "long-enough"}).status_code == 401
    assert event_count(client) == before


@pytest.mark.parametrize("path", [NEW, ACCOUNTS])
def test_a_form_without_its_csrf_token_is_refused(client: TestClient, path: str) -> None:
    sign_in(client, "admin")
    before = event_count(client)
    for csrf in ({}, {"csrf": "forged"}):
        data = {**csrf, "slug": "x", "name": "X", "ruleset": "bb2025", "account": "x"}
        reply = post(client, path, {**data, "password": "long-enough"})
        assert reply.status_code == 403
        assert "csrf" in reply.text
    assert event_count(client) == before


# --- accounts ---------------------------------------------------------------------------------


def account_fields(client: TestClient, **fields: str) -> dict[str, str]:
    return {**form_for(client, ACCOUNTS), "account": "newbie", "name": "New Bie", **fields}


def test_the_accounts_page_lists_every_account_and_its_roles_never_a_secret(
    client: TestClient, world: World
) -> None:
    sign_in(client, "admin")
    html = client.get(ACCOUNTS).text
    for account in ("admin", "commissioner", "jay", "outsider"):
        assert f"<code>{account}</code>" in html
    assert 'href="/leagues/demo/members">demo</a>: coach of Reikland Reavers' in html
    assert "$argon2" not in html
    assert not any(token in html for token in world.tokens.values())


def test_an_admin_adds_an_account_that_signs_in_with_the_password_set(
    client: TestClient,
) -> None:
    sign_in(client, "admin")
    secret = "a-long-secret-phrase"
    fields = account_fields(client, password=secret, password_again=secret)
    reply = post(client, ACCOUNTS, fields)
    assert reply.status_code == 303, reply.text[-1500:]
    assert reply.headers["location"] == f"{ACCOUNTS}?added=newbie#account-newbie"
    listed = client.get(reply.headers["location"]).text
    assert "Account newbie added." in listed
    assert secret not in listed
    added = ledger_of(client).recorder.select_events(SITE_ID, desc=True, limit=1)[0]
    assert secret.encode() not in added.state
    # the form's key is kept without the password: a SHA-256 of it is quick to guess from
    with ledger_of(client).read_models.engine.connect() as conn:
        kept = conn.execute(sa.select(IDEMPOTENCY.c.fingerprint)).scalars().all()
    without = {k: v for k, v in fields.items() if not k.startswith("password")}
    assert fingerprint("POST", ACCOUNTS, urlencoded(without)) in kept
    assert fingerprint("POST", ACCOUNTS, urlencoded(fields)) not in kept
    client.cookies.clear()
    sign_in(client, "newbie", secret)


def urlencoded(fields: dict[str, str]) -> bytes:
    return urlencode(list(fields.items())).encode()


def test_a_token_asked_for_is_shown_once_and_works(client: TestClient) -> None:
    sign_in(client, "admin")
    reply = post(client, ACCOUNTS, account_fields(client, token="true", admin="true"))
    assert reply.status_code == 201, reply.text[-1500:]
    assert reply.headers["cache-control"] == "no-store"
    assert "shown this once" in reply.text
    token = re.search(r'value="(bbl_[^"]+)"', reply.text)
    assert token
    whoami = client.get("/api/accounts", headers={"Authorization": f"Bearer {token.group(1)}"})
    assert whoami.status_code == 200  # an admin's token
    assert token.group(1) not in client.get(ACCOUNTS).text
    with ledger_of(client).read_models.engine.connect() as conn:
        bodies = conn.execute(sa.select(IDEMPOTENCY.c.body)).scalars().all()
    assert not any(body and token.group(1).encode() in body for body in bodies)


@pytest.mark.parametrize(
    ("fields", "status", "field", "sentence"),
    [
        ({"account": "jay"}, 409, "account", "an account 'jay' already exists"),
        ({"password": "short", "password_again": "short"}, 422, "password", "8 to 1024"),
        ({"password_again": "another-one"}, 422, "password_again", "the two passwords differ"),
        ({"password": "", "password_again": ""}, 422, "password", "or ask for an API token"),
        ({"account": "New Bie"}, 422, "account", "lower-case letters, digits and . _ -"),
    ],
)
def test_an_account_the_books_refuse_is_the_form_again_without_its_password(
    client: TestClient, fields: dict[str, str], status: int, field: str, sentence: str
) -> None:
    sign_in(client, "admin")
    before = event_count(client)
    secret = "a-long-secret-phrase"
    typed = {"password": secret, "password_again": secret, "admin": "true", **fields}
    sent = account_fields(client, **typed)
    reply = post(client, ACCOUNTS, sent)
    assert reply.status_code == status, reply.text[-1500:]
    assert sentence in error_beside(reply.text, field)
    assert value_of(reply.text, "name") == "New Bie"  # as filled
    assert 'id="admin" name="admin" value="true" checked' in reply.text
    assert not any(typed[key] and typed[key] in reply.text for key in PASSWORDS)
    assert event_count(client) == before
