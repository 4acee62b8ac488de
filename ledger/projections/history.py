"""An event's line of history and its references, as rows (``EventLine``, ``RefLine``).

The fold makes them for every event it folds (``Fold.emit_refs``), except in a rebuild
whose lines a process of their own writes (ledger/projections/parallel.py,
``LineProcess``): there the fold sends a *note* of what only its state knows (the event's
description, naming its teams and players as they stood, and whether it is voided) with
the event as it is stored, and that process decodes the event again and makes its rows
here, on the other core. Both ways the rows are made by ``history_rows``, so they are the
same (tests/projections/test_history_apart.py rebuilds both ways and compares).

A note is sent only for an event whose rows read nothing of the fold's state but the
description: an event as stored (not one a correction amends), and neither a void that
takes post-game closes with it nor a season's close (their references come from the
state). The fold makes the rows of the rest itself.

A match report's note tells its play too, which that process counts (``Noted``, with
ledger/projections/plays.py): its game lines, and each player's counters, written into
his row at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ledger.domain.events import EventCorrected, LedgerEvent, MatchRecorded, PlayerHired
from ledger.domain.state import EventLine, RefLine, TeamGameLine
from ledger.projections.describe import refs
from ledger.projections.plays import Play, Totals
from ledger.projections.shapes import LineRow, insert_statement

StoredReader = Callable[[str, bytes], LedgerEvent]
"""Reads an event of the class named as its stored JSON (``EventSource.stored_reader``)."""

HistoryNote = tuple[str, str, bytes | LedgerEvent, str | None, bool, Play | None]
"""What the fold sends of an event for the line process to make its rows: the league, the
event's class name, the event as stored (its JSON), its description, whether it is
voided, and a match report's play (ledger/projections/plays.py). Only a report's play
is told of an amended report, whose history the fold writes itself: then with the event
as it now reads (and no description)."""


def history_rows(
    league_id: str,
    event: LedgerEvent,
    description: str,
    voided: bool,
    more: Iterable[str] = (),
) -> tuple[LineRow, list[LineRow]]:
    """The event's ``EventLine`` row and its ``RefLine`` rows (``more`` references besides
    those the event names), each a tuple of the table's fields in order."""
    # Rows as tuples, as the fold makes every line it writes by the thousand: a call of a
    # writer by keyword cost 0.26 us a line, and the tuples took 2.6% off a rebuild's
    # fold's instructions. tests/projections/test_line_rows.py folds a game whose every
    # figure differs and finds each in its column.
    seq = event.seq
    line = (
        league_id,
        seq,
        type(event).__name__,
        event.recorded_by,
        event.timestamp.isoformat(),
        event.reason,
        description,
        voided,
        event.account,
        event.acting_as,
        event.target if isinstance(event, EventCorrected) else None,
    )
    found = refs(event)
    found.update(more)
    return line, [(league_id, ref, seq) for ref in sorted(found)]


class Noted:
    """The line process's side of the notes: the rows of the events they tell of, each
    read back from its stored JSON by ``read`` (``EventSource.stored_reader``), and the
    records of play of the reports among them, counted until the end (``Totals``)."""

    def __init__(self, read: StoredReader) -> None:
        self.read = read
        self.totals = Totals()

    def batch(self, notes: Iterable[HistoryNote]) -> list[tuple[str, list[LineRow]]]:
        """The rows ``notes`` tell of, with their tables' statements."""
        lines: list[LineRow] = []
        references: list[LineRow] = []
        games: list[LineRow] = []
        for league_id, kind, stored, description, voided, play in notes:
            event = self.read(kind, stored) if isinstance(stored, bytes) else stored
            if description is not None:
                line, found = history_rows(league_id, event, description, voided)
                lines.append(line)
                references += found
            if play is not None:
                assert isinstance(event, MatchRecorded)
                games += self.totals.count(league_id, event, play)
            elif isinstance(event, PlayerHired) and event.hireling is not None:
                self.totals.signed(league_id, event)
        return [
            (insert_statement(EventLine, "sqlite"), lines),
            (insert_statement(RefLine, "sqlite"), references),
            (insert_statement(TeamGameLine, "sqlite"), games),
        ]

    def finished(self) -> list[tuple[str, list[LineRow]]]:
        """What is written once every note has come: each player's counters of play."""
        return [self.totals.written()]
