"""The what-if of a league in a ledger: its log read once, replayed twice, compared.

The real side is the league's log folded in memory under its own ruleset and options
(``replay`` in its native form: its records equal the live read models, which a test
checks table by table); the what-if side is the same log replayed under the target. Both
keep figures only, no audit line. Nothing is written: the stores are dropped when the
comparison is made.

Worked example: ``whatif(ledger, "season", "lrb6-zal", {})`` gives the ``Comparison`` that
``ledger whatif season --ruleset lrb6-zal --json`` prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ledger.application.service import LeagueLedger
from ledger.domain.events import LedgerEvent
from ledger.domain.state import LeagueRow
from ledger.rules.protocol import Ruleset
from ledger.whatif.compare import Comparison, compare
from ledger.whatif.replay import replay, source_ruleset
from ledger.whatif.spec import target_ruleset


@dataclass(frozen=True)
class Asked:
    """A league's log and the what-if asked of it."""

    league: LeagueRow
    events: list[LedgerEvent]
    source: Ruleset
    target: Ruleset


def ask(
    ledger: LeagueLedger, league: str, ruleset: str | None, options: Mapping[str, Any]
) -> Asked:
    """Read the league's log and resolve the target (unknown league, ruleset or option: a
    ``LedgerError``)."""
    row = ledger.league_row(league)
    target = target_ruleset(row, ruleset, options)
    events = list(ledger.source.league_events(row.league_id))
    return Asked(row, events, source_ruleset(events), target)


def comparison(asked: Asked, season: int | None = None, seed: int = 0) -> Comparison:
    """Both replays keep only figures: a comparison reads no audit line."""
    actual = replay(asked.events, asked.source, seed=seed, lines=False)
    whatif = replay(asked.events, asked.target, seed=seed, lines=False)
    return compare(actual, whatif, asked.source, asked.target, season, seed)


def whatif(
    ledger: LeagueLedger,
    league: str,
    ruleset: str | None,
    options: Mapping[str, Any],
    season: int | None = None,
    seed: int = 0,
) -> Comparison:
    return comparison(ask(ledger, league, ruleset, options), season, seed)
