"""A what-if job's page (``pages_whatif`` asks the jobs): the comparison and the
distributions once done, reloading itself (``<meta http-equiv="refresh">``) until then;
*Cancel* while a job is queued or running, for those ``DELETE /api/jobs/{id}`` lets cancel
it; and how the figures read, as ``ledger whatif`` prints them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.access import Principal
from ledger.errors import InvalidInput, LedgerError, Unauthenticated
from ledger.rules.protocol import Ruleset
from ledger.web import pages_reads as reads
from ledger.web.api_whatif import cancel_role, canceller, jobs_of
from ledger.web.guard import needs
from ledger.web.jobs import Job, UnknownJob
from ledger.web.pages_forms import (
    see_other,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, page, who
from ledger.web.problems import status_of
from ledger.whatif.compare import Comparison, Edition, TeamComparison, TeamFigures
from ledger.whatif.divergence import POLICIES
from ledger.whatif.montecarlo import Distributions, TeamDistribution
from ledger.whatif.spec import said, target_ruleset
from ledger.words import ordinal

router = APIRouter(route_class=PageRoute, include_in_schema=False)

REFRESH = 3
"""Seconds between two looks at a running job: often enough to feel live, seldom enough
for a screen reader to finish a sentence."""


def signed_in(request: Request) -> Principal:
    """Asking needs an account, as the API's (a reader of a public league signs in first)."""
    principal = who(request)
    if principal is None:
        raise Unauthenticated("sign in first: a what-if replay needs an account")
    return principal


# --- the job's page -------------------------------------------------------------------------


def job_of(request: Request, league: reads.League, job: str) -> Job:
    """A job of this league (one of another league is unknown here, as the API's)."""
    found = jobs_of(request).get(job[:64])
    if found is None or found.league != league.slug:
        raise UnknownJob(f"no what-if job '{job[:64]}' here")
    return found


def under_way(*jobs: Job | None) -> bool:
    return any(j is not None and j.state in ("queued", "running") for j in jobs)


@router.get("/leagues/{league}/whatif/{job}")
@needs("read")
def job_page(request: Request, league: str, job: str, spread: str = "") -> HTMLResponse:
    return job_view(request, reads.open_league(ledger_of(request), league), job, spread)


def job_view(
    request: Request,
    found: reads.League,
    job: str,
    spread: str,
    refused: LedgerError | None = None,
) -> HTMLResponse:
    """The job's page (and its companion's, ``spread``); ``refused``: a cancel refused."""
    asked = [job_of(request, found, j) for j in (job, spread) if j]
    # Which is which by what was asked, not by place in the URL: a job of samples opened
    # alone shows its distributions, never a comparison it does not hold.
    one = next((j for j in asked if j.asked.get("samples") is None), None)
    many = next((j for j in asked if j.asked.get("samples") is not None), None)
    compared = comparison_in(one)
    what = asked_label(found, asked[0])
    target = asked_ruleset(found, asked[0])
    return page(
        request,
        "whatif_job.html.j2",
        status=status_of(refused) if refused else 200,
        title=f"What if: {target.name}",
        crumbs=[
            ("Leagues", "/"),
            (found.row.name, f"/leagues/{found.slug}"),
            ("What if", f"/leagues/{found.slug}/whatif"),
        ],
        league=found,
        first=asked[0],
        job=one,
        spread_job=many,
        refresh=REFRESH if under_way(one, many) and refused is None else None,
        cancel_path=page_path(found, job, spread, "/cancel"),
        cancellable={
            j.id for j in asked if under_way(j) and cancel_role(who(request), found.row, j)
        },
        refused=refused,
        what=what,
        target=target,
        list_names=(partial(reads.list_name, found.ruleset), partial(reads.list_name, target)),
        found=compared,
        spread=distributions_in(many),
        policies=used_policies(compared),
        names=found.team_names(),
        players=found.player_names(subjects(compared)),
        again=again_path(found, asked[0]),
        move=move,
        rating=rating,
        likely=likely,
        place_bars=place_bars,
        ordered=ordered,
        percent=percent,
        spread_of=spread_text,
    )


def page_path(league: reads.League, job: str, spread: str, then: str = "") -> str:
    """The job's page (``then``: a path under it), its companion in the query."""
    query = f"?{urlencode({'spread': spread[:64]})}" if spread else ""
    return f"/leagues/{league.slug}/whatif/{job[:64]}{then}{query}"


