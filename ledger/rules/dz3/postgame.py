"""The Death Zone match sequence as effects (seed 000 and the DZ card for its order; seed 004
for the rulings; every table in data/tables.yaml).

Pre-match, as far as the books are concerned: freebooters are paid for (their fee leaves the
treasury with this match, so the TR the match was played at did not change: seed 004 3.8),
the gate is rolled (one D6 per point of fan factor, x 1,000). Post-match: 1. winnings, 2. SPP
and MVPs, 3. the fan factor roll, then injuries; players who missed this game are fit again.

Worked example (winnings): the two teams' gate dice total 38 (38,000 fans). The home team,
TR 104, won and rolled a 4 on the winnings D6: the table gives +2 for a gate of 30,001-45,000
at TR 100-125, and winning adds 1, so it takes (4 + 2 + 1) x 10,000 = 70,000. Fan factor:
it won (+1) and scored 2 touchdowns (+1); a roll of 4 becomes 6: fan factor +1.
"""

from __future__ import annotations

from collections.abc import Callable

from ledger.domain.values import Casualty, Hireling, TeamSheet
from ledger.rules.classic3 import fans
from ledger.rules.dice import DiceBox
from ledger.rules.dz3 import injuries
from ledger.rules.dz3.game import Game
from ledger.rules.dz3.rating import improvements
from ledger.rules.effects import Effects, Fans, Gold, Heals, Hurt, Leaves, Spp
from ledger.rules.protocol import DiceNeed

# --- the dice the sequence needs ------------------------------------------------------------


def match_dice(g: Game) -> list[DiceNeed]:
    if not g.counted():
        return []
    needs: list[DiceNeed] = []
    for sheet in g.sides():
        needs += team_dice(g, sheet.team)
    return needs


def team_dice(g: Game, team: str) -> list[DiceNeed]:
    needs, fans = [], g.fans(team)
    if fans > 0:
        why = f"the gate: one D6 per point of fan factor ({fans})"
        needs.append(DiceNeed(purpose="gate", dice=f"{fans}{g.t.gate.die}", subject=team, why=why))
    if "income" not in g.penalties(team):
        why = "winnings: D6 + the gate and TR modifier (+1 for a win) x 10,000"
        needs.append(DiceNeed(purpose="winnings", dice=g.t.winnings.die, subject=team, why=why))
    if "fans" not in g.penalties(team):
        why = "fan factor roll: 1 or less loses one, 6+ gains one, after modifiers"
        needs.append(DiceNeed(purpose="fan_factor", dice=g.t.fan_factor.die, subject=team, why=why))
    return needs


# --- what the sequence does ------------------------------------------------------------------


def match_outcomes(
    g: Game, dice: DiceBox, casualty_spp: frozenset[str], earned: Callable[[TeamSheet], Effects]
) -> Effects:
    """``earned``: the SPP each player of a sheet earned (``BaseRuleset.spp_outcomes``: the
    report alone decides them)."""
    effects: Effects = []
    if g.played():
        effects += recoveries(g)
        effects += [fee for sheet in g.sides() for fee in fees(sheet)]
    if g.counted():
        gate = sum(team_gate(g, sheet, dice) for sheet in g.sides())
        for sheet in g.sides():
            effects += winnings(g, sheet, gate, dice)
        for sheet in g.sides():
            effects += spp(g, sheet, earned)
    for sheet in g.sides():
        effects += fan_factor(g, sheet, dice, casualty_spp)
    if g.played():
        effects += hurt(g)
    return effects


def recoveries(g: Game) -> Effects:
    """Players who missed this game are fit for the next (the card: rub the M out)."""
    return [
        Heals(player=p.player_id, what="miss_next_game", note="missed this game")
        for sheet in g.sides()
        for p in g.rows.players(sheet.team)
        if p.miss_next_game
    ]


def fees(sheet: TeamSheet) -> Effects:
    """Freebooters' fees, paid from the treasury for this match only (seed 004 3.8)."""
    return [
        Gold(team=sheet.team, amount=-h.price, kind="freebooter", note=freebooted(h))
        for h in sheet.hirelings
        if h.price > 0
    ]


def freebooted(h: Hireling) -> str:
    return f"{h.name} freebooted ({h.star or h.position or h.kind})"


