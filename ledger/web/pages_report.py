"""The match report forms: a coach enters a game's report (pick-lists from both rosters,
the dice the league's rules ask for), the opposing coach confirms or disputes it, the
commissioner approves or rejects it (ledger/application/submissions.py, the same steps as
``ledger submission ...``; the answers are in ``pages_answers``).

A report is entered for a scheduled fixture (``/matches/{match}/report``) or for a game
played without one (``/report``: first the two teams, then the form). The form's fields
become the documented report format (docs/match-report.md; ``pages_report_form`` reads
them) and go through the same
``MatchReport`` model and checks as a report file; every rule is the command's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, get_args

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application import commands as cmd
from ledger.application import matches, submissions
from ledger.application.access import authorize
from ledger.application.match_sides import unavailable
from ledger.application.service import LeagueLedger
from ledger.domain.state import MatchRow, PlayerRow, TeamRow
from ledger.domain.values import (
    CasualtyCause,
    Hireling,
)
from ledger.errors import LedgerError, NotAllowed
from ledger.projections.match_applier import unrecorded
from ledger.web import pages_fees
from ledger.web import pages_reads as reads
from ledger.web.guard import Call, needs, team_names
from ledger.web.pages_forms import (
    Calling,
    Errors,
    FieldInvalid,
    errors_of,
    see_other,
    values_of,
)
from ledger.web.pages_reads import Game
from ledger.web.pages_render import PageRoute, ledger_of, may, page, who
from ledger.web.pages_report_form import Rows, form_values, line_stats, report_of
from ledger.web.pages_report_mistakes import REPORT_FIELDS, FormReport, unwritten_mistakes
from ledger.web.problems import status_of
from ledger.words import ordinal

router = APIRouter(route_class=PageRoute, include_in_schema=False)


CAUSES: tuple[str, ...] = get_args(CasualtyCause)
HIRELING_KINDS: tuple[str, ...] = get_args(Hireling.model_fields["kind"].annotation)
KINDS = ("league", "friendly", "exhibition")
"""What a game entered without a fixture may count as (play-offs are scheduled)."""


@dataclass(frozen=True)
class Side:
    """One team's part of the report form: its pick-list is its roster."""

    key: str
    team: TeamRow
    players: list[PlayerRow]
    """Those who may play: not temporarily retired, not missing this game (a report
    naming one is refused, so the pick-list does not offer him)."""
    positions: list[tuple[str, str]]
    """The team list's positions (id, name): what a journeyman or mercenary plays as."""
    stars: list[tuple[str, str, int]]
    """The stars (id, name, price) a star hireling of the side may be: those the edition
    lets it field in this game (``Ruleset.report_stars``), else all of the edition's."""

    def hireling(self, row: int) -> str:
        """The id a hireling row of the form has in the report (``home-h1``)."""
        return f"{self.key}-h{row + 1}"

    @property
    def label(self) -> str:
        """The side as its fieldset names it: home, away, or the third team and on."""
        if self.key in ("home", "away"):
            return self.key
        return f"{ordinal(int(self.key.removeprefix('other')) + 2)} team"


@router.get("/leagues/{league}/submissions/{submission}/again")
@needs("submit_report", team_in_body=True)
def corrected_form(request: Request, league: str, submission: str) -> HTMLResponse:
    """A rejected or withdrawn report's form, filled as it was sent, for its team to
    correct and send again: such a report is not recorded, and the coach need not enter it
    anew."""
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    row = submissions.find(ledger, league, submission)
    if row.status not in submissions.SENT_AGAIN:
        raise NotAllowed(
            f"report {submission} is {row.status}: only a rejected or withdrawn one is sent again"
        )
    match = found.view.get(MatchRow, found.row.league_id, row.match_id)
    values = {"home": row.home, "away": row.away, "kind": row.report.get("kind", "league")}
    game = reads.game_of(match) if match is not None else game_from(found, values)
    game = replace(game, match=row.match_id)
    # the report's own team corrects it (the opponent may report the game, not fill this)
    authorize(
        who(request),
        found.slug,
        "submit_report",
        team=row.team,
        public=found.row.public,
        team_said=team_names(request, found.row),
    )
    values = form_values(row.report, game)
    if row.roll_missing:  # asked of the submission (its event), not written in its report
        values["roll_missing"] = "1"
    return report_form(request, league, game, values, {})