@router.post("/leagues/{league}/whatif/{job}/cancel")
@needs("read")
async def cancel_job(request: Request, league: str, job: str, spread: str = "") -> Response:
    values = await values_of(request)
    return await run_in_threadpool(cancelled, request, league, job, spread, values)


def cancelled(
    request: Request, league: str, job: str, spread: str, values: Mapping[str, str]
) -> Response:
    """Cancel the job the form names (one of the page's), as ``DELETE /api/jobs/{id}``
    does; back to the page, or the page again with the refusal (a job ended meanwhile)."""
    principal = signed_in(request)
    found = reads.open_league(ledger_of(request), league)
    chosen = values.get("job", job)
    if chosen not in (job, spread):
        raise InvalidInput("the form names no what-if job of this page")
    target = job_of(request, found, chosen)
    by = canceller(principal, found.row, target)
    try:
        jobs_of(request).cancel(target.id, by)
    except LedgerError as error:
        return job_view(request, found, job, spread, error)
    return see_other(page_path(found, job, spread))


def done(job: Job | None) -> dict[str, Any] | None:
    return job.result if job is not None and job.state == "done" else None


def comparison_in(job: Job | None) -> Comparison | None:
    result = done(job)
    return Comparison.model_validate(result) if result else None


def distributions_in(job: Job | None) -> Distributions | None:
    result = done(job)
    return Distributions.model_validate(result) if result else None


def asked_label(league: reads.League, job: Job) -> str:
    """The what-if in words: the options changed (the ruleset is the page's title)."""
    return said(asked_ruleset(league, job), league.row)


def asked_ruleset(league: reads.League, job: Job) -> Ruleset:
    return target_ruleset(league.row, job.asked["ruleset"], job.asked["options"])


def again_path(league: reads.League, job: Job) -> str:
    return f"/leagues/{league.slug}/whatif?ruleset={job.asked['ruleset']}"


def subjects(found: Comparison | None) -> set[str]:
    """What the divergences are about: players mostly (named on the page), else items."""
    return {d.subject for d in found.divergences if d.subject} if found else set()


def used_policies(found: Comparison | None) -> list[tuple[str, str]]:
    """The policies the divergences name, with what each does (docs/whatif.md)."""
    named = sorted({d.policy for d in found.divergences}) if found else []
    return [(p, POLICIES.get(p, "")) for p in named]


# --- how the figures read (as ``ledger whatif`` prints them) ----------------------------------


def move(t: TeamComparison) -> str:
    """Places gained in the what-if: +1, -2, = (none), or nothing when not placed."""
    if t.rank_change is None:
        return ""
    return f"{t.rank_change:+d}".replace("-", "\u2212") if t.rank_change else "="


def rating(edition: Edition, figures: TeamFigures) -> int:
    return figures.values.get(edition.rating_key, figures.rating)


def percent(p: float) -> str:
    return f"{p:.0%}" if p in (0, 1) else f"{p:.1%}"


def likely(places: list[float]) -> str:
    """The three likeliest places: ``1st 60%, 2nd 30%, 3rd 10%``."""
    shown = sorted(((i + 1, p) for i, p in enumerate(places) if p > 0), key=lambda e: (-e[1], e[0]))
    return ", ".join(f"{ordinal(place)} {p:.0%}" for place, p in shown[:3])


def spread_text(mean: float, sd: float, decimals: int = 0) -> str:
    return f"{mean:,.{decimals}f} \u00b1 {sd:,.{decimals}f}"


def expected_place(t: TeamDistribution) -> float:
    return sum((i + 1) * p for i, p in enumerate(t.places))


def ordered(spread: Distributions) -> list[TeamDistribution]:
    """Division, then the place the team can expect, as the CLI lists them."""
    return sorted(spread.teams, key=lambda t: (t.division, expected_place(t), t.team_id))


@dataclass(frozen=True)
class Bar:
    x: int
    y: float
    height: float
    label: str


BAR_WIDTH, BAR_GAP, BARS_HIGH = 12, 3, 32
"""A place's bar in a team's small chart, in pixels."""


def place_bars(places: list[float]) -> list[Bar]:
    """One bar per place, as tall as its probability (the text beside says the same)."""
    return [
        Bar(
            x=i * (BAR_WIDTH + BAR_GAP),
            y=round(BARS_HIGH * (1 - p), 1),
            height=round(BARS_HIGH * p, 1),
            label=f"{ordinal(i + 1)}: {p:.0%}",
        )
        for i, p in enumerate(places)
    ]
