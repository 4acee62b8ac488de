"""The pages' forms for a team and the log: buy, correct an event (the hire form is in
``pages_hire``, the match report forms in ``pages_report``, firing, retiring and letting
staff go in ``pages_roster``, on the helpers here).

Each form is a GET (the form, with its pick-lists) and a POST (the command). Both are
guarded before anything is read (``guard.needs``: the account's role for the action and
the team in the path, and on a POST the session's CSRF token); the command then runs as
the account (``guard.Call.write``: ``ledger.acting`` with via ``web``). A ``LedgerError``
re-renders the form with the CLI's own sentence beside the field it is about and the
error's 4xx status; success redirects (303) to the page that shows the result. The only
checks made here are of the form's shape (a number is a number); every rule is the
command's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from ledger.application.accounts import check_password
from ledger.application.commands import Buy, Command, Release
from ledger.application.context import Context, Drafts, check_length, decided
from ledger.application.service import LeagueLedger
from ledger.domain.state import TeamRow
from ledger.domain.values import MOST_BOUGHT, validation_problems
from ledger.errors import InvalidInput, LedgerError
from ledger.web import pages_reads as reads
from ledger.web.guard import Call, calling, needs
from ledger.web.idempotency import FORM_KEY
from ledger.web.pages_render import PageRoute, ledger_of, page
from ledger.web.problems import LAST_EVENT, status_of
from ledger.words import words

router = APIRouter(route_class=PageRoute, include_in_schema=False)

Calling = Annotated[Call, Depends(calling)]
EventNumber = Annotated[int, Path(ge=1, le=LAST_EVENT)]
"""A writing route's request, after the guard has authorized it (``guard.calling``)."""
Errors = dict[str, tuple[str, str]]
"""Form field -> (error code, the CLI's sentence)."""


class FieldInvalid(InvalidInput):
    """A form field that does not have the right shape (a shirt number that is not one)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class FieldsInvalid(InvalidInput):
    """Several fields of a form wrong at once (an empty form): each said beside its own,
    rather than the first alone."""

    def __init__(self, found: Sequence[FieldInvalid]) -> None:
        super().__init__("; ".join(error.message for error in found))
        self.found = tuple(found)


def checked_together(*checks: Callable[[], Any]) -> tuple[Any, ...]:
    """Each check's answer; FieldsInvalid naming every field that failed when one did."""
    answers: list[Any] = []
    found: list[FieldInvalid] = []
    for check in checks:
        try:
            answers.append(check())
        except FieldInvalid as error:
            found.append(error)
    if found:
        raise found[0] if len(found) == 1 else FieldsInvalid(found)
    return tuple(answers)


def field_of(error: LedgerError, fields: Mapping[str, str], default: str = "form") -> str:
    """Which field the error is about: named by the edge check, else by the error's code."""
    if isinstance(error, FieldInvalid):
        return error.field
    return fields.get(error.code, default)


def errors_of(error: LedgerError, fields: Mapping[str, str], default: str = "form") -> Errors:
    if isinstance(error, FieldsInvalid):
        return {each.field: (each.code, each.message) for each in error.found}
    return {field_of(error, fields, default): (error.code, error.message)}


async def values_of(request: Request) -> dict[str, str]:
    """The form's text fields (a file or a repeated field is not part of any form here),
    without the guard's: its CSRF token and its key (``idempotency.FORM_KEY``)."""
    form = await request.form()
    return {
        key: value
        for key, value in form.items()
        if isinstance(value, str) and key not in ("csrf", FORM_KEY)
    }


def only_offered(
    values: Mapping[str, str], prefix: str, ids: Iterable[str], what: str, field: str
) -> None:
    """Only what the form offers is asked for: a field ``prefix + id`` no form shows (an
    edited request) is refused beside ``field``, not ignored."""
    offered = set(ids)
    for key in values:
        if key.startswith(prefix) and (given := key.removeprefix(prefix)) not in offered:
            raise FieldInvalid(field, f"'{given[:40]}' is not {what} the form offers")


def number(
    values: Mapping[str, str],
    key: str,
    label: str,
    low: int = 0,
    high: int = 99,
    grouped: bool = True,
) -> int | None:
    """The whole number in field ``key``, None when it is left empty; ``grouped``: its
    bounds said with their thousands apart (a quantity, not an identifier such as a seed)."""
    text = values.get(key, "").strip()
    return whole(text, key, label, low, high, grouped) if text else None


def count(values: Mapping[str, str], key: str, label: str, low: int = 1) -> int:
    """How many of an item the form is given (a purchase, a release), within what every
    edge takes (``MOST_BOUGHT``): one a coach cleared is not one to guess."""
    return whole(values.get(key, "").strip(), key, label, low, MOST_BOUGHT)


def whole(text: str, key: str, label: str, low: int, high: int = 99, grouped: bool = True) -> int:
    found = ascii_int(text, signed=low < 0)
    if found is None or not low <= found <= high:
        bounds = f"{low:,} to {high:,}" if grouped else f"{low} to {high}"
        raise FieldInvalid(key, f"{label} is a whole number from {bounds}, not '{text[:20]}'")
    return found


ASCII_WHOLE = re.compile(r"-?[0-9]+")


def ascii_int(text: str, *, signed: bool = False, digits: int = 18) -> int | None:
    """The whole number ``text`` writes in ASCII digits (at most ``digits`` of them, a
    minus first when ``signed``), else None. Python's ``int`` also reads other scripts'
    digits (a fullwidth or an Arabic-Indic 3 as 3) and ``str.isdigit`` passes a
    superscript 2, which ``int`` then fails on: no form means either, so every form's
    number is read here."""
    if not ASCII_WHOLE.fullmatch(text) or (text[0] == "-" and not signed):
        return None
    return int(text) if len(text.removeprefix("-")) <= digits else None


