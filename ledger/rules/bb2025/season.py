"""The end of a BB2025 season: 'Glittering Prizes' (seed 001).

"3RD PLACE: 30,000 gold pieces; 2ND PLACE: 60,000; 1ST PLACE: 100,000 gold pieces and the
League Trophy." Prizes come "after the final Post-game Sequence and so are not taken into
account for the Expensive Mistakes step"; the Trophy's re-roll counts in TV while held,
"until the end of the next Season". With the Spike! 2021 long-term contracts, every star's
contract expires at the end of the season.

Without play-offs, the places are read from the league table, all divisions ranked as one
(the reading the Spike! Almanac uses for its star draft order; docs/rulesets.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.domain.events import SeasonClosed
from ledger.domain.state import MatchRow, StandingRow
from ledger.domain.values import Fixture
from ledger.rules.bb2025.tables import Tables
from ledger.rules.effects import Effects, Gold, Leaves, Trophy
from ledger.rules.playoffs import loser
from ledger.rules.protocol import Ranked
from ledger.rules.rows import SeasonRows

ORDINALS = ("1st", "2nd", "3rd")


def podium(matches: Sequence[MatchRow], table: Sequence[Ranked]) -> list[str]:
    """The teams placed 1st, 2nd and 3rd. The play-offs place as far as they go (the
    final, the third-place game); a place they leave open goes to the team that went
    furthest without one, a semi-final's loser before a team that did not qualify, and
    among those to the higher in the league table: a play-off of two teams still has a
    3rd place (seed 001 'Glittering Prizes' pays "the teams that came in 1st, 2nd and
    3rd place"; docs/rulesets.md)."""
    final = next((m for m in matches if m.stage == "final" and m.winner), None)
    if final is None:
        return [r.team_id for r in table[:3]]
    places = [final.winner or ""]
    if final.others:  # a Dungeon Bowl final places its winner only (docs/rulesets.md)
        return places
    places.append(loser(as_fixture(final), places[0]))
    third = next((m for m in matches if m.stage == "third-place" and m.winner), None)
    if third is not None and third.winner:
        places.append(third.winner)
    semi_losers = {
        loser(as_fixture(m), m.winner) for m in matches if m.stage == "semi-final" and m.winner
    }
    rest = [r.team_id for r in table if r.team_id not in places]
    rest.sort(key=lambda team: team not in semi_losers)  # stable: table order within each
    return places + rest[: 3 - len(places)]


def as_fixture(match: MatchRow) -> Fixture:
    return Fixture(
        id=match.match_id,
        round=match.round or 1,
        division=match.division,
        home=match.home,
        away=match.away,
        stage=match.stage,
    )


def outcomes(
    t: Tables,
    event: SeasonClosed,
    rows: SeasonRows,
    table: Sequence[Ranked],
    contracts: bool,
) -> Effects:
    places = podium(rows.matches, table)
    effects: Effects = [
        Gold(
            team=team,
            amount=prize,
            kind="prize",
            note=f"{ORDINALS[i]} place, season {event.season}",
        )
        for i, (team, prize) in enumerate(zip(places, t.prizes, strict=False))
    ]
    if places:
        for holder in rows.trophy_holders:
            if holder.team_id != places[0]:
                effects.append(Trophy(team=holder.team_id, held=False))
        effects.append(Trophy(team=places[0], held=True))
    if contracts:
        effects += [
            Leaves(player=p.player_id, note="contract expired")
            for p in rows.league_stars
            if p.status == "active"
        ]
    return effects


def whole_league(standings: Sequence[StandingRow]) -> list[StandingRow]:
    return [row.model_copy(update={"division": ""}) for row in standings]
