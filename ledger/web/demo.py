"""The demo league's accounts (``ledger demo --serve``, and the service's tests): an admin,
the commissioner, and one coach per team, named after the team's coach.

They are added through the same ``Accounts`` commands as ``ledger account add``, in one
unit: every account and grant is recorded, or none.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from argon2 import PasswordHasher

from ledger.application.accounts import Accounts
from ledger.application.service import LeagueLedger
from ledger.domain.log import league_id
from ledger.domain.state import TeamRow


@dataclass(frozen=True)
class DemoAccount:
    account: str
    name: str
    role: str
    team: str | None
    password: str


def random_password(_: str) -> str:
    return secrets.token_urlsafe(9)


def demo_accounts(
    ledger: LeagueLedger,
    slug: str,
    *,
    hasher: PasswordHasher | None = None,
    password: Callable[[str], str] = random_password,
    by: str = "demo",
) -> list[DemoAccount]:
    """Add the demo's accounts to league ``slug``; their passwords are returned once."""
    teams = sorted(
        ledger.view().select(TeamRow, league_id=str(league_id(slug))), key=lambda t: t.team_id
    )
    wanted = [
        DemoAccount("admin", "Site Admin", "admin", None, password("admin")),
        DemoAccount(
            "commissioner", "The Commissioner", "commissioner", None, password("commissioner")
        ),
        *(
            DemoAccount(handle(t.coach), t.coach, "coach", t.team_id, password(handle(t.coach)))
            for t in teams
        ),
    ]
    accounts = Accounts(ledger, hasher)
    with ledger.atomic():
        for one in wanted:
            accounts.add(
                one.account, one.name, by=by, admin=one.role == "admin", password=one.password
            )
            if one.role == "commissioner":
                accounts.grant(slug, one.account, "commissioner", by=by)
            elif one.team is not None:
                accounts.grant(slug, one.account, "coach", [one.team], by=by)
    return wanted


def handle(name: str) -> str:
    """An account id from a coach's name: ``Jay`` -> ``jay``."""
    return re.sub(r"[^a-z0-9._-]+", "-", name.lower()).strip("-") or "coach"
