"""``Idempotency-Key``: a POST retried with the same key is recorded once.

The first request with a key reserves it (a row keyed by account and key, unique in the
database, so two workers cannot both take it); when it succeeds its answer is kept, and
every retry with the same key and the same request gets that answer again, recording
nothing. The same key with another request is refused (422): the client reused a key.
A refused request keeps nothing: its retry runs again (and is most likely refused again).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ledger.errors import ConcurrentUpdate
from ledger.web.problems import KeyReused

METADATA = sa.MetaData()

IDEMPOTENCY = sa.Table(
    "ledger_idempotency",
    METADATA,
    sa.Column("account", sa.String(64), primary_key=True),
    sa.Column("key", sa.String(200), primary_key=True),
    sa.Column("fingerprint", sa.String(64), nullable=False),
    sa.Column("status", sa.Integer, nullable=True),  # NULL while the first one still runs
    sa.Column("body", sa.LargeBinary, nullable=True),
    sa.Column("etag", sa.String(40), nullable=True),
    sa.Column("created_at", sa.String(40), nullable=False),
)

MAX_KEY = 200


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes
    etag: str | None


def fingerprint(method: str, path: str, body: bytes) -> str:
    return hashlib.sha256(b"\n".join([method.encode(), path.encode(), body])).hexdigest()


class Idempotency:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        METADATA.create_all(engine, checkfirst=True)

    def reserve(self, account: str, key: str, mark: str) -> Answer | None:
        """None: the key is now this request's to run; else the answer already given."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    IDEMPOTENCY.insert().values(
                        account=account,
                        key=key,
                        fingerprint=mark,
                        created_at=datetime.now(UTC).isoformat(),
                    )
                )
        except sa.exc.IntegrityError:
            return self.earlier(account, key, mark)
        return None

    def earlier(self, account: str, key: str, mark: str) -> Answer:
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(IDEMPOTENCY).where(
                    IDEMPOTENCY.c.account == account, IDEMPOTENCY.c.key == key
                )
            ).first()
        if row is None:  # released between our insert and this read: a refused request
            raise ConcurrentUpdate("a request with this Idempotency-Key just failed: retry it")
        if row.fingerprint != mark:
            raise KeyReused(
                "this Idempotency-Key was used for another request: use a new key per request"
            )
        if row.status is None:
            raise ConcurrentUpdate(
                "a request with this Idempotency-Key is still running: retry in a moment"
            )
        return Answer(status=row.status, body=row.body, etag=row.etag)

    def keep(self, account: str, key: str, answer: Answer) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                IDEMPOTENCY.update()
                .where(IDEMPOTENCY.c.account == account, IDEMPOTENCY.c.key == key)
                .values(status=answer.status, body=answer.body, etag=answer.etag)
            )

    def release(self, account: str, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                IDEMPOTENCY.delete().where(
                    IDEMPOTENCY.c.account == account,
                    IDEMPOTENCY.c.key == key,
                    IDEMPOTENCY.c.status.is_(None),
                )
            )
