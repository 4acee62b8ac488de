"""Every combination of void, amend, re-record and close leaves a league that can go on,
and a league whose mistakes were corrected equals the league recorded without them.

Both properties run over a four-team BB2025 season, scheduled home and away (built once,
each example works on a copy of its SQLite file):

1. Corrected in place. Hypothesis draws the first fixtures of the season, the report and
   the post-game dice of each, and the mistakes made on the way to it: wrong reports
   recorded, closed for no team, one team or both, then voided and recorded again; a wrong
   report amended into the right one before or after its closes; a close with the wrong
   dice voided and made again. The league recorded with its mistakes equals, in every read
   model, the league recorded without them (the same reports and dice), once each event
   number is read as its counterpart's.
2. Anything goes. Hypothesis draws records, closes, voids, amends and re-records of any
   match, in any order, that the ledger may refuse (a refusal writes nothing). Whatever
   happened, every open post-game sequence can then be closed, and the next fixture
   recorded and closed.
"""

from __future__ import annotations

import itertools
import random
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.application.closing import close_rolls
from ledger.application.commands import (
    AdvancePlayer,
    ClosePostGame,
    Correct,
    CorrectMatch,
    RecordMatch,
)
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain import events as ev
from ledger.domain.state import EventLine, MatchRow, PlayerRow, RefLine, TeamRow
from ledger.domain.values import Casualty, DiceRoll
from ledger.errors import InvalidInput, LedgerError
from ledger.projections.sql import ALL_TABLES
from tests.integration.test_corrections_reach import build_season
from tests.support import report

COPIES = itertools.count()
LEAGUE = "test"
EXAMPLES = settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def season_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("season") / "season.db"
    ledger = open_ledger(Settings(sqlite_path=path, user="tester"))
    try:
        build_season(ledger)
    finally:
        close_ledger(ledger)
    return path


@contextmanager
def copy_of(season_file: Path, tmp_path: Path) -> Iterator[LeagueLedger]:
    """A ledger on a fresh copy of the season (tmp_path is shared by a test's examples)."""
    path = tmp_path / f"copy-{next(COPIES)}.db"
    shutil.copy(season_file, path)
    ledger = open_ledger(Settings(sqlite_path=path, user="tester"))
    try:
        yield ledger
    finally:
        close_ledger(ledger)


# --- what a game and its post-game sequence are made of ----------------------------------------


@dataclass(frozen=True)
class Report:
    """One game's report. Players 1-3 of a side score (one touchdown each), player 5 is
    credited with a casualty, players 6-11 are its victims (each one victim once, so no
    report names a player hurt before): nobody earns the 14 SPP that would make a team
    advance a player before it may close."""

    home_scorers: frozenset[int]
    away_scorers: frozenset[int]
    fan_factor: tuple[int, int]
    dedicated_fans: tuple[int, int]
    casualty: tuple[Literal["home", "away"], int, int] | None
    """The side whose player is hurt, the D16, and the D6 a Lasting Injury (13-14) rolls."""
    weather: str

    def drawn(self) -> bool:
        return len(self.home_scorers) == len(self.away_scorers)

    def data(self, row: MatchRow, victims: dict[str, int]) -> dict[str, Any]:
        sides = {"home": row.home, "away": row.away}
        casualties = []
        if self.casualty is not None:
            side, roll, lasting = self.casualty
            hurt, by = sides[side], sides["away" if side == "home" else "home"]
            victim = f"{hurt} {6 + victims.get(hurt, 0)}"
            casualty = {"victim": victim, "by": f"{by} 5", "roll": roll}
            casualties.append({**casualty, "lasting": lasting} if roll in (13, 14) else casualty)
        return {
            "match": row.match_id,
            "weather": self.weather,
            "home": self.side(row.home, self.home_scorers, 0),
            "away": self.side(row.away, self.away_scorers, 1),
            "casualties": casualties,
        }

    def side(self, team: str, scorers: frozenset[int], index: int) -> dict[str, Any]:
        dice: dict[str, int] = {"fan_factor": self.fan_factor[index]}
        if not self.drawn():
            dice["dedicated_fans"] = self.dedicated_fans[index]
        players = [{"player": f"{team} {n}", "td": 1} for n in sorted(scorers)]
        return {"team": team, "touchdowns": len(scorers), "players": players, "dice": dice}

    def same_money(self, other: Report) -> bool:
        """Whether the two pay the same winnings and need the same post-game dice: a close
        made after one and kept when it is amended into the other then reads the same."""
        return (
            len(self.home_scorers) == len(other.home_scorers)
            and len(self.away_scorers) == len(other.away_scorers)
            and (self.fan_factor, self.dedicated_fans) == (other.fan_factor, other.dedicated_fans)
        )


