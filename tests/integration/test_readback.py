"""The fold reads the ledger's own log by its shape (ledger/domain/readback.py): the same
events as a validating read for everything stored right, and, for anything off the shape,
the validating read itself, which names what is wrong. tests/conftest.py checks the first
on every ledger a test opens."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import pytest
from eventsourcing.persistence import StoredEvent

from ledger.application.service import LeagueLedger
from ledger.domain.events import PlayerHired
from ledger.domain.log import league_id
from ledger.domain.readback import reader_of, value_reader
from ledger.domain.unreadable import NOT_UTF8, UnreadableEvent
from ledger.persistence.mapper import LedgerMapper, event_classes, read_stored
from tests.integration.test_audit_and_transfer import played_league

State = dict[str, Any]


def stored_of(ledger: LeagueLedger, slug: str, topic_end: str) -> StoredEvent:
    found = ledger.recorder.select_events(league_id(slug), limit=1000)
    return next(stored for stored in found if stored.topic.endswith(topic_end))


def edited(stored: StoredEvent, edit: Callable[[State], Any]) -> StoredEvent:
    state = orjson.loads(stored.state)
    replaced = edit(state)
    data = orjson.dumps(state if replaced is None else replaced)
    return StoredEvent(stored.originator_id, stored.originator_version, stored.topic, data)


def first_player_line(state: State) -> State:
    line: State = state["home"]["players"][0]
    return line


OFF_THE_SHAPE: dict[str, tuple[str, Callable[[State], Any]]] = {
    "a price as text": ("PlayerHired", lambda s: s.update(price="a lot")),
    "a price as true": ("PlayerHired", lambda s: s.update(price=True)),
    "a field the class does not know": ("PlayerHired", lambda s: s.update(bonus=1)),
    "no player": ("PlayerHired", lambda s: s.pop("player")),
    "no time": ("PlayerHired", lambda s: s.pop("timestamp")),
    "a class version slipped in": ("PlayerHired", lambda s: s.update(class_version=2)),
    "a kind no hire has": ("PlayerHired", lambda s: s.update(kind="loan")),
    "text where a list goes": ("PlayerHired", lambda s: s.update(equipment="chainsaw")),
    "a number in a list of text": ("PlayerHired", lambda s: s.update(equipment=["saw", 5])),
    "null for who recorded it": ("PlayerHired", lambda s: s.update(recorded_by=None)),
    "the league's id as a number": ("PlayerHired", lambda s: s.update(originator_id=5)),
    "a time as a number": ("PlayerHired", lambda s: s.update(timestamp=1_700_000_000)),
    "not an object": ("PlayerHired", lambda s: [s]),
    "a team sheet as a list": ("MatchRecorded", lambda s: s.update(home=[s["home"]])),
    "a player line as text": ("MatchRecorded", lambda s: s["home"]["players"].insert(0, "p1")),
    "a count as text": ("MatchRecorded", lambda s: first_player_line(s).update(touchdowns="2")),
    "a nested field not known": ("MatchRecorded", lambda s: first_player_line(s).update(mvp=1)),
    "a player line without its player": ("MatchRecorded", lambda s: first_player_line(s).clear()),
}


VALID_TO_PYDANTIC = {"a time as a number"}
"""Off the shape this code stores, yet valid to pydantic (a number of seconds since 1970):
read as pydantic reads it."""


@pytest.mark.parametrize("case", OFF_THE_SHAPE, ids=str)
def test_an_event_off_the_shape_is_read_as_the_validating_read_reads_it(
    case: str, sqlite_ledger: LeagueLedger
) -> None:
    slug = played_league(sqlite_ledger)
    topic_end, edit = OFF_THE_SHAPE[case]
    stored = edited(stored_of(sqlite_ledger, slug, topic_end), edit)
    mapper = sqlite_ledger.mapper
    assert isinstance(mapper, LedgerMapper)
    shaped = mapper.read_back(stored)
    assert (type(shaped), shaped) == (type(validated := mapper.to_domain_event(stored)), validated)
    if case in VALID_TO_PYDANTIC:
        assert isinstance(shaped, PlayerHired)
    else:
        assert isinstance(shaped, UnreadableEvent), shaped
        assert shaped.problem


def test_bytes_that_are_not_text_are_unreadable(sqlite_ledger: LeagueLedger) -> None:
    slug = played_league(sqlite_ledger)
    stored = stored_of(sqlite_ledger, slug, "PlayerHired")
    broken = StoredEvent(stored.originator_id, stored.originator_version, stored.topic, b"\xff{")
    shaped = sqlite_ledger.mapper.read_back(broken)  # type: ignore[attr-defined]
    assert isinstance(shaped, UnreadableEvent)
    assert shaped.problem == NOT_UTF8


def test_an_event_read_back_is_the_event_stored(sqlite_ledger: LeagueLedger) -> None:
    """Ids and times come back as the objects pydantic makes, so the event hashes as it
    did when it was stored (what ``audit verify`` recomputes)."""
    slug = played_league(sqlite_ledger)
    mapper = sqlite_ledger.mapper
    for stored in sqlite_ledger.recorder.select_events(league_id(slug), limit=1000):
        event = mapper.read_back(stored)  # type: ignore[attr-defined]
        assert event == mapper.to_domain_event(stored)
        assert event.content_hash() == event.hash
        assert orjson.dumps(event.stored()) == stored.state


def test_an_event_read_again_for_its_history_is_the_one_the_fold_read(
    sqlite_ledger: LeagueLedger,
) -> None:
    """A rebuild's line process reads each event again from its state as stored
    (``read_stored``, ledger/projections/history.py): as ``read_back`` read it, also off
    the shape where pydantic reads it."""
    slug = played_league(sqlite_ledger)
    mapper = sqlite_ledger.mapper
    assert isinstance(mapper, LedgerMapper)
    _, in_seconds = OFF_THE_SHAPE["a time as a number"]
    off = edited(stored_of(sqlite_ledger, slug, "PlayerHired"), in_seconds)
    for stored in [*sqlite_ledger.recorder.select_events(league_id(slug), limit=1000), off]:
        kind = stored.topic.rsplit(":", 1)[1]
        assert read_stored(kind, stored.state) == mapper.read_back(stored)


def test_bounds_are_not_checked_again(sqlite_ledger: LeagueLedger) -> None:
    """What a stored event's bounds, lengths and patterns allowed was checked when it was
    stored; an edit since then breaks the chain, which ``audit verify`` reports
    (tests/integration/test_tampering.py). Reading it back does not check them again."""
    slug = played_league(sqlite_ledger)
    stored = edited(stored_of(sqlite_ledger, slug, "PlayerHired"), lambda s: s.update(price=-1))
    mapper = sqlite_ledger.mapper
    shaped = mapper.read_back(stored)  # type: ignore[attr-defined]
    assert isinstance(shaped, PlayerHired)
    assert shaped.price == -1
    validated = mapper.to_domain_event(stored)
    assert isinstance(validated, UnreadableEvent)
    assert validated.problem.startswith("price:")


@pytest.mark.parametrize("kind", sorted(event_classes().values(), key=lambda k: k.__name__))
def test_every_event_class_has_a_reader(kind: type[Any]) -> None:
    assert callable(reader_of[kind])


@pytest.mark.parametrize(
    "hint", [float, int | str, tuple[int, str], dict[int, str], dict[str, int], list[int]]
)
def test_an_annotation_no_stored_record_uses_has_no_reader(hint: Any) -> None:
    with pytest.raises(TypeError, match="no reader"):
        value_reader(hint)
