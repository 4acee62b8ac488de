"""Shared fixtures: ledgers on a temporary SQLite file and on a real PostgreSQL server.

PostgreSQL comes from ``LEDGER_TEST_DATABASE_URL`` when set; otherwise, when Debian's
server binaries are installed, a private throwaway cluster is started for the session.
Without either the PostgreSQL tests skip with the reason shown; under ``.ci/run``
(``LEDGER_REQUIRE_POSTGRES=1``) they fail instead, so CI cannot pass without them.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.events import LedgerEvent
from ledger.domain.unreadable import UnreadableEvent
from ledger.persistence.mapper import LedgerMapper

BACKENDS = ["sqlite", "postgres"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def as_postgres(command: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@contextlib.contextmanager
def private_cluster() -> Iterator[str]:
    binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not binaries:
        raise RuntimeError("no PostgreSQL server binaries (Debian package 'postgresql')")
    bin_dir = Path(binaries[-1]).parent
    data = Path(tempfile.mkdtemp(prefix="ledger-pg-"))
    if os.geteuid() == 0:
        shutil.chown(data, "postgres", "postgres")
    port = free_port()
    run = {"check": True, "capture_output": True}
    subprocess.run(
        as_postgres(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data / "db"),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
            ]
        ),
        **run,
    )  # type: ignore[call-overload]
    subprocess.run(
        as_postgres(
            [
                str(bin_dir / "pg_ctl"),
                "-D",
                str(data / "db"),
                "-w",
                "-l",
                str(data / "log"),
                "-o",
                f"-p {port} -k {data} -c listen_addresses=127.0.0.1"
                " -c fsync=off -c max_connections=200",
                "start",
            ]
        ),
        **run,
    )  # type: ignore[call-overload]
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            as_postgres(
                [str(bin_dir / "pg_ctl"), "-D", str(data / "db"), "-m", "immediate", "stop"]
            ),
            check=False,
            capture_output=True,
        )
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    given = os.environ.get("LEDGER_TEST_DATABASE_URL")
    if given:
        yield given
        return
    try:
        with private_cluster() as url:
            yield url
    except (RuntimeError, subprocess.CalledProcessError, FileNotFoundError) as error:
        reason = f"PostgreSQL unavailable ({error}); set LEDGER_TEST_DATABASE_URL to run these"
        if os.environ.get("LEDGER_REQUIRE_POSTGRES"):
            pytest.fail(reason)
        pytest.skip(reason)


_databases = itertools.count()


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database on the server for one test."""
    name = f"ledger_test_{os.getpid()}_{next(_databases)}"
    admin = postgres_server
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield admin.rsplit("/", 1)[0] + f"/{name}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """Settings for a fresh ledger on each backend (the same tests run on both)."""
    if request.param == "postgres":
        url = request.getfixturevalue("postgres_url")
        return Settings(sqlite_path=tmp_path / "unused.db", database_url=url, user="tester")
    return Settings(sqlite_path=tmp_path / "ledger.db", user="tester")


@pytest.fixture
def open_ledgers() -> Iterator[Callable[[Settings], LeagueLedger]]:
    opened: list[LeagueLedger] = []

    def opener(settings: Settings) -> LeagueLedger:
        ledger = open_ledger(settings)
        opened.append(ledger)
        return ledger

    yield opener
    for ledger in opened:
        try:
            assert_read_back_agrees(ledger)
        finally:
            close_ledger(ledger)


def assert_read_back_agrees(ledger: LeagueLedger) -> None:
    """Every event of the ledger that validates reads back by its shape as the same event
    (ledger/domain/readback.py): checked on every ledger a test opened, which between
    them hold every kind of event the commands record."""
    mapper = ledger.mapper
    assert isinstance(mapper, LedgerMapper)
    after = 0
    while page := ledger.recorder.select_notifications(
        start=after or None, limit=500, inclusive_of_start=not after
    ):
        for stored in page:
            validated = mapper.to_domain_event(stored)
            if isinstance(validated, LedgerEvent) and not isinstance(validated, UnreadableEvent):
                shaped = mapper.read_back(stored)
                assert (type(shaped), shaped) == (type(validated), validated), stored.topic
        after = page[-1].id


@pytest.fixture
def ledger(settings: Settings, open_ledgers: Callable[[Settings], LeagueLedger]) -> LeagueLedger:
    return open_ledgers(settings)


@pytest.fixture
def sqlite_ledger(tmp_path: Path, open_ledgers: Callable[[Settings], LeagueLedger]) -> LeagueLedger:
    return open_ledgers(Settings(sqlite_path=tmp_path / "ledger.db", user="tester"))


def wait_for(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met in time")
        time.sleep(0.01)
