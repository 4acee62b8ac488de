"""The JSON API's reads: the same read-model questions as ``ledger standings``, ``roster``,
``treasury``, ``history``, ``audit verify`` and ``export``, as JSON under ``/api/``.

Every route is guarded (``guard.needs("read")``): members of a league read it, anyone
reads a public league. Nothing here catches up or refolds; each request reads a fresh
read-only store. Lists take ``?limit=`` and ``?after=`` (the ``next`` of the page before).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel

from ledger.application.access import Principal
from ledger.application.audit import Break, verify_chain
from ledger.application.transfer import export_lines
from ledger.domain.events import LedgerEvent
from ledger.domain.log import league_id
from ledger.domain.state import (
    EventRef,
    FaultLine,
    LeagueRow,
    MatchRow,
    PlayerGameLine,
    PlayerRow,
    TeamRow,
    TreasuryLine,
)
from ledger.errors import UnknownMatch
from ledger.projections.describe import describe
from ledger.projections.queries import STAT_COLUMNS, Leader, LeaderStat, Queries, Roster, Standings
from ledger.projections.refs import history_key
from ledger.rules import RULESETS, find_ruleset, ruleset_class
from ledger.rules.schema import TeamList
from ledger.web.auth import csrf_token, memo, optional_principal, service_of
from ledger.web.guard import Guarded, needs
from ledger.web.problems import LAST_EVENT, PROBLEMS

T = TypeVar("T")

router = APIRouter(route_class=Guarded, responses=PROBLEMS)

LIMIT = Query(default=50, ge=1, le=500, description="How many items at most.")
AFTER = Query(default=None, ge=0, le=LAST_EVENT, description="The `next` of the previous page.")


class Page(BaseModel, Generic[T]):
    items: list[T]
    next: int | None = None
    """Pass as ``?after=`` for the next page; null on the last page."""


def page(items: Sequence[T], limit: int, after: int | None) -> Page[T]:
    """A page of a list in a fixed order, by position (``after`` = items already seen)."""
    start = after or 0
    chosen = list(items[start : start + limit])
    return Page(items=chosen, next=start + limit if start + limit < len(items) else None)


@dataclass(frozen=True)
class Reading:
    """The league a guarded request reads, and the questions to ask of it."""

    row: LeagueRow
    queries: Queries


def reading(request: Request) -> Reading:
    row: LeagueRow = memo(request)["league_row"]
    ruleset = find_ruleset(row.ruleset, row.options)
    engine = service_of(request).ledger.read_models.engine
    return Reading(row=row, queries=Queries(engine, row, ruleset))


Read = Annotated[Reading, Depends(reading)]
MaybeWho = Annotated[Principal | None, Depends(optional_principal)]


# --- the caller ------------------------------------------------------------------------------


class Me(BaseModel):
    account: str | None
    """Null when nobody is signed in."""
    name: str | None = None
    admin: bool = False
    leagues: dict[str, dict[str, Any]] = {}
    """Each league the account has a role in: its role and teams."""
    csrf: str | None = None
    """A browser session's CSRF token, for scripts in its pages (``X-CSRF-Token``)."""


@router.get("/api/session", tags=["accounts"])
def me(who: MaybeWho, request: Request) -> Me:
    """Who the request is signed in as (by token or by session cookie), and as what."""
    if who is None:
        return Me(account=None)
    return Me(
        account=who.account,
        name=who.name,
        admin=who.admin,
        leagues={slug: {"role": m.role, "teams": list(m.teams)} for slug, m in who.leagues.items()},
        csrf=csrf_token(request) if memo(request).get("via_cookie") else None,
    )


# --- leagues -------------------------------------------------------------------------------


class LeagueInfo(BaseModel):
    slug: str
    name: str
    ruleset: str
    options: dict[str, Any]
    version: int
    """The league's ETag: the number of events in its log."""
    public: bool
    current_season: int


def info(row: LeagueRow) -> LeagueInfo:
    return LeagueInfo(
        slug=row.slug,
        name=row.name,
        ruleset=row.ruleset,
        options=row.options,
        version=row.version,
        public=row.public,
        current_season=row.current_season,
    )


