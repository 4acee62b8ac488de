"""Bounties (seed 000, ZAL 21 'BOUNTIES', the Aarhus Tradition).

A bounty is posted from a team's treasury onto a player's Wanted Poster (``BountyPosted``;
the fold keeps the poster in the player's ``extras["bounty"]``) and may be added to by
anyone. It is paid in full to the opposing team once the player is killed 'in a manner
giving the attacker SPP': a block or a foul (ZAL 16b), not a card that needs no action,
the crowd, a wizard or a death of his own making. A player saved by an apothecary or
regeneration was not killed, and the poster stays up.

Worked example: 40,000 on Griff; a Black Orc blocks him and rolls 64 on the Casualty
Table: Dead, so the Black Orc's team receives 40,000. Had Griff died falling on a Go For
It, nobody would be paid.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ledger.domain.events import MatchRecorded
from ledger.domain.state import PlayerRow
from ledger.domain.values import Casualty
from ledger.rules.effects import Effects, Gold


def team_of(match: MatchRecorded, player: str) -> str | None:
    for sheet in match.sheets():
        if any(p.player == player for p in sheet.players) or any(
            h.id == player for h in sheet.hirelings
        ):
            return sheet.team
    return None


def payouts(
    match: MatchRecorded,
    victims: Callable[[], Mapping[str, PlayerRow]],
    earns_spp: Callable[[Casualty], bool],
) -> Effects:
    """``victims``: the players of the match by id, asked only when someone was killed
    (most games: nobody, and no roster to gather)."""
    deaths = [c for c in match.casualties if c.killed]
    if not deaths:
        return []
    players = victims()
    effects: Effects = []
    for casualty in deaths:
        victim = players.get(casualty.victim)
        bounty = int(victim.extras.get("bounty", 0)) if victim else 0
        if not bounty:
            continue
        killer = team_of(match, casualty.inflicted_by) if casualty.inflicted_by else None
        if killer is None or not earns_spp(casualty):
            continue
        note = f"bounty on {victim.name if victim else casualty.victim} (ZAL 21)"
        effects.append(Gold(team=killer, amount=bounty, kind="bounty", note=note))
    return effects
