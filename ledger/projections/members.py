"""Who may act: a league's grants (its own log) and the site's accounts (the site's log).

A league's grants fold like its other events, with the league's ruleset unused; the
site's log has no ruleset at all, so ``SiteFold`` folds it on its own, into the same
store and the same catch-up, rebuild and fault handling as a league.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ledger.domain import events as ev
from ledger.domain.log import SITE_ID
from ledger.domain.state import AccountRow, FaultLine, MemberRow, SiteRow
from ledger.domain.unreadable import UnreadableEvent
from ledger.projections.store import Store

SITE = str(SITE_ID)


def member_granted(f: Any, e: ev.MemberGranted) -> None:
    f.store.put(
        MemberRow.build(
            league_id=f.league_id,
            account=e.member,
            role=e.role,
            teams=tuple(e.teams),
            granted_seq=e.seq,
        )
    )
    f.store.change(f.league(), members_version=e.seq)


def member_removed(f: Any, e: ev.MemberRemoved) -> None:
    row = f.store.get(MemberRow, f.league_id, e.member)
    if row is None:
        raise LookupError(f"account '{e.member}' has no role in this league")
    f.store.change(row, active=False, teams=())
    f.store.change(f.league(), members_version=e.seq)


def correction_made(f: Any, e: ev.EventCorrected) -> None:
    """A correction changes how the fold reads an earlier event, which may be a grant or
    a removal: it moves the members' version as they do. So that version only grows,
    which the service's stamp relies on: the refold after a voided grant would otherwise
    take it back to an earlier grant's number."""
    f.store.change(f.league(), members_version=e.seq)


def visibility_set(f: Any, e: ev.LeagueVisibilitySet) -> None:
    f.store.change(f.league(), public=e.public)


def advancement_dice_set(f: Any, e: ev.AdvancementDiceSet) -> None:
    f.store.change(f.league(), advancements_by_ledger=e.by_ledger)


MEMBER_APPLIERS: dict[type[ev.LedgerEvent], Callable[[Any, Any], None]] = {
    ev.MemberGranted: member_granted,
    ev.MemberRemoved: member_removed,
    ev.EventCorrected: correction_made,
    ev.LeagueVisibilitySet: visibility_set,
    ev.AdvancementDiceSet: advancement_dice_set,
}


@dataclass
class SiteFold:
    """Folds the site's log: accounts, admins and revocations."""

    store: Store
    faults: Mapping[int, str] = field(default_factory=dict)
    league_id: str = SITE

    def apply(self, event: ev.LedgerEvent, stored: bytes | None = None) -> None:
        """``stored``: unread here (the site's log keeps no history lines)."""
        problem = event.problem if isinstance(event, UnreadableEvent) else None
        if problem or event.seq in self.faults:
            topic = event.topic if isinstance(event, UnreadableEvent) else type(event).__name__
            self.store.emit(
                FaultLine.build(
                    league_id=SITE,
                    seq=event.seq,
                    topic=topic,
                    problem=problem or self.faults[event.seq],
                )
            )
        elif isinstance(event, ev.AccountAdded):
            self.store.put(
                AccountRow.build(
                    league_id=SITE, account=event.login, name=event.name, added_seq=event.seq
                )
            )
        elif isinstance(event, ev.AdminGranted | ev.AccountRevoked):
            self.change(event.login, event)
        elif isinstance(event, ev.PasswordSet | ev.TokenRevoked):
            self.account(event.login)  # changes no row: the hash is the secrets table's
        self.advance(event)

    def account(self, account: str) -> AccountRow:
        row = self.store.get(AccountRow, SITE, account)
        if row is None:
            raise LookupError(f"no account '{account}'")
        return row

    def change(self, account: str, event: ev.LedgerEvent) -> None:
        row = self.account(account)
        field = "admin" if isinstance(event, ev.AdminGranted) else "revoked"
        self.store.change(row, **{field: True})

    def advance(self, event: ev.LedgerEvent) -> None:
        self.store.put(SiteRow.build(league_id=SITE, version=event.seq, last_hash=event.hash))
