"""Ids of the books and event types said as words (ledger/words.py)."""

from __future__ import annotations

import pytest

from ledger.words import spaced, words


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
