"""The contract every edition keeps, whatever its rules and options (STYLE.md practice 11).

For every registered ruleset (``ledger.rules.RULESETS``) and each option set it declares
(``example_option_sets``; the defaults otherwise), a league of four teams is driven through
the real commands on a temporary SQLite ledger, the ledger rolling what the reports leave
out with a seeded generator (tests/rules/contract_support.py). Then:

(a) replay determinism: folding the league's log twice gives identical state;
(b) no negative treasury after validated commands: not in the read models, not after any
    single treasury line;
(c) rebuild equals incremental: every read-model table caught up event by event equals the
    same table rebuilt from the log, and the in-memory fold agrees with both;
(d) the log verifies: an unbroken hash chain holding every event of the league;
(e) every team's values are the ruleset's for the team and roster the books now hold: the
    fold asks for them again only when a field its ``value_reads`` names changed.

A fixed short season (each pair of teams meets once) runs under every option set; hypothesis
then varies the commands - hires, purchases, match reports with random scores, casualties
and concessions, post-game closes, firings, adjustments, cards, bounties. Refusals are
expected in such sequences, and each must leave the log exactly as it was.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import tempfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.application.audit import verify_chain
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.log import league_id
from ledger.domain.state import ENTITY_RECORDS, LINE_RECORDS, TeamRow, TreasuryLine, roster_of
from ledger.projections.fold import fold
from ledger.projections.sql import ALL_TABLES
from ledger.projections.store import MemoryStore
from ledger.rules import find_ruleset
from tests.rules.contract_support import (
    A_SHORT_SEASON,
    OPS,
    Season,
    Step,
    case_id,
    option_sets,
)

CASES = option_sets()
Case = tuple[str, dict[str, Any]]
Snapshot = dict[str, list[Any]]


# --- the invariants --------------------------------------------------------------------------


def folded(ledger: LeagueLedger, slug: str) -> MemoryStore:
    row = ledger.league_row(slug)
    events = list(ledger.source.league_events(row.league_id))
    return fold(events, find_ruleset(row.ruleset, row.options))


def state_of(store: MemoryStore) -> Snapshot:
    found: Snapshot = {kind.__name__: store.all(kind) for kind in ENTITY_RECORDS}
    found |= {kind.__name__: list(store.lines[kind]) for kind in LINE_RECORDS}
    return found


def tables_of(ledger: LeagueLedger) -> Snapshot:
    """Every row of every read-model table, in a stable order."""
    with ledger.read_models.engine.connect() as conn:
        return {
            table.name: sorted((tuple(row) for row in conn.execute(sa.select(table))), key=repr)
            for table in ALL_TABLES
        }


def sql_records(ledger: LeagueLedger, slug: str) -> Snapshot:
    view, lid = ledger.view(), ledger.league_row(slug).league_id
    return {
        kind.__name__: sorted(view.select(kind, league_id=lid), key=lambda r: r.key_values())
        for kind in ENTITY_RECORDS
    }


def assert_contract(ledger: LeagueLedger, slug: str) -> None:
    # (a) replay determinism
    once, twice = folded(ledger, slug), folded(ledger, slug)
    assert state_of(once) == state_of(twice)

    # (b) no negative treasury, in the read models and after every treasury line
    lid = ledger.league_row(slug).league_id
    teams = ledger.view().select(TeamRow, league_id=lid)
    assert [t.team_id for t in teams if t.treasury < 0] == []
    lines = [line for line in once.lines[TreasuryLine] if isinstance(line, TreasuryLine)]
    assert lines, "no treasury line at all: the league was not driven"
    assert [(n.seq, n.team_id, n.kind, n.balance) for n in lines if n.balance < 0] == []

    # (c) rebuild equals incremental (and the pure fold agrees with the SQL read models)
    incremental, records = tables_of(ledger), sql_records(ledger, slug)
    assert records == {kind.__name__: once.all(kind) for kind in ENTITY_RECORDS}
    stats = ledger.read_models.rebuild(ledger.source)
    assert stats.events == ledger.source.head()
    assert tables_of(ledger) == incremental

    # (d) the log verifies
    chain = verify_chain(ledger.recorder, league_id(slug), slug)
    assert chain.ok, chain.breaks
    assert chain.events == ledger.league_row(slug).version

    # (e) values kept are values due (tests/rules/test_value_reads.py: what each edition reads)
    row = ledger.league_row(slug)
    ruleset = find_ruleset(row.ruleset, row.options)
    for team in once.all(TeamRow):
        due = ruleset.team_values(team, roster_of(once, lid, team.team_id))
        assert (team.team_id, team.values) == (team.team_id, due)


# --- ledgers: a drafted league per case, copied for each run ---------------------------------


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Case], Path]:
    """The SQLite file of a league drafted under ``case``, built once per case."""
    built: dict[str, Path] = {}

    def template(case: Case) -> Path:
        name = case_id(case)
        if name not in built:
            folder = tmp_path_factory.mktemp("contract")
            ledger = open_ledger(Settings(sqlite_path=folder / "ledger.db", user="contract"))
            Season(ledger, *case).open()
            close_ledger(ledger)
            built[name] = folder
        return built[name]

    return template


@contextlib.contextmanager
def season_on_copy(template: Path, case: Case, seed: int) -> Iterator[Season]:
    with tempfile.TemporaryDirectory() as folder:
        for file in template.iterdir():
            shutil.copy(file, folder)
        ledger = open_ledger(
            Settings(sqlite_path=Path(folder) / "ledger.db", user="contract"),
            roller=random.Random(seed),
        )
        try:
            yield Season.resume(ledger, *case)
        finally:
            close_ledger(ledger)


# --- the suite ---------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_a_short_season_keeps_the_contract(drafted: Callable[[Case], Path], case: Case) -> None:
    with season_on_copy(drafted(case), case, seed=2021) as season:
        season.play(A_SHORT_SEASON)
        season.finish()
        assert len(season.played()) == 6, season.refusals
        assert_contract(season.ledger, season.slug)


STEPS = st.lists(
    st.tuples(
        st.sampled_from(OPS),
        st.integers(0, 11),
        st.integers(0, 11),
        st.integers(0, 2**16),
    ),
    min_size=3,
    max_size=12,
)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(steps=STEPS, seed=st.integers(0, 2**16))
def test_any_sequence_of_commands_keeps_the_contract(
    drafted: Callable[[Case], Path], case: Case, steps: list[Step], seed: int
) -> None:
    salt = zlib.crc32(case_id(case).encode())  # derandomized: vary the runs between cases
    with season_on_copy(drafted(case), case, seed ^ salt) as season:
        season.play([(op, a + salt, b + salt // 7, s ^ salt) for op, a, b, s in steps])
        season.finish()
        assert_contract(season.ledger, season.slug)
