"""The league's version in answers: a write's answer names the version the write itself
left, and a read's ETag names the version its body shows, whatever other writers do
meanwhile. Other writers are made to land at a chosen moment (a second ledger on the same
file, run from a patched step), so each interleaving is tested, not hoped for."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ledger.application.commands import AdjustTreasury
from ledger.application.service import LeagueLedger
from ledger.application.unit import UnitOfWork
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.log import league_id
from ledger.projections.queries import Queries
from ledger.web import api
from ledger.web.known import Known
from tests.service.conftest import LEAGUE, World, ledger_of
from tests.service.test_api_reports import FRIENDLY

BASE = f"/api/leagues/{LEAGUE}"
TEAM = "reikland-reavers"
ADJUST = {"team": TEAM, "amount": 1000, "reason": "a gift"}


@pytest.fixture
def other(world: World) -> Iterator[LeagueLedger]:
    """Another client's ledger on the same file (another worker, or the CLI)."""
    ledger = open_ledger(Settings(sqlite_path=world.db))
    try:
        yield ledger
    finally:
        close_ledger(ledger)


def once(step: Callable[[], None]) -> Callable[[], None]:
    """``step`` the first time only (the patched code runs again when retried)."""
    done: list[bool] = []

    def run() -> None:
        if not done:
            done.append(True)
            step()

    return run


def another_write(other: LeagueLedger) -> Callable[[], None]:
    return once(
        lambda: other.handle(AdjustTreasury(LEAGUE, TEAM, 5000), by="other", reason="meanwhile")
    )


def last_seq(client: TestClient) -> int:
    return list(ledger_of(client).source.league_events(str(league_id(LEAGUE))))[-1].seq


def version_of(reply: Any) -> int:
    return int(reply.headers["etag"].strip('"'))


# --- writes ------------------------------------------------------------------------------


def test_confirming_a_report_answers_the_version_it_left(client: TestClient, world: World) -> None:
    submitted = client.post(BASE + "/reports", json=FRIENDLY, headers=world.auth("jay"))
    assert submitted.status_code == 201, submitted.text
    submission = submitted.json()["submission"]
    confirmed = client.post(f"{BASE}/reports/{submission}/confirm", headers=world.auth("dan"))
    assert confirmed.status_code == 201, confirmed.text
    assert confirmed.json()["version"] == version_of(confirmed) == last_seq(client)
    league = client.get(BASE, headers=world.auth("dan"))
    assert league.headers["etag"] == confirmed.headers["etag"]
    chained = client.post(
        BASE + "/treasury-adjustments",
        json=ADJUST,
        headers={**world.auth("commissioner"), "If-Match": confirmed.headers["etag"]},
    )
    assert chained.status_code == 201, chained.text


def test_a_writes_answer_does_not_count_a_later_write_of_another_client(
    client: TestClient, world: World, other: LeagueLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    commit = UnitOfWork.commit
    meanwhile = another_write(other)

    def commit_then_another(unit: UnitOfWork) -> Any:
        events = commit(unit)
        if events:
            meanwhile()  # lands after this write, before its answer is made
        return events

    monkeypatch.setattr(UnitOfWork, "commit", commit_then_another)
    before = client.get(BASE, headers=world.auth("commissioner")).json()["version"]
    written = client.post(
        BASE + "/treasury-adjustments", json=ADJUST, headers=world.auth("commissioner")
    )
    assert written.status_code == 201, written.text
    assert last_seq(client) == before + 2  # this write's event, then the other client's
    assert written.json()["version"] == version_of(written) == before + 1
    stale = client.post(
        BASE + "/treasury-adjustments",
        json=ADJUST,
        headers={**world.auth("commissioner"), "If-Match": written.headers["etag"]},
    )
    assert stale.status_code == 412  # the other client's write is not known to this one


# --- reads ---------------------------------------------------------------------------------


def test_a_read_a_write_lands_in_is_tagged_with_the_version_its_body_shows(
    client: TestClient, world: World, other: LeagueLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    roster = Queries.roster
    meanwhile = another_write(other)

    def write_then_roster(self: Queries, *args: Any, **kwargs: Any) -> Any:
        meanwhile()  # after the request read the league's version, before its data
        return roster(self, *args, **kwargs)

    path = f"{BASE}/teams/{TEAM}"
    monkeypatch.setattr(Queries, "roster", write_then_roster)
    raced = client.get(path, headers=world.auth("jay"))
    quiet = client.get(path, headers=world.auth("dan"))  # computed afresh, no write
    assert raced.status_code == quiet.status_code == 200
    assert raced.headers["etag"] == quiet.headers["etag"] == f'"{last_seq(client)}"'
    assert raced.json() == quiet.json()


def test_a_league_read_after_a_write_it_did_not_see_keeps_no_mismatched_answer(
    client: TestClient, world: World, other: LeagueLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    league_row = Known.league_row
    meanwhile = another_write(other)

    def row_then_write(self: Known, *args: Any, **kwargs: Any) -> Any:
        found = league_row(self, *args, **kwargs)
        meanwhile()  # just after the request read its league's row
        return found

    client.get(BASE, headers=world.auth("jay"))  # an answer kept at this version
    client.post(BASE + "/treasury-adjustments", json=ADJUST, headers=world.auth("commissioner"))
    monkeypatch.setattr(Known, "league_row", row_then_write)
    for _ in range(2):  # computed, then given again from the answers kept
        reply = client.get(BASE, headers=world.auth("jay"))
        assert reply.status_code == 200
        assert reply.json()["version"] == version_of(reply) == last_seq(client)


def test_the_log_read_a_write_lands_in_matches_its_etag(
    client: TestClient, world: World, other: LeagueLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    meanwhile = another_write(other)

    def write_then_id(slug: str) -> Any:
        meanwhile()  # as the route names the log it reads, after the guard read the row
        return league_id(slug)

    monkeypatch.setattr(api, "league_id", write_then_id)
    start = last_seq(client) - 3
    reply = client.get(f"{BASE}/events?after={start}", headers=world.auth("jay"))
    assert reply.status_code == 200
    assert [e["seq"] for e in reply.json()["items"]][-1] == version_of(reply)
