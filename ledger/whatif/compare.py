"""The comparison: the real season and its what-if, side by side, as one document.

Both sides are read with the same questions (``Queries.over`` a replay's store, the
league's ruleset for the real one, the target for the what-if), so a difference is always
a difference of the rules, never of the reading. Teams come in the real table's order
(division, then place); players only where their SPP, advancements, value or status
differ; play-off places as the season's play-off rule gives them from each table.

Worked example: a team 2nd on 7 points in BB2025 and 1st on 9 in lrb6-zal has
``rank_change == 1`` (it climbs one place); its TV 1,050,000 and TR 107 sit side by side
with their own labels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict

from ledger.application.context import Context
from ledger.application.seasons import division_tables, ranking_key
from ledger.domain.state import MatchRow, PlayerRow, SeasonRow, TeamRow
from ledger.projections.queries import Queries, Standings, TableRow
from ledger.rules import playoffs
from ledger.rules.protocol import Ruleset
from ledger.whatif.divergence import Divergence
from ledger.whatif.replay import Outcome, league_row
from ledger.words import taken


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Edition(Model):
    ruleset: str
    name: str
    options: dict[str, Any]
    value_labels: dict[str, str]
    rating_key: str


class TeamFigures(Model):
    roster: str
    rank: int | None
    """Place in the team's division of the compared season (None: not in it)."""
    points: int
    played: int
    won: int
    drawn: int
    lost: int
    rating: int
    values: dict[str, int]
    treasury: int
    fans: int


class Dice(Model):
    recorded: int
    simulated: int


class TeamComparison(Model):
    team_id: str
    name: str
    division: str
    actual: TeamFigures
    whatif: TeamFigures
    rank_change: int | None
    """Places gained in the what-if (negative: lost)."""
    dice: Dice
    """Rolls of the team's figures in the what-if: reused from the log, or simulated."""


class PlayerFigures(Model):
    position: str
    spp: int
    spp_earned: int
    advancements: list[str]
    value: int
    status: str


class PlayerComparison(Model):
    player_id: str
    name: str
    team_id: str
    actual: PlayerFigures | None
    whatif: PlayerFigures | None


class Playoffs(Model):
    places: int
    actual: list[str]
    whatif: list[str]
    qualify: list[str]
    """Teams that reach the play-offs only in the what-if."""
    miss: list[str]
    """Teams that miss them only in the what-if."""


class Comparison(Model):
    """The whole what-if of one league's season, as ``ledger whatif --json`` prints it."""

    league: str
    name: str
    season: int
    seed: int
    actual: Edition
    whatif: Edition
    teams: list[TeamComparison]
    players: list[PlayerComparison]
    playoffs: Playoffs | None
    divergences: list[Divergence]
    dice: Dice


def edition(ruleset: Ruleset) -> Edition:
    return Edition(
        ruleset=ruleset.id,
        name=ruleset.name,
        options=ruleset.options.model_dump(mode="json"),
        value_labels=dict(ruleset.value_labels),
        rating_key=ruleset.rating_key,
    )


def played_season(outcome: Outcome) -> int | None:
    """The latest season with a game played (a season just started has an empty table)."""
    matches = outcome.store.select(MatchRow, league_id=outcome.league_id)
    return max((m.season for m in matches if m.status == "played" and m.season), default=None)


def standings_of(outcome: Outcome, ruleset: Ruleset, season: int | None) -> Standings:
    return Queries.over(outcome.store, league_row(outcome), ruleset).standings(season)


def flat(standings: Standings) -> dict[str, TableRow]:
    return {row.team_id: row for rows in standings.divisions.values() for row in rows}


def compare(
    actual: Outcome,
    whatif: Outcome,
    source: Ruleset,
    target: Ruleset,
    season: int | None = None,
    seed: int = 0,
) -> Comparison:
    chosen = season or played_season(actual)
    real = standings_of(actual, source, chosen)
    other = flat(standings_of(whatif, target, chosen))
    league = league_row(actual)
    placed = flat(real)
    teams = [
        team_comparison(actual, whatif, row, other.get(row.team_id)) for row in placed.values()
    ]
    teams += [unplaced(actual, whatif, t) for t in teams_of(actual) if t.team_id not in placed]
    return Comparison(
        league=league.slug,
        name=league.name,
        season=real.season,
        seed=seed,
        actual=edition(source),
        whatif=edition(target),
        teams=teams,
        players=player_comparisons(actual, whatif),
        playoffs=playoff_changes(actual, whatif, source, target, real.season),
        divergences=whatif.divergences,
        dice=Dice(recorded=sum(whatif.recorded.values()), simulated=sum(whatif.simulated.values())),
    )


def team_row(outcome: Outcome, team_id: str) -> TeamRow:
    found = outcome.store.get(TeamRow, outcome.league_id, team_id)
    assert found is not None  # both replays register the same teams
    return found


