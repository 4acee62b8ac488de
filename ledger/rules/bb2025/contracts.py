"""Spike! Almanac 2021 'Long Term Contracts' (seed 003), an option of ``bb2025``.

Each team signs one Star Player a season, for free; the star counts in TV, cannot be fired,
treats a Serious Injury, Lasting Injury or death as Seriously Hurt, and earns no SPP and no
MVP. Draw order: first season, names from a hat; later seasons, new teams first (drawn),
then existing teams from the bottom of last season's table (ranked as one division) up.
Re-signed by the same team, a star loses Loner ('A Familiar Face').

Worked example ('Subsequent Seasons'): after new coaches Sam, Nic and Luke, the order is
Rob, Dan, Steve, Louise, James, Keith, Xavier, Shane, Gavin and finally Jay, who won.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ledger.rules.schema import StarPlayer, TeamList

SERIOUS = ("serious_injury", "lasting_injury", "dead")


def draft_order(new_teams_drawn: Sequence[str], last_table: Sequence[str]) -> list[str]:
    """New teams in the order drawn, then existing teams from last place to first."""
    existing = [t for t in last_table if t not in new_teams_drawn]
    return [*new_teams_drawn, *reversed(existing)]


def eligible(star: StarPlayer, team_list: TeamList) -> bool:
    labels = {team_list.id, *team_list.special_rules, "any"}
    return bool(labels & set(star.plays_for))


def may_sign(
    star: StarPlayer, team_list: TeamList, stars: Iterable[StarPlayer], signed: set[str]
) -> bool:
    """Eligible, or, when every eligible star is taken, any unsigned star ('Signing Star
    Players': "a coach may select any other currently unsigned Star Player"). A pair is
    signed under its priced star, his partner with him (as it is induced)."""
    if not unsigned(star, signed):
        return False
    if eligible(star, team_list):
        return True
    return not any(eligible(s, team_list) and unsigned(s, signed) for s in stars)


def unsigned(star: StarPlayer, signed: set[str]) -> bool:
    """Whether the star may still be signed: neither he nor his partner is, and he is not
    the half of a pair who comes with the other."""
    return not star.partner_only and not {star.id, star.pair_with} & signed
