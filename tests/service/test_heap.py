"""A serving process keeps the garbage collector's full passes short (ledger/web/heap.py):
what it has built by start-up, and again once warm, is frozen out of them; an application
made for tests freezes nothing."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from ledger.bootstrap import Settings
from ledger.web.app import create_app
from ledger.web.heap import SWITCH, YOUNG, Heap
from tests.service.conftest import CHEAP, LEAGUE, World


@pytest.fixture
def collector() -> Iterator[None]:
    """The test process's collector as it was, whatever the test froze or set."""
    threshold, switch = gc.get_threshold(), sys.getswitchinterval()
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)
    sys.setswitchinterval(switch)


def test_a_served_application_freezes_its_started_heap(collector: None, world: World) -> None:
    app = create_app(Settings(sqlite_path=world.db), hasher=CHEAP, settle=True)
    with TestClient(app) as client:
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] == YOUNG
        assert sys.getswitchinterval() == pytest.approx(SWITCH)
        answer = client.get(f"/api/leagues/{LEAGUE}/standings", headers=world.auth("jay"))
        assert answer.status_code == 200


def test_an_application_for_tests_freezes_nothing(collector: None, world: World) -> None:
    app = create_app(Settings(sqlite_path=world.db), hasher=CHEAP)
    with TestClient(app) as client:
        client.get(f"/api/leagues/{LEAGUE}/standings", headers=world.auth("jay"))
        assert gc.get_freeze_count() == 0
        assert sys.getswitchinterval() != pytest.approx(SWITCH)


def test_the_heap_settles_again_once_warm(collector: None) -> None:
    heap = Heap(warm_requests=3)
    heap.started()
    at_start = gc.get_freeze_count()
    built_while_warming = [[n] for n in range(100)]  # lists: always tracked
    heap.served()
    heap.served()
    assert gc.get_freeze_count() == at_start
    heap.served()
    assert gc.get_freeze_count() >= at_start + len(built_while_warming)
