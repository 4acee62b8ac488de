"""Records the fold builds without validation (``Record.build``) hold the same values, in
the same order, as records validated from those values; a copy or a change of one never
reaches another (they share their defaults' objects, never their values' dicts)."""

from __future__ import annotations

import json

import pytest

from ledger.domain.state import PlayerGameLine, TeamRow


def line(player_id: str) -> PlayerGameLine:
    return PlayerGameLine.build(
        league_id="l", player_id=player_id, team_id="reavers", match_id="m1", seq=7, season=1
    )


def test_a_built_record_changed_or_copied_leaves_its_siblings_be() -> None:
    first, second = line("p1"), line("p2")
    before = dict(second.__dict__)

    first.model_copy(deep=True, update={"touchdowns": 2})
    first.model_copy(update={"touchdowns": 2})
    first.__dict__.update({"kills": 1})  # as ``MemoryStore.change`` changes it in place

    assert second.__dict__ == before
    assert first.kills == 1


def test_a_built_record_reads_as_one_validated_from_the_same_values() -> None:
    built = line("p1")
    validated = PlayerGameLine.model_validate(built.model_dump())
    assert built == validated
    assert list(built.__dict__) == list(validated.__dict__) == list(PlayerGameLine.model_fields)
    assert json.loads(built.model_dump_json()) == json.loads(validated.model_dump_json())


def test_a_record_is_validated_when_made_and_frozen_after() -> None:
    with pytest.raises(ValueError, match="treasury"):
        TeamRow(league_id="l", team_id="t", name="n", coach="c", roster="r", treasury="lots")
    team = TeamRow(league_id="l", team_id="t", name="n", coach="c", roster="r")
    with pytest.raises(AttributeError, match="frozen"):
        team.treasury = 5  # type: ignore[misc]
    assert team.staff == {}
    assert "staff" not in vars(TeamRow)  # a default left on the class would shadow the field


def test_a_record_left_short_holds_its_defaults_and_a_name_not_a_field_is_refused() -> None:
    built = line("p1")
    assert (built.touchdowns, built.injury, built.round) == (0, "", None)
    with pytest.raises(TypeError, match="touchdown"):
        PlayerGameLine.build(league_id="l", player_id="p1", touchdown=1)  # not a field


def test_a_class_builds_its_own_fields_not_its_bases() -> None:
    """Each class writes its own ``build`` when it first builds a record; a subclass built
    after its base still builds its own fields (never the base's ``build`` it inherits)."""

    class Extended(PlayerGameLine):
        note: str = "none"

    line("p1")  # the base's own build is written now
    extended = Extended.build(league_id="l", player_id="p1", note="kept")
    assert list(extended.__dict__) == [*PlayerGameLine.model_fields, "note"]
    assert (extended.note, line("p2").__dict__.get("note")) == ("kept", None)
