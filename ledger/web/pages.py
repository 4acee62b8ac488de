"""The service's web pages (issue 12, point 7): server-rendered Jinja2, no script.

Reading pages: the site's leagues, a league's home (standings with tie-breakers, this
round's fixtures, latest results, pending reports for members), a team, a player, a
match, the audit trail. Each is guarded like the API (``guard.needs``: who may read the
league, before anything is read) and reads the read models as they stand
(``pages_reads``); the match page is ``pages_match``. The forms are in ``pages_forms``
(buy, correct), ``pages_hire`` (hire) and
``pages_report`` (the match report workflow), ``pages_sign`` (signing a hireling after his
game), ``pages_roster`` (firing, retiring, letting staff go), ``pages_redraft`` (the
re-draft between seasons), ``pages_inducements`` (a fixture's inducements),
``pages_fees`` (a game's appearance fees), ``pages_register`` (registering a team),
``pages_admin`` (the site admin's: creating a league, accounts), ``pages_members`` (a
league's roles and visibility), ``pages_seasons`` (the commissioner's seasons: start,
schedule, play-offs, close), ``pages_stars`` (the star draft of long-term contracts); a
refusal is a page with the reason (``pages_render.PageRoute``). docs/service.md, section
"Pages", lists them all.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from ledger.application import submissions
from ledger.domain.state import MatchRow, SubmissionRow, TeamRow, lasting_injuries
from ledger.domain.values import MAX_NUMBER
from ledger.errors import LedgerError, UnknownTeam
from ledger.reports.render import FORMATS, Format
from ledger.reports.service import report_format
from ledger.rules import ruleset_class
from ledger.web import (
    pages_account,
    pages_admin,
    pages_advance,
    pages_answers,
    pages_close,
    pages_correct,
    pages_correct_report,
    pages_fees,
    pages_fixtures,
    pages_forms,
    pages_hire,
    pages_inducements,
    pages_leaders,
    pages_match,
    pages_members,
    pages_password,
    pages_redraft,
    pages_register,
    pages_report,
    pages_roster,
    pages_seasons,
    pages_sign,
    pages_stars,
    pages_whatif,
)
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_render import (
    PageRoute,
    ledger_of,
    may,
    may_submit,
    page,
    role_named,
    shown_league,
    who,
)
from ledger.web.pages_season_start import SEASON_DONE
from ledger.web.problems import LAST_EVENT

router = APIRouter(route_class=PageRoute, include_in_schema=False)

STATIC = {
    "report.css": ("ledger.reports", "templates/style.css", "text/css"),
    "site.css": ("ledger.web", "static/site.css", "text/css"),
    "favicon.svg": ("ledger.web", "static/favicon.svg", "image/svg+xml"),
}
"""The files served, by name: the season report's style sheet (one look for both), the
pages' own and the site's icon. Only these names are served; no part of a path reaches
the file system."""


@router.get("/static/{name}")
def static(name: str) -> Response:
    if name not in STATIC:
        return Response("not found", status_code=404, media_type="text/plain")
    package, path, media_type = STATIC[name]
    text = files(package).joinpath(path).read_text(encoding="utf-8")
    return Response(text, media_type=media_type, headers={"Cache-Control": "max-age=300"})


@router.get("/favicon.ico")
def favicon() -> Response:
    """The icon, for what asks for it where browsers always looked (a page's own ``<link
    rel="icon">`` names /static/favicon.svg): never a 404 in a browser's console."""
    return static("favicon.svg")


@router.get("/login")
def login_form(
    request: Request, next: str = "/", account: str = "", ended: bool = False
) -> HTMLResponse:
    """The sign-in form; it posts to ``auth.login`` with the login form's CSRF token.
    ``ended``: a page was asked with a session that no longer exists (said, so that a coach
    whose password an admin set knows why)."""
    return page(
        request,
        "login.html.j2",
        title="Sign in",
        next=next[:500],
        account=account[:64],
        error="",
        ended=ended,
    )


@router.get("/")
def home(request: Request, signed_out: bool = False) -> HTMLResponse:
    """The leagues the visitor may read (public ones, and those of the account);
    ``signed_out`` (where signing out lands), saying so while no one is signed in."""
    me = who(request)
    leagues = [row for row in ledger_of(request).leagues() if may(me, row, "read")]
    editions = {row.ruleset: edition_name(row.ruleset) for row in leagues}
    return page(
        request,
        "home.html.j2",
        title="Leagues",
        leagues=leagues,
        editions=editions,
        signed_out=signed_out and me is None,
    )


