"""The JSON API's writes: each the same ``LeagueLedger`` command as its CLI twin.

A body is a pydantic model that forbids unknown fields and takes no type coercion (a
``"3"`` for a number is a wrong type, 422). The guard has authorized the action before
the body was read; the command runs as the account (``guard.Call.write``), so its events
record the account, the role and the request; ``If-Match`` makes a stale client's write a
412 and ``Idempotency-Key`` makes a retried one a no-op. Every answer carries the
league's new version as its ``ETag``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ledger.application.commands import (
    AdjustTreasury,
    Buy,
    Correct,
    HirePlayer,
    SetAdvancementDice,
)
from ledger.application.service import LeagueLedger
from ledger.domain.values import MAX_COUNT, MOST_BOUGHT, BonusPoint, Given, PointsScheme, Tiebreaker
from ledger.errors import InvalidInput
from ledger.rules import find_ruleset
from ledger.rules.protocol import Ruleset
from ledger.web.api import LeagueInfo, info
from ledger.web.auth import service_of
from ledger.web.guard import Call, Calling, Guarded, needs
from ledger.web.problems import LAST_EVENT, PROBLEMS

router = APIRouter(route_class=Guarded, responses=PROBLEMS)

Short = Field(min_length=1, max_length=64)
Words = Field(min_length=1, max_length=2000)


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Written(BaseModel):
    """What a write recorded: the league's version after it (its new ETag)."""

    league: str | None
    version: int | None
    request_id: str


def receipt(call: Call, response: Response) -> dict[str, Any]:
    call.done(response)
    return {
        "league": call.league,
        "version": call.version() if call.league else None,
        "request_id": call.request_id,
    }


# --- the site ---------------------------------------------------------------------------------


class LeaguePoints(Body):
    """The league's own points and tie-breakers, as ``ledger league create --points --bonus
    --bonus-mode --tiebreakers`` take them: each part given replaces the ruleset's (as its
    options set it), a part left out keeps it."""

    win: int | None = Field(default=None, ge=-MAX_COUNT, le=MAX_COUNT)
    draw: int | None = Field(default=None, ge=-MAX_COUNT, le=MAX_COUNT)
    loss: int | None = Field(default=None, ge=-MAX_COUNT, le=MAX_COUNT)
    bonus: list[BonusPoint] | None = Field(default=None, max_length=8)
    bonus_mode: Literal["added", "tiebreak"] | None = None
    """Bonus points added to the points, or used as the first tie-breaker."""
    tiebreakers: list[Tiebreaker] | None = Field(default=None, max_length=16)
    """In order."""

    def over(self, ruleset: Ruleset) -> PointsScheme:
        given = self.model_dump(exclude_none=True)
        return PointsScheme.model_validate(ruleset.points_scheme(None).model_dump() | given)


class NewLeague(Body):
    slug: str = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(min_length=1, max_length=120)
    ruleset: str = Short
    options: dict[str, Any] = {}
    points: LeaguePoints | None = None
    """Left out: the ruleset's points and tie-breakers."""
    reason: str | None = Field(default=None, max_length=2000)

    def scheme(self) -> PointsScheme | None:
        """The league's own scheme, over the ruleset's with these options (an unknown
        ruleset or a bad option is refused as ``create_league`` refuses it)."""
        return self.points.over(find_ruleset(self.ruleset, self.options)) if self.points else None


@router.post("/api/leagues", status_code=201, tags=["leagues"])
@needs("create_league")
def create_league(call: Calling, body: NewLeague) -> LeagueInfo:
    """Open a league (an admin): its ruleset, options and points are fixed in its first
    event."""
    row = call.write(
        lambda ledger, by: ledger.create_league(
            body.slug,
            body.name,
            body.ruleset,
            by=by,
            options=body.options,
            points=body.scheme(),
            reason=body.reason,
        )
    )
    return info(row)


class NewAccount(Body):
    account: str = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9._-]*$")
    name: str | None = Field(default=None, min_length=1, max_length=120)
    password: str | None = Field(default=None, min_length=8, max_length=1024)
    admin: bool = False
    token: bool = False
    """Also issue an API token, returned in this answer only."""


