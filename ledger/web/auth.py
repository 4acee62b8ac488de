"""Who is asking: API tokens, browser sessions, CSRF tokens and limited sign-in attempts.

A script sends ``Authorization: Bearer TOKEN`` (``ledger account token``); a browser signs
in through the login form and then carries a session cookie (HttpOnly, SameSite=Lax,
Secure over https). The session id is random; only its SHA-256 digest is stored, in
``ledger_sessions``, so a copy of the database opens no session. Every sign-in makes a new
session id (an id planted before it is worth nothing after) and a new CSRF token, which
every cookie-authenticated POST must carry (the form field ``csrf`` or the header
``X-CSRF-Token``); a bearer token needs none, since a browser never sends one by itself.
Before signing in, the login form's own CSRF token is a random cookie it must repeat.

Failed sign-ins are counted per account and per address (in the process's memory: a
restart or another worker starts its own count, docs/service.md): past the limit the
form answers 429 until the window has passed, whatever the password.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool

from ledger.application.access import Principal
from ledger.application.accounts import MAX_PASSWORD, digest
from ledger.domain.values import MAX_ID
from ledger.errors import InvalidInput, LedgerError, Unauthenticated
from ledger.projections.sql import read_connection
from ledger.web.problems import CsrfRefused, TooManyAttempts, status_of

if TYPE_CHECKING:
    from ledger.web.app import Service

SESSION_COOKIE = "ledger_session"
LOGIN_CSRF_COOKIE = "ledger_csrf"
SESSION_DAYS = 14
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

METADATA = sa.MetaData()

SESSIONS = sa.Table(
    "ledger_sessions",
    METADATA,
    sa.Column("digest", sa.String(64), primary_key=True),
    sa.Column("account", sa.String(64), nullable=False, index=True),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("expires_at", sa.String(40), nullable=False),
)
"""Browser sessions: the digest of each session id, never the id itself."""


def now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Session:
    account: str
    csrf: str


class Sessions:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        METADATA.create_all(engine, checkfirst=True)

    def start(self, account: str) -> tuple[str, str]:
        """A new session for the account: (session id for the cookie, its CSRF token)."""
        session_id, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
            conn.execute(SESSIONS.delete().where(SESSIONS.c.expires_at < now().isoformat()))
            conn.execute(
                SESSIONS.insert().values(
                    digest=digest(session_id),
                    account=account,
                    csrf=csrf,
                    created_at=now().isoformat(),
                    expires_at=(now() + timedelta(days=SESSION_DAYS)).isoformat(),
                )
            )
        return session_id, csrf

    def find(self, session_id: str) -> Session | None:
        if len(session_id) > 100:
            return None
        with read_connection(self.engine) as conn:
            row = conn.execute(
                sa.select(SESSIONS.c.account, SESSIONS.c.csrf).where(
                    SESSIONS.c.digest == digest(session_id),
                    SESSIONS.c.expires_at > now().isoformat(),
                )
            ).first()
        return Session(account=row.account, csrf=row.csrf) if row else None

    def end(self, session_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(SESSIONS.delete().where(SESSIONS.c.digest == digest(session_id)))

    def end_others(self, account: str, keep: str | None) -> int:
        """End every session of the account but ``keep`` (a session id; None: end them
        all), as its password changes; how many were ended."""
        others = SESSIONS.c.account == account
        if keep:
            others = others & (SESSIONS.c.digest != digest(keep))
        with self.engine.begin() as conn:
            return conn.execute(SESSIONS.delete().where(others)).rowcount


@dataclass
class Attempts:
    """Failed sign-ins in a sliding window, per key (``account:NAME``, ``address:IP``)."""

    limit_account: int = 5
    limit_address: int = 20
    window: float = 15 * 60
    clock: Callable[[], float] = time.monotonic
    failures: dict[str, deque[float]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def check(self, account: str, address: str) -> None:
        """Refuse (429) when either the account or the address is over its limit."""
        for key, limit in (
            (f"account:{account}", self.limit_account),
            (f"address:{address}", self.limit_address),
        ):
            wait = self.wait(key, limit)
            if wait:
                raise TooManyAttempts(
                    f"too many failed sign-ins for this {key.split(':')[0]}:"
                    f" try again in {wait} seconds",
                    retry_after=wait,
                )

    def wait(self, key: str, limit: int) -> int:
        with self.lock:
            times = self.failures.get(key)
            if not times:
                return 0
            while times and times[0] <= self.clock() - self.window:
                times.popleft()
            if len(times) < limit:
                return 0
            return int(times[0] + self.window - self.clock()) + 1

    def failed(self, account: str, address: str) -> None:
        with self.lock:
            for key in (f"account:{account}", f"address:{address}"):
                self.failures.setdefault(key, deque()).append(self.clock())

    def succeeded(self, account: str) -> None:
        with self.lock:
            self.failures.pop(f"account:{account}", None)


# --- who is asking -------------------------------------------------------------------------


def memo(request: Request) -> dict[str, Any]:
    """What this request has learnt about its sender (looked up once per request); the
    same dict for every ``Request`` object made from the request's scope."""
    found: dict[str, Any] = request.scope.setdefault("ledger", {})
    return found


