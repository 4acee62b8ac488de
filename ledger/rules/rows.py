"""The rows a ruleset is given: what a rule reads of the books, gathered by its caller.

A ruleset never asks a store (STYLE practice 4). The fold, the commands and the what-if
replays gather these small bundles (``ledger/projections/gather.py``) from whatever state
they hold - the SQL read models, the fold's memory, a replay's copy - and a rule reads
only what is in them. Each bundle holds what some edition reads, no more: adding a rule
that needs another row means adding it here and in the gatherer, where the cost of
reading it is seen.

Worked example: to judge a report of ``m1`` (home ``t1``, away ``t2``) a ruleset is given
``MatchRows(teams={"t1": TeamRows(team, players), "t2": ...}, fixture=<the row of m1>)``;
``rows.player("p7")`` finds p7 among both teams' players, ``rows.stage()`` is the fixture's
stage ("regular" when the match was never scheduled).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ledger.domain.immutable import immutable
from ledger.domain.state import MatchRow, PlayerRow, StandingRow, TeamRow, on_roster


@immutable
class TeamRows:
    """A team and its players in key order: its current roster, or every player the
    books hold for it, former ones too, for an edition whose ``reads_former_players``
    says its rules look at them (gold4 and dz3 rub the 'miss next game' off every card)."""

    team: TeamRow
    players: tuple[PlayerRow, ...]

    def roster(self) -> list[PlayerRow]:
        """The team's current players (on the roster by status), in key order."""
        return on_roster(self.players)


@dataclass(frozen=True)
class MatchRows:
    """What a match report (or a card played on one) meets in the books.

    ``teams``: the registered teams it names, by id (for a match: home and away; for a
    card: every team of the league, as a card may name any of them). ``fixture``: the row
    of the match it names (its stage, its booked winnings), None when there is none.
    ``named``: the players the report names (on a sheet, in a casualty) who are not among
    the teams' players given: a departed player, or one of another team.
    ``league_stars``: every star player of the league, on any team - gathered only for an
    edition whose ``reads_league_stars`` says its rules look across the league.
    ``strangers``: the ids the report names that no player of the books holds (a hireling
    of the game's, or a mistake the command refuses).
    """

    teams: Mapping[str, TeamRows]
    fixture: MatchRow | None = None
    named: Mapping[str, PlayerRow] = field(default_factory=dict)
    league_stars: tuple[PlayerRow, ...] = ()
    strangers: frozenset[str] = frozenset()

    def team(self, team_id: str) -> TeamRow | None:
        side = self.teams.get(team_id)
        return side.team if side is not None else None

    def team_name(self, team_id: str) -> str:
        """The team's name, for a sentence (its id where the books have no such team)."""
        team = self.team(team_id)
        return team.name if team is not None else team_id

    def player_name(self, player_id: str) -> str:
        """The player's name, for a sentence (the id of a one-game player the books lack)."""
        player = self.player(player_id)
        return player.name if player is not None else player_id

    def players(self, team_id: str) -> tuple[PlayerRow, ...]:
        side = self.teams.get(team_id)
        return side.players if side is not None else ()

    def player(self, player_id: str) -> PlayerRow | None:
        """A player of the teams given or named by the report (an id that is neither is a
        one-game player's)."""
        by_id = self.__dict__.get("by_id")  # as ``players_by_id`` keeps it: a rule asks often
        if by_id is None:
            by_id = self.players_by_id()
        return by_id.get(player_id)

    def players_by_id(self) -> Mapping[str, PlayerRow]:
        """Every player of the teams given or named by the report, by id."""
        # Made when first asked and kept beside the fields (as ``cached_property`` keeps
        # its answer, without the lock it takes on 3.11): most editions' match rules never
        # ask, and a Monte Carlo sample gathers every game's.
        by_id: dict[str, PlayerRow] | None = self.__dict__.get("by_id")
        if by_id is None:
            players = {p.player_id: p for side in self.teams.values() for p in side.players}
            by_id = self.__dict__["by_id"] = {**self.named, **players}
        return by_id

    def stage(self) -> str:
        return self.fixture.stage if self.fixture is not None else "regular"


@immutable
class HireRows:
    """What a hire meets: the hiring team with its players; the match a one-game player
    is signed from (his SPP and kind in it); the league's stars when the edition's
    ``reads_league_stars`` asks for them (``check_hire`` only)."""

    side: TeamRows
    from_match: MatchRow | None = None
    league_stars: tuple[PlayerRow, ...] = ()

    @property
    def team(self) -> TeamRow:
        return self.side.team

    @property
    def players(self) -> tuple[PlayerRow, ...]:
        return self.side.players


@immutable
class RedraftRows:
    """What a re-draft reads: the team, its current players, and its matches of the season
    before the one it re-drafts for (home or away, any kind or status)."""

    side: TeamRows
    last_season: tuple[MatchRow, ...] = ()

    @property
    def team(self) -> TeamRow:
        return self.side.team


@immutable
class SeasonRows:
    """What closing a season reads: the league's recorded points scheme, the season's
    standings and matches, the teams holding the trophy, every star player of the league."""

    points: Mapping[str, Any] | None
    standings: tuple[StandingRow, ...] = ()
    matches: tuple[MatchRow, ...] = ()
    trophy_holders: tuple[TeamRow, ...] = ()
    league_stars: tuple[PlayerRow, ...] = ()
