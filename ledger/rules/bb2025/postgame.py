"""The BB2025 post-game sequence (seed 001, 'Post-game Sequence'), as effects.

Steps in the text's order: Record Outcome and Collect Winnings; Update Dedicated Fans;
Player Advancement (SPP); Hiring, Firing and Temporarily Retiring (separate events);
Expensive Mistakes (when the team closes its post-game sequence); Prepare for Next
Fixture (the fold refreshes TV and CTV).

Worked example ('Record Outcome and Collect Winnings'): Fan Factors 4 and 3 give a Fan
Attendance of 7; 7 / 2 + 2 touchdowns + 1 for not stalling = 6.5, so 65,000 gold.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.domain.events import MatchRecorded, PostGameClosed
from ledger.domain.state import PlayerRow, TeamRow, on_roster
from ledger.domain.values import DiceRoll, TeamSheet
from ledger.rules.base import by_score, opponent, outcome_for
from ledger.rules.bb2025.tables import Tables
from ledger.rules.dice import DiceBox
from ledger.rules.effects import Effects, Fans, Gold, Heals, Leaves
from ledger.rules.protocol import DiceNeed
from ledger.rules.rows import MatchRows

COUNTED = ("league", "playoff")


def conceded(match: MatchRecorded, team: str) -> bool:
    """Conceded with the penalties (not 'without penalty')."""
    return (
        match.concession is not None
        and match.concession.team == team
        and (match.concession.kind == "conceded")
    )


def result(match: MatchRecorded, sheet: TeamSheet) -> str:
    """Win, draw or loss for the post-game sequence. A play-off tie settled by penalties
    is won by the shoot-out's winner (docs/rulesets.md: 'Play-offs'); a game of more than
    two teams (a Dungeon Bowl final) by the team that scored the game-winning touchdown,
    its report's winner, every other team losing it (seed 003, 'Winning the Game')."""
    if match.kind == "unplayed" and match.concession is None:
        return "loss"
    if match.others:
        return outcome_for(match, sheet.team)
    ours, theirs = sheet.touchdowns, opponent(match, sheet).touchdowns
    if ours == theirs and match.shootout is not None:
        home = sheet.team == match.home.team
        ours, theirs = match.shootout.penalties_home, match.shootout.penalties_away
        if not home:
            ours, theirs = theirs, ours
    return by_score(ours, theirs)


# --- which dice the sequence needs ---------------------------------------------------------


def match_dice(t: Tables, match: MatchRecorded, rows: MatchRows) -> list[DiceNeed]:
    needs: list[DiceNeed] = []
    for sheet in match.sheets():
        needs += team_dice(t, match, sheet, rows)
    return needs


def team_dice(t: Tables, match: MatchRecorded, sheet: TeamSheet, rows: MatchRows) -> list[DiceNeed]:
    team = sheet.team
    needs: list[DiceNeed] = []
    if match.kind in COUNTED:
        needs.append(
            DiceNeed(
                purpose="fan_factor",
                dice=t.winnings.fan_factor_die,
                subject=team,
                why="pre-game Fans: Fan Factor = Dedicated Fans + D3",
            )
        )
    if match.kind == "unplayed" and match.concession and match.concession.team != team:
        needs.append(
            DiceNeed(
                purpose="winnings",
                dice=t.unplayed.agreed_concession_die,
                subject=team,
                why="conceded unplayed fixture: D6 x 10,000",
            )
        )
    if conceded(match, team):
        needs.append(
            DiceNeed(
                purpose="concession_fans",
                dice=t.concession.fans_die,
                subject=team,
                why="Conceding: Dedicated Fans -D3",
            )
        )
        needs += walkout_dice(t, rows.players(team))
    if match.kind in (*COUNTED, "unplayed") and result(match, sheet) != "draw":
        needs.append(
            DiceNeed(purpose="dedicated_fans", dice="D6", subject=team, why="Update Dedicated Fans")
        )
    return needs


