"""The what-if of a league in a ledger: its log replayed twice, compared.

The real side is the league's log folded in memory under its own ruleset and options
(``replay`` in its native form: its records equal the live read models, which a test
checks table by table); the what-if side is the same log replayed under the target. Both
keep figures only, no audit line. Nothing is written: the stores are dropped when the
comparison is made.

Worked example: ``whatif(ledger, "season", "lrb6-zal", {})`` gives the ``Comparison`` that
``ledger whatif season --ruleset lrb6-zal --json`` prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ledger.application.service import LeagueLedger
from ledger.domain.events import EventCorrected, LedgerEvent
from ledger.domain.state import LeagueRow, MatchRow, SeasonRow
from ledger.projections.fold import corrections_of
from ledger.rules.protocol import Ruleset
from ledger.whatif.compare import Comparison, compare
from ledger.whatif.montecarlo import no_season
from ledger.whatif.replay import replay_figures, source_ruleset
from ledger.whatif.spec import target_ruleset


@dataclass(frozen=True)
class Asked:
    """A league's log as it stood when asked, and the what-if asked of it."""

    league: LeagueRow
    source: Ruleset
    target: Ruleset
    read: Callable[[], Iterator[LedgerEvent]]
    """The log up to the league's version, read afresh one event at a time: a long
    league's decoded log would be most of what a comparison holds (620 MB of 1.06 GB for
    84,596 events)."""
    corrections: Mapping[int, EventCorrected]
    """The log's corrections, read beforehand: a fold must know them before the event
    they correct."""

    def events(self) -> list[LedgerEvent]:
        """The whole log at once, for what shares it (the Monte Carlo samples)."""
        return list(self.read())


def ask(
    ledger: LeagueLedger,
    league: str,
    ruleset: str | None,
    options: Mapping[str, Any],
    season: int | None = None,
) -> Asked:
    """Resolve the league, the target and the season (unknown league, ruleset, option or
    season: a ``LedgerError``)."""
    row = ledger.league_row(league)
    target = target_ruleset(row, ruleset, options)
    check_season(ledger, row, season)
    return asked_of(ledger, row, target)


def check_season(ledger: LeagueLedger, row: LeagueRow, season: int | None) -> None:
    """A season asked for is one the league has, as the replay would find it (a season
    started, or one a recorded match names: ``montecarlo.seasons_of``), refused before
    the replay is asked, from the read models rather than the whole log."""
    if season is None:
        return
    view = ledger.view()
    if view.get(SeasonRow, row.league_id, season) or view.select(
        MatchRow, league_id=row.league_id, season=season
    ):
        return
    known = {s.season for s in view.select(SeasonRow, league_id=row.league_id)}
    known |= {m.season for m in view.select(MatchRow, league_id=row.league_id) if m.season}
    raise no_season(row.slug, season, known)


def asked_of(ledger: LeagueLedger, row: LeagueRow, target: Ruleset) -> Asked:
    """The what-if ``target`` of the league's log as it stood at ``row``'s version."""
    league_id, last = row.league_id, row.version

    def read() -> Iterator[LedgerEvent]:
        return ledger.source.league_events(league_id, last=last)

    created = list(ledger.source.league_events(league_id, last=1))
    corrections = corrections_of(ledger.source.league_corrections(league_id, last))
    return Asked(row, source_ruleset(created), target, read, corrections)


def comparison(asked: Asked, season: int | None = None, seed: int = 0) -> Comparison:
    """Both sides are replayed for figures (no audit line), each reading the log anew."""
    league_id = asked.league.league_id
    actual = replay_figures(
        asked.read(), asked.corrections, asked.source, asked.source, league_id, seed
    )
    whatif = replay_figures(
        asked.read(), asked.corrections, asked.source, asked.target, league_id, seed
    )
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
