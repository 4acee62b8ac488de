"""Registering a team for a coach's account (the service's ``POST .../teams`` and its form).

``ledger team register`` records a coach by name: on the command line the coach is a word
in the books. Over the service the coach is an account, which must then be able to act
for the team it was given: the team is registered under the account's name and the account
is made the coach of it, beside the teams it coaches already (``MemberGranted`` replaces
an earlier grant), both in one unit or neither. The league's commissioner acts for every
team already, so coaching one changes nothing of their role.

Worked example: ``register_for(accounts, "demo", "orcs", "Da Orcs", "orc", "dan", by="Sue")``
records ``TeamRegistered(team="orcs", coach="Dan", ...)`` and ``MemberGranted(member="dan",
role="coach", teams=("gouged-eye", "orcs"))``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.application.accounts import Accounts
from ledger.application.commands import RegisterTeam
from ledger.domain.state import AccountRow, LeagueRow, MemberRow
from ledger.errors import NotAllowed
from ledger.projections.members import SITE
from ledger.projections.store import Store


def register_for(
    accounts: Accounts,
    league: str,
    team: str,
    name: str,
    roster: str,
    coach: str,
    *,
    treasury: int | None = None,
    by: str,
    reason: str | None = None,
) -> None:
    """Register ``team`` coached by the account ``coach``, and let that account act for it."""
    ledger = accounts.ledger
    with ledger.atomic():
        row = accounts.row(coach)  # an unknown account is refused first: its name is needed
        if row.revoked:
            raise NotAllowed(f"account '{coach}' is revoked: it cannot coach a team")
        ledger.handle(
            RegisterTeam(league, team, name, row.name, roster, treasury=treasury),
            by=by,
            reason=reason,
        )
        member = accounts.memberships(coach).get(league)
        if member is None or member.role == "coach":
            teams = (*member.teams, team) if member else (team,)
            accounts.grant(league, coach, "coach", teams, by=by, reason=reason)


@dataclass(frozen=True)
class Member:
    """An account with a role in a league (its members' page; a team's coach to be)."""

    account: str
    name: str
    role: str
    teams: tuple[str, ...]
    revoked: bool


def league_members(view: Store, league: LeagueRow) -> list[Member]:
    """The accounts with a role in the league, by account."""
    found = []
    for member in view.select(MemberRow, league_id=league.league_id, active=True):
        row = view.get(AccountRow, SITE, member.account)
        name, revoked = (row.name, row.revoked) if row else (member.account, False)
        found.append(Member(member.account, name, member.role, tuple(member.teams), revoked))
    return sorted(found, key=lambda m: m.account)


def league_coaches(view: Store, league: LeagueRow) -> list[Member]:
    """The league's members who may coach a new team (its coaches, and its commissioner),
    by name; a revoked account is left out."""
    coaches = [m for m in league_members(view, league) if not m.revoked]
    return sorted(coaches, key=lambda c: (c.name.casefold(), c.account))
