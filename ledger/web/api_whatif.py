"""What-if comparisons over the API, as background jobs (``ledger whatif``; docs/whatif.md).

``POST /api/leagues/{league}/whatif`` checks the question at once (an unknown ruleset,
option or season is refused there, as the CLI refuses it), then answers ``202`` with a job; ``GET
/api/jobs/{id}`` tells its progress and, once done, the comparison (one replay) or the
distributions (``samples`` replays with other dice), exactly the document ``ledger whatif
--json`` prints. A replay reads the league's log as it stood when asked (its version),
and writes nothing. ``DELETE /api/jobs/{id}`` cancels a queued or running job (its asker,
the league's commissioner or an admin). How jobs are kept, queued, run and cancelled is
``ledger.web.jobs``.
"""

from __future__ import annotations

import threading
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response

from ledger.application.access import Principal, authorize
from ledger.domain.log import league_id
from ledger.domain.state import LeagueRow
from ledger.errors import Forbidden, LedgerError, Unauthenticated
from ledger.web.auth import current_principal, memo, resolve, service_of
from ledger.web.guard import Guarded, needs
from ledger.web.jobs import Job, Jobs, Question, UnknownJob, WhatIf
from ledger.web.problems import PROBLEMS
from ledger.whatif.spec import target_ruleset

router = APIRouter(route_class=Guarded, responses=PROBLEMS, tags=["what-if"])

JOBS_LOCK = threading.Lock()
STOPPING_GRACE = 60.0
"""Seconds a stopping service waits for its what-if jobs before it leaves the store open
to the process's end (1,000 samples of a 16-team season take about 15 s)."""


def jobs_done(app: Any) -> bool:
    """Whether the app's what-if jobs, if any, have all ended (waiting ``STOPPING_GRACE``)."""
    jobs: Jobs | None = getattr(app.state, "whatif_jobs", None)
    return jobs is None or jobs.wait(STOPPING_GRACE)


def jobs_of(request: Request) -> Jobs:
    """The worker's jobs, made the first time a what-if is asked or looked at."""
    state = request.app.state
    with JOBS_LOCK:
        if getattr(state, "whatif_jobs", None) is None:
            ledger = service_of(request).ledger
            state.whatif_jobs = Jobs(ledger.read_models.engine, ledger)
    jobs: Jobs = state.whatif_jobs
    return jobs


# --- the routes ----------------------------------------------------------------------------


@router.post("/api/leagues/{league}/whatif", status_code=202)
@needs("read")
def ask(request: Request, league: str, body: WhatIf, response: Response) -> Job:
    """Ask what the league's season would have been under another ruleset or options:
    a background job (``GET /api/jobs/{id}``). Any account that reads the league may ask."""
    principal = memo(request).get("principal")
    if principal is None:
        raise Unauthenticated("sign in first: a what-if replay needs an account")
    row: LeagueRow = memo(request)["league_row"]
    target = target_ruleset(row, body.ruleset, body.options)
    job = jobs_of(request).ask(Question(row, target, body), principal.account)
    response.headers["Location"] = f"/api/jobs/{job.id}"
    return job


@router.get("/api/jobs/{job}")
def job(request: Request, job: str) -> Job:
    """A what-if job: its progress, and its result once done. Whoever may read its
    league may look (an unknown id, or one of a league the caller may not read, is 404)."""
    return readable(request, job)[0]


Signed = Annotated[Principal, Depends(current_principal)]
"""The account of a write that is not a league's (401 without one; a cookie's CSRF token)."""


@router.delete("/api/jobs/{job}")
def cancel(request: Request, job: str, principal: Signed) -> Job:
    """Cancel a queued or running what-if job: answers the job, its state ``cancelled``.
    Its asker, the league's commissioner and an admin may (403 for another reader; 404
    for one who may not read its league); a job already done, failed or cancelled is 409
    (``job-ended``). The same question asked again then makes a new job."""
    found, row = readable(request, job)
    return jobs_of(request).cancel(found.id, canceller(principal, row, found))


def readable(request: Request, job: str) -> tuple[Job, LeagueRow]:
    """The job and its league's row, for one who may read that league; else 404."""
    found = jobs_of(request).get(job[:64])
    row = (
        service_of(request).reads().get(LeagueRow, str(league_id(found.league))) if found else None
    )
    if found is None or row is None or not may_read(request, row):
        raise UnknownJob(f"no what-if job '{job[:64]}' here")
    return found, row


def may_read(request: Request, row: LeagueRow) -> bool:
    try:
        authorize(resolve(request), row.slug, "read", public=row.public)
    except LedgerError:
        return False
    return True


def cancel_role(who: Principal | None, row: LeagueRow, job: Job) -> str | None:
    """In what capacity ``who`` may cancel ``job``: ``asker``, ``commissioner`` (of its
    league) or ``admin``; None when they may not (the job's page then offers no button)."""
    if who is not None and who.account == job.account:
        return "asker"
    try:
        role = authorize(who, row.slug, "read", public=row.public)
    except LedgerError:
        return None
    return role if role in ("commissioner", "admin") else None


def canceller(who: Principal, row: LeagueRow, job: Job) -> str:
    """Who cancels ``job``, as its page names them; Forbidden for one who may not."""
    role = cancel_role(who, row, job)
    if role is None:
        raise Forbidden(
            f"only the account that asked what-if job {job.id} ({job.account}),"
            f" the commissioner of {row.slug} or an admin may cancel it"
        )
    return who.account if role == "asker" else f"{who.account} ({role})"
