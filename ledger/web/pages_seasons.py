"""The commissioner runs the league's seasons from pages: starts the next one with its
divisions, schedules its round robin, draws its play-offs and closes it, as ``ledger
season start|schedule|playoffs|close`` and the API's ``.../season/...`` do
(``StartSeason``, ``ScheduleSeason``, ``SchedulePlayoffs``, ``CloseSeason``).

What a page shows is the command's own answer, asked of the league as it stands and
recorded nowhere (``planned``: its plan, run): the fixtures a round robin or a play-off
draw would make, or the sentence it would refuse with, shown instead of the button. The
league's home names the next step the same way (``league_season``). A refused POST is the
form again, as filled, with the command's sentence beside its field; done, the league's
home. Every rule is the command's. The start form is in ``pages_season_start``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from ledger.application.commands import CloseSeason, Command, SchedulePlayoffs, ScheduleSeason
from ledger.application.context import Context
from ledger.application.seasons import owes_playoffs
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.state import MatchRow, SeasonRow
from ledger.domain.values import Fixture
from ledger.reports.results import season_champion
from ledger.rules.protocol import Feature
from ledger.web import pages_reads as reads
from ledger.web import pages_season_start, pages_stars
from ledger.web.guard import needs
from ledger.web.pages_forms import Calling, Errors, dry_run, reason_of, values_of, whole
from ledger.web.pages_render import PageRoute, ledger_of, may, page, who
from ledger.web.pages_season_start import SEASON, Sent, not_open, season_of, written

router = APIRouter(route_class=PageRoute, include_in_schema=False)
router.include_router(pages_season_start.router)

LEGS = {1: "Once", 2: "Twice: home and away", 3: "Three times", 4: "Four times"}
"""Times each pair meets, as the schedule form offers them (``ledger season schedule
--legs``)."""


# --- the command's answer, recorded nowhere -------------------------------------------------


@dataclass(frozen=True)
class Planned:
    """What a command would do now: the fixtures it would schedule, or its sentence."""

    fixtures: tuple[Fixture, ...]
    refused: str


def planned(ledger: LeagueLedger, found: reads.League, command: Command[Any]) -> Planned:
    """The command's plan run on the league as the page shows it (the guard's row)."""
    context = Context(view=found.view, league=found.row, ruleset=found.ruleset)
    drafts, refused = dry_run(ledger, command, context)
    scheduled = (e for e in drafts if isinstance(e, ev.FixturesScheduled))
    return Planned(tuple(f for e in scheduled for f in e.fixtures), refused)


# --- the league's home ----------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """A step the league's home offers the commissioner: its page, or the command's
    sentence when it would refuse it now (shown, not offered)."""

    label: str
    href: str
    refused: str = ""


def league_season(request: Request, found: reads.League) -> dict[str, Any]:
    """What the league's home says of the current season: whether it is closed, its
    champion once known, and the commissioner's next step."""
    season = season_of(found)
    return {
        "season_closed": season is not None and season.status == "closed",
        "champion": champion_of(found, season),
        "commissioner_actions": next_steps(request, found, season),
    }


def champion_of(found: reads.League, season: SeasonRow | None) -> str | None:
    """The season report's champion: its trophy holder, else its final's winner."""
    if season is None:
        return None
    finals = () if season.trophy_holder else final_of(found, season.season)
    return season_champion(season, finals)


def final_of(found: reads.League, season: int) -> list[MatchRow]:
    league = found.row.league_id
    return list(found.view.select(MatchRow, league_id=league, season=season, stage="final"))


def next_steps(request: Request, found: reads.League, season: SeasonRow | None) -> list[Step]:
    """Start a season when none is open; schedule one with no fixtures; once every
    fixture is played, the play-offs' next round (where the command would draw one) and
    the close (or why not). Nothing while games wait to be played."""
    me, ledger, base = who(request), ledger_of(request), f"/leagues/{found.slug}/season"
    if not may(me, found.row, "start_season"):  # the commissioner's and an admin's
        return []
    if season is None or not not_open(season):  # none yet, or the last one closed
        return [Step("Start a season", f"{base}/start")]
    draft = pages_stars.draft_now(found)
    first = (
        [Step("Set the star draft order", f"{base}/star-draft")]
        if draft and not draft.order
        else []
    )
    if not planned(ledger, found, ScheduleSeason(found.slug)).refused:
        return [*first, Step("Make the schedule", f"{base}/schedule")]
    if first:
        return first
    if found.queries.fixtures(season.season):
        return []
    steps = []
    draw = draw_of(ledger, found)
    if not draw.refused:
        steps.append(Step(draw.label, f"{base}/playoffs"))
    close = planned(ledger, found, CloseSeason(found.slug, without_playoffs=True))
    return [*steps, Step("Close the season", f"{base}/close", close.refused)]


