"""``ledger generate`` under every edition: casualties rolled with the edition's own dice,
read by the edition as the outcome recorded, and re-drafts exactly where the edition has
them."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain import events as ev
from ledger.domain.log import league_id
from ledger.generate import Spec, generate
from ledger.rules import REGISTRY, find_ruleset
from ledger.rules.protocol import Feature


def generated(tmp_path: Path, ruleset_id: str, seasons: int) -> list[ev.LedgerEvent]:
    ledger: LeagueLedger = open_ledger(Settings(sqlite_path=tmp_path / "ledger.db"))
    try:
        spec = Spec(teams=4, seasons=seasons, seed=3, ruleset=ruleset_id, division_size=4)
        generate(ledger, spec)
        return list(ledger.source.league_events(str(league_id(spec.slug))))
    finally:
        close_ledger(ledger)


@pytest.mark.parametrize("ruleset_id", sorted(REGISTRY))
def test_generated_casualties_are_rolled_with_the_edition_dice(
    tmp_path: Path, ruleset_id: str
) -> None:
    ruleset = find_ruleset(ruleset_id)
    matches = [e for e in generated(tmp_path, ruleset_id, 1) if isinstance(e, ev.MatchRecorded)]
    casualties = [c for m in matches for c in m.casualties]
    assert len(casualties) >= 6  # a dozen games, about two casualties a game
    first = next(iter(ruleset.casualty_dice))
    for casualty in casualties:
        assert casualty.dice[0].purpose == first
        assert {(d.purpose, d.dice) for d in casualty.dice} <= set(ruleset.casualty_dice.items())
        read = ruleset.casualty_from_report(None, (), casualty.dice)
        assert read == (casualty.outcome, casualty.effects)


@pytest.mark.parametrize("ruleset_id", sorted(REGISTRY))
def test_teams_are_redrafted_between_seasons_only_where_the_edition_redrafts(
    tmp_path: Path, ruleset_id: str
) -> None:
    events = generated(tmp_path, ruleset_id, 2)
    redrafts = [e for e in events if isinstance(e, ev.TeamRedrafted)]
    redrafting = Feature.REDRAFT in find_ruleset(ruleset_id).features
    assert len(redrafts) == (4 if redrafting else 0)