def dice_values(text: str, purpose: str) -> int | list[int] | None:
    """The roll typed in a die's field: one number or several (spaces or commas between
    them); None when left empty."""
    parts = text.replace(",", " ").split()
    if not parts:
        return None
    numbers = [ascii_int(p, digits=3) for p in parts]
    if any(n is None for n in numbers):
        raise FieldInvalid(
            "dice", f"the {words(purpose)} roll takes whole numbers, not '{text[:20]}'"
        )
    rolled = [n for n in numbers if n is not None]
    return rolled[0] if len(rolled) == 1 else rolled


def typed_twice(sent: Mapping[str, str], which: str = "passwords") -> str:
    """The password typed in ``password`` and again in ``password_again``, within the
    application's bounds (``check_password``), beside the field that breaks them; "" when
    both are left empty (the form says whether that may be)."""
    password = sent.get("password", "")
    if password != sent.get("password_again", ""):
        raise FieldInvalid("password_again", f"the two {which} differ: type the same twice")
    if password:
        try:
            check_password(password)
        except InvalidInput as error:
            raise FieldInvalid("password", error.message) from None
    return password


def required(values: Mapping[str, str], key: str, sentence: str) -> str:
    text = values.get(key, "").strip()
    if not text:
        raise FieldInvalid(key, sentence)
    return text


def reason_of(values: Mapping[str, str], key: str, what: str) -> str | None:
    """The optional reason in field ``key`` (None when left empty), within the bound every
    event's reason has (the application's sentence, said beside the field)."""
    text = values.get(key, "").strip()
    try:
        check_length(text, what)
    except InvalidInput as error:
        raise FieldInvalid(key, error.message) from None
    return text or None


def dry_run(
    ledger: LeagueLedger, command: Command[Any], context: Context | None = None
) -> tuple[Drafts, str]:
    """What the command would record now, or the sentence it would refuse with: its own
    plan, run on the league as it stands (``context``: as the page read it) and recorded
    nowhere. A page shows, not offers, what the command would refuse, and shows what it
    would do (a season's draw), with no second copy of its rules."""
    try:
        return decided(ledger.plan_of(command), context or ledger.context(command.league)), ""
    except LedgerError as error:
        return [], error.message


def refusal(ledger: LeagueLedger, command: Command[Any]) -> str:
    """The sentence the command would refuse with now ("" when it would be taken)."""
    return dry_run(ledger, command)[1]


def valid(run: Callable[[], Any]) -> Any:
    """Run a command; an event refused for its shape (a name too long...) is the same
    one-line error the CLI prints."""
    try:
        return run()
    except ValidationError as error:
        raise InvalidInput(validation_problems(error)) from None


def team_row(league: reads.League, team: str) -> TeamRow:
    return league.queries.team(team)


def see_other(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303)


# --- shared by the team's forms ------------------------------------------------------------


def team_crumbs(league: reads.League, team: TeamRow) -> list[tuple[str, str]]:
    return [
        ("Leagues", "/"),
        (league.row.name, f"/leagues/{league.slug}"),
        (team.name, f"/leagues/{league.slug}/teams/{team.team_id}"),
    ]


# --- buy -----------------------------------------------------------------------------------

BUY_FIELDS = {"staff-limit": "count", "insufficient-treasury": "item", "not-allowed": "item"}


@dataclass(frozen=True)
class ReleaseOffer:
    """An item the team holds, to let go: how many, and the command's sentence when it
    would refuse to let one go now (BB2025's re-rolls, once drafted): shown, not offered."""

    item: str
    name: str
    held: int
    refused: str = ""


def release_offers(
    ledger: LeagueLedger, league: reads.League, team: TeamRow, choices: Sequence[reads.BuyChoice]
) -> list[ReleaseOffer]:
    return [
        ReleaseOffer(
            c.item.id,
            c.item.name,
            c.held,
            refusal(ledger, Release(league.slug, team.team_id, c.item.id)),
        )
        for c in choices
        if c.held > 0
    ]


def buy_form(
    request: Request,
    league: str,
    team: str,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    row = team_row(found, team)
    choices = reads.buy_choices(found, row)
    return page(
        request,
        "buy.html.j2",
        status=status,
        title=f"Buy for {row.name}",
        crumbs=team_crumbs(found, row),
        league=found,
        team=row,
        choices=choices,
        releases=release_offers(ledger, found, row, choices),
        values=values,
        errors=errors,
    )


@router.get("/leagues/{league}/teams/{team}/buy")
@needs("buy")
def buy_page(request: Request, league: str, team: str) -> HTMLResponse:
    return buy_form(request, league, team, {}, {})


@router.post("/leagues/{league}/teams/{team}/buy")
@needs("buy")
async def buy(request: Request, league: str, team: str, call: Calling) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> None:
        item = required(values, "item", "choose what to buy")
        many = count(values, "count", "how many")
        valid(lambda: ledger.handle(Buy(league, team, item, many), by=by))

    try:
        await run_in_threadpool(call.write, command)
    except LedgerError as error:
        return await run_in_threadpool(
            buy_form, request, league, team, values, errors_of(error, BUY_FIELDS), status_of(error)
        )
    return see_other(f"/leagues/{league}/teams/{team}?bought=1")  # the page says what was
