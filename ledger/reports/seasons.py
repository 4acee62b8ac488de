"""Which stretch of a league's log belongs to which season.

The read models tag a match, a player's game and a team's history line with its season,
but not a purchase, a hire or a post-game roll. A season report still needs those (the
treasury statement, the players hired), so every event is given to one season: a season
runs from its ``SeasonStarted`` event (or, where the league has none, from the event after
the previous season's last game) to the start of the next season. The windows partition
the log, so one season's closing treasury is the next one's opening treasury.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ledger.domain.state import MatchRow

END = 2**62
"""Past any event number: the open end of the latest season."""


@dataclass(frozen=True)
class Window:
    """Events ``first <= seq < end`` belong to the season."""

    first: int
    end: int

    def __contains__(self, seq: object) -> bool:
        return isinstance(seq, int) and self.first <= seq < self.end


def season_windows(
    seasons: Sequence[int], matches: Sequence[MatchRow], starts: Sequence[int]
) -> dict[int, Window]:
    """Windows for ``seasons`` from the played matches and the SeasonStarted events."""
    ordered = sorted(seasons)
    firsts = [
        first_event(season, index, ordered, matches, starts) for index, season in enumerate(ordered)
    ]
    ends = [*firsts[1:], END]
    return {
        season: Window(first, end) for season, first, end in zip(ordered, firsts, ends, strict=True)
    }


def first_event(
    season: int,
    index: int,
    seasons: Sequence[int],
    matches: Sequence[MatchRow],
    starts: Sequence[int],
) -> int:
    """Where ``season`` begins: the first season takes everything before it (the draft)."""
    if index == 0:
        return 0
    previous_last = max(played_seqs(matches, seasons[:index]), default=0)
    own_first = min(played_seqs(matches, [season]), default=END)
    markers = [s for s in starts if previous_last < s <= own_first]
    return markers[0] if markers else previous_last + 1


def played_seqs(matches: Sequence[MatchRow], seasons: Sequence[int]) -> list[int]:
    return [m.recorded_seq for m in matches if m.season in seasons and m.recorded_seq is not None]
