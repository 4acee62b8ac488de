"""How a match report changes a league's state: its row, the ruleset's outcomes (SPP,
gold, injuries), each player's records of play and the standings. Facts in, the ruleset's
numbers out (``appliers`` holds the other events' appliers and the table of them).

What the fold refuses here, as a fault (ledger/projections/faults.py): a report of a match
already recorded (a voided report is never applied, so a match recorded again after a void
is unrecorded when it is met), and a report naming a team or player the books do not hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.domain import events as ev
from ledger.domain.state import MatchRow, PlayerRow, StandingRow, TeamGameLine, roster_of
from ledger.domain.values import Performance, PointsScheme
from ledger.errors import MatchAlreadyRecorded, UnknownPlayer
from ledger.projections.fold import SPP_ADDED, Fold, spp_added
from ledger.projections.gather import match_rows
from ledger.projections.plays import (
    NONE_CAUSED,
    Counters,
    casualty_facts,
    counted,
    earning,
    game_line,
    played,
    side_rows,
)
from ledger.rules.asked import Report
from ledger.rules.base import scores
from ledger.rules.effects import Effects, Gold
from ledger.rules.protocol import Tally
from ledger.rules.rows import MatchRows


def unrecorded(row: MatchRow) -> None:
    """A match is recorded once (a voided report is never applied, so a match recorded
    again after a void is unrecorded when it is met)."""
    if row.status == "played":
        raise MatchAlreadyRecorded(
            f"match {row.match_id} ({row.home} v {row.away}) was already"
            f" recorded (event {row.recorded_seq})"
        )


def match_recorded(f: Fold, e: ev.MatchRecorded) -> None:
    for sheet in e.sheets():
        f.team(sheet.team)  # a team the books do not hold is this event's fault, said so
    rows = match_rows(f.store, f.league_id, e, f.ruleset)
    if f.native:
        known_players(e, rows)
    scheduled = f.store.get(MatchRow, f.league_id, e.match)
    if scheduled is not None:
        unrecorded(scheduled)
    scheme = f.ruleset.points_scheme(f.league().points)
    tallies = {s.team: f.ruleset.tally(e, s.team, scheme) for s in (e.home, e.away)}
    hirelings = {
        h.id: {
            "name": h.name,
            "kind": h.kind,
            "position": h.position,
            "star": h.star,
            "team": s.team,
            "spp": 0,
        }
        for s in e.sheets()
        for h in s.hirelings
    }
    if hirelings:
        hireling_plays(f, e, hirelings)
    effects = f.ruleset.outcomes(Report(e, rows), f.dice)
    # A fold that counts play writes each player's SPP with his counters, in one change
    spp_later = f.counts_play and not f.plays_apart
    earned = f.apply_effects(e.seq, effects, hirelings, spp_later=spp_later)
    count_games(f, e, earned, hirelings, rows)
    row = match_row(f, e, scheduled, tallies, hirelings, winnings_paid(effects))
    f.store.put(row)
    for sheet in e.sheets():
        team = f.team(sheet.team)
        opened = (*team.open_games, e.match) if e.kind != "exhibition" else team.open_games
        f.change_team(team, drafting=False, games=team.games + 1, open_games=opened)
    if e.kind in ("league", "unplayed") and row.season is not None:
        update_standings(f, e, row, tallies, scheme)
    f.history_match = (e.match, row.season, row.round)


def hireling_plays(f: Fold, e: ev.MatchRecorded, hirelings: dict[str, Any]) -> None:
    """What each one-game player did in the game, kept on his line of the match's row
    (``plays``): a hireling has no counters of his own, and signed after the game he joins
    with what he did in it, as with the SPP it earned him (``appliers.signed_hireling``)."""
    if not counted(e):
        return
    caused, _ = casualty_facts(e.casualties, earning(e.casualties, f.ruleset.casualty_earns_spp))
    lines = {p.player: p for s in e.sheets() for p in s.players if p.player in hirelings}
    for hireling_id, kept in hirelings.items():
        performance = lines.get(hireling_id, Performance(player=hireling_id))
        counts = played(Counters(), performance, e.season, caused.get(hireling_id, NONE_CAUSED))
        kept["plays"] = {k: v for k, v in counts.items() if k not in ("games", "seasons")}


def known_players(e: ev.MatchRecorded, rows: MatchRows) -> None:
    """Every player a report names is one of the books or a hireling of the game (the
    command checks it; a void of his hire would leave his touchdowns to nobody). Not asked
    of a what-if, whose replay may leave out a hire the log holds (it lists why). The
    report's rows name the ids no player of the books holds (``MatchRows.strangers``): no
    player is looked up again."""
    if not rows.strangers:
        return
    hirelings = {h.id for sheet in e.sheets() for h in sheet.hirelings}
    unknown = rows.strangers - hirelings
    if unknown:
        raise UnknownPlayer(
            f"match {e.match} names {min(unknown)}, who is neither a player of the books"
            " nor a hireling of the game"
        )


def match_row(
    f: Fold,
    e: ev.MatchRecorded,
    scheduled: MatchRow | None,
    tallies: Mapping[str, Tally],
    hirelings: dict[str, Any],
    winnings: dict[str, int],
) -> MatchRow:
    """The match's row as the report leaves it: its fixture's (``scheduled``), or a new
    one, which takes the league's next match number. Made once, at the end of the report,
    with the hirelings' SPP the game earned."""
    season = e.season or (scheduled.season if scheduled else None) or f.league().current_season
    home_cas, away_cas = (tallies[s.team].casualties for s in (e.home, e.away))
    row = scheduled or MatchRow.build(
        league_id=f.league_id, match_id=e.match, home=e.home.team, away=e.away.team, kind=e.kind
    )
    league = f.league()
    if scheduled is None:
        f.store.change(league, next_match=league.next_match + 1)
    return row.model_copy(
        update={
            "season": season or None,
            "round": e.round or row.round,
            "kind": e.kind,
            "status": "played",
            "home_score": e.home.touchdowns,
            "away_score": e.away.touchdowns,
            "home_casualties": home_cas,
            "away_casualties": away_cas,
            "winner": winner(e),
            "conceded_by": e.concession.team if e.concession else None,
            "recorded_seq": e.seq,
            "hirelings": hirelings,
            "winnings": winnings,
        }
    )


