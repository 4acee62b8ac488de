"""Writes take their turn in the event loop (ledger/web/guard.py): while one runs, the
others wait without holding a request thread, so reads are answered meanwhile."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from anyio import to_thread
from fastapi.testclient import TestClient

from ledger.application.service import LeagueLedger
from tests.service.conftest import LEAGUE, World

TEAM = f"/api/leagues/{LEAGUE}/teams/reikland-reavers"


def test_waiting_writes_leave_the_threads_to_reads(
    client: TestClient, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.portal.call(set_threads, 2)  # type: ignore[union-attr]
    release, started = threading.Event(), threading.Event()
    handle = LeagueLedger.handle

    def slow_hire(self: LeagueLedger, *args: Any, **kwargs: Any) -> Any:
        started.set()
        assert release.wait(20)
        return handle(self, *args, **kwargs)

    monkeypatch.setattr(LeagueLedger, "handle", slow_hire)
    answers: dict[str, int] = {}

    def post(name: str) -> None:
        body = {"position": "lineman", "name": name}
        answers[name] = client.post(
            f"{TEAM}/players", json=body, headers=world.auth("jay")
        ).status_code

    writers = [threading.Thread(target=post, args=(f"Waiting {i}",)) for i in range(2)]
    for writer in writers:
        writer.start()
    assert started.wait(10)
    read = client.get(TEAM, headers=world.auth("dan"))  # both threads would be writers' else
    assert read.status_code == 200
    assert not any(name.startswith("Waiting") for name in answers)  # the writes still wait
    release.set()
    for writer in writers:
        writer.join(30)
    assert answers == {f"Waiting {i}": 201 for i in range(2)}


async def set_threads(count: int) -> None:
    to_thread.current_default_thread_limiter().total_tokens = count
