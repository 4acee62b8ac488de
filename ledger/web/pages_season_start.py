"""Starting the league's next season from a page (``ledger season start``, the API's
``.../season/start``: ``StartSeason``), and what the season's pages share (``pages_seasons``
has the other steps and the league home's next step).

The form offers each division of the last season, by name, and one for each two teams
(the league's rules say how many teams a division needs, as the command does); each
active team is put in one of them, or sits the season out. It starts as the last season
was divided. In an edition with re-drafts it names the teams that played before and have
not re-drafted, since none can once the season starts. While a season is open the page
says the command's sentence instead of the form.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.commands import StartSeason
from ledger.application.context import Context
from ledger.application.seasons import as_they_stand
from ledger.application.service import LeagueLedger
from ledger.domain.state import SeasonRow, TeamRow
from ledger.domain.values import LABEL, MAX_NAME, Division
from ledger.errors import LedgerError
from ledger.projections.appliers import closed_before
from ledger.projections.gather import team_rows
from ledger.rules.asked import SeasonPlan
from ledger.rules.protocol import Feature
from ledger.web import pages_reads as reads
from ledger.web.guard import Call, needs
from ledger.web.pages_forms import (
    Calling,
    Errors,
    FieldInvalid,
    errors_of,
    number,
    only_offered,
    reason_of,
    see_other,
    valid,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, page
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)

SEASON = "/leagues/{league}/season"
TEAM, DIVISION = "team-", "division-"
"""Start form fields: ``team-TEAM`` (the number of the team's division, empty: it sits
the season out) and ``division-N`` (the name of division N)."""
MOST_DIVISIONS = 16
"""The API's bound on a season's divisions."""
START_FIELDS = {
    "playoff-places": "playoff_teams",
    "empty-division": "divisions",
    "division-size": "divisions",
    "invalid-input": "divisions",
    "not-allowed": "divisions",
    "unknown-team": "divisions",
}


# --- shared by the season's pages ---------------------------------------------------------------


def season_of(found: reads.League) -> SeasonRow | None:
    """The league's current season (None before its first)."""
    number = found.row.current_season
    return found.queries.season_row(number) if number else None


@dataclass(frozen=True)
class Sent:
    """A season form as posted, by the account the guard let through."""

    request: Request
    league: str
    call: Call
    values: Mapping[str, str]


SEASON_DONE = {
    "created": "The league is created: register its teams, grant its coaches their roles"
    " (Members), then start a season.",
    "started": "The season has started: schedule its games next.",
    "scheduled": "The season is scheduled: its first round's fixtures are below.",
    "playoffs": "The play-offs are drawn: their fixtures are below.",
    "closed": "The season is closed: its champion and figures are kept as they stand.",
}
"""What the league's home says after its creation and each season step (``?done=``)."""


async def written(
    sent: Sent,
    command: Callable[[LeagueLedger, str], object],
    fields: Mapping[str, str],
    form: Callable[..., HTMLResponse],
    done: str,
) -> Response:
    """Run ``command`` as the account; the form again, as filled, with the command's
    sentence beside its field when refused; done, the league's home saying so."""
    try:
        await run_in_threadpool(sent.call.write, command)
    except LedgerError as error:
        errors = errors_of(error, fields)
        return await run_in_threadpool(
            form, sent.request, sent.league, sent.values, errors, status_of(error)
        )
    return see_other(f"/leagues/{sent.league}?done={done}")


# --- start ------------------------------------------------------------------------------------


def not_open(season: SeasonRow | None) -> str:
    """The start's own sentence while a season is open ("" when one may start)."""
    try:
        closed_before(season)
    except LedgerError as error:
        return error.message
    return ""


def active_teams(found: reads.League) -> list[TeamRow]:
    return sorted((t for t in found.queries.teams() if t.status == "active"), key=lambda t: t.name)


def unready(found: reads.League, teams: Sequence[TeamRow]) -> list[str]:
    """What the edition asks of the teams before they start (ZAL 3c: eleven players and a
    Fan Factor), said before the commissioner tries: the teams as they stand, asked alone."""
    starting = [team_rows(found.view, found.row.league_id, t, everyone=False) for t in teams]
    return [p.sentence for p in found.ruleset.problems(SeasonPlan((), 0, starting))]


