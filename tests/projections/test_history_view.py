"""The history stores an event once (``EventLine``) and each entity it touched by its
reference alone (``RefLine``); ``EventRef`` reads the two joined (the ``rm_history``
view), on SQLite and PostgreSQL, after a catch-up and after a rebuild."""

from __future__ import annotations

from collections import Counter

import sqlalchemy as sa

from ledger.application.service import LeagueLedger
from ledger.domain.log import league_id
from ledger.domain.state import EventLine, EventRef, RefLine
from ledger.projections.sql import table_of
from tests.integration.test_audit_and_transfer import played_league


def history_rows(ledger: LeagueLedger, slug: str) -> list[EventRef]:
    rows = ledger.view().select(EventRef, league_id=str(league_id(slug)))
    return sorted(rows, key=lambda row: (row.seq, row.ref))


def test_each_reference_reads_with_its_event_stored_once(ledger: LeagueLedger) -> None:
    slug = played_league(ledger)
    league = str(league_id(slug))
    events = ledger.view().select(EventLine, league_id=league)
    refs = ledger.view().select(RefLine, league_id=league)
    assert len(events) == ledger.load_log(slug).version  # one line per event
    history = history_rows(ledger, slug)
    assert [(row.seq, row.ref) for row in history] == sorted((r.seq, r.ref) for r in refs)
    by_seq = {line.seq: line for line in events}
    for row in history:  # every reference carries its event's line, as it is stored
        line = by_seq[row.seq].__dict__
        assert {name: value for name, value in row.__dict__.items() if name in line} == line
    match = next(line for line in events if line.event_type == "MatchRecorded")
    touched = Counter(row.seq for row in history)[match.seq]
    assert touched >= 4  # the league, the match and both teams, with one summary
    assert sum(1 for line in events if line.summary == match.summary) == 1


def test_a_rebuild_reads_the_same_history_and_drops_the_old_table(ledger: LeagueLedger) -> None:
    slug = played_league(ledger)
    before = history_rows(ledger, slug)
    engine = ledger.read_models.engine
    with engine.begin() as conn:  # what an earlier version left: each reference in full
        conn.exec_driver_sql("CREATE TABLE rm_event_refs (league_id TEXT, seq BIGINT)")
    ledger.read_models.rebuild(ledger.source)
    assert history_rows(ledger, slug) == before
    tables = sa.inspect(engine).get_table_names()
    assert "rm_event_refs" not in tables
    assert {EventLine.table, RefLine.table} <= set(tables)
    assert EventRef.table in sa.inspect(engine).get_view_names()


def test_the_history_is_read_as_the_pages_and_reports_ask_it(ledger: LeagueLedger) -> None:
    """Through SQLAlchemy's table of the view, with conditions on the event's columns."""
    played_league(ledger)
    table = table_of(EventRef)
    assert table.name not in {t.name for t in table_of(EventLine).metadata.sorted_tables}
    with ledger.read_models.engine.connect() as conn:
        found = conn.execute(
            sa.select(table.c.seq, table.c.ref).where(
                table.c.event_type == "MatchRecorded", table.c.ref.like("team:%")
            )
        ).all()
    assert sorted(ref for _, ref in found) == ["team:rats", "team:reavers"]
