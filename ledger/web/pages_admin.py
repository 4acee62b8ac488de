"""The site admin's pages: create a league, and the site's accounts.

*Create a league* (``/admin/leagues/new``) asks what ``ledger league create`` and ``POST
/api/leagues`` take: a name, a slug, a ruleset of the registry with its options (shown as
the what-if form shows them, ``pages_whatif.option_fields``, at the ruleset's defaults),
the league's own points and tie-breakers when asked for (else the ruleset's, as its
options set them) and a reason. Choosing the ruleset, and whether the league has points
of its own, is a plain GET (``?ruleset=gold4&points=own``), as on the what-if page.

*Accounts* (``/admin/accounts``) lists every account with its roles, as ``ledger account
list``, never a secret; its form adds one, as ``POST /api/accounts``: with the password
the admin sets (typed twice, never shown again, not even on a refusal) and, if asked, an
API token, shown on the answer's page this once (a page answered, not a redirect: no
answer holding it is kept, ``idempotency.once``).

Both are the admin's (``create_league``, ``manage_accounts``): the guard refuses anyone
else before the form is read. Every rule is the command's; a refusal is the form again,
as filled, with the command's sentence beside its field and the error's status.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, get_args
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from ledger.application.access import Membership
from ledger.application.accounts import MAX_PASSWORD
from ledger.application.service import LeagueLedger
from ledger.domain.log import league_id
from ledger.domain.state import LeagueRow, TeamRow
from ledger.domain.values import MAX_COUNT, BonusPoint, PointsScheme, Tiebreaker
from ledger.domain.values import validation_problems as problems_of
from ledger.errors import LedgerError
from ledger.rules import RULESETS, find_ruleset
from ledger.rules.protocol import Ruleset
from ledger.web.auth import service_of
from ledger.web.guard import Call, needs
from ledger.web.idempotency import KEPT_AS, SECRET_FIELDS
from ledger.web.pages_forms import (
    Calling,
    Errors,
    FieldInvalid,
    FieldsInvalid,
    checked_together,
    errors_of,
    reason_of,
    required,
    see_other,
    typed_twice,
    values_of,
    whole,
)
from ledger.web.pages_render import PageRoute, page
from ledger.web.pages_whatif import (
    OptionField,
    form_values,
    option_fields,
    option_named,
    option_of,
    posted,
    text,
)
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)

NEW_LEAGUE = "/admin/leagues/new"
ACCOUNTS = "/admin/accounts"
SITE_CRUMBS = [("Leagues", "/")]
TIEBREAKERS = get_args(Tiebreaker)
BONUSES = get_args(BonusPoint)
RESULTS = ("win", "draw", "loss")


# --- create a league -------------------------------------------------------------------------


def start_values(target: Ruleset) -> dict[str, Any]:
    """The form as first shown: the ruleset's default options, and its points scheme
    (as those options set it) for a league that sets its own."""
    scheme = target.points_scheme(None)
    return {
        **form_values(target.options),
        **{result: str(getattr(scheme, result)) for result in RESULTS},
        "bonus": list(scheme.bonus),
        "bonus_mode": scheme.bonus_mode,
        **{f"tiebreaker-{at}": name for at, name in enumerate(scheme.tiebreakers, 1)},
    }


def league_form(
    request: Request,
    target: Ruleset,
    own: bool,
    values: Mapping[str, Any],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    return page(
        request,
        "league_new.html.j2",
        status=status,
        title="Create a league",
        crumbs=SITE_CRUMBS,
        rulesets=[(cls.id, cls.name) for cls in RULESETS],
        target=target,
        own=own,
        scheme=target.points_scheme(None),
        fields=option_fields(target),
        results=RESULTS,
        bonuses=BONUSES,
        tiebreakers=TIEBREAKERS,
        values=values,
        errors=errors,
    )


def default_ruleset() -> Ruleset:
    return find_ruleset(RULESETS[0].id)


def refused_ruleset(request: Request, own: bool, error: LedgerError) -> HTMLResponse:
    """An unknown ruleset: the form under the registry's first, the error beside the
    pick-list (with the closest known name, as the CLI says it)."""
    target = default_ruleset()
    errors = {"ruleset": (error.code, error.message)}
    return league_form(request, target, own, start_values(target), errors, status_of(error))


@router.get(NEW_LEAGUE)
@needs("create_league")
def new_league_page(request: Request, ruleset: str = "", points: str = "") -> HTMLResponse:
    own = points == "own"
    try:
        target = find_ruleset(ruleset.strip()[:64]) if ruleset.strip() else default_ruleset()
    except LedgerError as error:
        return refused_ruleset(request, own, error)
    return league_form(request, target, own, start_values(target), {})


@router.post(NEW_LEAGUE)
@needs("create_league")
async def create_league(request: Request, call: Calling) -> Response:
    form = await request.form()
    return await run_in_threadpool(created, request, call, form)


def created(request: Request, call: Call, form: FormData) -> Response:
    """Create the league and go to its page; a refusal is the form again, as filled."""
    own = text(form, "points") == "own"
    try:
        target = find_ruleset(text(form, "ruleset")[:64] or RULESETS[0].id)
    except LedgerError as error:
        return refused_ruleset(request, own, error)
    fields = option_fields(target)
    values = {**start_values(target), **sent(form, fields, own)}

    def command(ledger: LeagueLedger, by: str) -> LeagueRow:
        return opened(ledger, by, target, fields, values, own)

    try:
        row = call.write(command)
    except LedgerError as error:
        errors = (
            errors_of(error, {})  # several fields at once
            if isinstance(error, FieldsInvalid)
            else {league_field(error, fields, own): (error.code, error.message)}
        )
        return league_form(request, target, own, values, errors, status_of(error))
    return see_other(f"/leagues/{row.slug}?done=created")  # the home says what comes next


def sent(form: FormData, fields: list[OptionField], own: bool) -> dict[str, Any]:
    """The form's fields as sent: its text, the options and, for a league's own points,
    the scheme's parts (an unticked box is not sent: no bonus ticked is none)."""
    values: dict[str, Any] = {key: text(form, key) for key in ("name", "slug", "reason")}
    values.update(posted(form, fields))
    if own:
        values.update({key: text(form, key) for key in (*RESULTS, "bonus_mode")})
        values["bonus"] = [v for v in form.getlist("bonus") if isinstance(v, str)]
        for at in range(1, len(TIEBREAKERS) + 1):
            values[f"tiebreaker-{at}"] = text(form, f"tiebreaker-{at}")
    return values


