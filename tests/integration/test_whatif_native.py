"""A what-if under the league's own ruleset and options is the live fold: every table equal.

Leagues built through the real commands (the scripted BB2025 season of
tests/integration/season_bb2025, a ZAL season with a bounty, a Star Player Roll, a
forfeit, a signed journeyman and corrections) are replayed by the what-if engine under
their own ruleset; each record and each line of the replay's memory store must equal the
SQL read models the ledger keeps, table by table.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from ledger.application.commands import (
    AdjustTreasury,
    AdvancePlayer,
    Correct,
    HirePlayer,
    PostBounty,
    RecordMatch,
)
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.state import ENTITY_RECORDS, LINE_RECORDS, PlayerRow, Record
from ledger.projections.fold import corrections_of
from ledger.projections.sql import table_of
from ledger.projections.store import MemoryStore
from ledger.rules import find_ruleset
from ledger.whatif.compare import compare
from ledger.whatif.montecarlo import results
from ledger.whatif.replay import replay, replay_figures, translate
from ledger.whatif.service import ask, comparison
from ledger.whatif.shared import start
from tests.rules.test_lrb6_zal_commands import FIRST, zal_league
from tests.support import report, without_play, zal_forfeit_report
from tests.support import roll as make_roll

LEDGER = str(Path(sys.executable).parent / "ledger")
SEASON = Path(__file__).parent / "season_bb2025" / "season.ledger"


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LeagueLedger]:
    """The scripted BB2025 season, recorded through the CLI."""
    db = tmp_path_factory.mktemp("whatif-season") / "season.db"
    done = subprocess.run(
        [LEDGER, "--db", str(db), "--as", "commissioner", "run", str(SEASON)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=SEASON.parent,
    )
    assert done.returncode == 0, done.stderr
    ledger = open_ledger(Settings(sqlite_path=db, user="tester"))
    yield ledger
    close_ledger(ledger)


def zal_season(ledger: LeagueLedger) -> str:
    """Two ZAL games through the commands, with a bounty, a Star Player Roll, a forfeit, a
    journeyman signed, and a correction (a voided fine)."""
    zal_league(ledger)
    ledger.handle(RecordMatch("zal", report(FIRST)), by="tester")
    ledger.handle(PostBounty("zal", "gouged", "reavers 1", 30_000), by="tester")
    dice = (make_roll("star_roll", "2D6", 6, 6), make_roll("ageing", "2D6", 2, 1))
    ledger.handle(
        AdvancePlayer("zal", "reavers", "reavers 1", "star_roll", characteristic="st", dice=dice),
        by="tester",
    )
    ledger.handle(AdjustTreasury("zal", "reavers", -10_000), by="tester", reason="a fine")
    fine = ledger.source.head()
    ledger.handle(RecordMatch("zal", report(zal_forfeit_report())), by="tester")
    ledger.handle(
        HirePlayer("zal", "reavers", "lineman", "Jo", journeyman="j1", match="r2"), by="tester"
    )
    ledger.handle(Correct("zal", fine, "void"), by="tester", reason="the fine was a mistake")
    return "zal"


def read_models(ledger: LeagueLedger, league_id: str) -> dict[str, list[Record]]:
    """Every record and line of one league in the SQL read models, in key order."""
    found: dict[str, list[Record]] = {}
    with ledger.read_models.engine.connect() as conn:
        for kind in (*ENTITY_RECORDS, *LINE_RECORDS):
            table = table_of(kind)
            rows = conn.execute(sa.select(table).where(table.c.league_id == league_id))
            records = [kind.model_validate(dict(row)) for row in rows.mappings()]
            found[kind.table] = sorted(records, key=lambda r: r.key_values())
    return found


def in_memory(store: MemoryStore, league_id: str) -> dict[str, list[Record]]:
    found: dict[str, list[Record]] = {}
    for kind in ENTITY_RECORDS:
        found[kind.table] = [r for r in store.all(kind) if r.key_values()[0] == league_id]
    for line in LINE_RECORDS:
        lines = [r for r in store.lines[line] if r.key_values()[0] == league_id]
        found[line.table] = sorted(lines, key=lambda r: r.key_values())
    return found


def assert_replay_equals_read_models(ledger: LeagueLedger, league: str) -> None:
    ledger.catch_up()
    row = ledger.league_row(league)
    events = list(ledger.source.league_events(row.league_id))
    outcome = replay(events, find_ruleset(row.ruleset, row.options))
    live, replayed = read_models(ledger, row.league_id), in_memory(outcome.store, row.league_id)
    assert sorted(live) == sorted(replayed)
    for table in sorted(live):
        assert replayed[table] == live[table], f"{table} differs"
    assert outcome.divergences == []
    assert sum(outcome.simulated.values()) == 0  # every roll of a native replay is recorded


def test_the_bb2025_season_replayed_under_its_own_rules_equals_every_table(
    season: LeagueLedger,
) -> None:
    assert_replay_equals_read_models(season, "season")


def test_a_zal_season_with_corrections_replayed_under_its_own_rules_equals_every_table(
    sqlite_ledger: LeagueLedger,
) -> None:
    assert_replay_equals_read_models(sqlite_ledger, zal_season(sqlite_ledger))


def test_a_replay_under_other_options_is_not_the_native_fold(season: LeagueLedger) -> None:
    """Only the league's own options make the native replay: other options recompute."""
    row = season.league_row("season")
    events = list(season.source.league_events(row.league_id))
    added = replay(events, find_ruleset("bb2025", {"bonus_points": "added"}))
    live = read_models(season, row.league_id)
    replayed = in_memory(added.store, row.league_id)
    assert replayed["rm_standings"] != live["rm_standings"]
    assert replayed["rm_players"] == live["rm_players"]


