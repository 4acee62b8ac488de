"""The ZAL match sequence as effects (seed 000: PRE-MATCH and POST-MATCH SEQUENCE, the Match
Winnings and Fan Factor tables, ZAL 9 forfeits, ZAL 21 bounties).

Pre-match: each coach rolls one D6 per Fan Factor; the two totals make the gate (in
thousands of fans) and compare for FAME (equal 0, more +1, more than double +2). Post-match:
winnings are the league's roll plus the Match Winnings Table's modifier for the gate and
the team's own Team Rating, +1 for the win, times 10,000; then a D6 on the Fan Factor Table
(won +1, lost -1, 2+ TDs +1, 2+ casualties +1, semi-final +1, final +2: 1 or less loses a
point, 6 or more gains one). A voluntary forfeit (ZAL 9b) gives both winnings to the
winner, costs the forfeiting team a Fan Factor and a D6 for each 51+ SPP player and Star
Player, who leaves on 1-3.

Worked example: Fan Factors 5 and 4 roll 18 and 13: a gate of 31,000, FAME +1 for the
first team. It won with a Team Rating of 112: D6 of 4 + 2 (31,000 / TR 100-125) + 1 for the
win = 7, so 70,000 gold. With 2 touchdowns its fan roll of 4 becomes 6: Fan Factor 6.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.domain.events import MatchRecorded
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import TeamSheet
from ledger.rules.base import outcome_for
from ledger.rules.dice import DiceBox
from ledger.rules.effects import Effects, Fans, Gold
from ledger.rules.lrb6.postgame import BOOKED, walkout_purpose, walkout_rolls
from ledger.rules.lrb6_zal.options import Options
from ledger.rules.lrb6_zal.tables import Tables
from ledger.rules.protocol import DiceNeed


@dataclass(frozen=True)
class Side:
    """One team's side of a match, as the books stood before it."""

    sheet: TeamSheet
    team: TeamRow
    players: tuple[PlayerRow, ...]
    rating: int
    """Team Rating for the match (ZAL 8a)."""
    casualties: int
    """Casualties it inflicted, as the Fan Factor roll counts them (ZAL 16b)."""

    @property
    def team_id(self) -> str:
        return self.team.team_id


def d6s(count: int) -> str:
    return "D6" if count == 1 else f"{count}D6"


def voluntary_forfeit(match: MatchRecorded) -> str | None:
    """The team that gave up during the match (ZAL 9b), if one did."""
    c = match.concession
    return c.team if c is not None and c.kind == "forfeit_voluntary" else None


def outcome(match: MatchRecorded, team: str) -> str:
    return outcome_for(match, team)


def fame(t: Tables, ours: int, theirs: int) -> int:
    """Pre-match 4: 'more than double' is strictly more than twice the other's gate."""
    if ours > 2 * theirs:
        return t.gate.fame_more_than_double
    return t.gate.fame_more if ours > theirs else 0


def walkout_players(t: Tables, side: Side) -> list[PlayerRow]:
    """ZAL 9b: 'EACH player with 51 or more SPPs and EACH Star Player'."""
    return [
        p
        for p in side.players
        if p.status == "active" and (p.spp_earned >= t.forfeit.walkout_spp or p.kind == "star")
    ]


# --- the dice the sequence needs ---------------------------------------------------------------


def needs(
    t: Tables, opts: Options, match: MatchRecorded, sides: tuple[Side, ...]
) -> list[DiceNeed]:
    if match.kind not in BOOKED:
        return []
    found: list[DiceNeed] = []
    for side in sides:
        found += side_needs(t, opts, match, side)
    return found


def side_needs(t: Tables, opts: Options, match: MatchRecorded, side: Side) -> list[DiceNeed]:
    team, fans = side.team_id, side.team.fans
    found = []
    if fans > 0:
        why = f"pre-match 3: the gate, one D6 per Fan Factor ({fans})"
        found.append(DiceNeed(purpose="gate", dice=d6s(fans), subject=team, why=why))
    if opts.winnings_roll != "none":
        why = "Match Winnings Table: the roll its modifier is added to"
        found.append(DiceNeed(purpose="winnings", dice=opts.winnings_roll, subject=team, why=why))
    if voluntary_forfeit(match) != team:
        found.append(
            DiceNeed(
                purpose="fan_factor", dice=t.fan_factor.die, subject=team, why="Fan Factor Table"
            )
        )
        return found
    for player in walkout_players(t, side):
        why = f"ZAL 9b: {player.name} ({player.spp_earned} SPP, {player.kind}) leaves on 1-3"
        found.append(DiceNeed(purpose=walkout_purpose(player), dice="D6", subject=team, why=why))
    return found