def report_form(
    request: Request,
    league: str,
    game: Game,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
    correcting: Any = None,
) -> HTMLResponse:
    """The report form for ``game``; ``correcting``: a recorded report's correction
    (``pages_correct_report.Correcting``: its event, where it is sent, the match's page)."""
    found = reads.open_league(ledger_of(request), league)
    fixture = reads.match_row(found, game.match) if game.fixture else None
    named = correcting.named if correcting else frozenset()
    sides = [side(found, key, team, fixture, values, named) for key, team in game.sides()]
    names = found.team_names()
    return page(
        request,
        "report.html.j2",
        status=status,
        title="Match report",
        crumbs=reads.crumbs(found),
        league=found,
        game=game,
        action=correcting.action if correcting else action_of(found, game),
        correcting=correcting,
        sides=sides,
        acting_for=names.get(submitter(request, found, game), "the commissioner"),
        names=names,
        dice=reads.report_dice(found, game),
        dice_when=reads.dice_when(found, game),
        causes=CAUSES,
        kinds=KINDS,
        hireling_kinds=HIRELING_KINDS,
        concessions=found.ruleset.concession_kinds,
        rows=Rows.of(values),
        line_stats=line_stats(found.ruleset),
        referees=found.ruleset.referees,
        reads_stalling=found.ruleset.reads_stalling,
        star_list=bool(found.ruleset.catalogue.stars()),
        paying=[
            (names.get(team, team), pages_fees.fee_path(league, game.match, team, game))
            for team in pages_fees.paying(
                request, found, game.match, tuple(t for _, t in game.sides())
            )
        ],
        casualty_dice=list(found.ruleset.casualty_dice.items()),
        unclosed=[] if correcting else unclosed(request, found, game),
        values=values,
        errors=errors,
    )


def unclosed(request: Request, found: reads.League, game: Game) -> list[tuple[str, str, str]]:
    """The games of the report's teams whose post-game sequence is still open, which the
    command refuses the report for (``matches.check_post_game_closed``): said before the
    form is filled, each with its close form where the caller may close it (team name,
    game, link)."""
    if not found.ruleset.post_game_closes:
        return []
    me, names = who(request), found.team_names()
    said = []
    for team_id in (game.home, game.away, *game.others):
        team = found.queries.team(team_id)
        for match_id in team.open_games if team is not None else ():
            row = reads.match_row(found, match_id)
            path = f"/leagues/{found.slug}/matches/{match_id}/teams/{team_id}/close"
            mine = may(me, found.row, "close_post_game", team_id)
            said.append(
                (names.get(team_id, team_id), reads.match_title(row, names), path if mine else "")
            )
    return said


def side(
    league: reads.League,
    key: str,
    team: str,
    fixture: MatchRow | None,
    values: Mapping[str, str],
    named: frozenset[str] = frozenset(),
) -> Side:
    """``named``: players a corrected report names, offered whatever became of them since
    (killed in that very game, retired, fired)."""
    row = league.queries.team(team)
    positions = league.ruleset.catalogue.team_list(row.roster).positions
    players = [p for p in league.queries.roster(team).players if unavailable(p) is None]
    listed = {p.player_id for p in players}
    rows = (league.view.get(PlayerRow, league.row.league_id, p) for p in sorted(named - listed))
    players += [p for p in rows if p is not None and p.team_id == team]  # hirelings aside
    fielded = league.ruleset.report_stars(fixture, row) if fixture is not None else None
    if fielded is not None:  # a star the form was sent with stays chosen, to be refused
        sent = (v for k, v in values.items() if k.startswith(f"{key}-h") and k.endswith("-star"))
        fielded = (*fielded, *(v for v in sent if v and v not in fielded))
    stars = reads.star_choices(league, fielded)
    return Side(key, row, players, [(p.id, p.name) for p in positions], stars)


