"""Synthetic leagues for tests and benchmarks, made through the real commands.

``generate(ledger, Spec(teams=200, seasons=20, seed=1))`` drafts the teams, starts each
season with divisions and a round robin, and records every fixture with a plausible match
report drawn from a generator seeded by ``seed``: scores, scorers, completions, MVPs,
casualties with their dice, and every post-game die (rolled by the ledger with the same
seeded generator). After each game a team takes the advancements it must, hires a
replacement for the dead and closes its post-game sequence; between seasons of an edition
with re-drafts it is re-drafted. Every command goes through its plan's validation, so the
league is one a commissioner could have recorded; the same spec always gives the same league.

A casualty's dice are the edition's own (``Ruleset.casualty_dice``), rolled in its order
while the edition says the dice so far leave the result open: a BB2025 D16, then the D6 of
a Lasting Injury; a 3rd edition D6, then the D66 of a Serious Injury; an LRB6 D68.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ledger.application.batch import Batch
from ledger.application.commands import (
    AdvancePlayer,
    Buy,
    ClosePostGame,
    CloseSeason,
    HirePlayer,
    RecordMatch,
    Redraft,
    RegisterTeam,
    ScheduleSeason,
    StartSeason,
)
from ledger.application.reports import MatchReport
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.state import MatchRow, PlayerRow, TeamRow
from ledger.domain.values import DiceRoll, Division, dice_shape
from ledger.errors import InvalidDice, InvalidInput, LedgerError
from ledger.rules.asked import Advancing, Closing
from ledger.rules.base import eligible
from ledger.rules.protocol import Feature, Ruleset
from ledger.rules.schema import TeamList

ADJECTIVES = (
    "Reikland",
    "Gouged",
    "Bloodbay",
    "Karak",
    "Altdorf",
    "Middenheim",
    "Nuln",
    "Skavenblight",
    "Talabheim",
    "Marienburg",
    "Praag",
    "Lustria",
    "Naggaroth",
    "Athel",
    "Zhufbar",
    "Barak",
    "Sylvania",
    "Kislev",
    "Tilea",
    "Estalia",
)
NOUNS = (
    "Reavers",
    "Eyes",
    "Brawlers",
    "Hammers",
    "Alliance",
    "Marauders",
    "Scramblers",
    "Warhawks",
    "Chargers",
    "Raiders",
    "Rumblers",
    "Ravagers",
    "Stompers",
    "Crushers",
    "Bashers",
    "Howlers",
    "Renegades",
    "Titans",
    "Wolves",
    "Giants",
)
TD_WEIGHTS = (25, 35, 25, 12, 3)
CASUALTY_WEIGHTS = (30, 35, 22, 10, 3)
Progress = Callable[[int], None]


@dataclass(frozen=True)
class Spec:
    teams: int = 16
    seasons: int = 1
    seed: int = 1
    ruleset: str = "bb2025"
    division_size: int = 8
    slug: str = "generated"
    options: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Summary:
    league: str
    events: int
    matches: int
    seconds: float


def generate(ledger: LeagueLedger, spec: Spec, progress: Progress | None = None) -> Summary:
    started = time.perf_counter()
    rng = random.Random(spec.seed)
    ledger.roller = random.Random(spec.seed * 7919 + 1)
    ledger.create_league(
        spec.slug,
        f"Synthetic League {spec.seed}",
        spec.ruleset,
        by="generator",
        options=dict(spec.options),
    )
    games = 0
    with Batch(ledger, spec.slug, by="generator") as batch:
        ids = [draft(batch, rng, number) for number in range(1, spec.teams + 1)]
        for season in range(1, spec.seasons + 1):
            if season > 1:
                redraft_all(batch, ids)
            games += play_season(batch, rng, ids, spec.division_size, progress)
    return Summary(
        league=spec.slug,
        events=batch.log.version,
        matches=games,
        seconds=time.perf_counter() - started,
    )


# --- teams -------------------------------------------------------------------------------


def draft(batch: Batch, rng: random.Random, number: int) -> str:
    team_id = f"t{number:03d}"
    team_list = rng.choice(draftable(batch))
    name = f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} {number}"
    batch.handle(RegisterTeam(batch.league, team_id, name, f"Coach {number}", team_list.id))
    lineman = line_position(team_list)
    for position in squad(team_list, rng):
        hire(batch, team_id, position)
    while len(batch.fold.players(team_id)) < 12 and affordable(batch, team_id, lineman.cost):
        hire(batch, team_id, lineman.id)
    buy_what_helps(batch, team_id)
    return team_id


def draftable(batch: Batch) -> list[TeamList]:
    """Team lists a synthetic coach can draft 11 players from with his budget."""
    budget = batch.ruleset.start().treasury
    return [
        t
        for _, t in sorted(batch.ruleset.catalogue.team_lists().items())
        if (line := line_position(t)) is not None
        and line.max >= 11
        and line.cost * 11 <= budget * 0.8
    ]


def line_position(team_list: TeamList) -> Any:
    lines = [p for p in team_list.positions if "lineman" in p.keywords]
    return max(lines, key=lambda p: p.max) if lines else None


def squad(team_list: TeamList, rng: random.Random) -> list[str]:
    """A few specialists, then linemen to eleven."""
    line = line_position(team_list)
    others = [
        p
        for p in team_list.positions
        if p.id != line.id
        and p.max > 0
        and "big_guy" not in p.keywords
        and "secret_weapon" not in p.keywords
    ]
    picks = rng.sample(others, k=min(len(others), rng.randint(1, 3)))
    chosen = [p.id for p in picks for _ in range(min(p.max, rng.randint(1, 2)))][:5]
    return chosen + [line.id] * (11 - len(chosen))


def hire(batch: Batch, team_id: str, position: str) -> bool:
    number = len(batch.fold.players(team_id)) + 1
    name = f"{team_id}-{number}"
    try:
        batch.handle(HirePlayer(batch.league, team_id, position, name))
    except LedgerError:
        return False
    return True


def affordable(batch: Batch, team_id: str, price: int) -> bool:
    return batch.fold.team(team_id).treasury >= price


def buy_what_helps(batch: Batch, team_id: str) -> None:
    team = batch.fold.team(team_id)
    items = batch.ruleset.sideline_items(team)
    for item_id, count in (
        ("fan_factor", 3),
        ("dedicated_fans", 1),
        ("reroll", 2),
        ("apothecary", 1),
    ):
        if item_id in items:
            try:
                batch.handle(Buy(batch.league, team_id, item_id, count))
            except LedgerError:
                continue


def redraft_all(batch: Batch, ids: Sequence[str]) -> None:
    if Feature.REDRAFT not in batch.ruleset.features:
        return
    for team_id in ids:
        keep = [
            p.player_id
            for p in batch.fold.players(team_id)
            if p.status in ("active", "retired") and p.kind == "regular"
        ]
        carry = {"reroll": batch.fold.team(team_id).rerolls}
        while keep:
            try:
                kept, carried = list(keep), {i: n for i, n in carry.items() if n}
                batch.handle(
                    Redraft(batch.league, team_id, keep=kept, carry=carried, roll_missing=True)
                )
                break
            except LedgerError:
                keep.pop()  # over budget: let the most recently hired go
        refill(batch, team_id)


# --- seasons and games -------------------------------------------------------------------


def play_season(
    batch: Batch, rng: random.Random, ids: Sequence[str], size: int, progress: Progress | None
) -> int:
    divisions = split(rng, ids, size)
    batch.handle(StartSeason(batch.league, divisions))
    batch.handle(ScheduleSeason(batch.league))
    season = batch.context().league.current_season
    fixtures = sorted(
        batch.state.select(MatchRow, league_id=batch.fold.league_id, season=season),
        key=lambda m: (m.round, m.match_id),
    )
    for fixture in fixtures:
        play(batch, rng, fixture)
        if progress:
            progress(1)
    batch.handle(CloseSeason(batch.league))
    return len(fixtures)


def split(rng: random.Random, ids: Sequence[str], size: int) -> list[Division]:
    order = list(ids)
    rng.shuffle(order)
    count = max(1, len(order) // size)
    groups = [order[i::count] for i in range(count)]
    return [Division(name=f"Division {i + 1}", teams=tuple(g)) for i, g in enumerate(groups)]


def play(batch: Batch, rng: random.Random, fixture: MatchRow) -> None:
    report = synthetic_report(batch, rng, fixture)
    batch.handle(RecordMatch(batch.league, report, roll_missing=True))
    for team_id in (fixture.home, fixture.away):
        after_the_game(batch, team_id, fixture.match_id)


def available(batch: Batch, team_id: str) -> list[PlayerRow]:
    return eligible(batch.fold.players(team_id))


def synthetic_report(batch: Batch, rng: random.Random, fixture: MatchRow) -> MatchReport:
    squads = {t: available(batch, t)[:11] for t in (fixture.home, fixture.away)}
    sides = {t: side(rng, t, squads[t]) for t in squads}
    casualties: dict[str, dict[str, Any]] = {}  # a player is a casualty once a game
    for attackers, defenders in ((fixture.home, fixture.away), (fixture.away, fixture.home)):
        for _ in range(rng.choices(range(5), CASUALTY_WEIGHTS)[0]):
            found = casualty(batch, rng, squads[attackers], squads[defenders])
            if found is not None:
                casualties.setdefault(found["victim"], found)
    return MatchReport.model_validate(
        {
            "match": fixture.match_id,
            "kind": "league",
            "home": sides[fixture.home],
            "away": sides[fixture.away],
            "casualties": list(casualties.values()),
        }
    )


def side(rng: random.Random, team_id: str, squad: list[PlayerRow]) -> dict[str, Any]:
    lines: dict[str, dict[str, Any]] = {p.player_id: {"player": p.player_id} for p in squad}
    for _ in range(rng.choices(range(5), TD_WEIGHTS)[0]):
        scorer = rng.choice(squad)
        lines[scorer.player_id]["td"] = lines[scorer.player_id].get("td", 0) + 1
    for _ in range(rng.randint(0, 2)):
        passer = rng.choice(squad)
        lines[passer.player_id]["comp"] = lines[passer.player_id].get("comp", 0) + 1
    if rng.random() < 0.15:
        lines[rng.choice(squad).player_id]["int"] = 1
    if squad:
        lines[rng.choice(squad).player_id]["mvp"] = 1
    return {"team": team_id, "players": list(lines.values())}


def casualty(
    batch: Batch, rng: random.Random, attackers: list[PlayerRow], defenders: list[PlayerRow]
) -> dict[str, Any] | None:
    if not attackers or not defenders:
        return None
    victim, by = rng.choice(defenders), rng.choice(attackers)
    cause = rng.choices(("block", "foul", "crowd"), (85, 10, 5))[0]
    dice = casualty_rolls(batch.ruleset, rng)
    if dice is None:
        return None  # an edition with no casualty dice: its games have no casualties
    found: dict[str, Any] = {"victim": victim.player_id, "cause": cause, "dice": dice}
    if cause != "crowd":
        found["by"] = by.player_id
    return found


ROLLS_FOR_A_CASUALTY = 100
"""Tries of a die that must show a casualty (gold4's 2D6 injury roll, 10+ one time in six)."""


def casualty_rolls(ruleset: Ruleset, rng: random.Random) -> dict[str, list[int]] | None:
    """A casualty's dice by purpose, as a report gives them: the edition's casualty dice in
    its order, each rolled only while the dice so far leave the result open. A die the
    edition reads as no casualty at all is rolled again: this block is a casualty."""
    rolled: dict[str, list[int]] = {}
    for purpose, die in ruleset.casualty_dice.items():
        for _ in range(ROLLS_FOR_A_CASUALTY):
            rolled[purpose] = table_roll(rng, die)
            try:
                ruleset.casualty_from_report(None, (), as_rolls(ruleset, rolled))
                return rolled
            except InvalidDice:
                continue  # no casualty on this die: roll it again
            except InvalidInput:
                break  # the result needs the edition's next die
        else:
            return None
    return None


TWO_DIGIT_UNITS = {66: 6, 68: 8}
"""A D66 or D68 is a D6 read as tens and a D6 or D8 as units."""


def table_roll(rng: random.Random, die: str) -> list[int]:
    count, sides = dice_shape(die)
    if sides in TWO_DIGIT_UNITS:
        return [rng.randint(1, 6), rng.randint(1, TWO_DIGIT_UNITS[sides])]
    return [rng.randint(1, sides) for _ in range(count)]


def as_rolls(ruleset: Ruleset, rolled: dict[str, list[int]]) -> tuple[DiceRoll, ...]:
    return tuple(
        DiceRoll(purpose=purpose, dice=ruleset.casualty_dice[purpose], values=tuple(values))
        for purpose, values in rolled.items()
    )


def after_the_game(batch: Batch, team_id: str, match_id: str) -> None:
    advance_who_must(batch, team_id)
    refill(batch, team_id)
    if batch.ruleset.post_game_closes:  # elsewhere the report recorded the whole post-game
        batch.handle(ClosePostGame(batch.league, match_id, team_id, roll_missing=True))


def refill(batch: Batch, team_id: str) -> None:
    team = batch.fold.team(team_id)
    line = line_position(batch.ruleset.catalogue.team_list(team.roster))
    while (
        len(available(batch, team_id)) < 11
        and len([p for p in batch.fold.players(team_id) if p.status in ("active", "retired")]) < 16
        and affordable(batch, team_id, line.cost)
    ):
        if not hire(batch, team_id, line.id):
            return


def advance_who_must(batch: Batch, team_id: str) -> None:
    for _ in range(32):
        team = batch.fold.team(team_id)
        if not batch.ruleset.problems(Closing(team, batch.fold.players(team_id))):
            return
        player = next(
            p for p in batch.fold.players(team_id) if batch.ruleset.problems(Closing(team, [p]))
        )
        if not take_a_skill(batch, team, player):
            return


def take_a_skill(batch: Batch, team: TeamRow, player: PlayerRow) -> bool:
    kinds: tuple[ev.AdvancementKind, ...] = ("chosen_primary", "chosen_secondary")
    for kind in kinds:
        for skill in known_skills(batch):
            proposed = ev.PlayerAdvanced(
                team=team.team_id, player=player.player_id, kind=kind, skill=skill
            )
            if not batch.ruleset.problems(Advancing(player, team, proposed)):
                batch.handle(
                    AdvancePlayer(batch.league, team.team_id, player.player_id, kind, skill=skill)
                )
                return True
    return False


_skills: dict[str, list[str]] = {}


def known_skills(batch: Batch) -> list[str]:
    if batch.ruleset.id not in _skills:
        found = batch.ruleset.catalogue.skills()
        _skills[batch.ruleset.id] = sorted(s.name for s in found if s.category != "T")
    return _skills[batch.ruleset.id]