class AccountCreated(Written):
    account: str
    admin: bool
    token: str | None = None
    """The new API token, if asked for: shown here once, never again."""


@router.post("/api/accounts", status_code=201, tags=["accounts"])
@needs("manage_accounts")
def create_account(call: Calling, body: NewAccount, response: Response) -> AccountCreated:
    """Add an account (an admin), with a password to sign in and/or a token for scripts."""
    if body.password is None and not body.token:  # as the accounts page refuses it
        raise InvalidInput(
            "give a password, or ask for a token (token: true): an account with neither"
            " could never sign in"
        )
    accounts = service_of(call.request).accounts

    def add(_: LeagueLedger, by: str) -> str | None:
        accounts.add(body.account, body.name, by=by, admin=body.admin, password=body.password)
        return accounts.issue_token(body.account) if body.token else None

    token = call.write(add)
    return AccountCreated(
        **receipt(call, response), account=body.account, admin=body.admin, token=token
    )


class AccountInfo(BaseModel):
    """An account as an admin sees it: never a password's or a token's hash."""

    account: str
    name: str
    admin: bool
    revoked: bool
    leagues: dict[str, dict[str, Any]]
    """Each league the account has a role in: its role and teams."""


@router.get("/api/accounts", tags=["accounts"])
@needs("manage_accounts")
def accounts_list(request: Request) -> list[AccountInfo]:
    """Every account of the site and its roles (an admin), as ``ledger account list``."""
    accounts = service_of(request).credentials
    return [
        AccountInfo(
            account=row.account,
            name=row.name,
            admin=row.admin,
            revoked=row.revoked,
            leagues={
                slug: {"role": m.role, "teams": list(m.teams)}
                for slug, m in accounts.memberships(row.account).items()
            },
        )
        for row in sorted(accounts.all(), key=lambda r: r.account)
    ]


# --- a league's members ---------------------------------------------------------------------


class Grant(Body):
    account: str = Short
    role: Literal["commissioner", "coach"]
    teams: list[Given] = Field(default=[], max_length=32)
    reason: str | None = Field(default=None, max_length=2000)


@router.post("/api/leagues/{league}/members", status_code=201, tags=["accounts"])
@needs("grant")
def grant(call: Calling, league: str, body: Grant, response: Response) -> Written:
    """Make an account the league's commissioner, or the coach of some of its teams."""
    accounts = service_of(call.request).accounts
    call.write(
        lambda _, by: accounts.grant(
            league, body.account, body.role, body.teams, by=by, reason=body.reason
        )
    )
    return Written(**receipt(call, response))


@router.delete("/api/leagues/{league}/members/{account}", tags=["accounts"])
@needs("grant")
def remove_member(
    call: Calling,
    league: str,
    account: str,
    response: Response,
    reason: Annotated[str | None, Query(max_length=2000)] = None,
) -> Written:
    """The account no longer has a role in the league (a coach who left it); it still signs
    in, and keeps its roles elsewhere. 422 for an account with no role here; 409 for the
    league's only commissioner."""
    accounts = service_of(call.request).accounts
    call.write(lambda _, by: accounts.remove(league, account[:64], by=by, reason=reason))
    return Written(**receipt(call, response))


class Visibility(Body):
    public: bool
    reason: str | None = Field(default=None, max_length=2000)


@router.post("/api/leagues/{league}/visibility", status_code=201, tags=["leagues"])
@needs("visibility")
def visibility(call: Calling, league: str, body: Visibility, response: Response) -> Written:
    """Let anyone read the league (``public``), or only its members (the default)."""
    accounts = service_of(call.request).accounts
    call.write(
        lambda _, by: accounts.set_visibility(league, body.public, by=by, reason=body.reason)
    )
    return Written(**receipt(call, response))


class AdvancementDice(Body):
    by_ledger: bool
    """The ledger rolls every advancement's dice, dice typed in refused; ``false``: dice
    rolled at the table are taken too (the default)."""
    reason: str | None = Field(default=None, max_length=2000)


