"""A refusal names the edition the league plays: bb2020 shares bb2025's rules, not its name."""

from __future__ import annotations

import pytest

from ledger.domain.state import TeamRow
from ledger.errors import InvalidInput
from ledger.rules import find_ruleset


@pytest.mark.parametrize(("ruleset", "book"), [("bb2025", "BB2025"), ("bb2020", "BB2020")])
def test_a_refusal_names_the_league_s_own_edition(ruleset: str, book: str) -> None:
    rules = find_ruleset(ruleset)
    team = TeamRow(league_id="l", team_id="t", name="T", coach="c", roster="human", drafting=False)
    assert rules.check_release(team, "reroll") == [
        f"{book} team re-rolls cannot be removed from the roster once drafted"
    ]
    with pytest.raises(InvalidInput, match=f"'broken' is not a {book} casualty outcome"):
        rules.casualty_from_report("broken", (), ())
