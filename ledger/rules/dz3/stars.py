"""Star players under the OBERWALD variants (seed 004, 'Star Players', after 'Wizards').

"This document only refers to Star Players in the Blood Bowl and Deathzone handbook."
A league picks how many a team may have (the books: any; Alt (b) two; Alt (c) only those
with secret weapons; Alt (d) none), whether copies may exist (Alt (a) yes; Alt (b) not on one
team; Alt (c) not in the league: "first to hire Morg will get him") and whether a star takes
up a position (Alt (a) no; Alt (b) yes: "Griff takes up one Blitzer position on the Human
team"). "Players with 26 SPPs are still considered position players; they do not count
against any stars you may hire" [GWUK]: only ``kind == "star"`` players are stars here.

The same rules apply to a star hired for the roster and to a star freebooted for one match.

Worked example: under ``star_players=two`` a Human team with Griff Oberwald and Morg 'n'
Thorg on its roster cannot freeboot a third star; under ``star_positions=counted`` a Human
team with four Blitzers cannot hire Griff, who would be a fifth.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ledger.domain.state import PlayerRow, on_roster
from ledger.rules.dz3.options import Options
from ledger.rules.dz3.tables import DZStar, Tables
from ledger.rules.schema import TeamList


def roster_stars(players: Sequence[PlayerRow]) -> list[str]:
    """Star ids on a roster (a star's ``position`` is his star id)."""
    return [p.position for p in on_roster(players) if p.kind == "star"]


def star_problems(
    t: Tables, opts: Options, star: DZStar, team_list: TeamList, stars_held: Sequence[str]
) -> list[str]:
    """May a team with ``stars_held`` (this match's or roster's) take ``star`` too?"""
    if not star.plays_for_list(team_list.id):
        return [f"{star.name} does not play for {team_list.name} teams"]
    return count_problems(t, opts, star, stars_held) + duplicate_problems(opts, star, stars_held)


def count_problems(t: Tables, opts: Options, star: DZStar, stars_held: Sequence[str]) -> list[str]:
    if opts.star_players == "none":
        return ["star players are not permitted in this league (Star Players Alt (d))"]
    if opts.star_players == "secret_weapons" and "secret_weapon" not in star.keywords:
        return [
            f"only star players with secret weapons are permitted (Alt (c)); {star.name} has none"
        ]
    limit = t.star_players.two_stars
    if opts.star_players == "two" and len(stars_held) + 1 > limit:
        return [f"a team may have only {limit} star players (Star Players Alt (b))"]
    return []


def duplicate_problems(opts: Options, star: DZStar, stars_held: Sequence[str]) -> list[str]:
    if opts.star_duplicates != "allowed" and star.id in stars_held:
        return [f"the team already has {star.name}: no duplicates on a team (Alt (b))"]
    return []


def league_problems(
    opts: Options, star: DZStar, team_id: str, holders: Mapping[str, str]
) -> list[str]:
    """Alt (c): a star another team holds (first hired) is not available."""
    holder = holders.get(star.id)
    if opts.star_duplicates == "not_in_league" and holder not in (None, team_id):
        return [f"{star.name} plays for {holder}: no duplicates in the league (Alt (c))"]
    return []


def holders(players: Sequence[PlayerRow]) -> dict[str, str]:
    """Which team holds each star: the first to hire him (lowest hiring event)."""
    found: dict[str, str] = {}
    for p in sorted(on_roster(players), key=lambda p: p.hired_seq):
        if p.kind == "star":
            found.setdefault(p.position, p.team_id)
    return found


def position_problems(
    opts: Options,
    team_list: TeamList,
    position: str,
    taken: int,
    adding: str,
) -> list[str]:
    """Alt (b) of positions: ``taken`` players and stars already fill ``position``."""
    found = team_list.position(position)
    if opts.star_positions != "counted" or found is None or taken < found.max:
        return []
    return [
        f"{adding} would be a {found.name} beyond the limit of {found.max}"
        f" (stars take up positions: Star Players Alt (b))"
    ]


def stars_as(
    stars: Mapping[str, DZStar], star_ids: Sequence[str], team_list: TeamList, position: str
) -> int:
    """How many of these stars take up ``position`` on this team list."""
    return sum(
        1 for s in star_ids if s in stars and stars[s].counts_as.get(team_list.id) == position
    )