def winnings_paid(effects: Effects) -> dict[str, int]:
    """The winnings each team's ``effects`` paid it."""
    paid: dict[str, int] = {}
    for effect in effects:
        if isinstance(effect, Gold) and effect.kind == "winnings":
            paid[effect.team] = paid.get(effect.team, 0) + effect.amount
    return paid


def winner(e: ev.MatchRecorded) -> str | None:
    if e.winner:
        return e.winner
    if e.home.touchdowns != e.away.touchdowns:
        return e.home.team if e.home.touchdowns > e.away.touchdowns else e.away.team
    if e.shootout is not None and e.shootout.penalties_home != e.shootout.penalties_away:
        home_won = e.shootout.penalties_home > e.shootout.penalties_away
        return e.home.team if home_won else e.away.team
    return None


def count_games(
    f: Fold, e: ev.MatchRecorded, earned: dict[str, int], hirelings: dict[str, Any], rows: MatchRows
) -> None:
    """Per-player counters and game lines: facts of the game, in no edition's terms
    (ledger/projections/plays.py). In a fold that counts play, also the SPP the game
    ``earned`` (``apply_effects`` only added them up): each player's are written with his
    counters, in one change of him, and those of anyone else the report does not name as a
    player of the books after. The game lines go out one row a side (``TeamGameLine``).
    In a serial rebuild the line process counts the play (``Fold.plays_apart``): the fold
    only notes what of it the edition decides (ledger/projections/plays.py, ``Play``)."""
    counts = counted(e)
    if counts and e.season:  # the seasons, which a rule reads, are kept here always
        count_seasons(f, e, e.season)
    apart = f.plays_apart
    if not f.counts_play and not apart:
        return
    earns = earning(e.casualties, f.ruleset.casualty_earns_spp)
    if apart:
        f.note_play(e, (earned, earns, rows.strangers))
        return
    caused, injuries = casualty_facts(e.casualties, earns)
    unwritten = dict(earned)
    # Bound once: this loop runs for every player of every game a rebuild folds.
    get, change = f.store.get, f.store.change
    league_id, keeps_lines = f.league_id, f.keeps_lines
    sides: dict[str, dict[str, list[int | str]]] = {}
    for sheet in e.sheets():
        side = sides.setdefault(sheet.team, {})  # one side a team, were it named twice
        for performance in sheet.players:
            player = get(PlayerRow, league_id, performance.player)
            if player is None:
                continue
            player_id = player.player_id
            made = caused.get(player_id, NONE_CAUSED)
            spp = unwritten.pop(player_id, 0)
            if counts or spp:
                changes = played(player, performance, e.season, made) if counts else {}
                if spp:
                    changes.update(spp_added(player, spp))
                    player = f.valued(change(player, **changes), SPP_ADDED)
                else:  # counters only: the player's value is unchanged
                    player = change(player, **changes)
            if keeps_lines:
                side[player_id] = game_line(
                    performance, made, earned.get(player_id, 0), injuries.get(player_id, "")
                )
    if keeps_lines:
        emit = f.store.row_sink()
        for row in side_rows(league_id, e, sides):
            emit(TeamGameLine, row)
    if unwritten:  # hirelings, and anyone a ruleset pays who is not on a sheet
        f.earn_spp(unwritten, hirelings)


