"""Helpers to write tests in the domain's own terms.

``Book`` writes a league's events directly (as commands would have recorded them) and
folds them in memory: the "given these events, under this ruleset, expect these
numbers" style of the rules tests. ``draft_team`` and ``report`` drive a real ledger
through its commands for the integration tests.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from typing import Any, NoReturn

import yaml

from ledger.application.commands import HirePlayer, RegisterTeam
from ledger.application.reports import MatchReport, parse_report
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.log import LeagueLog
from ledger.domain.state import LeagueRow, PlayerRow, StandingRow, TeamRow
from ledger.domain.values import DiceRoll, Performance, TeamSheet
from ledger.projections.fold import fold
from ledger.projections.store import MemoryStore
from ledger.rules import find_ruleset
from ledger.rules.protocol import Ruleset


def roll(purpose: str, dice: str, *values: int, subject: str | None = None) -> DiceRoll:
    return DiceRoll(purpose=purpose, dice=dice, values=values, subject=subject)


class Book:
    """A league log written by hand, folded in memory."""

    def __init__(self, ruleset: str = "bb2025", options: dict[str, Any] | None = None) -> None:
        self.ruleset: Ruleset = find_ruleset(ruleset, options)
        self.log = LeagueLog.open(
            recorded_by="test",
            slug="book",
            name="Book League",
            ruleset=self.ruleset.id,
            options=self.ruleset.options.model_dump(mode="json"),
        )
        self.players = 0

    @property
    def league_id(self) -> str:
        return str(self.log.id)

    def record(self, cls: type[ev.LedgerEvent], **fields: Any) -> ev.LedgerEvent:
        return self.log.record(cls, recorded_by="test", **fields)

    def team(
        self, team_id: str, roster: str, positions: Sequence[str], *, treasury: int | None = None
    ) -> list[str]:
        """Register a team and hire one player per position at list price; the
        treasury left is ``treasury`` (default: exactly what the players cost)."""
        costs = [self.ruleset.catalogue.position(roster, p).cost for p in positions]
        start = sum(costs) + (treasury or 0)
        self.record(
            ev.TeamRegistered,
            team=team_id,
            name=team_id.title(),
            coach="coach",
            roster=roster,
            treasury=start,
        )
        ids = []
        for position, cost in zip(positions, costs, strict=True):
            self.players += 1
            player = f"p{self.players}"
            self.record(
                ev.PlayerHired,
                team=team_id,
                player=player,
                name=f"{team_id}-{player}",
                position=position,
                price=cost,
            )
            ids.append(player)
        return ids

    def events(self) -> list[ev.LedgerEvent]:
        return [e for e in self.log.pending_events if isinstance(e, ev.LedgerEvent)]

    def fold(self, ruleset: Ruleset | None = None) -> MemoryStore:
        return fold(self.events(), ruleset or self.ruleset, native=ruleset is None)

    def team_row(self, team_id: str, state: MemoryStore | None = None) -> TeamRow:
        found = (state or self.fold()).get(TeamRow, self.league_id, team_id)
        assert found is not None
        return found

    def player_row(self, player_id: str, state: MemoryStore | None = None) -> PlayerRow:
        found = (state or self.fold()).get(PlayerRow, self.league_id, player_id)
        assert found is not None
        return found

    def standing(
        self, team_id: str, season: int = 1, state: MemoryStore | None = None
    ) -> StandingRow:
        found = (state or self.fold()).get(StandingRow, self.league_id, season, team_id)
        assert found is not None
        return found

    def league(self, state: MemoryStore | None = None) -> LeagueRow:
        found = (state or self.fold()).get(LeagueRow, self.league_id)
        assert found is not None
        return found


def sheet(
    team: str,
    touchdowns: int = 0,
    players: Sequence[Performance] = (),
    dice: Sequence[DiceRoll] = (),
    stalling: bool = False,
) -> TeamSheet:
    return TeamSheet(
        team=team,
        touchdowns=touchdowns,
        players=tuple(players),
        dice=tuple(dice),
        stalling=stalling,
    )


def final_of_many(winner: str, **touchdowns: int) -> dict[str, Any]:
    """The fields of a play-off of more than two teams (a Dungeon Bowl final), its teams
    with their touchdowns in order (home, away, then the others) and its winner."""
    home, away, *others = (sheet(team, scored) for team, scored in touchdowns.items())
    return {
        "match": "f1",
        "kind": "playoff",
        "home": home,
        "away": away,
        "others": tuple(others),
        "winner": winner,
    }


# --- through the real commands ------------------------------------------------------------

HUMAN_ELEVEN = ["blitzer", "blitzer", "thrower", *["lineman"] * 8]
SKAVEN_ELEVEN = ["gutter_runner", "blitzer", "thrower", *["clanrat"] * 8]


def create_league(
    ledger: LeagueLedger,
    slug: str = "test",
    ruleset: str = "bb2025",
    options: dict[str, Any] | None = None,
) -> str:
    ledger.create_league(slug, f"{slug.title()} League", ruleset, by="tester", options=options)
    return slug


def draft_team(
    ledger: LeagueLedger, league: str, team: str, roster: str, positions: Sequence[str]
) -> list[str]:
    ledger.handle(RegisterTeam(league, team, team.title(), "coach", roster), by="tester")
    return [
        ledger.handle(
            HirePlayer(league, team, position, f"{team} {i + 1}", number=i + 1), by="tester"
        )
        for i, position in enumerate(positions)
    ]


def two_team_league(ledger: LeagueLedger, slug: str = "test") -> str:
    create_league(ledger, slug)
    draft_team(ledger, slug, "reavers", "human", HUMAN_ELEVEN)
    draft_team(ledger, slug, "rats", "skaven", SKAVEN_ELEVEN)
    return slug


def reavers_rats(touchdowns: int = 2) -> dict[str, Any]:
    """g1 of ``two_team_league``: reavers 1 scores ``touchdowns`` against the rats,
    reavers 3 kills rats 2 (a roll of 16)."""
    return {
        "match": "g1",
        "home": {
            "team": "reavers",
            "players": [{"player": "reavers 1", "td": touchdowns, "mvp": 1}],
            "dice": {"fan_factor": 2, "dedicated_fans": 6},
        },
        "away": {
            "team": "rats",
            "players": [{"player": "rats 1", "mvp": 1}],
            "dice": {"fan_factor": 1, "dedicated_fans": 6},
        },
        "casualties": [{"victim": "rats 2", "by": "reavers 3", "roll": 16}],
    }


def report(text_or_data: str | dict[str, Any]) -> MatchReport:
    text = text_or_data if isinstance(text_or_data, str) else yaml.safe_dump(text_or_data)
    return parse_report(text)


def event_count(ledger: LeagueLedger) -> int:
    return int(ledger.source.head())


def zal_forfeit_report() -> dict[str, Any]:
    """ZAL game r2 of the reavers/gouged league: the Gouged Eye forfeit voluntarily (ZAL
    9b) at 0-3, the Reavers field journeyman Jo, and Reavers 1 is hurt by a block."""
    return {
        "match": "r2",
        "home": {
            "team": "gouged",
            "players": [{"player": "gouged 1", "td": 1}],
            "touchdowns": 0,
            "dice": {"gate": [6, 6, 6], "winnings": 3},
        },
        "away": {
            "team": "reavers",
            "hirelings": [{"id": "j1", "name": "Jo", "kind": "journeyman", "position": "lineman"}],
            "players": [{"player": "j1", "td": 3, "mvp": 1}, {"player": "reavers 2", "mvp": 1}],
            "dice": {"gate": [1, 1, 1, 1, 1], "winnings": 5, "fan_factor": 4},
        },
        "concession": {"team": "gouged", "kind": "forfeit_voluntary"},
        "casualties": [{"victim": "reavers 1", "by": "gouged 3", "cause": "block", "roll": 62}],
    }


def drain(terminal: int) -> bytes:
    """Everything a command printed to the pseudo-terminal ``terminal`` (its controlling
    side, read until the command has closed its end), and the terminal closed."""
    chunks = []
    while True:
        try:
            chunk = os.read(terminal, 65536)
        except OSError:  # Linux says EIO once the other end is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(terminal)
    return b"".join(chunks)


RECORDS_OF_PLAY = (
    "games",
    "touchdowns",
    "completions",
    "interceptions",
    "casualties",
    "casualties_all",
    "kills",
    "mvps",
)
"""A player's records of play, which a Monte Carlo sample does not keep
(``Fold.counts_play``)."""


def without_play(player: PlayerRow) -> PlayerRow:
    """``player`` as a Monte Carlo sample keeps him: his records of play at nought."""
    return player.model_copy(update=dict.fromkeys(RECORDS_OF_PLAY, 0))


class Unread:
    """A field the code under test must not read: any use of it fails the test."""

    def fail(self, *args: Any) -> NoReturn:
        raise AssertionError("read a field it leaves out")

    __bool__ = __eq__ = __ne__ = __hash__ = __lt__ = __le__ = __gt__ = __ge__ = fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = fail
    __floordiv__ = __truediv__ = __index__ = __int__ = fail
    __iter__ = __len__ = __contains__ = __getitem__ = __getattr__ = fail


UNREAD = Unread()


def unread(row: Any, reads: Collection[str]) -> Any:
    """The record ``row`` with every field outside ``reads`` failing when it is used: what
    a declaration of the fields some code reads is tested with."""
    fields = type(row).model_fields
    return row.model_copy(update={name: UNREAD for name in fields if name not in reads})
