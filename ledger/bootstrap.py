"""The composition root: settings in, a ledger wired to its stores out.

SQLite is the default (a file, ``ledger.db`` in the current directory, or ``--db PATH``,
or ``LEDGER_DB``); ``LEDGER_DATABASE_URL=postgresql://user:password@host:port/db``
selects PostgreSQL. The events go in the eventsourcing library's tables and the read
models in ``rm_*`` tables of the same database. Nothing connects at import time.
"""

from __future__ import annotations

import getpass
import os
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ledger.application.service import LeagueLedger
from ledger.errors import StoreError
from ledger.projections.runner import ReadModels

DEFAULT_DB = "ledger.db"


@dataclass(frozen=True)
class Settings:
    sqlite_path: Path
    database_url: str | None = None
    user: str = "commissioner"

    @property
    def store(self) -> str:
        return "postgresql" if self.database_url else f"sqlite:{self.sqlite_path}"


def settings_from(db: str | None = None, environ: Mapping[str, str] | None = None) -> Settings:
    environ = os.environ if environ is None else environ
    url = environ.get("LEDGER_DATABASE_URL") or None
    if url and not url.startswith(("postgresql://", "postgres://")):
        raise StoreError(
            f"LEDGER_DATABASE_URL must be a postgresql:// URL, not {url.split(':')[0]}"
        )
    path = Path(db or environ.get("LEDGER_DB") or DEFAULT_DB)
    return Settings(sqlite_path=path, database_url=url, user=environ.get("LEDGER_USER") or whoami())


def whoami() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "commissioner"


def open_ledger(settings: Settings, *, roller: random.Random | None = None) -> LeagueLedger:
    """The ledger on the stores ``settings`` name, its read models caught up. ``roller``
    is where the ledger's own dice come from (``--roll``): system randomness by default,
    a seeded generator for reproducible synthetic leagues and tests."""
    if settings.database_url:
        env, engine = postgres_env(settings.database_url), postgres_engine(settings.database_url)
    else:
        settings.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
        env, engine = sqlite_env(settings.sqlite_path), sqlite_engine(settings.sqlite_path)
    read_models = ReadModels(engine)
    current = read_models.create()
    ledger = LeagueLedger(env=env, read_models=read_models, roller=roller)
    if current:
        read_models.refresh(ledger.source)
    else:  # written by another version of the code: refold them from the log
        read_models.rebuild(ledger.source)
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
    }


def sqlite_engine(path: Path) -> Engine:
    engine = sa.create_engine(f"sqlite:///{path}")

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
    return env


def postgres_engine(url: str) -> Engine:
    parts = urlsplit(url)
    return sa.create_engine(
        parts._replace(scheme="postgresql+psycopg").geturl(), pool_pre_ping=True
    )
