"""The last results a page shows, read from the newest back (``Queries.latest_played``):
the same matches, in the same order, as sorting every match of the league would give."""

from __future__ import annotations

from pathlib import Path

from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.state import MatchRow
from ledger.generate import Spec, generate
from ledger.projections.queries import Queries
from ledger.rules import find_ruleset


def every_played(queries: Queries, team: str | None) -> list[MatchRow]:
    played = [
        m
        for m in queries.matches()
        if m.status == "played" and (team is None or team in (m.home, m.away, *m.others))
    ]
    return sorted(played, key=lambda m: m.recorded_seq or 0, reverse=True)


def test_the_latest_results_are_the_newest_played_matches(tmp_path: Path) -> None:
    ledger = open_ledger(Settings(sqlite_path=tmp_path / "ledger.db"))
    try:
        generate(ledger, Spec(teams=8, seasons=3, seed=5, division_size=8, slug="big"))
        row = ledger.league_row("big")
        ruleset = find_ruleset(row.ruleset, row.options)
        sql = Queries(ledger.read_models.engine, row, ruleset)
        memory = Queries.over(ledger.view(), row, ruleset)
        teams = [None, *(t.team_id for t in sql.teams())]
        assert len(every_played(sql, None)) > 64  # the league's results span several pages
        for team in teams:
            expected = every_played(sql, team)
            assert len(expected) > 5
            for limit in (1, 5, 100, len(expected) + 1):
                assert sql.latest_played(limit, team) == expected[:limit]
                assert memory.latest_played(limit, team) == expected[:limit]
    finally:
        close_ledger(ledger)
