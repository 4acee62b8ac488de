"""Records the fold builds without validation (``Record.build``) give every field, and share
one set of given fields per class: no copy or change of one may reach another's."""

from __future__ import annotations

import json

from ledger.domain.state import PlayerGameLine, unchecked_copy


def line(player_id: str) -> PlayerGameLine:
    return PlayerGameLine.build(
        league_id="l", player_id=player_id, team_id="reavers", match_id="m1", seq=7
    )


def test_a_built_record_changed_or_copied_leaves_its_siblings_fields_set() -> None:
    first, second = line("p1"), line("p2")
    given = set(second.model_fields_set)
    assert first.model_fields_set is second.model_fields_set  # shared, by design
    assert given == set(PlayerGameLine.model_fields)  # build fills in the defaults itself

    first.model_copy(deep=True, update={"touchdowns": 2})
    first.model_copy(update={"touchdowns": 2})
    unchecked_copy(first, {"mvps": 1})
    first.amend({"kills": 1})

    assert second.model_fields_set == given
    assert "kills" in first.model_fields_set


def test_a_built_record_reads_as_one_validated_from_the_same_values() -> None:
    built = line("p1")
    validated = PlayerGameLine.model_validate(built.model_dump())
    assert built == validated
    assert json.loads(built.model_dump_json()) == json.loads(validated.model_dump_json())