@pytest.mark.parametrize("ruleset", ["bb2025", "lrb6-zal"])  # the native fold, a replay
def test_a_replay_for_figures_keeps_every_record_and_no_line(
    season: LeagueLedger, ruleset: str
) -> None:
    """What a comparison replays (``replay_figures``): the same records, no audit line."""
    row = season.league_row("season")
    events = list(season.source.league_events(row.league_id))
    target = find_ruleset(ruleset, row.options if ruleset == row.ruleset else {})
    source = find_ruleset(row.ruleset, row.options)
    whole = replay(events, target)
    figures = replay_figures(iter(events), corrections_of(events), source, target, row.league_id)
    for kind in ENTITY_RECORDS:
        assert figures.store.all(kind) == whole.store.all(kind), kind.table
    assert all(whole.store.lines[kind] for kind in LINE_RECORDS if kind.table != "rm_faults")
    assert not any(figures.store.lines[kind] for kind in LINE_RECORDS)
    assert figures.divergences == whole.divergences


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("bb2025", None),  # the league's own fold, its options kept
        ("bb2025", {"bonus_points": "added"}),
        ("bb2020", {}),
        ("lrb6-zal", {}),
        ("gold4", {}),
        ("dz3", {}),
    ],
)
def test_a_sample_keeps_every_figure_of_a_whole_replay_and_no_record_of_play(
    season: LeagueLedger, ruleset: str, options: dict[str, str] | None
) -> None:
    """What a Monte Carlo sample folds (``SampleFold``) against the whole replay with the
    same seed: every record the same but the players' records of play (their seasons
    kept: the re-draft reads them), the same table, ratings and treasuries."""
    row = season.league_row("season")
    events = list(season.source.league_events(row.league_id))
    target = find_ruleset(ruleset, row.options if options is None else options)
    sampled = start(events, target, translate(events, target)).sample(7)
    whole = replay(events, target, seed=7)
    for kind in ENTITY_RECORDS:
        if kind is not PlayerRow:
            assert sampled.store.all(kind) == whole.store.all(kind), kind.table
    players = whole.store.all(PlayerRow)
    assert sampled.store.all(PlayerRow) == [without_play(p) for p in players]
    assert sum(p.games for p in players) > 0
    assert all(p.seasons for p in players if p.games)
    assert results(sampled, target, 1) == results(whole, target, 1)


def test_a_comparison_reads_the_log_as_it_stood_when_asked_one_event_at_a_time(
    sqlite_ledger: LeagueLedger,
) -> None:
    """``comparison`` never holds the log whole: it reads it anew for each side, with the
    corrections read beforehand. It equals the replays of the whole list, corrections
    included, and reads the log up to the version it was asked at."""
    league = zal_season(sqlite_ledger)
    asked = ask(sqlite_ledger, league, "bb2025", {})
    assert [c.action for c in asked.corrections.values()] == ["void"]  # the fine
    events = asked.events()
    actual, whatif = (replay(events, r) for r in (asked.source, asked.target))
    whole = compare(actual, whatif, asked.source, asked.target, None, 0)
    assert comparison(asked) == whole
    sqlite_ledger.handle(AdjustTreasury(league, "reavers", 50_000), by="tester", reason="later")
    assert comparison(asked) == whole  # the later event is not read
    assert comparison(ask(sqlite_ledger, league, "bb2025", {})) != whole
