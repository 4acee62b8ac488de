"""Cancelling a what-if job: ``DELETE /api/jobs/{id}`` and the job page's *Cancel*.

Its asker, the league's commissioner and an admin may cancel a queued or running job;
another coach is refused (403), one who may not read the league does not see it (404),
an anonymous caller signs in first (401). The job's state becomes ``cancelled`` at once
and the thread replaying it stops at its next step, writing nothing over it; a job that
has ended is a conflict (409) naming how it ended; the same question asked again starts
a new job. The replays here are fakes that make a sample every few milliseconds until
stopped (``Endless``), so a job is under way for as long as a test needs it to be.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ledger.web import jobs as whatif_jobs
from ledger.web.jobs import Job, Jobs, Question, WhatIf
from ledger.whatif.spec import target_ruleset
from tests.service.conftest import LEAGUE, World, ledger_of, sign_in
from tests.service.test_pages import csrf_in

L = f"/api/leagues/{LEAGUE}"
FORM = f"/leagues/{LEAGUE}/whatif"
SAMPLES = {"ruleset": "gold4", "samples": 400, "seed": 3}


class Endless:
    """``run_samples`` made slow: a sample every 5 ms, reported to ``progress``, until the
    job's worker stops it (at most 60 s, then it fails the test)."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.steps = 0
        self.stopped_by: BaseException | None = None

    def __call__(self, *args: Any) -> Any:
        progress = args[-1]
        self.started.set()
        deadline = time.monotonic() + 60
        try:
            while time.monotonic() < deadline:
                time.sleep(0.005)
                self.steps += 1
                progress(1)
        except BaseException as error:
            self.stopped_by = error
            raise
        raise AssertionError("the cancelled replay was never stopped")


class Held:
    """``comparison`` made slow: one replay with no steps, which ends when let go."""

    def __init__(self) -> None:
        self.started, self.go = threading.Event(), threading.Event()

    def __call__(self, *_: Any) -> Any:
        self.started.set()
        assert self.go.wait(60)
        return {"held": True}


@pytest.fixture
def endless(monkeypatch: pytest.MonkeyPatch) -> Endless:
    fake = Endless()
    monkeypatch.setattr(whatif_jobs, "run_samples", fake)
    return fake


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[Held]:
    fake = Held()
    monkeypatch.setattr(whatif_jobs, "comparison", fake)
    yield fake
    fake.go.set()  # never leave a thread waiting behind a failed test


def asked(
    client: TestClient, world: World, body: dict[str, Any], account: str = "jay"
) -> dict[str, Any]:
    reply = client.post(f"{L}/whatif", json=body, headers=world.auth(account))
    assert reply.status_code == 202, reply.text
    job: dict[str, Any] = reply.json()
    return job


def running(client: TestClient, world: World, endless: Endless) -> dict[str, Any]:
    """A job of samples under way: its thread is replaying."""
    job = asked(client, world, SAMPLES)
    assert endless.started.wait(30)
    return job


def worker_jobs(client: TestClient) -> Jobs:
    jobs: Jobs = client.app.state.whatif_jobs  # type: ignore[attr-defined]
    return jobs


def ended_thread(client: TestClient, job: str) -> None:
    """Wait for the thread of ``job`` to end (it stops at its next step)."""
    thread = worker_jobs(client).threads.get(job)
    if thread is not None:
        thread.join(30)
        assert not thread.is_alive(), f"the thread of job {job} still runs"


def state(client: TestClient, world: World, job: str) -> dict[str, Any]:
    reply = client.get(f"/api/jobs/{job}", headers=world.auth("jay"))
    assert reply.status_code == 200, reply.text
    found: dict[str, Any] = reply.json()
    return found


def cancel(client: TestClient, world: World, job: str, account: str) -> Any:
    return client.delete(f"/api/jobs/{job}", headers=world.auth(account))


def waiting_job(client: TestClient, ruleset: str = "gold4", seed: int = 5) -> Job:
    """Jay's job made but never started (as if queued behind another)."""
    ledger = ledger_of(client)
    row = ledger.league_row(LEAGUE)
    body = WhatIf(ruleset=ruleset, seed=seed)
    question = Question(row, target_ruleset(row, ruleset, {}), body)
    return Jobs(ledger.read_models.engine, ledger).create(question, question.key(), "jay")


