"""The what-if section: the season's final table under another ruleset, beside the real one.

The what-if engine (``ledger.whatif``) replays the league's log under another ruleset (or
other options) into a memory store. What the report needs from it is a ``Comparison``:
the table ``Queries.standings`` gives over that store, plus the engine's own notes
(divergences, recorded and simulated rolls). ``comparison_for`` is the one place the CLI
asks for it; ``--whatif`` names the what-if as ``RULESET[:KEY=VALUE,...]``
(``lrb6-zal``, ``gold4:appearance_fees=monty_haul``, ``:bonus_points=added`` for the
league's own ruleset with another option).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from ledger.application.service import LeagueLedger
from ledger.projections.queries import Standings, TableRow
from ledger.reports.model import WhatIfRow, WhatIfSection
from ledger.whatif.compare import standings_of
from ledger.whatif.divergence import Divergence
from ledger.whatif.replay import replay_figures
from ledger.whatif.service import ask
from ledger.whatif.spec import label, parse_whatif


class Comparison(BaseModel):
    """What the what-if engine hands the report for one season."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str
    """The what-if's id as given to ``--whatif``."""
    ruleset: str
    ruleset_name: str
    standings: Standings
    """The final table of the same season under the other ruleset."""
    divergences: list[str] = []
    recorded_rolls: int | None = None
    simulated_rolls: int | None = None
    notes: list[str] = []


def comparison_for(
    ledger: LeagueLedger, league: str, season: int | None, whatif: str
) -> Comparison:
    """The what-if ``whatif`` of ``league``'s ``season`` (unknown ruleset or bad option: a
    ``LedgerError`` the CLI prints in one line)."""
    ruleset, options = parse_whatif(whatif)
    asked = ask(ledger, league, ruleset, options)
    outcome = replay_figures(  # it reads the table only
        asked.read(), asked.corrections, asked.source, asked.target, asked.league.league_id
    )
    table = standings_of(outcome, asked.target, season)
    return Comparison(
        id=whatif,
        ruleset=asked.target.id,
        ruleset_name=asked.target.name,
        standings=table,
        divergences=[divergence_line(d) for d in outcome.divergences],
        recorded_rolls=sum(outcome.recorded.values()),
        simulated_rolls=sum(outcome.simulated.values()),
        notes=[
            f"Replayed under {label(asked.target, asked.league)} with dice seed 0: recorded"
            " rolls of the same purpose are reused, the others simulated (docs/whatif.md).",
            "Results, scores and casualties are the recorded ones; 'ledger whatif' shows"
            " every figure that differs.",
        ],
    )


def divergence_line(d: Divergence) -> str:
    who = ", ".join(x for x in (d.team, d.subject) if x)
    return f"event {d.seq} ({who or d.event}): {d.reason}; {d.action} [{d.policy}]"


def flat(standings: Standings) -> dict[str, TableRow]:
    return {row.team_id: row for rows in standings.divisions.values() for row in rows}


def places(standings: Standings) -> dict[str, int]:
    """Every team's place in its division, shared by teams level on every tie-breaker."""
    return {
        t: r
        for rows in standings.divisions.values()
        for t, r in ((r.team_id, r.rank) for r in rows)
    }


def whatif_row(
    actual: TableRow, other: TableRow | None, ranks: tuple[int, int | None]
) -> WhatIfRow:
    rank, other_rank = ranks
    return WhatIfRow(
        team_id=actual.team_id,
        team=actual.name,
        division=actual.division,
        actual_rank=rank,
        actual_points=actual.row.points,
        whatif_rank=other_rank,
        whatif_points=other.row.points if other else None,
        movement=rank - other_rank if other_rank is not None else None,
    )


def whatif_section(actual: Standings, comparison: Comparison) -> WhatIfSection:
    """The real table and the other ruleset's, team by team, in the real table's order."""
    others, ranks, other_ranks = (
        flat(comparison.standings),
        places(actual),
        places(comparison.standings),
    )
    rows = [
        whatif_row(row, others.get(t), (ranks[t], other_ranks.get(t)))
        for t, row in flat(actual).items()
    ]
    return WhatIfSection(
        id=comparison.id,
        ruleset=comparison.ruleset,
        ruleset_name=comparison.ruleset_name,
        rows=rows,
        divergences=comparison.divergences,
        recorded_rolls=comparison.recorded_rolls,
        simulated_rolls=comparison.simulated_rolls,
        notes=comparison.notes,
    )
