"""``POST /api/leagues/{league}/teams``: the commissioner registers a team for a coach's
account, as ``ledger team register`` does; the account becomes the team's coach. A coach
may not register a team (not even their own), nor may anyone else; every refusal writes
nothing; the answer is the team as ``GET .../teams/{team}`` gives it."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from ledger.domain import events as ev
from tests.service.conftest import LEAGUE, World, event_count, sign_in
from tests.service.test_api_team_writes import league_events_after, version

L = f"/api/leagues/{LEAGUE}"
TEAMS = f"{L}/teams"
COMMISSIONER = "commissioner"
ORCS: dict[str, Any] = {"team": "da-orcs", "name": "Da Orcs", "roster": "orc", "coach": "outsider"}


def registered(
    client: TestClient, world: World, account: str, body: dict[str, Any]
) -> tuple[Any, list[Any]]:
    """POST as ``account``: 201, and the events it wrote."""
    before = version(client, world)
    reply = client.post(TEAMS, json=body, headers=world.auth(account))
    assert reply.status_code == 201, reply.text
    return reply, league_events_after(client, before)


def refused(
    client: TestClient,
    world: World,
    body: Any,
    status: int,
    code: str,
    account: str = "commissioner",
) -> str:
    """POST as ``account``: refused with ``status`` and ``code``, nothing written; the
    problem's sentence."""
    before = event_count(client)
    reply = client.post(TEAMS, json=body, headers=world.auth(account))
    assert reply.status_code == status, reply.text
    assert reply.headers["content-type"] == "application/problem+json"
    assert reply.json()["code"] == code
    assert event_count(client) == before
    detail: str = reply.json()["detail"]
    return detail


# --- the good path -----------------------------------------------------------------------------


def test_the_commissioner_registers_a_team_for_an_account_that_becomes_its_coach(
    client: TestClient, world: World
) -> None:
    reply, written = registered(client, world, "commissioner", ORCS)
    assert reply.headers["location"] == f"{TEAMS}/da-orcs"
    shown = client.get(reply.headers["location"], headers=world.auth("commissioner"))
    assert reply.json() == shown.json()
    assert reply.json()["team"]["coach"] == "Out Sider"  # the account's name
    assert reply.json()["team"]["treasury"] == 1_000_000  # BB2025's starting treasury
    team, grant = written
    assert isinstance(team, ev.TeamRegistered)
    assert (team.team, team.name, team.coach, team.roster) == (
        "da-orcs",
        "Da Orcs",
        "Out Sider",
        "orc",
    )
    assert isinstance(grant, ev.MemberGranted)
    assert (grant.member, grant.role, grant.teams) == ("outsider", "coach", ("da-orcs",))
    for event in written:
        assert (event.account, event.acting_as, event.via) == (
            "commissioner",
            "commissioner",
            "api",
        )
        assert event.request_id == reply.headers["x-request-id"]
    assert reply.headers["etag"] == f'"{grant.seq}"'
    # the new coach acts for the team at once, and for no other
    hire = {"position": "lineman", "name": "Grub"}
    hired = client.post(f"{TEAMS}/da-orcs/players", json=hire, headers=world.auth("outsider"))
    assert hired.status_code == 201, hired.text
    other = client.post(f"{TEAMS}/gouged-eye/players", json=hire, headers=world.auth("outsider"))
    assert other.status_code == 403


def test_a_coach_given_another_team_keeps_the_first(client: TestClient, world: World) -> None:
    _, written = registered(client, world, "admin", {**ORCS, "coach": "jay"})
    assert written[-1].teams == ("reikland-reavers", "da-orcs")
    assert written[-1].acting_as == "admin"
    session = client.get("/api/session", headers=world.auth("jay")).json()
    assert session["leagues"][LEAGUE] == {"role": "coach", "teams": ["reikland-reavers", "da-orcs"]}


def test_the_commissioner_may_coach_a_team_and_stays_the_commissioner(
    client: TestClient, world: World
) -> None:
    _, written = registered(client, world, "commissioner", {**ORCS, "coach": "commissioner"})
    assert [type(e).__name__ for e in written] == ["TeamRegistered"]  # no grant: acts for all
    session = client.get("/api/session", headers=world.auth("commissioner")).json()
    assert session["leagues"][LEAGUE]["role"] == "commissioner"


def test_the_starting_treasury_and_the_reason_are_the_commands_options(
    client: TestClient, world: World
) -> None:
    body = {**ORCS, "treasury": 1_150_000, "reason": "late entry, with the sponsor's gold"}
    reply, written = registered(client, world, "commissioner", body)
    assert reply.json()["team"]["treasury"] == 1_150_000
    assert written[0].reason == "late entry, with the sponsor's gold"


