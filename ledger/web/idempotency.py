"""``Idempotency-Key``: a POST retried with the same key is recorded once.

The first request with a key reserves it (a row keyed by account and key, unique in the
database, so two workers cannot both take it); when it succeeds its answer is kept, and
every retry with the same key and the same request (method, path, query and body) gets
that answer again, recording nothing. The same key with another request is refused
(422): the client reused a key. A refused request keeps nothing: its retry runs again
(and is most likely refused again).

A reservation names its holder: the process (its id on its machine) and the request's
id, which the request's events record. A worker that dies while it holds one (killed,
out of memory) can neither answer nor release it, so a retry takes it over when its holder
is a process of this machine that no longer runs, or once ``LEASE`` has passed (a holder
on another machine): far longer than a write may run (its retries end after
``unit.RETRY_SECONDS``). Before running the request again, the retry looks in the log for
events of the dead request: if it was recorded before its worker died, nothing is
recorded again and the retry is told so (409 ``idempotency-answer-lost``).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import socket
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

import orjson
import sqlalchemy as sa
from fastapi import Request, Response
from fastapi.responses import RedirectResponse
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool

from ledger.application.access import Principal
from ledger.domain.log import SITE_ID, league_id
from ledger.errors import ConcurrentUpdate, InvalidInput
from ledger.web.auth import memo, service_of
from ledger.web.problems import KeyReused, problem

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
    sa.Column("holder", sa.String(200), nullable=True),
)

MAX_KEY = 200
SEE_OTHER = 303
KEY = re.compile(rf"^[\x21-\x7e]{{1,{MAX_KEY}}}$")
LEASE = timedelta(minutes=5)
"""A reservation held this long without an answer is taken for abandoned."""
SKEW = timedelta(minutes=1)
"""Clocks of two machines may differ: the log is searched this much further back."""


class StillRunning(ConcurrentUpdate):
    """Another request with the same key is under way (409, retry in a moment)."""

    title = "Still running"

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes
    """The answer's body; of a page's form, sent on (303), the place it was sent to."""
    etag: str | None


@dataclass(frozen=True)
class Holder:
    """Who holds a reservation: a process of a machine, and the request it runs."""

    pid: int
    host: str
    request_id: str

    def text(self) -> str:
        return f"{self.pid}@{self.host}/{self.request_id}"[:200]

    @staticmethod
    def parse(text: str | None) -> Holder | None:
        found = re.fullmatch(r"(\d+)@(.*)/([^/]*)", text or "")
        return Holder(int(found[1]), found[2], found[3]) if found else None

    def gone(self) -> bool:
        """Whether this is a process of this machine that no longer runs (or is dead
        and not yet reaped by its parent)."""
        if self.host != socket.gethostname() or self.pid == os.getpid():
            return False
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                return stat.read().rpartition(")")[2].split()[0] in ("Z", "X")
        except FileNotFoundError:
            return True
        except OSError:  # no /proc here: ask the process itself
            return not alive(self.pid)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True)
class TakenOver:
    """The reservation of a request whose worker died, now this request's."""

    previous: Holder | None
    since: datetime


def fingerprint(method: str, path: str, body: bytes, query: str = "") -> str:
    """What makes two requests the same: the query too (``?roll_missing=true`` changes
    what a report does). Without a query, the same as before queries counted."""
    target = f"{path}?{query}" if query else path
    return hashlib.sha256(b"\n".join([method.encode(), target.encode(), body])).hexdigest()


def now() -> datetime:
    return datetime.now(UTC)