def edition_name(ruleset: str) -> str:
    """A league's edition by its name (``Blood Bowl 2025, Third Season``), its id where
    the registry no longer knows it."""
    try:
        return ruleset_class(ruleset).name
    except LedgerError:
        return ruleset


@router.get("/leagues/{league}")
@needs("read", remembered=True)
def league_home(request: Request, league: str, done: str = "") -> HTMLResponse:
    """``done``: the season step just taken (the season forms land here saying so)."""
    found = shown_league(request, league)
    me = who(request)
    fixtures = reads.this_round(found)
    teams = sorted(found.queries.teams(), key=lambda t: t.name)
    return page(
        request,
        "league.html.j2",
        title=found.row.name,
        league=found,
        role=role_named(request),
        standings=found.queries.standings(),
        fixtures=fixtures,
        round_name=reads.round_name(fixtures),
        may_submit=submittable(request, found, fixtures),
        results=reads.latest_results(found),
        pending=pending(request, found) if role_named(request) else None,
        names={t.team_id: t.name for t in teams},
        teams=teams,
        my_teams=me.teams_in(league) if me else (),
        may_report=any(may(me, found.row, "submit_report", t.team_id) for t in teams),
        may_register=may(me, found.row, "register_team"),
        downloads=downloads(found),
        may_grant=may(me, found.row, "grant"),
        star_draft=pages_stars.draft_now(found),
        done=SEASON_DONE.get(done, ""),
        prizes=reads.prizes_of_last_close(found) if done == "closed" else [],
        **pages_seasons.league_season(request, found),
    )


def submittable(request: Request, league: reads.League, fixtures: list[MatchRow]) -> set[str]:
    """The fixtures whose report the account may submit now: not one whose report waits
    for an answer (``_match_line`` links that report instead)."""
    waiting = reads.waiting_reports(league)
    return {
        m.match_id
        for m in fixtures
        if m.match_id not in waiting and may_submit(request, league, m.home, m.away, *m.others)
    }


def pending(request: Request, league: reads.League) -> list[SubmissionRow]:
    """Reports waiting for an answer or a decision: shown to the league's members."""
    return submissions.listed(league.view, league.row.league_id, submissions.PENDING)


FORMAT_LABELS: dict[Format, str] = {
    "html": "HTML (one page, opens offline)",
    "md": "Markdown",
    "json": "JSON",
    "csv": "CSV tables (zip)",
}


def downloads(league: reads.League) -> list[tuple[int, list[tuple[str, str]]]]:
    """Each season's report in each of its formats, the latest first: a season closed
    stays downloadable once the next has started."""
    numbers = sorted(league.queries.seasons(), reverse=True)
    base = f"/leagues/{league.slug}/season-report"
    return [
        (
            number,
            [
                (FORMAT_LABELS[fmt], f"{base}.{fmt}" + ("" if n == 0 else f"?season={number}"))
                for fmt in FORMATS
            ],
        )
        for n, number in enumerate(numbers)
    ]


@router.get("/leagues/{league}/season-report.{fmt}")
@needs("read", remembered=True)
def season_report(
    request: Request,
    league: str,
    fmt: str,
    season: Annotated[int | None, Query(ge=1, le=MAX_NUMBER)] = None,
) -> Response:
    """A season's report (the latest unless ``season`` names one), as ``ledger report
    --format FMT`` writes it."""
    chosen = report_format(fmt, None)  # html, md, json, csv; else UnknownReportFormat
    found = shown_league(request, league)
    made = reads.season_report(ledger_of(request), found, chosen, season)
    disposition = f'attachment; filename="{made.filename}"'
    return Response(
        made.content, media_type=made.media_type, headers={"Content-Disposition": disposition}
    )


