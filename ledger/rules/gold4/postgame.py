"""The Death Zone post-match sequence with seed 002's "CONCEDING THE MATCH", as effects.

Death Zone (not in the seeds; data/deathzone.yaml names its sources): the gate is one D6 per
point of each team's fan factor, in thousands; each team's winnings are a D6 plus the Match
Winnings Table modifier for the gate and its team rating, +1 for the winner, times 10,000; the
fan factor roll is the Death Zone Fan Factor Table (seed 000, read alike by dz3:
``classic3/fans.py``): a D6, +1 won / -1 lost, +1 for 2+ touchdowns, +1 for 2+ casualties,
+1 in a semi-final and +2 in the final, losing a point on 1 or less and gaining one on 6+.

Seed 002, WINNING THE MATCH / CONCEDING THE MATCH: "the winner gains all of the losers money
and his MVPs, and may add +2 to his Fan Factor Roll. The loser automatically loses one Fan
Factor and may not roll for a new one. In addition any players in the losers team that have
51 SPPs or more will leave the team on a D6 roll of 1-3."

Worked example: fan factors 5 and 4 roll nine dice for a gate of 31,000; the winners (TR 104,
+2 on the table) roll a 3: (3 + 2 + 1) x 10,000 = 60,000. Had the losers conceded, the
winners would also take the losers' whole treasury and roll their fan factor at +3.
"""

from __future__ import annotations

from ledger.domain.events import MatchRecorded
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import TeamSheet
from ledger.rules.base import by_score, opponent, outcome_for, unaffordable_hirelings
from ledger.rules.classic3 import fans
from ledger.rules.dice import DiceBox
from ledger.rules.effects import Effects, Fans, Gold, Heals, Leaves
from ledger.rules.gold4.league_tables import deathzone, gold_rules
from ledger.rules.protocol import DiceNeed
from ledger.rules.rows import MatchRows

GATE_KINDS = ("league", "playoff")
"""Matches with a gate, winnings and a fan factor roll (reading: not friendlies)."""
CONCESSION_KINDS = (*GATE_KINDS, "unplayed")
"""Matches where conceding has seed 002's consequences ("playing with the League rules")."""
ON_ROSTER = ("active", "retired")


def conceded_by(match: MatchRecorded) -> str | None:
    if match.concession is None or match.kind not in CONCESSION_KINDS:
        return None
    return match.concession.team


def result(match: MatchRecorded, sheet: TeamSheet) -> str:
    """win / draw / loss; a concession makes the conceding team the loser (seed 002)."""
    loser = conceded_by(match)
    if loser is not None:
        return "loss" if loser == sheet.team else "win"
    if match.others:
        return outcome_for(match, sheet.team)
    return by_score(sheet.touchdowns, opponent(match, sheet).touchdowns)


def team(rows: MatchRows, team_id: str) -> TeamRow:
    row = rows.team(team_id)
    assert row is not None  # commands only record matches of registered teams
    return row


# --- which dice the sequence needs ----------------------------------------------------------


def match_dice(match: MatchRecorded, rows: MatchRows) -> list[DiceNeed]:
    needs: list[DiceNeed] = []
    for sheet in match.sheets():
        needs += team_dice(match, sheet, rows)
    return needs


def team_dice(match: MatchRecorded, sheet: TeamSheet, rows: MatchRows) -> list[DiceNeed]:
    row, dz = team(rows, sheet.team), deathzone()
    needs: list[DiceNeed] = []
    if match.kind in GATE_KINDS and row.fans > 0:
        why = f"the gate: one D6 per point of fan factor ({row.fans})"
        needs.append(DiceNeed(purpose="gate", dice=f"{row.fans}D6", subject=sheet.team, why=why))
    if conceded_by(match) == sheet.team:
        return needs + walkout_dice(sheet.team, rows)
    if match.kind in GATE_KINDS:
        needs.append(
            DiceNeed(purpose="winnings", dice=dz.winnings.die, subject=sheet.team, why="winnings")
        )
    if match.kind in GATE_KINDS or conceded_by(match) is not None:
        needs.append(
            DiceNeed(
                purpose="fan_factor",
                dice=dz.fan_factor_roll.die,
                subject=sheet.team,
                why="fan factor roll: 1 or less loses a point, 6+ gains one",
            )
        )
    return needs


