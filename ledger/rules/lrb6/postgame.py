"""The LRB6 match sequence as effects (Competition Rules 2010: p.18 'The Fans', p.28 the
post-match sequence with spiralling expenses, p.29 'Conceding').

Before the match each team rolls 2D6 and adds its Fan Factor: x 1,000 fans. The team with
more fans has FAME +1, with twice as many or more +2. After it each team earns (D6 + FAME,
+1 if it won or tied) x 10,000, less its spiralling expenses (10,000 from a team value of
1,750,000, 10,000 more per further 150,000), never below nothing. Then the Fan Factor roll:
a winner rolls 3D6, the others 2D6; a winner or a drawn team whose roll beats the Fan
Factor gains a point, a loser or a drawn team rolling under it loses one. A team that
concedes (p.29) loses a point without rolling, its winnings go to its opponent, and each of
its players with 51+ SPP leaves on a D6 of 1-3.

Worked example: Fan Factor 4 rolls 7 + 4 = 11,000 fans against the other side's 2 + 3 = 5,000:
twice as many, FAME +2. It wins with a team value of 1,800,000: (D6 4 + 2 + 1) x 10,000 =
70,000, less 10,000 spiralling expenses = 60,000. Its 3D6 Fan Factor roll of 9 beats 4: 5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ledger.domain.events import MatchRecorded
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import TeamSheet
from ledger.rules.base import outcome_for
from ledger.rules.dice import DiceBox
from ledger.rules.effects import Effects, Fans, Gold, Leaves
from ledger.rules.lrb6.tables import Result, Tables
from ledger.rules.protocol import DiceNeed

BOOKED = ("league", "playoff")
"""Match kinds with a gate, winnings and a Fan Factor roll."""


@dataclass(frozen=True)
class Side:
    """One team's side of a match, as the books stood before it."""

    sheet: TeamSheet
    team: TeamRow
    players: tuple[PlayerRow, ...]
    value: int
    """Team value before the match, for spiralling expenses."""

    @property
    def team_id(self) -> str:
        return self.team.team_id


def conceded_by(match: MatchRecorded) -> str | None:
    """The team that conceded with penalties (p.29), if one did."""
    c = match.concession
    return c.team if c is not None and c.kind == "conceded" else None


def result(match: MatchRecorded, team: str) -> Result:
    """A conceding team loses whatever the score; otherwise the score decides."""
    if match.concession is not None:
        return "loss" if match.concession.team == team else "win"
    return outcome_for(match, team)


def fame(t: Tables, ours: int, theirs: int) -> int:
    """p.18: 'twice as many or more' fans +2, more fans +1, equal or fewer 0."""
    if ours <= theirs:
        return 0
    return t.gate.fame_double if ours >= 2 * theirs else t.gate.fame_more


def walkout_players(t: Tables, side: Side) -> list[PlayerRow]:
    return [
        p for p in side.players if p.status == "active" and p.spp_earned >= t.concession.walkout_spp
    ]


def walkout_purpose(player: PlayerRow) -> str:
    return f"walkout_{player.player_id}"


# --- the dice the sequence needs ---------------------------------------------------------------


def needs(t: Tables, match: MatchRecorded, sides: tuple[Side, ...]) -> list[DiceNeed]:
    if match.kind not in BOOKED:
        return []
    found: list[DiceNeed] = []
    for side in sides:
        found += side_needs(t, match, side)
    return found


def side_needs(t: Tables, match: MatchRecorded, side: Side) -> list[DiceNeed]:
    team = side.team_id
    found = [
        DiceNeed(purpose="gate", dice=t.gate.dice, subject=team, why="p.18: 2D6 + Fan Factor"),
        DiceNeed(purpose="winnings", dice=t.winnings.die, subject=team, why="p.28: D6 + FAME"),
    ]
    if conceded_by(match) != team:
        dice = t.fan_factor.dice[result(match, team)]
        why = f"p.28: {dice} against Fan Factor {side.team.fans}"
        return [*found, DiceNeed(purpose="fan_factor", dice=dice, subject=team, why=why)]
    for player in walkout_players(t, side):
        why = f"p.29: {player.name} ({player.spp_earned} SPP) leaves on 1-3"
        found.append(DiceNeed(purpose=walkout_purpose(player), dice="D6", subject=team, why=why))
    return found


# --- gate, winnings, fans, concession ----------------------------------------------------------


