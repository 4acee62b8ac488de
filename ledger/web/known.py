"""Who a token or an account is, and what a league's row says, kept while the logs that
fix them stand still.

Every guarded request asks who sends it and reads its league's row (to authorize it and
for the ``ETag``). Both are folds of event logs: an account, its admin flag and its
revocation come from the site's log; its role and teams in a league from that league's
log (``MemberGranted``, ``MemberRemoved``); a league's row from its log. So they are kept
in memory beside the *stamp* they were read at: the number of leagues, the sum of their
versions, the sum of their members' versions (``LeagueRow.members_version``, the number of
a league's latest grant, removal or correction) and the site's version, read in one query
per request. A league's row is read afresh once any event of any log has moved the stamp
(a version only grows); a caller only once a league, a grant, a removal, a correction or
an event of the site's log has moved the part of it a caller depends on (``callers``), so
the reads after a match is recorded do not ask again who each caller is
(docs/performance-journal.md, fortieth session).

Revoking an account is an event of the site's log, so its tokens are refused from the
next request on, in every worker. A token that was never valid is not kept (each try reads
the store, as before). Browser sessions are still looked up on every request: signing out
deletes a session without an event, and another worker must see it at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ledger.application.access import Principal
from ledger.application.accounts import Accounts, digest
from ledger.domain.log import league_id
from ledger.domain.state import LeagueRow, SiteRow
from ledger.projections.sql import SqlStore, read_connection, table_of

Stamp = tuple[Any, ...]
T = TypeVar("T")

MAX_KEPT = 10_000
"""Entries of one kind kept at most; past it they are all dropped (a flood of made-up
league names must not grow the process without bound)."""


def stamp_query() -> sa.Select[Any]:
    leagues, site = table_of(LeagueRow), table_of(SiteRow)
    return sa.select(
        sa.select(sa.func.count()).select_from(leagues).scalar_subquery(),
        sa.select(sa.func.coalesce(sa.func.sum(leagues.c.version), 0)).scalar_subquery(),
        sa.select(sa.func.coalesce(sa.func.sum(leagues.c.members_version), 0)).scalar_subquery(),
        sa.select(sa.func.coalesce(sa.func.max(site.c.version), 0)).scalar_subquery(),
    )


def callers(stamp: Stamp) -> Stamp:
    """The part of ``stamp`` that who a caller is depends on: the number of leagues (a
    membership names its league), their members' versions and the site's version."""
    leagues, _, members, site = stamp
    return (leagues, members, site)


class Known:
    """What one worker process keeps between requests, each entry with its stamp."""

    def __init__(self, engine: Engine, credentials: Accounts) -> None:
        self.engine = engine
        self.credentials = credentials
        self.query = stamp_query()
        self.kept: dict[tuple[str, str], tuple[Stamp, Any]] = {}
        self.lock = threading.Lock()

    def stamp(self) -> Stamp:
        with read_connection(self.engine) as conn:
            return tuple(conn.execute(self.query).one())

    def by_token(self, token: str, stamp: Stamp) -> Principal:
        """The account a bearer token signs in (``Unauthenticated`` when it does not);
        keyed by the token's digest, never the token."""
        return self.keep(
            ("token", digest(token)), callers(stamp), lambda: self.credentials.by_token(token)
        )

    def principal(self, account: str, stamp: Stamp) -> Principal:
        return self.keep(
            ("account", account), callers(stamp), lambda: self.credentials.principal(account)
        )

    def league_row(self, slug: str, stamp: Stamp) -> LeagueRow | None:
        return self.keep(
            ("league", slug),
            stamp,
            lambda: SqlStore(self.engine).get(LeagueRow, str(league_id(slug))),
        )

    def keep(self, key: tuple[str, str], stamp: Stamp, read: Callable[[], T]) -> T:
        with self.lock:
            found = self.kept.get(key)
        if found is not None and found[0] == stamp:
            value: T = found[1]
            return value
        value = read()  # raises for a token or account that does not hold: nothing kept
        with self.lock:
            if len(self.kept) >= MAX_KEPT:
                self.kept.clear()
            self.kept[key] = (stamp, value)
        return value
