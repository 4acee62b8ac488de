"""Plain models (ledger/domain/plain.py) keep what pydantic gave the events, their values
and the records: validation with the same errors, the same JSON, the same schema, and
their place inside pydantic models and pydantic's own functions."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError
from pydantic_core import to_jsonable_python

from ledger.domain import events as ev
from ledger.domain.plain import twin_of
from ledger.domain.state import TeamRow
from ledger.domain.values import DiceRoll, Performance, TeamSheet


class Page(BaseModel):
    """A pydantic model holding plain ones, as the API's pages do."""

    rows: list[TeamRow]
    sheet: TeamSheet | None = None


def team() -> TeamRow:
    return TeamRow(league_id="l", team_id="t", name="Reavers", coach="jay", roster="human")


@pytest.mark.parametrize(
    ("kind", "values", "problem"),
    [
        (
            DiceRoll,
            {"purpose": "winnings", "dice": "D6", "values": (3, 4)},
            "a D6 roll is 1 die, not 2",
        ),
        (DiceRoll, {"purpose": "winnings", "dice": "D7", "values": (3,)}, "pattern"),
        (Performance, {"player": "p1", "touchdowns": "2"}, "valid integer"),
        (Performance, {"player": "p1", "bogus": 1}, "Extra inputs are not permitted"),
        (ev.PlayerFired, {"team": "t", "player": "x" * 65}, "at most 64 characters"),
        (ev.PlayerFired, {"team": "t"}, "player\n  Field required"),
    ],
)
def test_a_plain_model_is_validated_by_its_twins_rules(
    kind: type, values: dict[str, object], problem: str
) -> None:
    with pytest.raises(ValidationError, match=problem):
        kind(**values)
    with pytest.raises(ValidationError, match=problem):
        kind.model_validate(values)  # type: ignore[attr-defined]


def test_a_pydantic_model_holds_plain_ones_as_their_twins() -> None:
    sheet = TeamSheet(team="t", touchdowns=1, players=(Performance(player="p1"),))
    row = team()
    page = Page(rows=[row], sheet=sheet)
    assert page.rows[0] is row  # a plain model given is held as it is, not revalidated
    again = Page.model_validate_json(page.model_dump_json())
    assert again == page
    assert isinstance(again.sheet, TeamSheet)
    assert isinstance(again.sheet.players[0], Performance)
    schema = Page.model_json_schema()
    assert schema["$defs"]["TeamRow"] == twin_of(TeamRow).model_json_schema()


def test_pydantic_functions_serialise_a_plain_model_as_its_twin() -> None:
    sheet = TeamSheet(team="t", touchdowns=1)
    assert to_jsonable_python({"sheet": sheet}) == {"sheet": sheet.model_dump(mode="json")}


def test_a_field_documented_in_the_source_is_described_in_the_schema() -> None:
    described = DiceRoll.model_json_schema()["properties"]["subject"]["description"]
    assert described.startswith("The team or player the roll is for")


def test_an_events_stored_form_is_its_twins() -> None:
    fired = ev.PlayerFired(team="t", player="p1", recorded_by="jay", reason="too slow")
    twin = twin_of(ev.PlayerFired).model_validate(dict(fired.__dict__))
    assert fired.stored() == twin.model_dump(mode="json", exclude_defaults=True)
    assert fired.stored() == {
        "team": "t",
        "player": "p1",
        "recorded_by": "jay",
        "reason": "too slow",
    }
    assert ev.PlayerFired.model_validate(fired.model_dump()) == fired
