"""A short league driven through the real commands under any ruleset, for the contract suite.

``Season`` opens a league on a ledger, drafts four teams from team lists every edition has
(Human, Orc, Skaven, Dwarf; positions picked from ``ruleset.catalogue.team_lists()``),
starts a season and then plays a sequence of ``Step``s: hires, purchases, match reports with scores,
casualties and concessions (each followed by its post-game closes where the edition has
them), firings, treasury adjustments, cards and bounties. Steps are edition-neutral numbers,
so hypothesis can vary them for every ruleset alike; what a step means comes from the
ruleset (its positions, sideline items, casualty dice, ways to give a game up). The ledger
rolls whatever dice a report leaves out, from the seeded generator it was opened with.

A command the ledger refuses is expected in such sequences; ``Season.attempt`` checks that a
refusal left the log exactly as it was, and keeps its message for a failing test's report.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ledger.application.commands import (
    AdjustTreasury,
    AdvancePlayer,
    Buy,
    ClosePostGame,
    CloseSeason,
    FirePlayer,
    HirePlayer,
    PlayCard,
    PostBounty,
    RecordMatch,
    RegisterTeam,
    StartSeason,
)
from ledger.application.service import LeagueLedger
from ledger.domain.state import MatchRow, PlayerRow, TeamRow
from ledger.domain.values import DiceRoll, Division, dice_shape
from ledger.errors import LedgerError
from ledger.rules import RULESETS, find_ruleset
from ledger.rules.asked import Closing
from ledger.rules.bb2025.tables import skills as bb2025_skills
from ledger.rules.protocol import Ruleset
from ledger.rules.schema import Position, TeamList
from tests.support import event_count, report

BY = "contract"
TEAM_LISTS = ("human", "orc", "skaven", "dwarf")

CASUALTY_PURPOSES: dict[str, tuple[str, ...]] = {
    "lrb6": ("casualty_d6", "casualty_d8"),
    "lrb6-zal": ("casualty_d6", "casualty_d8"),
}
"""Casualty dice to roll where not every purpose of ``ruleset.casualty_dice`` fits together
(ZAL's D68 is either one two-digit roll or its D6 and D8)."""

SERIOUS = ("seriously_injured", "serious_injury")
"""Outcome names gold4 and dz3 give a serious injury before its D66 is read."""

OPS = ("match", "match", "match", "hire", "buy", "fire", "adjust", "card", "bounty")

Step = tuple[str, int, int, int]
"""(operation, a, b, seed): which team, which position/item/amount, and a seed for details."""


def option_sets() -> list[tuple[str, dict[str, Any]]]:
    """Every registered ruleset with each option set it declares (its defaults otherwise)."""
    declared: dict[str, tuple[dict[str, Any], ...]] = {
        cls.id: getattr(cls, "example_option_sets", ({},)) for cls in RULESETS
    }
    return [(ruleset, dict(options)) for ruleset, sets in declared.items() for options in sets]


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    ruleset, options = case
    return ruleset + "".join(f"-{k}={v}" for k, v in sorted(options.items()))


# --- drafting from the edition's own lists ---------------------------------------------------


def line_position(team_list: TeamList) -> Position:
    """The position a team fills up with: the Lineman line with the most places."""
    lines = [p for p in team_list.positions if "lineman" in p.keywords] or list(team_list.positions)
    return max(lines, key=lambda p: (p.max, -p.cost))


def starting_positions(team_list: TeamList) -> list[str]:
    """Eleven players: the two cheapest specialists (no Big Guys, no secret weapons), then
    linemen."""
    line = line_position(team_list)
    specialists = sorted(
        (
            p
            for p in team_list.positions
            if p.id != line.id
            and p.max > 0
            and not {"big_guy", "secret_weapon", "no_spp"} & set(p.keywords)
        ),
        key=lambda p: (p.cost, p.id),
    )[:2]
    return [p.id for p in specialists] + [line.id] * (11 - len(specialists))


def chosen_lists(ruleset: Ruleset) -> list[str]:
    known = ruleset.catalogue.team_lists()
    found = [t for t in TEAM_LISTS if t in known]
    return (found + [t for t in sorted(known) if t not in found])[:4]


FOLLOW_UPS = ("lasting_injury",)
"""Casualty dice rolled only when the first roll calls for one: BB2025's Lasting Injury D6,
on a Casualty Table D16 of 13-14 (a die no casualty needs is refused)."""


def casualty_dice(ruleset: Ruleset, rng: random.Random) -> dict[str, int | list[int]]:
    """The casualty's dice as rolled at the table: the edition's first rolls, then its
    Lasting Injury D6 or Serious Injury D66 only when they call for one."""
    purposes = CASUALTY_PURPOSES.get(ruleset.id, tuple(ruleset.casualty_dice))
    first = [p for p in purposes if ruleset.casualty_dice[p] != "D66" and p not in FOLLOW_UPS]
    dice = {p: rolled(ruleset.casualty_dice[p], rng) for p in first}
    follow_ups = [p for p in purposes if p in FOLLOW_UPS]
    if follow_ups and not read(ruleset, dice):
        dice |= {p: rolled(ruleset.casualty_dice[p], rng) for p in follow_ups}
    if any(ruleset.casualty_dice[p] == "D66" for p in purposes) and serious(ruleset, dice):
        dice |= {p: rolled("D66", rng) for p in purposes if ruleset.casualty_dice[p] == "D66"}
    return dice


def rolled(shape: str, rng: random.Random) -> int | list[int]:
    count, sides = dice_shape(shape)
    if sides == 66:
        return [rng.randint(1, 6), rng.randint(1, 6)]
    values = [rng.randint(1, sides) for _ in range(count)]
    return values[0] if count == 1 else values


def read(ruleset: Ruleset, dice: dict[str, int | list[int]]) -> bool:
    """Whether the rolls so far name the casualty's outcome."""
    try:
        ruleset.casualty_from_report(None, (), as_rolls(ruleset, dice))
    except LedgerError:
        return False
    return True


def serious(ruleset: Ruleset, dice: dict[str, int | list[int]]) -> bool:
    """Whether the first rolls leave a serious injury that only its D66 can name."""
    try:
        outcome, _ = ruleset.casualty_from_report(None, (), as_rolls(ruleset, dice))
    except LedgerError:
        return True
    return outcome in SERIOUS


def as_rolls(ruleset: Ruleset, dice: dict[str, int | list[int]]) -> list[DiceRoll]:
    return [
        DiceRoll(
            purpose=p,
            dice=ruleset.casualty_dice[p],
            values=(v,) if isinstance(v, int) else tuple(v),
        )
        for p, v in dice.items()
    ]


# --- the season ----------------------------------------------------------------------------


@dataclass
class Season:
    ledger: LeagueLedger
    ruleset_id: str
    options: dict[str, Any]
    slug: str = "contract"
    teams: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    """The message of each refused command, for a failing test's report."""
    hired: int = 0

    @cached_property
    def ruleset(self) -> Ruleset:
        return find_ruleset(self.ruleset_id, self.options)

    @property
    def league_id(self) -> str:
        return self.ledger.league_row(self.slug).league_id

    # --- commands, each allowed to fail ------------------------------------------------

    def attempt(self, action: Callable[[], object]) -> bool:
        """Run a command; a refusal must leave the log as it was."""
        before = event_count(self.ledger)
        try:
            action()
        except LedgerError as error:
            refusal = str(error)
        else:
            return True
        after = event_count(self.ledger)
        assert after == before, f"a refused command wrote {after - before} event(s): {refusal}"
        self.refusals.append(refusal)
        return False

    def open(self) -> Season:
        self.ledger.create_league(
            self.slug, "Contract League", self.ruleset_id, by=BY, options=self.options
        )
        ruleset = self.ruleset
        for index, roster in enumerate(chosen_lists(ruleset)):
            team = f"t{index + 1}"
            self.ledger.handle(
                RegisterTeam(self.slug, team, f"Team {index + 1}", "coach", roster), by=BY
            )
            for number, position in enumerate(
                starting_positions(ruleset.catalogue.team_list(roster)), 1
            ):
                self.ledger.handle(HirePlayer(self.slug, team, position, f"{team}-{number}"), by=BY)
            self.draft_sideline(team)
            self.teams.append(team)
        self.ledger.handle(
            StartSeason(self.slug, [Division(name="", teams=tuple(self.teams))]), by=BY
        )
        return self

    @classmethod
    def resume(cls, ledger: LeagueLedger, ruleset_id: str, options: dict[str, Any]) -> Season:
        """The season opened earlier on this ledger (a copy of its file)."""
        season = cls(ledger, ruleset_id, options)
        teams = ledger.view().select(TeamRow, league_id=season.league_id)
        season.teams = sorted(t.team_id for t in teams)
        return season

    def draft_sideline(self, team: str) -> None:
        """Fans while drafting (ZAL refuses a first match without Fan Factor) and a re-roll."""
        items = self.ruleset.sideline_items(self.team(team))
        fans = next((i for i in items.values() if i.counts_as == "fans" and i.draft_only), None)
        if fans is not None:
            self.ledger.handle(Buy(self.slug, team, fans.id, 2), by=BY)
        self.ledger.handle(Buy(self.slug, team, "reroll", 1), by=BY)

    def play(self, steps: Sequence[Step]) -> None:
        for op, a, b, seed in steps:
            getattr(self, f"step_{op}")(a, b, seed)

    def finish(self) -> None:
        """Close whatever post-game sequences are open, then the season."""
        for match in self.played():
            for team in (match.home, match.away):
                if self.ruleset.post_game_closes and team not in match.closed:
                    self.close(match.match_id, team)
        self.attempt(lambda: self.ledger.handle(CloseSeason(self.slug), by=BY))

    # --- reading ------------------------------------------------------------------------

    def team(self, team_id: str) -> TeamRow:
        found = self.ledger.view().get(TeamRow, self.league_id, team_id)
        assert found is not None
        return found

    def roster(self, team_id: str) -> list[PlayerRow]:
        players = self.ledger.view().select(PlayerRow, league_id=self.league_id, team_id=team_id)
        return sorted(
            (p for p in players if p.status in ("active", "retired")), key=lambda p: p.hired_seq
        )

    def fit(self, team_id: str) -> list[PlayerRow]:
        return [p for p in self.roster(team_id) if p.status == "active" and not p.miss_next_game]

    def played(self) -> list[MatchRow]:
        matches = self.ledger.view().select(MatchRow, league_id=self.league_id)
        return sorted(
            (m for m in matches if m.status == "played"), key=lambda m: m.recorded_seq or 0
        )

    # --- the steps ------------------------------------------------------------------------

    def step_match(self, a: int, b: int, seed: int) -> None:
        rng = random.Random(seed)
        home = self.teams[a % 4]
        away = self.teams[(a + 1 + b % 3) % 4]
        data = self.match_report(home, away, rng)
        recorded: list[str] = []
        if (
            self.attempt(
                lambda: recorded.append(
                    self.ledger.handle(
                        RecordMatch(self.slug, report(data), roll_missing=True), by=BY
                    )
                )
            )
            and self.ruleset.post_game_closes
        ):
            for team in (home, away):
                self.close(recorded[0], team)

    def match_report(self, home: str, away: str, rng: random.Random) -> dict[str, Any]:
        scores = {home: rng.choice((0, 1, 1, 2, 3)), away: rng.choice((0, 1, 1, 2, 3))}
        conceder = None
        kinds = self.ruleset.concession_kinds  # what the report form offers: each accepted
        if kinds and rng.random() < 0.2:
            conceder = min((home, away), key=lambda t: (scores[t], t))
            winner = away if conceder == home else home
            scores[winner] = max(scores[winner], scores[conceder] + 1, 3)
        fit = {team: self.fit(team) for team in (home, away)}
        sides = {
            team: self.side(team, scores[team], fit[team], team != conceder, rng)
            for team in (home, away)
        }
        data: dict[str, Any] = {
            "home": sides[home],
            "away": sides[away],
            "casualties": self.casualties(fit[home], fit[away], rng),
        }
        if conceder is not None:
            data["concession"] = {"team": conceder, "kind": rng.choice(kinds)}
        return data

    def side(
        self, team: str, touchdowns: int, fit: list[PlayerRow], mvp: bool, rng: random.Random
    ) -> dict[str, Any]:
        lines: dict[str, dict[str, Any]] = {}
        if fit:
            for _ in range(touchdowns):
                scorer = rng.choice(fit).name
                lines.setdefault(scorer, {"player": scorer, "td": 0})["td"] += 1
            if mvp:
                star = rng.choice(fit).name
                lines.setdefault(star, {"player": star})["mvp"] = 1
            passer = rng.choice(fit).name
            lines.setdefault(passer, {"player": passer})["comp"] = rng.randint(0, 2)
        return {"team": team, "touchdowns": touchdowns, "players": list(lines.values())}

    def casualties(
        self, home: list[PlayerRow], away: list[PlayerRow], rng: random.Random
    ) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        victims: set[str] = set()
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
            attackers, defenders = (home, away) if rng.random() < 0.5 else (away, home)
            candidates = [p for p in defenders if p.name not in victims]
            if not attackers or not candidates:
                continue
            victim = rng.choice(candidates)
            victims.add(victim.name)
            found.append(
                {
                    "victim": victim.name,
                    "by": rng.choice(attackers).name,
                    "cause": rng.choice(("block", "block", "foul", "crowd")),
                    "dice": casualty_dice(self.ruleset, rng),
                }
            )
        return found

    def close(self, match_id: str, team: str) -> None:
        """Close a post-game sequence; BB2025 first spends the SPP that must be spent."""
        if not self.attempt(
            lambda: self.ledger.handle(
                ClosePostGame(self.slug, match_id, team, roll_missing=True), by=BY
            )
        ):
            self.take_due_advancements(team)
            self.attempt(
                lambda: self.ledger.handle(
                    ClosePostGame(self.slug, match_id, team, roll_missing=True), by=BY
                )
            )

    def take_due_advancements(self, team_id: str) -> None:
        ruleset, team = self.ruleset, self.team(team_id)
        if ruleset.id != "bb2025":
            return
        for player in self.roster(team_id):
            if not ruleset.problems(Closing(team, [player])):
                continue
            primary = ruleset.catalogue.position(player.roster, player.position).primary
            skill = next(
                s.name
                for s in bb2025_skills().skills
                if s.category in primary and s.name not in player.skills
            )
            self.advance(team_id, player.player_id, skill)

    def advance(self, team_id: str, player_id: str, skill: str) -> None:
        self.attempt(
            lambda: self.ledger.handle(
                AdvancePlayer(self.slug, team_id, player_id, "chosen_primary", skill=skill), by=BY
            )
        )

    def step_hire(self, a: int, b: int, seed: int) -> None:
        team = self.teams[a % 4]
        positions = self.ruleset.catalogue.team_list(self.team(team).roster).positions
        self.hired += 1
        name = f"{team}-new-{self.hired}"
        position = positions[b % len(positions)].id
        self.attempt(lambda: self.ledger.handle(HirePlayer(self.slug, team, position, name), by=BY))

    def step_buy(self, a: int, b: int, seed: int) -> None:
        team = self.teams[a % 4]
        items = sorted(self.ruleset.sideline_items(self.team(team)))
        item, count = items[b % len(items)], 1 + seed % 2
        self.attempt(lambda: self.ledger.handle(Buy(self.slug, team, item, count), by=BY))

    def step_fire(self, a: int, b: int, seed: int) -> None:
        team = self.teams[a % 4]
        roster = self.roster(team)
        if roster:
            player = roster[b % len(roster)].player_id
            self.attempt(lambda: self.ledger.handle(FirePlayer(self.slug, team, player), by=BY))

    def step_adjust(self, a: int, b: int, seed: int) -> None:
        team, amount = self.teams[a % 4], (b % 9 - 6) * 25_000
        if amount:
            self.attempt(
                lambda: self.ledger.handle(
                    AdjustTreasury(self.slug, team, amount), by=BY, reason="contract suite"
                )
            )

    def step_card(self, a: int, b: int, seed: int) -> None:
        """A ZAL special play card on the team's last opponent (refused elsewhere)."""
        team = self.teams[a % 4]
        games = [m for m in self.played() if team in (m.home, m.away)]
        if not games:
            return
        last = games[-1]
        opponent = last.away if last.home == team else last.home
        card = ("bankruptcy", "robbery", "injured_in_practice")[b % 3]
        victims = self.roster(opponent)
        if card == "injured_in_practice" and not victims:
            return
        against = victims[seed % len(victims)].player_id if card == "injured_in_practice" else None
        self.attempt(
            lambda: self.ledger.handle(
                PlayCard(
                    self.slug,
                    team,
                    card,
                    match=last.match_id,
                    against=against or opponent,
                    roll_missing=True,
                ),
                by=BY,
            )
        )

    def step_bounty(self, a: int, b: int, seed: int) -> None:
        team, other = self.teams[a % 4], self.teams[(a + 1) % 4]
        targets = self.roster(other)
        if targets:
            target = targets[b % len(targets)].name
            amount = 10_000 * (1 + seed % 5)
            self.attempt(
                lambda: self.ledger.handle(PostBounty(self.slug, team, target, amount), by=BY)
            )


A_SHORT_SEASON: list[Step] = [
    ("buy", 0, 0, 1),
    ("match", 0, 0, 11),
    ("match", 2, 0, 12),
    ("hire", 1, 0, 0),
    ("match", 0, 1, 13),
    ("match", 1, 1, 14),
    ("adjust", 3, 8, 0),
    ("match", 0, 2, 15),
    ("match", 1, 0, 16),
    ("card", 0, 0, 3),
    ("card", 1, 1, 4),
    ("bounty", 2, 3, 2),
    ("fire", 3, 4, 0),
]
"""Each pair of teams meets once (t1-t2, t3-t4, t1-t3, t2-t4, t1-t4, t2-t3), with a hire, a
purchase, an adjustment, cards and a bounty between the rounds."""
