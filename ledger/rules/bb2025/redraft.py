"""The BB2025 off-season (seed 001, 'Off-season and Re-drafting').

'Rest & Relaxation': missed games are served; each Niggling Injury heals on a D6 of 4+,
each characteristic reduction of a Temporarily Retiring player likewise (+1 with an
Apothecary); each gained Hatred (X) is lost on a 4+. 'Raise Funds': 1,000,000 + the
treasury + 20,000 per League Fixture played, + 20,000 per win and + 10,000 per draw, capped
at 1,300,000 when the league uses the recommended cap. 'Re-draft Team': players re-hired
at their Current Value + 20,000 agent's fee per previous season; Assistant Coaches,
Cheerleaders, Apothecaries and Team Re-rolls carried at their standard cost; Temporarily
Retiring players not re-hired retire.

Worked example: Skweek, Current Value 145,000 after one season, re-hires for 145,000 +
20,000 = 165,000.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal, cast

from ledger.domain.events import TeamRedrafted
from ledger.domain.state import PlayerRow, TeamRow, lasting_injuries
from ledger.rules.bb2025.tables import Tables
from ledger.rules.dice import DiceBox
from ledger.rules.effects import Effects, Forgets, Gold, Heals, Leaves, Sideline
from ledger.rules.protocol import DiceNeed
from ledger.rules.rows import RedraftRows
from ledger.rules.schema import Position
from ledger.words import plural

Reduction = Literal["-ma", "-st", "-ag", "-pa", "-av"]
HATRED = re.compile(r"^Hatred \(.+\)$")
REDUCTIONS = ("-ma", "-st", "-ag", "-pa", "-av")


def gained_hatreds(player: PlayerRow, position: Position | None) -> list[str]:
    """'Do not roll for any types of Hatred (X) that are inherent to a model's profile'."""
    innate = set(position.skills) if position else set()
    return [s for s in player.skills if HATRED.match(s) and s not in innate]


def reductions(player: PlayerRow) -> list[Reduction]:
    return [
        cast(Reduction, f"-{stat}")
        for stat, change in lasting_injuries(player).items()
        for _ in range(-change)
    ]


def dice_needed(players: Sequence[PlayerRow], positions: Mapping[str, Position]) -> list[DiceNeed]:
    needs = []
    for p in players:
        if p.status not in ("active", "retired"):
            continue
        if p.niggling:
            needs.append(
                DiceNeed(
                    purpose="niggling_recovery",
                    dice=f"{p.niggling}D6",
                    subject=p.player_id,
                    why=f"{p.name}: each niggling, 4+",
                )
            )
        if p.status == "retired" and reductions(p):
            needs.append(
                DiceNeed(
                    purpose="retirement_recovery",
                    dice=f"{len(reductions(p))}D6",
                    subject=p.player_id,
                    why=f"{p.name}: each characteristic reduction, 4+",
                )
            )
        hatreds = gained_hatreds(p, positions.get(p.player_id))
        if hatreds:
            needs.append(
                DiceNeed(
                    purpose="hatred",
                    dice=f"{len(hatreds)}D6",
                    subject=p.player_id,
                    why=f"{p.name}: each gained Hatred, 4+",
                )
            )
    return needs


def budget(t: Tables, rows: RedraftRows, season: int, capped: bool) -> tuple[int, str]:
    """The Re-draft Budget from the season before ``season`` (``rows.last_season``)."""
    team = rows.team
    played = [m for m in rows.last_season if m.kind == "league" and m.status == "played"]
    wins = sum(1 for m in played if m.winner == team.team_id)
    draws = sum(1 for m in played if m.winner is None)
    r = t.redraft
    total = (
        r.budget
        + team.treasury
        + r.per_fixture * len(played)
        + r.per_win * wins
        + r.per_draw * draws
    )
    note = (
        f"{r.budget:,} + treasury {team.treasury:,} + {plural(len(played), 'fixture')},"
        f" {plural(wins, 'win')}, {plural(draws, 'draw')}"
    )
    if capped and total > r.cap:
        return r.cap, note + f" = {total:,}, capped at {r.cap:,}"
    return total, note + f" = {total:,}"


def rehire_price(t: Tables, player: PlayerRow, season: int) -> int:
    """Current Value + 20,000 for each previous season the player took part in."""
    previous = [s for s in player.seasons if s < season]
    return player.value + t.redraft.agent_fee * len(previous)


def recovered(rolls: tuple[int, ...], target: int, bonus: int) -> int:
    return sum(1 for roll in rolls if roll + bonus >= target)


def rest_and_relaxation(
    t: Tables,
    event: TeamRedrafted,
    players: Sequence[PlayerRow],
    positions: Mapping[str, Position],
    apothecary: bool,
    dice: DiceBox,
) -> Effects:
    target, bonus = t.redraft.recovery_target, int(apothecary)
    effects: Effects = []
    for need in dice_needed(players, positions):
        player = next(p for p in players if p.player_id == need.subject)
        healed = recovered(
            dice.roll(event.dice, need.purpose, need.dice, need.subject),
            target,
            0 if need.purpose == "hatred" else bonus,
        )
        effects += healings(need.purpose, player, positions, healed)
    return effects


def healings(
    purpose: str, player: PlayerRow, positions: Mapping[str, Position], healed: int
) -> Effects:
    if purpose == "niggling_recovery":
        return [
            Heals(player=player.player_id, what="niggling", note="rest & relaxation")
            for _ in range(healed)
        ]
    if purpose == "retirement_recovery":
        return [
            Heals(player=player.player_id, what=what, note="rest & relaxation")
            for what in reductions(player)[:healed]
        ]
    return [
        Forgets(player=player.player_id, skill=skill, note="rest & relaxation")
        for skill in gained_hatreds(player, positions.get(player.player_id))[:healed]
    ]


def outcomes(
    t: Tables,
    event: TeamRedrafted,
    team: TeamRow,
    players: Sequence[PlayerRow],
    positions: Mapping[str, Position],
    funds: tuple[int, str],
    dice: DiceBox,
    start_fans: int,
) -> Effects:
    kept = {p.item for p in event.players}
    effects: Effects = [
        Heals(player=p.player_id, what="miss_next_game", note="off-season")
        for p in players
        if p.miss_next_game
    ]
    effects += rest_and_relaxation(
        t, event, players, positions, team.staff.get("apothecary", 0) > 0, dice
    )
    effects.append(
        Gold(
            team=team.team_id,
            amount=funds[0] - team.treasury,
            kind="re-draft",
            note=f"re-draft budget: {funds[1]}",
        )
    )
    effects += [
        Heals(player=p.player_id, what="retired", note="re-hired")
        for p in players
        if p.player_id in kept and p.status == "retired"
    ]
    effects += [
        Leaves(
            player=p.player_id,
            note="retired: not re-hired" if p.status == "retired" else "not re-hired",
        )
        for p in players
        if p.status in ("active", "retired") and p.player_id not in kept and p.kind == "regular"
    ]
    names = {p.player_id: f"{p.name} ({p.position})" for p in players}
    effects += [
        Gold(team=team.team_id, amount=-p.price, kind="re-hire", note=names.get(p.item, p.item))
        for p in event.players
    ]
    effects += [
        Gold(
            team=team.team_id, amount=-p.price, kind="re-draft staff", note=f"{p.count} x {p.item}"
        )
        for p in event.kept
    ]
    carried = {p.item: p.count for p in event.kept}
    effects.append(
        Sideline(
            team=team.team_id, rerolls=carried.pop("reroll", 0), fans=start_fans, staff=carried
        )
    )
    return effects
