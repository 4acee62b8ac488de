"""Two writers cannot both spend the same gold (optimistic concurrency on the league log),
and eight cannot break the books: on SQLite and on PostgreSQL, writers in processes of
their own, each opening the ledger as the CLI does, race for one team's treasury. Every
command either stores all its events or is refused with none; the gold never goes below
zero; the read models equal a rebuild; no command meets a store error."""

from __future__ import annotations

import contextlib
import multiprocessing
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from ledger.application import teams
from ledger.application.commands import AdjustTreasury, FirePlayer, HirePlayer, RegisterTeam
from ledger.application.context import Context, Drafts
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.log import league_id
from ledger.domain.state import PlayerRow, TeamRow, TreasuryLine
from ledger.errors import InsufficientTreasury, LedgerError
from ledger.projections.sql import ALL_TABLES, POSITION
from tests.support import create_league


def league_with_one_purchase_left(ledger: LeagueLedger) -> None:
    create_league(ledger)
    # 100,000: enough for one Blitzer (85,000), not two.
    ledger.handle(
        RegisterTeam("test", "reavers", "Reavers", "coach", "human", treasury=100_000), by="t"
    )


def hired(ledger: LeagueLedger) -> list[PlayerRow]:
    return list(ledger.view().select(PlayerRow, league_id=str(league_id("test"))))


def test_a_writer_that_lost_the_race_revalidates_and_is_refused(
    settings: Settings, open_ledgers: Callable[[Settings], LeagueLedger]
) -> None:
    first, second = open_ledgers(settings), open_ledgers(settings)
    league_with_one_purchase_left(first)
    raced: list[bool] = []

    def plan_racing_another_writer(c: Context) -> Drafts:
        drafts = teams.plan_hire(c, HirePlayer("test", "reavers", "blitzer", "First"))
        if not raced:  # the other writer commits between our check and our save
            raced.append(True)
            second.handle(HirePlayer("test", "reavers", "blitzer", "Second"), by="rival")
        return drafts

    with pytest.raises(InsufficientTreasury, match="15,000"):
        first.run("test", plan_racing_another_writer, by="t")
    assert first.conflicts == 1
    assert [p.name for p in hired(first)] == ["Second"]
    team = first.view().get(TeamRow, str(league_id("test")), "reavers")
    assert team is not None
    assert team.treasury == 15_000


def hire_in_another_process(settings: Settings, name: str, start: Any, results: Any) -> None:
    ledger = open_ledger(settings)
    try:
        start.wait()
        ledger.handle(HirePlayer("test", "reavers", "blitzer", name), by=name)
        results.put((name, "hired"))
    except LedgerError as error:
        results.put((name, error.code))
    finally:
        close_ledger(ledger)