@router.post("/api/leagues/{league}/advancement-dice", status_code=201, tags=["leagues"])
@needs("advancement_dice")
def advancement_dice(
    call: Calling, league: str, body: AdvancementDice, response: Response
) -> Written:
    """Who rolls the league's advancements (``ledger league advancement-dice``)."""
    call.write(
        lambda ledger, by: ledger.handle(
            SetAdvancementDice(league, body.by_ledger), by=by, reason=body.reason
        )
    )
    return Written(**receipt(call, response))


# --- a team's owner -------------------------------------------------------------------------


class Hire(Body):
    """What ``ledger team hire`` takes: a position of the team's list, of an allied list
    (``from_list``) or, with ``star``, a star player's id, where the edition lets one join."""

    position: str = Short
    name: str = Field(min_length=1, max_length=120)
    number: int | None = Field(default=None, ge=1, le=99)
    star: bool = False
    """``position`` is a star player's id, hired for good (ZAL, 3rd edition)."""
    from_list: str | None = Field(default=None, min_length=1, max_length=64)
    """The allied team list the position comes from (4th edition allies)."""
    equipment: list[Annotated[str, Short]] = Field(default=[], max_length=8)
    """Bought with the player, e.g. a 4th edition secret weapon."""

    def command(self, league: str, team: str) -> HirePlayer:
        return HirePlayer(
            league,
            team,
            self.position,
            self.name,
            number=self.number,
            star=self.position if self.star else None,
            from_list=self.from_list,
            equipment=tuple(self.equipment),
        )


class Hired(Written):
    player: str


@router.post("/api/leagues/{league}/teams/{team}/players", status_code=201, tags=["teams"])
@needs("hire")
def hire(call: Calling, league: str, team: str, body: Hire, response: Response) -> Hired:
    """Hire a player for the team (its coach, or the commissioner), paid from its treasury."""
    player = call.write(lambda ledger, by: ledger.handle(body.command(league, team), by=by))
    return Hired(**receipt(call, response), player=player)


class Purchase(Body):
    item: str = Short
    count: int = Field(default=1, ge=1, le=MOST_BOUGHT)


@router.post("/api/leagues/{league}/teams/{team}/purchases", status_code=201, tags=["teams"])
@needs("buy")
def buy(call: Calling, league: str, team: str, body: Purchase, response: Response) -> Written:
    """Buy re-rolls, staff or fans for the team from its treasury."""
    call.write(lambda ledger, by: ledger.handle(Buy(league, team, body.item, body.count), by=by))
    return Written(**receipt(call, response))


# --- the commissioner's desk ----------------------------------------------------------------


class Correction(Body):
    event: int = Field(ge=1, le=LAST_EVENT)
    """The event's number in the league's log (its ``seq``)."""
    action: Literal["void", "amend"]
    reason: str = Words
    amendment: dict[str, Any] = {}
    """For ``amend``: the fields to change and their new values."""


@router.post("/api/leagues/{league}/corrections", status_code=201, tags=["audit"])
@needs("correct")
def correct(call: Calling, league: str, body: Correction, response: Response) -> Written:
    """Void or amend an event, with a reason: a compensating event, never an edit."""
    call.write(
        lambda ledger, by: ledger.handle(
            Correct(league, body.event, body.action, amendment=body.amendment),
            by=by,
            reason=body.reason,
        )
    )
    return Written(**receipt(call, response))


class Adjustment(Body):
    team: str = Short
    amount: int = Field(ge=-(10**8), le=10**8)
    """Gold added (negative: taken) outside the rules' own movements."""
    reason: str = Words


@router.post("/api/leagues/{league}/treasury-adjustments", status_code=201, tags=["teams"])
@needs("adjust_treasury")
def adjust_treasury(call: Calling, league: str, body: Adjustment, response: Response) -> Written:
    """Add gold to a team's treasury, or take some, with the reason (the commissioner)."""
    call.write(
        lambda ledger, by: ledger.handle(
            AdjustTreasury(league, body.team, body.amount), by=by, reason=body.reason
        )
    )
    return Written(**receipt(call, response))