def walkout_dice(team_id: str, rows: MatchRows) -> list[DiceNeed]:
    """One D6 per player with 51+ SPP. The purpose names the player and the subject is the
    team, so the roll stays on the team's sheet even when he is not in the report."""
    rule = gold_rules().concession
    return [
        DiceNeed(
            purpose=walkout_purpose(p),
            dice=rule.walkout_die,
            subject=team_id,
            why=f"{p.name} has {p.spp_earned} SPP: leaves on 1-3 after the concession",
        )
        for p in walkout_candidates(team_id, rows)
    ]


def walkout_purpose(player: PlayerRow) -> str:
    return f"walkout_{player.player_id}"


def walkout_candidates(team_id: str, rows: MatchRows) -> list[PlayerRow]:
    least = gold_rules().concession.walkout_min_spp
    players = rows.players(team_id)
    found = [p for p in players if p.status in ON_ROSTER and p.spp_earned >= least]
    return sorted(found, key=lambda p: p.player_id)


# --- what the sequence does ------------------------------------------------------------------


def match_outcomes(match: MatchRecorded, rows: MatchRows, dice: DiceBox) -> Effects:
    if match.kind == "exhibition":
        return []
    effects = freebooters(match)
    effects += recoveries(match, rows) if match.kind != "unplayed" else []
    gate = gate_thousands(match, rows, dice)
    for sheet in match.sheets():
        row = team(rows, sheet.team)
        effects += winnings(match, sheet, row, gate, dice)
        effects += concession_gold(match, sheet, rows)
        effects += fan_factor(match, sheet, rows, dice)
        effects += walkouts(match, sheet, rows, dice)
    return effects


def freebooters(match: MatchRecorded) -> Effects:
    """What each team paid from its treasury for its one-game players: a freebooted star's
    price is his cost (3rd edition freebooters pay the player's price for the match)."""
    return [
        Gold(team=s.team, amount=-h.price, kind="freebooter", note=f"{h.name} for {match.match}")
        for s in match.sheets()
        for h in s.hirelings
        if h.price > 0
    ]


def freeboot_fees(match: MatchRecorded, team_id: str) -> int:
    return sum(h.price for s in match.sheets() if s.team == team_id for h in s.hirelings)


def freebooter_problems(match: MatchRecorded, rows: MatchRows) -> list[str]:
    """One-game players are paid from the treasury before the match: it must hold enough."""
    found = []
    for sheet in match.sheets():
        held = team(rows, sheet.team).treasury
        cost = unaffordable_hirelings(sheet, held)
        if cost is not None:
            found.append(
                f"the freebooters of {sheet.team} cost {cost:,} but its treasury holds {held:,}"
            )
    return found


def recoveries(match: MatchRecorded, rows: MatchRows) -> Effects:
    """Death Zone 'Miss Next Game': rubbed out at the end of the next match."""
    return [
        Heals(player=p.player_id, what="miss_next_game", note="missed this game")
        for sheet in match.sheets()
        for p in rows.players(sheet.team)
        if p.miss_next_game
    ]


def gate_thousands(match: MatchRecorded, rows: MatchRows, dice: DiceBox) -> int:
    if match.kind not in GATE_KINDS:
        return 0
    dz, scheduled = deathzone(), rows.fixture
    bonus = dz.gate.stage_bonus_per_die.get(scheduled.stage, 0) if scheduled else 0
    total = 0
    for sheet in match.sheets():
        fans = team(rows, sheet.team).fans
        if fans > 0:
            rolled = dice.roll(sheet.dice, "gate", f"{fans}D6", sheet.team)
            total += sum(rolled) + bonus * len(rolled)
    return total * dz.gate.per_pip // 1000


