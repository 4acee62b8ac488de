"""Changing one's own password (``/account/password``), for whoever is signed in; the
page header links it.

The current password is checked as signing in checks it (``auth.signed_in``: the same
argon2 verification and the same count of failures per account and address, so a wrong
one here counts towards the account's lock-out, and past the limit the form answers 429
whatever is typed); the new one, typed twice, by the application's bounds
(``accounts.check_password``). Done, it is set (``Accounts.set_password``) and every other
browser session of the account ends (``Sessions.end_others``): one signed in elsewhere
with the old password is signed out, this one stays. API tokens are other credentials
and stay (``ledger account revoke`` or a new account ends them).

No password comes back: a refusal is the form again, empty, with the sentence beside its
field. The form carries the session's CSRF token but no key (``once``): the key's row
keeps a quick hash of the form sent, and a password is only ever hashed slowly. Sent
twice (a double click), the second finds the current password changed and is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.access import Principal
from ledger.application.accounts import MAX_PASSWORD
from ledger.errors import Forbidden, InvalidInput, LedgerError, Unauthenticated
from ledger.web.auth import (
    SESSION_COOKIE,
    address_of,
    check_password_length,
    current_principal,
    service_of,
    signed_in,
)
from ledger.web.pages_forms import Errors, FieldInvalid, field_of, see_other, typed_twice
from ledger.web.pages_render import PageRoute, page
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)

PASSWORD = "/account/password"
SECRETS = ("current_password", "password", "password_again")
"""The form's fields: each a password, read once and never shown again."""
PASSWORD_FIELDS = {"forbidden": "current_password", "too-many-attempts": "current_password"}

SignedIn = Annotated[Principal, Depends(current_principal)]
"""The signed-in account (401, or to sign in first for a GET, without one); a form a
session cookie signs must carry its CSRF token (403)."""


def password_form(
    request: Request, errors: Errors, status: int = 200, changed: bool = False
) -> HTMLResponse:
    return page(
        request,
        "password.html.j2",
        status=status,
        title="Change your password",
        crumbs=[("Leagues", "/")],
        errors=errors,
        changed=changed,
        max_password=MAX_PASSWORD,
    )


@router.get(PASSWORD)
def password_page(request: Request, me: SignedIn, changed: str = "") -> HTMLResponse:
    return password_form(request, {}, changed=changed == "1")


@router.post(PASSWORD)
async def change_password(request: Request, me: SignedIn) -> Response:
    form = await request.form()
    sent = {key: value for key in SECRETS if isinstance(value := form.get(key, ""), str)}
    return await run_in_threadpool(changed, request, me, sent)


def changed(request: Request, me: Principal, sent: Mapping[str, str]) -> Response:
    """Set the new password and end the account's other sessions; a refusal is the form
    again, empty, with the reason beside its field (and ``Retry-After`` when locked out)."""
    try:
        new = new_password(sent)
        checked(request, me, sent.get("current_password", ""))
    except LedgerError as error:
        return refused(request, error)
    service = service_of(request)
    service.credentials.set_password(me.account, new)
    service.sessions.end_others(me.account, keep=request.cookies.get(SESSION_COOKIE))
    return see_other(f"{PASSWORD}?changed=1")


def refused(request: Request, error: LedgerError) -> HTMLResponse:
    errors = {field_of(error, PASSWORD_FIELDS): (error.code, error.message)}
    reply = password_form(request, errors, status_of(error))
    retry = getattr(error, "retry_after", None)
    if retry is not None:
        reply.headers["Retry-After"] = str(retry)
    return reply


def new_password(sent: Mapping[str, str]) -> str:
    """The new password, typed twice, within the application's bounds."""
    if not sent.get("password"):
        raise FieldInvalid("password", "give the new password")
    return typed_twice(sent, "new passwords")


def checked(request: Request, me: Principal, current: str) -> None:
    """The current password is the account's, checked as a sign-in is (and counted when
    it is not: a session left open is not a way to guess it)."""
    if not current:
        raise FieldInvalid("current_password", "give your current password")
    try:
        check_password_length(current)
    except InvalidInput as error:
        raise FieldInvalid("current_password", error.message) from None
    try:
        signed_in(service_of(request), me.account, current, address_of(request))
    except Unauthenticated:
        raise Forbidden("that is not your current password: nothing was changed") from None
