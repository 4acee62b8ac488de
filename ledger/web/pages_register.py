"""The "Register a team" form: ``ledger team register`` from a page, for the commissioner.

It offers the edition's team lists (grouped by the size of their rosters where the edition
has lists of more than one size: gold4's Big Guy teams field 8 to 12 players) and, for the
coach, the league's members by name, or another account of the site (a coach's first team:
an account is a coach of the league only once it has a team). The team's id may be left
empty: it is then made from its name. The POST runs ``registration.register_for``, the
API's command; a refusal is the form again, as filled, with its sentence beside the field;
done, the new team's page.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.commands import one_line
from ledger.application.registration import league_coaches, register_for
from ledger.application.service import LeagueLedger
from ledger.domain.values import MAX_GOLD, MAX_ID, SLUG
from ledger.errors import InvalidInput, LedgerError
from ledger.rules.protocol import Ruleset
from ledger.web import pages_reads as reads
from ledger.web.auth import service_of
from ledger.web.guard import needs
from ledger.web.pages_forms import (
    Calling,
    Errors,
    FieldInvalid,
    checked_together,
    errors_of,
    number,
    reason_of,
    required,
    see_other,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, page
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)

PATH = "/leagues/{league}/register-team"
"""Not under ``.../teams/``: any word there could be a team's id."""

REGISTER_FIELDS = {
    "unknown-team": "roster",
    "unknown-account": "coach",
    "not-allowed": "coach",
    "name-taken": "team",
    "team-name-taken": "name",
}


@dataclass(frozen=True)
class ListChoice:
    id: str
    name: str


@dataclass(frozen=True)
class ListGroup:
    label: str
    lists: tuple[ListChoice, ...]


def list_groups(ruleset: Ruleset) -> list[ListGroup]:
    """The edition's team lists by name, in groups by roster size (the usual 11 to 16
    first); an edition whose lists are all of one size has one group, shown unlabelled."""
    sizes: dict[tuple[int, int], list[ListChoice]] = {}
    for found in sorted(ruleset.catalogue.team_lists().values(), key=lambda t: t.name):
        size = (found.min_players, found.max_players)
        sizes.setdefault(size, []).append(ListChoice(found.id, found.name))
    ordered = sorted(sizes.items(), key=lambda item: (-len(item[1]), item[0]))
    return [
        ListGroup(f"Teams of {low} to {high} players", tuple(lists))
        for (low, high), lists in ordered
    ]


def register_form(
    request: Request,
    league: str,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    found = reads.open_league(ledger_of(request), league)
    return page(
        request,
        "register.html.j2",
        status=status,
        title="Register a team",
        crumbs=reads.crumbs(found),
        league=found,
        groups=list_groups(found.ruleset),
        coaches=league_coaches(found.view, found.row),
        names=found.team_names(),
        start=found.ruleset.start().treasury,
        max_id=MAX_ID,
        values=values,
        errors=errors,
    )


@router.get(PATH)
@needs("register_team")
def register_page(request: Request, league: str) -> HTMLResponse:
    return register_form(request, league, {}, {})


def team_id_of(name: str) -> str:
    """An id made from a team's name: ``Reikland Reavers`` -> ``reikland-reavers``."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:MAX_ID].strip("-")


def team_id(given: str, name: str) -> str:
    """The id typed, in the shape every id has (said beside its field, where the event
    would say it atop the form), or one made from the name."""
    if given and (len(given) > MAX_ID or not re.fullmatch(SLUG, given)):
        raise FieldInvalid(
            "team", f"a team's id is lower-case letters, digits and dashes (at most {MAX_ID})"
        )
    made = given or team_id_of(name)
    if not made:
        raise FieldInvalid("team", "give the team an id: its name has no letter or digit")
    return made


@dataclass(frozen=True)
class Registration:
    """What the form asks for, its shape checked (every rule is the command's)."""

    team: str
    name: str
    roster: str
    coach: str
    treasury: int | None
    reason: str | None


def chosen(values: Mapping[str, str]) -> Registration:
    """What the form asks, each field's mistake beside it, all at once (an empty form
    names the name, the list and the coach together)."""
    gold = {"treasury": re.sub(r"[,\s]", "", values.get("treasury", ""))}
    name, roster, coach, treasury, reason = checked_together(
        lambda: required(values, "name", "give the team a name"),
        lambda: required(values, "roster", "choose the team list"),
        lambda: coach_of(values),
        lambda: number(gold, "treasury", "a starting treasury", high=MAX_GOLD),
        lambda: reason_of(values, "reason", "a registration"),
    )
    team = team_id(values.get("team", "").strip(), name)
    printable("name", name)  # an id made from it is plain ASCII, a typed one checked above
    return Registration(team, name, roster, coach, treasury, reason)


def coach_of(values: Mapping[str, str]) -> str:
    picked, other = values.get("coach", "").strip(), values.get("other", "").strip()
    if picked and other and picked != other:
        raise FieldInvalid(
            "coach", "choose a coach from the list or name another account, not both"
        )
    if not (picked or other):
        raise FieldInvalid("coach", "choose the team's coach, or name another account")
    return picked or other


def printable(field: str, text: str) -> None:
    """The command's own check of a name, said beside the field it is about."""
    try:
        one_line(field, text)
    except InvalidInput as error:
        raise FieldInvalid(field, error.message) from None


@router.post(PATH)
@needs("register_team")
async def register(request: Request, league: str, call: Calling) -> Response:
    values = await values_of(request)
    accounts = service_of(request).accounts

    def command(_: LeagueLedger, by: str) -> str:
        asked = chosen(values)
        register_for(
            accounts,
            league,
            asked.team,
            asked.name,
            asked.roster,
            asked.coach,
            treasury=asked.treasury,
            by=by,
            reason=asked.reason,
        )
        return asked.team

    try:
        team = await run_in_threadpool(call.write, command)
    except LedgerError as error:
        # An id made from the name is taken: the name is what to change.
        taken = "team" if values.get("team", "").strip() else "name"
        fields = {**REGISTER_FIELDS, "name-taken": taken}
        return await run_in_threadpool(
            register_form, request, league, values, errors_of(error, fields), status_of(error)
        )
    return see_other(f"/leagues/{league}/teams/{team}?registered=1")  # says what comes next
