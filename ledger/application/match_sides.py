"""One team's side of a match report while it is resolved into facts (``matches.py``): its
players and hirelings as the report names them, who may play, and the sheet it becomes."""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.application.context import Context
from ledger.application.mistakes import Place
from ledger.application.reports import MatchReport, SideReport
from ledger.domain import events as ev
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import DiceRoll, Hireling, Performance, TeamSheet
from ledger.errors import LedgerError, PlayerUnavailable


@dataclass
class Side:
    """One team's side while a report is resolved into facts."""

    team: TeamRow
    report: SideReport
    place: Place = ("home",)
    """Where the side is in the report: ``("home",)``, ``("away",)``, ``("others", 0)``."""
    players: dict[str, Performance] = field(default_factory=dict)
    hirelings: dict[str, Hireling] = field(default_factory=dict)
    roster: set[str] = field(default_factory=set)
    """Every player id of the team: rolls about a player who did not play (a walk-out
    after a concession) still belong to this side."""

    def ids(self) -> set[str]:
        return set(self.players) | set(self.hirelings)

    def name_of(self, ref: str, c: Context) -> str:
        """The name of the side's player or hireling the report calls ``ref`` (an id, a
        name, a shirt number): a sentence names him so, not by the form's id."""
        hireling = next((h for h in self.hirelings.values() if ref in (h.id, h.name)), None)
        if hireling is not None:
            return hireling.name
        try:
            return c.player(ref, self.team.team_id).name
        except LedgerError:
            return ref


def find_player(c: Context, side: Side, ref: str) -> str:
    """A player of this side's team who may play, or one of its hirelings."""
    hireling = next((h for h in side.hirelings.values() if ref in (h.id, h.name)), None)
    if hireling is not None:
        return hireling.id
    player = c.player(ref, side.team.team_id)
    check_can_play(player)
    return player.player_id


def check_can_play(player: PlayerRow) -> None:
    why = unavailable(player)
    if why is not None:
        raise PlayerUnavailable(why)


UNAVAILABLE = {
    "dead": "is dead",
    "fired": "was fired",
    "left": "has left the team",
    "retired": "is temporarily retired",
}


def unavailable(player: PlayerRow) -> str | None:
    """Why ``player`` cannot play a game now, or None when he may (the report form offers
    only those who may: ledger/web/pages_report.py)."""
    if player.status in UNAVAILABLE:
        return f"{player.name} {UNAVAILABLE[player.status]} and cannot play"
    if player.miss_next_game:
        return f"{player.name} must miss this game (injured last game)"
    return None


def sheet(side: Side, report: MatchReport, rolls: tuple[DiceRoll, ...]) -> TeamSheet:
    scored = sum(p.touchdowns for p in side.players.values())
    touchdowns = side.report.touchdowns if side.report.touchdowns is not None else scored
    players = tuple(side.players.values())
    mine = {side.team.team_id, *side.ids(), *side.roster}
    return TeamSheet(
        team=side.team.team_id,
        touchdowns=touchdowns,
        players=players,
        stalling=side.report.stalled or any(p.stalling for p in players),
        hirelings=tuple(side.hirelings.values()),
        dice=tuple(r for r in rolls if r.subject in mine),
    )


def rolled(
    draft: ev.MatchRecorded, sides: list[Side], report: MatchReport, rolls: tuple[DiceRoll, ...]
) -> ev.MatchRecorded:
    """The drafted match with ``rolls``: each on the sheet of the side it is about, the rest
    at the match's level. Each step of resolving a report makes a new draft rather than
    changing one in place; the ruleset is asked about each as the event it would be."""
    home, away, *others = (sheet(side, report, rolls) for side in sides)
    match_level = tuple(r for r in rolls if r.subject is None)
    update = {"home": home, "away": away, "others": tuple(others), "dice": match_level}
    return draft.model_copy(update=update)
