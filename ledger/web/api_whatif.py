"""What-if comparisons over the API, as background jobs (``ledger whatif``; docs/whatif.md).

``POST /api/leagues/{league}/whatif`` checks the question at once (an unknown ruleset,
option or season is refused there, as the CLI refuses it), then answers ``202`` with a job; ``GET
/api/jobs/{id}`` tells its progress and, once done, the comparison (one replay) or the
distributions (``samples`` replays with other dice), exactly the document ``ledger whatif
--json`` prints. A replay reads the league's log as it stood when asked (its version),
and writes nothing.

The jobs are kept in the table ``ledger_jobs`` (every worker answers for every job) and
run in a thread of the worker that took them: one at a time per process, at most
``QUEUED`` waiting, so a burst of questions cannot starve the reads (a full queue answers
429 with ``Retry-After``). A question already answered for the same league version,
ruleset, options, samples, season and seed gets the same job back: its result is cached
until the log moves on. A job whose worker stopped before finishing is failed by the next
one asked the same question, which starts it anew.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import orjson
import sqlalchemy as sa
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.engine import Engine

from ledger.application.access import authorize
from ledger.application.service import LeagueLedger
from ledger.domain.log import league_id
from ledger.domain.state import LeagueRow
from ledger.errors import LedgerError, NotFound, Unauthenticated
from ledger.rules.dice import SAMPLE_DICE
from ledger.rules.protocol import Ruleset
from ledger.web.api_writes import Body
from ledger.web.auth import memo, resolve, service_of
from ledger.web.guard import Guarded, needs
from ledger.web.problems import PROBLEMS, Problem, TooManyAttempts, problem, status_of
from ledger.whatif.montecarlo import run_samples
from ledger.whatif.service import asked_of, check_season, comparison
from ledger.whatif.spec import target_ruleset

log = logging.getLogger("ledger.web")

router = APIRouter(route_class=Guarded, responses=PROBLEMS, tags=["what-if"])

MAX_SAMPLES = 500
MAX_SEED = 2**31 - 1
"""The largest dice seed a question may give (a signed 32-bit integer's largest)."""
"""The most replays one job makes (``ledger whatif --samples`` has no bound)."""
QUEUED = 4
"""Jobs a worker process holds at once, running or waiting; one runs at a time."""
KEPT = 200
"""Jobs kept in the table; the oldest go first (and their results with them)."""
PROGRESS_EVERY = 0.5
"""Seconds between two records of a running job's progress."""
ABANDONED = timedelta(minutes=15)
"""A job unfinished this long after its last progress, started by another worker, is
taken for one whose worker stopped."""

METADATA = sa.MetaData()

JOBS = sa.Table(
    "ledger_jobs",
    METADATA,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("question", sa.String(64), nullable=False, index=True),
    sa.Column("league", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("asked", sa.Text, nullable=False),
    sa.Column("account", sa.String(64), nullable=False),
    sa.Column("state", sa.String(16), nullable=False),
    sa.Column("done", sa.Integer, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("result", sa.LargeBinary, nullable=True),
    sa.Column("problem", sa.Text, nullable=True),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
)

State = Literal["queued", "running", "done", "failed"]


class JobsBusy(TooManyAttempts):
    """The worker already holds as many what-if jobs as it runs at once (429)."""

    code = "busy"
    title = "The what-if queue is full"


def now() -> datetime:
    return datetime.now(UTC)


# --- the question -------------------------------------------------------------------------


class WhatIf(Body):
    ruleset: str | None = Field(default=None, min_length=1, max_length=64)
    """The ruleset to replay under (default: the league's own): bb2025, lrb6-zal..."""
    options: dict[str, Any] = Field(default={}, max_length=32)
    """Ruleset options for the replay (``GET /api/rulesets`` gives their schema)."""
    samples: int | None = Field(default=None, ge=1, le=MAX_SAMPLES)
    """Replay this many times with seeds ``seed+1..seed+samples`` and give the
    distributions; left out, one replay and the full comparison."""
    season: int | None = Field(default=None, ge=1, le=10_000)
    """The season to compare (default: the latest)."""
    seed: int = Field(default=0, ge=0, le=MAX_SEED)
    """The dice's seed (the samples use the next ones)."""


@dataclass(frozen=True)
class Question:
    """A what-if asked of a league at one version: what its answer is cached by."""

    league: LeagueRow
    target: Ruleset
    body: WhatIf

    def asked(self) -> dict[str, Any]:
        return {
            "league": self.league.slug,
            "version": self.league.version,
            "ruleset": self.target.id,
            "options": self.target.options.model_dump(mode="json"),
            "samples": self.body.samples,
            "season": self.body.season,
            "seed": self.body.seed,
            "ids": RULESET_IDS,
            "dice": SAMPLE_DICE,  # a result drawn by another generator is not this one's
        }

    def key(self) -> str:
        return hashlib.sha256(orjson.dumps(self.asked(), option=orjson.OPT_SORT_KEYS)).hexdigest()


class Job(BaseModel):
    id: str
    league: str
    version: int
    """The league's version the replay read (its ETag when asked)."""
    asked: dict[str, Any]
    """The question as resolved: the target ruleset with all its options."""
    state: State
    done: int
    total: int
    """Replays made and to make."""
    result: dict[str, Any] | None = None
    """Once done: the comparison, or the distributions, as ``ledger whatif --json``."""
    problem: Problem | None = None
    """Once failed: why, as an error answer would say it."""
    created_at: str
    updated_at: str


RULESET_IDS = 2
"""Which ruleset ids a stored question uses: 2 since ``bb2025`` was named (before, the
2025 rulebook's ruleset was ``bb2020``, now the id of Blood Bowl 2020 Season 2)."""


def upcast_asked(asked: dict[str, Any]) -> dict[str, Any]:
    """A question stored before the rename, read in today's ids (as LeagueCreated's
    upcast reads the league it was asked of)."""
    if asked.get("ids", 1) < RULESET_IDS and asked.get("ruleset") == "bb2020":
        return {**asked, "ruleset": "bb2025", "ids": RULESET_IDS}
    return asked


def job_of(row: sa.Row[Any]) -> Job:
    return Job(
        id=row.id,
        league=row.league,
        version=row.version,
        asked=upcast_asked(orjson.loads(row.asked)),
        state=row.state,
        done=row.done,
        total=row.total,
        result=orjson.loads(row.result) if row.result else None,
        problem=Problem.model_validate_json(row.problem) if row.problem else None,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


# --- the jobs ---------------------------------------------------------------------------------


@dataclass
class Jobs:
    """A worker process's what-if jobs: the table every worker shares, and the threads
    of the jobs this one runs."""

    engine: Engine
    ledger: LeagueLedger
    live: set[str] = field(default_factory=set)
    threads: dict[str, threading.Thread] = field(default_factory=dict)
    """The threads of the jobs under way here, which a stopping service waits for."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    running: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(1))

    def __post_init__(self) -> None:
        METADATA.create_all(self.engine, checkfirst=True)

    def ask(self, question: Question, account: str) -> Job:
        """The job that answers ``question``: one already made, else a new one."""
        check_season(self.ledger, question.league, question.body.season)
        key = question.key()
        with self.lock:
            earlier = self.earlier(key)
            if earlier is not None:
                return earlier
            if len(self.live) >= QUEUED:
                raise JobsBusy(
                    f"{QUEUED} what-if replays are already running or waiting here:"
                    " ask again in a minute",
                    retry_after=60,
                )
            job = self.create(question, key, account)
            self.live.add(job.id)
            thread = self.threads[job.id] = threading.Thread(
                target=self.run, args=(job.id, question), name=f"whatif-{job.id}", daemon=True
            )
        thread.start()
        return job

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the jobs under way; whether none is left. A
        stopping service closes the store only after them: a job reading it while its
        connections closed crashed the process (a segmentation fault in SQLite)."""
        deadline = time.monotonic() + timeout
        with self.lock:
            running = list(self.threads.values())
        for thread in running:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in running)

    def earlier(self, key: str) -> Job | None:
        """The job asked the same question that is done or still under way; a failed one
        is asked again, and one another worker left unfinished is failed first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(JOBS).where(JOBS.c.question == key).order_by(JOBS.c.created_at)
            ).all()
        for row in reversed(rows):
            if row.state == "done" or row.id in self.live:
                return job_of(row)
            if row.state != "failed" and datetime.fromisoformat(row.updated_at) > now() - ABANDONED:
                return job_of(row)
            if row.state != "failed":
                self.finish(row.id, None, "abandoned", "the worker running it stopped")
        return None

    def create(self, question: Question, key: str, account: str) -> Job:
        stamp, made = now().isoformat(), secrets.token_hex(16)
        values = {
            "id": made,
            "question": key,
            "league": question.league.slug,
            "version": question.league.version,
            "asked": orjson.dumps(question.asked()).decode(),
            "account": account,
            "state": "queued",
            "done": 0,
            "total": question.body.samples or 1,
            "created_at": stamp,
            "updated_at": stamp,
        }
        with self.engine.begin() as conn:
            conn.execute(JOBS.insert().values(**values))
            self.forget_oldest(conn)
        job = self.get(made)
        assert job is not None
        return job

    def forget_oldest(self, conn: sa.Connection) -> None:
        kept = sa.select(JOBS.c.id).order_by(JOBS.c.created_at.desc()).limit(KEPT)
        conn.execute(JOBS.delete().where(JOBS.c.id.not_in(kept.scalar_subquery())))

    def get(self, job: str) -> Job | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(JOBS).where(JOBS.c.id == job)).first()
        return job_of(row) if row else None

    # --- in the job's thread ----------------------------------------------------------------

    def run(self, job: str, question: Question) -> None:
        try:
            self.attempt(job, question)
        except Exception:  # the store itself failed (the process is stopping): logged only
            log.exception("what-if job %s could not be recorded", job)
        finally:
            with self.lock:
                self.live.discard(job)
                self.threads.pop(job, None)

    def attempt(self, job: str, question: Question) -> None:
        try:
            with self.running:
                self.update(job, state="running")
                result = self.answer(job, question)
            self.finish(job, orjson.dumps(result), None, None)
        except LedgerError as error:
            self.finish(job, None, error.code, error.message, status_of(error))
        except Exception:  # a bug: the job says it failed, the log says why
            log.exception("what-if job %s failed", job)
            self.finish(job, None, "internal", "the replay failed; nothing more is said", 500)

    def answer(self, job: str, question: Question) -> dict[str, Any]:
        """Replay the league's log as it stood at the question's version."""
        body, row = question.body, question.league
        asked = asked_of(self.ledger, row, question.target)
        if body.samples is None:
            return comparison(asked, body.season, body.seed).model_dump(mode="json")
        made, said = [0], [time.monotonic()]

        def progress(step: int) -> None:
            # At most twice a second: on SQLite each update takes the file's write lock.
            made[0] += step
            if time.monotonic() - said[0] >= PROGRESS_EVERY:
                said[0] = time.monotonic()
                self.update(job, done=made[0])

        spread = run_samples(
            asked.events(), question.target, body.samples, body.seed + 1, body.season, 1, progress
        )
        return spread.model_dump(mode="json")

    def update(self, job: str, **values: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                JOBS.update().where(JOBS.c.id == job).values(**values, updated_at=now().isoformat())
            )

    def finish(
        self, job: str, result: bytes | None, code: str | None, detail: str | None, status: int = 0
    ) -> None:
        if code is None:
            self.update(job, state="done", result=result, done=JOBS.c.total)
            return
        said = bytes(problem(status or 409, code, detail or code).body).decode()
        self.update(job, state="failed", problem=said)


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
    found = jobs_of(request).get(job[:64])
    row = (
        service_of(request).reads().get(LeagueRow, str(league_id(found.league))) if found else None
    )
    if found is None or row is None or not may_read(request, row):
        raise UnknownJob(f"no what-if job '{job[:64]}' here")
    return found


def may_read(request: Request, row: LeagueRow) -> bool:
    try:
        authorize(resolve(request), row.slug, "read", public=row.public)
    except LedgerError:
        return False
    return True


class UnknownJob(NotFound):
    code = "unknown-job"
