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
(``pages_whatif_job``) reloads itself (``<meta http-equiv="refresh">``) until both are
done, then shows them.

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
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from ledger.application.access import Principal
from ledger.domain.values import validation_problems
from ledger.errors import InvalidInput, LedgerError
from ledger.rules import RULESETS
from ledger.rules.protocol import Ruleset
from ledger.web import pages_reads as reads
from ledger.web import pages_whatif_job
from ledger.web.api_whatif import jobs_of
from ledger.web.guard import needs
from ledger.web.jobs import MAX_SAMPLES, MAX_SEED, Question, WhatIf
from ledger.web.pages_forms import (
    Errors,
    errors_of,
    number,
)
from ledger.web.pages_render import PageRoute, ledger_of, page
from ledger.web.pages_whatif_job import signed_in
from ledger.web.problems import status_of
from ledger.whatif.spec import option_value, target_ruleset

router = APIRouter(route_class=PageRoute, include_in_schema=False)

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
    seed = number(values, "seed", "the dice seed", 0, MAX_SEED, grouped=False) or 0
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


router.include_router(pages_whatif_job.router)
