"""How a page is made: the Jinja2 environment (autoescaped, the season report's filters),
who is asking, and the pages' own answer to an error (an HTML page with the ledger's
sentence, where the JSON API answers a problem document).

Every page is rendered here, with the signed-in account (or none) and the CSRF token its
forms carry; a route only chooses the template and what to show.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from starlette.concurrency import run_in_threadpool

from ledger.application.access import Principal, authorize
from ledger.application.service import LeagueLedger
from ledger.domain.events import ADVANCEMENT_NAMES
from ledger.domain.state import LeagueRow
from ledger.domain.values import MAX_MATCH_ID, MAX_NAME, MAX_TEXT
from ledger.errors import Forbidden, InvalidInput, LedgerError, Unauthenticated
from ledger.reports.text import FILTERS
from ledger.rules.schema import category_said
from ledger.web.auth import SESSION_COOKIE, csrf_token, memo, resolve, service_of, session_of
from ledger.web.guard import Guarded
from ledger.web.idempotency import form_key
from ledger.web.pages_reads import League, open_league
from ledger.web.problems import TITLES, status_of, validation_sentence
from ledger.words import ordinal

BOUNDS = {"text": MAX_TEXT, "name": MAX_NAME, "match": MAX_MATCH_ID, "amendment": 4_000}
"""A field's bound on the forms (``maxlength``): the events' own (ledger/domain/values.py),
and the correction form's text of ``field=value`` lines, whose values are then each the
event field's."""


def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("ledger.web", "templates"),
        auto_reload=False,  # templates ship with the package: no stat per render
        autoescape=select_autoescape(["html.j2"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(FILTERS)
    env.filters["ordinal"] = ordinal
    env.filters["category"] = category_said
    env.globals["advancement_names"] = ADVANCEMENT_NAMES
    env.globals["form_key"] = form_key  # each form shown is sent once (idempotency.py)
    env.globals["bound"] = BOUNDS
    return env


ENV = environment()


def ledger_of(request: Request) -> LeagueLedger:
    ledger: LeagueLedger = service_of(request).ledger
    return ledger


def shown_league(request: Request, slug: str) -> League:
    """The league a guarded read shows, at the row the guard read (``guard.consistent``
    builds the page again if a write lands meanwhile): not read a second time."""
    return open_league(ledger_of(request), slug, memo(request).get("league_row"))


def who(request: Request) -> Principal | None:
    """The signed-in account, or None (read once per request)."""
    return resolve(request)


def page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """Render ``template`` with what every page shows: the account and its CSRF token."""
    shown = {"crumbs": (), **context, "me": resolve(request), "csrf": csrf_token(request)}
    html = ENV.get_template(template).render(shown)
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})


def in_the_address(error: dict[str, Any]) -> dict[str, Any]:
    """A page's address's part named as a reader sees it ("the address's before"), not as
    FastAPI places it (``query.before``)."""
    loc = tuple(error.get("loc", ()))
    if len(loc) > 1 and loc[0] in ("query", "path"):
        return {**error, "loc": (f"the address's {loc[1]}", *loc[2:])}
    return error


def to_sign_in(request: Request) -> Response:
    """To the sign-in page, which brings the reader back to the page asked (its address
    quoted whole, query included). A browser whose session cookie names no live session
    (its password set anew, the account revoked, the session expired) is told so, and the
    stale cookie goes; a request that came with a token is not a browser's session."""
    asked = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    ended = (
        bool(request.cookies.get(SESSION_COOKIE))
        and "authorization" not in request.headers
        and session_of(request) is None
    )
    query = {"next": asked, **({"ended": "1"} if ended else {})}
    reply = RedirectResponse(f"/login?{urlencode(query, safe='/')}", status_code=303)
    if ended:
        reply.delete_cookie(SESSION_COOKIE)
    return reply


def error_page(request: Request, error: LedgerError) -> Response:
    """The page for a refused or failed request: its status and the CLI's sentence. A
    reader who is not signed in is sent to sign in first, and brought back after."""
    status = status_of(error)
    if isinstance(error, Unauthenticated) and request.method == "GET":
        return to_sign_in(request)
    return page(
        request,
        "error.html.j2",
        status=status,
        title=TITLES.get(status, "Error"),
        heading=TITLES.get(status, "Error"),
        code=error.code,
        message=error.message,
        http_status=status,
        here=request.url.path,
        back=league_back(request),
    )


def league_back(request: Request) -> LeagueRow | None:
    """The league a refused page of it leads back to: the one the guard read, when the
    account may read it (a team, player or match it does not hold is still its page's)."""
    row: LeagueRow | None = memo(request).get("league_row")
    return row if row is not None and may(who(request), row, "read") else None


def role_named(request: Request) -> str | None:
    """The role the guard found the account acting in for this league (None: a reader)."""
    role: str | None = memo(request).get("role")
    return role


def may_submit(request: Request, league: League, *teams: str) -> bool:
    me = who(request)
    return any(may(me, league.row, "submit_report", team) for team in teams)


def may(who: Principal | None, league: LeagueRow, action: str, team: str | None = None) -> bool:
    """Whether ``who`` may take ``action`` (a page shows its button only then)."""
    try:
        authorize(who, league.slug, action, team=team, public=league.public)
    except (Forbidden, Unauthenticated):
        return False
    return True


class PageRoute(Guarded):
    """The route class of the pages: the API's guard (authorization before the body is
    read, the CSRF token of a cookie-signed form), but a refusal is an HTML page with the
    reason, not a problem document."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        inner = super().get_route_handler()

        async def handler(request: Request) -> Response:
            try:
                return await inner(request)
            except LedgerError as error:
                return await run_in_threadpool(error_page, request, error)
            except RequestValidationError as error:  # the address's number out of range...
                said = validation_sentence([in_the_address(e) for e in error.errors()])
                refused = InvalidInput(said)
                return await run_in_threadpool(error_page, request, refused)

        return handler
