"""HTTP conventions of the API: ETag and If-Match, Idempotency-Key, problem details for
malformed input, pagination, the report workflow's attribution."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tests.service.conftest import LEAGUE, World, event_count, ledger_of

HIRE = f"/api/leagues/{LEAGUE}/teams/reikland-reavers/players"
LINEMAN = {"position": "lineman", "name": "Fresh"}


def test_reads_carry_the_league_version_as_etag_and_answer_304_when_current(
    client: TestClient, world: World
) -> None:
    first = client.get(f"/api/leagues/{LEAGUE}/standings", headers=world.auth("jay"))
    assert first.status_code == 200
    version = client.get(f"/api/leagues/{LEAGUE}", headers=world.auth("jay")).json()["version"]
    assert first.headers["etag"] == f'"{version}"'
    again = client.get(
        f"/api/leagues/{LEAGUE}/standings",
        headers={**world.auth("jay"), "If-None-Match": first.headers["etag"]},
    )
    assert again.status_code == 304


def test_a_stale_if_match_is_412_and_writes_nothing(client: TestClient, world: World) -> None:
    etag = client.get(f"/api/leagues/{LEAGUE}", headers=world.auth("jay")).headers["etag"]
    assert client.post(HIRE, json=LINEMAN, headers=world.auth("jay")).status_code == 201
    before = event_count(client)
    stale = client.post(
        HIRE, json={**LINEMAN, "name": "Late"}, headers={**world.auth("jay"), "If-Match": etag}
    )
    assert stale.status_code == 412
    assert stale.json()["code"] == "version-mismatch"
    assert event_count(client) == before
    current = client.get(f"/api/leagues/{LEAGUE}", headers=world.auth("jay")).headers["etag"]
    fresh = client.post(
        HIRE, json={**LINEMAN, "name": "Late"}, headers={**world.auth("jay"), "If-Match": current}
    )
    assert fresh.status_code == 201
    assert fresh.headers["etag"] == f'"{fresh.json()["version"]}"'


@pytest.mark.parametrize(
    "asked",
    ['W/"{v}"', '"1", "{v}"', '"1",W/"{v}" , ', "*"],
    ids=["weak", "list", "list with a weak tag and an empty element", "star"],
)
def test_if_none_match_compares_weakly_and_takes_lists_and_a_star(
    client: TestClient, world: World, asked: str
) -> None:
    version = client.get(f"/api/leagues/{LEAGUE}", headers=world.auth("jay")).json()["version"]
    again = client.get(
        f"/api/leagues/{LEAGUE}/standings",
        headers={**world.auth("jay"), "If-None-Match": asked.format(v=version)},
    )
    assert again.status_code == 304
    assert again.headers["etag"] == f'"{version}"'


def test_if_none_match_answers_the_read_unless_a_listed_tag_is_current(
    client: TestClient, world: World
) -> None:
    version = client.get(f"/api/leagues/{LEAGUE}", headers=world.auth("jay")).json()["version"]

    def read(asked: str) -> int:
        headers = {**world.auth("jay"), "If-None-Match": asked}
        return client.get(f"/api/leagues/{LEAGUE}/standings", headers=headers).status_code

    assert read('"1", "2"') == 200
    assert read("garbage") == 200  # a malformed condition is ignored, not an error
    assert read(f'"1", "2", "{version}"') == 304


def test_if_match_takes_a_list_or_a_star(client: TestClient, world: World) -> None:
    def hire(name: str, asked: str) -> int:
        version = client.get(f"/api/leagues/{LEAGUE}", headers=world.auth("jay")).json()["version"]
        headers = {**world.auth("jay"), "If-Match": asked.format(v=version)}
        return client.post(HIRE, json={**LINEMAN, "name": name}, headers=headers).status_code

    assert hire("Listed", '"1", "{v}"') == 201
    assert hire("Starred", "*") == 201
    assert hire("Late", '"1", "2"') == 412


def test_if_match_compares_strongly_a_weak_tag_is_412(client: TestClient, world: World) -> None:
    version = client.get(f"/api/leagues/{LEAGUE}", headers=world.auth("jay")).json()["version"]
    before = event_count(client)
    reply = client.post(
        HIRE, json=LINEMAN, headers={**world.auth("jay"), "If-Match": f'W/"{version}"'}
    )
    assert reply.status_code == 412
    assert reply.json()["code"] == "version-mismatch"
    assert event_count(client) == before


@pytest.mark.parametrize("asked", ["garbage", "92", '"92" "93"', '"9'])
def test_a_malformed_if_match_is_422_not_a_precondition(
    client: TestClient, world: World, asked: str
) -> None:
    before = event_count(client)
    reply = client.post(HIRE, json=LINEMAN, headers={**world.auth("jay"), "If-Match": asked})
    assert reply.status_code == 422
    assert reply.json()["code"] == "invalid-input"
    assert "entity tags" in reply.json()["detail"]
    assert event_count(client) == before


def test_the_same_idempotency_key_twice_records_once(client: TestClient, world: World) -> None:
    headers = {**world.auth("jay"), "Idempotency-Key": "hire-fresh-1"}
    first = client.post(HIRE, json=LINEMAN, headers=headers)
    after_first = event_count(client)
    second = client.post(HIRE, json=LINEMAN, headers=headers)
    assert (first.status_code, second.status_code) == (201, 201)
    assert second.json() == first.json()
    assert second.headers["idempotent-replayed"] == "true"
    assert event_count(client) == after_first
    reused = client.post(HIRE, json={**LINEMAN, "name": "Other"}, headers=headers)
    assert reused.status_code == 422
    assert reused.json()["code"] == "idempotency-key-reused"
    assert event_count(client) == after_first


def test_a_refused_request_keeps_no_idempotency_answer(client: TestClient, world: World) -> None:
    headers = {**world.auth("jay"), "Idempotency-Key": "bad-hire"}
    body = {"position": "no_such_position", "name": "Ghost"}
    assert client.post(HIRE, json=body, headers=headers).status_code == 404
    assert client.post(HIRE, json=body, headers=headers).status_code == 404


@pytest.mark.parametrize(
    ("content", "status", "code"),
    [
        (b"{not json", 400, "malformed-json"),
        (b'{"position": "lineman", "name": "X", "salary": 1}', 422, "invalid-input"),
        (b'{"position": "lineman", "name": "X", "number": "7"}', 422, "invalid-input"),
        (b'{"position": "lineman"}', 422, "invalid-input"),
        (b"[]", 422, "invalid-input"),
    ],
)
def test_malformed_input_is_a_problem_never_a_500(
    client: TestClient, world: World, content: bytes, status: int, code: str
) -> None:
    before = event_count(client)
    reply = client.post(
        HIRE, content=content, headers={**world.auth("jay"), "Content-Type": "application/json"}
    )
    assert reply.status_code == status
    assert reply.headers["content-type"] == "application/problem+json"
    problem = reply.json()
    assert problem["code"] == code
    assert problem["type"].endswith(code)
    assert set(problem) == {"type", "title", "status", "detail", "code"}
    assert event_count(client) == before


@pytest.mark.parametrize(
    ("content", "sent_as", "status", "code", "said"),
    [
        (b'{"position": "lineman", "name": "X"}', "text/plain", 415, "unsupported-media-type",
         "send the body as JSON (Content-Type: application/json), not text/plain"),
        (b"position=lineman&name=X", "application/x-www-form-urlencoded", 415,
         "unsupported-media-type", "not application/x-www-form-urlencoded"),
        (b'{"name": "caf\xe9"}', "application/json", 400, "malformed-json", "not JSON in UTF-8"),
        (b"[" * 100_000, "application/json", 400, "malformed-json", "not JSON in UTF-8"),
    ],
    ids=["json-as-text", "form-encoded", "not-utf8", "nested-deep"],
)  # fmt: skip
def test_a_body_sent_otherwise_than_as_json_is_said_so(
    client: TestClient,
    world: World,
    content: bytes,
    sent_as: str,
    status: int,
    code: str,
    said: str,
) -> None:
    """A JSON object sent as text/plain was refused as 'must be a mapping'; a body not
    UTF-8, or nested 100,000 deep, with FastAPI's own 'There was an error parsing the body'
    under the code 'http' (a helper's pass through the API, forty-fourth session)."""
    before = event_count(client)
    headers = {**world.auth("jay"), "Content-Type": sent_as}
    reply = client.post(HIRE, content=content, headers=headers)
    assert (reply.status_code, reply.json()["code"]) == (status, code), reply.text
    assert said in reply.json()["detail"]
    assert reply.headers["content-type"] == "application/problem+json"
    assert event_count(client) == before


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"", "body: required, not given"),
        (b"null", "body: must be a mapping (a JSON object)"),
    ],
)
def test_a_missing_body_is_named(
    client: TestClient, world: World, content: bytes, said: str
) -> None:
    """It said only what was wrong ("Field required"), not where."""
    reply = client.post(
        f"/api/leagues/{LEAGUE}/reports",
        content=content,
        headers={**world.auth("jay"), "Content-Type": "application/json"},
    )
    assert reply.status_code == 422
    assert reply.json()["detail"] == said