def walkout_dice(t: Tables, players: Sequence[PlayerRow]) -> list[DiceNeed]:
    veterans = [
        p
        for p in players
        if p.status == "active" and len(p.advancements) >= t.concession.walkout_advancements
    ]
    return [
        DiceNeed(
            purpose="walkout",
            dice="D6",
            subject=p.player_id,
            why=f"{p.name} has {len(p.advancements)} advancements: leaves on 1-3",
        )
        for p in sorted(veterans, key=lambda p: p.player_id)
    ]


# --- what the sequence does ------------------------------------------------------------------


def match_outcomes(t: Tables, match: MatchRecorded, rows: MatchRows, dice: DiceBox) -> Effects:
    if match.kind == "exhibition":
        return []
    effects: Effects = []
    if match.kind != "friendly":
        effects += recoveries(match, rows)
    if match.kind not in (*COUNTED, "unplayed"):
        return effects
    teams = {s.team: rows.team(s.team) for s in match.sheets()}
    factors = (
        {
            team: row.fans
            + sum(dice.roll(sheet.dice, "fan_factor", t.winnings.fan_factor_die, team))
            for sheet in match.sheets()
            if (team := sheet.team) and (row := teams[team]) is not None
        }
        if match.kind in COUNTED
        else {}
    )
    for sheet in match.sheets():
        team_row = teams[sheet.team]
        assert team_row is not None  # commands only record matches of registered teams
        effects += winnings(t, match, sheet, sum(factors.values()), dice)
        effects += fans(t, match, sheet, team_row, dice)
        effects += concession_walkouts(t, match, sheet, rows, dice)
    return effects


def recoveries(match: MatchRecorded, rows: MatchRows) -> Effects:
    """Players who missed this game are back for the next ('Prepare for Next Fixture')."""
    return [
        Heals(player=p.player_id, what="miss_next_game", note="missed this game")
        for sheet in match.sheets()
        for p in on_roster(rows.players(sheet.team))
        if p.miss_next_game
    ]


def winnings(
    t: Tables, match: MatchRecorded, sheet: TeamSheet, attendance: int, dice: DiceBox
) -> Effects:
    team, per = sheet.team, t.winnings.per_point
    if match.kind == "unplayed":
        if match.concession is None or match.concession.team == team:
            return []
        pips = sum(dice.roll(sheet.dice, "winnings", t.unplayed.agreed_concession_die, team))
        return [
            Gold(
                team=team,
                amount=pips * t.unplayed.per_pip,
                kind="winnings",
                note=f"unplayed fixture conceded by agreement: {pips} x 10,000",
            )
        ]
    if conceded(match, team):
        return []
    if match.concession is not None and conceded(match, match.concession.team):
        amount = (attendance + sheet.touchdowns) * per
        note = f"opponent conceded: (attendance {attendance} + {sheet.touchdowns} TD) x 10,000"
        return [Gold(team=team, amount=amount, kind="winnings", note=note)]
    stalled = sheet.stalling or any(p.stalling for p in sheet.players)
    bonus = 0 if stalled else t.winnings.no_stalling_bonus
    amount = attendance * per // 2 + (sheet.touchdowns + bonus) * per
    stalling = (
        (" + 1 no stalling" if bonus else " (stalled)") if t.winnings.no_stalling_bonus else ""
    )
    note = f"attendance {attendance} / 2 + {sheet.touchdowns} TD{stalling}"
    return [Gold(team=team, amount=amount, kind="winnings", note=note)]


def fans(
    t: Tables, match: MatchRecorded, sheet: TeamSheet, team: TeamRow, dice: DiceBox
) -> Effects:
    df, bounds = team.fans, t.dedicated_fans
    effects: Effects = []
    if conceded(match, team.team_id):
        loss = sum(dice.roll(sheet.dice, "concession_fans", t.concession.fans_die, team.team_id))
        new = max(bounds.min, df - loss)
        effects.append(Fans(team=team.team_id, delta=new - df, note=f"conceded: -{loss} (D3)"))
        df = new
    outcome = result(match, sheet)
    if outcome == "draw":
        return effects
    roll = dice.roll(sheet.dice, "dedicated_fans", "D6", team.team_id)[0]
    if outcome == "win" and roll >= df and df < bounds.max:
        effects.append(Fans(team=team.team_id, delta=1, note=f"won, rolled {roll} >= {df}"))
    elif outcome == "loss" and roll < df and df > bounds.min:
        effects.append(Fans(team=team.team_id, delta=-1, note=f"lost, rolled {roll} < {df}"))
    return effects


