"""An admin managing an existing account over the API, as ``ledger account password``,
``revoke`` (of the account, or of one token) and ``token`` do: each a write in the
site's log (but a token issued, which is a secret and no event) by the acting admin,
refused to anyone else before the body is read.

What is done to the account is done to another's: an admin changes their own password at
``/account/password`` (which asks for the current one: a session left open is not the
password) and cannot revoke the account they act as (``ledger account revoke`` can, from
the shell). The page (``pages_account``) calls the same functions.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response
from pydantic import Field

from ledger.application.accounts import MAX_PASSWORD, MIN_PASSWORD
from ledger.errors import NotAllowed
from ledger.web.api_writes import Body, Written, receipt
from ledger.web.auth import service_of
from ledger.web.guard import Call, Calling, Guarded, needs
from ledger.web.problems import PROBLEMS

router = APIRouter(route_class=Guarded, responses=PROBLEMS)

AccountName = Annotated[str, Path(min_length=1, max_length=64)]


def on_another(call: Call, account: str, doing: str, instead: str) -> None:
    """Refuse the admin's own account (``doing`` it would skip what ``instead`` asks)."""
    if account == call.principal.account:
        raise NotAllowed(f"{account} is the account you act as: {doing} {instead}")


def set_password(call: Call, account: str, password: str, reason: str | None) -> int:
    """Set the account's password and end its browser sessions: how many ended."""
    on_another(call, account, "change your password", "on your Password page")
    service = service_of(call.request)
    call.write(
        lambda _, by: service.accounts.reset_password(account, password, by=by, reason=reason)
    )
    return service.sessions.end_others(account, keep=None)


def revoking_another(call: Call, account: str) -> None:
    on_another(call, account, "revoke it", "from the shell (ledger account revoke)")


def revoke(call: Call, account: str, reason: str | None) -> None:
    """The account no longer signs in; its tokens and browser sessions stop working."""
    revoking_another(call, account)
    service = service_of(call.request)
    call.write(lambda _, by: service.accounts.revoke(account, by=by, reason=reason))
    service.sessions.end_others(account, keep=None)


def revoke_token(call: Call, account: str, token: str, reason: str | None) -> None:
    """One API token of the account stops working; its other tokens and password stay."""
    accounts = service_of(call.request).accounts
    call.write(lambda _, by: accounts.revoke_token(account, token, by=by, reason=reason))


def issue_token(call: Call, account: str) -> str:
    """A new API token for the account, to be shown once (only its digest is kept)."""
    return call.write(lambda _, __: service_of(call.request).accounts.issue_token(account))


class NewPassword(Body):
    password: str = Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)
    reason: str | None = Field(default=None, max_length=2000)


class PasswordSet(Written):
    account: str
    sessions_ended: int
    """The account's browser sessions signed out (its API tokens keep working)."""


@router.post("/api/accounts/{account}/password", tags=["accounts"])
@needs("manage_accounts")
def password(
    call: Calling, account: AccountName, body: NewPassword, response: Response
) -> PasswordSet:
    """Set another account's password (its owner forgot it): recorded in the site's log
    (never the password), and the account's browser sessions end. 404 for no such
    account; 409 for a revoked one or the admin's own."""
    ended = set_password(call, account, body.password, body.reason)
    return PasswordSet(**receipt(call, response), account=account, sessions_ended=ended)


class Why(Body):
    reason: str | None = Field(default=None, max_length=2000)


@router.post("/api/accounts/{account}/revocation", tags=["accounts"])
@needs("manage_accounts")
def revocation(call: Calling, account: AccountName, body: Why, response: Response) -> Written:
    """The account can no longer sign in; its API tokens and browser sessions stop working
    at once (its past events keep its name). 409 when already revoked, or the admin's own."""
    revoke(call, account, body.reason)
    return Written(**receipt(call, response))


class TokenIssued(Written):
    account: str
    token: str | None
    """Shown in this answer only (only its digest is kept): a retry with the same
    ``Idempotency-Key`` replays null."""


@router.post("/api/accounts/{account}/tokens", status_code=201, tags=["accounts"])
@needs("manage_accounts")
def tokens(call: Calling, account: AccountName, response: Response) -> TokenIssued:
    """Issue another API token for the account (for a script; one lost). 409 for a
    revoked account."""
    token = issue_token(call, account)
    return TokenIssued(**receipt(call, response), account=account, token=token)


TokenId = Annotated[str, Path(min_length=1, max_length=16)]


@router.delete("/api/accounts/{account}/tokens/{token}", tags=["accounts"])
@needs("manage_accounts")
def token_revocation(
    call: Calling,
    account: AccountName,
    token: TokenId,
    response: Response,
    reason: Annotated[str | None, Query(max_length=2000)] = None,
) -> Written:
    """One API token of the account stops working (its id: the part after ``bbl_``); the
    account and its other tokens stay. 404 for no such working token."""
    revoke_token(call, account, token, reason)
    return Written(**receipt(call, response))