def test_a_rule_of_the_edition_is_409_with_the_clis_code(client: TestClient, world: World) -> None:
    reply = client.post(
        f"/api/leagues/{LEAGUE}/teams/reikland-reavers/purchases",
        json={"item": "apothecary"},
        headers=world.auth("jay"),
    )
    assert reply.status_code == 409
    assert reply.json()["code"] == "staff-limit"


def test_events_paginate_and_name_the_account(client: TestClient, world: World) -> None:
    client.post(HIRE, json=LINEMAN, headers=world.auth("jay"))
    seen, after = [], None
    while True:
        query = {"limit": 40, **({"after": after} if after is not None else {})}
        page = client.get(
            f"/api/leagues/{LEAGUE}/events", params=query, headers=world.auth("dan")
        ).json()
        seen += page["items"]
        after = page["next"]
        if after is None:
            break
    assert [e["seq"] for e in seen] == list(range(1, len(seen) + 1))
    assert (seen[-1]["account"], seen[-1]["acting_as"], seen[-1]["via"]) == ("jay", "coach", "api")


def test_a_public_league_is_read_by_anyone_and_changed_by_no_one(
    client: TestClient, world: World
) -> None:
    standings = f"/api/leagues/{LEAGUE}/standings"
    assert client.get(standings).status_code == 401
    assert client.get(standings, headers=world.auth("outsider")).status_code == 403
    made = client.post(
        f"/api/leagues/{LEAGUE}/visibility",
        json={"public": True},
        headers=world.auth("commissioner"),
    )
    assert made.status_code == 201
    assert client.get(standings).status_code == 200
    assert client.get(standings, headers=world.auth("outsider")).status_code == 200
    assert client.post(HIRE, json=LINEMAN, headers=world.auth("outsider")).status_code == 403
    assert client.get("/api/leagues").json()[0]["slug"] == LEAGUE


