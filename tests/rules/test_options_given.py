"""A ruleset's options as a commissioner gives them: a list option as its items separated
by commas, as ``ledger rulesets`` prints it, or as JSON; in ``report --whatif`` too, whose
own pairs are separated by commas. A value refused is said in the league's words, with no
other option suggested for it (it suggested 'forfeits' for a value of forfeit_penalties)."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.errors import InvalidOption
from ledger.rules import find_ruleset
from ledger.whatif.spec import parse_whatif


@pytest.mark.parametrize(
    ("given", "penalties"),
    [
        ("income", ("income",)),
        ("income, spp", ("income", "spp")),
        (["income", "fans"], ("income", "fans")),
    ],
)
def test_a_list_option_takes_its_items_as_printed_or_as_json(
    given: Any, penalties: tuple[str, ...]
) -> None:
    ruleset = find_ruleset("dz3", {"forfeit_penalties": given})
    assert ruleset.options.model_dump()["forfeit_penalties"] == penalties


@pytest.mark.parametrize(
    ("text", "options"),
    [
        ("dz3:forfeit_penalties=income,spp", {"forfeit_penalties": "income,spp"}),
        (
            'dz3:forfeit_penalties=["income","spp"],forfeits=d',
            {"forfeit_penalties": ["income", "spp"], "forfeits": "d"},
        ),
        (":bonus_points=added", {"bonus_points": "added"}),
    ],
)
def test_report_whatif_pairs_keep_a_lists_commas(text: str, options: dict[str, Any]) -> None:
    assert parse_whatif(text)[1] == options


def test_a_value_refused_names_the_option_and_suggests_no_other() -> None:
    with pytest.raises(InvalidOption) as refused:
        find_ruleset("dz3", {"forfeit_penalties": "income,bogus"})
    said = refused.value.message
    assert said.startswith("ruleset dz3: option forfeit_penalties.1: must be 'income', 'spp' or")
    assert "did you mean" not in said
    with pytest.raises(InvalidOption, match="did you mean 'forfeit_penalties'"):
        find_ruleset("dz3", {"forfeit_penaltes": "income"})


YES_OR_NO = [
    ("bb2025", "redraft_cap"),
    ("bb2020", "referees"),
    ("lrb6-zal", "fame_in_winnings"),
    ("gold4", "secret_weapons"),
    ("dz3", "fan_factor_damping"),
]


@pytest.mark.parametrize(("ruleset", "option"), YES_OR_NO)
@pytest.mark.parametrize("given", ["yes", 1, "1", "on"])
def test_a_yes_or_no_option_takes_true_or_false_only(ruleset: str, option: str, given: Any) -> None:
    """Found by the API hunt: "yes" and 1 were stored as true (pydantic's lax booleans), so
    a typo'd value became a league's setting without a word."""
    with pytest.raises(InvalidOption, match=f"option {option}: must be true or false"):
        find_ruleset(ruleset, {option: given})
    assert find_ruleset(ruleset, {option: False}).options.model_dump()[option] is False
