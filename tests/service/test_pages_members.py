"""A league's members page (TestClient): who has which role, granting one to an existing
account, and who may read the league. The commissioner's and an admin's only; a refusal
is the page again, as filled, with the command's sentence beside its field.

The league is the played demo league (conftest.py): jay coaches the Reikland Reavers, dan
The Gouged Eye, rob the Skavenblight Scramblers, steve the Grudgebearers; ``outsider`` has
an account and no role."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ledger.application.accounts import Accounts
from tests.service.conftest import LEAGUE, event_count, ledger_of, sign_in
from tests.service.test_pages import error_beside, form_of, last_event, page_text, post

HOME = f"/leagues/{LEAGUE}"
MEMBERS = f"{HOME}/members"
VISIBILITY = f"{HOME}/visibility"
DICE = f"{HOME}/advancement-dice"


def held(client: TestClient, account: str) -> tuple[str, tuple[str, ...]] | None:
    """The account's role in the league and its teams, as the read models say."""
    found = Accounts(ledger_of(client)).memberships(account).get(LEAGUE)
    return (found.role, found.teams) if found else None


def grant(client: TestClient, **fields: Any) -> Any:
    return post(client, MEMBERS, {"csrf": form_of(client, MEMBERS), **fields})


def checked(html: str, team: str) -> bool:
    return f'id="team-{team}" name="teams" value="{team}" checked' in html


@pytest.mark.parametrize("account", ["commissioner", "admin"])
def test_the_league_page_links_the_members_page_which_lists_every_role(
    client: TestClient, account: str
) -> None:
    sign_in(client, account)
    assert f'href="{MEMBERS}"' in client.get(HOME).text
    reply = client.get(MEMBERS)
    assert reply.status_code == 200
    html = reply.text
    assert "<code>commissioner</code>" in html
    assert "every team" in html
    assert f'<a href="{HOME}/teams/reikland-reavers">Reikland Reavers</a>' in html
    for coach in ("jay", "dan", "rob", "steve"):
        assert f"<code>{coach}</code>" in html
    assert "<code>outsider</code>" not in html
    assert "Make it public" in html  # the demo league is members-only


def test_a_coach_sees_no_members_link(client: TestClient) -> None:
    sign_in(client, "jay")
    assert "/members" not in client.get(HOME).text


def test_the_commissioner_makes_an_account_a_coach_and_the_event_says_who(
    client: TestClient,
) -> None:
    sign_in(client, "commissioner")
    reply = grant(
        client, account="outsider", role="coach", teams=["gouged-eye"], reason="second coach"
    )
    assert reply.status_code == 303, reply.text[-1500:]
    assert reply.headers["location"] == f"{MEMBERS}?done=1#members"
    assert held(client, "outsider") == ("coach", ("gouged-eye",))
    event = last_event(client)
    assert event["topic"].endswith("MemberGranted")
    who = ("commissioner", "commissioner", "web")
    assert (event["account"], event["acting_as"], event["via"]) == who
    assert event["reason"] == "second coach"
    assert "<code>outsider</code>" in client.get(MEMBERS).text
    landed = page_text(client.get(reply.headers["location"]).text)
    seq = event["originator_version"]
    assert re.search(rf"Recorded: [^.]*outsider[^.]* \(event {seq}\)\.", landed), landed


def test_a_member_s_change_link_fills_the_form_with_what_they_hold(client: TestClient) -> None:
    sign_in(client, "admin")
    html = client.get(MEMBERS, params={"account": "jay"}).text
    assert 'id="account" name="account"' in html
    assert 'value="jay"' in html
    assert 'id="role-coach" name="role" value="coach" checked' in html
    assert checked(html, "reikland-reavers")
    assert not checked(html, "gouged-eye")
    assert '<datalist id="known-accounts">' in html  # an admin picks from the accounts
    reply = grant(client, account="jay", role="coach", teams=["reikland-reavers", "gouged-eye"])
    assert reply.status_code == 303, reply.text[-1500:]
    assert held(client, "jay") == ("coach", ("reikland-reavers", "gouged-eye"))


def test_an_account_is_made_the_commissioner(client: TestClient) -> None:
    sign_in(client, "commissioner")
    assert "known-accounts" not in client.get(MEMBERS).text  # the site's accounts: an admin's
    assert grant(client, account="outsider", role="commissioner").status_code == 303
    assert held(client, "outsider") == ("commissioner", ())