class Idempotency:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        METADATA.create_all(engine, checkfirst=True)
        add_holder(engine)

    def reserve(
        self, account: str, key: str, mark: str, holder: Holder
    ) -> Answer | TakenOver | None:
        """None: the key is now this request's to run; ``TakenOver``: the same, from a
        request whose worker died; else the answer already given."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    IDEMPOTENCY.insert().values(
                        account=account,
                        key=key,
                        fingerprint=mark,
                        created_at=now().isoformat(),
                        holder=holder.text(),
                    )
                )
        except sa.exc.IntegrityError:
            return self.earlier(account, key, mark, holder)
        return None

    def earlier(self, account: str, key: str, mark: str, holder: Holder) -> Answer | TakenOver:
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
        if row.status is not None:
            return Answer(status=row.status, body=row.body, etag=row.etag)
        previous, since = Holder.parse(row.holder), datetime.fromisoformat(row.created_at)
        abandoned = (previous is not None and previous.gone()) or now() - since > LEASE
        if not (abandoned and self.take(row, holder)):
            raise StillRunning(
                "a request with this Idempotency-Key is still running: retry in a moment"
            )
        return TakenOver(previous, since)

    def take(self, row: Any, holder: Holder) -> bool:
        """Make an abandoned reservation this request's, unless another retry just did."""
        mine = sa.and_(
            IDEMPOTENCY.c.account == row.account,
            IDEMPOTENCY.c.key == row.key,
            IDEMPOTENCY.c.status.is_(None),
            IDEMPOTENCY.c.created_at == row.created_at,
            IDEMPOTENCY.c.holder.is_(None)
            if row.holder is None
            else IDEMPOTENCY.c.holder == row.holder,
        )
        with self.engine.begin() as conn:
            taken = conn.execute(
                IDEMPOTENCY.update()
                .where(mine)
                .values(created_at=now().isoformat(), holder=holder.text())
            )
        return bool(taken.rowcount == 1)

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


def add_holder(engine: Engine) -> None:
    """A table made before reservations named their holder gets the column (a worker
    starting at the same moment may add it first)."""
    if has_holder(engine):
        return
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(f"ALTER TABLE {IDEMPOTENCY.name} ADD COLUMN holder VARCHAR(200)"))
    except sa.exc.DBAPIError:
        if not has_holder(engine):
            raise


def has_holder(engine: Engine) -> bool:
    columns = sa.inspect(engine).get_columns(IDEMPOTENCY.name)
    return any(column["name"] == "holder" for column in columns)


# --- the guard's part ---------------------------------------------------------------------


FORM_KEY = "once"
KEPT_AS = "x-ledger-kept-as"
"""A header a form's page answer may carry (never sent on): where the form sent again is
to go instead of showing the page again. A page that shows a new API token once is not
kept, but a double click must not issue a second token nobody sees: it is answered with
a redirect to where the first one was said to be shown (``pages_account``)."""
"""The hidden field of a page's form that is its Idempotency-Key (``form_key``): a form
sent twice (a double click, the back button and Send again) is recorded once, and the
second sending is shown where the first went."""


SECRET_FIELDS = frozenset({"password", "password_again"})
"""A request's fields left out of the fingerprint the key's row keeps, a form's or a JSON
body's: a SHA-256 of a request holding a password (its other fields in the same database)
is quick to guess it from, where the password's own hash is slow on purpose (argon2,
``accounts``)."""
SECRET_ANSWERS = frozenset({"token"})
"""An answer's fields never kept for a retry: a new API token is shown once, in its first
answer (``POST /api/accounts``); a retry's replay says null, and the token is issued
again with ``ledger account token``, as one lost."""


def without_secrets(body: bytes, fields: frozenset[str], keep_keys: bool) -> bytes:
    """A JSON object's ``body`` with its secret ``fields`` left out (or, ``keep_keys``, null), as
    kept in the key's row; any other body as it is."""
    if not any(f'"{name}"'.encode() in body for name in fields):
        return body
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return body
    if not isinstance(data, dict):
        return body
    if keep_keys:
        return orjson.dumps({k: None if k in fields else v for k, v in data.items()})
    return orjson.dumps({k: v for k, v in data.items() if k not in fields})


def form_key() -> str:
    """A fresh key for a form as it is shown: every showing of a form is another request
    (forms are never kept answers, docs/service.md)."""
    return secrets.token_urlsafe(16)


async def key_of(request: Request) -> tuple[str | None, bytes | None]:
    """The request's Idempotency-Key; and, when a page's form gave it (its field), the
    form as sent, which the guard has read already (its CSRF token: ``auth``), so its
    body is gone from the request and the form stands for it."""
    key = request.headers.get("idempotency-key")
    if key is not None:
        return key, None
    if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        form = await request.form()
        sent = form.get(FORM_KEY)
        if isinstance(sent, str):
            kept = [(k, v) for k, v in form.multi_items() if k not in SECRET_FIELDS]
            return f"form:{sent}", urlencode(kept).encode()
    return None, None