@router.get("/leagues/{league}/teams/{team}")
@needs("read", remembered=True)
def team_page(
    request: Request,
    league: str,
    team: str,
    bought: bool = False,
    registered: bool = False,
    done: bool = False,
) -> HTMLResponse:
    """A team; just ``bought`` from (where the buy form lands), saying what the purchase
    was and what the treasury holds after it; just ``registered`` (where the register form
    lands), saying what comes next; ``done`` (where firing, retiring and letting staff go
    land), saying what was recorded."""
    found = shown_league(request, league)
    roster = found.queries.roster(team)
    me = who(request)
    treasury = found.queries.treasury(team)
    history = found.queries.history(f"team:{team}")
    return page(
        request,
        "team.html.j2",
        title=roster.team.name,
        crumbs=reads.crumbs(found),
        league=found,
        roster=roster,
        targets=found.ruleset.characteristic_targets,
        treasury=treasury,
        purchase=treasury[-1] if bought and treasury and may(me, found.row, "buy", team) else None,
        registered=registered and may(me, found.row, "register_team"),
        done=reads.just_done(history[-1] if done and history else None, me),
        history=history,
        results=reads.latest_results(found, team),
        names=found.team_names(),
        may_hire=may(me, found.row, "hire", team),
        may_buy=may(me, found.row, "buy", team),
        may_redraft=may(me, found.row, "redraft", team) and pages_redraft.offered(found, team),
        pending=[s for s in pending(request, found) if team in (s.home, s.away, *s.others)]
        if role_named(request)
        else None,
        my_teams=me.teams_in(league) if me else (),
    )


@router.get("/leagues/{league}/players/{player}")
@needs("read", remembered=True)
def player_page(
    request: Request, league: str, player: str, hired: bool = False, advanced: bool = False
) -> HTMLResponse:
    """A player; just ``hired`` (where the hire form lands), with a link to hire another;
    just ``advanced`` (where the advancement form lands), saying what he took."""
    found = shown_league(request, league)
    row = found.queries.player(player)
    games = found.queries.player_games(row.player_id)
    me, team = who(request), found.queries.team(row.team_id)
    return page(
        request,
        "player.html.j2",
        title=row.name,
        crumbs=[
            *reads.crumbs(found),
            (team_name(found, row.team_id), team_href(found, row.team_id)),
        ],
        league=found,
        player=row,
        team_name=team_name(found, row.team_id),
        targets=found.ruleset.characteristic_targets,
        games=games,
        opponents=reads.opponents(found, games),
        injuries=[g for g in games if g.injury],
        lasting=lasting_injuries(row),
        history=found.queries.history(f"player:{row.player_id}"),
        may_advance=may(me, found.row, "advance", row.team_id)
        and pages_close.may_advance(found, team, row),
        hired=hired and may(me, found.row, "hire", row.team_id),
        advanced=advanced and bool(row.advancements) and may(me, found.row, "advance", row.team_id),
        moves=pages_roster.player_moves(request, found, row),
    )


def team_name(league: reads.League, team: str) -> str:
    row = league.view.get(TeamRow, league.row.league_id, team)
    if row is None:
        raise UnknownTeam(f"no team '{team}' in league {league.slug}")
    return row.name


def team_href(league: reads.League, team: str) -> str:
    return f"/leagues/{league.slug}/teams/{team}"


@router.get("/leagues/{league}/audit")
@needs("read")
def audit_page(
    request: Request,
    league: str,
    before: Annotated[int | None, Query(ge=1, le=LAST_EVENT)] = None,
    corrected: Annotated[int | None, Query(ge=1, le=LAST_EVENT)] = None,
) -> HTMLResponse:
    """``corrected``: the event a correction just amended or voided (the correction page
    lands here saying so)."""
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    return page(
        request,
        "audit.html.j2",
        title="Audit trail",
        crumbs=reads.crumbs(found),
        league=found,
        audit=reads.audit(ledger, found, before),
        may_correct=may(who(request), found.row, "correct"),
        corrected=corrected,
    )


router.include_router(pages_match.router)  # its match before the match's own forms
router.include_router(pages_forms.router)
router.include_router(pages_correct.router)
router.include_router(pages_admin.router)
router.include_router(pages_account.router)
router.include_router(pages_members.router)
router.include_router(pages_hire.router)
router.include_router(pages_report.router)
router.include_router(pages_correct_report.router)
router.include_router(pages_answers.router)
router.include_router(pages_whatif.router)
router.include_router(pages_close.router)
router.include_router(pages_advance.router)
router.include_router(pages_sign.router)
router.include_router(pages_password.router)
router.include_router(pages_leaders.router)
router.include_router(pages_fixtures.router)
router.include_router(pages_stars.router)
router.include_router(pages_roster.router)
router.include_router(pages_redraft.router)
router.include_router(pages_inducements.router)
router.include_router(pages_fees.router)
router.include_router(pages_seasons.router)
router.include_router(pages_register.router)
