"""Who belongs to a league and who may read it: commands on the league's own log.

A grant is a fact like any other (DESIGN.md decision 8): ``GrantMember`` makes an account
the league's commissioner or the coach of some of its teams, ``SetVisibility`` opens the
league to anyone or closes it to its members. That the account exists is the site's log's
business, checked by ``Accounts.grant`` before it asks (ledger/application/accounts.py).
"""

from __future__ import annotations

from ledger.application.commands import GrantMember, SetVisibility
from ledger.application.context import Context, Drafts
from ledger.domain import events as ev
from ledger.errors import InvalidInput, LedgerError


def plan_grant(c: Context, command: GrantMember) -> Drafts:
    role, teams = command.role, tuple(command.teams)
    if role == "coach" and not teams:
        raise InvalidInput("a coach needs at least one team")
    if role == "commissioner" and teams:
        raise InvalidInput("a commissioner acts for every team: name no team")
    for team in teams:
        c.team(team)  # an unknown team is refused with the teams there are
    return [ev.MemberGranted(member=command.account, role=role, teams=teams)]


def plan_visibility(c: Context, command: SetVisibility) -> Drafts:
    if c.league.public == command.public:
        shown = "public" if command.public else "read by its members only"
        raise LedgerError(f"league {c.league.slug} is already {shown}")
    return [ev.LeagueVisibilitySet(public=command.public)]
