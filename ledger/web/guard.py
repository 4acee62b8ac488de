"""Authorization before anything else, and writing as the signed-in account.

A route says what it does with ``@needs("hire")``; the route class ``Guarded`` then, before
the request's body is even read, finds the account, the league and the role it may act in
(``access.authorize``), so a refused request is refused whatever its body and writes
nothing. On a read it answers ``304`` to a current ``If-None-Match`` and stamps the
league's version as the ``ETag``; on a POST it honours ``Idempotency-Key``.

A route that writes takes a ``Call`` (the dependency ``calling``) and runs its command
through ``Call.write``: one writer at a time in the process (``LeagueLedger`` keeps its
unit of work on itself), inside ``ledger.acting`` so the events record the account, the
role, where the request came from and its id, and inside ``ledger.atomic`` so an
``If-Match`` version is checked against the log the command appends to (412 when stale).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request, Response
from fastapi.routing import APIRoute
from starlette.concurrency import run_in_threadpool

from ledger.application.access import Actor, Principal, Via, authorize
from ledger.application.service import LeagueLedger
from ledger.application.unit import UnitOfWork, retried
from ledger.domain.events import Role
from ledger.domain.log import league_id
from ledger.domain.state import LeagueRow, TeamRow
from ledger.errors import InvalidInput, UnknownLeague, UnknownTeam, VersionMismatch
from ledger.projections.sql import reads_through_one
from ledger.web import answers
from ledger.web.auth import (
    LOGIN_CSRF_COOKIE,
    SESSION_COOKIE,
    check_csrf,
    memo,
    resolve,
    service_of,
    stamp_of,
)
from ledger.web.idempotency import once

T = TypeVar("T")
Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])


@dataclass(frozen=True)
class Need:
    action: str
    team_in_body: bool = False
    """The team acted for is named in the body (a match report): the guard lets only the
    league's members through, and the route authorizes the team once it has read it."""
    remembered: bool = False
    """A read whose answer the league's version fixes (``answers``): kept and given again
    until the version moves."""
    members_only: bool = False
    """A read of what stays the league's members' where the league is public: the match
    report workflow's reports, pending or answered (the public reads the games they
    became)."""


def needs(
    action: str, *, team_in_body: bool = False, remembered: bool = False, members_only: bool = False
) -> Callable[[Endpoint], Endpoint]:
    """Mark a route with the action it takes (``access.ACTIONS``)."""

    def mark(endpoint: Endpoint) -> Endpoint:
        need = Need(action, team_in_body, remembered, members_only)
        endpoint.ledger_need = need  # type: ignore[attr-defined]
        return endpoint

    return mark


def etag(version: int) -> str:
    return f'"{version}"'


ENTITY_TAG = re.compile(r'\s*(?:(W/)?"([\x21\x23-\x7e\x80-\xff]*)")?\s*(?:,|\Z)')
"""One element of an ``If-Match`` / ``If-None-Match`` list (RFC 9110 §8.8.3 and §5.6.1:
an element may be empty)."""


def entity_tags(header: str) -> list[tuple[bool, str]] | None:
    """The ``(weak, opaque)`` tags a conditional header lists, None for ``*``; raises
    InvalidInput when it is not a list of entity tags."""
    text = header.strip()
    if text == "*":
        return None
    tags, at = [], 0
    while at < len(text):
        found = ENTITY_TAG.match(text, at)
        if found is None or found.end() == at:
            break
        if found.group(2) is not None:
            tags.append((found.group(1) is not None, found.group(2)))
        at = found.end()
    if at < len(text) or not tags:
        raise InvalidInput(
            f'{header[:40]!r} is not "*" or a list of entity tags as ETag gives them'
            " (a version in double quotes)"
        )
    return tags


def not_modified(header: str, current: str) -> bool:
    """``If-None-Match`` is false for ``current``: ``*``, or a tag equal to it by weak
    comparison (RFC 9110 §13.1.2). A malformed header is ignored (the read is answered)."""
    try:
        tags = entity_tags(header)
    except InvalidInput:
        return False
    return tags is None or any(f'"{opaque}"' == current for _, opaque in tags)


def versions_in(header: str) -> frozenset[int] | None:
    """The league versions an ``If-Match`` accepts (None for ``*``: any). It compares
    strongly (RFC 9110 §13.1.1): a weak tag matches nothing, so a header that names no
    strong version is refused (412) before anything is written."""
    tags = entity_tags(header)
    if tags is None:
        return None
    versions = frozenset(
        int(opaque) for weak, opaque in tags if not weak and opaque.isdigit() and len(opaque) <= 12
    )
    if not versions:
        raise VersionMismatch(
            f"If-Match names no league version as its ETag gave it (the version in double"
            f" quotes; a weak tag never matches a write), not {header[:40]!r}; nothing was"
            " recorded"
        )
    return versions


# --- the guard --------------------------------------------------------------------------------