def fans_in(t: Tables, side: Side, dice: DiceBox) -> int:
    pips = sum(dice.roll(side.sheet.dice, "gate", t.gate.dice, side.team_id))
    return (pips + side.team.fans) * t.gate.fans_per_point


def money(t: Tables, match: MatchRecorded, sides: tuple[Side, ...], dice: DiceBox) -> Effects:
    crowd = {s.team_id: fans_in(t, s, dice) for s in sides}
    loser = conceded_by(match)
    winner = next((s.team_id for s in sides if s.team_id != loser), None)
    effects: Effects = []
    for side in sides:
        theirs = max((v for k, v in crowd.items() if k != side.team_id), default=0)
        amount, note = winnings(t, match, side, fame(t, crowd[side.team_id], theirs), dice)
        gate = f"gate {crowd[side.team_id]:,} v {theirs:,}"
        if side.team_id == loser and winner is not None:
            note = f"winnings of {side.team.name}, who conceded (p.29): {gate}, {note}"
            effects.append(Gold(team=winner, amount=amount, kind="winnings", note=note))
        else:
            effects.append(
                Gold(team=side.team_id, amount=amount, kind="winnings", note=f"{gate}, {note}")
            )
    return effects


def winnings(
    t: Tables, match: MatchRecorded, side: Side, side_fame: int, dice: DiceBox
) -> tuple[int, str]:
    w, team = t.winnings, side.team_id
    pips = dice.roll(side.sheet.dice, "winnings", w.die, team)[0]
    bonus = w.won_or_tied if result(match, team) in ("win", "draw") else 0
    earned = (pips + side_fame + bonus) * w.per_point
    expenses = t.spiralling_expenses.due(side.value)
    note = f"{w.die} {pips} FAME {side_fame:+d}" + (" won or tied +1" if bonus else "")
    note += f" = {earned:,}"
    if expenses:
        note += f", less {expenses:,} spiralling expenses (TV {side.value:,})"
    return max(0, earned - expenses), note


def fan_factor(t: Tables, match: MatchRecorded, side: Side, dice: DiceBox) -> Effects:
    ff, fans, team = t.fan_factor, side.team.fans, side.team_id
    if conceded_by(match) == team:
        delta = max(ff.minimum, fans - t.concession.fans_lost) - fans
        return (
            [Fans(team=team, delta=delta, note="conceded: -1 Fan Factor (p.29)")] if delta else []
        )
    outcome = result(match, team)
    total = sum(dice.roll(side.sheet.dice, "fan_factor", ff.dice[outcome], team))
    note = f"Fan Factor roll {ff.dice[outcome]} {total} against {fans} ({outcome})"
    if outcome in ff.up_when and total > fans:
        return [Fans(team=team, delta=1, note=note)]
    if outcome in ff.down_when and total < fans and fans > ff.minimum:
        return [Fans(team=team, delta=-1, note=note)]
    return []


def walkouts(t: Tables, match: MatchRecorded, side: Side, dice: DiceBox) -> Effects:
    if conceded_by(match) != side.team_id:
        return []
    players, leaves_on = walkout_players(t, side), t.concession.walkout_leaves_on
    return walkout_rolls(players, side.sheet, dice, leaves_on, ("his team conceded", "p.29"))


def walkout_rolls(
    players: Sequence[PlayerRow],
    sheet: TeamSheet,
    dice: DiceBox,
    leaves_on: tuple[int, ...],
    after: tuple[str, str],
) -> Effects:
    """A D6 for each player of ``sheet``'s team who may walk out: a roll in ``leaves_on``
    and he leaves; ``after`` names what he walked out after and the rule (lrb6-zal rolls
    so after a voluntary forfeit)."""
    effects: Effects = []
    for player in players:
        roll = dice.roll(sheet.dice, walkout_purpose(player), "D6", sheet.team)[0]
        if roll in leaves_on:
            note = f"left after {after[0]} (rolled {roll}, {after[1]})"
            effects.append(Leaves(player=player.player_id, note=note))
    return effects


def hireling_fees(match: MatchRecorded) -> Effects:
    """What the report says the treasury paid for its one-game players."""
    return [
        Gold(
            team=s.team,
            amount=-h.price,
            kind="hireling",
            note=f"{h.name} ({h.kind}) for {match.match}",
        )
        for s in match.sheets()
        for h in s.hirelings
        if h.price > 0
    ]