@pytest.mark.parametrize(
    ("fields", "status", "field", "sentence"),
    [
        (
            {"account": "nobody", "teams": ["gouged-eye"]},
            404,
            "account",
            "no account 'nobody' in this ledger",
        ),
        ({"account": "outsider", "teams": []}, 422, "teams", "a coach needs at least one team"),
        (
            {"account": "outsider", "role": "commissioner", "teams": ["gouged-eye"]},
            422,
            "teams",
            "a commissioner acts for every team: name no team",
        ),
        (
            {"account": "outsider", "teams": ["gouged-eyes"]},
            404,
            "teams",
            "did you mean 'gouged-eye'?",
        ),
        ({"account": "", "teams": ["gouged-eye"]}, 422, "account", "name the account"),
        ({"account": "outsider", "role": "owner"}, 422, "role", "commissioner or coach"),
    ],
)
def test_a_grant_the_books_refuse_is_the_form_again_as_filled(
    client: TestClient, fields: dict[str, Any], status: int, field: str, sentence: str
) -> None:
    sign_in(client, "commissioner")
    before = event_count(client)
    reply = grant(client, **{"role": "coach", "reason": "kept", **fields})
    assert reply.status_code == status, reply.text[-1500:]
    assert sentence in error_beside(reply.text, field)
    assert ">kept</textarea>" in reply.text
    if "gouged-eye" in fields.get("teams", ()):
        assert checked(reply.text, "gouged-eye")
    assert event_count(client) == before


def test_the_commissioner_opens_the_league_to_anyone_and_closes_it_again(
    client: TestClient,
) -> None:
    csrf = sign_in(client, "commissioner")
    html = client.get(MEMBERS).text
    assert '<input type="hidden" name="public" value="true">' in html
    reply = post(client, VISIBILITY, {"csrf": form_of(client, MEMBERS), "public": "true"})
    assert reply.status_code == 303, reply.text[-1500:]
    assert reply.headers["location"] == f"{MEMBERS}?done=1#visibility"
    assert last_event(client)["topic"].endswith("LeagueVisibilitySet")
    assert "Make it members-only" in client.get(MEMBERS).text
    visitor = TestClient(client.app)
    assert visitor.get(HOME).status_code == 200
    again = post(client, VISIBILITY, {"csrf": csrf, "public": "true", "visibility_reason": "x"})
    assert again.status_code == 400  # a stale page: it is public already
    assert "is already public" in error_beside(again.text, "visibility")
    assert ">x</textarea>" in again.text
    closed = post(client, VISIBILITY, {"csrf": form_of(client, MEMBERS), "public": "false"})
    assert closed.status_code == 303
    assert visitor.get(HOME, follow_redirects=False).status_code == 303  # sign in first


def test_the_commissioner_has_the_ledger_roll_every_advancement(client: TestClient) -> None:
    """The advancement form then asks for no die the ledger rolls, and the ledger rolls
    them without being asked (``AdvancementDiceSet``)."""
    csrf = sign_in(client, "commissioner")
    assert '<input type="hidden" name="by_ledger" value="true">' in client.get(MEMBERS).text
    data = {"csrf": csrf, "by_ledger": "true", "dice_reason": "rolls witnessed"}
    reply = post(client, DICE, data)
    assert reply.status_code == 303, reply.text[-1500:]
    assert reply.headers["location"] == f"{MEMBERS}?done=1#dice"
    event = last_event(client)
    assert (event["topic"].split(":")[-1], event["by_ledger"]) == ("AdvancementDiceSet", True)
    assert "Take dice rolled at the table too" in client.get(MEMBERS).text
    again = post(client, DICE, data)  # a stale page
    assert again.status_code == 400
    assert "already rolled by the ledger only" in error_beside(again.text, "dice")
    form = client.get(f"{HOME}/teams/reikland-reavers/players/p1/advance").text
    assert 'name="die-characteristic"' not in form
    assert 'name="roll_missing"' not in form
    assert "In this league the ledger rolls every advancement" in form
    sent = {"csrf": csrf, "kind": "random_primary", "category": "G"}  # nothing ticked
    rolled = post(client, f"{HOME}/teams/reikland-reavers/players/p1/advance", sent)
    assert rolled.status_code == 303, rolled.text[-1500:]
    assert {d["source"] for d in last_event(client)["dice"]} == {"ledger"}


