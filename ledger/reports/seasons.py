"""Which stretch of a league's log belongs to which season.

The read models tag a match, a player's game and a team's history line with its season,
but not a purchase, a hire or a post-game roll. A season report still needs those (the
treasury statement, the players hired), so every event is given to one season: a season
runs from its ``SeasonStarted`` event (or, where the league has none, from the event after
the previous season's last game) to its ``SeasonClosed`` event, or, without one, to the
start of the next season. What follows a close belongs to the next season: seed 001 'Off-
season and Re-drafting' puts the re-draft "at the end of each Season, after the Play-offs
have concluded ... in preparation for the next Season", so a season's report does not
change when the off-season is played, as the first season holds the draft. The windows
partition the log, so one season's closing treasury is the next one's opening treasury.

Worked example: season 1 closed at event 112, a team re-drafted at 113 and season 2
started at 116: season 1 is events 0-112, season 2 from 113 on.
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
    seasons: Sequence[int],
    matches: Sequence[MatchRow],
    starts: Sequence[int],
    closes: Sequence[int] = (),
) -> dict[int, Window]:
    """Windows for ``seasons`` from the played matches, the SeasonStarted events and the
    SeasonClosed events (``closes``): a season closed ends with its close, and the next
    season begins right after it."""
    ordered = sorted(seasons)
    firsts = [
        first_event(season, index, ordered, matches, starts) for index, season in enumerate(ordered)
    ]
    ends = [*firsts[1:], END]
    windows = [closed(Window(first, end), closes) for first, end in zip(firsts, ends, strict=True)]
    for index in range(1, len(windows)):
        windows[index] = Window(windows[index - 1].end, windows[index].end)
    return dict(zip(ordered, windows, strict=True))


def closed(window: Window, closes: Sequence[int]) -> Window:
    """``window`` ending with the first season close inside it (a season closes once; the
    next season cannot start before its close)."""
    inside = [seq for seq in closes if seq in window]
    return Window(window.first, min(inside) + 1) if inside else window


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
