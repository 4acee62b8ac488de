"""The read models caught up event by event equal a full rebuild, whatever happened.

Hypothesis draws random sequences of commands (hires, purchases, games, closes,
advancements, firings, corrections); the ledger refuses some of them, which must leave the
log as it was. After each sequence the incrementally maintained tables must equal the
tables of a full rebuild, and a second rebuild must give the same tables again.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.application.commands import (
    AdvancePlayer,
    Buy,
    ClosePostGame,
    Correct,
    CorrectMatch,
    FirePlayer,
    HirePlayer,
    RecordMatch,
)
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.state import MatchRow, PlayerRow, StandingRow, TeamGameLine, TeamRow
from ledger.errors import LedgerError
from ledger.projections.sql import ALL_TABLES
from tests.support import create_league, draft_team, reavers_rats, report

EXAMPLES = itertools.count()
TEAMS = {"reavers": ("human", "lineman"), "rats": ("skaven", "clanrat"), "orcs": ("orc", "lineman")}


def tables(ledger: LeagueLedger) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every read-model table, in primary-key order."""
    found = {}
    with ledger.read_models.engine.connect() as conn:
        for table in ALL_TABLES:
            order = list(table.primary_key.columns)
            found[table.name] = [
                tuple(row) for row in conn.execute(sa.select(table).order_by(*order))
            ]
    return found


def league(ledger: LeagueLedger) -> str:
    create_league(ledger)
    for team, (roster, line) in TEAMS.items():
        draft_team(ledger, "test", team, roster, [line] * 11)
    return "test"


Step = tuple[str, int, int, int]
steps = st.lists(
    st.tuples(
        st.sampled_from(
            ["hire", "buy", "game", "game", "game", "advance", "fire", "void", "amend"]
        ),
        st.integers(0, 50),
        st.integers(0, 50),
        st.integers(0, 50),
    ),
    min_size=4,
    max_size=14,
)


class Commissioner:
    """Carries out a drawn step with the real commands; refusals are expected."""

    def __init__(self, ledger: LeagueLedger, seed: int) -> None:
        self.ledger = ledger
        self.rng = random.Random(seed)
        self.games = 0
        self.refused = 0

    def players(self, team: str) -> list[PlayerRow]:
        view = self.ledger.view()
        return [
            p
            for p in view.select(PlayerRow, league_id=self.league_id, team_id=team)
            if p.status == "active" and not p.miss_next_game
        ]

    @property
    def league_id(self) -> str:
        return self.ledger.league_row("test").league_id

    def do(self, step: Step) -> None:
        before = self.ledger.source.head()
        try:
            getattr(self, step[0])(*step[1:])
        except LedgerError:
            self.refused += 1
            assert self.ledger.source.head() == before

    def team(self, a: int) -> str:
        return sorted(TEAMS)[a % len(TEAMS)]

    def hire(self, a: int, b: int, c: int) -> None:
        team = self.team(a)
        self.ledger.handle(
            HirePlayer("test", team, TEAMS[team][1], f"{team} extra {b}-{c}"), by="t"
        )

    def buy(self, a: int, b: int, c: int) -> None:
        item = ["reroll", "assistant_coach", "cheerleader", "apothecary"][b % 4]
        self.ledger.handle(Buy("test", self.team(a), item, 1 + c % 2), by="t")

    def game(self, a: int, b: int, c: int) -> None:
        home, away = self.team(a), self.team(a + 1 + b % 2)
        self.games += 1
        sides = {t: self.players(t)[:11] for t in (home, away)}
        lines = {
            t: [
                {"player": p.player_id, "td": 1 if i < (b + c) % 3 else 0}
                for i, p in enumerate(sides[t])
            ]
            for t in sides
        }
        for t in sides:
            if lines[t]:
                lines[t][c % len(lines[t])]["mvp"] = 1
        casualties = []
        if sides[home] and sides[away] and c % 2:
            casualties.append(
                {
                    "victim": sides[away][b % len(sides[away])].player_id,
                    "by": sides[home][0].player_id,
                    "roll": 1 + (a + c) % 16,
                    "lasting": 1 + b % 6,
                }
            )
        self.ledger.handle(
            RecordMatch(
                "test",
                report(
                    {
                        "match": f"g{self.games}",
                        "home": {"team": home, "players": lines[home]},
                        "away": {"team": away, "players": lines[away]},
                        "casualties": casualties,
                    }
                ),
                roll_missing=True,
            ),
            by="t",
        )
        for team in (home, away):
            self.close_for(team)

    def close_for(self, team: str) -> None:
        row = self.ledger.view().get(TeamRow, self.league_id, team)
        for match in row.open_games if row else ():
            for player in self.players(team):
                self.skill_if_due(team, player)
            self.ledger.handle(ClosePostGame("test", match, team, roll_missing=True), by="t")

    def skill_if_due(self, team: str, player: PlayerRow) -> None:
        if player.spp >= 14:
            self.ledger.handle(
                AdvancePlayer(
                    "test",
                    team,
                    player.player_id,
                    "characteristic",
                    characteristic="av",
                    dice=(self.d8(),),
                ),
                by="t",
            )

    def d8(self) -> Any:
        from ledger.domain.values import DiceRoll

        return DiceRoll(purpose="characteristic", dice="D8", values=(8,))

    def advance(self, a: int, b: int, c: int) -> None:
        team = self.team(a)
        players = self.players(team)
        if players:
            player = players[b % len(players)]
            skill = ["Block", "Dodge", "Tackle", "Wrestle", "Sure Hands"][c % 5]
            self.ledger.handle(
                AdvancePlayer("test", team, player.player_id, "chosen_primary", skill=skill), by="t"
            )

    def fire(self, a: int, b: int, c: int) -> None:
        team = self.team(a)
        players = self.players(team)
        if players:
            self.ledger.handle(
                FirePlayer("test", team, players[b % len(players)].player_id), by="t"
            )

    def played(self) -> list[MatchRow]:
        view = self.ledger.view()
        return [m for m in view.select(MatchRow, league_id=self.league_id) if m.status == "played"]

    def void(self, a: int, b: int, c: int) -> None:
        matches = self.played()
        if matches:
            target = matches[a % len(matches)].recorded_seq or 0
            self.ledger.handle(Correct("test", target, "void"), by="t", reason="wrong game")

    def amend(self, a: int, b: int, c: int) -> None:
        matches = self.played()
        if matches:
            match = matches[a % len(matches)]
            self.ledger.handle(
                Correct(
                    "test",
                    match.recorded_seq or 0,
                    "amend",
                    amendment={"weather": f"sweltering {b}"},
                ),
                by="t",
                reason="the dice were misread",
            )


@settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(drawn=steps, seed=st.integers(0, 1000))
def test_incremental_read_models_equal_a_full_rebuild(
    tmp_path: Path, drawn: list[Step], seed: int
) -> None:
    db = tmp_path / f"consistency-{next(EXAMPLES)}.db"  # tmp_path is shared by examples
    ledger = open_ledger(Settings(sqlite_path=db))
    try:
        ledger.roller = random.Random(seed)
        league(ledger)
        commissioner = Commissioner(ledger, seed)
        for step in drawn:
            commissioner.do(step)
        incremental = tables(ledger)
        ledger.read_models.rebuild(ledger.source)
        rebuilt = tables(ledger)
        assert rebuilt == incremental
        ledger.read_models.rebuild(ledger.source)
        assert tables(ledger) == rebuilt
    finally:
        close_ledger(ledger)


@pytest.fixture
def played(sqlite_ledger: LeagueLedger) -> LeagueLedger:
    ledger = sqlite_ledger
    league(ledger)
    ledger.handle(
        RecordMatch(
            "test",
            report(reavers_rats(touchdowns=2)),
        ),
        by="t",
    )
    return ledger


def test_a_voided_match_disappears_from_every_read_model(played: LeagueLedger) -> None:
    ledger = played
    league_id = ledger.league_row("test").league_id
    seq = ledger.view().get(MatchRow, league_id, "g1").recorded_seq  # type: ignore[union-attr]
    treasury_before_game = 1_000_000 - 11 * 50_000
    ledger.handle(Correct("test", seq or 0, "void"), by="commissioner", reason="recorded in error")
    view = ledger.view()
    assert view.get(MatchRow, league_id, "g1") is None  # an ad-hoc match: gone entirely
    standing = view.get(StandingRow, league_id, 1, "reavers")
    assert standing is None or standing.played == 0
    scorer = ledger.view().select(PlayerRow, league_id=league_id, team_id="reavers")[0]
    assert (scorer.spp, scorer.touchdowns, scorer.mvps) == (0, 0, 0)
    dead = next(
        p for p in view.select(PlayerRow, league_id=league_id, team_id="rats") if p.name == "rats 2"
    )
    assert dead.status == "active"
    team = view.get(TeamRow, league_id, "reavers")
    assert team is not None
    assert team.treasury == treasury_before_game
    with ledger.read_models.engine.connect() as conn:
        games = conn.execute(
            sa.select(sa.func.count()).select_from(sa.table(TeamGameLine.table))
        ).scalar()
    assert games == 0
    from ledger.projections.queries import Queries
    from ledger.rules import find_ruleset

    queries = Queries(ledger.read_models.engine, ledger.league_row("test"), find_ruleset("bb2025"))
    assert queries.leaders("touchdowns") == []
    history = queries.history("team:reavers")
    assert any(line.voided and line.event_type == "MatchRecorded" for line in history)
    assert any(line.event_type == "EventCorrected" for line in history)


