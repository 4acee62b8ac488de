"""The SQLite recorder that reads an event's content as bytes (ledger/persistence/sqlite.py)
answers every query as the library's own does, on content the ledger wrote."""

from __future__ import annotations

import itertools

from eventsourcing.sqlite import SQLiteApplicationRecorder
from eventsourcing.utils import get_topic

from ledger.application.service import LeagueLedger
from ledger.domain.events import PlayerHired
from ledger.domain.log import league_id
from ledger.persistence.sqlite import BytesSQLiteRecorder
from tests.integration.test_audit_and_transfer import played_league


def test_the_bytes_recorder_selects_what_the_library_selects(
    sqlite_ledger: LeagueLedger,
) -> None:
    slug = played_league(sqlite_ledger)
    ours = sqlite_ledger.recorder
    assert isinstance(ours, BytesSQLiteRecorder)
    stock = SQLiteApplicationRecorder(ours.datastore)
    for start, stop, topics, inclusive in itertools.product(
        [None, 1, 5], [None, 20], [(), (get_topic(PlayerHired),)], [True, False]
    ):
        query = {"start": start, "limit": 7, "stop": stop, "topics": topics}
        assert ours.select_notifications(
            **query, inclusive_of_start=inclusive
        ) == stock.select_notifications(**query, inclusive_of_start=inclusive), query
    lid = league_id(slug)
    for gt, lte, desc, limit in itertools.product([None, 3], [None, 9], [False, True], [None, 4]):
        query = {"gt": gt, "lte": lte, "desc": desc, "limit": limit}
        assert ours.select_events(lid, **query) == stock.select_events(lid, **query), query
