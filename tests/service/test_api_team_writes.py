"""The team owner's and the commissioner's writes beyond hiring and buying: each one
allowed records events attributed to the account (and the role it acted in); each one
refused is 403 and writes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from ledger.domain.log import league_id
from tests.service.conftest import LEAGUE, World, event_count, ledger_of

L = f"/api/leagues/{LEAGUE}"
REAVERS = f"{L}/teams/reikland-reavers"
ROLES = {"admin": "admin", "commissioner": "commissioner", "jay": "coach"}
DIVISION = {
    "name": "A",
    "teams": ["reikland-reavers", "gouged-eye", "grudgebearers", "skavenblight-scramblers"],
}
FINAL: dict[str, Any] = {
    "match": "s1-final-1",
    "kind": "playoff",
    "home": {"team": "skavenblight-scramblers", "touchdowns": 1, "players": []},
    "away": {"team": "reikland-reavers", "players": []},
}


def league_events_after(client: TestClient, version: int) -> list[Any]:
    ledger = ledger_of(client)
    stored = ledger.recorder.select_events(league_id(LEAGUE), gt=version)
    return [ledger.source.decode(s) for s in stored]


def version(client: TestClient, world: World) -> int:
    found: int = client.get(L, headers=world.auth("admin")).json()["version"]
    return found


def allowed(
    client: TestClient, world: World, account: str, path: str, body: Any, **params: Any
) -> dict[str, Any]:
    """POST as ``account``: 201, and every event it wrote names the account and role."""
    before = version(client, world)
    reply = client.post(path, json=body, params=params, headers=world.auth(account))
    assert reply.status_code == 201, reply.text
    written = league_events_after(client, before)
    assert written
    for event in written:
        assert (event.account, event.acting_as, event.via) == (account, ROLES[account], "api")
        assert event.request_id == reply.headers["x-request-id"]
    assert reply.headers["etag"] == f'"{written[-1].seq}"'
    answer: dict[str, Any] = reply.json()
    return answer


def refused(client: TestClient, world: World, account: str, path: str, body: Any) -> None:
    """POST as ``account``: 403 with the reason, and not one event written."""
    before = event_count(client)
    reply = client.post(path, json=body, headers=world.auth(account))
    assert reply.status_code == 403, reply.text
    assert reply.headers["content-type"] == "application/problem+json"
    assert reply.json()["code"] == "forbidden"
    assert event_count(client) == before


TEAM_WRITES: dict[str, tuple[str, dict[str, Any] | None]] = {
    "fire": (f"{REAVERS}/players/Otto Brandt/fire", {"reason": "cut for a blitzer"}),
    "fire without a body": (f"{REAVERS}/players/p6/fire", None),
    "release": (f"{REAVERS}/releases", {"item": "apothecary"}),
    "advance": (
        f"{REAVERS}/players/Griff Junior/advancements",
        {"kind": "chosen_primary", "skill": "Dauntless"},
    ),
}


@pytest.mark.parametrize("action", sorted(TEAM_WRITES))
@pytest.mark.parametrize("account", ["admin", "commissioner", "jay"])
def test_the_team_and_the_commissioner_may_act_for_the_team(
    client: TestClient, world: World, action: str, account: str
) -> None:
    path, body = TEAM_WRITES[action]
    allowed(client, world, account, path, body)


@pytest.mark.parametrize("action", sorted(TEAM_WRITES))
@pytest.mark.parametrize("account", ["dan", "outsider"])
def test_no_one_else_may_act_for_the_team(
    client: TestClient, world: World, action: str, account: str
) -> None:
    path, body = TEAM_WRITES[action]
    refused(client, world, account, path, body)


def test_retire_is_authorized_before_the_books_refuse_it(client: TestClient, world: World) -> None:
    path = f"{REAVERS}/players/Otto Brandt/retire"
    refused(client, world, "rob", path, {})
    before = event_count(client)
    reply = client.post(path, json={}, headers=world.auth("jay"))
    assert reply.status_code == 409  # the rule: only a player with a Lasting Injury
    assert reply.json()["code"] == "not-allowed"
    assert event_count(client) == before


def test_a_coach_retires_a_player_with_a_lasting_injury(client: TestClient, world: World) -> None:
    """Twitch lost MA to a Lasting Injury in the demo season (BB2025 'Temporarily
    Retiring'): his coach retires him; another coach may not; a second retirement is the
    books' refusal."""
    path = f"{L}/teams/skavenblight-scramblers/players/Twitch/retire"
    refused(client, world, "jay", path, {"reason": "mine now"})
    before = version(client, world)
    done = client.post(path, json={"reason": "rests his knee"}, headers=world.auth("rob"))
    assert done.status_code == 201, done.text
    [event] = league_events_after(client, before)
    assert type(event).__name__ == "PlayerTemporarilyRetired"
    assert (event.account, event.acting_as, event.reason) == ("rob", "coach", "rests his knee")
    roster = client.get(f"{L}/teams/skavenblight-scramblers", headers=world.auth("rob")).json()
    assert {p["name"]: p["status"] for p in roster["players"]}["Twitch"] == "retired"
    again = client.post(path, json={}, headers=world.auth("rob"))
    assert again.status_code == 409
    assert "already temporarily retiring" in again.json()["detail"]


def test_an_advancement_takes_the_dice_rolled_at_the_table(
    client: TestClient, world: World
) -> None:
    path = f"{REAVERS}/players/Griff Junior/advancements"
    bad = {"kind": "characteristic", "characteristic": "ma", "dice": [{"purpose": "x"}]}
    assert client.post(path, json=bad, headers=world.auth("jay")).status_code == 422
    body = {
        "kind": "characteristic",
        "characteristic": "ma",
        "dice": [{"purpose": "characteristic", "dice": "D8", "values": [9]}],
    }
    wrong = client.post(path, json=body, headers=world.auth("jay"))
    assert wrong.status_code == 422, wrong.text  # a D8 shows 1-8
    assert "D8" in wrong.json()["detail"]


def test_a_season_run_through_the_api_each_step_by_its_own_role(
    client: TestClient, world: World
) -> None:
    """Play-offs, inducements, the final, its post-game, close, re-draft, the next season
    and its schedule: the commissioner's steps refused to a coach, the teams' steps to
    another coach. The demo's season 1 (with a final for the top two) is under way."""
    start = {"divisions": [DIVISION], "playoff_teams": 2}
    refused(client, world, "jay", f"{L}/season/start", start)
    still_open = client.post(f"{L}/season/start", json=start, headers=world.auth("commissioner"))
    assert still_open.status_code == 409, still_open.text
    assert still_open.json()["detail"] == "season 1 is still open: close it first"
    refused(client, world, "jay", f"{L}/season/playoffs", {})
    assert allowed(client, world, "commissioner", f"{L}/season/playoffs", {})["fixtures"] == 1

    inducements = {"match": "s1-final-1", "items": {}}
    refused(client, world, "dan", f"{REAVERS}/inducements", inducements)
    allowed(client, world, "jay", f"{REAVERS}/inducements", inducements)
    rats = f"{L}/teams/skavenblight-scramblers/inducements"
    allowed(client, world, "commissioner", rats, inducements)

    refused(client, world, "jay", f"{L}/matches", FINAL)
    recorded = allowed(client, world, "commissioner", f"{L}/matches", FINAL, roll_missing=True)
    assert recorded["match"] == "s1-final-1"

    close = f"{L}/matches/s1-final-1/close"
    refused(client, world, "dan", close, {"roll_missing": True})
    refused(client, world, "jay", close, {"teams": ["skavenblight-scramblers"]})
    mine = allowed(client, world, "jay", close, {"roll_missing": True})
    assert mine["teams"] == ["reikland-reavers"]  # a coach closes their own team's
    rest = allowed(client, world, "commissioner", close, {"roll_missing": True})
    assert rest["teams"] == ["skavenblight-scramblers"]

    refused(client, world, "jay", f"{L}/season/close", {})
    allowed(client, world, "commissioner", f"{L}/season/close", None)

    redraft = {"keep": ["Griff Junior"], "roll_missing": True}
    refused(client, world, "dan", f"{REAVERS}/redraft", redraft)
    allowed(client, world, "jay", f"{REAVERS}/redraft", redraft)

    second = allowed(client, world, "admin", f"{L}/season/start", {"divisions": [DIVISION]})
    assert second["season"] == 2
    # the reavers re-drafted; the other three play on as they stand (seed 001: none has to)
    assert "reikland-reavers" not in second["as_they_stand"]
    assert len(second["as_they_stand"]) == 3
    refused(client, world, "jay", f"{L}/season/schedule", {"legs": 2})
    assert allowed(client, world, "commissioner", f"{L}/season/schedule", {"legs": 2})["fixtures"]


def test_closing_a_post_game_is_all_or_nothing(client: TestClient, world: World) -> None:
    allowed(client, world, "commissioner", f"{L}/season/playoffs", {})
    for team in ("reikland-reavers", "skavenblight-scramblers"):
        path = f"{L}/teams/{team}/inducements"
        allowed(client, world, "commissioner", path, {"match": "s1-final-1"})
    allowed(client, world, "commissioner", f"{L}/matches", FINAL, roll_missing=True)
    close = f"{L}/matches/s1-final-1/close"
    before = event_count(client)
    reply = client.post(
        close, json={"dice": {"no_such_roll": 3}}, headers=world.auth("commissioner")
    )
    assert reply.status_code == 422, reply.text
    assert reply.json()["code"] == "invalid-dice"
    assert event_count(client) == before
    bare = client.post(close, json={}, headers=world.auth("commissioner"))
    assert bare.status_code == 422, bare.text
    detail = bare.json()["detail"]  # every die of both teams at once, as the CLI says it
    for team in (
        "Reikland Reavers (reikland-reavers)",
        "Skavenblight Scramblers (skavenblight-scramblers)",
    ):
        assert f"for {team} needs" in detail
    assert "--die" not in detail  # said for any edge, not the command line's options
    assert event_count(client) == before
    both = allowed(client, world, "commissioner", close, {"roll_missing": True})
    assert sorted(both["teams"]) == ["reikland-reavers", "skavenblight-scramblers"]


def test_the_accounts_list_is_an_admins_and_holds_no_secret(
    client: TestClient, world: World
) -> None:
    assert client.get("/api/accounts", headers=world.auth("commissioner")).status_code == 403
    assert client.get("/api/accounts").status_code == 401
    reply = client.get("/api/accounts", headers=world.auth("admin"))
    assert reply.status_code == 200
    listed = {a["account"]: a for a in reply.json()}
    assert listed["jay"]["leagues"] == {LEAGUE: {"role": "coach", "teams": ["reikland-reavers"]}}
    assert listed["admin"]["admin"] is True
    for secret in world.tokens.values():
        assert secret not in reply.text
    assert "argon2" not in reply.text


def test_an_account_with_neither_password_nor_token_is_refused(
    client: TestClient, world: World
) -> None:
    """It could never sign in; the accounts page refused it, the API stored it."""
    before = event_count(client)
    reply = client.post("/api/accounts", json={"account": "ghost"}, headers=world.auth("admin"))
    assert reply.status_code == 422, reply.text
    assert reply.json()["detail"].startswith("give a password, or ask for a token")
    assert event_count(client) == before
    with_token = {"account": "robot", "token": True}
    assert client.post("/api/accounts", json=with_token, headers=world.auth("admin")).json()[
        "token"
    ]


def test_every_advancement_kind_of_the_books_reaches_the_rules(
    client: TestClient, world: World
) -> None:
    """The API takes every kind the event has (BB2020's random secondary skill too); the
    league's edition decides: this BB2025 league refuses it by the book, not as a malformed
    request."""
    path = f"{REAVERS}/players/Griff Junior/advancements"
    before = event_count(client)
    reply = client.post(path, json={"kind": "random_secondary"}, headers=world.auth("jay"))
    assert reply.status_code == 409, reply.text
    assert reply.json()["code"] == "invalid-advancement"
    assert "no random secondary skill in Blood Bowl 2025" in reply.json()["detail"]
    assert event_count(client) == before


def test_closing_a_season_before_its_final_needs_saying_so(
    client: TestClient, world: World
) -> None:
    """The demo's season 1 plays off its top two: closed before the final only when the
    commissioner says so (its places then come from the table)."""
    before = event_count(client)
    early = client.post(f"{L}/season/close", json={}, headers=world.auth("commissioner"))
    assert early.status_code == 409, early.text
    assert early.json()["code"] == "season-state"
    assert "its final is not played" in early.json()["detail"]
    assert event_count(client) == before
    allowed(client, world, "commissioner", f"{L}/season/close", {"without_playoffs": True})


def test_a_hire_refused_for_its_price_names_the_position_with_its_article(
    client: TestClient, world: World
) -> None:
    left = client.get(REAVERS, headers=world.auth("jay")).json()["team"]["treasury"]
    fine = {"team": "reikland-reavers", "amount": 100_000 - left, "reason": "a fine"}
    adjusted = client.post(
        f"{L}/treasury-adjustments", json=fine, headers=world.auth("commissioner")
    )
    assert adjusted.status_code == 201, adjusted.text
    reply = client.post(
        f"{REAVERS}/players", json={"position": "ogre", "name": "Big"}, headers=world.auth("jay")
    )
    assert reply.status_code == 409, reply.text
    assert reply.json()["detail"].startswith("an Ogre costs 140,000 but Reikland Reavers have")


@pytest.mark.parametrize("typed", ["  dAUNTLESS ", "dauntless"])
def test_a_skill_is_kept_as_the_edition_spells_it_whatever_was_typed(
    client: TestClient, world: World, typed: str
) -> None:
    """It was stored as typed ('  sURE fEET '), and shown so on every roster and page."""
    path = f"{REAVERS}/players/Griff Junior/advancements"
    reply = client.post(
        path, json={"kind": "chosen_primary", "skill": typed}, headers=world.auth("jay")
    )
    assert reply.status_code == 201, reply.text
    griff = client.get(f"{L}/players/Griff Junior", headers=world.auth("jay")).json()
    skills = griff["player"]["skills"]
    assert "Dauntless" in skills
    assert typed not in skills


def test_an_advancement_is_taken_from_the_roll_the_ledger_recorded(
    client: TestClient, world: World
) -> None:
    """With ``roll_missing`` the ledger rolls; dice that leave a choice are recorded as
    the roll (``advance_rolls``), which the player's JSON shows, and the advancement is
    taken from it: its dice stand, another kind is refused (409) and writes nothing."""
    ledger_of(client).dice_key = bytes(32)  # Griff's rolls: 2,4 and 6,3, a choice
    path = f"{REAVERS}/players/Griff Junior/advancements"
    asked = {"kind": "random_primary", "category": "G", "roll_missing": True}
    rolled = client.post(path, json=asked, headers=world.auth("jay"))
    assert rolled.status_code == 201, rolled.text
    griff = client.get(f"{L}/players/Griff Junior", headers=world.auth("jay")).json()
    roll = griff["player"]["rolled"]
    assert (roll["kind"], roll["category"]) == ("random_primary", "G")
    assert [(d["values"], d["source"]) for d in roll["dice"]] == [
        ([2, 4], "ledger"),
        ([6, 3], "ledger"),
    ]
    before = event_count(client)
    other = client.post(
        path, json={"kind": "chosen_primary", "skill": "Dauntless"}, headers=world.auth("jay")
    )
    assert other.status_code == 409, other.text
    assert "taken from the ledger's roll" in other.json()["detail"]
    again = client.post(path, json=asked, headers=world.auth("jay"))
    assert again.status_code == 409, again.text
    assert event_count(client) == before
    taken = again.json()["detail"].split(" gives ")[1].split(" or ")[0]
    done = client.post(path, json={**asked, "skill": taken}, headers=world.auth("jay"))
    assert done.status_code == 201, done.text
    griff = client.get(f"{L}/players/Griff Junior", headers=world.auth("jay")).json()
    assert taken in griff["player"]["skills"]
    assert griff["player"]["rolled"] == {}
