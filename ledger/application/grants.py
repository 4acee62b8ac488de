"""Who belongs to a league and who may read it: commands on the league's own log.

A grant is a fact like any other (DESIGN.md decision 8): ``GrantMember`` makes an account
the league's commissioner or the coach of some of its teams, ``RemoveMember`` takes that
role away (a coach who left the league), ``SetVisibility`` opens the league to anyone or
closes it to its members. That the account exists is the site's log's
business, checked by ``Accounts.grant`` before it asks (ledger/application/accounts.py).
"""

from __future__ import annotations

from ledger.application.commands import (
    GrantMember,
    RemoveMember,
    SetAdvancementDice,
    SetVisibility,
)
from ledger.application.context import Context, Drafts
from ledger.domain import events as ev
from ledger.domain.state import MemberRow
from ledger.errors import InvalidInput, LedgerError, NotAllowed


def plan_grant(c: Context, command: GrantMember) -> Drafts:
    role, teams = command.role, tuple(command.teams)
    if role == "coach" and not teams:
        raise InvalidInput("a coach needs at least one team")
    if role == "commissioner" and teams:
        raise InvalidInput("a commissioner acts for every team: name no team")
    for team in teams:
        c.team(team)  # an unknown team is refused with the teams there are
    if role == "coach":
        keeps_a_commissioner(c, command.account, "make them a coach")
    return [ev.MemberGranted(member=command.account, role=role, teams=teams)]


def plan_removal(c: Context, command: RemoveMember) -> Drafts:
    """The member's role ends. The league keeps a commissioner (an admin may act in any
    league, but a league is run day to day by its own)."""
    account = command.account
    row = c.view.get(MemberRow, c.league_id, account)
    if row is None or not row.active:
        raise InvalidInput(f"account '{account}' has no role in league {c.league.slug}")
    keeps_a_commissioner(c, account, "remove them")
    return [ev.MemberRemoved(member=account)]


def keeps_a_commissioner(c: Context, account: str, change: str) -> None:
    """Refuse to take the commissioner's role from the league's only commissioner."""
    members = c.view.select(MemberRow, league_id=c.league_id, active=True)
    commissioners = {m.account for m in members if m.role == "commissioner"}
    if commissioners == {account}:
        raise NotAllowed(
            f"{account} is league {c.league.slug}'s only commissioner: make another"
            f" account its commissioner before you {change}"
        )


def plan_advancement_dice(c: Context, command: SetAdvancementDice) -> Drafts:
    if c.league.advancements_by_ledger == command.by_ledger:
        shown = (
            "are already rolled by the ledger only"
            if command.by_ledger
            else "already take dice rolled at the table as well as the ledger's"
        )
        raise LedgerError(f"league {c.league.slug}'s advancements {shown}")
    return [ev.AdvancementDiceSet(by_ledger=command.by_ledger)]


def plan_visibility(c: Context, command: SetVisibility) -> Drafts:
    if c.league.public == command.public:
        shown = "public" if command.public else "read by its members only"
        raise LedgerError(f"league {c.league.slug} is already {shown}")
    return [ev.LeagueVisibilitySet(public=command.public)]