def team_gate(g: Game, sheet: TeamSheet, dice: DiceBox) -> int:
    fans = g.fans(sheet.team)
    if fans <= 0:
        return 0
    pips = sum(dice.roll(sheet.dice, "gate", f"{fans}{g.t.gate.die}", sheet.team))
    bonus = g.t.gate.stage_bonus_per_die.get(g.stage(), 0) * fans
    return (pips + bonus) * g.t.gate.fans_per_pip


def winnings(g: Game, sheet: TeamSheet, gate: int, dice: DiceBox) -> Effects:
    if "income" in g.penalties(sheet.team):
        return []
    table, rating = g.t.winnings, g.rating(sheet.team)
    roll = dice.roll(sheet.dice, "winnings", table.die, sheet.team)[0]
    modifier = table.modifier(gate, rating)
    won = table.win_bonus if g.result(sheet) == "win" else 0
    note = f"D6 {roll} + {modifier} (gate {gate:,}, TR {rating}){' + 1 won' if won else ''}"
    amount = (roll + modifier + won) * table.per_pip
    return [Gold(team=sheet.team, amount=amount, kind="winnings", note=note)]


def fan_factor(g: Game, sheet: TeamSheet, dice: DiceBox, casualty_spp: frozenset[str]) -> Effects:
    team, current = sheet.team, g.fans(sheet.team)
    if "fans" in g.penalties(team):
        loss = min(current, g.t.forfeit.fan_factor_loss)
        return [Fans(team=team, delta=-loss, note="forfeited with players to spare (3.7 (d))")]
    if not g.counted():
        return []
    roll = dice.roll(sheet.dice, "fan_factor", g.t.fan_factor.die, team)[0]
    modified = roll + fan_modifier(g, sheet, casualty_spp)
    delta = fans.change(g.t.fan_factor, modified, current)
    if not delta:
        return []
    return [Fans(team=team, delta=delta, note=f"fan factor roll {roll}, modified {modified}")]


def fan_modifier(g: Game, sheet: TeamSheet, casualty_spp: frozenset[str]) -> int:
    """The Death Zone table's modifiers (``classic3.fans``), then OBERWALD's damping."""
    table, caused = g.t.fan_factor, inflicted(g, sheet, casualty_spp)
    modifier = fans.modifier(table, g.result(sheet), sheet.touchdowns, caused, g.stage())
    if g.opts.fan_factor_damping:
        modifier -= g.fans(sheet.team) // table.damping_per
    return modifier


def inflicted(g: Game, sheet: TeamSheet, casualty_spp: frozenset[str]) -> int:
    counted = 0
    for c in g.match.casualties:  # a loop, not sum(generator): asked for both sides
        if (
            earns(c, casualty_spp)
            and c.inflicted_by is not None
            and g.plays_for(sheet, c.inflicted_by)
        ):
            counted += 1
    return counted


def earns(casualty: Casualty, causes: frozenset[str]) -> bool:
    return casualty.cause in causes and casualty.inflicted_by is not None


# --- star player points ----------------------------------------------------------------------


def spp(g: Game, sheet: TeamSheet, earned: Callable[[TeamSheet], Effects]) -> Effects:
    """SPP per player; none for stars, nor for a team that forfeited without cause (3.7 (d))."""
    if "spp" in g.penalties(sheet.team):
        return []
    # a star is looked for only among those who earned some (most earn nothing)
    return [e for e in earned(sheet) if isinstance(e, Spp) and not is_star(g, sheet, e.player)]


def is_star(g: Game, sheet: TeamSheet, player_id: str) -> bool:
    if sheet.hirelings and any(h.id == player_id and h.kind == "star" for h in sheet.hirelings):
        return True
    row = g.player(player_id)
    return row is not None and row.kind == "star"


# --- injuries ---------------------------------------------------------------------------------


def hurt(g: Game) -> Effects:
    effects: Effects = []
    for casualty in g.match.casualties:
        if casualty.recovered:
            continue
        if "dead" in casualty.effects:
            effects.append(Leaves(player=casualty.victim, status="dead", note=casualty.outcome))
            continue
        lasting = injuries.capped(g.t, casualty.effects, losses(g, casualty.victim))
        if lasting:
            effects.append(Hurt(player=casualty.victim, effects=lasting, note=casualty.outcome))
    return effects


def losses(g: Game, player_id: str) -> dict[str, int]:
    """Characteristic points a player has lost to injury so far, per characteristic."""
    row = g.player(player_id)
    if row is None:
        return {}
    return {stat: improvements(row, stat) - row.changes.get(stat, 0) for stat in row.changes}
