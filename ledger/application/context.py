"""What a command sees while it decides: the league's current state and its ruleset.

Finding things by the names a commissioner types (a team id, a player's name, id or
shirt number) lives here, with errors that say what exists instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from pydantic import ValidationError

from ledger.application.keyed_dice import KeyedDice, KeySource, advancement_dice
from ledger.domain.events import LedgerEvent
from ledger.domain.state import LeagueRow, LeagueView, MatchRow, PlayerRow, TeamRow
from ledger.domain.values import MAX_TEXT, DiceRoll, validation_problems
from ledger.errors import (
    InvalidInput,
    LedgerError,
    PlayerNotInTeam,
    UnknownPlayer,
    UnknownTeam,
)
from ledger.rules.dice import fresh_roll
from ledger.rules.protocol import Ruleset
from ledger.words import words

P = TypeVar("P")
Drafts = list[LedgerEvent]
"""What a command decides to record: events built and validated like any other
(``PlayerHired(team=..., ...)``, checked field by field by mypy), not yet sealed into the
log with their place, time and author (``ChainedLog.seal``)."""


def decided(plan: Callable[[P], Drafts], given: P) -> Drafts:
    """The drafts ``plan`` decides on."""
    with drafting():
        return plan(given)


@contextmanager
def drafting() -> Iterator[None]:
    """A draft whose fields break the domain's bounds (a name too long, a negative count)
    is the caller's input at fault: ``InvalidInput``, naming the field."""
    try:
        yield
    except ValidationError as error:
        raise InvalidInput(validation_problems(error)) from None


def check_reason(reason: str | None, what: str, why: str) -> None:
    """The one check of a reason a command needs: spaces alone say no more than nothing."""
    if not reason or not reason.strip():
        raise InvalidInput(f"{what} needs a reason: {why}")  # said alike by the CLI and the API
    check_length(reason, what)


def check_length(reason: str | None, what: str) -> None:
    """The bound every event's reason has, said as a sentence before the event is made."""
    if reason is not None and len(reason) > MAX_TEXT:
        raise InvalidInput(f"{what}'s reason is {len(reason):,} characters; at most {MAX_TEXT:,}")


@dataclass
class Context:
    view: LeagueView
    league: LeagueRow
    ruleset: Ruleset
    roller: random.Random = field(default_factory=random.SystemRandom)
    """Where the ledger's own dice come from (seeded for synthetic leagues)."""
    reason: str | None = None
    """Why the command is asked (the reason its events record): some commands need one."""
    stored: Callable[[str], Iterable[LedgerEvent]] | None = None
    """The league's stored events, for the commands that read its history (corrections)."""
    account: str | None = None
    """The account the command is asked from (signed in, or ``--as``), for the rules that
    ask who acts: a coach does not answer the report their own account submitted."""
    dice_key: KeySource | None = None
    """The store's dice key, read when a command needs it (``keyed_dice``)."""
    lines_left_out: bool = False
    """The report's caller left lines of it out for mistakes of their own (the report
    form's dry run, ``pages_report_mistakes``): the checks of the whole game (its score,
    which dice its sequence asks) would read a game without them, and are not asked."""

    def history(self) -> list[LedgerEvent]:
        if self.stored is None:
            raise LedgerError(f"league {self.league.slug}'s history cannot be read here")
        return list(self.stored(self.league_id))

    def roll(self, purpose: str, dice: str, subject: str | None) -> DiceRoll:
        return fresh_roll(purpose, dice, subject, self.roller)

    def advancement_dice(self, player: PlayerRow) -> KeyedDice | None:
        """The ledger's dice for the player's next advancement (None where the store has
        no key to draw them from: a ledger in memory)."""
        if self.dice_key is None:
            return None
        return advancement_dice(self.dice_key(), self.league_id, player)

    @property
    def league_id(self) -> str:
        return self.league.league_id

    def teams(self) -> list[TeamRow]:
        return list(self.view.select(TeamRow, league_id=self.league_id))

    def team(self, team_id: str) -> TeamRow:
        team = self.view.get(TeamRow, self.league_id, team_id)
        if team is None:
            known = ", ".join(t.team_id for t in self.teams()) or "none yet"
            raise UnknownTeam(
                f"no team '{team_id}' in league {self.league.slug} (teams: {known})",
                given=team_id,
                known=(t.team_id for t in self.teams()),
            )
        return team

    def players(self, team_id: str) -> list[PlayerRow]:
        return list(self.view.select(PlayerRow, league_id=self.league_id, team_id=team_id))

    def player(self, ref: str, team_id: str | None = None) -> PlayerRow:
        """A player by id, by name, or by ``#number`` within a team."""
        found = self.view.get(PlayerRow, self.league_id, ref)
        if found is None and team_id is not None:
            found = self.by_name_or_number(ref, team_id) or self.elsewhere(ref, team_id)
        if found is None:
            where = f" of {team_id}" if team_id else ""
            raise UnknownPlayer(
                f"no player '{ref}'{where} in league {self.league.slug}",
                given=ref,
                known=self.player_names(team_id),
            )
        if team_id is not None and found.team_id != team_id:
            raise PlayerNotInTeam(
                f"{found.name} ({found.player_id}) plays for {found.team_id}, not {team_id}"
            )
        return found

    def player_names(self, team_id: str | None) -> list[str]:
        """What a player may be called by: his name and his id (to suggest the closest)."""
        where = {"team_id": team_id} if team_id is not None else {}
        found = self.view.select(PlayerRow, league_id=self.league_id, **where)
        return [name for p in found for name in (p.name, p.player_id)]

    def by_name_or_number(self, ref: str, team_id: str) -> PlayerRow | None:
        """Current players first; then former ones, so that naming a dead or fired player
        is answered with what became of him rather than 'no such player'."""
        everyone = sorted(self.players(team_id), key=lambda p: -p.hired_seq)
        current = [p for p in everyone if p.status in ("active", "retired")]
        for pool in (current, everyone):
            if ref.startswith("#") and ref[1:].isdigit():
                found = [p for p in pool if p.number == int(ref[1:])]
            else:
                found = [p for p in pool if p.name.casefold() == ref.casefold()]
            if found:
                return found[0]
        return None

    def elsewhere(self, name: str, team_id: str) -> PlayerRow | None:
        """A player of that name on another team (to say so, rather than 'no player')."""
        others = (p for t in self.teams() if t.team_id != team_id for p in self.players(t.team_id))
        return next((p for p in others if p.name.casefold() == name.casefold()), None)

    def match(self, match_id: str) -> MatchRow | None:
        return self.view.get(MatchRow, self.league_id, match_id)

    def team_name(self, team_id: str) -> str:
        """The team's name, or the id asked where the league holds no such team."""
        found = self.view.get(TeamRow, self.league_id, team_id)
        return found.name if found is not None else team_id

    def game_named(self, match_id: str) -> str:
        """A game as a refusal names it: its stage or round and its teams, then its id,
        which the command line's match commands take (``the final, Reikland Reavers v
        Skavenblight Scramblers (s1-final-1)``); the id alone for no fixture of the books."""
        match = self.match(match_id)
        if match is None:
            return match_id
        teams = " v ".join(map(self.team_name, (match.home, match.away, *match.others)))
        when = when_played(match)
        return f"{'the ' if match.stage != 'regular' else ''}{when}, {teams} ({match_id})"


def when_played(match: MatchRow) -> str:
    """A fixture's place in its season: its play-off stage, else its round (a game of no
    round: its kind)."""
    if match.stage != "regular":
        return words(match.stage)
    return f"round {match.round}" if match.round is not None else f"{match.kind} game"