async def once(
    request: Request, inner: Callable[[Request], Coroutine[Any, Any, Response]]
) -> Response:
    """Run a POST, or give the answer a retry with the same Idempotency-Key already had."""
    key, form = await key_of(request)
    from_form = form is not None
    principal: Principal | None = memo(request).get("principal")
    if key is None or principal is None:
        return unmarked(await inner(request))
    if not KEY.match(key):
        raise InvalidInput(f"an Idempotency-Key is 1 to {MAX_KEY} visible ASCII characters")
    store = service_of(request).idempotency
    body = form if form is not None else await request.body()
    mark = fingerprint(
        request.method,
        request.url.path,
        without_secrets(body, SECRET_FIELDS, keep_keys=False),
        request.url.query,
    )
    holder = Holder(os.getpid(), socket.gethostname(), memo(request).get("request_id", "-"))
    try:
        earlier = await run_in_threadpool(store.reserve, principal.account, key, mark, holder)
    except KeyReused:
        if not from_form:
            raise
        raise KeyReused(  # a form sent, then changed and sent again (after Back)
            "this form was sent already: open the page again to send another"
        ) from None
    if isinstance(earlier, TakenOver) and await run_in_threadpool(recorded, request, earlier):
        earlier = lost(earlier)
        await run_in_threadpool(store.keep, principal.account, key, earlier)
    if isinstance(earlier, Answer) and earlier.status == SEE_OTHER:
        return RedirectResponse(earlier.body.decode(), SEE_OTHER, {"Idempotent-Replayed": "true"})
    if isinstance(earlier, Answer):
        headers = {
            "Idempotent-Replayed": "true",
            **({"ETag": earlier.etag} if earlier.etag else {}),
        }
        return Response(earlier.body, earlier.status, headers, media_type="application/json")
    try:
        reply = await inner(request)
    except BaseException:
        await run_in_threadpool(store.release, principal.account, key)
        raise
    kept_as = reply.headers.get(KEPT_AS)
    reply = unmarked(reply)
    if from_form and reply.status_code == SEE_OTHER:  # a page's form: kept, where it went
        answer = Answer(status=SEE_OTHER, body=reply.headers["location"].encode(), etag=None)
    elif from_form and kept_as:  # a page holding a secret: kept as where else to go
        answer = Answer(status=SEE_OTHER, body=kept_as.encode(), etag=None)
    elif reply.status_code >= 300 or from_form:  # a form answered with a page: sent again
        await run_in_threadpool(store.release, principal.account, key)
        return reply
    else:
        kept = without_secrets(bytes(reply.body), SECRET_ANSWERS, keep_keys=True)
        answer = Answer(status=reply.status_code, body=kept, etag=reply.headers.get("etag"))
    await run_in_threadpool(store.keep, principal.account, key, answer)
    return reply


def unmarked(reply: Response) -> Response:
    """The answer without ``KEPT_AS``, which is for ``once`` alone."""
    if KEPT_AS in reply.headers:
        del reply.headers[KEPT_AS]
    return reply


PAGE = 100


def recorded(request: Request, taken: TakenOver) -> bool:
    """Whether the dead request's events are in the log it wrote to (the league of the
    path, else the site's), searched back to when it reserved the key."""
    if taken.previous is None:
        return False
    ledger = service_of(request).ledger
    slug = request.path_params.get("league")
    log, since, below = league_id(slug) if slug else SITE_ID, taken.since - SKEW, None
    while True:
        stored = ledger.recorder.select_events(log, lte=below, desc=True, limit=PAGE)
        for event in map(ledger.source.decode, stored):
            if event.request_id == taken.previous.request_id:
                return True
            if event.timestamp < since:
                return False
        if len(stored) < PAGE:
            return False
        below = stored[-1].originator_version - 1


def lost(taken: TakenOver) -> Answer:
    """The answer of a key whose first request was recorded, its answer lost with its
    worker: what it recorded is in the log, under its request id."""
    rid = taken.previous.request_id if taken.previous else "-"
    said = problem(
        409,
        "idempotency-answer-lost",
        f"the first request with this Idempotency-Key (request {rid}) was recorded, but its"
        " worker stopped before answering: read the league to see it; nothing more was recorded",
    )
    return Answer(status=409, body=bytes(said.body), etag=None)
