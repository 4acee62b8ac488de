"""The what-if page (issue 12, point 7): another ruleset or other options, replayed in the
background, and the comparison ``ledger whatif`` prints, as a page.

Three steps, no script. The form (``GET /leagues/{league}/whatif``) offers the rulesets of
the registry; choosing one (a GET, ``?ruleset=ID``) shows that ruleset's options, typed as
its ``Options`` model declares them (a flag is a checkbox, a choice a pick-list, a set of
choices a group of checkboxes), filled with where the what-if starts from: the league's
own options under its own ruleset, the ruleset's defaults under another (``spec``).
Posting the form asks ``api_whatif``'s jobs, the same ones ``POST /api/leagues/{league}/
whatif`` asks (and shares, cached by the question): one replay for the comparison and,
with more than one sample, a Monte Carlo job for the distributions. The job's page
reloads itself (``<meta http-equiv="refresh">``) until both are done, then shows them.

A refused question (an unknown ruleset or season, an option out of its choices, a full
queue) re-renders the form with the CLI's sentence beside the field and the error's status.
Asking needs an account (a replay costs a worker's time); the job's page, like ``GET
/api/jobs/{id}``, is for whoever may read the league. While a job is queued or running,
its page offers *Cancel* to those ``DELETE /api/jobs/{id}`` lets cancel it (its asker, the
league's commissioner, an admin): a form posted to ``.../whatif/{job}/cancel``; a
cancelled job's page says so, and who cancelled it.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from ledger.application.access import Principal
from ledger.domain.values import validation_problems
from ledger.errors import InvalidInput, LedgerError, Unauthenticated
from ledger.rules import RULESETS
from ledger.rules.protocol import Ruleset
from ledger.web import pages_reads as reads
from ledger.web.api_whatif import cancel_role, canceller, jobs_of
from ledger.web.guard import needs
from ledger.web.jobs import MAX_SAMPLES, MAX_SEED, Job, Question, UnknownJob, WhatIf
from ledger.web.pages_forms import (
    Errors,
    errors_of,
    number,
    see_other,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, page, who
from ledger.web.problems import status_of
from ledger.whatif.compare import Comparison, Edition, TeamComparison, TeamFigures
from ledger.whatif.divergence import POLICIES
from ledger.whatif.montecarlo import Distributions, TeamDistribution
from ledger.whatif.spec import label, option_value, target_ruleset

router = APIRouter(route_class=PageRoute, include_in_schema=False)

REFRESH = 3
"""Seconds between two looks at a running job: often enough to feel live, seldom enough
for a screen reader to finish a sentence."""
FIELDS = {"unknown-ruleset": "ruleset", "unknown-season": "season", "busy": "form"}
"""Error code -> the form field it is shown beside (an option's error names its option)."""
Kind = Literal["flag", "choice", "choices", "text"]


# --- the form ------------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionField:
    """One option of a ruleset as the form offers it."""

    key: str
    kind: Kind
    choices: tuple[str, ...]
    hint: str


def kind_of(annotation: Any) -> tuple[Kind, tuple[str, ...]]:
    """How an option is asked for, from its type: ``bool``, ``Literal[...]`` and
    ``tuple[Literal[...], ...]`` have pick-lists; anything else is typed as ``-o`` takes it."""
    if annotation is bool:
        return "flag", ()
    if typing.get_origin(annotation) is Literal:
        return "choice", tuple(str(a) for a in typing.get_args(annotation))
    if typing.get_origin(annotation) in (tuple, list, set, frozenset):
        inner = typing.get_args(annotation)[0] if typing.get_args(annotation) else None
        if typing.get_origin(inner) is Literal:
            return "choices", tuple(str(a) for a in typing.get_args(inner))
    return "text", ()


def option_fields(ruleset: Ruleset) -> list[OptionField]:
    model: type[BaseModel] = type(ruleset.options)
    return [
        OptionField(key, *kind_of(info.annotation), hint=" ".join((info.description or "").split()))
        for key, info in model.model_fields.items()
    ]


def form_values(options: BaseModel) -> dict[str, Any]:
    """An option's value as the form shows it (a set of choices as a list)."""
    return dict(options.model_dump(mode="json"))


def seasons_of(league: reads.League) -> list[int]:
    return sorted(league.queries.seasons(), reverse=True)


def whatif_form(
    request: Request,
    league: reads.League,
    target: Ruleset,
    values: Mapping[str, Any],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    return page(
        request,
        "whatif.html.j2",
        status=status,
        title="What if",
        crumbs=reads.crumbs(league),
        league=league,
        rulesets=[(cls.id, cls.name) for cls in RULESETS],
        target=target,
        own=target.id == league.row.ruleset,
        fields=option_fields(target),
        seasons=seasons_of(league),
        values=values,
        errors=errors,
        max_samples=MAX_SAMPLES,
    )


def signed_in(request: Request) -> Principal:
    """Asking needs an account, as the API's (a reader of a public league signs in first)."""
    principal = who(request)
    if principal is None:
        raise Unauthenticated("sign in first: a what-if replay needs an account")
    return principal


@router.get("/leagues/{league}/whatif")
@needs("read")
def whatif_page(request: Request, league: str, ruleset: str = "") -> HTMLResponse:
    signed_in(request)
    found = reads.open_league(ledger_of(request), league)
    try:
        target = target_ruleset(found.row, ruleset.strip()[:64] or None, {})
    except LedgerError as error:
        return refused_ruleset(request, found, error)
    return whatif_form(request, found, target, start_values(target), {})


def refused_ruleset(request: Request, league: reads.League, error: LedgerError) -> HTMLResponse:
    """An unknown ruleset: the form under the league's own, the error beside the pick-list."""
    own = target_ruleset(league.row, None, {})
    errors = errors_of(error, FIELDS)
    return whatif_form(request, league, own, start_values(own), errors, status_of(error))


def start_values(target: Ruleset) -> dict[str, Any]:
    return {**form_values(target.options), "samples": "1", "seed": "0", "season": ""}


@router.post("/leagues/{league}/whatif")
@needs("read")
async def ask_whatif(request: Request, league: str) -> Response:
    form = await request.form()
    return await run_in_threadpool(asked, request, league, form)


def asked(request: Request, league: str, form: FormData) -> Response:
    """Ask the jobs and go to their page; a refused question is the form again."""
    principal = signed_in(request)
    found = reads.open_league(ledger_of(request), league)
    chosen = text(form, "ruleset")[:64] or found.row.ruleset
    try:
        target = target_ruleset(found.row, chosen, {})
    except LedgerError as error:
        return refused_ruleset(request, found, error)
    fields = option_fields(target)
    values = {
        **form_values(target.options),
        **posted(form, fields),
        **{key: text(form, key) for key in ("samples", "seed", "season")},
    }
    try:
        path = ask_jobs(request, found, target, fields, values, principal)
    except LedgerError as error:
        errors = errors_of(error, {**FIELDS, "invalid-option": option_named(error, fields)})
        return whatif_form(request, found, target, values, errors, status_of(error))
    return RedirectResponse(path, status_code=303)


def text(form: FormData, key: str) -> str:
    value = form.get(key)
    return value.strip() if isinstance(value, str) else ""


def posted(form: FormData, fields: list[OptionField]) -> dict[str, Any]:
    """The options as the form sent them. An unticked box is not sent at all (a flag
    left out is off, a set of choices empty); a pick-list or text left out keeps the
    value the what-if starts from, as ``ledger whatif`` without that ``-o``."""
    values: dict[str, Any] = {}
    for field in fields:
        if field.kind == "flag":
            values[field.key] = field.key in form
        elif field.kind == "choices":
            values[field.key] = [v for v in form.getlist(field.key) if isinstance(v, str)]
        elif field.key in form:  # a choice, or text read as ``-o KEY=VALUE`` reads it
            values[field.key] = text(form, field.key)
    return values


def option_named(error: LedgerError, fields: list[OptionField]) -> str:
    """The option an ``InvalidOption`` is about: the ruleset's sentence names it as
    ``option KEY:`` (or ``option KEY.INDEX:`` for one of a set of choices)."""
    said = error.message
    return next(
        (f.key for f in fields if f"option {f.key}:" in said or f"option {f.key}." in said),
        "form",
    )


def option_of(field: OptionField, value: Any) -> Any:
    return option_value(value) if field.kind == "text" and isinstance(value, str) else value


def ask_jobs(
    request: Request,
    league: reads.League,
    target: Ruleset,
    fields: list[OptionField],
    values: Mapping[str, Any],
    principal: Principal,
) -> str:
    """Ask the comparison (and with samples the distributions); the path of their page."""
    samples = number(values, "samples", "the number of samples", 1, MAX_SAMPLES) or 1
    season = number(values, "season", "the season", 1, 10_000)
    seed = number(values, "seed", "the dice seed", 0, MAX_SEED) or 0
    options = {f.key: option_of(f, values[f.key]) for f in fields}
    chosen = target_ruleset(league.row, target.id, options)  # a bad option: InvalidOption
    try:
        question = WhatIf(ruleset=chosen.id, options=options, season=season, seed=seed)
    except ValidationError as error:
        raise InvalidInput(validation_problems(error)) from None
    jobs = jobs_of(request)
    one = jobs.ask(Question(league.row, chosen, question), principal.account)
    path = f"/leagues/{league.slug}/whatif/{one.id}"
    if samples == 1:
        return path
    many = question.model_copy(update={"samples": samples})
    spread = jobs.ask(Question(league.row, chosen, many), principal.account)
    return f"{path}?spread={spread.id}"


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
    """The what-if as ``ledger whatif`` names it: the ruleset and the options changed."""
    return label(asked_ruleset(league, job), league.row)


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


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


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
