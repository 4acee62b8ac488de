"""docs/events.md is generated from the event classes and must match them."""

from __future__ import annotations

from pathlib import Path

from ledger.domain.catalogue import RECORDED_BY, event_classes, render

DOC = Path(__file__).parents[2] / "docs" / "events.md"


def test_the_event_catalogue_matches_the_code() -> None:
    assert DOC.read_text(encoding="utf-8") == render(), (
        "docs/events.md is stale: run python -m ledger.domain.catalogue > docs/events.md"
    )


def test_every_event_says_how_it_is_recorded() -> None:
    assert {cls.__name__ for cls in event_classes()} == set(RECORDED_BY)
