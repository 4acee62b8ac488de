"""What a BB2025 match report may say about All-Star games and referees (seed 003).

'All-Star Rosters': "An All-Star roster may only ever have a maximum of 16 players", all
Star Players; "a Star Player can only play for one team at a time"; "Star Players that
come as a pair, such as the Swift Twins or Grak & Crumbleberry, must be selected
together". The game itself is an exhibition with no post-game sequence (the ruleset
returns no effects for it).

'Referee Rules': "coaches will need to choose which Referee they are going to use": a
generic Referee, Redkur Forgebeard or Elnos Lawkeeper.
"""

from __future__ import annotations

from collections.abc import Mapping

from ledger.domain.events import MatchRecorded
from ledger.rules.schema import StarPlayer

ALL_STAR_ROSTER = 16
REFEREES = {"generic": "generic", "elnos lawkeeper": "Elnos Lawkeeper",
            "redkur forgebeard": "Redkur Forgebeard"}  # fmt: skip


def all_star_problems(
    match: MatchRecorded, stars: Mapping[str, StarPlayer], book: str
) -> list[str]:
    """Why these All-Star rosters could not have been drafted, if they could not."""
    problems: list[str] = []
    sides: dict[str, str] = {}
    for sheet in match.sheets():
        hired = {h.id: h for h in sheet.hirelings}
        others = [h.name for h in sheet.hirelings if h.kind != "star"]
        if others:
            problems.append(f"{sheet.team}: an All-Star roster is Star Players, not {others[0]}")
        own = [p.player for p in sheet.players if p.player not in hired]
        if own:
            problems.append(
                f"{sheet.team}: '{own[0]}' is not one of the side's Star Players"
                " (list them under hirelings)"
            )
        if len(hired) > ALL_STAR_ROSTER:
            problems.append(
                f"{sheet.team} fielded {len(hired)} Star Players; an All-Star roster has"
                f" at most {ALL_STAR_ROSTER}"
            )
        for h in sheet.hirelings:
            if h.kind != "star" or h.star is None:
                continue
            if h.star not in stars:
                problems.append(f"{sheet.team}: {book} has no star player '{h.star}'")
            elif sides.setdefault(h.star, sheet.team) != sheet.team:
                problems.append(f"{stars[h.star].name} cannot play for both sides")
    for star, team in sides.items():
        partner = stars[star].pair_with if star in stars else None
        if partner and sides.get(partner) != team:
            problems.append(
                f"{stars[star].name} and {stars[partner].name} come as a pair and play"
                " on the same side"
            )
    return problems


def referee_problem(referee: str | None) -> str | None:
    if referee is None or " ".join(referee.replace("_", " ").lower().split()) in REFEREES:
        return None
    return f"the referee is one of {', '.join(REFEREES.values())}, not '{referee}'"