def opened(
    ledger: LeagueLedger,
    by: str,
    target: Ruleset,
    fields: list[OptionField],
    values: Mapping[str, Any],
    own: bool,
) -> LeagueRow:
    slug, name, reason = checked_together(  # an empty form: each field's mistake at once
        lambda: required(values, "slug", "give the league a slug: its address, /leagues/SLUG"),
        lambda: required(values, "name", "give the league a name"),
        lambda: reason_of(values, "reason", "a reason"),
    )
    options = {f.key: option_of(f, values[f.key]) for f in fields}
    points = own_points(values) if own else None
    return ledger.create_league(
        slug, name, target.id, by=by, options=options, points=points, reason=reason
    )


def own_points(values: Mapping[str, Any]) -> PointsScheme:
    """The league's own scheme, whole, as the form sent it (``check_points``, in the
    command, judges it)."""
    numbers = {
        result: whole(str(values.get(result, "")).strip(), result, f"a {result}", 0, MAX_COUNT)
        for result in RESULTS
    }
    order = [values[key] for key in tiebreaker_keys() if values.get(key)]
    try:
        return PointsScheme.model_validate(
            {
                **numbers,
                "bonus": tuple(values.get("bonus", ())),
                "bonus_mode": values.get("bonus_mode") or "added",
                "tiebreakers": tuple(order),
            }
        )
    except ValidationError as error:
        raise FieldInvalid("points", problems_of(error)) from None


def tiebreaker_keys() -> list[str]:
    return [f"tiebreaker-{at}" for at in range(1, len(TIEBREAKERS) + 1)]


LEAGUE_FIELDS = {"unknown-ruleset": "ruleset", "league-exists": "slug"}


def league_field(error: LedgerError, fields: list[OptionField], own: bool) -> str:
    """Where the refusal is shown: the field the form's check names, else by its code; an
    option's by the ruleset's sentence (``ruleset ID: option KEY: ...``); the league's
    points by theirs; a slug or name the event refuses by the sentence's first word."""
    if isinstance(error, FieldInvalid):
        return error.field
    if error.code in LEAGUE_FIELDS:
        return LEAGUE_FIELDS[error.code]
    if error.code == "invalid-option":
        if error.message.startswith("ruleset "):
            return option_named(error, fields)
        return "points" if own else "form"
    return next((f for f in ("slug", "name") if error.message.startswith(f)), "form")


