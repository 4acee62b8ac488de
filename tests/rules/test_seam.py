"""The shape of the seam itself: a narrow protocol, each question's hooks, options typed
once, what an edition must write, the rows a ruleset is given."""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from ledger.domain.events import PlayerAdvanced
from ledger.domain.state import PlayerRow, TeamRow
from ledger.rules import RULESETS, asked
from ledger.rules.asked import Decision, Happened, Priced, Rolled, Valued
from ledger.rules.base import BaseRuleset, NoOptions
from ledger.rules.bb2025.ruleset import BB2025, BB2025Options
from ledger.rules.hooks import CHECKS, DICE, OUTCOMES, PRICES, VALUES
from ledger.rules.lrb6 import LRB6
from ledger.rules.lrb6_zal import LRB6ZAL
from ledger.rules.lrb6_zal.options import Options as ZalOptions
from ledger.rules.protocol import AdvancementResult, Ruleset
from ledger.rules.rows import MatchRows, TeamRows


def test_the_protocol_asks_at_most_25_questions() -> None:
    """Issue 13: callers see a narrow seam; a question with many kinds of answer takes a
    value saying what is asked (``asked.py``), and an edition overrides hooks on
    ``BaseRuleset``, not the protocol. Properties and class attributes are not counted."""
    methods = [
        name
        for name, member in vars(Ruleset).items()
        if inspect.isfunction(member) and not name.startswith("_")
    ]
    assert len(methods) <= 25, sorted(methods)


QUESTIONS = [
    (Decision, CHECKS),
    (Rolled, DICE),
    (Happened, OUTCOMES),
    (Priced, PRICES),
    (Valued, VALUES),
]


@pytest.mark.parametrize(
    ("kinds", "table"), QUESTIONS, ids=["problems", "dice_needed", "outcomes", "price", "value"]
)
def test_every_kind_of_question_has_the_hook_that_answers_it(
    kinds: Any, table: Mapping[type, object]
) -> None:
    assert set(typing.get_args(kinds)) == set(table)


def test_every_value_a_caller_may_ask_about_is_asked_by_some_question() -> None:
    values = {
        v
        for v in vars(asked).values()
        if dataclasses.is_dataclass(v) and v.__module__ == asked.__name__
    }
    assert values <= {kind for kinds, _ in QUESTIONS for kind in typing.get_args(kinds)}


def test_an_edition_takes_its_options_model_from_its_type_argument() -> None:
    assert BB2025.Options is BB2025Options
    assert isinstance(BB2025({"bonus_points": "added"}).options, BB2025Options)
    assert LRB6.Options is NoOptions
    assert LRB6ZAL.Options is ZalOptions  # the overlay brings its own: LRB6[ZalOptions]


def test_an_edition_without_advancement_rules_cannot_be_built() -> None:
    class Half(BaseRuleset):
        id = "half"
        name = "Half an edition"
        source = "none"
        data_dir = Path(__file__).parent

        def spp_table(self) -> Mapping[str, int]:
            return {"touchdown": 3}

    with pytest.raises(TypeError, match="advancement"):
        Half()  # type: ignore[abstract]

    class Whole(Half):
        def advancement(self, player: PlayerRow, event: PlayerAdvanced) -> AdvancementResult:
            return AdvancementResult(spp_cost=0, value_increase=0)

        def check_advancement(
            self, player: PlayerRow, team: TeamRow, event: PlayerAdvanced
        ) -> list[str]:
            return []

    assert Whole().spp_table() == {"touchdown": 3}


@pytest.mark.parametrize("cls", RULESETS, ids=lambda c: c.id)
def test_every_registered_edition_can_be_built_and_pays_spp(cls: type[BaseRuleset]) -> None:
    assert cls().spp_table()["touchdown"] > 0


def row(player_id: str, team: str) -> PlayerRow:
    return PlayerRow.build(
        league_id="l",
        player_id=player_id,
        team_id=team,
        name=player_id,
        roster="human",
        position="lineman",
        ma=6,
        st=3,
        ag=3,
        av=9,
    )


def test_match_rows_find_a_player_on_either_team_or_named_besides() -> None:
    home = TeamRow.build(league_id="l", team_id="t1", name="T1", coach="a", roster="human")
    rows = MatchRows(
        teams={"t1": TeamRows(team=home, players=(row("p1", "t1"),))},
        named={"p9": row("p9", "t3")},
    )
    assert rows.team("t1") is home
    assert rows.team("t2") is None
    assert [p.player_id for p in rows.players("t1")] == ["p1"]
    assert rows.players("t2") == ()
    found = rows.player("p9")
    assert found is not None
    assert found.team_id == "t3"
    assert rows.player("j1") is None  # a one-game player has no row
    assert rows.stage() == "regular"  # no fixture: a match played without one