# --- refusals ----------------------------------------------------------------------------------


def test_an_unknown_team_list_is_refused_with_the_closest_one(
    client: TestClient, world: World
) -> None:
    said = refused(client, world, {**ORCS, "roster": "orcs"}, 404, "unknown-team")
    assert "has no team list 'orcs'" in said
    assert said.endswith("did you mean 'orc'?")


def test_a_team_id_already_taken_is_refused(client: TestClient, world: World) -> None:
    body = {**ORCS, "team": "reikland-reavers"}
    said = refused(client, world, body, 409, "name-taken")
    assert said == "league demo already has a team 'reikland-reavers'"


def test_a_team_name_already_taken_is_refused(client: TestClient, world: World) -> None:
    """Two teams alike by name would read alike in every table, pick-list and draw."""
    body = {**ORCS, "name": "  reikland   REAVERS "}
    said = refused(client, world, body, 409, "team-name-taken")
    assert said == (
        "league demo already has a team called Reikland Reavers (reikland-reavers):"
        " give this one a name of its own"
    )


def test_an_unknown_coach_account_is_refused(client: TestClient, world: World) -> None:
    said = refused(client, world, {**ORCS, "coach": "nobody"}, 404, "unknown-account")
    assert "nobody" in said


@pytest.mark.parametrize(
    "body",
    [
        {**ORCS, "treasury": -1},  # the command's own sentence
        {**ORCS, "treasury": "1000000"},  # no coercion
        {**ORCS, "team": "Da Orcs"},  # not an id
        {**ORCS, "name": ""},
        {**ORCS, "name": "Da\tOrcs"},  # one line of printable text
        {**ORCS, "colour": "green"},  # an unknown field
        {k: v for k, v in ORCS.items() if k != "coach"},
    ],
)
def test_a_body_of_the_wrong_shape_is_422_and_writes_nothing(
    client: TestClient, world: World, body: dict[str, Any]
) -> None:
    refused(client, world, body, 422, "invalid-input")


@pytest.mark.parametrize("account", ["jay", "outsider"])
def test_a_coach_or_an_outsider_may_not_register_a_team_not_even_their_own(
    client: TestClient, world: World, account: str
) -> None:
    said = refused(client, world, {**ORCS, "coach": account}, 403, "forbidden", account)
    assert said in (
        "only the commissioner of Old World Demo League may register a team",
        "outsider has no role in league demo",
    )


def test_without_credentials_it_is_401_and_writes_nothing(client: TestClient) -> None:
    before = event_count(client)
    reply = client.post(TEAMS, json=ORCS)
    assert reply.status_code == 401
    assert reply.json()["code"] == "unauthenticated"
    assert event_count(client) == before


def test_a_browser_session_without_its_csrf_token_is_refused(client: TestClient) -> None:
    csrf = sign_in(client, "commissioner")
    before = event_count(client)
    reply = client.post(TEAMS, json=ORCS)
    assert reply.status_code == 403
    assert reply.json()["code"] == "csrf"
    assert event_count(client) == before
    done = client.post(TEAMS, json=ORCS, headers={"X-CSRF-Token": csrf})
    assert done.status_code == 201, done.text


# --- the API's conventions ---------------------------------------------------------------------


def test_a_retry_with_the_same_idempotency_key_registers_once(
    client: TestClient, world: World
) -> None:
    headers = {**world.auth("commissioner"), "Idempotency-Key": "register-da-orcs"}
    first = client.post(TEAMS, json=ORCS, headers=headers)
    assert first.status_code == 201, first.text
    before = event_count(client)
    again = client.post(TEAMS, json=ORCS, headers=headers)
    assert again.status_code == 201
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()
    assert event_count(client) == before


def test_a_stale_if_match_is_412_and_writes_nothing(client: TestClient, world: World) -> None:
    now = version(client, world)
    headers = {**world.auth("commissioner"), "If-Match": f'"{now - 1}"'}
    before = event_count(client)
    assert client.post(TEAMS, json=ORCS, headers=headers).status_code == 412
    assert event_count(client) == before
    headers["If-Match"] = f'"{now}"'
    assert client.post(TEAMS, json=ORCS, headers=headers).status_code == 201


def test_the_openapi_document_lists_it(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    operation = document["paths"][TEAMS.replace(LEAGUE, "{league}")]["post"]
    assert "201" in operation["responses"]
    assert "location" in {h.lower() for h in operation["responses"]["201"]["headers"]}
    assert {"401", "403", "404", "409", "422"} <= set(operation["responses"])
    schema_ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = document["components"]["schemas"][schema_ref.rsplit("/", 1)[1]]
    assert set(body["required"]) == {"team", "name", "roster", "coach"}
    assert {"treasury", "reason"} <= set(body["properties"])
