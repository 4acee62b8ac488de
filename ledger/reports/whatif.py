"""The what-if section: the season's final table under another ruleset, beside the real one.

The what-if engine (``ledger.whatif``, being written) replays the league's log under
another ruleset into a memory store. What the report needs from it is a ``Comparison``:
the table ``Queries.standings`` would give over that store, plus the engine's own notes
(divergences, recorded and simulated rolls). ``comparison_for`` is the one place the CLI
asks for it; until the engine exists it refuses with a clear error. To plug the engine in,
make ``comparison_for`` build a ``Comparison`` from its replay: nothing else changes.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from ledger.application.service import LeagueLedger
from ledger.projections.queries import Standings, TableRow
from ledger.reports.errors import WhatIfUnavailable
from ledger.reports.model import WhatIfRow, WhatIfSection


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
    """The what-if ``whatif`` of ``league``'s ``season`` (the seam for the what-if engine)."""
    raise WhatIfUnavailable(
        f"the what-if engine is not available yet, so --whatif {whatif} cannot be compared;"
        " make the report without --whatif"
    )


def flat(standings: Standings) -> dict[str, TableRow]:
    return {row.team_id: row for rows in standings.divisions.values() for row in rows}


def whatif_row(actual: TableRow, other: TableRow | None) -> WhatIfRow:
    return WhatIfRow(
        team_id=actual.team_id,
        team=actual.name,
        division=actual.division,
        actual_rank=actual.rank,
        actual_points=actual.row.points,
        whatif_rank=other.rank if other else None,
        whatif_points=other.row.points if other else None,
        movement=actual.rank - other.rank if other else None,
    )


def whatif_section(actual: Standings, comparison: Comparison) -> WhatIfSection:
    """The real table and the other ruleset's, team by team, in the real table's order."""
    others = flat(comparison.standings)
    rows = [whatif_row(row, others.get(row.team_id)) for row in flat(actual).values()]
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