@dataclass(frozen=True)
class Draw:
    """The play-offs' next draw, as the command would make it: the knock-out's round, and
    on the first round the other way to play them, one Dungeon Bowl final of all the
    qualifiers (which takes any number of them: a knock-out halves to a final of two)."""

    knockout: Planned
    bowl: Planned

    @property
    def refused(self) -> str:
        """The sentence when neither would be drawn ("" when one would)."""
        return self.knockout.refused if self.bowl.refused else ""

    @property
    def dungeon(self) -> tuple[str, ...]:
        """The teams of the Dungeon Bowl final, when it may be asked for: a first round of
        more than two qualifiers, or one no knock-out can be drawn for."""
        teams = self.bowl.fixtures[0].teams if self.bowl.fixtures else ()
        return teams if len(teams) > 2 or not self.knockout.fixtures else ()

    @property
    def label(self) -> str:
        if not self.knockout.fixtures:
            return "Draw the Dungeon Bowl final"
        first = self.knockout.fixtures[0]
        return "Start the play-offs" if first.round == 1 else f"Draw the {first.stage}"


def draw_of(ledger: LeagueLedger, found: reads.League) -> Draw:
    return Draw(
        planned(ledger, found, SchedulePlayoffs(found.slug)),
        planned(ledger, found, SchedulePlayoffs(found.slug, dungeon_bowl=True)),
    )


def named(season: SeasonRow | None, what: str) -> str:
    return f"{what} season {season.season}" if season else f"{what} the season"


# --- schedule ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundRobin:
    """One division's round robin, one leg of it, as the command would make it."""

    division: str
    teams: tuple[str, ...]
    rounds: int
    fixtures: int


def round_robins(season: SeasonRow | None, fixtures: Sequence[Fixture]) -> list[RoundRobin]:
    return [
        RoundRobin(
            d.name,
            d.teams,
            max((f.round for f in fixtures if f.division == d.name), default=0),
            sum(1 for f in fixtures if f.division == d.name),
        )
        for d in (season.divisions if season else ())
    ]


def schedule_form(
    request: Request, league: str, values: Mapping[str, str], errors: Errors, status: int = 200
) -> HTMLResponse:
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    season = season_of(found)
    one_leg = planned(ledger, found, ScheduleSeason(league))
    return page(
        request,
        "season_schedule.html.j2",
        status=status,
        title=named(season, "Schedule"),
        crumbs=reads.crumbs(found),
        league=found,
        season=season,
        refused=one_leg.refused,
        divisions=round_robins(season, one_leg.fixtures),
        legs=LEGS,
        names=found.team_names(),
        values=values,
        errors=errors,
    )


@router.get(SEASON + "/schedule")
@needs("schedule")
def schedule_page(request: Request, league: str) -> HTMLResponse:
    return schedule_form(request, league, {}, {})


@router.post(SEASON + "/schedule")
@needs("schedule")
async def schedule(request: Request, league: str, call: Calling) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> None:
        legs = whole(values.get("legs", "1").strip(), "legs", "times each pair meets", 1, 4)
        reason = reason_of(values, "reason", "the schedule")
        ledger.handle(ScheduleSeason(league, legs=legs), by=by, reason=reason)

    return await written(
        Sent(request, league, call, values), command, {}, schedule_form, "scheduled"
    )


# --- the play-offs ----------------------------------------------------------------------------


def playoffs_form(
    request: Request, league: str, values: Mapping[str, str], errors: Errors, status: int = 200
) -> HTMLResponse:
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    season = season_of(found)
    draw = draw_of(ledger, found)
    return page(
        request,
        "season_playoffs.html.j2",
        status=status,
        title=named(season, "Play-offs of"),
        crumbs=reads.crumbs(found),
        league=found,
        season=season,
        refused=draw.refused,
        draw=draw,
        names=found.team_names(),
        values=values,
        errors=errors,
    )


@router.get(SEASON + "/playoffs")
@needs("draw_playoffs")
def playoffs_page(request: Request, league: str) -> HTMLResponse:
    return playoffs_form(request, league, {}, {})


@router.post(SEASON + "/playoffs")
@needs("draw_playoffs")
async def playoffs(request: Request, league: str, call: Calling) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> None:
        dungeon_bowl = values.get("dungeon_bowl") == "1"
        reason = reason_of(values, "reason", "the draw")
        ledger.handle(SchedulePlayoffs(league, dungeon_bowl=dungeon_bowl), by=by, reason=reason)

    return await written(
        Sent(request, league, call, values), command, {}, playoffs_form, "playoffs"
    )


# --- close ------------------------------------------------------------------------------------


def close_form(
    request: Request, league: str, values: Mapping[str, str], errors: Errors, status: int = 200
) -> HTMLResponse:
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    season = season_of(found)
    owes = season is not None and owes_playoffs(season, found.queries.matches(season.season))
    closing = planned(ledger, found, CloseSeason(league, without_playoffs=owes))
    return page(
        request,
        "season_close.html.j2",
        status=status,
        title=named(season, "Close"),
        crumbs=reads.crumbs(found),
        league=found,
        season=season,
        refused=closing.refused,
        owes=owes,
        standings=found.queries.standings(season.season) if season else None,
        redrafts=Feature.REDRAFT in found.ruleset.features,
        values=values,
        errors=errors,
    )


@router.get(SEASON + "/close")
@needs("close_season")
def close_page(request: Request, league: str) -> HTMLResponse:
    return close_form(request, league, {}, {})


@router.post(SEASON + "/close")
@needs("close_season")
async def close(request: Request, league: str, call: Calling) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> None:
        without = values.get("without_playoffs") == "1"
        reason = reason_of(values, "reason", "the close")
        ledger.handle(CloseSeason(league, without_playoffs=without), by=by, reason=reason)

    return await written(Sent(request, league, call, values), command, {}, close_form, "closed")
