"""The read models' pool on PostgreSQL pings a connection only after it rested: every step
of a request checks one out, and a ping at each was a round trip each
(``ledger.bootstrap.ping_when_idle``). A connection that died while resting is found by
its ping and replaced, so the caller never sees it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ledger.bootstrap import IDLE_PING, postgres_engine


@pytest.fixture
def engine(postgres_url: str) -> Iterator[Engine]:
    made = postgres_engine(postgres_url)
    yield made
    made.dispose()


def pings_counted(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    pinged: list[Any] = []
    real = engine.dialect.do_ping

    def counting(connection: Any) -> bool:
        pinged.append(connection)
        return real(connection)

    monkeypatch.setattr(engine.dialect, "do_ping", counting)
    return pinged


def backend_of(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(sa.text("SELECT pg_backend_pid()")).scalar_one())


def rested(engine: Engine, seconds: float) -> None:
    """Every pooled connection as if returned ``seconds`` ago."""
    pool: Any = engine.pool
    for record in list(pool._pool.queue):
        record.info["rested_from"] -= seconds


def test_a_connection_just_returned_is_not_pinged(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    pinged = pings_counted(engine, monkeypatch)
    first = backend_of(engine)
    for _ in range(5):
        assert backend_of(engine) == first  # the same pooled connection, each step
    assert pinged == []
    rested(engine, IDLE_PING + 1)
    assert backend_of(engine) == first
    assert len(pinged) == 1


def test_a_connection_that_died_while_resting_is_replaced_unseen(
    engine: Engine, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pinged = pings_counted(engine, monkeypatch)
    dead = backend_of(engine)
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (dead,))
    rested(engine, IDLE_PING + 1)
    fresh = backend_of(engine)  # no error: the ping found it dead, the pool made another
    assert fresh != dead
    assert len(pinged) == 1