def count_seasons(f: Fold, e: ev.MatchRecorded, season: int) -> None:
    """The one record of play that a rule reads: the seasons each player has taken part in
    (a BB2025 re-draft's agent's fee, seed 001 'Re-drafting': "for each previous season the
    player has taken part in"). Read as: he was on his team's roster at one of its games of
    the season, or a report names him in one. A report lists the players who did something,
    rarely every one who played; a player on the roster all season is the team's player of
    that season, as a coach counts him. Each player of a season is looked up at his first
    game of it only (``Fold.seasoned``): a Monte Carlo sample's season names each one a
    dozen times."""
    seen = f.seasoned.setdefault(season, set())
    get, league_id = f.store.get, f.league_id
    for sheet in e.sheets():
        named = [p.player for p in sheet.players]
        rostered = [p.player_id for p in roster_of(f.store, league_id, sheet.team)]
        for player_id in (*rostered, *named):  # each changed alone: order changes nothing
            if player_id in seen:
                continue
            player = get(PlayerRow, league_id, player_id)
            if player is None:
                continue
            if season not in player.seasons:
                f.store.change(player, seasons=tuple(sorted({*player.seasons, season})))
            seen.add(player_id)


def update_standings(
    f: Fold,
    e: ev.MatchRecorded,
    row: MatchRow,
    tallies: Mapping[str, Tally],
    scheme: PointsScheme,
) -> None:
    assert row.season is not None
    for sheet, cas_for, cas_against in (
        (e.home, row.home_casualties, row.away_casualties),
        (e.away, row.away_casualties, row.home_casualties),
    ):
        standing = f.store.get(
            StandingRow, f.league_id, row.season, sheet.team
        ) or StandingRow.build(
            league_id=f.league_id, season=row.season, team_id=sheet.team, division=row.division
        )
        tally = tallies[sheet.team]
        points, bonus, result = tally.points, tally.bonus, tally.result
        ours, theirs = scores(e, sheet.team)
        f.store.change(
            standing,
            played=standing.played + 1,
            won=standing.won + int(result == "win"),
            drawn=standing.drawn + int(result == "draw"),
            lost=standing.lost + int(result == "loss"),
            td_for=standing.td_for + ours,
            td_against=standing.td_against + theirs,
            cas_for=standing.cas_for + cas_for,
            cas_against=standing.cas_against + cas_against,
            points=standing.points + points + (bonus if scheme.bonus_mode == "added" else 0),
            bonus=standing.bonus + bonus,
        )