@dataclass(frozen=True)
class CloseDice:
    """A team's Expensive Mistakes as rolled: the D6, then the D3 or 2D6 if it calls for one."""

    roll: int
    minor: int
    catastrophe: tuple[int, int]


Closes = Literal["none", "home", "both"]
Final = Literal["right", "amend_before", "amend_after"]


@dataclass(frozen=True)
class Game:
    right: Report
    dice: tuple[CloseDice, CloseDice]
    voided: tuple[tuple[Report, Closes, tuple[CloseDice, CloseDice]], ...] = ()
    """Wrong reports recorded first, closed for no team, the home team or both, then voided."""
    final: Final = "right"
    """The right report recorded as it is, or a wrong one amended into it before or after
    both teams closed."""
    wrong: Report | None = None
    reclose: CloseDice | None = None
    """The home team first closed with these dice, and that close voided."""


casualties = st.tuples(st.sampled_from(["home", "away"]), st.integers(1, 16), st.integers(1, 6))
reports = st.builds(
    Report,
    home_scorers=st.frozensets(st.integers(1, 3)),
    away_scorers=st.frozensets(st.integers(1, 3)),
    fan_factor=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    dedicated_fans=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    casualty=st.none() | casualties,
    weather=st.sampled_from(["nice", "pouring rain", "sweltering heat"]),
)
close_dice = st.builds(
    CloseDice,
    roll=st.integers(1, 6),
    minor=st.integers(1, 3),
    catastrophe=st.tuples(st.integers(1, 6), st.integers(1, 6)),
)


@st.composite
def games(draw: st.DrawFn) -> Game:
    right = draw(reports)
    pair = st.tuples(close_dice, close_dice)
    closes: st.SearchStrategy[Closes] = st.sampled_from(["none", "home", "both"])
    voided = draw(st.lists(st.tuples(reports, closes, pair), max_size=2))
    finals: st.SearchStrategy[Final] = st.sampled_from(["right", "amend_before", "amend_after"])
    final = draw(finals)
    wrong = None
    if final == "amend_before":
        wrong = draw(reports.filter(lambda r: r != right))
    elif final == "amend_after":
        wrong = draw(same_money_as(right))
    reclose = draw(st.none() | close_dice) if final != "amend_after" else None
    return Game(right, draw(pair), tuple(voided), final, wrong, reclose)


def same_money_as(right: Report) -> st.SearchStrategy[Report]:
    """Another report of the same game that pays the same: other scorers, another casualty,
    other weather."""
    return st.builds(
        replace,
        st.just(right),
        home_scorers=st.sets(
            st.integers(1, 3), min_size=len(right.home_scorers), max_size=len(right.home_scorers)
        ).map(frozenset),
        away_scorers=st.sets(
            st.integers(1, 3), min_size=len(right.away_scorers), max_size=len(right.away_scorers)
        ).map(frozenset),
        casualty=st.none() | casualties,
        weather=st.sampled_from(["nice", "blizzard"]),
    ).filter(lambda r: r != right)


# --- a commissioner at work ---------------------------------------------------------------------


