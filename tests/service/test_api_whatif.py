"""Season reports in every format, and what-if comparisons as background jobs: progress,
the result ``ledger whatif --json`` gives, cached by the league's version and the
question, bounded, and nothing written."""

from __future__ import annotations

import io
import json
import time
import zipfile
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from ledger.errors import UnknownSeason
from ledger.web import jobs as whatif_jobs
from tests.service.conftest import LEAGUE, World, event_count, ledger_of

L = f"/api/leagues/{LEAGUE}"


@pytest.mark.parametrize(
    ("fmt", "media"),
    [
        ("html", "text/html"),
        ("md", "text/markdown"),
        ("json", "application/json"),
        ("csv", "application/zip"),
    ],
)
def test_the_season_report_in_each_format(
    client: TestClient, world: World, fmt: str, media: str
) -> None:
    reply = client.get(f"{L}/report.{fmt}", headers=world.auth("dan"))
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"].startswith(media)
    assert reply.headers["content-disposition"].startswith("attachment;")
    assert reply.headers["etag"]
    if fmt == "json":
        assert reply.json()["league"]["slug"] == LEAGUE
    elif fmt == "csv":
        assert zipfile.ZipFile(io.BytesIO(reply.content)).namelist()
    else:
        assert "Reikland Reavers" in reply.text


def test_the_season_report_is_for_readers_only(client: TestClient, world: World) -> None:
    assert client.get(f"{L}/report.md").status_code == 401
    assert client.get(f"{L}/report.md", headers=world.auth("outsider")).status_code == 403
    unknown = client.get(f"{L}/report.pdf", headers=world.auth("dan"))
    assert unknown.status_code in (404, 422)
    assert unknown.headers["content-type"] == "application/problem+json"