# --- the API --------------------------------------------------------------------------------


def test_the_asker_cancels_a_running_job_and_its_worker_stops(
    client: TestClient, world: World, endless: Endless
) -> None:
    job = running(client, world, endless)["id"]
    reply = cancel(client, world, job, "jay")
    assert reply.status_code == 200, reply.text
    said = reply.json()
    assert (said["id"], said["state"], said["account"]) == (job, "cancelled", "jay")
    assert said["problem"]["code"] == "job-cancelled"
    assert said["problem"]["detail"] == "cancelled by jay"
    ended_thread(client, job)
    assert isinstance(endless.stopped_by, whatif_jobs.Cancelled)
    steps = endless.steps
    found = state(client, world, job)
    assert found["state"] == "cancelled"  # not done, not failed: nothing written over it
    assert found["result"] is None
    assert found["done"] < found["total"]
    time.sleep(0.05)
    assert endless.steps == steps  # stopped for good
    assert worker_jobs(client).live == set()
    assert worker_jobs(client).stopping == set()


@pytest.mark.parametrize("account", ["commissioner", "admin"])
def test_the_commissioner_or_an_admin_cancels_a_coach_s_job(
    client: TestClient, world: World, endless: Endless, account: str
) -> None:
    job = running(client, world, endless)["id"]
    reply = cancel(client, world, job, account)
    assert reply.status_code == 200, reply.text
    assert reply.json()["problem"]["detail"] == f"cancelled by {account} ({account})"
    ended_thread(client, job)
    assert state(client, world, job)["state"] == "cancelled"


def test_another_coach_is_refused_and_the_job_runs_on(
    client: TestClient, world: World, endless: Endless
) -> None:
    job = running(client, world, endless)["id"]
    reply = cancel(client, world, job, "dan")
    assert reply.status_code == 403, reply.text
    assert reply.headers["content-type"] == "application/problem+json"
    assert reply.json()["code"] == "forbidden"
    assert "only the account that asked" in reply.json()["detail"]
    assert state(client, world, job)["state"] == "running"
    steps = endless.steps
    time.sleep(0.05)
    assert endless.steps > steps
    assert cancel(client, world, job, "jay").status_code == 200
    ended_thread(client, job)


def test_an_anonymous_caller_signs_in_first_and_an_outsider_does_not_see_the_job(
    client: TestClient, world: World
) -> None:
    job = waiting_job(client).id
    anonymous = client.delete(f"/api/jobs/{job}")
    assert anonymous.status_code == 401
    assert anonymous.headers["content-type"] == "application/problem+json"
    assert anonymous.headers["www-authenticate"].startswith("Bearer")
    outsider = cancel(client, world, job, "outsider")
    assert outsider.status_code == 404
    assert outsider.json()["code"] == "unknown-job"
    assert state(client, world, job)["state"] == "queued"


def test_an_unknown_job_is_not_found(client: TestClient, world: World) -> None:
    reply = cancel(client, world, "0" * 32, "jay")
    assert reply.status_code == 404
    assert reply.headers["content-type"] == "application/problem+json"
    assert reply.json()["code"] == "unknown-job"


def test_cancelling_twice_is_a_conflict_naming_the_state(client: TestClient, world: World) -> None:
    job = waiting_job(client).id
    assert cancel(client, world, job, "jay").status_code == 200
    again = cancel(client, world, job, "commissioner")
    assert again.status_code == 409
    assert again.headers["content-type"] == "application/problem+json"
    problem = again.json()
    assert problem["code"] == "job-ended"
    assert problem["title"] == "The job has ended"
    assert problem["detail"] == (
        f"what-if job {job} was cancelled: only a queued or running job can be cancelled"
    )
    # The first cancellation stands: still the asker's.
    assert state(client, world, job)["problem"]["detail"] == "cancelled by jay"


def test_a_finished_job_cannot_be_cancelled(client: TestClient, world: World) -> None:
    job = asked(client, world, {"ruleset": "lrb6-zal"})["id"]
    ended_thread(client, job)
    assert state(client, world, job)["state"] == "done"
    reply = cancel(client, world, job, "jay")
    assert reply.status_code == 409
    assert reply.json()["detail"].startswith(f"what-if job {job} is done:")
    assert state(client, world, job)["state"] == "done"


