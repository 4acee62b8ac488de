"""A command that lost its race to another writer is tried again on fresh state for a
while (``unit.retried``), then refused with nothing stored; other errors are not retried."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from ledger.application.unit import Stale, retried
from ledger.errors import ConcurrentUpdate, InsufficientTreasury


def losing(times: int) -> tuple[list[int], Callable[[], str]]:
    tries: list[int] = []

    def attempt() -> str:
        tries.append(1)
        if len(tries) <= times:
            raise Stale("another writer got in first")
        return "stored"

    return tries, attempt


def test_a_command_that_lost_its_race_is_tried_again_until_it_is_stored() -> None:
    tries, attempt = losing(12)  # more than the five tries that gave up before
    lost: list[int] = []
    assert retried(attempt, "refused", lost=lambda: lost.append(1)) == "stored"
    assert (len(tries), len(lost)) == (13, 12)


def test_a_command_that_keeps_losing_is_refused_when_its_time_is_up() -> None:
    _, attempt = losing(10**9)
    started = time.monotonic()
    with pytest.raises(ConcurrentUpdate, match=r"^kept changing, nothing recorded$") as refused:
        retried(attempt, "kept changing, nothing recorded", seconds=0.3)
    assert not isinstance(refused.value, Stale)  # the caller's sentence, not the race's
    assert 0.1 < time.monotonic() - started < 1.0


def test_a_refusal_by_the_books_is_not_tried_again() -> None:
    tries: list[int] = []

    def attempt() -> None:
        tries.append(1)
        raise InsufficientTreasury("the Reavers have 10,000 gp")

    with pytest.raises(InsufficientTreasury):
        retried(attempt, "refused")
    assert tries == [1]
