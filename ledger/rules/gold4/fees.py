"""Appearance fees (seed 002, PLAYING LEAGUE MATCHES / APPEARANCE FEES).

"When a player reaches 51 or more SPPs, he starts demanding an appearance fee in order to play
in a match ... If he does not have the money, or he decides not to pay up, then the player will
not play. The player is still placed in the reserves box ... and still counts towards the teams
team rating, for 'throw a rock', and even MVPs". Star Players count "a number of SPPs equal to
their cost divided by a thousand". The league chooses the level: Monty Haul (no fees),
Laissez-Faire or Balanced.

Payments are ``AppearanceFeesPaid`` events; the fold books each fee as a treasury line of kind
"appearance fee" with the note "<match>: <player id>", which is what the check below reads.

Worked example: The Mighty Zug costs 120,000, so he counts as 120 SPP: in a Balanced league he
asks 50,000 before every match, from the very first.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.domain.events import MatchRecorded
from ledger.domain.state import LeagueView, PlayerRow, TeamRow
from ledger.domain.values import Casualty, Performance, TeamSheet
from ledger.rules.gold4.tables import FeeLevel, load_gold4_tables

FEE_KIND = "appearance fee"
ROCK = "other"
"""Casualty cause a report uses for Throw a Rock, which may hit an unpaid player."""


def fee(player: PlayerRow, level: FeeLevel) -> int:
    fees = load_gold4_tables().tables.appearance_fees
    spp = fees.star_player_spp(player.base_cost) if player.kind == "star" else player.spp_earned
    return fees.fee(spp, level)


def paid_for(view: LeagueView, league_id: str, team_id: str, match_id: str) -> set[str]:
    """Player ids whose fee the team paid for this match (recorded on the team)."""
    team = view.get(TeamRow, league_id, team_id)
    return set(team.fees_paid.get(match_id, ())) if team is not None else set()


def problems(match: MatchRecorded, view: LeagueView, league_id: str, level: FeeLevel) -> list[str]:
    if match.kind == "unplayed":
        return []
    found: list[str] = []
    for sheet in match.sheets():
        paid = paid_for(view, league_id, sheet.team, match.match)
        for player in unpaid_players(sheet, view, league_id, level, paid):
            if took_the_field(player.player_id, sheet, match.casualties):
                found.append(
                    f"{player.name} ({player.spp_earned} SPP) asks an appearance fee of"
                    f" {fee(player, level):,} that {sheet.team} did not pay for {match.match}:"
                    f" he does not play (run 'ledger match fees {match.match} {sheet.team}"
                    f" {player.player_id}' first)"
                )
    return found


def unpaid_players(
    sheet: TeamSheet, view: LeagueView, league_id: str, level: FeeLevel, paid: set[str]
) -> list[PlayerRow]:
    rows = (view.get(PlayerRow, league_id, p.player) for p in sheet.players)
    return [
        row for row in rows if row is not None and row.player_id not in paid and fee(row, level) > 0
    ]


def took_the_field(player_id: str, sheet: TeamSheet, casualties: Sequence[Casualty]) -> bool:
    """An unpaid player may still be given the MVP or be hit by a rock; anything else he did
    or suffered happened on the pitch."""
    performance = next(p for p in sheet.players if p.player == player_id)
    on_pitch = any(
        (c.inflicted_by == player_id) or (c.victim == player_id and c.cause != ROCK)
        for c in casualties
    )
    return on_pitch or played(performance)


def played(performance: Performance) -> bool:
    counters = performance.model_dump(exclude={"player", "mvps"})
    return any(bool(value) for value in counters.values())
