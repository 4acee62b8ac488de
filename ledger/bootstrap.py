"""The composition root: settings in, a ledger wired to its stores out.

SQLite is the default (a file, ``ledger.db`` in the current directory, or ``LEDGER_DB``);
``LEDGER_DATABASE_URL=postgresql://user:password@host:port/db`` selects PostgreSQL; an
explicit ``--db PATH`` wins over both (ledger/settings.py). The events go in the
eventsourcing library's tables and the read models in ``rm_*`` tables of the same
database. Nothing connects at import time. The ledger's commands are answered by the
handlers of ``ledger.application.handlers.HANDLERS``, installed here.

SQLite needs no setup: its tables are made (if missing) on every open, which its file
lock makes safe. PostgreSQL's schema is created once, not on every open: the library's
own ``CREATE TABLE IF NOT EXISTS`` and ``CREATE OR REPLACE FUNCTION`` race each other
when several processes open at once (``tuple concurrently updated``). So an open reads
one row, the schema's version; only when it is missing or old does the process take a
PostgreSQL advisory lock, create everything (and refold the read models if their shape
changed), record the version and let go; the ledger itself always opens with the
library's table creation off.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import random
import time
from collections.abc import Iterator, Mapping
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ledger.application.service import LeagueLedger
from ledger.errors import NoLedger
from ledger.projections.runner import ReadModels
from ledger.projections.shapes import fingerprint, json_text

# The settings are read in a module of their own (a read command reads them before it
# knows whether it needs this one); the composition root still offers them to its callers.
from ledger.settings import Settings as Settings
from ledger.settings import settings_from as settings_from

if TYPE_CHECKING:
    from ledger.application.commands import Command
    from ledger.application.handlers import Handler


class Handlers(Mapping["type[Command[Any]]", "Handler"]):
    """The table of ``ledger.application.handlers``, imported when a command first asks
    for it: a command that only reads (``ledger standings``) never imports the handlers,
    their rules and the commands they need."""

    @functools.cached_property
    def table(self) -> Mapping[type[Command[Any]], Handler]:
        from ledger.application.handlers import HANDLERS

        return HANDLERS

    def __getitem__(self, kind: type[Command[Any]]) -> Handler:
        return self.table[kind]

    def __iter__(self) -> Iterator[type[Command[Any]]]:
        return iter(self.table)

    def __len__(self) -> int:
        return len(self.table)


POOL_SIZE = 8
"""Read-model connections one process keeps: the service runs as many request threads."""


def open_ledger(
    settings: Settings, *, roller: random.Random | None = None, create: bool = True
) -> LeagueLedger:
    """The ledger on the stores ``settings`` name, its read models caught up. ``roller``
    is where the ledger's own dice come from (``--roll``): system randomness by default,
    a seeded generator for reproducible synthetic leagues and tests. Without ``create``
    a SQLite file that does not exist is an error, not a new empty ledger (a typo in
    ``--db`` must not pass for a ledger with nothing in it)."""
    if settings.database_url:
        return open_postgres(settings.database_url, roller)
    if not create and not settings.sqlite_path.exists():
        raise NoLedger(
            f"no ledger at {settings.sqlite_path}: check --db (or $LEDGER_DB), or start"
            " one with 'ledger league create', 'ledger import', or 'ledger account add"
            " NAME --role admin' for a site whose leagues are made in the browser"
        )
    settings.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
    env, engine = sqlite_env(settings.sqlite_path), sqlite_engine(settings.sqlite_path)
    read_models = ReadModels(engine)
    current = read_models.create()
    ledger = LeagueLedger(env=env, read_models=read_models, handlers=Handlers(), roller=roller)
    return caught_up(ledger, current)


def caught_up(ledger: LeagueLedger, current: bool) -> LeagueLedger:
    if current:
        ledger.read_models.refresh(ledger.source)
    else:  # written by another version of the code: refold them from the log
        ledger.read_models.rebuild(ledger.source)
    return ledger


def close_ledger(ledger: LeagueLedger) -> None:
    ledger.close()
    ledger.read_models.engine.dispose()


def sqlite_env(path: Path) -> dict[str, str]:
    # Prefixed keys: they win over any unprefixed library setting in the environment.
    return {
        "LEDGER_PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "LEDGER_SQLITE_DBNAME": str(path),
        "LEDGER_SQLITE_LOCK_TIMEOUT": "30",
        # reads an event's content as its bytes, whatever storage class it was given
        "LEDGER_APPLICATION_RECORDER_TOPIC": "ledger.persistence.sqlite:BytesSQLiteRecorder",
    }


def sqlite_engine(path: Path) -> Engine:
    engine = sa.create_engine(
        f"sqlite:///{path}", json_serializer=json_text, pool_size=POOL_SIZE, max_overflow=POOL_SIZE
    )

    @sa.event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        # Read models can always be rebuilt from the log, so they need not wait for fsync.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    return engine


def postgres_parts(url: str) -> dict[str, str]:
    parts = urlsplit(url)
    return {
        "DBNAME": parts.path.lstrip("/") or "postgres",
        "HOST": parts.hostname or "localhost",
        "PORT": str(parts.port or 5432),
        "USER": unquote(parts.username or "postgres"),
        "PASSWORD": unquote(parts.password or ""),
    }


def postgres_env(url: str) -> dict[str, str]:
    env = {f"LEDGER_POSTGRES_{k}": v for k, v in postgres_parts(url).items()}
    env["LEDGER_PERSISTENCE_MODULE"] = "eventsourcing.postgres"
    env["LEDGER_POSTGRES_ENABLE_DB_FUNCTIONS"] = "y"
    # appends through the read models' connection when a command lends it one
    env["LEDGER_APPLICATION_RECORDER_TOPIC"] = "ledger.persistence.postgres:LendingPostgresRecorder"
    return env


def open_postgres(url: str, roller: random.Random | None) -> LeagueLedger:
    env, read_models = postgres_env(url), ReadModels(postgres_engine(url))
    if schema_version(read_models.engine) != schema_wanted():
        with schema_lock(read_models.engine):
            if schema_version(read_models.engine) != schema_wanted():  # not done meanwhile
                create_schema(env, read_models)
    ledger = LeagueLedger(
        env={**env, "LEDGER_CREATE_TABLE": "n"},
        read_models=read_models,
        handlers=Handlers(),
        roller=roller,
    )
    return caught_up(ledger, current=True)


SCHEMA_LOCK = int.from_bytes(b"ledger", "big")
"""The advisory lock every process takes to create the schema: one fixed key."""

SCHEMA = sa.Table(
    "ledger_schema", sa.MetaData(), sa.Column("version", sa.String(64), primary_key=True)
)
"""One row: the version of the schema the database holds (``schema_wanted``)."""


@functools.cache
def schema_wanted() -> str:
    """The version this code wants: it changes with the library's release (its tables)
    and with the read models' shape or fold."""
    mark = f"eventsourcing {metadata.version('eventsourcing')}; read models {fingerprint()}"
    return hashlib.sha256(mark.encode()).hexdigest()


