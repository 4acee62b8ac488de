"""What a history reference names: ``team:ID``, ``match:ID``, ``player:ID``, or a bare team
id, match id or player (by id or name). The command line's ``ledger history REF`` and the
API's ``history?ref=`` resolve it here, so both refuse a reference to nothing alike."""

from __future__ import annotations

from ledger.domain.state import MatchRow, PlayerRow
from ledger.errors import NotFound, UnknownMatch
from ledger.projections.queries import Queries

KINDS = ("team", "match", "player")


def history_key(q: Queries, ref: str) -> str:
    """``team:``, ``match:`` or ``player:`` and the id REF names; NotFound when it names
    nothing of the league (a typo is refused, not answered with an empty history)."""
    kind, _, named = ref.partition(":")
    if named and kind in KINDS:
        return named_key(q, kind, named)
    if ref in {t.team_id for t in q.teams()}:
        return f"team:{ref}"
    if is_match(q, ref):
        return f"match:{ref}"
    players = q.store.select(PlayerRow, league_id=q.league_id)
    if any(ref in (p.player_id, p.name) or p.name.casefold() == ref.casefold() for p in players):
        return f"player:{q.player(ref).player_id}"
    raise NotFound(  # REF may be any of the three: the answer says so
        f"no team, match or player '{ref}' in league {q.league.slug}",
        given=ref,
        known=[*(t.team_id for t in q.teams()), *(p.name for p in players)],
    )


def named_key(q: Queries, kind: str, named: str) -> str:
    if kind == "team":
        return f"team:{q.team(named).team_id}"
    if kind == "player":
        return f"player:{q.player(named).player_id}"
    if not is_match(q, named):
        raise UnknownMatch(f"no match '{named}' in league {q.league.slug}")
    return f"match:{named}"


def is_match(q: Queries, match: str) -> bool:
    """A match of the league, or one its log still names (a fixture since voided)."""
    return q.store.get(MatchRow, q.league_id, match) is not None or bool(
        q.history(f"match:{match}")
    )