def finished(client: TestClient, world: World, job: str, account: str = "dan") -> dict[str, Any]:
    """Poll the job until it is done or failed (a small league: a few seconds)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        reply = client.get(f"/api/jobs/{job}", headers=world.auth(account))
        assert reply.status_code == 200, reply.text
        found: dict[str, Any] = reply.json()
        if found["state"] in ("done", "failed"):
            return found
        time.sleep(0.1)
    raise AssertionError(f"job {job} still running")


def test_a_what_if_runs_in_the_background_and_is_cached(client: TestClient, world: World) -> None:
    before = event_count(client)
    asked = {"ruleset": "lrb6-zal"}
    reply = client.post(f"{L}/whatif", json=asked, headers=world.auth("jay"))
    assert reply.status_code == 202, reply.text
    job = reply.json()
    assert reply.headers["location"] == f"/api/jobs/{job['id']}"
    assert job["asked"]["ruleset"] == "lrb6-zal"
    assert job["total"] == 1
    done = finished(client, world, job["id"])
    assert done["state"] == "done", done["problem"]
    assert done["done"] == 1
    assert done["result"]["league"] == LEAGUE
    assert {t["team_id"] for t in done["result"]["teams"]} >= {"reikland-reavers"}
    again = client.post(f"{L}/whatif", json=asked, headers=world.auth("dan"))
    assert again.json()["id"] == job["id"]  # the same question at the same version
    assert again.json()["state"] == "done"
    assert event_count(client) == before  # a what-if writes nothing to the log

    adjusted = client.post(
        f"{L}/treasury-adjustments",
        json={"team": "reikland-reavers", "amount": 1000, "reason": "sponsor"},
        headers=world.auth("commissioner"),
    )
    assert adjusted.status_code == 201
    moved = client.post(f"{L}/whatif", json=asked, headers=world.auth("jay")).json()
    assert moved["id"] != job["id"]  # the log moved on: asked anew
    assert moved["version"] == job["version"] + 1
    finished(client, world, moved["id"])


def test_samples_report_progress_and_distributions(client: TestClient, world: World) -> None:
    asked = {"options": {"bonus_points": "added"}, "samples": 3, "seed": 7}
    reply = client.post(f"{L}/whatif", json=asked, headers=world.auth("jay"))
    assert reply.status_code == 202, reply.text
    done = finished(client, world, reply.json()["id"])
    assert done["state"] == "done", done["problem"]
    assert (done["done"], done["total"]) == (3, 3)
    assert done["result"]["samples"] == 3
    assert done["result"]["first_seed"] == 8
    places = done["result"]["teams"][0]["places"]
    assert abs(sum(places) - 1) < 1e-9


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"ruleset": "no-such-rules"}, 404),
        ({"options": {"no_such_option": 1}}, 422),
        ({"samples": 0}, 422),
        ({"samples": whatif_jobs.MAX_SAMPLES + 1}, 422),
        ({"samples": "3"}, 422),
        ({"unknown": 1}, 422),
    ],
)
def test_a_bad_question_is_refused_at_once(
    client: TestClient, world: World, body: dict[str, Any], status: int
) -> None:
    reply = client.post(f"{L}/whatif", json=body, headers=world.auth("jay"))
    assert reply.status_code == status, reply.text
    assert reply.headers["content-type"] == "application/problem+json"


def test_jobs_are_for_the_leagues_readers(client: TestClient, world: World) -> None:
    assert client.post(f"{L}/whatif", json={}).status_code == 401
    assert client.post(f"{L}/whatif", json={}, headers=world.auth("outsider")).status_code == 403
    job = client.post(f"{L}/whatif", json={}, headers=world.auth("jay")).json()["id"]
    finished(client, world, job)
    assert client.get(f"/api/jobs/{job}", headers=world.auth("outsider")).status_code == 404
    assert client.get(f"/api/jobs/{job}").status_code == 404
    assert client.get("/api/jobs/nothing-here", headers=world.auth("jay")).status_code == 404


def test_a_full_queue_answers_429(
    client: TestClient, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(whatif_jobs, "QUEUED", 0)
    reply = client.post(f"{L}/whatif", json={"seed": 99}, headers=world.auth("jay"))
    assert reply.status_code == 429
    assert int(reply.headers["retry-after"]) > 0
    assert reply.json()["code"] == "busy"
    assert reply.json()["title"] == "The what-if queue is full"


def test_the_seed_is_a_signed_32_bit_number(client: TestClient, world: World) -> None:
    def ask(seed: int) -> int:
        return client.post(
            f"{L}/whatif", json={"seed": seed}, headers=world.auth("jay")
        ).status_code

    assert ask(2**31) == 422
    assert ask(2**31 - 1) == 202


def test_an_unknown_season_is_refused_at_once_and_no_job_is_made(
    client: TestClient, world: World
) -> None:
    reply = client.post(f"{L}/whatif", json={"season": 9}, headers=world.auth("jay"))
    assert reply.status_code == 404, reply.text
    assert reply.json()["code"] == "unknown-season"
    assert reply.json()["detail"] == "league demo has no season 9 (seasons: 1)"
    with ledger_of(client).read_models.engine.connect() as conn:
        assert not conn.execute(sa.select(whatif_jobs.JOBS.c.id)).all()


def test_a_failed_job_says_why(
    client: TestClient, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*_: Any) -> Any:
        raise UnknownSeason("league demo has no season 9 (seasons: 1)")

    monkeypatch.setattr(whatif_jobs, "comparison", refused)
    reply = client.post(f"{L}/whatif", json={}, headers=world.auth("jay"))
    assert reply.status_code == 202, reply.text
    done = finished(client, world, reply.json()["id"])
    assert done["state"] == "failed"
    assert done["problem"]["code"] == "unknown-season"
    assert json.dumps(done["problem"])


def test_a_stopping_service_waits_for_its_jobs_before_closing_the_store(
    app: Any, world: World
) -> None:
    """A job reading the log while the stopping service closed its connections crashed
    the process (a segmentation fault in SQLite, seen in a test's teardown): the service
    now waits for its jobs, then closes the store."""
    with TestClient(app) as client:
        asked = {"ruleset": "lrb6-zal", "samples": 20}
        reply = client.post(f"{L}/whatif", json=asked, headers=world.auth("jay"))
        assert reply.status_code == 202, reply.text
        job = reply.json()["id"]
        jobs: whatif_jobs.Jobs = app.state.whatif_jobs
        thread = jobs.threads[job]  # under way: the service stops now
    assert not thread.is_alive()
    assert jobs.threads == {}
    with sa.create_engine(f"sqlite:///{world.db}").connect() as conn:
        state = conn.execute(sa.text("SELECT state FROM ledger_jobs WHERE id = :id"), {"id": job})
        assert state.scalar_one() == "done"