def test_an_unknown_league_is_404_only_to_whom_could_read_it(
    client: TestClient, world: World
) -> None:
    assert client.get("/api/leagues/nowhere", headers=world.auth("admin")).status_code == 404
    assert client.get("/api/leagues/nowhere", headers=world.auth("jay")).status_code == 403
    assert client.get("/api/leagues/nowhere").status_code == 401


def test_the_export_and_audit_read_the_log(client: TestClient, world: World) -> None:
    audit = client.get(f"/api/leagues/{LEAGUE}/audit", headers=world.auth("rob")).json()
    assert audit["ok"]
    exported = client.get(f"/api/leagues/{LEAGUE}/export", headers=world.auth("rob"))
    assert exported.headers["content-type"].startswith("application/jsonl")
    assert len(exported.text.splitlines()) == audit["events"] + 1  # a header line first


def test_a_blank_reason_is_refused_in_the_apis_words(client: TestClient, world: World) -> None:
    """The sentence is the application's, said alike to the CLI and the API: it named the
    command line's --reason."""
    before = event_count(client)
    reply = client.post(
        f"/api/leagues/{LEAGUE}/corrections",
        json={"event": 2, "action": "void", "reason": "   "},
        headers=world.auth("commissioner"),
    )
    assert reply.status_code == 422
    assert reply.json()["detail"].startswith("a correction needs a reason: ")
    assert "--" not in reply.json()["detail"]
    assert event_count(client) == before


