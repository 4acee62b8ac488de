"""Correcting a recorded match's report whole (``/leagues/{league}/matches/{match}/correct``,
the commissioner's; the match page links it): the report form, filled with the report as
it stands (``restated.report_of_match``, its latest amendment applied), for the
commissioner to change what the sheet got wrong (a casualty's cause, who scored, a die)
and give the reason. It runs ``ledger correct N --report``'s command (``CorrectMatch``):
the corrected report is checked as a report is, against the league as it stood before the
game, and recorded as one more event amending only what differs; sent unchanged, nothing
is amended and the form says so.

What the report's own checks decide (who played, the score, the casualties, the dice) can
only be corrected so: the event's correction page (``/events/{seq}/correct``) voids the
report or amends the fields no check reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.commands import CorrectMatch
from ledger.application.reports import MatchReport
from ledger.application.restated import renamed, report_of_match
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.state import MatchRow
from ledger.errors import LedgerError, NotAllowed
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_forms import (
    Calling,
    Errors,
    FieldInvalid,
    errors_of,
    required,
    see_other,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of
from ledger.web.pages_report import report_form
from ledger.web.pages_report_form import Rows, form_values, report_of
from ledger.web.pages_report_mistakes import REPORT_FIELDS, FormReport
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)

PATH = "/leagues/{league}/matches/{match}/correct"


@dataclass(frozen=True)
class Correcting:
    """What the report form shows when it corrects a recorded report."""

    seq: int
    """The report's event."""
    action: str
    back: str
    """The match's page."""
    named: frozenset[str]
    """The players the report names: offered whatever became of them since."""
    closed_season: int | None = None
    """The game's season, when closed: a correction refolds its table, champion and
    prizes, which the form says before it is sent."""


def standing(ledger: LeagueLedger, found: reads.League, row: MatchRow) -> ev.MatchRecorded:
    """The match's report as it stands; refused for a match not played (or voided)."""
    if row.status != "played" or row.recorded_seq is None:
        raise NotAllowed(
            f"match {row.match_id} is {row.status}: only a played match's report is corrected"
        )
    history = found.queries.history(f"match:{row.match_id}")
    event, _ = reads.report_as_held(ledger, found, row, history)
    if event is None:
        raise NotAllowed(f"the report of match {row.match_id} cannot be read to be corrected")
    return event


def form_ids(event: ev.MatchRecorded, game: reads.Game) -> dict[str, str]:
    """Each hireling's id in the report -> his row of the form (``home-h1``), which is how
    the form names him (a report file gave him an id of its own)."""
    keys = (key for key, _ in game.sides())
    return {
        hireling.id: f"{key}-h{n}"
        for key, sheet in zip(keys, event.sheets(), strict=True)
        for n, hireling in enumerate(sheet.hirelings, start=1)
    }


def correcting(found: reads.League, row: MatchRow, event: ev.MatchRecorded) -> Correcting:
    back = f"/leagues/{found.slug}/matches/{row.match_id}"
    named = frozenset(event.named_players())
    season = found.queries.season_row(row.season) if row.season else None
    closed = row.season if season is not None and season.status == "closed" else None
    return Correcting(event.seq, f"{back}/correct", back, named, closed)


@router.get(PATH)
@needs("correct")
def correction_page(request: Request, league: str, match: str) -> HTMLResponse:
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    row = reads.match_row(found, match)
    event = standing(ledger, found, row)
    game = reads.game_of(row)
    values = form_values(renamed(report_of_match(event), form_ids(event, game)), game)
    shown = correcting(found, row, event)
    return report_form(request, league, game, values, {}, correcting=shown)


@router.post(PATH)
@needs("correct")
async def correct_report(request: Request, league: str, match: str, call: Calling) -> Response:
    values = await values_of(request)
    if values.get("more") == "rows":  # nothing written: the form again, longer, as filled
        grown = {**values, **Rows.of(values).more().fields()}
        return await run_in_threadpool(shown_again, request, league, match, grown, {}, 200)
    forms: list[FormReport] = []

    def command(ledger: LeagueLedger, by: str) -> None:
        found = reads.open_league(ledger, league)
        row = reads.match_row(found, match)
        event = standing(ledger, found, row)
        game = reads.game_of(row)
        forms[:] = [report_of(values, game, reads.report_dice(found, game), found)]
        forms[0].ledger_rolls = False  # no box for the ledger to roll: the dice are given
        reason = required(values, "reason", "a correction needs a reason: it is kept in the log")
        if forms[0].report is None or forms[0].errors:
            raise forms[0].refusal([])
        back = {at: given for given, at in form_ids(event, game).items()}
        sent = renamed(forms[0].report.model_dump(mode="json", exclude_none=True), back)
        corrected = CorrectMatch(league, event.seq, MatchReport.model_validate(sent))
        ledger.handle(corrected, by=by, reason=reason)

    try:
        await run_in_threadpool(call.write, command)
    except LedgerError as error:
        return await run_in_threadpool(refused, request, league, match, values, error, forms)
    return see_other(f"/leagues/{league}/matches/{match}?corrected=1")


def refused(
    request: Request,
    league: str,
    match: str,
    values: Mapping[str, str],
    error: LedgerError,
    forms: list[FormReport],
) -> HTMLResponse:
    """The form again as sent, every mistake beside its field (the reason's by its own)."""
    if isinstance(error, FieldInvalid) and error.field == "reason":
        errors = {"reason": (error.code, error.message)}
    else:
        errors = forms[0].shown(error) if forms else errors_of(error, REPORT_FIELDS)
    return shown_again(request, league, match, values, errors, status_of(error))


def shown_again(
    request: Request,
    league: str,
    match: str,
    values: Mapping[str, str],
    errors: Errors,
    status: int,
) -> HTMLResponse:
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    row = reads.match_row(found, match)
    shown = correcting(found, row, standing(ledger, found, row))
    return report_form(request, league, reads.game_of(row), values, errors, status, shown)