def concession_walkouts(
    t: Tables,
    match: MatchRecorded,
    sheet: TeamSheet,
    rows: MatchRows,
    dice: DiceBox,
) -> Effects:
    if not conceded(match, sheet.team):
        return []
    effects: Effects = []
    for need in walkout_dice(t, rows.players(sheet.team)):
        roll = dice.roll(sheet.dice, "walkout", "D6", need.subject)[0]
        if roll in t.concession.walkout_leaves_on and need.subject:
            effects.append(Leaves(player=need.subject, note=f"quit after the concession ({roll})"))
    return effects


# --- Expensive Mistakes -----------------------------------------------------------------------


def mishap(t: Tables, treasury: int, roll: int) -> str:
    table = t.expensive_mistakes
    if treasury < table.threshold:
        return "averted"
    column = min(treasury // table.band, len(table.table[0])) - 1
    return table.table[roll - 1][column]


def close_dice(t: Tables, team: TeamRow, rolls: tuple[DiceRoll, ...]) -> list[DiceNeed]:
    if team.treasury < t.expensive_mistakes.threshold:
        return []
    needs = [
        DiceNeed(
            purpose="expensive_mistakes",
            dice="D6",
            subject=team.team_id,
            why=f"the treasury holds {team.treasury:,}: at {t.expensive_mistakes.threshold:,}"
            " or more a team rolls for Expensive Mistakes ('Expensive Mistakes')",
        )
    ]
    first = next((r for r in rolls if r.purpose == "expensive_mistakes"), None)
    if first is not None:
        kind = mishap(t, team.treasury, first.values[0])
        amount = {"minor": "D3", "catastrophe": "2D6"}.get(kind)
        if amount:
            needs.append(
                DiceNeed(
                    purpose="expensive_mistakes_amount",
                    dice=amount,
                    subject=team.team_id,
                    why=f"{kind} incident",
                )
            )
    return needs


def close_outcomes(t: Tables, event: PostGameClosed, team: TeamRow, dice: DiceBox) -> Effects:
    treasury, table = team.treasury, t.expensive_mistakes
    if treasury < table.threshold:
        return []
    roll = dice.roll(event.dice, "expensive_mistakes", "D6", team.team_id)[0]
    kind = mishap(t, treasury, roll)
    if kind == "minor":
        pips = sum(dice.roll(event.dice, "expensive_mistakes_amount", "D3", team.team_id))
        loss = min(treasury, pips * table.minor_per_pip)
    elif kind == "major":
        loss = treasury - (treasury // 2) // table.major_rounding * table.major_rounding
    elif kind == "catastrophe":
        pips = sum(dice.roll(event.dice, "expensive_mistakes_amount", "2D6", team.team_id))
        loss = max(0, treasury - pips * table.catastrophe_per_pip)
    else:
        return []
    return [
        Gold(
            team=team.team_id,
            amount=-loss,
            kind="expensive_mistake",
            note=f"{kind} incident (rolled {roll} with {treasury:,} in the treasury)",
        )
    ]


def must_advance(t: Tables, players: Sequence[PlayerRow]) -> list[str]:
    """'Should a player accumulate enough SPP to improve a Characteristic... they must take
    an advancement' (Spending Star Player Points)."""
    problems = []
    for p in players:
        n = len(p.advancements)
        if p.status != "active" or p.kind != "regular" or n >= len(t.advancement_costs):
            continue
        cost = t.advancement_costs[n].characteristic
        if p.spp >= cost:
            problems.append(
                f"{p.name} has {p.spp} SPP, enough for a characteristic improvement"
                f" ({cost}): he must take an advancement first"
            )
    return problems