def test_the_health_check_says_when_the_store_cannot_be_used(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    engine = ledger_of(client).read_models.engine

    def down() -> None:
        raise sa.exc.OperationalError("SELECT 1", {}, ConnectionRefusedError("the server is down"))

    monkeypatch.setattr(engine, "connect", down)
    reply = client.get("/healthz")
    assert reply.status_code == 503
    assert reply.headers["content-type"] == "application/problem+json"
    assert reply.json()["code"] == "store"


@pytest.mark.parametrize(
    ("path", "body", "code"),
    [
        ("/api/accounts", {"account": "jay", "password": "Secret-12345"}, "account-exists"),
        ("/api/leagues", {"slug": LEAGUE, "name": "x", "ruleset": "bb2020"}, "league-exists"),
    ],
)
def test_a_name_already_taken_is_a_409_conflict_with_its_own_code(
    client: TestClient, world: World, path: str, body: dict[str, str], code: str
) -> None:
    before = event_count(client)
    reply = client.post(path, json=body, headers=world.auth("admin"))
    assert reply.status_code == 409
    assert reply.json()["code"] == code
    assert "already exists" in reply.json()["detail"]
    assert event_count(client) == before


@pytest.mark.parametrize(
    ("ref", "code", "said"),
    [
        ("team:nosuch", "unknown-team", "no team 'nosuch'"),
        ("player:zzz", "unknown-player", "no player 'zzz'"),
        ("match:zzz", "unknown-match", "no match 'zzz'"),
        ("nosuch:1", "not-found", "no team, match or player 'nosuch:1'"),
        ("zzz", "not-found", "no team, match or player 'zzz'"),
    ],
)
def test_the_history_of_nothing_is_404_as_on_the_command_line(
    client: TestClient, world: World, ref: str, code: str, said: str
) -> None:
    reply = client.get(
        f"/api/leagues/{LEAGUE}/history", params={"ref": ref}, headers=world.auth("jay")
    )
    assert reply.status_code == 404
    assert reply.json()["code"] == code
    assert said in reply.json()["detail"]


def test_the_history_of_a_team_by_its_kind_and_id(client: TestClient, world: World) -> None:
    history = f"/api/leagues/{LEAGUE}/history"
    named = client.get(history, params={"ref": "team:gouged-eye"}, headers=world.auth("jay"))
    bare = client.get(history, params={"ref": "gouged-eye"}, headers=world.auth("jay"))
    assert named.status_code == bare.status_code == 200
    assert named.json() == bare.json()
    assert named.json()["items"]


def test_an_unknown_team_list_of_a_known_ruleset_is_an_unknown_team(client: TestClient) -> None:
    """Found by the API hunt: it answered ``unknown-ruleset`` for a ruleset that exists."""
    reply = client.get("/api/rulesets/bb2025/teams/nope")
    assert reply.status_code == 404
    problem = reply.json()
    assert problem["code"] == "unknown-team"
    assert problem["detail"].startswith("Blood Bowl 2025, Third Season has no team list 'nope'")
    assert client.get("/api/rulesets/bb2099/teams/human").json()["code"] == "unknown-ruleset"


def test_a_huge_id_is_said_by_its_start_and_length_not_sent_back_whole(
    client: TestClient, world: World
) -> None:
    """Found by the API hunt: a 5,000-character team id came back whole in the detail."""
    huge = "x" * 5000
    reply = client.get(f"/api/leagues/{LEAGUE}/teams/{huge}", headers=world.auth("admin"))
    assert reply.status_code == 404
    detail = reply.json()["detail"]
    assert len(detail) < 400
    assert "xxxx... (5,000 characters)" in detail