@dataclass
class Commissioner:
    ledger: LeagueLedger
    victims: dict[str, int] = field(default_factory=dict)
    """How many of each team's players the right reports hurt so far (the next victim)."""

    @property
    def league_id(self) -> str:
        return self.ledger.league_row(LEAGUE).league_id

    def fixtures(self) -> list[MatchRow]:
        rows = self.ledger.view().select(MatchRow, league_id=self.league_id)
        return sorted(rows, key=lambda m: (m.round or 0, m.match_id))

    def version(self) -> int:
        return self.ledger.league_row(LEAGUE).version

    def record(self, row: MatchRow, game: Report) -> int:
        self.ledger.handle(RecordMatch(LEAGUE, report(game.data(row, self.victims))), by="tester")
        return self.version()

    def close(self, row: MatchRow, team_id: str, dice: CloseDice) -> int:
        entries = self.entries(team_id, dice)
        self.ledger.handle(ClosePostGame(LEAGUE, row.match_id, team_id, dice=entries), by="tester")
        return self.version()

    def entries(self, team_id: str, dice: CloseDice) -> dict[str, int | list[int]]:
        """The dice as rolled, as far as the team's close calls for them."""
        context = self.ledger.context(LEAGUE)
        first: dict[str, int | list[int]] = {"expensive_mistakes": dice.roll}
        _, needs = close_rolls(context, context.team(team_id), first, lambda need: None)
        entries: dict[str, int | list[int]] = {}
        for need in needs:
            if need.purpose == "expensive_mistakes":
                entries[need.purpose] = dice.roll
            elif need.dice == "D3":
                entries[need.purpose] = dice.minor
            else:
                entries[need.purpose] = list(dice.catastrophe)
        return entries

    def void(self, seq: int) -> None:
        self.ledger.handle(Correct(LEAGUE, seq, "void"), by="tester", reason="a mistake")

    def amend(self, seq: int, row: MatchRow, game: Report) -> None:
        fixed = report(game.data(row, self.victims))
        try:
            self.ledger.handle(CorrectMatch(LEAGUE, seq, fixed), by="tester", reason="a mistake")
        except InvalidInput as error:
            # A wrong report may read as the right one once recorded (a die it does not
            # need): then there is nothing to amend, and the ledger says so.
            if "nothing to amend" not in error.message:
                raise

    def hurt(self, row: MatchRow, game: Report) -> None:
        if game.casualty is not None:
            team = row.home if game.casualty[0] == "home" else row.away
            self.victims[team] = self.victims.get(team, 0) + 1

    # --- the two ways of playing a game ---

    def play(self, row: MatchRow, game: Game) -> None:
        self.record(row, game.right)
        for team, dice in zip((row.home, row.away), game.dice, strict=True):
            self.close(row, team, dice)
        self.hurt(row, game.right)

    def play_with_mistakes(self, row: MatchRow, game: Game) -> None:
        teams = (row.home, row.away)
        for wrong, closes, rolls in game.voided:
            seq = self.record(row, wrong)
            closing = teams[: {"none": 0, "home": 1, "both": 2}[closes]]
            for team, rolled in zip(closing, rolls[: len(closing)], strict=True):
                self.close(row, team, rolled)
            self.void(seq)
        closed = False
        if game.final == "right":
            self.record(row, game.right)
        else:
            assert game.wrong is not None
            seq = self.record(row, game.wrong)
            if game.final == "amend_after":
                for team, dice in zip(teams, game.dice, strict=True):
                    self.close(row, team, dice)
                closed = True
            self.amend(seq, row, game.right)
        if game.reclose is not None and not closed:
            self.void(self.close(row, row.home, game.reclose))
        if not closed:
            for team, dice in zip(teams, game.dice, strict=True):
                self.close(row, team, dice)
        self.hurt(row, game.right)


# --- comparing two leagues -------------------------------------------------------------------

