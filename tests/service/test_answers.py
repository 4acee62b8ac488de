"""Reads kept by league version (ledger/web/answers.py): the same bytes again while the
version stands, a new answer once it moves, never another caller's answer, and never a
refusal skipped because an answer was kept."""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ledger.application.accounts import Accounts
from ledger.projections.queries import Queries
from ledger.web.answers import COMPUTING, Answers, Kept
from tests.service.conftest import CHEAP, LEAGUE, World, ledger_of, sign_in

REAVERS = "reikland-reavers"
STANDINGS = f"/api/leagues/{LEAGUE}/standings"
TEAM = f"/api/leagues/{LEAGUE}/teams/{REAVERS}"


def answers_of(client: TestClient) -> Answers:
    app: FastAPI = client.app  # type: ignore[assignment]
    kept: Answers = app.state.service.answers
    return kept


@dataclass
class Held:
    """The standings computed in a thread each, the first held until ``release`` is set
    (``busy`` says it is held): one answer computing while others arrive and writes land.
    ``computed`` names the thread of each computation."""

    busy: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    computed: list[str] = field(default_factory=list)

    @classmethod
    def standings(cls, monkeypatch: pytest.MonkeyPatch) -> Held:
        held, standings = cls(), Queries.standings

        def slow(self: Queries, *args: Any, **kwargs: Any) -> Any:
            held.computed.append(threading.current_thread().name)
            if len(held.computed) == 1:
                held.busy.set()
                held.release.wait(30)
            return standings(self, *args, **kwargs)

        monkeypatch.setattr(Queries, "standings", slow)
        return held


def test_a_read_is_answered_again_from_what_was_kept(client: TestClient, world: World) -> None:
    first = client.get(STANDINGS, headers=world.auth("jay"))
    hits = answers_of(client).hits
    second = client.get(STANDINGS, headers=world.auth("jay"))
    assert first.status_code == second.status_code == 200
    assert second.content == first.content
    assert second.headers["etag"] == first.headers["etag"]
    assert second.headers["content-type"] == first.headers["content-type"]
    assert answers_of(client).hits == hits + 1