def schema_version(engine: Engine) -> str | None:
    """The schema's recorded version, in one query; None before it was ever created."""
    try:
        with engine.connect() as conn:
            return conn.execute(sa.select(SCHEMA.c.version)).scalar()
    except sa.exc.ProgrammingError:  # no such table yet
        return None


@contextlib.contextmanager
def schema_lock(engine: Engine) -> Iterator[None]:
    """Held on a connection of its own, outside any transaction; the server lets go of
    it too if the process dies."""
    with engine.connect() as conn:
        conn = conn.execution_options(isolation_level="AUTOCOMMIT")
        conn.execute(sa.select(sa.func.pg_advisory_lock(SCHEMA_LOCK)))
        try:
            yield
        finally:
            conn.execute(sa.select(sa.func.pg_advisory_unlock(SCHEMA_LOCK)))


def create_schema(env: dict[str, str], read_models: ReadModels) -> None:
    """The library's tables and functions, the read models (refolded if their shape
    changed), then the version: all idempotent, so a process killed half-way leaves
    work that the next open simply does again."""
    ledger = LeagueLedger(
        env={**env, "LEDGER_CREATE_TABLE": "y"}, read_models=read_models, handlers=Handlers()
    )
    try:
        caught_up(ledger, read_models.create())
        with read_models.engine.begin() as conn:
            SCHEMA.create(conn, checkfirst=True)
            conn.execute(SCHEMA.delete())
            conn.execute(SCHEMA.insert().values(version=schema_wanted()))
    finally:
        ledger.close()


def postgres_engine(url: str) -> Engine:
    parts = urlsplit(url)
    engine = sa.create_engine(
        parts._replace(scheme="postgresql+psycopg").geturl(),
        json_serializer=json_text,
        pool_size=POOL_SIZE,
        max_overflow=POOL_SIZE,
    )
    ping_when_idle(engine)
    return engine


IDLE_PING = 10.0
"""Seconds a pooled connection may rest before its next checkout pings the server."""


def ping_when_idle(engine: Engine, idle: float = IDLE_PING) -> None:
    """Ping a pooled connection on checkout only after it rested ``idle`` seconds.

    SQLAlchemy's ``pool_pre_ping`` pings at every checkout, and every step of a request
    checks one out: a round trip each, 11% of a PostgreSQL worker's samples under load
    (docs/performance-journal.md). A server restarted or a connection a firewall cut
    happens while a connection rests, so one just returned is used as it is; a dead one
    found by the ping is replaced (``DisconnectionError``: the pool retries with a new
    connection)."""

    @sa.event.listens_for(engine, "connect")
    def made(_: Any, record: Any) -> None:
        record.info["rested_from"] = time.monotonic()

    @sa.event.listens_for(engine, "checkin")
    def returned(_: Any, record: Any) -> None:
        record.info["rested_from"] = time.monotonic()

    @sa.event.listens_for(engine, "checkout")
    def taken(connection: Any, record: Any, _: Any) -> None:
        if time.monotonic() - record.info.get("rested_from", 0.0) < idle:
            return
        try:
            engine.dialect.do_ping(connection)
        except Exception as error:  # any failure of the ping: the connection is not usable
            raise sa.exc.DisconnectionError(str(error)) from error
