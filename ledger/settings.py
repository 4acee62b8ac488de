"""Which store a ledger is in, from the command line and the environment.

SQLite is the default (a file, ``ledger.db`` in the current directory, or ``LEDGER_DB``);
``LEDGER_DATABASE_URL=postgresql://...`` selects PostgreSQL; an explicit ``--db PATH``
wins over both (a command line says what this one command works on: an audit "on a
copy" must not check the served database because the shell has it set). Reading
the settings loads nothing of the store: a read command decides from them whether it can
answer over a plain sqlite3 connection (ledger/projections/lean.py) before anything
imports SQLAlchemy; ``ledger.bootstrap`` wires the stores they name.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ledger.errors import StoreError

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
    """The store ``--db`` (``db``) names, else the environment's."""
    environ = os.environ if environ is None else environ
    url = None if db else environ.get("LEDGER_DATABASE_URL") or None
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
