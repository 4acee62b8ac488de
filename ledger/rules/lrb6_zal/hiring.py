"""Star Players, mercenaries, freebooters and journeymen (seed 000: ZAL 3f-3h, 3k, 8a).

Star Players join 'from the second match onwards', never twice in a team, at most 3 and
500,000 in list value between them (3f-3h). A player hired for one game (mercenary, or a
Star Player as a freebooter) costs half his list price; signed after the game he costs his
full price plus a rise for the SPP he collected (3k). Journeymen are free Linemen with
Loner, only to make up 11 players, and signed at full price with no rise (8a).

Worked example: a mercenary Human Blitzer costs 45,000 for the game. He scores a touchdown
(3 SPP); signing him afterwards costs 90,000 + 5,000 = 95,000 (3k: '1-5 up 5000 Gold').
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.domain.state import ON_ROSTER, PlayerRow, TeamRow
from ledger.domain.values import Hireling
from ledger.rules.lrb6_zal.tables import Tables
from ledger.rules.schema import StarPlayer


def one_game_price(t: Tables, list_price: int) -> int:
    """ZAL 3k: 'Mercenary/Freebooter - for half price'."""
    return list_price // t.hirelings.one_game_divisor


def price_rise(t: Tables, spp: int) -> int:
    """ZAL 3k: '1-5 up 5000 Gold; 6-15 up 10,000 Gold; 16-30 up 20,000 Gold, etc.'"""
    return next(b.rise for b in t.hirelings.price_rise if b.holds(spp))


def signing_price(t: Tables, list_price: int, kind: str, spp: int) -> int:
    """Signing a one-game player: full price, plus the SPP rise unless a journeyman (8a)."""
    return list_price + (0 if kind == "journeyman" else price_rise(t, spp))


def star_problems(
    t: Tables,
    team: TeamRow,
    star: StarPlayer,
    stars_held: Sequence[StarPlayer],
) -> list[str]:
    """ZAL 3f-3h for one more Star Player, permanent or for one match."""
    problems = []
    if not star.plays_for_list(team.roster):
        problems.append(f"{star.name} does not play for {team.roster} teams")
    if team.games + 1 < t.stars.from_match:
        problems.append(
            f"{team.name} have played {team.games} matches: Star Players only from the"
            f" second match onwards (ZAL 3f)"
        )
    if any(s.id == star.id for s in stars_held):
        problems.append(f"{team.name} already have {star.name} (ZAL 3g: no duplicates)")
    if len(stars_held) + 1 > t.stars.max_count:
        problems.append(
            f"{team.name} already have {len(stars_held)} Star Players (at most"
            f" {t.stars.max_count}, ZAL 3h)"
        )
    total = sum(s.cost for s in stars_held) + star.cost
    if total > t.stars.max_total:
        problems.append(
            f"Star Players worth {total:,} in all would pass the {t.stars.max_total:,}"
            f" limit (ZAL 3h)"
        )
    return problems


def roster_stars(players: Sequence[PlayerRow]) -> list[str]:
    """Star ids of the Star Players on a roster."""
    return [p.position for p in players if p.kind == "star" and p.status in ON_ROSTER]


def journeymen_allowed(t: Tables, available: int, others_hired: int) -> int:
    """ZAL 8a: journeymen only 'until 11 players can be fielded'."""
    return max(0, t.hirelings.full_team - available - others_hired)


def price_problem(hireling: Hireling, expected: int, what: str) -> list[str]:
    if hireling.price == expected:
        return []
    return [f"{hireling.name} ({what}) costs {expected:,} for one match, not {hireling.price:,}"]
