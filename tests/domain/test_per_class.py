"""``per_class`` (ledger/domain/per_class.py) answers for each class what it was asked to
work out, once: the stores read their record classes' facts through it."""

from __future__ import annotations

from ledger.domain.per_class import per_class
from ledger.domain.state import PlayerRow, TeamRow, key_reader


def test_each_class_is_worked_out_once_and_answered_by_subscript() -> None:
    asked: list[type] = []

    @per_class
    def fields(kind: type) -> tuple[str, ...]:
        """The class's key fields."""
        asked.append(kind)
        return tuple(kind.key)

    assert fields[PlayerRow] == ("league_id", "player_id")
    assert fields[PlayerRow] is fields[PlayerRow]
    assert fields[TeamRow] == ("league_id", "team_id")
    assert asked == [PlayerRow, TeamRow]
    assert fields.__doc__ == "The class's key fields."


def test_a_records_key_is_read_through_its_classs_reader() -> None:
    team = TeamRow(league_id="l", team_id="t", name="Reavers", coach="jay", roster="human")
    assert team.key_values() == ("l", "t")
    assert key_reader[TeamRow](team.__dict__) == ("l", "t")