def winnings(
    match: MatchRecorded, sheet: TeamSheet, row: TeamRow, gate: int, dice: DiceBox
) -> Effects:
    if match.kind not in GATE_KINDS or conceded_by(match) == sheet.team:
        return []
    table = deathzone().winnings
    roll = dice.roll(sheet.dice, "winnings", table.die, sheet.team)[0]
    rating = row.values.get("tr", row.rating)
    modifier = table.modifier(gate, rating)
    won = table.won_bonus if result(match, sheet) == "win" else 0
    amount = (roll + modifier + won) * table.per_pip
    note = f"D6 {roll} + {modifier} (gate {gate * 1000:,}, TR {rating})"
    note += f" + {won} for the win" if won else ""
    return [Gold(team=sheet.team, amount=amount, kind="winnings", note=note)]


def concession_gold(match: MatchRecorded, sheet: TeamSheet, rows: MatchRows) -> Effects:
    """'The winner gains all of the losers money': the conceding team's whole treasury."""
    loser = conceded_by(match)
    if loser is None or loser == sheet.team:
        return []
    money = team(rows, loser).treasury - freeboot_fees(match, loser)
    if money <= 0:
        return []
    note = f"{rows.team_name(loser)} conceded {match.match}: all of the loser's money"
    return [
        Gold(team=loser, amount=-money, kind="concession", note=note),
        Gold(team=sheet.team, amount=money, kind="concession", note=note),
    ]


def fan_factor(match: MatchRecorded, sheet: TeamSheet, rows: MatchRows, dice: DiceBox) -> Effects:
    """The Death Zone Fan Factor Table (``classic3.fans``, as dz3 reads it), with seed
    002's concession: the winner adds +2, the loser loses one and may not roll."""
    rule, table, row = gold_rules().concession, deathzone().fan_factor_roll, team(rows, sheet.team)
    loser = conceded_by(match)
    if loser == sheet.team:
        loss = min(rule.loser_fan_factor_loss, row.fans - table.floor)
        note = "conceded: loses one fan factor and may not roll"
        return [Fans(team=sheet.team, delta=-loss, note=note)] if loss else []
    if match.kind not in GATE_KINDS and loser is None:
        return []
    roll = dice.roll(sheet.dice, "fan_factor", table.die, sheet.team)[0]
    caused = casualties_inflicted(match, sheet, rows)
    modifier = fans.modifier(table, result(match, sheet), sheet.touchdowns, caused, rows.stage())
    modifier += rule.winner_fan_roll_bonus if loser is not None else 0
    delta = fans.change(table, roll + modifier, row.fans)
    if not delta:
        return []  # most rolls: no note to write
    note = f"fan factor roll {roll}{modifier:+d} = {roll + modifier}"
    return [Fans(team=sheet.team, delta=delta, note=note)]


def casualties_inflicted(match: MatchRecorded, sheet: TeamSheet, rows: MatchRows) -> int:
    """'Team Inflicted 2+ CAS': those that earn SPP in gold4, a block's (seed 002 STAR
    PLAYER POINTS), by a player of this side (its sheet, hirelings or roster)."""
    blockers = [c.inflicted_by for c in match.casualties if c.cause == "block"]
    if not blockers:
        return 0  # no side to gather: asked of both sides of every match
    own = {p.player for p in sheet.players} | {p.player_id for p in rows.players(sheet.team)}
    if sheet.hirelings:
        own |= {h.id for h in sheet.hirelings}
    return len([blocker for blocker in blockers if blocker in own])


def walkouts(match: MatchRecorded, sheet: TeamSheet, rows: MatchRows, dice: DiceBox) -> Effects:
    if conceded_by(match) != sheet.team:
        return []
    rule = gold_rules().concession
    effects: Effects = []
    for player in walkout_candidates(sheet.team, rows):
        roll = dice.roll(sheet.dice, walkout_purpose(player), rule.walkout_die, sheet.team)[0]
        if roll in rule.walkout_leaves_on:
            note = f"{player.spp_earned} SPP, rolled {roll} after the concession: leaves"
            effects.append(Leaves(player=player.player_id, status="left", note=note))
    return effects
