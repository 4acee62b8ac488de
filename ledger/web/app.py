"""The ASGI application: ``create_app(settings)`` wires one ledger per worker process.

The ledger is opened once, when the process starts (the lifespan), and closed when it
stops. ``LeagueLedger`` keeps the current unit of work on itself, so the process writes
one command at a time (``Service.writing``); reads never go through it: each takes a fresh
read-only ``SqlStore`` on the shared engine and never catches up or refolds (the writer
keeps the read models current after each command; on PostgreSQL every worker's writes land
in the same tables). ``ledger serve`` runs ``serve_app`` under uvicorn.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import sqlalchemy as sa
from anyio import to_thread
from argon2 import PasswordHasher
from fastapi import APIRouter, FastAPI, Request, Response
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ledger.application.accounts import Accounts
from ledger.application.service import LeagueLedger
from ledger.bootstrap import POOL_SIZE, Settings, close_ledger, open_ledger, settings_from
from ledger.projections.sql import SqlStore
from ledger.web import (
    api,
    api_accounts,
    api_register,
    api_reports,
    api_seasons,
    api_teams,
    api_whatif,
    api_writes,
    auth,
    pages,
    problems,
)
from ledger.web.answers import Answers
from ledger.web.auth import LOGIN_CSRF_COOKIE, Attempts, Sessions
from ledger.web.documented import DocumentedAPI
from ledger.web.guard import Guarded
from ledger.web.heap import Heap
from ledger.web.idempotency import Idempotency
from ledger.web.known import Known
from ledger.web.pages_render import error_page

THREADS = POOL_SIZE
"""Threads that run the sync routes of one worker."""

MAX_BODY = 2 * 1024 * 1024
"""The largest request body accepted (a match report is a few kilobytes)."""

log = logging.getLogger(__name__)


@dataclass
class Service:
    """What every request of one worker process shares."""

    ledger: LeagueLedger
    accounts: Accounts
    """For commands that add accounts or grant roles (under ``writing``)."""
    credentials: Accounts
    """For signing in and finding who a token or session is: reads a fresh store each
    time, so a reader thread never sees another thread's unit of work."""
    sessions: Sessions
    idempotency: Idempotency
    attempts: Attempts
    writing: threading.Lock
    write_turn: asyncio.Lock
    """Where a request that writes waits for its turn (``guard.Guarded``) without
    holding one of the request threads."""
    answers: Answers
    """Reads kept by league version (``answers``)."""
    known: Known
    """Callers and league rows kept while the logs stand still (``known``)."""

    def reads(self) -> SqlStore:
        return SqlStore(self.ledger.read_models.engine)


def open_service(settings: Settings, hasher: PasswordHasher | None) -> Service:
    ledger = open_ledger(settings)
    engine = ledger.read_models.engine
    credentials = Accounts(ledger, hasher, reads=lambda: SqlStore(engine))
    return Service(
        ledger=ledger,
        accounts=Accounts(ledger, hasher),
        credentials=credentials,
        sessions=Sessions(engine),
        idempotency=Idempotency(engine),
        attempts=Attempts(),
        writing=threading.Lock(),
        write_turn=asyncio.Lock(),
        answers=Answers(),
        known=Known(engine, credentials),
    )


def create_app(
    settings: Settings, *, hasher: PasswordHasher | None = None, settle: bool = False
) -> FastAPI:
    """The service over the ledger ``settings`` name. ``hasher``: argon2's parameters
    (cheap ones in tests; the library's defaults otherwise). ``settle``: a serving
    process's garbage collection (``heap``); not in tests, whose processes outlive many
    apps and would keep each one's cycles frozen."""
    heap = Heap() if settle else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # As many threads for the sync routes as the store has connections: forty threads
        # (anyio's default) against a pool of five made most requests open a connection of
        # their own and fight over the GIL (docs/performance-journal.md, the service).
        to_thread.current_default_thread_limiter().total_tokens = THREADS
        app.state.service = open_service(settings, hasher)
        if heap is not None:
            heap.started()
        try:
            yield
        finally:
            if await to_thread.run_sync(api_whatif.jobs_done, app):
                close_ledger(app.state.service.ledger)
            else:
                log.warning("what-if jobs still running: the store stays open to the end")

    app = DocumentedAPI(
        title="League ledger",
        summary="The books of Blood Bowl leagues: read them, and act on them by your role.",
        version="1",
        lifespan=lifespan,
    )
    app.router.route_class = Guarded
    problems.install(app, error_page)
    app.include_router(health)
    app.include_router(auth.router)
    app.include_router(api.router)
    app.include_router(api_writes.router)
    app.include_router(api_accounts.router)
    app.include_router(api_register.router)
    app.include_router(api_reports.router)
    app.include_router(api_teams.router)
    app.include_router(api_seasons.router)
    app.include_router(api_whatif.router)
    app.include_router(pages.router)
    app.add_middleware(RequestContext, heap=heap)
    return app


def serve_app() -> FastAPI:
    """The application ``ledger serve`` runs in each worker: settings from the
    environment (``LEDGER_DB``, ``LEDGER_DATABASE_URL``), which the command sets."""
    return create_app(settings_from(), settle=True)


health = APIRouter()


@health.get(
    "/healthz",
    tags=["service"],
    response_model=dict[str, str],
    responses={503: problems.PROBLEMS[503]},
)
def healthz(request: Request) -> Response | dict[str, str]:
    """The process is up and its store answers one trivial query (``503`` when it does
    not: a proxy then stops sending it the requests it could not answer)."""
    try:
        with request.app.state.service.ledger.read_models.engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
    except sa.exc.SQLAlchemyError as error:
        log.error("health check: store unavailable: %s", type(error).__name__)
        return problems.problem(503, "store", "the ledger's database could not be used")
    return {"status": "ok"}


class RequestContext:
    """Plain ASGI middleware (no per-request task, unlike ``BaseHTTPMiddleware``): gives
    each request an id (recorded on its events, sent back as ``X-Request-ID``), refuses
    bodies over ``MAX_BODY``, answers a HEAD as its GET, and sets the login form's CSRF
    cookie when a page made one."""

    def __init__(self, app: ASGIApp, heap: Heap | None = None) -> None:
        self.app = app
        self.heap = heap

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        known = scope.setdefault("ledger", {})
        known["request_id"] = uuid.uuid4().hex
        if scope["method"] == "HEAD":  # a link checker's: the GET's answer, the server
            scope = {**scope, "method": "GET"}  # sending its headers only (its own scope's)
        if too_large(scope):
            await problems.problem(413, "too-large", "the request body is too large")(
                scope, receive, send
            )
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.append("X-Request-ID", known["request_id"])
                headers.append("X-Content-Type-Options", "nosniff")
                token = known.get("new_login_csrf")
                if token:
                    https = "; Secure" if scope.get("scheme") == "https" else ""
                    headers.append(
                        "Set-Cookie",
                        f"{LOGIN_CSRF_COOKIE}={token}; HttpOnly; Path=/; SameSite=Lax{https}",
                    )
            await send(message)

        await self.app(scope, receive, sending)
        if self.heap is not None:
            self.heap.served()


def too_large(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            return not value.isdigit() or int(value) > MAX_BODY
    return False