@reads_through_one
def authorized(request: Request, need: Need) -> LeagueRow | None:
    """Who may do what, before the request's body is read; raises 401/403/404."""
    service = service_of(request)
    principal = resolve(request)
    slug = request.path_params.get("league")
    row = service.known.league_row(slug, stamp_of(request)) if slug else None
    member_only = need.team_in_body or need.members_only
    known = memo(request)
    if slug is not None and may_read(principal, slug, row):
        known["league_row"] = row  # a refusal's page links back to the league it may read
        found_or_refused(request, slug, row)
    role = authorize(
        principal,
        slug,
        "read" if member_only else need.action,
        team=request.path_params.get("team"),
        public=bool(row and row.public) and not member_only,
        team_said=team_names(request, row),
        league_said=row.name if row else None,
    )
    if slug and row is None:  # said only to those who could read it if it existed
        raise UnknownLeague(f"no league '{slug}' in this ledger")
    known["role"], known["league_row"] = role, row
    return row


def may_read(principal: Principal | None, slug: str, row: LeagueRow | None) -> bool:
    """Whether the caller may read the league: an admin, a member, anyone when it is
    public. Anyone else is refused by ``authorize`` alike whether the league exists or
    not (401 or 403), so that a private league's existence is not told."""
    if principal is not None and (principal.admin or slug in principal.leagues):
        return True
    return row is not None and row.public


def found_or_refused(request: Request, slug: str, row: LeagueRow | None) -> None:
    """For a caller who may read the league: a league or a team of the address that does
    not exist is a 404 before any role is asked (a coach asking a team ``nope`` is not
    told he coaches another)."""
    if row is None:
        raise UnknownLeague(f"no league '{slug}' in this ledger")
    team = request.path_params.get("team")
    if team is not None and service_of(request).reads().get(TeamRow, row.league_id, team) is None:
        raise UnknownTeam(f"no team '{team}' in league {row.name}")


def team_names(request: Request, row: LeagueRow | None) -> Callable[[str], str]:
    """How a refusal names the league's teams: by name (``Reikland Reavers``, not
    ``reikland-reavers``), read only when a refusal is said; an id the league does not
    hold is said as it was asked."""
    if row is None:
        return str
    store = service_of(request).reads()

    def said(team_id: str) -> str:
        team = store.get(TeamRow, row.league_id, team_id)
        return team.name if team is not None else team_id

    return said


