"""Accounts: who exists (the site's log), what they may do in a league (the league's log),
and how they prove it (secrets kept outside every log).

Grants are events, so the audit trail says who granted what and when (DESIGN.md decision
8). Password hashes (argon2) and token digests live in ``ledger_secrets``, a table of
their own: never in the event log, an export, a read model or a response. A token is
random and long, so a SHA-256 digest of it is a safe lookup key and costs nothing per
request; a password is short and guessable, so it is hashed with argon2, which is slow on
purpose (about 0.13 s here) and is checked only at sign-in.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.engine import Engine

from ledger.application.access import Membership, Principal
from ledger.application.commands import GrantMember, RemoveMember, SetVisibility
from ledger.application.context import Drafts
from ledger.domain import events as ev
from ledger.domain.state import AccountRow, LeagueRow, MemberRow
from ledger.domain.values import ACCOUNT, MAX_ID, PATTERN_WORDS
from ledger.errors import (
    AccountExists,
    InvalidInput,
    LedgerError,
    NotAllowed,
    Unauthenticated,
    UnknownAccount,
    UnknownToken,
)
from ledger.projections.members import SITE
from ledger.projections.sql import read_connection
from ledger.projections.store import Store

if TYPE_CHECKING:
    from ledger.application.service import LeagueLedger

METADATA = sa.MetaData()

SECRETS = sa.Table(
    "ledger_secrets",
    METADATA,
    sa.Column("secret_id", sa.String(80), primary_key=True),
    sa.Column("account", sa.String(64), nullable=False, index=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("digest", sa.Text, nullable=False, unique=True),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("revoked_at", sa.String(40), nullable=True),
)
"""Password hashes and token digests: outside the event log, never exported."""

TOKEN_PREFIX = "bbl_"
MIN_PASSWORD = 8
MAX_PASSWORD = 1024


def create_secrets_table(engine: Engine) -> None:
    METADATA.create_all(engine, checkfirst=True)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    def __init__(
        self,
        ledger: LeagueLedger,
        hasher: PasswordHasher | None = None,
        reads: Callable[[], Store] | None = None,
    ) -> None:
        self.ledger = ledger
        self.reads = reads
        """Where accounts are read outside a command, when not from the ledger's view: the
        service's reader threads each take a fresh store, never a writer's unit of work."""
        self.engine = ledger.read_models.engine
        self.hasher = hasher or PasswordHasher()
        self.decoy = self.hasher.hash(secrets.token_urlsafe(16))
        """Checked against when an account does not exist, so that a wrong name costs as
        long as a wrong password and does not tell which accounts exist."""
        create_secrets_table(self.engine)

    # --- who exists --------------------------------------------------------------------------

    def add(
        self,
        account: str,
        name: str | None = None,
        *,
        by: str,
        admin: bool = False,
        password: str | None = None,
    ) -> None:
        """Add an account (and make it an admin), in one append to the site's log."""
        check_account_name(account)
        if password is not None:
            check_password(password)

        def plan(view: Store) -> Drafts:
            if view.get(AccountRow, SITE, account) is not None:
                raise AccountExists(f"an account '{account}' already exists")
            added = ev.AccountAdded(login=account, name=name or account)
            return [added, ev.AdminGranted(login=account)] if admin else [added]

        self.ledger.run_site(plan, by=by)
        if password is not None:
            self.set_password(account, password)

    def revoke(self, account: str, *, by: str, reason: str | None = None) -> None:
        """The account can no longer sign in; its tokens stop working at once."""

        def plan(view: Store) -> Drafts:
            row = self.row(account, view)
            if row.revoked:
                raise NotAllowed(f"account '{account}' is already revoked")
            return [ev.AccountRevoked(login=account)]

        self.ledger.run_site(plan, by=by, reason=reason)
        with self.engine.begin() as conn:
            conn.execute(
                SECRETS.update()
                .where(SECRETS.c.account == account, SECRETS.c.revoked_at.is_(None))
                .values(revoked_at=now())
            )

    def reset_password(
        self, account: str, password: str, *, by: str, reason: str | None = None
    ) -> None:
        """Set another account's password (its owner forgot it, say): a ``PasswordSet``
        in the site's log says who did, the hash replaces the old one. The caller ends
        the account's browser sessions (``Sessions.end_others``): whoever held the old
        password is out."""
        check_password(password)  # before anything is written

        def plan(view: Store) -> Drafts:
            if self.row(account, view).revoked:
                raise NotAllowed(f"account '{account}' is revoked: it cannot sign in")
            return [ev.PasswordSet(login=account)]

        self.ledger.run_site(plan, by=by, reason=reason)
        self.set_password(account, password)

    def revoke_token(self, account: str, token: str, *, by: str, reason: str | None = None) -> None:
        """One API token of the account stops working, in every worker from the next
        request on (``TokenRevoked`` moves the site's log, which the callers kept are
        read again at); its other tokens and its password stay."""

        def plan(view: Store) -> Drafts:
            self.row(account, view)
            if token not in {t for t, _, revoked in self.tokens(account) if revoked is None}:
                raise UnknownToken(f"account '{account}' has no working token '{token[:16]}'")
            return [ev.TokenRevoked(login=account, token=token)]

        self.ledger.run_site(plan, by=by, reason=reason)
        with self.engine.begin() as conn:
            conn.execute(
                SECRETS.update()
                .where(SECRETS.c.secret_id == f"token:{token}", SECRETS.c.revoked_at.is_(None))
                .values(revoked_at=now())
            )

    def grant(
        self,
        league: str,
        account: str,
        role: Literal["commissioner", "coach"],
        teams: Sequence[str] = (),
        *,
        by: str,
        reason: str | None = None,
    ) -> None:
        """Make the account the league's commissioner or the coach of ``teams`` (an event
        in the league's own log). A revoked account, which cannot sign in, holds none."""
        if self.row(account).revoked:
            raise NotAllowed(f"account '{account}' is revoked: it can hold no role")
        self.ledger.handle(GrantMember(league, account, role, tuple(teams)), by=by, reason=reason)

    def remove(self, league: str, account: str, *, by: str, reason: str | None = None) -> None:
        """The account no longer has a role in the league (an event in the league's own
        log); it still signs in, and keeps its roles elsewhere."""
        self.ledger.handle(RemoveMember(league, account), by=by, reason=reason)

    def set_visibility(
        self, league: str, public: bool, *, by: str, reason: str | None = None
    ) -> None:
        """Let anyone read the league (public) or only its members (the default)."""
        self.ledger.handle(SetVisibility(league, public), by=by, reason=reason)

    def make_admin(self, account: str, *, by: str) -> None:
        def plan(view: Store) -> Drafts:
            if self.row(account, view).admin:
                raise LedgerError(f"account '{account}' is already an admin")
            return [ev.AdminGranted(login=account)]

        self.ledger.run_site(plan, by=by)

    def view(self) -> Store:
        """The accounts as they stand, with what the current unit of work has done."""
        if self.reads is not None:
            return self.reads()
        unit = self.ledger.unit
        return unit.store if unit is not None else self.ledger.view()

    def exists(self, account: str) -> bool:
        return self.view().get(AccountRow, SITE, account) is not None

    def row(self, account: str, view: Store | None = None) -> AccountRow:
        found = (view or self.view()).get(AccountRow, SITE, account)
        if found is None:
            raise UnknownAccount(f"no account '{account}' in this ledger")
        return found

    def all(self) -> list[AccountRow]:
        return list(self.view().select(AccountRow, league_id=SITE))

    def memberships(self, account: str) -> dict[str, Membership]:
        view = self.view()
        found: dict[str, Membership] = {}
        for row in view.select(MemberRow, account=account, active=True):
            league = view.get(LeagueRow, row.league_id)
            if league is not None:
                found[league.slug] = Membership(role=row.role, teams=tuple(row.teams))
        return found

    def principal(self, account: str) -> Principal:
        row = self.row(account)
        if row.revoked:
            raise Unauthenticated(f"account '{account}' has been revoked")
        return Principal(
            account=row.account,
            name=row.name,
            admin=row.admin,
            leagues=self.memberships(account),
        )

    # --- secrets -------------------------------------------------------------------------

    def set_password(self, account: str, password: str) -> None:
        check_password(password)
        self.row(account)
        hashed = self.hasher.hash(password)
        with self.engine.begin() as conn:
            conn.execute(SECRETS.delete().where(SECRETS.c.secret_id == f"password:{account}"))
            conn.execute(
                SECRETS.insert().values(
                    secret_id=f"password:{account}",
                    account=account,
                    kind="password",
                    digest=hashed,
                    created_at=now(),
                )
            )

    def has_password(self, account: str) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(SECRETS.c.secret_id).where(
                    SECRETS.c.secret_id == f"password:{account}",
                    SECRETS.c.revoked_at.is_(None),
                )
            ).first()
        return found is not None

    def issue_token(self, account: str) -> str:
        """A new API token for the account, returned once: only its digest is kept."""
        if self.row(account).revoked:
            raise NotAllowed(f"account '{account}' is revoked: it can have no token")
        token_id = secrets.token_hex(4)
        token = f"{TOKEN_PREFIX}{token_id}_{secrets.token_urlsafe(32)}"
        with self.engine.begin() as conn:
            conn.execute(
                SECRETS.insert().values(
                    secret_id=f"token:{token_id}",
                    account=account,
                    kind="token",
                    digest=digest(token),
                    created_at=now(),
                )
            )
        return token

    def tokens(self, account: str) -> Iterator[tuple[str, str, str | None]]:
        """(token id, created, revoked) of each token the account was given."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(SECRETS.c.secret_id, SECRETS.c.created_at, SECRETS.c.revoked_at)
                .where(SECRETS.c.account == account, SECRETS.c.kind == "token")
                .order_by(SECRETS.c.created_at)
            ).all()
        for secret_id, created, revoked in rows:
            yield secret_id.removeprefix("token:"), created, revoked

    def sign_in(self, account: str, password: str) -> Principal:
        """The account, if the password is its own; the same refusal and the same cost
        for an unknown account, a wrong password or a revoked account."""
        with self.engine.connect() as conn:
            hashed = conn.execute(
                sa.select(SECRETS.c.digest).where(
                    SECRETS.c.secret_id == f"password:{account}",
                    SECRETS.c.revoked_at.is_(None),
                )
            ).scalar()
        try:
            self.hasher.verify(hashed or self.decoy, password[:MAX_PASSWORD])
        except (VerificationError, InvalidHashError):
            raise Unauthenticated("wrong account name or password") from None
        if hashed is None:
            raise Unauthenticated("wrong account name or password")
        return self.principal(account)

    def by_token(self, token: str) -> Principal:
        if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
            raise Unauthenticated("that is not a ledger API token")
        wanted = digest(token)
        with read_connection(self.engine) as conn:
            found = conn.execute(
                sa.select(SECRETS.c.account, SECRETS.c.digest).where(
                    SECRETS.c.digest == wanted, SECRETS.c.revoked_at.is_(None)
                )
            ).first()
        if found is None or not hmac.compare_digest(found.digest, wanted):
            raise Unauthenticated("the token is unknown or was revoked")
        return self.principal(found.account)


def check_account_name(account: str) -> None:
    """The name an account signs in with, said as such (not as the event's ``login``)."""
    if len(account) > MAX_ID or not re.fullmatch(ACCOUNT, account):
        raise InvalidInput(
            f"an account's name {PATTERN_WORDS[ACCOUNT]} (at most {MAX_ID} characters),"
            f" not '{account[:MAX_ID]}'"
        )


def check_password(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InvalidInput(
            f"a password needs {MIN_PASSWORD} to {MAX_PASSWORD} characters"
            f" (this one has {len(password)})"
        )