def test_two_processes_hiring_at_once_cannot_both_spend_the_gold(
    settings: Settings, open_ledgers: Callable[[Settings], LeagueLedger]
) -> None:
    ledger = open_ledgers(settings)
    league_with_one_purchase_left(ledger)
    spawn = multiprocessing.get_context("spawn")
    start, results = spawn.Barrier(2), spawn.Queue()
    workers = [
        spawn.Process(target=hire_in_another_process, args=(settings, name, start, results))
        for name in ("Ann", "Bob")
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    outcomes = sorted(results.get(timeout=5)[1] for _ in workers)
    assert outcomes == ["hired", "insufficient-treasury"]
    assert len(hired(ledger)) == 1
    team = ledger.view().get(TeamRow, str(league_id("test")), "reavers")
    assert team is not None
    assert team.treasury == 15_000


# --- eight writers, fifty commands each --------------------------------------------------

WRITERS = 8
COMMANDS = 50
OPEN_EVERY = 5
"""A writer opens the ledger afresh every few commands, as separate CLI runs would: the
opens race each other and the others' commands (PostgreSQL's schema step)."""
START = 100_000
GAIN, LOSS, LINEMAN = 30_000, -40_000, 50_000
REFUSALS = {
    *("insufficient-treasury", "roster-full", "position-limit", "too-few-players"),
    "unknown-player",  # firing a player whose hiring was refused
    "concurrent-update",  # lost the race more times than a command retries: nothing stored
}
"""The answers to a command that lost its race; anything else is a failure."""
OPEN_FAILED = -1
EVENT_OF = {"adjust": "TreasuryAdjusted", "hire": "PlayerHired", "fire": "PlayerFired"}


@dataclass(frozen=True)
class Outcome:
    reason: str
    """Unique to the command: its events are found by it."""
    kind: str
    amount: int
    code: str
    """"ok", a refusal's error code, or what went wrong."""


def plan_commands(writer: int) -> Iterator[tuple[str, str, int]]:
    """A writer's commands: (reason, kind, gold change); firing only its own hires."""
    rng, mine = random.Random(writer), list[str]()
    for i in range(COMMANDS):
        reason, roll = f"w{writer}-c{i}", rng.random()
        if roll < 0.35:
            yield reason, "adjust", GAIN
        elif roll < 0.75:
            yield reason, "adjust", LOSS
        elif mine and roll < 0.85:
            yield reason, "fire", 0
        else:
            mine.append(reason)
            yield reason, "hire", -LINEMAN


def run_command(ledger: LeagueLedger, reason: str, kind: str, amount: int) -> None:
    if kind == "adjust":
        ledger.handle(AdjustTreasury("test", "reavers", amount), by=reason, reason=reason)
    elif kind == "hire":
        ledger.handle(HirePlayer("test", "reavers", "lineman", reason), by=reason, reason=reason)
    else:
        mine = reason.split("-")[0] + "-"
        victims = [p.name for p in hired(ledger) if p.name.startswith(mine) and p.status != "fired"]
        victim = victims[0] if victims else "none"
        ledger.handle(FirePlayer("test", "reavers", victim), by=reason, reason=reason)


def writer_process(settings: Settings, writer: int, start: Any, results: Any) -> None:
    """Runs in its own process: never raises, puts every command's outcome."""
    start.wait()
    ledger: LeagueLedger | None = None
    for i, (reason, kind, amount) in enumerate(plan_commands(writer)):
        try:
            if ledger is None or i % OPEN_EVERY == 0:
                if ledger is not None:
                    close_ledger(ledger)
                ledger = open_ledger(settings)
            run_command(ledger, reason, kind, amount)
            code = "ok"
        except LedgerError as error:
            code = error.code if error.code in REFUSALS else f"{error.code}: {error.message}"
        except Exception as error:  # a store error: what the test is here to catch
            code = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
        results.put(Outcome(reason, kind, amount, code))
    if ledger is not None:
        close_ledger(ledger)


def race(settings: Settings, target: Callable[..., None], count: int, arg: int = 0) -> list[Any]:
    """``count`` processes started together, and whatever they put in the queue. Each
    gets ``arg``, or its number when ``arg`` is 0."""
    spawn = multiprocessing.get_context("spawn")
    start, results = spawn.Barrier(count), spawn.Queue()
    workers = [
        spawn.Process(target=target, args=(settings, arg or n, start, results))
        for n in range(count)
    ]
    for worker in workers:
        worker.start()
    found: list[Any] = []
    deadline = time.monotonic() + 300
    while any(w.is_alive() for w in workers) or not results.empty():
        if time.monotonic() > deadline:
            break
        try:
            found.append(results.get(timeout=1))
        except Exception:  # queue.Empty: the workers are still busy
            continue
    for worker in workers:
        worker.join(timeout=10)
    return found


def read_models(ledger: LeagueLedger) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every read-model table, in a stable order."""
    with ledger.read_models.engine.connect() as conn:
        return {
            table.name: sorted((tuple(row) for row in conn.execute(sa.select(table))), key=repr)
            for table in [*ALL_TABLES, POSITION]
        }


def stored_reasons(ledger: LeagueLedger) -> Counter[tuple[str | None, str]]:
    return Counter(
        (event.reason, type(event).__name__)
        for event in ledger.source.league_events(str(league_id("test")))
    )


def backends() -> list[Any]:
    return ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=backends())
def shared_settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    if request.param == "postgres":
        url = request.getfixturevalue("postgres_url")
        return Settings(sqlite_path=tmp_path / "unused.db", database_url=url, user="tester")
    return Settings(sqlite_path=tmp_path / "ledger.db", user="tester")


@pytest.mark.slow
def test_eight_writers_racing_for_one_treasury_lose_nothing_and_break_nothing(
    shared_settings: Settings, open_ledgers: Callable[[Settings], LeagueLedger]
) -> None:
    ledger = open_ledgers(shared_settings)
    create_league(ledger)
    ledger.handle(
        RegisterTeam("test", "reavers", "Reavers", "coach", "human", treasury=START), by="t"
    )
    before = stored_reasons(ledger)

    outcomes: list[Outcome] = race(shared_settings, writer_process, WRITERS)

    failures = [o for o in outcomes if o.code != "ok" and o.code not in REFUSALS]
    assert failures == [], f"{len(failures)} commands failed: {failures[:5]}"
    assert len(outcomes) == WRITERS * COMMANDS
    ok = [o for o in outcomes if o.code == "ok"]
    assert 0 < len(ok) < len(outcomes), "the race should both accept and refuse"

    # every accepted command has exactly its event, every refused one none, nothing else
    stored = stored_reasons(ledger) - before
    assert stored == Counter((o.reason, EVENT_OF[o.kind]) for o in ok)

    # the gold adds up, and never went below zero on the way
    ledger.catch_up()
    team = ledger.view().get(TeamRow, str(league_id("test")), "reavers")
    assert team is not None
    assert team.treasury == START + sum(o.amount for o in ok)
    lines = list(ledger.view().select(TreasuryLine, league_id=str(league_id("test"))))
    assert lines
    assert min(line.balance for line in lines) >= 0

    incremental = read_models(ledger)
    ledger.read_models.rebuild(ledger.source)
    assert read_models(ledger) == incremental


# --- the schema, created once ------------------------------------------------------------


def open_and_read(settings: Settings, opens: int, start: Any, results: Any) -> None:
    """Opens the ledger ``opens`` times, the first at the same moment as the others."""
    start.wait()
    for _ in range(opens):
        try:
            with opened(settings) as ledger:
                ledger.leagues()
            results.put("ok")
        except Exception as error:
            results.put(f"{type(error).__name__}: {error}".splitlines()[0])


@pytest.mark.postgres
def test_eight_processes_opening_a_new_postgres_database_at_once_all_work(
    postgres_url: str, tmp_path: Path
) -> None:
    """The first opens used to race to create the tables (duplicate types, 'tuple
    concurrently updated'); now one creates the schema, under a lock, and the others wait."""
    settings = Settings(sqlite_path=tmp_path / "unused.db", database_url=postgres_url, user="t")
    outcomes = []
    for _ in range(2):
        drop_everything(postgres_url)
        outcomes += race(settings, open_and_read, WRITERS, 1)
    assert outcomes == ["ok"] * 2 * WRITERS
    with opened(settings) as ledger, ledger.read_models.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM ledger_schema")).scalar() == 1


@pytest.mark.postgres
def test_opening_postgres_creates_nothing_once_the_schema_is_there(
    postgres_url: str, tmp_path: Path
) -> None:
    """Every open ran the library's CREATE ... IF NOT EXISTS and CREATE OR REPLACE
    FUNCTION, which fail concurrently ('tuple concurrently updated')."""
    settings = Settings(sqlite_path=tmp_path / "unused.db", database_url=postgres_url, user="t")
    with opened(settings) as ledger:
        create_league(ledger)
    outcomes = race(settings, open_and_read, WRITERS, 5)
    assert outcomes == ["ok"] * 5 * WRITERS


@contextlib.contextmanager
def opened(settings: Settings) -> Iterator[LeagueLedger]:
    ledger = open_ledger(settings)
    try:
        yield ledger
    finally:
        close_ledger(ledger)


def drop_everything(url: str) -> None:
    """The next opens find an empty database: no tables, types or functions."""
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("DROP SCHEMA public CASCADE"))
            conn.execute(sa.text("CREATE SCHEMA public"))
    finally:
        engine.dispose()
