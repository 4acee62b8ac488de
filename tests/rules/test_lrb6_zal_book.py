"""A ZAL league written by hand, for the lrb6-zal rules tests (no tests of its own).

``Zal`` wraps ``tests.support.Book``: teams are drafted at LRB6 list prices with their Fan
Factor, re-rolls and staff bought as ZAL 3c-3e require, and match sides carry the dice of
the ZAL sequence (gate, winnings, Fan Factor roll) so each test states only what matters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.domain import events as ev
from ledger.domain.state import MatchRow, PlayerRow, StandingRow, TeamRow
from ledger.domain.values import (
    Casualty,
    Concession,
    DiceRoll,
    Effect,
    Hireling,
    Performance,
    Purchase,
    TeamSheet,
)
from ledger.projections.store import MemoryStore
from ledger.rules.lrb6_zal.ruleset import LRB6ZAL
from tests.support import Book, roll

# LRB6 list prices: 2 Blitzers 180,000, a Thrower and a Catcher 140,000, 7 Linemen 350,000.
HUMANS = ["blitzer", "blitzer", "thrower", "catcher", *["lineman"] * 7]
HUMANS_GOLD = 670_000
# 4 Blitzers and 4 Black Orcs 640,000, 3 Linemen 150,000.
ORCS = [*["blitzer"] * 4, *["black_orc_blocker"] * 4, *["lineman"] * 3]
ORCS_GOLD = 790_000


class Zal:
    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.book = Book("lrb6-zal", options)
        ruleset = self.book.ruleset
        assert isinstance(ruleset, LRB6ZAL)
        self.ruleset: LRB6ZAL = ruleset
        self.matches: int = 0

    @property
    def league_id(self) -> str:
        return self.book.league_id

    def team(
        self,
        team_id: str,
        roster: str,
        positions: Sequence[str],
        *,
        fans: int = 1,
        rerolls: int = 0,
        staff: Sequence[str] = (),
        treasury: int = 0,
    ) -> list[str]:
        """Draft a team; ``treasury`` is what is left once everything is bought."""
        reroll = self.ruleset.catalogue.team_list(roster).reroll_cost
        items = {"fan_factor": (fans, 10_000 * fans), "reroll": (rerolls, reroll * rerolls)}
        for item in staff:
            items[item] = (1, {"apothecary": 50_000, "wizard": 150_000}.get(item, 10_000))
        spent = sum(price for _, price in items.values())
        ids = self.book.team(team_id, roster, positions, treasury=treasury + spent)
        bought = tuple(
            Purchase(item=item, count=count, price=price)
            for item, (count, price) in items.items()
            if count
        )
        if bought:
            self.book.record(ev.SidelinePurchased, team=team_id, purchases=bought)
        return ids

    def hire_star(self, team: str, star: str) -> str:
        self.book.players += 1
        player = f"p{self.book.players}"
        cost = self.ruleset.catalogue.star(star).cost
        self.book.record(
            ev.PlayerHired,
            team=team,
            player=player,
            name=star,
            position=star,
            kind="star",
            star=star,
            price=cost,
        )
        return player

    def match(
        self,
        home: TeamSheet,
        away: TeamSheet,
        casualties: Sequence[Casualty] = (),
        concession: Concession | None = None,
        **fields: Any,
    ) -> str:
        self.matches += 1
        match_id: str = fields.pop("match", f"m{self.matches}")
        self.book.record(
            ev.MatchRecorded,
            match=match_id,
            season=fields.pop("season", 1),
            home=home,
            away=away,
            casualties=tuple(casualties),
            concession=concession,
            **fields,
        )
        return match_id

    def draft_match(self, home: TeamSheet, away: TeamSheet, **fields: Any) -> ev.MatchRecorded:
        """A match as a command would check it before recording it."""
        draft: dict[str, Any] = {
            "match": fields.pop("match", "draft"),
            "kind": fields.pop("kind", "league"),
            "home": home,
            "away": away,
            "casualties": tuple(fields.pop("casualties", ())),
            "concession": fields.pop("concession", None),
            "dice": (),
            "others": (),
        }
        return ev.MatchRecorded.model_construct(**draft)

    def fold(self) -> MemoryStore:
        return self.book.fold()

    def team_row(self, team_id: str, state: MemoryStore | None = None) -> TeamRow:
        return self.book.team_row(team_id, state)

    def player(self, player_id: str, state: MemoryStore | None = None) -> PlayerRow:
        return self.book.player_row(player_id, state)

    def players(self, team_id: str, state: MemoryStore) -> list[PlayerRow]:
        return list(state.select(PlayerRow, league_id=self.league_id, team_id=team_id))

    def standing(self, team_id: str) -> StandingRow:
        return self.book.standing(team_id)

    def match_row(self, match_id: str, state: MemoryStore) -> MatchRow:
        found = state.get(MatchRow, self.league_id, match_id)
        assert found is not None
        return found


def side(
    team: str,
    touchdowns: int = 0,
    players: Sequence[Performance] = (),
    *,
    fans: int = 1,
    gate: Sequence[int] | None = None,
    winnings: int | Sequence[int] | None = 3,
    fan: int | None = 3,
    hirelings: Sequence[Hireling] = (),
    extra: Sequence[DiceRoll] = (),
) -> TeamSheet:
    """One team's sheet with its ZAL dice: a gate D6 per Fan Factor (3s unless given), the
    winnings roll and the Fan Factor roll (None leaves a roll out)."""
    gate = [3] * fans if gate is None else gate
    dice = [roll("gate", d6s(len(gate)), *gate, subject=team)] if gate else []
    if winnings is not None:
        values = (winnings,) if isinstance(winnings, int) else tuple(winnings)
        dice.append(roll("winnings", d6s(len(values)), *values, subject=team))
    if fan is not None:
        dice.append(roll("fan_factor", "D6", fan, subject=team))
    return TeamSheet(
        team=team,
        touchdowns=touchdowns,
        players=tuple(players),
        hirelings=tuple(hirelings),
        dice=(*dice, *extra),
    )


def d6s(count: int) -> str:
    return "D6" if count == 1 else f"{count}D6"


def played(player: str, **achievements: int) -> Performance:
    return Performance(player=player, **achievements)


def hurt(
    victim: str,
    by: str | None,
    cause: str = "block",
    outcome: str = "badly_hurt",
    effects: Sequence[Effect] = (),
    recovered: bool = False,
) -> Casualty:
    return Casualty.model_validate(
        {
            "victim": victim,
            "inflicted_by": by,
            "cause": cause,
            "outcome": outcome,
            "effects": tuple(effects),
            "recovered": recovered,
        }
    )


def killed(victim: str, by: str | None, cause: str = "block", recovered: bool = False) -> Casualty:
    return hurt(victim, by, cause, "dead", ("dead",), recovered)


def gold_lines(state: MemoryStore, team: str, kind: str) -> list[int]:
    from ledger.domain.state import TreasuryLine

    return [
        line.amount
        for line in state.lines[TreasuryLine]
        if isinstance(line, TreasuryLine) and line.team_id == team and line.kind == kind
    ]
