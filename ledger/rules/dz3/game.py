"""One match as the dz3 rules read it: who played, who won, who forfeited, the TRs.

Both the post-match sequence (postgame.py) and the command-side checks (checks.py) read a
match through this object, so they always agree on the result, on which team forfeited and
on the team ratings the match was played at (the league's state before the match's own
effects: OBERWALD 3.8, "Team rating is calculated after the end of each match").

Worked example: a 2-1 league match that the away team forfeited under 3.7 Var (d) with
players to spare: ``result(away) == "loss"`` and ``penalties(away) == {"income", "spp",
"fans"}`` (the league's chosen penalties); the home team has none.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.domain.events import MatchRecorded
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import TeamSheet
from ledger.rules.base import by_score, opponent, outcome_for
from ledger.rules.dz3.options import Options
from ledger.rules.dz3.tables import Tables
from ledger.rules.rows import MatchRows

COUNTED = ("league", "playoff")
PLAYED = ("league", "playoff", "friendly")


@dataclass(frozen=True)
class Game:
    t: Tables
    opts: Options
    match: MatchRecorded
    rows: MatchRows
    sheets_read: list[tuple[TeamSheet, frozenset[str]]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )
    """``on_sheet``'s answers, for as long as the game is read (one ruleset question)."""

    def team(self, team_id: str) -> TeamRow | None:
        return self.rows.team(team_id)

    def rating(self, team_id: str) -> int:
        row = self.team(team_id)
        return row.rating if row is not None else 0

    def fans(self, team_id: str) -> int:
        row = self.team(team_id)
        return row.fans if row is not None else 0

    def players(self, team_id: str) -> list[PlayerRow]:
        return list(self.rows.players(team_id))

    def player(self, player_id: str) -> PlayerRow | None:
        return self.rows.player(player_id)

    def plays_for(self, sheet: TeamSheet, player_id: str) -> bool:
        """On this side's sheet, or on its roster (a report may name a player only in a
        casualty line)."""
        if player_id in self.on_sheet(sheet):
            return True
        row = self.player(player_id)
        return row is not None and row.team_id == sheet.team

    def on_sheet(self, sheet: TeamSheet) -> frozenset[str]:
        """The ids a sheet names, its players' and one-game players', gathered once per
        sheet of this game: each casualty of the match asks for both sides. Found by the
        sheet itself (this game holds it), never by an id."""
        for seen, ids in self.sheets_read:
            if seen is sheet:
                return ids
        ids = frozenset([p.player for p in sheet.players] + [h.id for h in sheet.hirelings])
        self.sheets_read.append((sheet, ids))
        return ids

    def stage(self) -> str:
        return self.rows.stage()

    def sides(self) -> tuple[TeamSheet, ...]:
        return self.match.sheets()

    def result(self, sheet: TeamSheet) -> str:
        if self.match.others:
            return outcome_for(self.match, sheet.team)
        return by_score(sheet.touchdowns, opponent(self.match, sheet).touchdowns)

    def forfeited_by(self) -> str | None:
        concession = self.match.concession
        return concession.team if concession is not None else None

    def penalties(self, team_id: str) -> frozenset[str]:
        """3.7 Var (d): the penalties a team pays for forfeiting with players to spare."""
        concession = self.match.concession
        if (
            self.opts.forfeits == "d"
            and concession is not None
            and concession.team == team_id
            and concession.kind == "forfeit_voluntary"
        ):
            return frozenset(self.opts.forfeit_penalties)
        return frozenset()

    def counted(self) -> bool:
        """League and play-off matches run the Death Zone post-match sequence."""
        return self.match.kind in COUNTED

    def played(self) -> bool:
        return self.match.kind in PLAYED
