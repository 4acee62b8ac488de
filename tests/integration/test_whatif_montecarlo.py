"""Monte Carlo what-ifs: distributions that depend on the seeds alone, not on the workers.

The BB2025 league of tests/integration/test_whatif_editions.py (two teams, one game) is
replayed many times under lrb6-zal, where its winnings rest on simulated dice, and under
its own ruleset with another option, where nothing is simulated.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.application.commands import StartSeason
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.events import LedgerEvent
from ledger.domain.values import Division
from ledger.rules import find_ruleset
from ledger.whatif.montecarlo import run_samples
from ledger.whatif.replay import replay, translate
from ledger.whatif.shared import start
from tests.integration.test_whatif_editions import bb2025_log
from tests.support import HUMAN_ELEVEN, SKAVEN_ELEVEN, draft_team, two_team_league

__all__ = ["bb2025_log"]  # the fixture, shared


def test_the_distributions_do_not_depend_on_how_the_work_is_shared(
    bb2025_log: list[LedgerEvent],
) -> None:
    target = find_ruleset("lrb6-zal")
    alone = run_samples(bb2025_log, target, 12, workers=1)
    shared = run_samples(bb2025_log, target, 12, workers=2)
    assert alone.model_dump_json() == shared.model_dump_json()


def test_places_and_titles_are_probabilities(bb2025_log: list[LedgerEvent]) -> None:
    found = run_samples(bb2025_log, find_ruleset("lrb6-zal"), 20, workers=1)
    assert found.samples == 20
    assert [t.team_id for t in found.teams] == ["rats", "reavers"]
    for team in found.teams:
        assert sum(team.places) == pytest.approx(1.0)
    assert sum(t.champion for t in found.teams) == pytest.approx(1.0)
    reavers = found.teams[1]
    assert reavers.places == [1.0, 0.0]  # a recorded 2-1 win: first in every sample
    # ZAL winnings rest on simulated dice: (D6 + 1 + 1) x 10,000 from 430,000.
    assert 430_000 + 30_000 <= reavers.treasury.mean <= 430_000 + 80_000
    assert reavers.treasury.sd > 0


def test_nothing_varies_when_nothing_is_simulated(bb2025_log: list[LedgerEvent]) -> None:
    found = run_samples(bb2025_log, find_ruleset("bb2025", {"bonus_points": "added"}), 5, 1)
    assert {t.treasury.sd for t in found.teams} == {0.0}
    assert {t.rating.sd for t in found.teams} == {0.0}


def test_a_sample_from_the_shared_start_equals_a_whole_replay(
    bb2025_log: list[LedgerEvent],
) -> None:
    """Each worker replays the draft once and copies it for every sample."""
    target = find_ruleset("dz3")
    steps = translate(bb2025_log, target)
    begun = start(bb2025_log, target, steps)
    assert 0 < begun.index < len(steps)
    for seed in (1, 2, 3):
        whole = replay(bb2025_log, target, seed=seed, explain=False, steps=steps)
        sampled = begun.sample(seed)
        for kind in whole.store.records:
            assert sampled.store.all(kind) == whole.store.all(kind)
        assert sampled.simulated == whole.simulated


def test_a_first_place_shared_is_shared_out(tmp_path: Path) -> None:
    """A season started and no game played: the four teams are level on every
    tie-breaker, each first in every sample. Each was champion 100% (400% in all);
    each is a quarter now (a helper's pass through the what-ifs, forty-fourth session)."""
    ledger = open_ledger(Settings(sqlite_path=tmp_path / "level.db", user="t"))
    try:
        two_team_league(ledger)
        draft_team(ledger, "test", "elves", "human", HUMAN_ELEVEN)
        draft_team(ledger, "test", "orcs", "skaven", SKAVEN_ELEVEN)
        teams = ("reavers", "rats", "elves", "orcs")
        ledger.handle(StartSeason("test", [Division(name="A", teams=teams)]), by="t")
        log = list(ledger.source.league_events(ledger.league_row("test").league_id))
    finally:
        close_ledger(ledger)
    found = run_samples(log, find_ruleset("lrb6-zal"), 4, workers=1)
    assert [t.places[0] for t in found.teams] == [1.0] * 4  # each his own chance of 1st
    assert [t.champion for t in found.teams] == [0.25] * 4