def figures(team: TeamRow, row: TableRow | None) -> TeamFigures:
    standing = row.row if row is not None else None
    return TeamFigures(
        roster=team.roster,
        rank=row.rank if row is not None else None,
        points=standing.points if standing else 0,
        played=standing.played if standing else 0,
        won=standing.won if standing else 0,
        drawn=standing.drawn if standing else 0,
        lost=standing.lost if standing else 0,
        rating=team.rating,
        values=dict(sorted(team.values.items())),
        treasury=team.treasury,
        fans=team.fans,
    )


def teams_of(outcome: Outcome) -> list[TeamRow]:
    return sorted(
        outcome.store.select(TeamRow, league_id=outcome.league_id), key=lambda t: t.team_id
    )


def unplaced(actual: Outcome, whatif: Outcome, team: TeamRow) -> TeamComparison:
    """A team not in the compared season's table (registered, not yet playing)."""
    return TeamComparison(
        team_id=team.team_id,
        name=team.name,
        division="",
        actual=figures(team, None),
        whatif=figures(team_row(whatif, team.team_id), None),
        rank_change=None,
        dice=Dice(
            recorded=whatif.recorded.get(team.team_id, 0),
            simulated=whatif.simulated.get(team.team_id, 0),
        ),
    )


def team_comparison(
    actual: Outcome, whatif: Outcome, row: TableRow, other: TableRow | None
) -> TeamComparison:
    team = team_row(actual, row.team_id)
    ours, theirs = figures(team, row), figures(team_row(whatif, row.team_id), other)
    change = ours.rank - theirs.rank if ours.rank and theirs.rank else None
    return TeamComparison(
        team_id=row.team_id,
        name=team.name,
        division=row.division,
        actual=ours,
        whatif=theirs,
        rank_change=change,
        dice=Dice(
            recorded=whatif.recorded.get(row.team_id, 0),
            simulated=whatif.simulated.get(row.team_id, 0),
        ),
    )


# --- players -----------------------------------------------------------------------------------


def player_figures(player: PlayerRow | None) -> PlayerFigures | None:
    if player is None:
        return None
    return PlayerFigures(
        position=player.position,
        spp=player.spp,
        spp_earned=player.spp_earned,
        advancements=[taken(a) for a in player.advancements],
        value=player.value,
        status=player.status,
    )


def players_of(outcome: Outcome) -> dict[str, PlayerRow]:
    return {p.player_id: p for p in outcome.store.select(PlayerRow, league_id=outcome.league_id)}


def player_comparisons(actual: Outcome, whatif: Outcome) -> list[PlayerComparison]:
    ours, theirs = players_of(actual), players_of(whatif)
    found = []
    for player_id in sorted(set(ours) | set(theirs), key=player_order):
        a, b = player_figures(ours.get(player_id)), player_figures(theirs.get(player_id))
        if a == b or (a is not None and b is not None and same_but_position(a, b)):
            continue
        known = ours.get(player_id) or theirs[player_id]
        found.append(
            PlayerComparison(
                player_id=player_id, name=known.name, team_id=known.team_id, actual=a, whatif=b
            )
        )
    return sorted(found, key=lambda p: (p.team_id, player_order(p.player_id)))


def same_but_position(a: PlayerFigures, b: PlayerFigures) -> bool:
    """A position renamed by the mapping (Clanrat, Lineman) is not a difference of figures."""
    return a.model_copy(update={"position": b.position}) == b


def player_order(player_id: str) -> tuple[int, str]:
    digits = "".join(ch for ch in player_id if ch.isdigit())
    return (int(digits) if digits else 0, player_id)


# --- play-offs ---------------------------------------------------------------------------------


def qualifiers(outcome: Outcome, ruleset: Ruleset, season: int) -> tuple[int, list[str]]:
    league = league_row(outcome)
    row = outcome.store.get(SeasonRow, outcome.league_id, season)
    if row is None or row.playoff_teams <= 0:
        return 0, []
    context = Context(view=outcome.store, league=league, ruleset=ruleset)
    key: Callable[[str], tuple[int, ...]] = ranking_key(context, season)
    found = playoffs.qualifiers(division_tables(context, row), row.playoff_teams, key)
    return row.playoff_teams, [team for team, _, _ in found]


def playoff_changes(
    actual: Outcome, whatif: Outcome, source: Ruleset, target: Ruleset, season: int
) -> Playoffs | None:
    places, ours = qualifiers(actual, source, season)
    if not places:
        return None
    _, theirs = qualifiers(whatif, target, season)
    return Playoffs(
        places=places,
        actual=ours,
        whatif=theirs,
        qualify=sorted(set(theirs) - set(ours)),
        miss=sorted(set(ours) - set(theirs)),
    )