# --- gate, winnings, fans, forfeit -------------------------------------------------------------


def gates(t: Tables, sides: tuple[Side, ...], dice: DiceBox) -> dict[str, int]:
    """Each coach's subtotal of the gate roll, in pips."""
    pips: dict[str, int] = {}
    for s in sides:
        team = s.team
        fans = team.fans
        rolled = dice.roll(s.sheet.dice, "gate", d6s(fans), team.team_id) if fans > 0 else ()
        pips[team.team_id] = sum(rolled)
    return pips


def money(
    t: Tables, opts: Options, match: MatchRecorded, sides: tuple[Side, ...], dice: DiceBox
) -> Effects:
    pips = gates(t, sides, dice)
    gate = sum(pips.values()) * t.gate.fans_per_pip
    forfeiter = voluntary_forfeit(match)
    winner = next((s.team_id for s in sides if s.team_id != forfeiter), None)
    effects: Effects = []
    for side in sides:
        team = side.team_id
        theirs = max([v for k, v in pips.items() if k != team], default=0)
        amount, note = winnings(t, opts, match, side, gate, fame(t, pips[team], theirs), dice)
        if team == forfeiter and winner is not None:
            note = f"winnings of {side.team.name}, who gave up (ZAL 9b): {note}"
            effects.append(Gold(team=winner, amount=amount, kind="winnings", note=note))
        else:
            effects.append(Gold(team=team, amount=amount, kind="winnings", note=note))
    return effects


def winnings(
    t: Tables,
    opts: Options,
    match: MatchRecorded,
    side: Side,
    gate: int,
    side_fame: int,
    dice: DiceBox,
) -> tuple[int, str]:
    w, team = t.winnings, side.team_id
    roll = opts.winnings_roll
    pips = sum(dice.roll(side.sheet.dice, "winnings", roll, team)) if roll != "none" else 0
    modifier = w.modifier(gate, side.rating)
    won = w.win_bonus if outcome(match, team) == "win" else 0
    famed = side_fame if opts.fame_in_winnings else 0
    total = pips + modifier + won + famed
    parts = [f"{roll} {pips}"] if roll != "none" else []
    parts += [f"table {modifier:+d}"] + (["win +1"] if won else [])
    parts += [f"FAME {famed:+d}"] if opts.fame_in_winnings else []
    note = f"gate {gate:,} fans, TR {side.rating}: {' '.join(parts)} = {total} x {w.per_point:,}"
    return total * w.per_point, note


def fan_factor(t: Tables, match: MatchRecorded, side: Side, stage: str, dice: DiceBox) -> Effects:
    ff, fans, team = t.fan_factor, side.team.fans, side.team_id
    if voluntary_forfeit(match) == team:
        delta = max(ff.minimum, fans - t.forfeit.fans_lost) - fans
        return [Fans(team=team, delta=delta, note="gave up the match: -1 Fan Factor (ZAL 9b)")]
    roll = dice.roll(side.sheet.dice, "fan_factor", ff.die, team)[0]
    modifiers = fan_modifiers(t, match, side, stage)
    total = roll + sum(modifiers.values())
    shown = "".join(f" {v:+d} {k}" for k, v in modifiers.items())
    if total <= ff.down_at_most and fans > ff.minimum:
        return [Fans(team=team, delta=-1, note=f"Fan Factor roll {roll}{shown} = {total}")]
    if total >= ff.up_at_least:
        return [Fans(team=team, delta=1, note=f"Fan Factor roll {roll}{shown} = {total}")]
    return []


def fan_modifiers(t: Tables, match: MatchRecorded, side: Side, stage: str) -> dict[str, int]:
    ff, result = t.fan_factor, outcome(match, side.team_id)
    found = {"won": ff.won} if result == "win" else {"lost": ff.lost} if result == "loss" else {}
    if side.sheet.touchdowns >= ff.touchdowns.at_least:
        found["2+ TDs"] = ff.touchdowns.modifier
    if side.casualties >= ff.casualties.at_least:
        found["2+ CAS"] = ff.casualties.modifier
    if stage in ff.stages:
        found[stage] = ff.stages[stage]
    return found


def walkouts(t: Tables, match: MatchRecorded, side: Side, dice: DiceBox) -> Effects:
    if voluntary_forfeit(match) != side.team_id:
        return []
    players, leaves_on = walkout_players(t, side), t.forfeit.walkout_leaves_on
    return walkout_rolls(players, side.sheet, dice, leaves_on, ("the voluntary forfeit", "ZAL 9b"))
