"""One account as the site admin manages it (``/admin/accounts/{account}``, linked from
the accounts list): its roles and its API tokens (ids and dates, never a secret), and
its forms, each what ``ledger account`` does from the shell and the API's twin
(``api_accounts``) does over HTTP:

- *Set a new password*, when its owner forgot theirs: typed twice, never shown again, not
  even on a refusal. The site's log records who set it (``PasswordSet``, no secret) and
  every browser session of the account ends, so whoever held the old password is out;
  its API tokens stay.
- *Issue an API token*: shown on the answer's page this once, as when the account was
  added (a page answered, not a redirect: no answer holding it is kept).
- *Revoke* beside a working token: that token stops (``TokenRevoked``); the account and its
  other tokens stay.
- *Revoke the account*: it can no longer sign in, and its tokens and sessions stop
  working at once (``AccountRevoked``, with the reason given).

An admin's own account offers none of them: their password is changed on the *Password*
page, which asks for the current one. Each form is the admin's (``manage_accounts``),
refused to anyone else before it is read; a refusal is the page again with the sentence
beside its field.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.accounts import MAX_PASSWORD
from ledger.errors import LedgerError
from ledger.web import api_accounts
from ledger.web.api_accounts import AccountName, TokenId
from ledger.web.auth import service_of
from ledger.web.guard import Call, needs
from ledger.web.idempotency import KEPT_AS, SECRET_FIELDS
from ledger.web.pages_admin import ACCOUNTS, SITE_CRUMBS, team_names
from ledger.web.pages_forms import (
    Calling,
    Errors,
    FieldInvalid,
    field_of,
    reason_of,
    see_other,
    typed_twice,
    values_of,
)
from ledger.web.pages_render import PageRoute, page
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)

ACCOUNT = ACCOUNTS + "/{account}"
DONE = {"password", "revoked", "token-revoked", "token-shown"}
"""What the page, come back to after a form, says was done (``?done=``)."""


def address(account: str) -> str:
    return f"{ACCOUNTS}/{quote(account)}"


def account_form(
    request: Request,
    account: str,
    errors: Errors,
    status: int = 200,
    done: str = "",
    ended: int = 0,
) -> HTMLResponse:
    credentials = service_of(request).credentials
    row = credentials.row(account)  # 404 for no such account
    roles = credentials.memberships(account)
    return page(
        request,
        "account.html.j2",
        status=status,
        title=f"Account {account}",
        crumbs=[*SITE_CRUMBS, ("Accounts", ACCOUNTS)],
        row=row,
        roles=roles,
        team_names=team_names(request, [roles]),
        tokens=list(credentials.tokens(account)),
        errors=errors,
        done=done if done in DONE else "",
        ended=ended,
        max_password=MAX_PASSWORD,
    )


@router.get(ACCOUNT)
@needs("manage_accounts")
def account_page(
    request: Request, account: AccountName, done: str = "", ended: int = 0
) -> Response:
    return account_form(request, account, {}, done=done, ended=max(0, min(ended, 10_000)))


@router.post(ACCOUNT + "/password")
@needs("manage_accounts")
async def new_password(request: Request, account: AccountName, call: Calling) -> Response:
    values = await values_of(request)
    secrets = {key: values.pop(key, "") for key in SECRET_FIELDS}  # never shown again

    def done() -> int:
        if not secrets["password"]:
            raise FieldInvalid("password", "give the new password")
        password, reason = typed_twice(secrets), reason_of(values, "why", "a reason")
        return api_accounts.set_password(call, account, password, reason)

    return await run_in_threadpool(answered, call, account, done, "password")


@router.post(ACCOUNT + "/revoke")
@needs("manage_accounts")
async def revoke(request: Request, account: AccountName, call: Calling) -> Response:
    values = await values_of(request)

    def done() -> int:
        reason = reason_of(values, "reason", "a reason")
        api_accounts.revoking_another(call, account)
        if values.get("confirm") != "1":  # one click is not enough to shut someone out
            raise FieldInvalid("confirm", f"tick the box: {account} is to sign in no more")
        api_accounts.revoke(call, account, reason)
        return 0

    return await run_in_threadpool(answered, call, account, done, "revoked")


def answered(call: Call, account: str, done: Callable[[], int], what: str) -> Response:
    """Back to the account's page saying what was done; a refusal is the page again with
    the sentence beside its field (the form's own when no field is named)."""
    try:
        ended = done()
    except LedgerError as error:
        field = field_of(error, {}, default=f"{what}-form")
        errors = {field: (error.code, error.message)}
        return account_form(call.request, account, errors, status_of(error))
    query = urlencode({"done": what, **({"ended": ended} if what == "password" else {})})
    return see_other(f"{address(account)}?{query}")


@router.post(ACCOUNT + "/tokens/{token}/revoke")
@needs("manage_accounts")
async def revoke_token(
    request: Request, account: AccountName, token: TokenId, call: Calling
) -> Response:
    def done() -> int:
        api_accounts.revoke_token(call, account, token, None)
        return 0

    return await run_in_threadpool(answered, call, account, done, "token-revoked")


@router.post(ACCOUNT + "/token")
@needs("manage_accounts")
async def token(request: Request, account: AccountName, call: Calling) -> Response:
    return await run_in_threadpool(token_issued, call, account)


def token_issued(call: Call, account: str) -> Response:
    try:
        issued = api_accounts.issue_token(call, account)
    except LedgerError as error:
        errors = {"token-form": (error.code, error.message)}
        return account_form(call.request, account, errors, status_of(error))
    shown = page(
        call.request,
        "account_created.html.j2",
        status=201,
        title=f"API token of {account}",
        crumbs=[*SITE_CRUMBS, ("Accounts", ACCOUNTS), (account, address(account))],
        account=account,
        admin=False,
        password=False,
        token=issued,
        issued=True,
    )
    shown.headers[KEPT_AS] = f"{address(account)}?done=token-shown"  # the form sent again
    return shown