@router.get("/api/leagues", tags=["leagues"])
def leagues(who: MaybeWho, request: Request) -> list[LeagueInfo]:
    """The leagues the caller may read: an admin's all, a member's own, the public ones."""
    rows = service_of(request).reads().select(LeagueRow)
    return [info(r) for r in sorted(rows, key=lambda r: r.slug) if may_read(who, r)]


def may_read(who: Principal | None, row: LeagueRow) -> bool:
    return row.public or (who is not None and (who.admin or row.slug in who.leagues))


@router.get("/api/leagues/{league}", tags=["leagues"])
@needs("read", remembered=True)
def league(request: Request, league: str) -> LeagueInfo:
    """The league: its ruleset and options, its version (also the ``ETag``)."""
    return info(memo(request)["league_row"])


@router.get("/api/leagues/{league}/standings", tags=["leagues"])
@needs("read", remembered=True)
def standings(
    read: Read, league: str, season: int | None = Query(default=None, ge=1, le=10_000)
) -> Standings:
    """The table per division under the league's ruleset, with its tie-breakers."""
    return read.queries.standings(season)


@router.get("/api/leagues/{league}/leaders", tags=["leagues"])
@needs("read", remembered=True)
def leaders(
    read: Read, league: str, stat: LeaderStat = "spp", limit: int = Query(default=10, ge=1, le=500)
) -> list[Leader]:
    """Leaderboards: touchdowns, casualties, SPP, MVPs, completions, interceptions, kills."""
    assert stat in STAT_COLUMNS
    return read.queries.leaders(stat, limit)


# --- teams and players -------------------------------------------------------------------------


@router.get("/api/leagues/{league}/teams", tags=["teams"])
@needs("read", remembered=True)
def teams(read: Read, league: str) -> list[TeamRow]:
    """The league's teams with their headline figures."""
    return read.queries.teams()


@router.get("/api/leagues/{league}/teams/{team}", tags=["teams"])
@needs("read", remembered=True)
def team(read: Read, league: str, team: str) -> Roster:
    """A team: its players, figures (TV/CTV or TR) and treasury."""
    return read.queries.roster(team)


@router.get("/api/leagues/{league}/treasury/{team}", tags=["teams"])
@needs("read", remembered=True)
def treasury(
    read: Read, league: str, team: str, limit: int = LIMIT, after: int | None = AFTER
) -> Page[TreasuryLine]:
    """Every movement of the team's gold, the event that caused it, the running balance."""
    return page(read.queries.treasury(team), limit, after)


class PlayerCareer(BaseModel):
    player: PlayerRow
    games: list[PlayerGameLine]


@router.get("/api/leagues/{league}/players/{player}", tags=["teams"])
@needs("read", remembered=True)
def player(read: Read, league: str, player: str) -> PlayerCareer:
    """A player (by id, or by name when it is unique) and the career, match by match."""
    found = read.queries.player(player)
    return PlayerCareer(player=found, games=read.queries.player_games(found.player_id))


# --- matches and history ---------------------------------------------------------------------


@router.get("/api/leagues/{league}/matches", tags=["matches"])
@needs("read", remembered=True)
def matches(
    read: Read,
    league: str,
    season: int | None = Query(default=None, ge=1, le=10_000),
    limit: int = LIMIT,
    after: int | None = AFTER,
) -> Page[MatchRow]:
    """Fixtures and recorded matches, by season and round."""
    return page(read.queries.matches(season), limit, after)


@router.get("/api/leagues/{league}/matches/{match}", tags=["matches"])
@needs("read", remembered=True)
def match(read: Read, request: Request, league: str, match: str) -> MatchRow:
    found = service_of(request).reads().get(MatchRow, read.row.league_id, match)
    if found is None:
        raise UnknownMatch(f"no match '{match}' in league {read.row.slug}")
    return found


@router.get("/api/leagues/{league}/history", tags=["matches"])
@needs("read", remembered=True)
def history(
    read: Read,
    league: str,
    ref: str = Query(min_length=1, max_length=200, description="team, player or match:ID"),
    limit: int = LIMIT,
    after: int | None = AFTER,
) -> Page[EventRef]:
    """Every event that touched a team, a player or a match, and their corrections."""
    return page(read.queries.history(history_key(read.queries, ref)), limit, after)


