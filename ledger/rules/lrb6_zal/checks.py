"""What a ZAL match report must respect before it is recorded (seed 000: ZAL 3c, 3f-3k, 8a,
8e, 9, the Handicap Table; LRB6 p.26 'Most Valuable Player').

Each team names one MVP; the team with the lower Team Rating adds the Handicap Table's bonus
MVPs (ZAL 8e lets them be worked out before kick-off). A forfeit is forced (ZAL 9a: played
out as usual) or voluntary (ZAL 9b: the opponent wins 3:0, or by the score reached if it
had scored more than 3; the forfeiting team names no MVP of its own and the winner one
extra). Mercenaries and freebooters cost half price, journeymen are free Linemen up to 11
players, Star Players follow ZAL 3f-3h, and a team plays its first match with at least one
Fan Factor (ZAL 3c).

Worked example: TR 96 v TR 120 is a difference of 24: the first team may name 1 + 1 MVPs.
If the other team gives up at 1-1, the report reads 3-0 and the first team names 3.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ledger.domain.events import MatchRecorded
from ledger.domain.values import Hireling
from ledger.rules.base import eligible, unaffordable_hirelings
from ledger.rules.lrb6.postgame import BOOKED
from ledger.rules.lrb6_zal import hiring
from ledger.rules.lrb6_zal.postgame import Side, voluntary_forfeit
from ledger.rules.lrb6_zal.rating import handicap
from ledger.rules.lrb6_zal.tables import Tables
from ledger.rules.rows import TeamRows
from ledger.rules.schema import StarPlayer, TeamList
from ledger.words import plural, possessive

FORFEITS = ("forfeit_forced", "forfeit_voluntary")


STARTING_PLAYERS = 11
"""ZAL 3c: the players a team starts the season with, at least."""


@dataclass(frozen=True)
class Lists:
    """The lists a team's hirelings come from: its team list and the Star Players."""

    team: TeamList
    stars: Mapping[str, StarPlayer]


# --- MVPs and forfeits ---------------------------------------------------------------------------


def mvp_allowance(t: Tables, match: MatchRecorded, side: Side, other: Side) -> int:
    if match.kind == "unplayed":
        return 0
    bonus = handicap(t, side.rating, other.rating).mvps
    forfeiter = voluntary_forfeit(match)
    if forfeiter == side.team_id:
        return bonus  # 'no MVP'; bonus MVPs may already have been given before kick-off
    return t.mvps_per_team + bonus + (t.forfeit.extra_mvp if forfeiter else 0)


def mvp_problems(t: Tables, match: MatchRecorded, side: Side, other: Side) -> list[str]:
    awarded = sum(p.mvps for p in side.sheet.players)
    allowed = mvp_allowance(t, match, side, other)
    if awarded <= allowed:
        return []
    bonus = handicap(t, side.rating, other.rating).mvps
    forfeit = voluntary_forfeit(match)
    why = f"TR {side.rating} v {other.rating}: {bonus} bonus MVPs"
    if forfeit:
        giver = side.team.name if forfeit == side.team_id else other.team.name
        why += f"; {giver} gave up (ZAL 9b)"
    return [f"{side.team.name} named {plural(awarded, 'MVP')} where ZAL allows {allowed} ({why})"]


def forfeit_problems(t: Tables, match: MatchRecorded, names: Mapping[str, str]) -> list[str]:
    """ZAL 9b's score of a match a team gave up; ``names``: the teams' names, by id."""
    concession = match.concession
    if concession is None:
        return []
    if concession.kind not in FORFEITS:
        return [
            f"ZAL forfeits are forfeit_forced (ZAL 9a) or forfeit_voluntary (ZAL 9b),"
            f" not {concession.kind}"
        ]
    if concession.kind == "forfeit_forced":
        return []
    lost = next(s.touchdowns for s in match.sheets() if s.team == concession.team)
    won = max(s.touchdowns for s in match.sheets() if s.team != concession.team)
    if (won, lost) == (t.forfeit.score, 0) or (won > t.forfeit.score and won > lost):
        return []
    giver = names.get(concession.team, concession.team)
    return [
        f"{giver} gave up: the opponent wins {t.forfeit.score}:0, or by the score reached if"
        f" it had scored more than {t.forfeit.score} (ZAL 9b), not {won}:{lost}"
    ]


