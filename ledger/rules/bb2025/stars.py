"""Star Players induced for one game in BB2025 (seed 001 'Inducements'; seed 003
'Unsigned Star Players').

Seed 001 'Inducements': "Before any League Fixture, teams are allowed to spend gold pieces
from their Treasury or Petty Cash in order to buy Inducements ... The list of Inducements,
how many of each Inducement can be purchased, and which teams can purchase them, can be
found on page 142". Star Players are on that list (the core rules: 0-2 a game, a pair
counting as one choice, each for the teams he plays for), and seed 003 says so in words:
"Star Players that were not signed to any team are still eligible to be hired by any team
as Inducements in the usual way". So a star is bought at the Inducements step (``ledger
match inducements``), from the higher-CTV team's treasury or the other's petty cash and
its top-up of at most 50,000, and the match report then names him among its hirelings:
only a star the team induced for that fixture may play, and the report moves no gold for
him (it moved when he was bought).

Worked example: an Orc team (Badlands Brawl) 30,000 below its opponent's CTV, the other
having spent nothing, has 30,000 petty cash and may add 50,000 from its treasury: Morg 'n'
Thorg (340,000) is offered to it but is beyond its 80,000. Count Luthor von Drakenborg plays
for the Sylvanian Spotlight only: he is not offered, and a report fielding him is refused.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from ledger.domain.state import MatchRow
from ledger.domain.values import Hireling, TeamSheet
from ledger.rules.bb2025.contracts import eligible
from ledger.rules.protocol import SidelineItem
from ledger.rules.schema import StarPlayer, TeamList, pair_name
from ledger.words import possessive

MAX_STARS = 2
"""The core rules' Inducements list: 'Star Players 0-2' (a pair counts as one)."""


def offer(
    stars: Mapping[str, StarPlayer], team_list: TeamList, contracted: Collection[str] = ()
) -> dict[str, SidelineItem]:
    """The stars a team of the list may induce, one each, at their price. A pair is
    bought under its priced star (the partner, printed at 0, comes with him). A star
    ``contracted`` to a team for the season, or half of a pair who is, is not induced
    (seed 003 'Signing Star Players': "they can only play for that team during the course
    of the season"; 'Unsigned Star Players' "are still eligible to be hired by any team as
    Inducements")."""
    return {
        star.id: SidelineItem(
            id=star.id, name=pair_name(star, stars), price=star.cost, max=1, star=True
        )
        for star in stars.values()
        if eligible(star, team_list)
        and not star.partner_only
        and not {star.id, star.pair_with} & set(contracted)
    }


def purchase_problems(
    team: str, wanted: Mapping[str, int], stars: Mapping[str, StarPlayer]
) -> list[str]:
    """At most two Star Players a game; asking for one twice is the offer's limit (max 1)."""
    chosen = [item for item, count in wanted.items() if item in stars and count > 0]
    if len(chosen) <= MAX_STARS:
        return []
    return [f"{team} asked for {len(chosen)} Star Players: at most {MAX_STARS} a game"]


def bought(fixture: MatchRow | None, team: str) -> dict[str, int]:
    """What the team bought for the fixture, by item (none: no fixture, or bought nothing)."""
    if fixture is None:
        return {}
    return dict(fixture.inducements.get(team, {}).get("purchases", {}))


def bought_any(fixture: MatchRow | None, team: str) -> bool:
    """Whether the team has bought its inducements for the fixture (none counts): a team
    buys them once a fixture."""
    return fixture is not None and team in fixture.inducements


def induced(purchases: Mapping[str, int], stars: Mapping[str, StarPlayer]) -> set[str]:
    """The stars a team may field: those it bought, and the partner of a pair bought."""
    ids = {item for item, count in purchases.items() if item in stars and count > 0}
    return ids | {stars[i].pair_with or i for i in ids}


def not_induced(match: str, team: str, star: StarPlayer, bought_once: bool) -> str:
    """Why a star did not play, and what to do: buy him, or (inducements being bought
    once a fixture) correct the purchase that left him out."""
    said = f"{star.name} was not induced by {team} for {match}: Star Players are Inducements"
    if bought_once:
        return (
            f"{said}, and {team} bought theirs for {match} without him (void that purchase"
            " and buy again)"
        )
    bought_as = star.id if not (star.pair_with and star.cost == 0) else star.pair_with
    return f"{said} (buy {bought_as} among {possessive(team)} inducements for {match})"


def report_problems(
    match: str,
    sheet: TeamSheet,
    team_list: TeamList,
    purchases: Mapping[str, int],
    stars: Mapping[str, StarPlayer],
    bought_once: bool = False,
) -> list[str]:
    """Why the report's stars could not have played for the team: each one must play for
    its list, have been induced for this fixture, be named once, and have been paid for
    there (no price on his line). ``bought_once``: the team has bought its inducements
    for the fixture already, so a star left out can no longer be bought for it."""
    hired = [h for h in sheet.hirelings if h.kind == "star"]
    bought = induced(purchases, stars)
    problems = [
        p
        for h in hired
        for p in line_problems(match, sheet.team, team_list, h, bought, stars, bought_once)
    ]
    named = [h.star for h in hired if h.star]
    if len(set(named)) < len(named):
        problems.append(f"{sheet.team} named the same Star Player twice")
    return problems


def line_problems(
    match: str,
    team: str,
    team_list: TeamList,
    h: Hireling,
    bought: set[str],
    stars: Mapping[str, StarPlayer],
    bought_once: bool = False,
) -> Sequence[str]:
    star = stars.get(h.star or "")
    if star is None:
        return [f"{h.name}: name the Star Player by his id (star: ...), not '{h.star or ''}'"]
    if not eligible(star, team_list):
        return [
            f"{star.name} does not play for {team_list.name} teams ({', '.join(star.plays_for)})"
        ]
    if star.id not in bought:
        return [not_induced(match, team, star, bought_once)]
    if h.price:
        return [
            f"{star.name} was paid for when induced; his report line takes no price"
            f" (not {h.price:,})"
        ]
    return []