def slots(teams: Sequence[TeamRow], last: SeasonRow | None) -> int:
    """How many divisions the form offers: one for each two teams, at least the last
    season's (the rules say how many teams a division needs)."""
    most = max(len(teams) // 2, len(last.divisions) if last else 0, 1)
    return min(most, MOST_DIVISIONS)


def as_last_time(teams: Sequence[TeamRow], last: SeasonRow | None) -> dict[str, str]:
    """The form as first shown: the last season's divisions, names and play-off places;
    a team that did not play in it is put in the first."""
    values = {"playoff_teams": str(last.playoff_teams) if last else "0"}
    divisions = last.divisions if last else ()
    for slot, division in enumerate(divisions, start=1):
        values[f"{DIVISION}{slot}"] = division.name
    placed = {t: str(slot) for slot, d in enumerate(divisions, start=1) for t in d.teams}
    for team in teams:
        values[TEAM + team.team_id] = placed.get(team.team_id, "1")
    return values


def start_form(
    request: Request,
    league: str,
    values: Mapping[str, str] | None,
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    """The form: as sent, or (``values`` None) as the last season was divided."""
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    last, teams = season_of(found), active_teams(found)
    context = Context(view=found.view, league=found.row, ruleset=found.ruleset)
    everyone = [Division(name="", teams=tuple(t.team_id for t in teams))]
    number = found.row.current_season + 1
    return page(
        request,
        "season_start.html.j2",
        status=status,
        title=f"Start season {number}",
        crumbs=reads.crumbs(found),
        league=found,
        number=number,
        refused=not_open(last),
        teams=teams,
        slots=range(1, slots(teams, last) + 1),
        withdrawn=[t for t in found.queries.teams() if t.status != "active"],
        standing=as_they_stand(context, everyone),
        unready=unready(found, teams),
        redrafts=Feature.REDRAFT in found.ruleset.features,
        names=found.team_names(),
        values=as_last_time(teams, last) if values is None else values,
        errors=errors,
    )


@router.get(SEASON + "/start")
@needs("start_season")
def start_page(request: Request, league: str) -> HTMLResponse:
    return start_form(request, league, None, {})


def text_field(values: Mapping[str, str], key: str, what: str) -> str:
    text = values.get(key, "").strip()
    if len(text) > MAX_NAME:
        raise FieldInvalid(key, f"{what} is at most {MAX_NAME} characters, not {len(text):,}")
    if not re.fullmatch(LABEL, text):
        raise FieldInvalid(key, f"{what} is one line of printable text: no control character")
    return text


def start_of(found: reads.League, values: Mapping[str, str]) -> StartSeason:
    """The command the form asks for: its divisions, play-off places and name."""
    places = number(values, "playoff_teams", "play-off places", low=0, high=64) or 0
    name = text_field(values, "name", "the season's name")
    return StartSeason(found.slug, divisions_of(found, values), playoff_teams=places, name=name)


def divisions_of(found: reads.League, values: Mapping[str, str]) -> list[Division]:
    """Each division the form names or gives teams, in its order; a team or a division
    the form does not offer (an edited request) is refused, not ignored."""
    teams = active_teams(found)
    offered = [str(n) for n in range(1, slots(teams, season_of(found)) + 1)]
    ids = [t.team_id for t in teams]
    only_offered(values, TEAM, ids, "a team", "divisions")
    only_offered(values, DIVISION, offered, "a division", "divisions")
    for team in ids:
        if values.get(TEAM + team, "") not in ("", *offered):
            raise FieldInvalid(TEAM + team, "choose one of the divisions the form offers")
    divisions = []
    for slot in offered:
        name = text_field(values, DIVISION + slot, f"division {slot}'s name")
        placed = tuple(t for t in ids if values.get(TEAM + t) == slot)
        if name or placed:
            divisions.append(Division(name=name, teams=placed))
    return divisions


@router.post(SEASON + "/start")
@needs("start_season")
async def start(request: Request, league: str, call: Calling) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> None:
        sent = start_of(reads.open_league(ledger, league), values)
        reason = reason_of(values, "reason", "the start")
        valid(lambda: ledger.handle(sent, by=by, reason=reason))

    return await written(
        Sent(request, league, call, values), command, START_FIELDS, start_form, "started"
    )