# --- a team starting the season ------------------------------------------------------------------


# ZAL 3c 'Minimum Team Requirements', asked of a team that has not played: afterwards,
# Journeymen fill a line-up the season's casualties thinned (ZAL 8a), and the Fan Factor
# moves by its table (ZAL 3d-3k).


def starting_players_problems(teams: Sequence[TeamRows]) -> list[str]:
    """'A team starting the season, must have at least 11 players ... except Star
    Players': one sentence naming every team short of them."""
    short = [
        f"{rows.team.name} {count}"
        for rows in teams
        if not rows.team.games and (count := regular_players(rows)) < STARTING_PLAYERS
    ]
    if not short:
        return []
    return [
        f"a team starting the season needs at least {STARTING_PLAYERS} players, Star Players"
        f" aside (ZAL 3c): {', '.join(short)}"
    ]


def regular_players(rows: TeamRows) -> int:
    return sum(1 for p in rows.roster() if p.kind == "regular")


def starting_fans_problems(t: Tables, teams: Sequence[TeamRows]) -> list[str]:
    """'Each team must have at least one Fan Factor (which must be paid for)'."""
    start = t.fan_factor.start_min
    short = [rows.team.name for rows in teams if not rows.team.games and rows.team.fans < start]
    if not short:
        return []
    return [
        f"a team starting the season needs at least {start} Fan Factor, paid for (ZAL 3c):"
        f" {', '.join(short)} {'has' if len(short) == 1 else 'have'} none"
    ]


def fan_factor_problems(t: Tables, match: MatchRecorded, side: Side) -> list[str]:
    start = t.fan_factor.start_min
    if match.kind in BOOKED and side.team.games == 0 and side.team.fans < start:
        return [
            f"{side.team.name} need at least {start} Fan Factor, paid for, before"
            f" their first match (ZAL 3c)"
        ]
    return []


# --- hirelings ------------------------------------------------------------------------------------


def hireling_problems(
    t: Tables, side: Side, lists: Lists, stars_held: list[StarPlayer]
) -> list[str]:
    team, hired = side.team, side.sheet.hirelings
    problems: list[str] = []
    for h in hired:
        problems += price_problems(t, h, lists)
        star = lists.stars.get(h.star or "")
        if h.kind == "star" and star is not None:
            problems += hiring.star_problems(t, team, star, stars_held)
            stars_held = [*stars_held, star]
    journeymen = sum(1 for h in hired if h.kind == "journeyman")
    allowed = hiring.journeymen_allowed(t, len(eligible(side.players)), len(hired) - journeymen)
    if journeymen > allowed:
        problems.append(
            f"{team.name} may field {allowed} journeymen, not {journeymen}"
            f" (ZAL 8a: only up to 11 players)"
        )
    spent = unaffordable_hirelings(side.sheet, team.treasury)
    if spent is not None:
        problems.append(
            f"{possessive(team.name)} hirelings cost {spent:,}"
            f" but the treasury holds {team.treasury:,}"
        )
    return problems


def price_problems(t: Tables, h: Hireling, lists: Lists) -> list[str]:
    if h.kind == "star":
        star = lists.stars.get(h.star or "")
        if star is None:
            return [f"{h.name}: no star player '{h.star}'"]
        return hiring.price_problem(h, hiring.one_game_price(t, star.cost), "freebooter")
    position = lists.team.position(h.position or "")
    if position is None:
        return [f"{h.name}: the {lists.team.name} list has no position '{h.position}'"]
    if h.kind == "mercenary":
        return hiring.price_problem(h, hiring.one_game_price(t, position.cost), "mercenary")
    if "lineman" not in position.keywords:
        return [f"{h.name}: journeymen are Linemen (ZAL 8a), not {position.name}"]
    return hiring.price_problem(h, 0, "journeyman")
