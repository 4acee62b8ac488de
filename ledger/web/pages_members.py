"""A league's members page: who has which role, granting one, and who may read the league.

``/leagues/{league}/members`` is the commissioner's (and an admin's): the guard refuses
anyone else (``grant``) before anything is read. It lists the accounts with a role in the
league (commissioner, or coach of which teams) and the teams no account coaches. Its
first form grants a role to an existing account, as ``POST /api/leagues/{league}/members``
and ``ledger account add --league``: ``Accounts.grant``, whose event replaces what the
account held in the league (a coach's teams are all the teams ticked), so a member's
*Change* link fills the form with what they hold, and its *Remove* button ends their role
(``removal``: a coach who left the league), as ``DELETE .../members/{account}`` and
``ledger account remove``. Its last form opens the league to anyone or closes it to its
members, as ``POST .../visibility`` (``visibility``).

A refusal (an unknown account, a coach with no team, a team the league does not have) is
the page again, as filled, with the command's sentence beside its field and the error's
status; done, the page again, as the log now says.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from ledger.application.access import Principal
from ledger.application.commands import SetAdvancementDice
from ledger.application.registration import Member, league_members
from ledger.application.service import LeagueLedger
from ledger.domain.state import MemberRow
from ledger.errors import LedgerError
from ledger.web import pages_reads as reads
from ledger.web.auth import service_of
from ledger.web.guard import Call, needs
from ledger.web.pages_forms import (
    Calling,
    Errors,
    FieldInvalid,
    errors_of,
    reason_of,
    required,
    see_other,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, page, who
from ledger.web.pages_whatif import text
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)

ROLES = ("coach", "commissioner")
GRANT_FIELDS = {
    "unknown-account": "account",
    "unknown-team": "teams",
    "invalid-input": "teams",  # a coach of no team, a commissioner named with teams
}


def members_of(league: reads.League) -> list[Member]:
    """The accounts with a role in the league: the commissioners first, then by account."""
    found = league_members(league.view, league.row)
    return sorted(found, key=lambda m: (m.role != "commissioner", m.account))


def members_form(
    request: Request,
    league: str,
    values: Mapping[str, Any],
    errors: Errors,
    status: int = 200,
    done: bool = False,
) -> HTMLResponse:
    found = reads.open_league(ledger_of(request), league)
    members = members_of(found)
    me = who(request)
    teams = sorted(found.queries.teams(), key=lambda t: t.name)
    coached = {team for m in members for team in m.teams}
    return page(
        request,
        "members.html.j2",
        status=status,
        title="Members",
        crumbs=reads.crumbs(found),
        league=found,
        members=members,
        teams=teams,
        names={t.team_id: t.name for t in teams},
        uncoached=[t for t in teams if t.team_id not in coached],
        known=known_accounts(request, me),
        done=reads.just_done(reads.newest_line(found) if done else None, me),
        values=values,
        errors=errors,
    )


def known_accounts(request: Request, me: Principal | None) -> list[str]:
    """The accounts to pick from: an admin's to see (a commissioner types the name, and
    learns nothing of the site's other accounts)."""
    if me is None or not me.admin:
        return []
    return sorted(row.account for row in service_of(request).accounts.all() if not row.revoked)


def prefilled(league: str, request: Request, account: str) -> dict[str, Any]:
    """The grant form for ``account``: what they hold in the league, to change."""
    found = reads.open_league(ledger_of(request), league)
    row = found.view.get(MemberRow, found.row.league_id, account) if account else None
    if row is None or not row.active:
        return {"account": account, "role": "coach", "teams": []}
    return {"account": account, "role": row.role, "teams": list(row.teams)}


@router.get("/leagues/{league}/members")
@needs("grant")
def members_page(
    request: Request, league: str, account: str = "", done: bool = False
) -> HTMLResponse:
    """The members page; ``done`` (where its forms land), saying what was recorded."""
    values = prefilled(league, request, account.strip()[:64])
    return members_form(request, league, values, {}, done=done)


@router.post("/leagues/{league}/members")
@needs("grant")
async def grant(request: Request, league: str, call: Calling) -> Response:
    form = await request.form()
    return await run_in_threadpool(granted, request, league, call, grant_values(form))


