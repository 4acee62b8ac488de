"""The league log: chained hashes, sequence numbers, storage round trips, dice."""

from __future__ import annotations

import sys
from typing import Any, ClassVar

import pytest
from eventsourcing.persistence import JSONTranscoder
from eventsourcing.utils import get_topic
from pydantic import ValidationError

from ledger.domain import events as ev
from ledger.domain.log import LeagueLog, league_id
from ledger.domain.unreadable import UnreadableEvent
from ledger.domain.values import DiceRoll
from ledger.persistence import mapper as mapper_module
from ledger.persistence.mapper import LedgerMapper


def opened() -> LeagueLog:
    return LeagueLog.open(
        recorded_by="commish", slug="owl", name="Old World League", ruleset="bb2025"
    )


def test_each_event_is_numbered_and_chained_to_the_one_before() -> None:
    log = opened()
    first = log.record(
        ev.TeamRegistered,
        recorded_by="commish",
        team="reavers",
        name="Reavers",
        coach="Jay",
        roster="human",
        treasury=1_000_000,
    )
    second = log.record(
        ev.TreasuryAdjusted, recorded_by="commish", reason="prize", team="reavers", amount=10_000
    )
    created = log.pending_events[0]
    assert isinstance(created, ev.LeagueCreated)
    assert [created.seq, first.seq, second.seq] == [1, 2, 3]
    assert created.prev_hash == ev.GENESIS_HASH
    assert first.prev_hash == created.hash
    assert second.prev_hash == first.hash
    assert log.last_hash == second.hash
    assert all(e.hash == e.content_hash() for e in (created, first, second))


def test_a_draft_is_validated_when_built_and_sealed_by_the_log() -> None:
    """A command's draft carries its facts and no envelope; the log gives it one."""
    draft = ev.TreasuryAdjusted(team="reavers", amount=10_000)
    assert draft.facts() == {"team": "reavers", "amount": 10_000}
    with pytest.raises(ValidationError, match="amount"):
        ev.TreasuryAdjusted(team="reavers", amount="lots")
    log = opened()
    sealed = log.seal(draft, recorded_by="commish", reason="prize", account="jay")
    assert (sealed.seq, sealed.recorded_by, sealed.reason, sealed.account) == (
        2,
        "commish",
        "prize",
        "jay",
    )
    assert sealed.facts() == draft.facts()
    assert sealed.prev_hash == log.pending_events[0].hash
    assert sealed.hash == sealed.content_hash()
    stored = sealed.stored()
    # every envelope field a sealed event carries is stored: none equals a draft's default
    assert {"originator_id", "originator_version", "timestamp", "recorded_by"} <= set(stored)


def test_a_league_id_follows_from_its_slug() -> None:
    assert opened().id == league_id("owl")
    assert league_id("owl") != league_id("owl2")


def test_changing_any_field_changes_the_hash() -> None:
    log = opened()
    hired = log.record(
        ev.PlayerHired,
        recorded_by="commish",
        team="reavers",
        player="p1",
        name="Griff",
        position="blitzer",
        price=85_000,
    )
    cheaper = hired.model_copy(update={"price": 80_000})
    assert cheaper.content_hash() != hired.hash


def test_events_survive_the_mapper_unchanged() -> None:
    mapper = LedgerMapper(transcoder=JSONTranscoder())
    log = opened()
    event = log.record(
        ev.SidelinePurchased,
        recorded_by="commish",
        team="reavers",
        purchases=({"item": "reroll", "count": 2, "price": 100_000},),
    )
    stored = mapper.to_stored_event(event)
    restored = mapper.to_domain_event(stored)
    assert restored == event
    assert restored.content_hash() == event.hash


class Renamed(ev.LedgerEvent):
    """A test event whose second version added a field."""

    class_version: ClassVar[int] = 2
    team: str
    name: str
    sponsor: str

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        state["sponsor"] = "none"


def test_old_versions_of_an_event_are_upcast_on_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # Topics resolve only from the catalogue: the test's own class is added to it.
    catalogue = {**mapper_module.event_classes(), get_topic(Renamed): Renamed}
    monkeypatch.setattr(mapper_module, "event_classes", lambda: catalogue)
    mapper = LedgerMapper(transcoder=JSONTranscoder())
    log = opened()
    event = log.record(Renamed, recorded_by="c", team="t", name="New", sponsor="Bugman's")
    stored = mapper.to_stored_event(event)
    old = stored.state.replace(b',"sponsor":"Bugman\'s"', b"").replace(b',"class_version":2', b"")
    restored = mapper.to_domain_event(
        type(stored)(
            originator_id=stored.originator_id,
            originator_version=stored.originator_version,
            topic=stored.topic,
            state=old,
        )
    )
    assert isinstance(restored, Renamed)
    assert restored.sponsor == "none"


def test_a_topic_outside_the_catalogue_is_read_as_unreadable_not_imported() -> None:
    mapper = LedgerMapper(transcoder=JSONTranscoder())
    stored = mapper.to_stored_event(opened().pending_events[0])
    foreign = type(stored)(
        originator_id=stored.originator_id,
        originator_version=stored.originator_version,
        topic="this:s",
        state=stored.state,
    )
    restored = mapper.to_domain_event(foreign)
    assert isinstance(restored, UnreadableEvent)
    assert restored.problem == "its type 'this:s' is not a ledger event"
    assert "this" not in sys.modules  # the Zen of Python was not printed


@pytest.mark.parametrize(
    ("dice", "values"), [("D6", (7,)), ("2D6", (3,)), ("D3", (0,)), ("D16", (17,))]
)
def test_dice_values_must_fit_the_dice(dice: str, values: tuple[int, ...]) -> None:
    with pytest.raises(ValidationError):
        DiceRoll(purpose="test", dice=dice, values=values)


def test_a_gate_of_many_dice_is_one_roll() -> None:
    gate = DiceRoll(purpose="gate", dice="12D6", values=(6,) * 12)
    assert gate.total == 72
