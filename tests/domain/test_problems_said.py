"""What is wrong with an input is said in the league's words, every place at once: a
report file with three mistakes is fixed in one go, not three runs, and its bounds read
'must be at most 50', not pydantic's 'Input should be less than or equal to 50'. The
value sent is never repeated back (a request's body may hold anything)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from ledger.application.reports import MatchReport
from ledger.domain.values import MOST_SAID, validation_problems


def said(report: dict[str, Any]) -> str:
    whole = {"home": {"team": "a"}, "away": {"team": "b"}, **report}
    with pytest.raises(ValidationError) as refused:
        MatchReport.model_validate(whole)
    return validation_problems(refused.value)


def line(**fields: Any) -> dict[str, Any]:
    return {"home": {"team": "a", "players": [{"player": "x", **fields}]}}


@pytest.mark.parametrize(
    ("report", "sentence"),
    [
        (line(td="two"), "home.players.0.td: must be a whole number"),
        (line(td=2.5), "home.players.0.td: must be a whole number"),
        (line(td=True), "home.players.0.td: must be a whole number"),
        (line(td=51), "home.players.0.td: must be at most 50"),
        (line(td=-1), "home.players.0.td: must be at least 0"),
        (line(sent_off="yes"), "home.players.0.sent_off: must be true or false"),
        (line(player=7), "home.players.0.player: must be text"),
        (line(player=""), "home.players.0.player: must not be empty"),
        (line(player="x" * 101), "home.players.0.player: must hold at most 100 characters"),
        ({"round": 0}, "round: must be at least 1"),
        ({"round": 10**7}, "round: must be at most 1,000,000"),
        ({"weather": "x" * 1001}, "weather: must hold at most 1,000 characters"),
        ({"kind": "leage"}, "kind: must be 'league', 'playoff', 'friendly', 'exhibition' or"),
        ({"home": None}, "home: must be a mapping (a JSON object)"),
        ({"home": {}}, "home.team: required, not given"),
        ({"casualties": {"victim": "x"}}, "casualties: must be a list"),
        ({"casualties": [{"victim": "x"}] * 101}, "casualties: must hold at most 100 items"),
    ],
)
def test_a_problem_is_said_in_the_leagues_words(report: dict[str, Any], sentence: str) -> None:
    assert said(report).startswith(sentence)
    assert "Input should" not in said(report)


def test_every_place_wrong_is_named_at_once_in_the_files_order() -> None:
    report = {
        "round": 0,
        "home": {"team": "a", "players": [{"player": "x", "td": "two", "comp": 99}]},
        "casualties": [{"by": "y"}],
    }
    assert said(report) == (
        "round: must be at least 1; home.players.0.td: must be a whole number;"
        " home.players.0.comp: must be at most 50; casualties.0.victim: required, not given"
    )


def test_past_the_first_few_the_rest_are_counted() -> None:
    players = [{"player": "x", "td": -n} for n in range(1, MOST_SAID + 4)]
    sentence = said({"home": {"team": "a", "players": players}})
    assert sentence.count("must be at least 0") == MOST_SAID
    assert sentence.endswith("; and 3 more")


def test_the_value_sent_is_not_repeated() -> None:
    secret = "hunter2-" * 20
    assert secret not in said(line(td=secret))
    assert secret[:8] not in said({"kind": secret})
