"""A past season's table shows the teams' values as they are now (the read models keep
no past team value): it says so, and where the values at the season's end are (the
season report), where before it showed today's TV beside season 1's points unmarked."""

from __future__ import annotations

from pathlib import Path

from tests.cli.inprocess import run_ledger


def test_a_past_seasons_table_says_its_values_are_todays(tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    run_ledger(db, "generate", "--teams", "4", "--seasons", "2", "--division-size", "4", check=True)
    past = run_ledger(db, "standings", "--season", "1", check=True).out
    assert "TV and CTV are the teams' now; the season report has them as season 1 ended" in past
    latest = run_ledger(db, "standings", check=True).out
    assert "the teams' now" not in latest
    assert run_ledger(db, "standings", "--season", "1", "--json", check=True).out.startswith("{")
