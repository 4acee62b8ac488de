"""What-if jobs: the questions asked over the API (``api_whatif``), kept in the table
``ledger_jobs`` (every worker answers for every job) and replayed in a thread of the worker
that took them.

One replay at a time per process, at most ``QUEUED`` waiting, so a burst of questions
cannot starve the reads (a full queue answers 429 with ``Retry-After``). A question already
answered for the same league version, ruleset, options, samples, season and seed gets the
same job back: its result is cached until the log moves on. A job whose worker stopped
before finishing is failed by the next one asked the same question, which starts it anew.

A queued or running job may be cancelled: the state becomes ``cancelled`` at once, in the
table, and the thread running it stops at its next step (a sample), writing nothing more;
the same question asked again starts a new job. A job already ended is 409 (``job-ended``).
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
from pydantic import BaseModel, Field
from sqlalchemy.engine import Engine

from ledger.application.service import LeagueLedger
from ledger.domain.state import LeagueRow
from ledger.errors import LedgerError, NotFound, RuleViolation
from ledger.rules.dice import SAMPLE_DICE
from ledger.rules.protocol import Ruleset
from ledger.web.api_writes import Body
from ledger.web.problems import Problem, TooManyAttempts, problem, status_of
from ledger.whatif.montecarlo import run_samples
from ledger.whatif.service import asked_of, check_season, comparison

log = logging.getLogger("ledger.web")

MAX_SAMPLES = 500
"""The most replays one job makes (``ledger whatif --samples`` has no bound)."""
MAX_SEED = 2**31 - 1
"""The largest dice seed a question may give (a signed 32-bit integer's largest)."""
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

State = Literal["queued", "running", "done", "failed", "cancelled"]
UNDER_WAY = ("queued", "running")
"""The states a job may leave: its worker records progress and its end only from them,
and only a job in them may be cancelled."""
ENDED = {"done": "is done", "failed": "has failed", "cancelled": "was cancelled"}


class JobEnded(RuleViolation):
    """Cancelling a job that is no longer queued or running (409): nothing to stop."""

    code = "job-ended"
    title = "The job has ended"


class Cancelled(Exception):
    """Raised in a job's thread at its next step once the job is cancelled: the replay
    stops there and records nothing (the table already says ``cancelled``)."""


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
    account: str
    """The account that asked it: it, the league's commissioner and an admin may cancel it."""
    state: State
    done: int
    total: int
    """Replays made and to make."""
    result: dict[str, Any] | None = None
    """Once done: the comparison, or the distributions, as ``ledger whatif --json``."""
    problem: Problem | None = None
    """Once failed: why, as an error answer would say it; once cancelled, who cancelled it
    (code ``job-cancelled``)."""
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
        account=row.account,
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
    stopping: set[str] = field(default_factory=set)
    """Jobs under way here that were cancelled: their thread stops at its next step."""
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
        """The job asked the same question that is done or still under way; a failed or
        cancelled one is asked again, and one another worker left unfinished is failed
        first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(JOBS).where(JOBS.c.question == key).order_by(JOBS.c.created_at)
            ).all()
        for row in reversed(rows):
            if row.state in ("failed", "cancelled"):
                continue
            if row.state == "done" or row.id in self.live:
                return job_of(row)
            if datetime.fromisoformat(row.updated_at) > now() - ABANDONED:
                return job_of(row)
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

    def cancel(self, job: str, by: str) -> Job:
        """Cancel a queued or running job (``by`` says who, on its page). Its thread stops
        at its next step: at once when it runs here, at its next record of progress (half
        a second) when it runs in another worker; one waiting there leaves at its turn."""
        said = problem(409, "job-cancelled", f"cancelled by {by}", title="Cancelled")
        if not self.update(job, state="cancelled", problem=bytes(said.body).decode()):
            raise ended(job, self.get(job))
        with self.lock:
            if job in self.live:
                self.stopping.add(job)
        cancelled = self.get(job)
        if cancelled is None:  # forgotten at once among the oldest: as if never asked
            raise UnknownJob(f"no what-if job '{job}' here")
        return cancelled

    # --- in the job's thread ----------------------------------------------------------------

    def run(self, job: str, question: Question) -> None:
        try:
            self.attempt(job, question)
        except Exception:  # the store itself failed (the process is stopping): logged only
            log.exception("what-if job %s could not be recorded", job)
        finally:
            with self.lock:
                self.live.discard(job)
                self.stopping.discard(job)
                self.threads.pop(job, None)

    def attempt(self, job: str, question: Question) -> None:
        try:
            result = self.replayed(job, question)
            if result is not None:
                self.finish(job, orjson.dumps(result), None, None)
        except Cancelled:
            log.info("what-if job %s stopped: it was cancelled", job)
        except LedgerError as error:
            self.finish(job, None, error.code, error.message, status_of(error))
        except Exception:  # a bug: the job says it failed, the log says why
            log.exception("what-if job %s failed", job)
            self.finish(job, None, "internal", "the replay failed; nothing more is said", 500)

    def replayed(self, job: str, question: Question) -> dict[str, Any] | None:
        """The job's answer, replayed in its turn; None when it was cancelled first."""
        if not self.turn(job):
            return None
        try:
            if not self.update(job, state="running"):
                return None
            return self.answer(job, question)
        finally:
            self.running.release()

    def turn(self, job: str) -> bool:
        """Wait for the process's one replay at a time; False, without it, when the job
        is cancelled here meanwhile (it then leaves the queue at once)."""
        while not self.running.acquire(timeout=PROGRESS_EVERY):
            if job in self.stopping:
                return False
        return True

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
            if job in self.stopping:
                raise Cancelled(job)
            if time.monotonic() - said[0] >= PROGRESS_EVERY:
                said[0] = time.monotonic()
                if not self.update(job, done=made[0]):  # cancelled by another worker
                    raise Cancelled(job)

        spread = run_samples(
            asked.events(), question.target, body.samples, body.seed + 1, body.season, 1, progress
        )
        return spread.model_dump(mode="json")

    def update(self, job: str, **values: Any) -> bool:
        """Record a job's progress, end or cancellation while it is under way; whether it
        was (a cancelled job keeps its state: its late result is not written over it)."""
        under_way = (JOBS.c.id == job) & JOBS.c.state.in_(UNDER_WAY)
        with self.engine.begin() as conn:
            changed = conn.execute(
                JOBS.update().where(under_way).values(**values, updated_at=now().isoformat())
            )
        return changed.rowcount > 0

    def finish(
        self, job: str, result: bytes | None, code: str | None, detail: str | None, status: int = 0
    ) -> None:
        if code is None:
            self.update(job, state="done", result=result, done=JOBS.c.total)
            return
        said = bytes(problem(status or 409, code, detail or code).body).decode()
        self.update(job, state="failed", problem=said)


def ended(job: str, found: Job | None) -> LedgerError:
    """Why a job cannot be cancelled: it has ended (409, naming how), or it is gone."""
    if found is None:
        return UnknownJob(f"no what-if job '{job}' here")
    return JobEnded(
        f"what-if job {job} {ENDED.get(found.state, found.state)}:"
        " only a queued or running job can be cancelled"
    )


class UnknownJob(NotFound):
    code = "unknown-job"