SEQ_COLUMNS = {"seq", "recorded_seq", "registered_seq", "hired_seq"}
"""Columns that hold an event's number: a fact has another number in a log that also holds
the mistakes and their corrections, so these are compared through the map of numbers."""
LOG_COLUMNS = {
    ("rm_leagues", "version"),
    ("rm_leagues", "last_hash"),
    ("rm_leagues", "members_version"),
    ("rm_events", "recorded_at"),
}
"""The log's length and last hash, the number of its latest grant or correction (which
every correction moves: ledger/web/known.py), and when each event was recorded: facts
about the log, not about the league, which legitimately differ."""


def in_force(ledger: LeagueLedger) -> list[int]:
    """The numbers of the events in force (neither voided nor a correction), in order."""
    table = sa.table(
        EventLine.table, sa.column("seq"), sa.column("voided"), sa.column("event_type")
    )
    query = sa.select(table.c.seq).where(
        table.c.voided.is_(False), table.c.event_type != "EventCorrected"
    )
    with ledger.read_models.engine.connect() as conn:
        return sorted({int(seq) for seq in conn.execute(query).scalars()})


def read_models(ledger: LeagueLedger, numbers: dict[int, int]) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every read model, event numbers read through ``numbers``, without what
    the mistakes legitimately changed (the rows of voided events and corrections in the
    history, the log's length and hash, recording times)."""
    found = {}
    history = (EventLine.table, RefLine.table)
    with ledger.read_models.engine.connect() as conn:
        for table in ALL_TABLES:
            rows = []
            for row in conn.execute(sa.select(table)).mappings():
                if table.name in history and row["seq"] not in numbers:
                    continue
                rows.append(
                    tuple(
                        numbers.get(value, ("unmapped", value))
                        if column in SEQ_COLUMNS and value is not None
                        else value
                        for column, value in row.items()
                        if (table.name, column) not in LOG_COLUMNS
                    )
                )
            found[table.name] = sorted(rows, key=repr)
    return found


def same_league(mistaken: LeagueLedger, clean: LeagueLedger) -> None:
    ours, theirs = in_force(mistaken), in_force(clean)
    assert len(ours) == len(theirs)
    numbers = dict(zip(ours, theirs, strict=True))
    identity = {seq: seq for seq in theirs}
    expected = read_models(clean, identity)
    found = read_models(mistaken, numbers)
    for name in expected:
        assert found[name] == expected[name], name


@EXAMPLES
@given(played=st.lists(games(), min_size=1, max_size=4))
def test_a_league_corrected_in_place_equals_the_league_recorded_without_mistakes(
    season_file: Path, tmp_path: Path, played: list[Game]
) -> None:
    with copy_of(season_file, tmp_path) as mistaken, copy_of(season_file, tmp_path) as clean:
        careful, hasty = Commissioner(clean), Commissioner(mistaken)
        fixtures = careful.fixtures()
        for row, game in zip(fixtures[: len(played)], played, strict=True):
            careful.play(row, game)
            hasty.play_with_mistakes(row, game)
        same_league(mistaken, clean)
        # and both go on: the next fixture is recorded and closed alike
        after = Game(played[0].right, played[0].dice)
        careful.play(fixtures[len(played)], after)
        hasty.play(fixtures[len(played)], after)
        same_league(mistaken, clean)


# --- anything goes ------------------------------------------------------------------------------

Move = tuple[str, int, int, int]
moves = st.lists(
    st.tuples(
        st.sampled_from(["record", "close", "close", "void", "amend", "rerecord"]),
        st.integers(0, 30),
        st.integers(0, 30),
        st.integers(0, 30),
    ),
    min_size=3,
    max_size=14,
)


@dataclass
class Meddler:
    """Records, closes, voids, amends and records again, without minding what is valid:
    the ledger refuses what is not, and a refusal must leave the log as it was."""

    ledger: LeagueLedger
    refused: int = 0

    @property
    def league_id(self) -> str:
        return self.ledger.league_row(LEAGUE).league_id

    def do(self, move: Move) -> None:
        before = self.ledger.league_row(LEAGUE).version
        try:
            getattr(self, move[0])(*move[1:])
        except LedgerError:
            self.refused += 1
            assert self.ledger.league_row(LEAGUE).version == before

    def matches(self, status: str) -> list[MatchRow]:
        rows = self.ledger.view().select(MatchRow, league_id=self.league_id)
        return sorted((m for m in rows if m.status == status), key=lambda m: m.match_id)

    def available(self, team: str) -> list[PlayerRow]:
        rows = self.ledger.view().select(PlayerRow, league_id=self.league_id, team_id=team)
        ready = (p for p in rows if p.status == "active" and not p.miss_next_game)
        return sorted(ready, key=lambda p: p.number or 0)

    def lineup(self, row: MatchRow, a: int, b: int) -> dict[str, Any]:
        """A report of ``row`` from the players able to play now, the dice left to the
        ledger; the home side hurts an away player when ``b`` is odd."""
        sides = {team: self.available(team)[:4] for team in (row.home, row.away)}
        data: dict[str, Any] = {"match": row.match_id, "casualties": []}
        for place, team in (("home", row.home), ("away", row.away)):
            players = sides[team]
            scored = a % 3 if place == "home" else b % 3
            lines = [{"player": p.player_id, "td": int(i < scored)} for i, p in enumerate(players)]
            data[place] = {"team": team, "players": lines}
        victims = self.available(row.away)[4:]
        if b % 2 and sides[row.home] and victims:
            victim = victims[a % len(victims)].player_id
            by = sides[row.home][0].player_id
            data["casualties"] = [{"victim": victim, "by": by, "roll": 1 + (a + b) % 16}]
            if data["casualties"][0]["roll"] in (13, 14):
                data["casualties"][0]["lasting"] = 1 + a % 6
        return data

    def record(self, a: int, b: int, c: int) -> None:
        """Mostly a fixture still to play (or played, then voided); now and then one that
        stands recorded (refused)."""
        fixtures = self.matches("played" if c % 5 == 4 else "scheduled")
        if fixtures:
            self.record_again(fixtures[a % len(fixtures)], b, c)

    def close(self, a: int, b: int, c: int) -> None:
        """Mostly a post-game sequence still open; now and then any (refused if closed)."""
        played = self.matches("played")
        teams = self.ledger.view().select(TeamRow, league_id=self.league_id)
        owed = sorted((m, t.team_id) for t in teams for m in t.open_games)
        if c % 5 == 4 and played:
            row = played[a % len(played)]
            owed = [(row.match_id, (row.home, row.away)[b % 2])]
        if owed:
            match_id, team = owed[a % len(owed)]
            self.advance_if_due(team)
            self.ledger.handle(
                ClosePostGame(LEAGUE, match_id, team, roll_missing=True), by="tester"
            )

    def void(self, a: int, b: int, c: int) -> None:
        """A match report or a post-game close; now and then one already voided."""
        kind = ("MatchRecorded", "PostGameClosed")[b % 2]
        table = sa.table(
            EventLine.table, sa.column("seq"), sa.column("event_type"), sa.column("voided")
        )
        query = sa.select(table.c.seq).where(table.c.event_type == kind)
        if c % 5 != 4:
            query = query.where(table.c.voided.is_(False))
        with self.ledger.read_models.engine.connect() as conn:
            found = sorted({int(seq) for seq in conn.execute(query).scalars()})
        if found:
            self.ledger.handle(
                Correct(LEAGUE, found[a % len(found)], "void"), by="tester", reason="x"
            )

    def rerecord(self, a: int, b: int, c: int) -> None:
        """Void a match and record it again at once, with the same match id."""
        played = self.matches("played")
        if played:
            row = played[a % len(played)]
            with self.ledger.atomic():
                self.ledger.handle(
                    Correct(LEAGUE, row.recorded_seq or 0, "void"), by="t", reason="x"
                )
                self.record_again(row, b, c)

    def record_again(self, row: MatchRow, b: int, c: int) -> None:
        self.ledger.handle(
            RecordMatch(LEAGUE, report(self.lineup(row, b, c)), roll_missing=True), by="tester"
        )

    def amend(self, a: int, b: int, c: int) -> None:
        played = self.matches("played")
        if played:
            row = played[a % len(played)]
            event = next(
                e
                for e in self.ledger.source.league_events(self.league_id)
                if e.seq == row.recorded_seq
            )
            assert isinstance(event, ev.MatchRecorded)
            data: dict[str, Any] = {"match": row.match_id, "weather": f"amended {b}"}
            for place, sheet in (("home", event.home), ("away", event.away)):
                lines = [
                    {"player": p.player, "td": int(i < (b if place == "home" else c) % 3)}
                    for i, p in enumerate(sheet.players)
                ]
                dice = {r.purpose: list(r.values) for r in sheet.dice if r.subject == sheet.team}
                data[place] = {"team": sheet.team, "players": lines, "dice": dice}
            # the same casualties, else none (whoever they hurt is healed)
            data["casualties"] = [casualty_line(cas) for cas in event.casualties if c % 2]
            self.ledger.handle(
                CorrectMatch(LEAGUE, row.recorded_seq or 0, report(data)), by="tester", reason="x"
            )

    def advance_if_due(self, team: str) -> None:
        """A player with the SPP for a characteristic must take it before his team closes."""
        rows = self.ledger.view().select(PlayerRow, league_id=self.league_id, team_id=team)
        for player in rows:
            if player.status == "active" and player.spp >= 14 and not player.advancements:
                eight = DiceRoll(purpose="characteristic", dice="D8", values=(8,))
                self.ledger.handle(
                    AdvancePlayer(
                        LEAGUE,
                        team,
                        player.player_id,
                        "characteristic",
                        characteristic="av",
                        dice=(eight,),
                    ),
                    by="tester",
                )

    def go_on(self) -> None:
        """What a commissioner does next, whatever happened: close every open post-game
        sequence, then record the next fixture and close it. None of it may be refused."""
        teams = self.ledger.view().select(TeamRow, league_id=self.league_id)
        for team in teams:
            for match_id in team.open_games:
                self.advance_if_due(team.team_id)
                self.ledger.handle(
                    ClosePostGame(LEAGUE, match_id, team.team_id, roll_missing=True), by="tester"
                )
        row = self.matches("scheduled")[0]
        self.ledger.handle(
            RecordMatch(LEAGUE, report(self.lineup(row, 1, 2)), roll_missing=True), by="tester"
        )
        for team_id in (row.home, row.away):
            self.advance_if_due(team_id)
            self.ledger.handle(
                ClosePostGame(LEAGUE, row.match_id, team_id, roll_missing=True), by="tester"
            )


def casualty_line(casualty: Casualty) -> dict[str, Any]:
    """A recorded casualty as a report gives it."""
    line: dict[str, Any] = {"victim": casualty.victim, "cause": casualty.cause}
    if casualty.inflicted_by is not None:
        line["by"] = casualty.inflicted_by
    line["dice"] = {r.purpose: list(r.values) for r in casualty.dice}
    return line


def every_row(ledger: LeagueLedger) -> dict[str, list[tuple[Any, ...]]]:
    with ledger.read_models.engine.connect() as conn:
        return {
            table.name: sorted((tuple(row) for row in conn.execute(sa.select(table))), key=repr)
            for table in ALL_TABLES
        }


@EXAMPLES
@given(drawn=moves, seed=st.integers(0, 1000))
def test_whatever_is_voided_amended_or_recorded_again_the_league_goes_on(
    season_file: Path, tmp_path: Path, drawn: list[Move], seed: int
) -> None:
    with copy_of(season_file, tmp_path) as ledger:
        ledger.roller = random.Random(seed)
        meddler = Meddler(ledger)
        for move in drawn:
            meddler.do(move)
        meddler.go_on()
        print(
            "DBG",
            len(drawn),
            meddler.refused,
            ledger.league_row(LEAGUE).version,
            [m[0] for m in drawn],
        )
        incremental = every_row(ledger)
        ledger.read_models.rebuild(ledger.source)
        assert every_row(ledger) == incremental