# --- accounts ----------------------------------------------------------------------------------

ACCOUNT_FIELDS = {"account-exists": "account", "unknown-account": "account"}


def accounts_form(
    request: Request,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
    added: str = "",
) -> HTMLResponse:
    accounts = service_of(request).accounts
    rows = sorted(accounts.all(), key=lambda row: row.account)
    roles = {row.account: accounts.memberships(row.account) for row in rows}
    return page(
        request,
        "accounts.html.j2",
        status=status,
        title="Accounts",
        crumbs=SITE_CRUMBS,
        accounts=rows,
        roles=roles,
        team_names=team_names(request, roles.values()),
        tokens={row.account: live_tokens(request, row.account) for row in rows},
        added=added if any(row.account == added for row in rows) else "",
        values=values,
        errors=errors,
        max_password=MAX_PASSWORD,
    )


def team_names(
    request: Request, roles: Iterable[Mapping[str, Membership]]
) -> dict[str, dict[str, str]]:
    """The names of the teams the accounts coach, by league: a role reads "coach of
    Reikland Reavers", not of its id."""
    reads = service_of(request).reads()
    names: dict[str, dict[str, str]] = {}
    for memberships in roles:
        for slug, member in memberships.items():
            for team in member.teams:
                row = reads.get(TeamRow, str(league_id(slug)), team)
                names.setdefault(slug, {})[team] = row.name if row is not None else team
    return names


def live_tokens(request: Request, account: str) -> int:
    """How many API tokens the account holds (their ids and dates are all that is read)."""
    found = service_of(request).accounts.tokens(account)
    return sum(1 for _, _, revoked in found if revoked is None)


@router.get(ACCOUNTS)
@needs("manage_accounts")
def accounts_page(request: Request, added: str = "") -> HTMLResponse:
    return accounts_form(request, {}, {}, added=added[:64])


@router.post(ACCOUNTS)
@needs("manage_accounts")
async def add_account(request: Request, call: Calling) -> Response:
    values = await values_of(request)
    # The passwords are read once, and never shown again: not even in a refusal's form.
    secrets = {key: values.pop(key, "") for key in SECRET_FIELDS}
    return await run_in_threadpool(account_added, request, call, values, secrets)


def account_added(
    request: Request, call: Call, values: dict[str, str], secrets: Mapping[str, str]
) -> Response:
    """Add the account; its token's page, or back to the list. A refusal is the form
    again, as filled but for the passwords."""
    accounts = service_of(request).accounts

    def command(_: LeagueLedger, by: str) -> str | None:
        account = required(values, "account", "give the account the name it signs in with")
        password = chosen_password(secrets, token="token" in values)
        name = values.get("name", "").strip() or None
        admin = "admin" in values
        accounts.add(account, name, by=by, admin=admin, password=password)
        return accounts.issue_token(account) if "token" in values else None

    try:
        token = call.write(command)
    except LedgerError as error:
        errors = {account_field(error): (error.code, error.message)}
        return accounts_form(request, values, errors, status_of(error))
    account = values["account"].strip()
    if token is None:
        return see_other(f"{ACCOUNTS}?{urlencode({'added': account})}#account-{account}")
    shown = page(
        request,
        "account_created.html.j2",
        status=201,
        title=f"Account {account}",
        crumbs=[*SITE_CRUMBS, ("Accounts", ACCOUNTS)],
        account=account,
        admin="admin" in values,
        password=bool(secrets["password"]),
        token=token,
        issued=False,
    )
    shown.headers[KEPT_AS] = f"{ACCOUNTS}/{account}?done=token-shown"  # the form sent again
    return shown


def chosen_password(secrets: Mapping[str, str], *, token: bool) -> str | None:
    """The password typed twice (the application's bounds); none when a token is asked
    for instead: without either, the account could not sign in."""
    if not secrets.get("password") and not token:
        raise FieldInvalid("password", "give a password, or ask for an API token below")
    return typed_twice(secrets) or None


def account_field(error: LedgerError) -> str:
    """Where a refusal is shown: the form's own check names its field; an account or
    display name the event refuses is named by its sentence (``name: ...``)."""
    if isinstance(error, FieldInvalid):
        return error.field
    if error.code in ACCOUNT_FIELDS:
        return ACCOUNT_FIELDS[error.code]
    return "name" if error.message.startswith("name") else "account"