# --- the log ---------------------------------------------------------------------------------


class LoggedEvent(BaseModel):
    seq: int
    type: str
    recorded_at: str
    recorded_by: str
    account: str | None
    """The account that caused it (null for events recorded before accounts)."""
    acting_as: str | None
    via: str | None
    request_id: str | None
    reason: str | None
    summary: str
    hash: str


def logged(event: LedgerEvent) -> LoggedEvent:
    return LoggedEvent(
        seq=event.seq,
        type=type(event).__name__,
        recorded_at=event.timestamp.isoformat(),
        recorded_by=event.recorded_by,
        account=event.account,
        acting_as=event.acting_as,
        via=event.via,
        request_id=event.request_id,
        reason=event.reason,
        summary=describe(event),
        hash=event.hash,
    )


@router.get("/api/leagues/{league}/events", tags=["audit"])
@needs("read")
def events(
    read: Read, request: Request, league: str, limit: int = LIMIT, after: int | None = AFTER
) -> Page[LoggedEvent]:
    """The league's log in order, with who caused each event, as which role, and why.
    ``after`` is the last ``seq`` seen. It shows the log up to the version its ETag
    names: an event appended since (its read models not yet caught up) waits for the
    next read."""
    ledger = service_of(request).ledger
    stored = ledger.recorder.select_events(
        league_id(read.row.slug), gt=after or None, lte=read.row.version, limit=limit + 1
    )
    shown = [logged(ledger.source.decode(s)) for s in stored[:limit]]
    return Page(items=shown, next=shown[-1].seq if len(stored) > limit else None)


class Audit(BaseModel):
    league: str
    ok: bool
    """The chain is intact and no stored event is passed over."""
    events: int
    last_hash: str
    breaks: list[Break]
    faults: list[FaultLine]


@router.get("/api/leagues/{league}/audit", tags=["audit"])
@needs("read")
def audit(read: Read, request: Request, league: str) -> Audit:
    """``ledger audit verify``: recompute the hash chain from the stored rows."""
    service = service_of(request)
    chain = verify_chain(service.ledger.recorder, league_id(read.row.slug), read.row.slug)
    faults = list(service.reads().select(FaultLine, league_id=read.row.league_id))
    return Audit(
        league=chain.league,
        ok=chain.ok and not faults,
        events=chain.events,
        last_hash=chain.last_hash,
        breaks=chain.breaks,
        faults=faults,
    )


@router.get(
    "/api/leagues/{league}/export",
    tags=["audit"],
    response_class=StreamingResponse,
    responses={200: {"content": {"application/jsonl": {}}, "description": "JSON Lines"}},
)
@needs("read")
def export(request: Request, league: str) -> StreamingResponse:
    """The league's log as JSON Lines, as ``ledger export`` writes it (no secrets)."""
    lines = export_lines(service_of(request).ledger.recorder, league)
    headers = {"Content-Disposition": f'attachment; filename="{league}.jsonl"'}
    return StreamingResponse(lines, media_type="application/jsonl", headers=headers)


# --- the ruleset catalogue ---------------------------------------------------------------------


class RulesetInfo(BaseModel):
    id: str
    name: str
    aliases: list[str]
    source: str
    figures: list[str]
    options: dict[str, Any]
    """The JSON schema of the ruleset's options."""
    team_lists: list[str]


@router.get("/api/rulesets", tags=["rulesets"])
def rulesets() -> list[RulesetInfo]:
    """The rulesets a league can be created under, with their options and team lists."""
    return [
        RulesetInfo(
            id=cls.id,
            name=cls.name,
            aliases=list(cls.aliases),
            source=cls.source,
            figures=list(cls.value_labels.values()),
            options=cls.Options.model_json_schema(),
            team_lists=sorted(cls().catalogue.team_lists()),
        )
        for cls in RULESETS
    ]


@router.get("/api/rulesets/{ruleset}/teams/{roster}", tags=["rulesets"])
def team_list(ruleset: str, roster: str) -> TeamList:
    """A team list: its positions with prices, limits and characteristics."""
    return ruleset_class(ruleset)().catalogue.team_list(roster[:64])  # UnknownTeam: 404
