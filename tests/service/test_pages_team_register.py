"""The "Register a team" page (ledger/web/pages_register.py): the commissioner picks a team
list of the league's edition and a coach among the league's members (or another account),
as ``ledger team register`` and ``POST /api/leagues/{league}/teams`` do; a refusal is the
form again, as filled, with the sentence beside its field and nothing written; done, the
team's page. The league page says when no team is registered yet, and links the form for
those who may register one."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import LEAGUE, event_count, scripted, sign_in
from tests.service.test_pages import csrf_in, error_beside, last_event, page_text, post

HOME = f"/leagues/{LEAGUE}"
FORM = f"{HOME}/register-team"
LINK = f'href="{FORM}"'
EMPTY = "No team registered yet."


def refused_form(client: TestClient, data: dict[str, Any], status: int, field: str) -> str:
    """The form posted as the commissioner: refused with ``status``, nothing written, the
    form again as filled; the sentence beside ``field``."""
    before = event_count(client)
    reply = post(client, FORM, data)
    assert reply.status_code == status, reply.text[-800:]
    assert event_count(client) == before
    assert f'value="{data.get("name", "")}"' in reply.text  # as filled
    return error_beside(reply.text, field)


@pytest.fixture
def commissioner(client: TestClient) -> tuple[TestClient, str]:
    csrf = sign_in(client, "commissioner")
    return client, csrf


# --- the good path -----------------------------------------------------------------------------


def test_the_commissioner_registers_a_team_from_the_league_page(
    commissioner: tuple[TestClient, str],
) -> None:
    client, _ = commissioner
    home = client.get(HOME).text
    assert LINK in home
    assert EMPTY not in home  # the demo's four teams are listed
    form = client.get(FORM)
    assert form.status_code == 200
    assert '<option value="orc">Orc</option>' in form.text  # BB2025's lists, one group
    assert "<optgroup" not in form.text
    for coach in ("Dan (dan) &mdash; coach of The Gouged Eye", "Jay (jay)", "Rob (rob)"):
        assert coach in form.text
    assert "outsider" not in form.text  # no role in the league: typed, not listed
    data = {"csrf": csrf_in(form.text), "name": "Da Orcs", "roster": "orc", "coach": "dan"}
    done = post(client, FORM, data)
    assert done.status_code == 303, done.text[-800:]
    assert done.headers["location"] == f"{HOME}/teams/da-orcs?registered=1"  # id from the name
    landed = page_text(client.get(done.headers["location"]).text)
    assert "Da Orcs is registered, with 1,000,000 to spend: its coach hires its players" in landed
    grant = last_event(client)
    assert grant["topic"].endswith("MemberGranted")
    assert (grant["member"], grant["teams"]) == ("dan", ["gouged-eye", "da-orcs"])
    assert (grant["account"], grant["acting_as"], grant["via"]) == (
        "commissioner",
        "commissioner",
        "web",
    )
    page = client.get(done.headers["location"]).text
    assert "Da Orcs" in page
    assert "Dan" in page
    assert "Da Orcs" in client.get(HOME).text


def test_another_account_takes_its_first_team_with_an_id_and_a_treasury_of_its_own(
    commissioner: tuple[TestClient, str],
) -> None:
    client, csrf = commissioner
    data = {
        "csrf": csrf,
        "name": "Marienburg Merchants",
        "team": "merchants",
        "roster": "human",
        "other": "outsider",
        "treasury": "1,100,000",
        "reason": "joins for season 2",
    }
    done = post(client, FORM, data)
    assert done.status_code == 303, done.text[-800:]
    assert done.headers["location"] == f"{HOME}/teams/merchants?registered=1"
    team = client.get(f"/api/leagues/{LEAGUE}/teams/merchants").json()["team"]
    assert (team["coach"], team["treasury"]) == ("Out Sider", 1_100_000)
    assert last_event(client)["member"] == "outsider"


def test_a_form_sent_twice_registers_once(commissioner: tuple[TestClient, str]) -> None:
    client, _ = commissioner
    form = client.get(FORM).text
    once = re.search(r'name="once" value="([^"]+)"', form)
    assert once
    data = {"csrf": csrf_in(form), "once": once.group(1), "name": "Da Orcs", "roster": "orc"}
    data["coach"] = "dan"
    first = post(client, FORM, data)
    assert first.status_code == 303
    before = event_count(client)
    again = post(client, FORM, data)
    assert (again.status_code, again.headers["location"]) == (303, first.headers["location"])
    assert event_count(client) == before


# --- refusals: the form again, the sentence beside its field ----------------------------------


def test_an_unknown_team_list_is_said_beside_the_list_with_the_closest_one(
    commissioner: tuple[TestClient, str],
) -> None:
    client, csrf = commissioner
    data = {"csrf": csrf, "name": "Da Orcs", "roster": "orcs", "coach": "dan"}
    said = refused_form(client, data, 404, "roster")
    assert "has no team list 'orcs'" in said
    assert "did you mean 'orc'?" in said
    assert "unknown-team" in said


def test_a_name_whose_id_is_taken_is_said_beside_the_name(
    commissioner: tuple[TestClient, str],
) -> None:
    client, csrf = commissioner
    data = {"csrf": csrf, "name": "Reikland Reavers", "roster": "human", "coach": "jay"}
    said = refused_form(client, data, 409, "name")
    assert said.startswith("league demo already has a team 'reikland-reavers'")


def test_an_id_taken_is_said_beside_the_id(commissioner: tuple[TestClient, str]) -> None:
    client, csrf = commissioner
    data = {"csrf": csrf, "name": "Da Orcs", "team": "gouged-eye", "roster": "orc", "coach": "dan"}
    said = refused_form(client, data, 409, "team")
    assert "already has a team 'gouged-eye'" in said


def test_a_name_another_team_has_is_said_beside_the_name(
    commissioner: tuple[TestClient, str],
) -> None:
    client, csrf = commissioner
    data = {"csrf": csrf, "name": "Reikland Reavers", "team": "greenfield", "roster": "halfling"}
    said = refused_form(client, {**data, "coach": "jay"}, 409, "name")
    assert said.startswith("league demo already has a team called Reikland Reavers")


@pytest.mark.parametrize(
    ("data", "field", "sentence"),
    [
        ({"name": "Da Orcs", "roster": "orc"}, "coach", "choose the team's coach"),
        (
            {"name": "Da Orcs", "roster": "orc", "coach": "dan", "other": "outsider"},
            "coach",
            "not both",
        ),
        ({"name": "Da Orcs", "roster": "orc", "other": "nobody"}, "coach", "nobody"),
        ({"name": "Da Orcs", "coach": "dan"}, "roster", "choose the team list"),
        ({"name": "", "roster": "orc", "coach": "dan"}, "name", "give the team a name"),
        ({"name": "Da Orcs", "team": "Da Orcs", "roster": "orc", "coach": "dan"}, "team", "team"),
        (
            {"name": "Da Orcs", "roster": "orc", "coach": "dan", "treasury": "lots"},
            "treasury",
            "whole number",
        ),
    ],
)
def test_a_form_missing_or_mistyping_a_field_says_so_beside_it(
    commissioner: tuple[TestClient, str], data: dict[str, str], field: str, sentence: str
) -> None:
    client, csrf = commissioner
    before = event_count(client)
    reply = post(client, FORM, {"csrf": csrf, **data})
    assert 400 <= reply.status_code < 500, reply.text[-800:]
    assert sentence in error_beside(reply.text, field)
    assert event_count(client) == before


def test_an_empty_form_names_every_field_it_lacks_at_once(
    commissioner: tuple[TestClient, str],
) -> None:
    client, csrf = commissioner
    before = event_count(client)
    reply = post(client, FORM, {"csrf": csrf, "treasury": "lots"})
    assert reply.status_code == 422, reply.text[-800:]
    assert "give the team a name" in error_beside(reply.text, "name")
    assert "choose the team list" in error_beside(reply.text, "roster")
    assert "choose the team's coach" in error_beside(reply.text, "coach")
    assert "whole number" in error_beside(reply.text, "treasury")
    assert event_count(client) == before


# --- who may ----------------------------------------------------------------------------------


def test_a_coach_is_not_offered_the_form_and_is_refused_it(client: TestClient) -> None:
    csrf = sign_in(client, "jay")
    assert LINK not in client.get(HOME).text
    shown = client.get(FORM)
    assert shown.status_code == 403
    assert "only the commissioner of Old World Demo League may register a team" in shown.text
    before = event_count(client)
    data = {"csrf": csrf, "name": "Jay's Second", "roster": "human", "coach": "jay"}
    assert post(client, FORM, data).status_code == 403
    assert event_count(client) == before


def test_without_an_account_the_form_asks_to_sign_in_and_a_post_is_401(client: TestClient) -> None:
    shown = client.get(FORM, follow_redirects=False)
    assert shown.status_code == 303
    assert shown.headers["location"] == f"/login?next={FORM}"
    before = event_count(client)
    assert (
        post(client, FORM, {"name": "Da Orcs", "roster": "orc", "coach": "dan"}).status_code == 401
    )
    assert event_count(client) == before


def test_a_form_without_its_csrf_token_is_refused_and_nothing_is_written(
    commissioner: tuple[TestClient, str],
) -> None:
    client, _ = commissioner
    before = event_count(client)
    for token in ({}, {"csrf": "forged"}):
        reply = post(client, FORM, {**token, "name": "Da Orcs", "roster": "orc", "coach": "dan"})
        assert reply.status_code == 403, reply.text[-500:]
        assert "csrf" in reply.text
    assert event_count(client) == before


# --- a league with no team yet ----------------------------------------------------------------


@pytest.fixture
def empty(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    """A gold4 league with no team, its commissioner signed in."""
    script = 'league create owl --name "Old World League" --ruleset gold4\n'
    with scripted(tmp_path, "owl", script, "commissioner") as signed_in:
        yield signed_in


def test_a_league_with_no_team_says_so_and_its_first_team_is_registered_from_the_page(
    empty: tuple[TestClient, str],
) -> None:
    client, csrf = empty
    home = client.get("/leagues/owl").text
    teams = home[home.index('id="teams"') :]
    assert EMPTY in teams
    assert 'href="/leagues/owl/register-team"' in teams
    form = client.get("/leagues/owl/register-team").text
    # gold4's Big Guy teams (8 to 12 players) are a group of their own
    groups = re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', form, re.DOTALL)
    assert [label for label, _ in groups] == [
        "Teams of 11 to 16 players",
        "Teams of 8 to 12 players",
    ]
    assert '"ogre"' in groups[1][1]
    assert '"orc"' in groups[0][1]
    assert "The Commissioner (commissioner) &mdash; the commissioner" in form
    data = {"csrf": csrf, "name": "Ogre Thugs", "roster": "ogre", "coach": "commissioner"}
    done = post(client, "/leagues/owl/register-team", data)
    assert done.status_code == 303, done.text[-800:]
    home = client.get("/leagues/owl").text
    assert EMPTY not in home
    assert "Ogre Thugs" in home


def test_an_anonymous_reader_of_a_public_empty_league_is_not_offered_the_form(
    empty: tuple[TestClient, str],
) -> None:
    client, csrf = empty
    public = client.post(
        "/api/leagues/owl/visibility", json={"public": True}, headers={"X-CSRF-Token": csrf}
    )
    assert public.status_code == 201, public.text
    client.post("/logout", data={"csrf": csrf})
    home = client.get("/leagues/owl", follow_redirects=False)
    assert home.status_code == 200
    assert EMPTY in home.text
    assert "register-team" not in home.text
