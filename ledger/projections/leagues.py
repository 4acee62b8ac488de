"""Which league a command is about, read from the read models of any store.

The ledger's commands ask it of their view (``LeagueLedger.resolve_league``), a read
command over a plain sqlite3 connection of its ``SqliteStore`` (ledger/projections/
lean.py): one answer, and one wording of the mistakes, whichever way the rows come.

Worked example: in a ledger holding only ``owl``, ``resolve_league(view, None)`` is
``"owl"``; ``league_row(view, "owls")`` raises ``UnknownLeague`` ("no league 'owls' in
this ledger (leagues: owl)").
"""

from __future__ import annotations

from ledger.domain.log import league_id
from ledger.domain.state import LeagueRow, LeagueView
from ledger.errors import AmbiguousLeague, UnknownLeague


def leagues(view: LeagueView) -> list[LeagueRow]:
    return list(view.select(LeagueRow))


def resolve_league(view: LeagueView, given: str | None) -> str:
    """The league a command is about: the one given, or the only one in the ledger."""
    if given:
        return given
    slugs = sorted(row.slug for row in leagues(view))
    if len(slugs) == 1:
        return slugs[0]
    if not slugs:
        raise UnknownLeague("this ledger has no league yet: create one with 'ledger league create'")
    raise AmbiguousLeague(
        f"this ledger holds {len(slugs)} leagues ({', '.join(slugs)}): choose one with --league"
    )


def league_row(view: LeagueView, league: str) -> LeagueRow:
    row = view.get(LeagueRow, str(league_id(league)))
    if row is None:
        raise unknown_league(view, league)
    return row


def unknown_league(view: LeagueView, league: str) -> UnknownLeague:
    slugs = sorted(r.slug for r in leagues(view))
    known = ", ".join(slugs) or "none yet"
    return UnknownLeague(
        f"no league '{league}' in this ledger (leagues: {known})", given=league, known=slugs
    )