def action_of(league: reads.League, game: Game) -> str:
    if game.fixture:
        return f"/leagues/{league.slug}/matches/{game.match}/report"
    return f"/leagues/{league.slug}/report"


def submitter(request: Request, league: reads.League, game: Game) -> str:
    """The team the account submits for: one it coaches, else (a commissioner) home."""
    me = who(request)
    coached = me.teams_in(league.slug) if me else ()
    return next((t for _, t in game.sides() if t in coached), game.home)


def may_submit(request: Request, league: reads.League, game: Game) -> None:
    """Forbidden, saying why, unless the account may submit this game's report; checked
    before the form is shown, and by the command's route again on the POST."""
    team = submitter(request, league, game)
    authorize(
        who(request),
        league.slug,
        "submit_report",
        team=team,
        public=league.row.public,
        team_said=team_names(request, league.row),
    )


# --- a fixture's report ---------------------------------------------------------------------


@router.get("/leagues/{league}/matches/{match}/report")
@needs("submit_report", team_in_body=True)
def fixture_form(request: Request, league: str, match: str) -> Response:
    found = reads.open_league(ledger_of(request), league)
    row = reads.match_row(found, match)
    unrecorded(row)  # a played fixture has its report: the form would only be refused
    waiting = reads.waiting_reports(found).get(row.match_id)
    if waiting is not None:  # answered first: the form filled in would only be refused
        return see_other(f"/leagues/{league}/submissions/{waiting.submission}")
    game = reads.game_of(row)
    may_submit(request, found, game)
    return report_form(request, league, game, {}, {})


@router.post("/leagues/{league}/matches/{match}/report")
@needs("submit_report", team_in_body=True)
async def submit_fixture(request: Request, league: str, match: str, call: Calling) -> Response:
    values = await values_of(request)
    return await submitted(
        request,
        league,
        call,
        values,
        lambda found: reads.game_of(reads.match_row(found, match)),
    )


# --- a game without a fixture ---------------------------------------------------------------


@router.get("/leagues/{league}/report")
@needs("submit_report", team_in_body=True)
def game_form(
    request: Request,
    league: str,
    home: str = "",
    away: str = "",
    kind: str = "league",
    match: str = "",
) -> Response:
    """Without both teams, the choice of the game (this round's fixtures, or two teams),
    saying which is missing when the choice was sent; with them, the report form for that
    game."""
    found = reads.open_league(ledger_of(request), league)
    values = {"home": home, "away": away, "kind": kind, "match": match}
    if not home or not away:
        sent = {"home", "away"} & request.query_params.keys()
        errors = unchosen(values) if sent else {}
        return choose_game(request, found, values, errors, 422 if errors else 200)
    try:
        game = game_from(found, values)
        may_submit(request, found, game)
    except LedgerError as error:
        return choose_game(request, found, values, errors_of(error, {}), status_of(error))
    teams = (game.home, game.away, *game.others)
    twin = reads.waiting_reports(found).get(game.match) or submissions.waiting_twin(
        found.view, found.row.league_id, teams, game.match
    )
    if twin is not None:  # answered first: a second report of the game would be refused
        return see_other(f"/leagues/{league}/submissions/{twin.submission}")
    return report_form(request, league, game, {"match": game.match}, {})


def unchosen(values: Mapping[str, str]) -> Errors:
    """The teams the choice was sent without, each said beside its pick-list."""
    code = FieldInvalid.code
    return {
        side: (code, f"choose the {side} team") for side in ("home", "away") if not values.get(side)
    }