def test_readers_arriving_together_wait_for_one_computation(
    client: TestClient, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Right after a write every reader of a page misses: the first computes it, the
    others wait for it and are given the same bytes."""
    computed: list[int] = []
    standings = Queries.standings

    def slow(self: Queries, *args: Any, **kwargs: Any) -> Any:
        computed.append(1)
        time.sleep(0.3)
        return standings(self, *args, **kwargs)

    monkeypatch.setattr(Queries, "standings", slow)
    replies: list[bytes] = []

    def read() -> None:
        replies.append(client.get(STANDINGS, headers=world.auth("jay")).content)

    readers = [threading.Thread(target=read) for _ in range(4)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join(30)
    assert len(replies) == 4
    assert len(set(replies)) == 1
    assert computed == [1]


def test_misses_of_different_answers_are_computed_two_at_a_time(
    client: TestClient, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four callers miss the standings together (four answers, one per caller): two are
    computed side by side, the others wait for a turn rather than share the interpreter."""
    running: list[int] = []
    most: list[int] = []
    lock = threading.Lock()
    standings = Queries.standings

    def slow(self: Queries, *args: Any, **kwargs: Any) -> Any:
        with lock:
            running.append(1)
            most.append(len(running))
        time.sleep(0.2)
        with lock:
            running.pop()
        return standings(self, *args, **kwargs)

    monkeypatch.setattr(Queries, "standings", slow)
    statuses: list[int] = []

    def read(account: str) -> None:
        statuses.append(client.get(STANDINGS, headers=world.auth(account)).status_code)

    readers = [threading.Thread(target=read, args=(a,)) for a in ("jay", "dan", "steve", "rob")]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join(30)
    assert statuses == [200] * 4
    assert len(most) == 4
    assert max(most) == COMPUTING


def test_a_page_after_a_write_shows_it(client: TestClient, world: World) -> None:
    page = f"/leagues/{LEAGUE}/teams/{REAVERS}"
    sign_in(client, "jay")
    before = client.get(page)
    hired = client.post(
        f"{TEAM}/players",
        json={"position": "lineman", "name": "Paged Fresh"},
        headers=world.auth("jay"),
    )
    assert hired.status_code == 201, hired.text
    after = client.get(page)
    assert before.status_code == after.status_code == 200
    assert "Paged Fresh" not in before.text
    assert "Paged Fresh" in after.text
    assert after.headers["etag"] == hired.headers["etag"] != before.headers["etag"]


def test_a_write_moves_the_version_and_the_next_read_shows_it(
    client: TestClient, world: World
) -> None:
    before = client.get(TEAM, headers=world.auth("jay"))
    hired = client.post(
        f"{TEAM}/players",
        json={"position": "lineman", "name": "Kept Fresh"},
        headers=world.auth("jay"),
    )
    assert hired.status_code == 201, hired.text
    after = client.get(TEAM, headers=world.auth("jay"))
    assert "Kept Fresh" not in before.text
    assert "Kept Fresh" in after.text
    assert after.headers["etag"] != before.headers["etag"]


def test_a_revoked_token_is_refused_though_its_answer_was_kept(
    client: TestClient, world: World
) -> None:
    assert client.get(STANDINGS, headers=world.auth("dan")).status_code == 200
    Accounts(ledger_of(client), CHEAP).revoke("dan", by="admin", reason="left the league")
    refused = client.get(STANDINGS, headers=world.auth("dan"))
    assert refused.status_code == 401
    assert refused.headers["content-type"].startswith("application/problem+json")


def test_each_caller_gets_the_answer_made_for_it(client: TestClient, world: World) -> None:
    """The team page shows its coach the hire form and another coach none; both asked at
    the same league version."""
    page = f"/leagues/{LEAGUE}/teams/{REAVERS}"
    hire_link = f'href="/leagues/{LEAGUE}/teams/{REAVERS}/hire"'
    for _ in range(2):
        assert hire_link in client.get(page, headers=world.auth("jay")).text
        assert hire_link not in client.get(page, headers=world.auth("dan")).text


def test_a_page_carries_its_own_sessions_csrf_token(app: FastAPI) -> None:
    """Two browsers signed in as the same account at the same version: each page's forms
    carry that browser's own token, never the other's."""
    page = f"/leagues/{LEAGUE}/teams/{REAVERS}"
    with TestClient(app) as one, TestClient(app) as two:
        first, second = sign_in(one, "jay"), sign_in(two, "jay")
        assert first != second
        for _ in range(2):
            assert tokens_in(one.get(page).text) == {first}
            assert tokens_in(two.get(page).text) == {second}


def test_a_visitors_login_token_is_never_given_to_another(app: FastAPI) -> None:
    """Pages for visitors who are not signed in are kept (they show no token), but each
    visitor still gets a login token of their own, and no page carries another's."""
    with TestClient(app) as admin:
        done = admin.post(
            f"/api/leagues/{LEAGUE}/visibility",
            json={"public": True},
            headers={"Authorization": f"Bearer {admin_token(app)}"},
        )
        assert done.status_code == 201, done.text
    page = f"/leagues/{LEAGUE}"
    with TestClient(app) as one, TestClient(app) as two:
        first = one.get(page)
        hits = app.state.service.answers.hits
        second = two.get(page)
        assert first.status_code == second.status_code == 200
        assert app.state.service.answers.hits == hits + 1
        for visitor in (one, two):  # the login form gives each its own token
            assert visitor.get("/login").status_code == 200
        tokens = {one.cookies["ledger_csrf"], two.cookies["ledger_csrf"]}
        assert len(tokens) == 2
        for token in tokens:
            assert token not in first.text
            assert token not in second.text
            assert token in one.get("/login").text or token in two.get("/login").text


def admin_token(app: FastAPI) -> str:
    return Accounts(app.state.service.ledger, CHEAP).issue_token("admin")


def tokens_in(html: str) -> set[str]:
    return set(re.findall(r'name="csrf" value="([^"]+)"', html))


def test_the_audit_is_never_kept(client: TestClient, world: World) -> None:
    """The audit re-reads the stored rows: an edit behind the ledger's back must show on the
    next request even though the version did not move."""
    audit = f"/api/leagues/{LEAGUE}/audit"
    client.get(audit, headers=world.auth("commissioner"))
    hits = answers_of(client).hits
    client.get(audit, headers=world.auth("commissioner"))
    assert answers_of(client).hits == hits


def kept(size: int) -> Kept:
    return Kept(200, b"x" * size, ())


def test_kept_answers_are_bounded_by_count_and_bytes_least_recent_first_out() -> None:
    answers = Answers(max_entries=3, max_bytes=100)
    for key in "abc":
        answers.keep(key, kept(10))
    answers.get("a", 0)  # now the most recently used
    answers.keep("d", kept(10))
    assert set(answers.entries) == {"a", "c", "d"}
    answers.keep("e", kept(90))  # 120 bytes: the two least recently used go
    assert list(answers.entries) == ["d", "e"]
    assert answers.size == 100


def test_an_answer_kept_at_a_later_version_answers_an_earlier_reader() -> None:
    answers = Answers()
    answers.keep("page", Kept(200, b"at 7", (), version=7))
    assert answers.get("page", 6) is not None
    assert answers.get("page", 7) is not None
    assert answers.get("page", 8) is None
    answers.keep("page", Kept(200, b"at 5", (), version=5))  # computed late: not kept
    assert answers.entries["page"].body == b"at 7"


def test_readers_who_waited_across_a_write_share_one_answer_computed_after_it(
    client: TestClient, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader waits for its turn to compute while a write lands and a second reader
    arrives: the answer is computed as the league stands once the turn comes, and given to
    both, rather than computed at the first reader's version and again at the second's."""
    held = Held.standings(monkeypatch)
    busy, release, computed = held.busy, held.release, held.computed
    replies: dict[str, Any] = {}

    def read(name: str, account: str) -> None:
        replies[name] = client.get(STANDINGS, headers=world.auth(account))

    def waiting(readers: int) -> None:
        deadline = time.monotonic() + 10
        while sum(answers_of(client).waiting.values()) < readers:
            assert time.monotonic() < deadline
            time.sleep(0.01)

    other = threading.Thread(target=read, args=("dan", "dan"))
    other.start()
    assert busy.wait(10)  # dan's answer holds the turn to compute
    first = threading.Thread(target=read, args=("first", "jay"))
    first.start()
    waiting(2)
    hired = client.post(
        f"{TEAM}/players",
        json={"position": "lineman", "name": "Late Comer"},
        headers=world.auth("jay"),
    )
    assert hired.status_code == 201, hired.text
    second = threading.Thread(target=read, args=("second", "jay"))
    second.start()
    waiting(3)
    release.set()
    for reader in (other, first, second):
        reader.join(30)
    # dan's twice (the write landed while it was built: built again, at the new
    # version, rather than tagged with one its body does not show), then one for both
    # of jay's readers
    assert len(computed) == 3
    assert replies["dan"].headers["etag"] == hired.headers["etag"]
    assert replies["first"].status_code == replies["second"].status_code == 200
    assert replies["first"].headers["etag"] == replies["second"].headers["etag"]
    assert replies["second"].headers["etag"] == hired.headers["etag"]
    assert replies["first"].content == replies["second"].content


def test_a_reader_who_waited_for_the_computing_slot_across_a_write_computes_once(
    client: TestClient, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader whose answer no one else computes waits for the slot another answer holds
    (``Answers.computing``) while a write lands: it reads the league's row again once the
    slot is its own, and computes its answer once, at the write's version, not first at
    the version the guard found and then again."""
    held = Held.standings(monkeypatch)
    busy, release, computed = held.busy, held.release, held.computed
    replies: dict[str, Any] = {}

    def read(account: str) -> None:
        replies[account] = client.get(STANDINGS, headers=world.auth(account))

    holder = threading.Thread(target=read, args=("dan",))
    holder.start()
    assert busy.wait(10)  # dan's answer holds the one computing slot
    waiter = threading.Thread(target=read, args=("jay",))  # another caller: another answer
    waiter.start()
    deadline = time.monotonic() + 10
    while sum(answers_of(client).waiting.values()) < 2:  # jay in his turn, at the slot
        assert time.monotonic() < deadline
        time.sleep(0.01)
    hired = client.post(
        f"{TEAM}/players",
        json={"position": "lineman", "name": "Late Comer"},
        headers=world.auth("jay"),
    )
    assert hired.status_code == 201, hired.text
    release.set()
    for reader in (holder, waiter):
        reader.join(30)
    assert replies["jay"].headers["etag"] == hired.headers["etag"]
    # dan's twice (the write landed while it was built), jay's once
    assert len(computed) == 3
