"""Read-model questions the season report asks beyond ``Queries``, answered by SQL.

``Queries`` answers one team or one player at a time; a report wants whole tables of a
league at once (every history line, every treasury line, every player), so these reads
fetch each table in one statement. They read the read models only, never the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import sqlalchemy as sa

from ledger.domain.state import (
    EventLine,
    EventRef,
    PlayerGameLine,
    PlayerRow,
    Record,
    RefLine,
    TeamGameLine,
    TeamHistoryLine,
    TreasuryLine,
    games_of,
)
from ledger.projections.queries import Queries
from ledger.projections.sql import table_of

T = TypeVar("T", bound=Record)

MOVES = ("PlayerHired", "PlayerFired", "PlayerTemporarilyRetired", "PlayerDied", "PlayerLeft")
"""Event types that change who is on a roster (for the hired/fired/retired/dead list)."""


class ReportReads:
    """Whole-league reads for one report, over the same engine as ``queries``."""

    def __init__(self, queries: Queries) -> None:
        self.queries = queries

    def rows(self, kind: type[T], *clauses: Any, order: Sequence[str] = ()) -> list[T]:
        """Every ``kind`` row of the league matching ``clauses``, in ``order``."""
        table = table_of(kind)
        query = sa.select(table).where(table.c.league_id == self.queries.league_id, *clauses)
        query = query.order_by(*(table.c[name] for name in order))
        with self.queries.sql().connect() as conn:
            found = conn.execute(query).mappings().all()
        return [kind.model_validate(dict(row)) for row in found]

    def players(self) -> list[PlayerRow]:
        return self.rows(PlayerRow, order=("team_id", "hired_seq"))

    def history(self, first: int, end: int) -> list[TeamHistoryLine]:
        """Team history lines of events ``first <= seq < end`` (one season's)."""
        table = table_of(TeamHistoryLine)
        return self.rows(
            TeamHistoryLine, table.c.seq >= first, table.c.seq < end, order=("team_id", "seq")
        )

    def treasury(self) -> list[TreasuryLine]:
        return self.rows(TreasuryLine, order=("team_id", "seq", "line"))

    def player_games(self, season: int) -> list[PlayerGameLine]:
        """The season's game lines, by event then player."""
        table = table_of(TeamGameLine)
        sides = self.rows(TeamGameLine, table.c.season == season, order=("seq", "team_id"))
        return sorted(games_of(sides), key=lambda line: (line.seq, line.player_id))

    def events(self) -> list[EventLine]:
        """One line per event of the league."""
        return self.rows(EventLine, order=("seq",))

    def moves(self) -> list[EventRef]:
        """The player references of the events that hired, fired, retired or lost a player."""
        events, refs = table_of(EventLine), table_of(RefLine)
        query = (
            sa.select(events, refs.c.ref)
            .join(refs, (refs.c.league_id == events.c.league_id) & (refs.c.seq == events.c.seq))
            .where(
                events.c.league_id == self.queries.league_id,
                events.c.event_type.in_(MOVES),
                refs.c.ref.like("player:%"),
            )
            .order_by(events.c.seq, refs.c.ref)
        )
        with self.queries.sql().connect() as conn:
            found = conn.execute(query).mappings().all()
        return [EventRef.model_validate(dict(row)) for row in found]