def test_a_queued_job_cancelled_leaves_the_queue_at_once(
    client: TestClient, world: World, endless: Endless
) -> None:
    first = running(client, world, endless)["id"]
    queued = asked(client, world, {**SAMPLES, "seed": 4})["id"]
    assert state(client, world, queued)["state"] == "queued"
    assert cancel(client, world, queued, "jay").json()["state"] == "cancelled"
    ended_thread(client, queued)  # it did not wait for the first to end
    assert state(client, world, first)["state"] == "running"
    assert state(client, world, queued)["done"] == 0
    assert cancel(client, world, first, "jay").status_code == 200
    ended_thread(client, first)


def test_a_job_cancelled_by_another_worker_stops_at_its_next_record_of_progress(
    client: TestClient, world: World, endless: Endless, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(whatif_jobs, "PROGRESS_EVERY", 0.02)
    job = running(client, world, endless)["id"]
    ledger = ledger_of(client)
    other = Jobs(ledger.read_models.engine, ledger)  # another worker's, on the same table
    assert other.cancel(job, "commissioner").state == "cancelled"
    assert job not in worker_jobs(client).stopping  # this worker learns it from the table
    ended_thread(client, job)
    assert isinstance(endless.stopped_by, whatif_jobs.Cancelled)
    assert state(client, world, job)["state"] == "cancelled"


def test_a_comparison_cancelled_while_it_replays_keeps_no_result(
    client: TestClient, world: World, held: Held
) -> None:
    job = asked(client, world, {"ruleset": "gold4", "seed": 8})["id"]
    assert held.started.wait(30)
    assert cancel(client, world, job, "jay").status_code == 200
    held.go.set()  # one replay has no steps: it ends, and its result is dropped
    ended_thread(client, job)
    found = state(client, world, job)
    assert (found["state"], found["result"]) == ("cancelled", None)


def test_the_same_question_asked_after_a_cancel_starts_a_new_job(
    client: TestClient, world: World
) -> None:
    question = {"ruleset": "lrb6-zal", "seed": 11}
    first = waiting_job(client, "lrb6-zal", seed=11)
    assert asked(client, world, question)["id"] == first.id  # under way: the same job
    assert cancel(client, world, first.id, "jay").status_code == 200
    fresh = asked(client, world, question)
    assert fresh["id"] != first.id
    assert fresh["state"] in ("queued", "running")
    ended_thread(client, fresh["id"])
    assert state(client, world, fresh["id"])["state"] == "done"
    assert state(client, world, first.id)["state"] == "cancelled"
    # and the finished one is what the question gives now
    assert asked(client, world, question, "dan")["id"] == fresh["id"]


def test_a_real_monte_carlo_cancelled_stops_before_its_end(
    client: TestClient, world: World
) -> None:
    job = asked(client, world, {"ruleset": "lrb6-zal", "samples": 500, "seed": 21})["id"]
    assert cancel(client, world, job, "jay").status_code == 200
    ended_thread(client, job)
    found = state(client, world, job)
    assert found["state"] == "cancelled"
    assert found["done"] < 500
    assert found["result"] is None


def test_a_browser_s_cancel_needs_its_csrf_token(client: TestClient, world: World) -> None:
    job = waiting_job(client).id
    csrf = sign_in(client, "jay")
    forged = client.delete(f"/api/jobs/{job}")
    assert forged.status_code == 403
    assert forged.json()["code"] == "csrf"
    assert state(client, world, job)["state"] == "queued"
    sent = client.delete(f"/api/jobs/{job}", headers={"X-CSRF-Token": csrf})
    assert sent.status_code == 200, sent.text
    assert sent.json()["state"] == "cancelled"


def test_the_openapi_document_lists_the_cancel_with_its_answers(client: TestClient) -> None:
    operation = client.get("/openapi.json").json()["paths"]["/api/jobs/{job}"]["delete"]
    assert {"200", "401", "403", "404", "409"} <= set(operation["responses"])
    job = client.get("/openapi.json").json()["components"]["schemas"]["Job"]
    assert "cancelled" in job["properties"]["state"]["enum"]


# --- the job's page ---------------------------------------------------------------------------

CANCEL = re.compile(r'<form method="post"[^>]* action="([^"]+/cancel[^"]*)"')


def test_the_page_offers_cancel_to_the_asker_and_the_commissioner_only(
    client: TestClient,
) -> None:
    job = waiting_job(client).id
    for account, offered in (("jay", True), ("commissioner", True), ("dan", False)):
        sign_in(client, account)
        html = client.get(f"{FORM}/{job}").text
        assert bool(CANCEL.search(html)) is offered, account


def test_cancel_on_the_page_cancels_the_job_and_the_page_says_who(
    client: TestClient, world: World
) -> None:
    job = waiting_job(client).id
    sign_in(client, "commissioner")
    html = client.get(f"{FORM}/{job}").text
    action = CANCEL.search(html)
    assert action is not None
    assert action.group(1) == f"{FORM}/{job}/cancel"
    reply = client.post(
        action.group(1),
        data={"csrf": csrf_in(html), "job": job, "once": "cancel-1"},
        follow_redirects=False,
    )
    assert reply.status_code == 303, reply.text[-800:]
    assert reply.headers["location"] == f"{FORM}/{job}"
    shown = client.get(reply.headers["location"]).text
    assert "<strong>The comparison:</strong> cancelled by commissioner (commissioner)" in shown
    assert 'http-equiv="refresh"' not in shown
    assert not CANCEL.search(shown)
    assert state(client, world, job)["state"] == "cancelled"


def test_the_page_s_cancel_is_refused_without_its_csrf_token_or_for_another_coach(
    client: TestClient, world: World
) -> None:
    job = waiting_job(client).id
    sign_in(client, "jay")
    forged = client.post(f"{FORM}/{job}/cancel", data={"job": job}, follow_redirects=False)
    assert forged.status_code == 403
    assert "CSRF" in forged.text
    csrf = sign_in(client, "dan")
    other = client.post(
        f"{FORM}/{job}/cancel", data={"csrf": csrf, "job": job}, follow_redirects=False
    )
    assert other.status_code == 403
    assert "only the account that asked" in other.text
    assert state(client, world, job)["state"] == "queued"


def test_cancelling_an_ended_job_from_the_page_shows_it_with_the_reason(
    client: TestClient,
) -> None:
    job = waiting_job(client).id
    csrf = sign_in(client, "jay")
    path = f"{FORM}/{job}/cancel"
    first = client.post(path, data={"csrf": csrf, "job": job}, follow_redirects=False)
    assert first.status_code == 303
    again = client.post(path, data={"csrf": csrf, "job": job}, follow_redirects=False)
    assert again.status_code == 409
    assert "Not cancelled:" in again.text
    assert "was cancelled: only a queued or running job can be cancelled" in again.text
    assert "job-ended" in again.text


def test_the_page_cancels_the_samples_beside_the_comparison(
    client: TestClient, world: World, endless: Endless
) -> None:
    sign_in(client, "jay")
    html = client.get(FORM, params={"ruleset": "gold4"}).text
    reply = client.post(
        FORM,
        data={"csrf": csrf_in(html), "ruleset": "gold4", "samples": "300", "seed": "2"},
        follow_redirects=False,
    )
    assert reply.status_code == 303, reply.text[-800:]
    path = reply.headers["location"]
    spread = path.split("?spread=", 1)[1]
    assert endless.started.wait(30)
    page = client.get(path).text
    forms = CANCEL.findall(page)
    assert forms
    assert set(forms) == {f"{path.split('?')[0]}/cancel?spread={spread}"}
    cancelled = client.post(
        forms[0].replace("&amp;", "&"),
        data={"csrf": csrf_in(page), "job": spread},
        follow_redirects=False,
    )
    assert cancelled.status_code == 303, cancelled.text[-800:]
    assert cancelled.headers["location"] == path
    ended_thread(client, spread)
    assert "<strong>The 300 samples:</strong> cancelled by jay" in client.get(path).text
    assert state(client, world, spread)["state"] == "cancelled"
