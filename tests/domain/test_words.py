"""Ids of the books and event types said as words (ledger/words.py)."""

from __future__ import annotations

import pytest

from ledger.words import advancement, spaced, taken, words


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (words("assistant_coach"), "assistant coach"),
        (words(None), ""),
        (words(3), "3"),
        (spaced("MatchRecorded"), "match recorded"),
        (spaced("PostGameClosed"), "post game closed"),
        (spaced("EventCorrected"), "event corrected"),
    ],
)
def test_an_id_reads_as_words(said: str, expected: str) -> None:
    assert said == expected


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (advancement("Block", None), "Block"),
        (advancement(None, "ma"), "+MA"),
        (advancement(None, None, ("Really Stupid",)), "Really Stupid removed"),
        (advancement(None, None), "-"),
        (taken({"skill": None, "characteristic": "st", "lost": []}), "+ST"),
        (
            taken({"skill": None, "characteristic": None, "lost": ["Bone-head"]}),
            "Bone-head removed",
        ),
        (taken({"skill": "Dodge", "characteristic": None}), "Dodge"),  # a row from before "lost"
    ],
)
def test_an_advancement_reads_as_a_roster_lists_it(said: str, expected: str) -> None:
    """A 4th edition Big Guy's double may remove a trait (seed 002 'BIG GUYS AND STAR PLAYER
    POINTS'): his roster says so, not '+NONE'."""
    assert said == expected