def test_an_amended_match_changes_every_figure_it_fed(played: LeagueLedger) -> None:
    ledger = played
    league_id = ledger.league_row("test").league_id
    seq = ledger.view().get(MatchRow, league_id, "g1").recorded_seq  # type: ignore[union-attr]
    ledger.handle(
        CorrectMatch(
            "test",
            seq or 0,
            report(reavers_rats(touchdowns=1)),
        ),
        by="commissioner",
        reason="one TD, not two",
    )
    view = ledger.view()
    scorer = view.get(PlayerRow, league_id, "p1")
    assert scorer is not None
    assert (scorer.spp, scorer.touchdowns) == (3 + 4, 1)
    match = view.get(MatchRow, league_id, "g1")
    assert match is not None
    assert (match.home_score, match.away_score) == (1, 0)
    # Winnings: attendance (1+2) + (1+1) = 5: 5/2 + 1 TD + 1 = 4.5 -> 45,000 (was 55,000)
    team = view.get(TeamRow, league_id, "reavers")
    assert team is not None
    assert team.treasury == 1_000_000 - 11 * 50_000 + 45_000
    incremental = tables(ledger)
    ledger.read_models.rebuild(ledger.source)
    assert tables(ledger) == incremental


def journeyman_signed(ledger: LeagueLedger) -> str:
    """Jo, a journeyman, scores twice and is the MVP of g1; signed after it, he scores once
    in g2. Returns his player id."""
    create_league(ledger)
    draft_team(ledger, "test", "reavers", "human", ["lineman"] * 10)  # room for one
    draft_team(ledger, "test", "rats", "skaven", ["clanrat"] * 11)
    jo = {"id": "j1", "name": "Jo", "kind": "journeyman", "position": "lineman"}
    first = {
        "match": "g1",
        "home": {
            "team": "reavers",
            "hirelings": [jo],
            "players": [{"player": "j1", "td": 2, "mvp": 1}],
        },
        "away": {"team": "rats"},
    }
    ledger.handle(RecordMatch("test", report(first), roll_missing=True), by="t")
    ledger.handle(
        HirePlayer("test", "reavers", "lineman", "Jo", journeyman="j1", match="g1"), by="t"
    )
    for team in ("reavers", "rats"):
        ledger.handle(ClosePostGame("test", "g1", team, roll_missing=True), by="t")
    league_id = ledger.league_row("test").league_id
    signed = next(
        p
        for p in ledger.view().select(PlayerRow, league_id=league_id, team_id="reavers")
        if p.name == "Jo"
    )
    second = {
        "match": "g2",
        "home": {"team": "reavers", "players": [{"player": signed.player_id, "td": 1}]},
        "away": {"team": "rats"},
    }
    ledger.handle(RecordMatch("test", report(second), roll_missing=True), by="t")
    return signed.player_id


def test_a_signed_journeyman_joins_with_what_he_did_in_his_game(
    sqlite_ledger: LeagueLedger,
) -> None:
    """BB2025 'Hiring, Firing and Temporarily Retiring' step 5: a hired Journeyman "will
    retain any SPP gained during the game": he joins with the game he played and what he
    did in it (his touchdowns, MVP, casualties), counted on with his later games, the same
    whether the tables were kept as events came or rebuilt from the log (and where a line
    process counts play: tests/projections/test_history_apart.py)."""
    ledger = sqlite_ledger
    jo = journeyman_signed(ledger)
    row = ledger.view().get(PlayerRow, ledger.league_row("test").league_id, jo)
    assert row is not None
    assert (row.games, row.touchdowns, row.mvps) == (2, 3, 1)
    incremental = tables(ledger)
    ledger.read_models.rebuild(ledger.source)
    assert tables(ledger) == incremental
