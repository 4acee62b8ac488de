"""``POST /api/leagues/{league}/teams``: ``ledger team register`` over the API.

The league's commissioner (or an admin) registers a team for a coach's account
(``registration.register_for``): the team under the account's name, and the account made
its coach. A coach may not register a team, not even their own: who plays in a league is
the commissioner's to decide, as every other step of running it (docs/service.md, "Accounts
and roles"). The answer is the new team as ``GET .../teams/{team}`` gives it, read in the
write's own unit (its figures as that write left them), with ``Location`` naming it.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import Field

from ledger.application.registration import register_for
from ledger.application.service import LeagueLedger
from ledger.domain.values import MAX_GOLD, MAX_ID, MAX_NAME, SLUG
from ledger.projections.queries import Queries, Roster
from ledger.rules import find_ruleset
from ledger.web.api_writes import Body, Short
from ledger.web.auth import service_of
from ledger.web.guard import Calling, Guarded, needs
from ledger.web.problems import PROBLEMS

router = APIRouter(route_class=Guarded, responses=PROBLEMS, tags=["teams"])

CREATED: dict[int | str, dict[str, Any]] = {
    201: {
        "description": "The team as registered (``GET .../teams/{team}``)",
        "headers": {
            "Location": {
                "description": "The new team: /api/leagues/{league}/teams/{team}",
                "schema": {"type": "string"},
            },
            "ETag": {
                "description": "The league's version this write left",
                "schema": {"type": "string"},
            },
        },
    }
}


class NewTeam(Body):
    """What ``ledger team register`` takes, the coach being an account of the site."""

    team: str = Field(min_length=1, max_length=MAX_ID, pattern=SLUG)
    """The team's id in the league: lower-case letters, digits and dashes."""
    name: str = Field(min_length=1, max_length=MAX_NAME)
    roster: str = Short
    """The team list, an id of the league's edition (``GET /api/rulesets``)."""
    coach: str = Short
    """The coach's account: the team is recorded under its name, and it becomes the
    team's coach (beside the teams it coaches already)."""
    treasury: int | None = Field(default=None, ge=-MAX_GOLD, le=MAX_GOLD)
    """The starting treasury; none: the edition's (a negative one is the command's to
    refuse, with its sentence)."""
    reason: str | None = Field(default=None, min_length=1, max_length=2000)


@router.post("/api/leagues/{league}/teams", status_code=201, responses=CREATED)
@needs("register_team")
def register(call: Calling, league: str, body: NewTeam, response: Response) -> Roster:
    """Register a team for a coach's account (the commissioner), as ``ledger team
    register``; the account is made the team's coach."""
    accounts = service_of(call.request).accounts

    def command(ledger: LeagueLedger, by: str) -> Roster:
        register_for(
            accounts,
            league,
            body.team,
            body.name,
            body.roster,
            body.coach,
            treasury=body.treasury,
            by=by,
            reason=body.reason,
        )
        row = ledger.league_row(league)
        ruleset = find_ruleset(row.ruleset, row.options)
        return Queries.over(ledger.view(), row, ruleset).roster(body.team)

    roster = call.write(command)
    call.done(response)
    response.headers["Location"] = f"/api/leagues/{league}/teams/{body.team}"
    return roster
