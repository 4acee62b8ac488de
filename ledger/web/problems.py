"""Errors as RFC 9457 problem details: the domain error's stable code and its sentence.

A route raises the same ``LedgerError`` the CLI prints; the handlers here give it an HTTP
status and the ``application/problem+json`` body. Nothing here echoes the request: a
rejected field is named, never repeated back (it may be a password).

Statuses: 401 unauthenticated, 403 forbidden, 404 not found, 412 a stale ``If-Match``,
422 input of the wrong shape, 409 a rule of the league's edition or a concurrent writer
(the request was well formed; the books' current state refuses it), 400 the rest, 503 the
database could not be used. A 500 is a bug, and the last handler still answers it as a
problem without a traceback.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from typing import Any

import sqlalchemy.exc
from eventsourcing.persistence import OperationalError, PersistenceError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.routing import Match

from ledger.domain.values import problems_said, validation_problems
from ledger.errors import (
    AlreadyExists,
    ConcurrentUpdate,
    EventDoesNotApply,
    Forbidden,
    InvalidInput,
    LedgerError,
    NotFound,
    RuleViolation,
    Unauthenticated,
    VersionMismatch,
    clipped,
)

LAST_EVENT = 10**9
"""The largest event number a request may name: beyond it, a 422 like any input out of
range (SQLite's integers end at 2^63, and a larger number reached the store as a 500)."""

log = logging.getLogger("ledger.web")

MEDIA_TYPE = "application/problem+json"
TYPE_BASE = "https://bb-league-ledger/problems/"


class CsrfRefused(Forbidden):
    """A cookie-signed POST without its session's CSRF token (a forged form, or a page
    kept open across a sign-in)."""

    code = "csrf"


class TooManyAttempts(LedgerError):
    """Too many failed sign-ins for an account or from an address (429)."""

    code = "too-many-attempts"
    title = "Too many attempts"
    """The problem's title (another status's is the one ``TITLES`` gives)."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class KeyReused(InvalidInput):
    """An ``Idempotency-Key`` sent again with a different request."""

    code = "idempotency-key-reused"


STATUSES: tuple[tuple[type[LedgerError], int], ...] = (
    (TooManyAttempts, 429),
    (Unauthenticated, 401),
    (Forbidden, 403),
    (NotFound, 404),
    (VersionMismatch, 412),
    (InvalidInput, 422),
    (RuleViolation, 409),
    (ConcurrentUpdate, 409),
    (AlreadyExists, 409),
    (EventDoesNotApply, 409),
)
"""The first class an error is an instance of gives its status; any other is 400."""

TITLES = {
    400: "Bad request",
    401: "Sign in first",
    403: "Not allowed",
    404: "Not found",
    405: "Method not allowed",
    409: "Refused by the books",
    412: "The league has changed",
    413: "Too large",
    415: "Unsupported media type",
    422: "Invalid input",
    429: "Too many requests",
    500: "Internal error",
    503: "The database is unavailable",
}


class Problem(BaseModel):
    """An RFC 9457 problem: ``code`` is the ledger's stable error code."""

    type: str
    title: str
    status: int
    detail: str
    code: str


class ProblemResponse(JSONResponse):
    media_type = MEDIA_TYPE


def status_of(error: LedgerError) -> int:
    return next((status for kind, status in STATUSES if isinstance(error, kind)), 400)


def problem(
    status: int,
    code: str,
    detail: str,
    headers: dict[str, str] | None = None,
    title: str | None = None,
) -> ProblemResponse:
    body = Problem(
        type=TYPE_BASE + code,
        title=title or TITLES.get(status, "Error"),
        status=status,
        detail=clipped(detail),  # a request's own 10,000-character id is not sent back whole
        code=code,
    )
    return ProblemResponse(body.model_dump(), status_code=status, headers=headers)


CONCURRENT_TITLE = "Another request got in first"
"""The title of a concurrent writer's 409: the books refused nothing, a retry may pass."""


def from_error(error: LedgerError) -> ProblemResponse:
    status = status_of(error)
    headers = {"WWW-Authenticate": 'Bearer realm="ledger"'} if status == 401 else None
    retry = getattr(error, "retry_after", None)
    if retry is not None:
        headers = {**(headers or {}), "Retry-After": str(retry)}
    title = getattr(error, "title", None)
    if title is None and isinstance(error, ConcurrentUpdate):
        title = CONCURRENT_TITLE
    return problem(status, error.code, error.message, headers, title)


def from_validation(errors: list[Any]) -> ProblemResponse:
    """Malformed JSON is 400; JSON of the wrong shape (unknown field, wrong type) 422.
    Only where and what is said, never the value that was sent."""
    if any(e.get("type") == "json_invalid" for e in errors):
        return problem(400, "malformed-json", "the request body is not valid JSON")
    return problem(422, "invalid-input", validation_sentence(errors))


def validation_sentence(errors: list[Any]) -> str:
    return problems_said(in_the_body(e) for e in errors)


def in_the_body(error: dict[str, Any]) -> dict[str, Any]:
    """A request's problem placed in its body's terms: ``home.team``, not ``body.home.team``
    (the body itself, ``null`` or nothing, is ``body``)."""
    loc = tuple(error.get("loc", ()))
    return {**error, "loc": tuple(p for p in loc if p != "body") or loc}


UNPARSED = "There was an error parsing the body"
"""FastAPI's 400 for a body it could not read at all (not UTF-8, nested too deep)."""
UNPARSED_SAID = "the request body is not JSON in UTF-8 (nested at most a few hundred deep)"


def sent_otherwise(request: Request) -> ProblemResponse | None:
    """A 415 for a body sent as another type than JSON (``application/json`` or
    ``application/...+json``), when a type is given; else None."""
    given = request.headers.get("content-type", "").strip()
    kind = given.split(";")[0].strip().lower()
    if not kind or kind == "application/json" or kind.endswith("+json"):
        return None
    detail = f"send the body as JSON (Content-Type: application/json), not {given[:80]}"
    return problem(415, "unsupported-media-type", detail)


def form_page(request: Request) -> str:
    """The page a form's address belongs to: its parent (``/leagues/demo/submissions/s1``
    for ``.../s1/confirm``) where a page is served there, else the site's front page."""
    parent = request.url.path.rstrip("/").rsplit("/", 1)[0] or "/"
    scope = {"type": "http", "path": parent, "method": "GET"}
    served = any(route.matches(scope)[0] == Match.FULL for route in request.app.routes)
    return parent if served else "/"


def browsing(request: Request) -> bool:
    """A browser asking for a page (``Accept: text/html``), not a client of the API."""
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get(
        "accept", ""
    )


ErrorPage = Callable[[Request, LedgerError], Response]
"""How the pages show a refusal (``pages_render.error_page``)."""


def install(app: FastAPI, error_page: ErrorPage | None = None) -> None:
    """Register the handlers: every error a request can meet becomes a problem; an
    address no route serves, asked for by a browser, is ``error_page``'s page."""

    async def ledger_error(_: Request, error: Exception) -> ProblemResponse:
        assert isinstance(error, LedgerError)
        return from_error(error)

    async def request_invalid(request: Request, error: Exception) -> ProblemResponse:
        assert isinstance(error, RequestValidationError)
        errors = list(error.errors())
        if any(tuple(e.get("loc", ()))[:1] == ("body",) for e in errors):
            # A JSON object sent as text/plain reached the model as bytes: "must be a
            # mapping" would blame the object, not how it was sent.
            return sent_otherwise(request) or from_validation(errors)
        return from_validation(errors)

    async def model_invalid(_: Request, error: Exception) -> ProblemResponse:
        # A command's event refused a value the request carried (a name too long...).
        assert isinstance(error, ValidationError)
        return problem(422, "invalid-input", validation_problems(error))

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if error.status_code == 400 and error.detail == UNPARSED:
            return sent_otherwise(request) or problem(400, "malformed-json", UNPARSED_SAID)
        if error.status_code == 404 and error_page is not None and browsing(request):
            missing = NotFound(f"there is no page at {request.url.path}")
            return await run_in_threadpool(error_page, request, missing)
        if error.status_code == 405 and browsing(request) and request.method == "GET":
            # A form's address opened again (the address bar kept it after a refusal): the
            # page the form is on, not the API's problem document.
            return RedirectResponse(form_page(request), status_code=303)
        code = {404: "not-found", 405: "method-not-allowed"}.get(error.status_code, "http")
        detail = error.detail if isinstance(error.detail, str) else TITLES.get(400, "")
        return problem(error.status_code, code, detail, dict(error.headers or {}))

    async def store_error(_: Request, error: Exception) -> ProblemResponse:
        log.error("store unavailable: %s", type(error).__name__)
        return problem(503, "store", "the ledger's database could not be used; try again")

    async def last_resort(request: Request, error: Exception) -> ProblemResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return problem(500, "internal", "the service failed on this request; nothing more is said")

    app.add_exception_handler(LedgerError, ledger_error)
    app.add_exception_handler(RequestValidationError, request_invalid)
    app.add_exception_handler(ValidationError, model_invalid)
    app.add_exception_handler(HTTPException, http_error)
    for kind in (OperationalError, PersistenceError, sqlite3.OperationalError):
        app.add_exception_handler(kind, store_error)
    app.add_exception_handler(sqlalchemy.exc.OperationalError, store_error)
    app.add_exception_handler(Exception, last_resort)


PROBLEMS: dict[int | str, dict[str, Any]] = {
    status: {"model": Problem, "content": {MEDIA_TYPE: {}}, "description": TITLES[status]}
    for status in (400, 401, 403, 404, 409, 412, 413, 415, 422, 429, 503)
}
"""The problem responses every API operation may give, for the OpenAPI document."""
