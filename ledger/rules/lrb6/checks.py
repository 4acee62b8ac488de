"""What an LRB6 match report must respect before it is recorded (Competition Rules 2010:
p.26 'Most Valuable Player', p.28 'Journeymen', p.29 'Conceding', pp.70-71 Star Players
and Mercenaries as inducements).

Each team names one MVP. A concession is `conceded` (p.29, with its penalties) or
`without_penalty` (a team that cannot field three players and gives up: the match is
booked as played). One-game players: journeymen are free Linemen that make a team up to 11
players; a mercenary is a position of the team's list; at most two Star Players, each one
who plays for the team's list and not twice. The report's price is what the treasury paid
(the rest of the price came from inducement money, which the books do not hold), so it
may not pass the list price (a mercenary's +30,000 included).

Worked example: a Human team with ten fit players may take one journeyman Lineman for
nothing; a mercenary Blitzer costs at most 90,000 + 30,000 = 120,000 of its treasury.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ledger.domain.events import MatchRecorded
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import Hireling, TeamSheet
from ledger.rules.base import eligible, unaffordable_hirelings
from ledger.rules.lrb6.tables import Tables
from ledger.rules.schema import StarPlayer, TeamList
from ledger.words import plural, possessive

CONCESSIONS = ("conceded", "without_penalty")
MERCENARY_PREMIUM = 30_000
"""pp.70-71 'Mercenaries': the position's price plus 30,000."""
MAX_STARS = 2
"""pp.70-71 'Star Players (0-2)'."""


def concession_problems(match: MatchRecorded) -> list[str]:
    c = match.concession
    if c is None or c.kind in CONCESSIONS:
        return []
    return [f"LRB6 concessions are {' or '.join(CONCESSIONS)} (p.29), not {c.kind}"]


def mvp_problems(t: Tables, match: MatchRecorded, sheet: TeamSheet, team: str) -> list[str]:
    """``team``: the side's name, as the sentence says it."""
    awarded = sum(p.mvps for p in sheet.players)
    allowed = 0 if match.kind == "unplayed" else t.mvps_per_team
    if awarded <= allowed:
        return []
    return [f"{team} named {plural(awarded, 'MVP')} where LRB6 allows {allowed} (p.26)"]


def hireling_problems(
    t: Tables,
    team: TeamRow,
    players: Sequence[PlayerRow],
    sheet: TeamSheet,
    lists: tuple[TeamList, Mapping[str, StarPlayer]],
) -> list[str]:
    team_list, stars = lists
    hired = sheet.hirelings
    problems = [p for h in hired for p in price_problems(h, team_list, stars)]
    problems += star_problems(team, [h for h in hired if h.kind == "star"], stars)
    journeymen = sum(1 for h in hired if h.kind == "journeyman")
    allowed = max(0, t.full_team - len(eligible(players)) - (len(hired) - journeymen))
    if journeymen > allowed:
        problems.append(
            f"{team.name} may field {allowed} journeymen, not {journeymen} (p.28: up to 11)"
        )
    spent = unaffordable_hirelings(sheet, team.treasury)
    if spent is not None:
        problems.append(
            f"{possessive(team.name)} one-game players cost {spent:,}"
            f" but the treasury holds {team.treasury:,}"
        )
    return problems


def list_price(h: Hireling, team_list: TeamList, stars: Mapping[str, StarPlayer]) -> int | None:
    if h.kind == "star":
        star = stars.get(h.star or "")
        return star.cost if star is not None else None
    position = team_list.position(h.position or "")
    if position is None:
        return None
    return position.cost + (MERCENARY_PREMIUM if h.kind == "mercenary" else 0)


def price_problems(h: Hireling, team_list: TeamList, stars: Mapping[str, StarPlayer]) -> list[str]:
    price = list_price(h, team_list, stars)
    if price is None:
        what = f"star player '{h.star}'" if h.kind == "star" else f"position '{h.position}'"
        return [f"{h.name}: LRB6 has no {what} for a {team_list.name} team"]
    if h.kind == "journeyman":
        position = team_list.position(h.position or "")
        if position is not None and "lineman" not in position.keywords:
            return [f"{h.name}: journeymen are Linemen (p.28), not {position.name}"]
        price = 0
    if h.price > price:
        return [f"{h.name} ({h.kind}) costs at most {price:,} for one match, not {h.price:,}"]
    return []


def star_problems(
    team: TeamRow, hired: Sequence[Hireling], stars: Mapping[str, StarPlayer]
) -> list[str]:
    problems = []
    if len(hired) > MAX_STARS:
        problems.append(f"{team.name} induced {len(hired)} Star Players: at most {MAX_STARS}")
    ids = [h.star for h in hired]
    if len(set(ids)) < len(ids):
        problems.append(f"{team.name} named the same Star Player twice")
    for h in hired:
        star = stars.get(h.star or "")
        if star is not None and not star.plays_for_list(team.roster):
            problems.append(f"{star.name} does not play for {team.roster} teams")
    return problems
