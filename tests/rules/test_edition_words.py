"""A refusal names the edition the league plays: bb2020 shares bb2025's rules, not its name."""

from __future__ import annotations

import pytest

from ledger.domain.events import PlayerAdvanced
from ledger.domain.state import PlayerRow, TeamRow
from ledger.errors import InvalidInput
from ledger.rules import find_ruleset
from tests.rules.seam import said


@pytest.mark.parametrize(("ruleset", "book"), [("bb2025", "BB2025"), ("bb2020", "BB2020")])
def test_a_refusal_names_the_league_s_own_edition(ruleset: str, book: str) -> None:
    rules = find_ruleset(ruleset)
    team = TeamRow(league_id="l", team_id="t", name="T", coach="c", roster="human", drafting=False)
    assert said(rules.check_release(team, "reroll")) == [
        f"{book} team re-rolls cannot be removed from the roster once drafted"
    ]
    with pytest.raises(InvalidInput, match=f"'broken' is not a {book} casualty outcome"):
        rules.casualty_from_report("broken", (), ())


@pytest.mark.parametrize(("ruleset", "rule"), [("lrb6", "LRB6 p.26"), ("lrb6-zal", "ZAL 17")])
def test_a_skill_bought_with_spp_is_refused_citing_the_league_s_own_rule(
    ruleset: str, rule: str
) -> None:
    rules = find_ruleset(ruleset)
    lineman = rules.catalogue.position("human", "lineman")
    player = PlayerRow(
        league_id="l",
        player_id="p",
        team_id="t",
        name="Hans",
        roster="human",
        position="lineman",
        **lineman.model_dump(include={"ma", "st", "ag", "pa", "av"}),
        spp=6,
        spp_earned=6,
    )
    team = TeamRow(league_id="l", team_id="t", name="T", coach="c", roster="human")
    bought = PlayerAdvanced.model_construct(
        team="t", player="p", kind="chosen_primary", skill="Block", dice=()
    )
    assert said(rules.check_advancement(player, team, bought)) == [
        f"players improve by Star Player Rolls: use kind star_roll ({rule})"
    ]