class Guarded(APIRoute):
    """The route class of every API route and page: the guard runs before FastAPI reads
    the body, then idempotency, then the route, then the ETag. A read's route (a GET
    that FastAPI runs in a thread) reads through one connection (``reads_through_one``),
    as the guard does."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **options: Any) -> None:
        reads = {method.upper() for method in options.get("methods") or ()} == {"GET"}
        if reads and not inspect.iscoroutinefunction(endpoint):
            endpoint = reads_through_one(endpoint)
        super().__init__(path, endpoint, **options)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        inner = super().get_route_handler()
        need: Need | None = getattr(self.endpoint, "ledger_need", None)
        if need is None:
            return inner

        async def handler(request: Request) -> Response:
            row = await run_in_threadpool(authorized, request, need)
            await check_csrf(request)
            current = etag(row.version) if row else None
            if request.method == "GET":
                asked = request.headers.get("if-none-match")
                if current and asked and not_modified(asked, current):
                    return Response(status_code=304, headers={"ETag": current})
                if need.remembered and row is not None:
                    return await remembered(request, inner, row)
                reply, version = await consistent(request, inner, row)
                return tagged(reply, version)
            # Writes run one at a time in a process (``Call.write``): they wait for their
            # turn here, in the event loop, not in a request thread each, so a burst of
            # writes never leaves the reads without threads.
            async with service_of(request).write_turn:
                return await once(request, inner)

        return handler


async def remembered(
    request: Request,
    inner: Callable[[Request], Coroutine[Any, Any, Response]],
    arrived: LeagueRow,
) -> Response:
    """A read the league's version fixes: the answer kept at the version the request
    found or a later one, or the route's, then kept (``answers``) under the version it
    was built at, and only when it is known."""
    kept_answers = service_of(request).answers
    key = (
        request.url.path,
        request.url.query,
        answers.caller(memo(request).get("principal")),
        answers.cookie(request.cookies.get(SESSION_COOKIE)),
        request.cookies.get(LOGIN_CSRF_COOKIE),
    )
    kept = kept_answers.get(key, arrived.version)
    if kept is not None:
        return kept.response()
    waits = kept_answers.busy(key)
    async with kept_answers.turn(key):
        kept = kept_answers.get(key, arrived.version)  # computed by the request it waited for
        if kept is not None:
            return kept.response()
        async with kept_answers.computing:
            # Writes may have landed while this waited: the answer is computed as of now,
            # so the readers who arrived meanwhile are given it too. One that did not wait
            # has the row the guard just read; a write landing since is caught by
            # ``consistent``, which reads the version again after the route.
            now = await run_in_threadpool(row_now, request) if waits else arrived
            reply, version = await consistent(request, inner, now or arrived)
        reply = tagged(reply, version)
        fresh = answers.keepable(reply, version) if version is not None else None
        minted = memo(request).get("new_login_csrf")  # this visitor's, if the page shows it
        if fresh is not None and not (minted and minted.encode() in fresh.body):
            kept_answers.keep(key, fresh)
        return reply


TRIES = 3
"""Computations of a read while writes keep landing on its league, before it is answered
untagged (``consistent``)."""


async def consistent(
    request: Request,
    inner: Callable[[Request], Coroutine[Any, Any, Response]],
    row: LeagueRow | None,
) -> tuple[Response, int | None]:
    """The route's answer and the league version its body shows (its ETag), or None.

    A route reads the league's row (``memo``) and then the read models in statements of
    their own, each seeing what is committed when it runs; a command commits a league's
    read models and its version together. So when the version read after the answer is
    the row's, nothing of the league moved while the answer was built, and the body is
    that version's. When it moved, the answer is built again from the new row; after
    ``TRIES`` it is given without a tag (never with a tag its body does not match)."""
    if row is None:
        return await inner(request), None
    known = memo(request)
    for _ in range(TRIES):
        known["league_row"] = row
        reply = await inner(request)
        if reply.status_code != 200 or not isinstance(getattr(reply, "body", None), bytes):
            return reply, row.version  # not an answer to tag, or a stream read as it is sent
        after = await run_in_threadpool(row_now, request)
        if after is None or after.version == row.version:
            return reply, row.version
        row = after
    return reply, None


def tagged(reply: Response, version: int | None) -> Response:
    if version is not None and reply.status_code == 200 and "etag" not in reply.headers:
        reply.headers["ETag"] = etag(version)
    return reply


@reads_through_one
def row_now(request: Request) -> LeagueRow | None:
    """The league's row as it is now (not as ``known`` kept it at the request's stamp)."""
    slug = request.path_params["league"]
    return service_of(request).reads().get(LeagueRow, str(league_id(slug)))


# --- writing as the account -------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """A request that writes: who sends it, the role it acts in, and the league."""

    request: Request
    principal: Principal
    role: Role
    league: str | None
    via: Via
    request_id: str
    expected: frozenset[int] | None
    """The league versions ``If-Match`` named, if any."""

    def actor(self) -> Actor:
        return Actor(
            name=self.principal.name,
            account=self.principal.account,
            role=self.role,
            via=self.via,
            request_id=self.request_id,
        )

    def write(self, command: Callable[[LeagueLedger, str], T]) -> T:
        """Run ``command(ledger, name)`` as the account, all-or-nothing; retried when
        another process wrote at the same moment."""
        service = service_of(self.request)
        actor = self.actor()

        def attempt() -> T:
            with service.writing, service.ledger.acting(actor):
                with service.ledger.atomic() as unit:
                    if self.league and self.expected is not None:
                        unit.expected[self.league] = self.expected
                    made = command(service.ledger, self.principal.name)
                    seen = self.seen(unit)
                # Committed: the version this write left, from its own unit (another
                # client's write may already have moved the league on).
                memo(self.request)["written"] = written(unit, self.league, seen)
                return made

        return retried(attempt, "the ledger kept changing while this ran; nothing was recorded")

    def seen(self, unit: UnitOfWork) -> int | None:
        """The league's version as the unit found it (for a write that appends nothing
        to the league's own log)."""
        if self.league is None or self.league in unit.leagues:
            return None
        row = unit.store.get(LeagueRow, str(league_id(self.league)))
        return row.version if row else None

    def authorize_team(self, action: str, team: str) -> None:
        """For a route whose team is in its body: may the account act for that team?"""
        row = memo(self.request).get("league_row")
        authorize(
            self.principal,
            self.league,
            action,
            team=team,
            public=bool(row and row.public),
            team_said=team_names(self.request, row),
            league_said=row.name if row else None,
        )

    def version(self) -> int:
        """The league's version this request's write left (the ETag of its answer): not
        the version now, which may count other clients' later writes, and never before
        the write (an answer made before ``write`` is a bug, not a stale version)."""
        known = memo(self.request)
        if "written" not in known:
            raise RuntimeError("a write's receipt is made after its write (Call.write)")
        found: int | None = known["written"]
        return found or 0

    def done(self, response: Response) -> None:
        if self.league:
            response.headers["ETag"] = etag(self.version())


def written(unit: UnitOfWork, league: str | None, seen: int | None) -> int | None:
    """The version of ``league`` a committed unit left: its log's, when the unit appended
    to it (the version of its last event), else the version the unit found."""
    rehearsal = unit.leagues.get(league) if league else None
    return rehearsal.log.version if rehearsal is not None else seen


def calling(request: Request) -> Call:
    """FastAPI dependency of a route that writes (after the guard has authorized it)."""
    known = memo(request)
    principal, role = known.get("principal"), known.get("role")
    if principal is None or role is None:
        raise RuntimeError("a writing route must be marked with @needs(...)")
    header = request.headers.get("if-match")
    return Call(
        request=request,
        principal=principal,
        role=role,
        league=request.path_params.get("league"),
        via="api" if request.url.path.startswith("/api/") else "web",
        request_id=known.get("request_id", "-"),
        expected=versions_in(header) if header else None,
    )


Calling = Annotated[Call, Depends(calling)]
"""The parameter type of a route that writes: ``call: Calling``."""