def grant_values(form: FormData) -> dict[str, Any]:
    return {
        **{key: text(form, key) for key in ("account", "role", "reason")},
        "teams": [v for v in form.getlist("teams") if isinstance(v, str)],
    }


def granted(request: Request, league: str, call: Call, values: Mapping[str, Any]) -> Response:
    """Grant the role; the page again, or the form as filled with the refusal."""
    accounts = service_of(request).accounts

    def command(_: LeagueLedger, by: str) -> None:
        account = required(values, "account", "name the account to give the role to")
        role = values.get("role")
        if role not in ROLES:
            raise FieldInvalid("role", "choose the role: commissioner or coach")
        reason = reason_of(values, "reason", "a reason")
        accounts.grant(league, account, role, values["teams"], by=by, reason=reason)

    try:
        call.write(command)
    except LedgerError as error:
        errors = errors_of(error, GRANT_FIELDS)
        return members_form(request, league, values, errors, status_of(error))
    return see_other(f"/leagues/{league}/members?done=1#members")


@router.post("/leagues/{league}/members/{account}/remove")
@needs("grant")
async def removal(request: Request, league: str, account: str, call: Calling) -> Response:
    values = await values_of(request)
    return await run_in_threadpool(removed, request, league, account[:64], call, values)


def removed(
    request: Request, league: str, account: str, call: Call, values: Mapping[str, str]
) -> Response:
    """End the member's role; the page again, or with the refusal beside the members (the
    league's only commissioner)."""
    accounts = service_of(call.request).accounts

    def command(_: LeagueLedger, by: str) -> None:
        reason = reason_of(values, "reason", "a reason")
        accounts.remove(league, account, by=by, reason=reason)

    try:
        call.write(command)
    except LedgerError as error:
        shown = {"account": "", "role": "coach", "teams": []}
        errors = errors_of(error, {}, default="members")
        return members_form(request, league, shown, errors, status_of(error))
    return see_other(f"/leagues/{league}/members?done=1#members")


@router.post("/leagues/{league}/visibility")
@needs("visibility")
async def visibility(request: Request, league: str, call: Calling) -> Response:
    values = await values_of(request)
    return await run_in_threadpool(made_visible, request, league, call, values)


def made_visible(request: Request, league: str, call: Call, values: Mapping[str, str]) -> Response:
    """Open the league to anyone or close it to its members, as the form's button says."""
    accounts = service_of(request).accounts

    def command(_: LeagueLedger, by: str) -> None:
        public = values.get("public")
        if public not in ("true", "false"):
            raise FieldInvalid("visibility", "choose who may read the league: anyone, or members")
        reason = reason_of(values, "visibility_reason", "a reason")
        accounts.set_visibility(league, public == "true", by=by, reason=reason)

    return setting_changed(request, league, call, values, "visibility", command)


@router.post("/leagues/{league}/advancement-dice")
@needs("advancement_dice")
async def advancement_dice(request: Request, league: str, call: Calling) -> Response:
    values = await values_of(request)
    return await run_in_threadpool(dice_set, request, league, call, values)


def dice_set(request: Request, league: str, call: Call, values: Mapping[str, str]) -> Response:
    """Have the ledger roll every advancement, or take dice rolled at the table too, as
    the form's button says (``ledger league advancement-dice``)."""

    def command(ledger: LeagueLedger, by: str) -> None:
        by_ledger = values.get("by_ledger")
        if by_ledger not in ("true", "false"):
            raise FieldInvalid("dice", "choose who rolls advancements: the ledger, or the table")
        reason = reason_of(values, "dice_reason", "a reason")
        ledger.handle(SetAdvancementDice(league, by_ledger == "true"), by=by, reason=reason)

    return setting_changed(request, league, call, values, "dice", command)


def setting_changed(
    request: Request,
    league: str,
    call: Call,
    values: Mapping[str, str],
    section: str,
    command: Callable[[LeagueLedger, str], None],
) -> Response:
    """A league setting changed: the members page again at its section, or, refused, with
    the sentence beside it and the reason as typed."""
    try:
        call.write(command)
    except LedgerError as error:
        shown = {"account": "", "role": "coach", "teams": [], **values}
        errors = errors_of(error, {}, default=section)
        return members_form(request, league, shown, errors, status_of(error))
    return see_other(f"/leagues/{league}/members?done=1#{section}")
