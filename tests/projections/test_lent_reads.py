"""Reads through one connection (``reads_through_one``): what a service's read asks goes
through one pooled connection a thread call, not one a question, and still sees what
other writers commit between its questions."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from psycopg.pq import TransactionStatus

from ledger.application.commands import Buy
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings
from ledger.domain.log import league_id
from ledger.domain.state import LeagueRow, PlayerRow, TeamRow
from ledger.projections.sql import LENT, Lent, SqlStore, read_connection, reads_through_one
from tests.support import two_team_league

LEAGUE = str(league_id("test"))


@pytest.fixture
def checkouts(ledger: LeagueLedger) -> Iterator[list[object]]:
    """The read models' pool's checkouts from here on."""
    seen: list[object] = []

    def checked_out(*_: object) -> None:
        seen.append(None)

    pool = ledger.read_models.engine.pool
    sa.event.listen(pool, "checkout", checked_out)
    yield seen
    sa.event.remove(pool, "checkout", checked_out)


def questions(ledger: LeagueLedger) -> int:
    """Three questions, each through a store of its own (as a request's guard and route
    ask theirs): the league, a team and its players."""
    engine = ledger.read_models.engine
    league = SqlStore(engine).get(LeagueRow, LEAGUE)
    team = SqlStore(engine).get(TeamRow, LEAGUE, "reavers")
    players = SqlStore(engine).select(PlayerRow, league_id=LEAGUE, team_id="reavers")
    assert league is not None
    assert team is not None
    return len(players)


def test_a_block_asks_its_questions_through_one_connection(
    ledger: LeagueLedger, checkouts: list[object]
) -> None:
    two_team_league(ledger)
    checkouts.clear()
    alone = questions(ledger)
    assert len(checkouts) == 3
    checkouts.clear()
    lent: list[Lent | None] = []

    def asked() -> int:
        lent.append(LENT.get())  # held past the block: the connection goes back anyway
        return questions(ledger)

    assert reads_through_one(asked)() == alone
    assert len(checkouts) == 1
    assert lent[0] is not None
    assert not lent[0].held
    assert ledger.read_models.engine.pool.checkedout() == 0  # given back


def test_a_block_within_a_block_reads_through_the_outer_ones_connection(
    ledger: LeagueLedger, checkouts: list[object]
) -> None:
    two_team_league(ledger)
    checkouts.clear()

    def outer() -> int:
        return reads_through_one(questions)(ledger) + questions(ledger)

    reads_through_one(outer)()
    assert len(checkouts) == 1


def test_a_lent_connection_sees_what_another_writer_commits_meanwhile(
    ledger: LeagueLedger,
) -> None:
    """No snapshot is held between questions: a write committed after the block's first
    read shows in its next one (as with a connection a question)."""
    two_team_league(ledger)

    def before_and_after() -> tuple[int, int]:
        engine = ledger.read_models.engine
        before = SqlStore(engine).get(TeamRow, LEAGUE, "reavers")
        ledger.handle(Buy("test", "reavers", "reroll"), by="t")  # its own connections
        after = SqlStore(engine).get(TeamRow, LEAGUE, "reavers")
        assert before is not None
        assert after is not None
        return before.treasury, after.treasury

    before, after = reads_through_one(before_and_after)()
    assert after < before


def test_the_connection_goes_back_when_the_block_fails(ledger: LeagueLedger) -> None:
    two_team_league(ledger)

    lent: list[Lent | None] = []

    def failing() -> None:
        lent.append(LENT.get())
        questions(ledger)
        raise LookupError("the route's own failure")

    with pytest.raises(LookupError):
        reads_through_one(failing)()
    assert ledger.read_models.engine.pool.checkedout() == 0
    assert questions(ledger) > 0  # and reads go on, through connections of their own


def test_on_postgresql_a_lent_connection_holds_no_transaction(
    postgres_url: str, open_ledgers: Callable[[Settings], LeagueLedger]
) -> None:
    """PostgreSQL begins a transaction at a read unless in autocommit, and the pool then
    ends it with a ROLLBACK, a round trip, when the connection goes back: the lent one
    reads in autocommit, so there is none to end."""
    ledger = open_ledgers(Settings(sqlite_path=Path("unused.db"), database_url=postgres_url))
    two_team_league(ledger)
    engine = ledger.read_models.engine

    def status_after_reading() -> TransactionStatus:
        with read_connection(engine) as conn:
            conn.exec_driver_sql("SELECT 1")
            return conn.connection.dbapi_connection.info.transaction_status  # type: ignore[union-attr]

    assert reads_through_one(status_after_reading)() == TransactionStatus.IDLE
    assert status_after_reading() == TransactionStatus.INTRANS  # a connection of its own
