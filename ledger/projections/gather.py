"""Gather the rows a ruleset is given (``ledger/rules/rows.py``) from a league's state.

The fold, the commands and the what-if replays call these with the state they hold; the
ruleset then reads nothing else. Each function reads what its bundle's docstring names,
through ``LeagueView``'s ``get`` and ``select`` (an in-memory dict in the fold, the SQL
read models for a command); a fold that keeps direct indexes builds the same bundles from
them without a query.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from operator import attrgetter

from ledger.domain.events import CardPlayed, MatchRecorded, PlayerHired
from ledger.domain.state import (
    LeagueRow,
    LeagueView,
    MatchRow,
    PlayerRow,
    StandingRow,
    TeamRow,
    roster_of,
)
from ledger.rules.protocol import Ruleset
from ledger.rules.rows import HireRows, MatchRows, RedraftRows, SeasonRows, TeamRows


def team_rows(view: LeagueView, league_id: str, team: TeamRow, everyone: bool) -> TeamRows:
    """The team with its current roster (kept by the fold's store: no query), or with
    every player the books hold for it (``everyone``: former players are read back)."""
    if everyone:
        players = view.select(PlayerRow, league_id=league_id, team_id=team.team_id)
    else:
        players = roster_of(view, league_id, team.team_id)
    return TeamRows(team=team, players=tuple(players))


def teams_rows(
    view: LeagueView, league_id: str, team_ids: Iterable[str], everyone: bool
) -> dict[str, TeamRows]:
    """The registered teams among ``team_ids``, in that order."""
    found: dict[str, TeamRows] = {}
    for team_id in team_ids:
        team = view.get(TeamRow, league_id, team_id)
        if team is not None and team_id not in found:
            found[team_id] = team_rows(view, league_id, team, everyone)
    return found


PLAYER_ID = attrgetter("player_id")


def named_players(
    view: LeagueView, league_id: str, match: MatchRecorded, teams: Mapping[str, TeamRows]
) -> tuple[dict[str, PlayerRow], frozenset[str]]:
    """The players a report names who are not among ``teams``' players (usually none),
    and the ids it names that no player of the books holds (``MatchRows.strangers``)."""
    ids = match.named_players()
    for side in teams.values():
        ids.difference_update(map(PLAYER_ID, side.players))  # no set of them made
    found, strangers = {}, set()
    for player_id in sorted(ids):
        row = view.get(PlayerRow, league_id, player_id)
        if row is None:
            strangers.add(player_id)
        else:
            found[player_id] = row
    return found, frozenset(strangers)


def league_stars(view: LeagueView, league_id: str) -> tuple[PlayerRow, ...]:
    return tuple(view.select(PlayerRow, league_id=league_id, kind="star"))


def match_rows(
    view: LeagueView,
    league_id: str,
    match: MatchRecorded,
    ruleset: Ruleset,
    *,
    checking: bool = False,
) -> MatchRows:
    """The teams of a report (home, away, and any others: a Dungeon Bowl final's) with the
    players ``ruleset`` reads, the players the report names besides, and the match's own
    row; the league's stars too when ``checking`` (for ``check_match``) with a ruleset
    whose checks read them."""
    wanted = checking and ruleset.reads_league_stars
    ids: tuple[str, ...] = (match.home.team, match.away.team)
    if match.others:
        ids += tuple(sheet.team for sheet in match.others)
    teams = teams_rows(view, league_id, ids, ruleset.reads_former_players)
    named, strangers = named_players(view, league_id, match, teams)
    return MatchRows(
        teams=teams,
        fixture=view.get(MatchRow, league_id, match.match),
        named=named,
        league_stars=league_stars(view, league_id) if wanted else (),
        strangers=strangers,
    )


def card_rows(view: LeagueView, league_id: str, event: CardPlayed) -> MatchRows:
    """Every team of the league (a card names its target by team, player id or name) and
    the match the card names."""
    teams = view.select(TeamRow, league_id=league_id)
    return MatchRows(
        teams={t.team_id: team_rows(view, league_id, t, everyone=True) for t in teams},
        fixture=view.get(MatchRow, league_id, event.match) if event.match else None,
    )


def hire_rows(
    view: LeagueView,
    league_id: str,
    team: TeamRow,
    event: PlayerHired,
    players: Iterable[PlayerRow],
    checking: Ruleset | None = None,
) -> HireRows:
    """The hiring team with the ``players`` the caller holds, the match a hireling is
    signed from, and the league's stars when ``checking`` is a ruleset whose
    ``check_hire`` reads them."""
    side = TeamRows(team=team, players=tuple(players))
    signed = view.get(MatchRow, league_id, event.from_match) if event.from_match else None
    wanted = checking is not None and checking.reads_league_stars
    stars = league_stars(view, league_id) if wanted else ()
    return HireRows(side=side, from_match=signed, league_stars=stars)


def redraft_rows(view: LeagueView, league_id: str, team: TeamRow, season: int) -> RedraftRows:
    """The team, its current players and its matches of the season before ``season``.

    Only the current roster: a re-draft acts on the team as it stands (seed 001,
    'Off-season and Re-drafting': its players rest, are re-hired or retire), and the
    players who left it are read from a file once they settle, a read that would grow
    with every season the league has played."""
    before = tuple(
        m
        for side in ("home", "away")
        for m in view.select(
            MatchRow, league_id=league_id, season=season - 1, **{side: team.team_id}
        )
    )
    return RedraftRows(side=team_rows(view, league_id, team, everyone=False), last_season=before)


def season_rows(view: LeagueView, league_id: str, season: int) -> SeasonRows:
    league = view.get(LeagueRow, league_id)
    return SeasonRows(
        points=league.points if league is not None else None,
        standings=tuple(view.select(StandingRow, league_id=league_id, season=season)),
        matches=tuple(view.select(MatchRow, league_id=league_id, season=season)),
        trophy_holders=tuple(view.select(TeamRow, league_id=league_id, trophy=True)),
        league_stars=league_stars(view, league_id),
    )