def service_of(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


def address_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("the Authorization header must be 'Bearer TOKEN'")
    return token.strip()


def session_of(request: Request) -> Session | None:
    """The request's browser session, if its cookie names a live one (looked up once)."""
    known = memo(request)
    if "session" not in known:
        cookie = request.cookies.get(SESSION_COOKIE)
        known["session"] = service_of(request).sessions.find(cookie) if cookie else None
    found: Session | None = known["session"]
    return found


def stamp_of(request: Request) -> tuple[object, ...]:
    """Where the logs stood when this request began (``known``): read once per request."""
    known = memo(request)
    if "stamp" not in known:
        known["stamp"] = service_of(request).known.stamp()
    stamp: tuple[object, ...] = known["stamp"]
    return stamp


def resolve(request: Request) -> Principal | None:
    """The signed-in account (token first, else session cookie), or None; read once per
    request. A token that does not hold is refused; a dead session is simply no session."""
    known = memo(request)
    if "principal" in known:
        cached: Principal | None = known["principal"]
        return cached
    service = service_of(request)
    token = bearer(request)
    found: Principal | None = None
    if token is not None:
        found = service.known.by_token(token, stamp_of(request))
        known["via_cookie"] = False
    elif (session := session_of(request)) is not None:
        found = service.known.principal(session.account, stamp_of(request))
        known["via_cookie"] = True
    known["principal"] = found
    return found


async def optional_principal(request: Request) -> Principal | None:
    """FastAPI dependency: the signed-in account or None (anonymous); a cookie-signed
    POST must carry its CSRF token."""
    found = await run_in_threadpool(resolve, request)
    await check_csrf(request)
    return found


async def current_principal(request: Request) -> Principal:
    """FastAPI dependency: the signed-in account; 401 without one."""
    found = await optional_principal(request)
    if found is None:
        raise Unauthenticated("sign in first: this needs an account")
    return found


# --- CSRF ------------------------------------------------------------------------------


async def check_csrf(request: Request) -> None:
    """A POST that a session cookie authenticates must repeat the session's CSRF token."""
    if request.method in SAFE_METHODS or not memo(request).get("via_cookie"):
        return
    session = session_of(request)
    sent = await sent_csrf(request)
    if session is None or not sent or not hmac.compare_digest(sent, session.csrf):
        raise CsrfRefused("the form's CSRF token is missing or out of date: reload the page")


async def sent_csrf(request: Request) -> str:
    header = request.headers.get("x-csrf-token")
    if header:
        return header
    if request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        value = (await request.form()).get("csrf")  # Starlette keeps the form for the route
        return value if isinstance(value, str) else ""
    return ""


def csrf_token(request: Request) -> str:
    """The CSRF token a page puts in its forms: the session's, or before signing in the
    login form's own (a cookie set on the way out, see ``app.RequestContext``)."""
    session = session_of(request)
    if session is not None:
        return session.csrf
    token = request.cookies.get(LOGIN_CSRF_COOKIE)
    if not token or len(token) > 100:
        token = memo(request).setdefault("new_login_csrf", secrets.token_urlsafe(32))
    return token


def secure(request: Request) -> bool:
    return request.url.scheme == "https"


# --- sign in and out -------------------------------------------------------------------------

router = APIRouter(include_in_schema=False)


@router.post("/login")
def login(
    request: Request,
    account: str = Form(default=""),
    password: str = Form(default=""),
    csrf: str = Form(default=""),
    next: str = Form(default="/"),  # the form's field name
) -> Response:
    """Sign in from the login form: a new session (and session id) on success; the form
    again with the reason when refused, a field left out or too long included (the
    fields' bounds are checked here, not by FastAPI, whose refusal is not a page)."""
    expected = request.cookies.get(LOGIN_CSRF_COOKIE) or ""
    service = service_of(request)
    next = next if len(next) <= 500 else "/"
    try:
        if not expected or not hmac.compare_digest(csrf[:100], expected):
            raise CsrfRefused("the login form's CSRF token is missing or out of date: reload it")
        check_credentials_shape(account, password)
        principal = signed_in(service, account, password, address_of(request))
    except (CsrfRefused, InvalidInput, Unauthenticated, TooManyAttempts) as error:
        return login_refused(request, error, account[:MAX_ID], next)
    old = request.cookies.get(SESSION_COOKIE)
    if old:
        service.sessions.end(old)
    session_id, _ = service.sessions.start(principal.account)
    reply = RedirectResponse(landing(local_path(next), principal), status_code=303)
    reply.set_cookie(
        SESSION_COOKIE,
        session_id,
        max_age=SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=secure(request),
    )
    reply.delete_cookie(LOGIN_CSRF_COOKIE)
    return reply


def check_credentials_shape(account: str, password: str) -> None:
    if not account.strip() or not password:
        raise InvalidInput("give the account's name and its password")
    if len(account) > MAX_ID:
        raise InvalidInput(f"an account's name is at most {MAX_ID} characters")
    check_password_length(password)


def check_password_length(password: str) -> None:
    """Refused before hashing: argon2's cost is per byte."""
    if len(password) > MAX_PASSWORD:
        raise InvalidInput(f"a password is at most {MAX_PASSWORD} characters")


def signed_in(service: Service, account: str, password: str, address: str) -> Principal:
    """The account whose password this is, counting the failures per account and address
    (and refusing, whatever the password, while either is over its limit)."""
    service.attempts.check(account, address)
    try:
        principal = service.credentials.sign_in(account, password)
    except Unauthenticated:
        service.attempts.failed(account, address)
        raise
    service.attempts.succeeded(account)
    return principal


def login_refused(request: Request, error: LedgerError, account: str, next: str) -> Response:
    """The sign-in form again, with the one-line reason and the status (401, 403 for the
    form's CSRF token, 429 with ``Retry-After``). The reason is the same whether the
    account exists or not (``Accounts.sign_in``); only the account name typed is kept."""
    # Imported here: the pages' renderer imports this module (who is asking, CSRF).
    from ledger.web.pages_render import page

    status = status_of(error)
    reply = page(
        request,
        "login.html.j2",
        status=status,
        title="Sign in",
        next=local_path(next),
        account=account,
        error=error.message,
        ended=False,
    )
    if status == 401:
        reply.headers["WWW-Authenticate"] = 'Bearer realm="ledger"'
    retry = getattr(error, "retry_after", None)
    if retry is not None:
        reply.headers["Retry-After"] = str(retry)
    return reply


@router.post("/logout")
async def logout(request: Request) -> Response:
    try:
        await current_principal(request)  # a cookie POST: its CSRF token is checked there
    except LedgerError as error:  # a page's button: refused with a page, not a document
        from ledger.web.pages_render import error_page  # see login_refused

        return await run_in_threadpool(error_page, request, error)
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        await run_in_threadpool(service_of(request).sessions.end, cookie)
    reply = RedirectResponse("/?signed_out=1", status_code=303)  # the page says so
    reply.delete_cookie(SESSION_COOKIE)
    return reply


def landing(target: str, principal: Principal) -> str:
    """Where a sign-in lands: where it was asked from, else (the home page) the one league
    the account has a role in, which is where a coach of one league goes next anyway."""
    if target != "/" or principal.admin or len(principal.leagues) != 1:
        return target
    return f"/leagues/{next(iter(principal.leagues))}"


def local_path(target: str) -> str:
    """Where to go after signing in: a path of this site only (no open redirect)."""
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target