def choose_game(
    request: Request,
    league: reads.League,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    me = who(request)
    teams = sorted(league.queries.teams(), key=lambda t: t.name)
    fixtures = [
        m
        for m in reads.this_round(league)
        if any(may(me, league.row, "submit_report", t) for t in (m.home, m.away))
    ]
    coached = me.teams_in(league.slug) if me else ()
    return page(
        request,
        "choose_game.html.j2",
        status=status,
        title="Which game?",
        crumbs=reads.crumbs(league),
        league=league,
        fixtures=fixtures,
        waiting=reads.waiting_reports(league),
        my_teams=coached,
        names=league.team_names(),
        proposed=coached[0] if len(coached) == 1 else "",
        teams=teams,
        kinds=KINDS,
        values=values,
        errors=errors,
    )


def game_from(league: reads.League, values: Mapping[str, str]) -> Game:
    """The game the form names: two different teams of the league, what it counts for,
    and its id (one the ledger proposes unless the coach gives one)."""
    home, away = values.get("home", ""), values.get("away", "")
    kind = values.get("kind", "league")
    league.queries.team(home), league.queries.team(away)  # UnknownTeam, saying which exist
    if home == away:
        raise FieldInvalid("away", "a team does not play itself: choose its opponent")
    if kind not in KINDS:
        raise FieldInvalid("kind", f"a game without a fixture is {', '.join(KINDS)}")
    season = league.row.current_season or None
    match = values.get("match", "").strip() or matches.free_match_id(league.view, league.row)
    return Game(match, home, away, kind, season if kind == "league" else None, None, False)


@router.post("/leagues/{league}/report")
@needs("submit_report", team_in_body=True)
async def submit_game(request: Request, league: str, call: Calling) -> Response:
    values = await values_of(request)
    return await submitted(request, league, call, values, lambda found: game_from(found, values))


# --- submitting ----------------------------------------------------------------------------


async def submitted(
    request: Request,
    league: str,
    call: Call,
    values: Mapping[str, str],
    game_in: Callable[[reads.League], Game],
) -> Response:
    """Submit the report the form holds, as the account, for the team it coaches; the
    form again when refused, with every mistake of the report beside its field: the
    form's own (a figure that is not a number) and the command's, found together
    (``pages_report_mistakes``)."""
    if values.get("more") == "rows":  # nothing written: the form again, longer, as filled
        return await run_in_threadpool(more_rows, request, league, values, game_in)
    games: list[Game] = []
    forms: list[FormReport] = []

    def command(ledger: LeagueLedger, by: str) -> str:
        found = reads.open_league(ledger, league)
        games[:] = [game_in(found)]  # a retry reads the league again: its game, its form
        dice = reads.report_dice(found, games[0])
        forms[:] = [report_of(values, games[0], dice, found)]
        form = forms[0]
        if form.report is None:  # nothing of it holds: the form's mistakes say why
            raise form.refusal([])
        team = submissions.submitting_team(call.principal, league, form.report)
        call.authorize_team("submit_report", team)
        roll = values.get("roll_missing") == "1"
        submit = cmd.SubmitReport(league, team, form.report, roll_missing=roll)
        if form.errors:  # the command's mistakes too, found without writing anything
            raise form.refusal(unwritten_mistakes(ledger, submit, form.lines_left_out))
        return ledger.handle(submit, by=by)

    try:
        submission = await run_in_threadpool(call.write, command)
    except LedgerError as error:
        if not games:  # the game itself was refused (an unknown team): choose again
            raise
        shown = replace(games[0], match=values.get("match") or games[0].match)
        errors = forms[0].shown(error) if forms else errors_of(error, REPORT_FIELDS)
        return await run_in_threadpool(
            report_form, request, league, shown, values, errors, status_of(error)
        )
    return see_other(f"/leagues/{league}/submissions/{submission}")


def more_rows(
    request: Request,
    league: str,
    values: Mapping[str, str],
    game_in: Callable[[reads.League], Game],
) -> HTMLResponse:
    found = reads.open_league(ledger_of(request), league)
    game = game_in(found)
    shown = replace(game, match=values.get("match") or game.match)
    grown = {**values, **Rows.of(values).more().fields()}
    return report_form(request, league, shown, grown, {})
