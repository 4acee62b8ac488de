"""Appearance fees (seed 002, PLAYING LEAGUE MATCHES / APPEARANCE FEES).

"When a player reaches 51 or more SPPs, he starts demanding an appearance fee in order to play
in a match ... If he does not have the money, or he decides not to pay up, then the player will
not play. The player is still placed in the reserves box ... and still counts towards the teams
team rating, for 'throw a rock', and even MVPs". Star Players count "a number of SPPs equal to
their cost divided by a thousand". The league chooses the level: Monty Haul (no fees),
Laissez-Faire or Balanced.

Q&A: "Do freebooted star players charge an appearance fee? A: Yes." A freebooted star is a
report's one-game player (``hirelings``, kind ``star``) whose ``price`` is his cost, paid to
freeboot him (gold4 has no star list to read it from): he counts cost / 1,000 SPP too, and
his fee is paid before the report under the id his hireling line will carry
(``ledger match fees MATCH TEAM zug=120000``; on the web, the game's fees page).

Payments are ``AppearanceFeesPaid`` events; the fold records what was paid for each id on the
team (``TeamRow.fees_paid``, by match), which is what the check below reads: a freebooted
star's fee must cover the cost his report line gives, not only have been paid for his id.

Worked example: The Mighty Zug costs 120,000, so he counts as 120 SPP: in a Balanced league he
asks 50,000 before every match, from the very first - on the roster or freebooted.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ledger.domain.events import MatchRecorded
from ledger.domain.state import PlayerRow
from ledger.domain.values import Casualty, Hireling, Performance, TeamSheet
from ledger.rules.gold4.tables import FeeLevel, load_gold4_tables
from ledger.rules.rows import MatchRows

FEE_KIND = "appearance fee"
ROCK = "other"
"""Casualty cause a report uses for Throw a Rock, which may hit an unpaid player."""


def fee(player: PlayerRow, level: FeeLevel) -> int:
    if player.kind == "star":
        return star_fee(player.base_cost, level)
    return spp_fee(player.spp_earned, level)


@cache
def spp_fee(spp: int, level: FeeLevel) -> int:
    """The fee for a player with ``spp`` SPPs, looked up once per figure: the what-if
    replay asks it of every player before every match."""
    return load_gold4_tables().tables.appearance_fees.fee(spp, level)


def star_fee(cost: int, level: FeeLevel) -> int:
    """A Star Player's fee: 'a number of SPPs equal to their cost divided by a thousand'."""
    fees = load_gold4_tables().tables.appearance_fees
    return spp_fee(fees.star_player_spp(cost), level)


def paid_for(rows: MatchRows, team_id: str, match_id: str) -> dict[str, int]:
    """What the team paid for this match, by player or hireling id (recorded on the team)."""
    team = rows.team(team_id)
    return dict(team.fees_paid.get(match_id, {})) if team is not None else {}


def problems(match: MatchRecorded, rows: MatchRows, level: FeeLevel) -> list[str]:
    if match.kind == "unplayed":
        return []
    found: list[str] = []
    for sheet in match.sheets():
        paid = paid_for(rows, sheet.team, match.match)
        for player in unpaid_players(sheet, rows, level, paid):
            if took_the_field(player.player_id, sheet, match.casualties):
                found.append(
                    f"{player.name} ({player.spp_earned} SPP) asks an appearance fee of"
                    f" {fee(player, level):,} that {rows.team_name(sheet.team)} did not pay"
                    f" for {match.match}: he does not play" + pay_first(match.match, player.name)
                )
        found += freebooted_star_problems(match, sheet, rows.team_name(sheet.team), paid, level)
    return found


def pay_first(match: str, ref: str) -> str:
    """How the fee is paid before the report, in the league's words: as the match's
    appearance fees (its page, the API's ``appearance-fees``, ``ledger match fees``)."""
    return f" unless it is paid first, with {match}'s appearance fees ({ref})"


def freebooted_star_problems(
    match: MatchRecorded, sheet: TeamSheet, team: str, paid: dict[str, int], level: FeeLevel
) -> list[str]:
    found = []
    for star in (h for h in sheet.hirelings if h.kind == "star"):
        if star.price <= 0:
            found.append(
                f"freebooted star {star.name}: give his cost as his price (gold4 has no star"
                " list; his fee counts cost / 1,000 SPP)"
            )
        elif paid.get(star.id, 0) < star_fee(star.price, level) and unpaid_star_played(
            star, sheet, match, level
        ):
            short = f" (paid {paid[star.id]:,})" if star.id in paid else ""
            found.append(
                f"freebooted star {star.name} (cost {star.price:,}) asks an appearance fee of"
                f" {star_fee(star.price, level):,} that {team} did not pay{short} for"
                f" {match.match}: he does not play"
                + pay_first(match.match, f"the star as {star.id}, cost {star.price}")
            )
    return found


def unpaid_star_played(
    star: Hireling, sheet: TeamSheet, match: MatchRecorded, level: FeeLevel
) -> bool:
    return star_fee(star.price, level) > 0 and took_the_field(star.id, sheet, match.casualties)


def unpaid_players(
    sheet: TeamSheet, rows: MatchRows, level: FeeLevel, paid: dict[str, int]
) -> list[PlayerRow]:
    found = (rows.player(p.player) for p in sheet.players)
    return [
        row
        for row in found
        if row is not None and row.player_id not in paid and fee(row, level) > 0
    ]


def took_the_field(player_id: str, sheet: TeamSheet, casualties: Sequence[Casualty]) -> bool:
    """An unpaid player may still be given the MVP or be hit by a rock; anything else he did
    or suffered happened on the pitch."""
    performance = next((p for p in sheet.players if p.player == player_id), None)
    on_pitch = any(
        (c.inflicted_by == player_id) or (c.victim == player_id and c.cause != ROCK)
        for c in casualties
    )
    return on_pitch or (performance is not None and played(performance))


def played(performance: Performance) -> bool:
    counters = performance.model_dump(exclude={"player", "mvps"})
    return any(bool(value) for value in counters.values())
