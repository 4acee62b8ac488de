"""The log's records read back by their shape (ledger/domain/readback.py): a required field
left out of the JSON is refused however its type reads None."""

from __future__ import annotations

import pytest

from ledger.domain.plain import Plain
from ledger.domain.readback import NotAsStored, reader_of


class Noted(Plain):
    """A record whose required field may hold None: left out, it must not read as None."""

    note: str | None
    count: int
    label: str = ""


@pytest.mark.parametrize(
    ("stored", "read"),
    [
        ({"note": None, "count": 1}, Noted(note=None, count=1)),
        ({"note": "kept", "count": 2, "label": "x"}, Noted(note="kept", count=2, label="x")),
    ],
)
def test_a_whole_record_reads_as_stored(stored: dict[str, object], read: Noted) -> None:
    assert reader_of[Noted](stored) == read


@pytest.mark.parametrize(
    "stored",
    [
        {"count": 1},  # the note left out: its type lets None through, so it is asked by name
        {"note": "kept"},  # the count left out: read as None, which is not a count
        {"label": "x"},
    ],
    ids=["no note", "no count", "neither"],
)
def test_a_record_without_a_required_field_is_off_the_shape(stored: dict[str, object]) -> None:
    with pytest.raises(NotAsStored):
        reader_of[Noted](stored)