@pytest.mark.parametrize("path", [MEMBERS, VISIBILITY, DICE])
def test_a_coach_gets_a_403_and_writes_nothing(client: TestClient, path: str) -> None:
    csrf = sign_in(client, "jay")
    assert client.get(MEMBERS).status_code == 403
    before = event_count(client)
    data = {"csrf": csrf, "account": "jay", "role": "commissioner", "public": "true"}
    refused = post(client, path, data)
    assert refused.status_code == 403
    assert "only the commissioner of Old World Demo League may" in refused.text
    assert event_count(client) == before
    assert held(client, "jay") == ("coach", ("reikland-reavers",))


@pytest.mark.parametrize("path", [MEMBERS, VISIBILITY])
def test_a_visitor_is_sent_to_sign_in_and_a_post_without_an_account_is_401(
    client: TestClient, path: str
) -> None:
    shown = client.get(MEMBERS, follow_redirects=False)
    assert shown.status_code == 303
    assert shown.headers["location"] == f"/login?next={MEMBERS}"
    before = event_count(client)
    data = {"account": "outsider", "role": "commissioner", "public": "true"}
    assert post(client, path, data).status_code == 401
    assert event_count(client) == before


@pytest.mark.parametrize("path", [MEMBERS, VISIBILITY])
def test_a_form_without_its_csrf_token_is_refused(client: TestClient, path: str) -> None:
    sign_in(client, "commissioner")
    before = event_count(client)
    for csrf in ({}, {"csrf": "forged"}):
        data = {**csrf, "account": "outsider", "role": "commissioner", "public": "true"}
        reply = post(client, path, data)
        assert reply.status_code == 403
        assert "csrf" in reply.text
    assert event_count(client) == before


def remove(client: TestClient, account: str, **fields: Any) -> Any:
    action = f"{MEMBERS}/{account}/remove"
    return post(client, action, {"csrf": form_of(client, MEMBERS), **fields})


def test_the_commissioner_removes_a_coach_who_left_and_the_coach_acts_no_more(
    client: TestClient,
) -> None:
    sign_in(client, "commissioner")
    assert f'action="{MEMBERS}/jay/remove"' in client.get(MEMBERS).text
    reply = remove(client, "jay", reason="left the league")
    assert reply.status_code == 303, reply.text[-1500:]
    assert held(client, "jay") is None
    event = last_event(client)
    assert event["topic"].endswith("MemberRemoved")
    assert (event["account"], event["reason"]) == ("commissioner", "left the league")
    assert "<code>jay</code>" not in client.get(MEMBERS).text
    client.cookies.clear()
    sign_in(client, "jay")  # the account still signs in
    assert client.get(f"{HOME}/teams/reikland-reavers/hire").status_code == 403


def test_the_league_s_only_commissioner_is_not_removed_and_the_page_says_why(
    client: TestClient,
) -> None:
    sign_in(client, "admin")
    before = event_count(client)
    reply = remove(client, "commissioner")
    assert reply.status_code == 409
    said = "only commissioner: make another account its commissioner before you remove them"
    assert said in reply.text
    assert error_beside(reply.text, "members")
    assert event_count(client) == before
    grant(client, account="outsider", role="commissioner")
    assert remove(client, "commissioner").status_code == 303
    assert held(client, "commissioner") is None


@pytest.mark.parametrize("account", ["outsider", "nobody-here"])
def test_removing_an_account_with_no_role_writes_nothing(client: TestClient, account: str) -> None:
    sign_in(client, "commissioner")
    before = event_count(client)
    reply = remove(client, account)
    assert reply.status_code == 422
    assert f"account &#39;{account}&#39; has no role in league demo" in reply.text
    assert event_count(client) == before


def test_a_coach_removes_no_one(client: TestClient) -> None:
    sign_in(client, "jay")
    before = event_count(client)
    reply = post(client, f"{MEMBERS}/dan/remove", {"csrf": form_of(client, HOME)})
    assert reply.status_code == 403
    assert held(client, "dan") == ("coach", ("gouged-eye",))
    assert event_count(client) == before
