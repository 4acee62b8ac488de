"""How each event changes a league's state. Facts in, the ruleset's numbers out.

Nothing here validates the rules: commands did that before the event existed, and an event
that a later correction made awkward (a purchase the voided winnings had paid for) still
folds, leaving a figure the audit reports instead of a log that cannot be replayed. What
the fold does refuse is an event the books cannot hold at all: a second league, team,
player or report under an id already taken (``new``, ``unrecorded``). Folded on, it would
overwrite what the first one made, and the SQL read models, whose keys are unique, could
not be written; refused, it is a fault the audit names (ledger/projections/faults.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ledger.domain import events as ev
from ledger.domain.state import (
    LeagueRow,
    MatchRow,
    PlayerGameLine,
    PlayerRow,
    Record,
    SeasonRow,
    StandingRow,
    TeamRow,
    roster_of,
)
from ledger.domain.values import Casualty, Performance, PointsScheme
from ledger.errors import (
    AlreadyInBooks,
    MatchAlreadyRecorded,
    SeasonState,
    UnknownPlayer,
    UnknownSeason,
)
from ledger.projections.fold import Fold
from ledger.projections.gather import card_rows, hire_rows, match_rows, redraft_rows, season_rows
from ledger.projections.members import MEMBER_APPLIERS
from ledger.projections.submissions import SUBMISSION_APPLIERS
from ledger.rules.asked import Card, Closed, Hiring, Redrafted, Report, SeasonEnded, Sideline
from ledger.rules.base import scores
from ledger.rules.effects import Gold, Trophy
from ledger.rules.protocol import Tally


def new(f: Fold, kind: type[Record], *key: str | int, taken: str) -> None:
    """Refuse an event that would make a record under a key already taken."""
    if f.store.get(kind, f.league_id, *key) is not None:
        raise AlreadyInBooks(taken)


def unrecorded(row: MatchRow) -> None:
    """A match is recorded once (a voided report is never applied, so a match recorded
    again after a void is unrecorded when it is met)."""
    if row.status == "played":
        raise MatchAlreadyRecorded(
            f"match {row.match_id} ({row.home} v {row.away}) was already"
            f" recorded (event {row.recorded_seq})"
        )


def league_created(f: Fold, e: ev.LeagueCreated) -> None:
    new(f, LeagueRow, taken=f"the league was already created (event {e.seq} creates it again)")
    f.store.put(
        LeagueRow(
            league_id=f.league_id,
            slug=e.slug,
            name=e.name,
            ruleset=e.ruleset,
            options=e.options,
            points=e.points.model_dump(mode="json") if e.points else None,
            created_at=e.timestamp.isoformat(),
        )
    )


def closed_before(previous: SeasonRow | None) -> None:
    """A season starts once the one before is closed: asked by the command, and by the
    fold of a log a correction or an import changed."""
    if previous is not None and previous.status != "closed":
        raise SeasonState(f"season {previous.season} is still open: close it first")


def still_open(season: SeasonRow) -> None:
    """A season closes once (its prizes are paid once): the command's and the fold's."""
    if season.status == "closed":
        raise SeasonState(f"season {season.season} is already closed")


def season_started(f: Fold, e: ev.SeasonStarted) -> None:
    new(f, SeasonRow, e.season, taken=f"season {e.season} has already started")
    closed_before(f.store.get(SeasonRow, f.league_id, f.league().current_season))
    f.store.put(
        SeasonRow(
            league_id=f.league_id,
            season=e.season,
            name=e.name,
            divisions=e.divisions,
            playoff_teams=e.playoff_teams,
        )
    )
    f.store.change(f.league(), current_season=e.season)
    for division in e.divisions:
        for team_id in division.teams:
            f.change_team(f.team(team_id), season=e.season)
            standing = f.store.get(StandingRow, f.league_id, e.season, team_id)
            if standing is not None:  # games recorded before the season started count in it
                f.store.change(standing, division=division.name)
                continue
            f.store.put(
                StandingRow(
                    league_id=f.league_id, season=e.season, team_id=team_id, division=division.name
                )
            )


def fixtures_scheduled(f: Fold, e: ev.FixturesScheduled) -> None:
    started(f, e.season)
    for number, fixture in enumerate(e.fixtures):
        f.store.put(
            MatchRow(
                league_id=f.league_id,
                match_id=fixture.id,
                scheduled_seq=e.seq,
                fixture=number,
                season=e.season,
                round=fixture.round,
                division=fixture.division,
                stage=fixture.stage,
                home=fixture.home,
                away=fixture.away,
                others=tuple(t for t in fixture.teams if t not in (fixture.home, fixture.away)),
                kind="league" if fixture.stage == "regular" else "playoff",
            )
        )


def started(f: Fold, season: int) -> SeasonRow:
    found = f.store.get(SeasonRow, f.league_id, season)
    if found is None:
        raise UnknownSeason(f"season {season} has not started")
    return found


def season_closed(f: Fold, e: ev.SeasonClosed) -> None:
    still_open(started(f, e.season))
    rows = season_rows(f.store, f.league_id, e.season)
    effects = f.ruleset.outcomes(SeasonEnded(e, rows), f.dice)
    f.apply_effects(e.seq, effects, {})
    # Every team of the season has its figures at the close in its history, prize or none:
    # they are the season's closing figures (its report's), whatever it bought since its
    # last game. A team not in the season (withdrawn, or joining the next) has none.
    f.touched.update(standing.team_id for standing in rows.standings)
    holder = next((t.team for t in effects if isinstance(t, Trophy) and t.held), None)
    f.store.change(started(f, e.season), status="closed", trophy_holder=holder)


def team_registered(f: Fold, e: ev.TeamRegistered) -> None:
    new(f, TeamRow, e.team, taken=f"the league already has a team '{e.team}'")
    f.put_team(
        TeamRow(
            league_id=f.league_id,
            team_id=e.team,
            name=e.name,
            coach=e.coach,
            roster=e.roster,
            fans=f.ruleset.start().fans,
            registered_seq=e.seq,
            season=f.league().current_season or None,
        )
    )
    f.move_gold(e.seq, e.team, e.treasury, "starting treasury", "team draft budget")


def player_hired(f: Fold, e: ev.PlayerHired) -> None:
    team = f.team(e.team)
    new(f, PlayerRow, e.player, taken=f"the player id {e.player} is already taken")
    price = (
        e.price
        if f.native
        else f.ruleset.price(Hiring(e, hire_rows(f.store, f.league_id, team, e, f.players(e.team))))
    )
    player = f.ruleset.new_player(e, team, f.league_id)
    if e.hireling and e.from_match:
        player = signed_hireling(f, player, e.from_match, e.hireling)
    f.put_player(player)
    league = f.league()
    f.store.change(league, next_player=league.next_player + 1)
    f.move_gold(e.seq, e.team, -price, "hire", f"{e.name} ({e.position}, {e.kind})")


def signed_hireling(f: Fold, player: PlayerRow, match_id: str, hireling_id: str) -> PlayerRow:
    """A journeyman or mercenary who played keeps his SPP and loses the Loner he played
    with, unless his position has Loner anyway (BB2025 'Hiring, Firing and Temporarily
    Retiring' step 5; ZAL 3k: "If a normally recruited player of this type usually has
    Loner, e.g. Trolls, he nevertheless retains" it). His line on the match's row records
    the player he became (``signed``)."""
    match = f.store.get(MatchRow, f.league_id, match_id)
    if match is None or hireling_id not in match.hirelings:
        return player
    played = match.hirelings[hireling_id]
    spp = int(played.get("spp", 0))
    signed = {**played, "signed": player.player_id}
    f.store.change(match, hirelings={**match.hirelings, hireling_id: signed})
    natural = f.ruleset.catalogue.position(player.roster, player.position).skills
    skills = tuple(s for s in player.skills if not s.lower().startswith("loner") or s in natural)
    kind = "star" if player.kind == "star" else "regular"
    return player.model_copy(
        update={"spp": spp, "spp_earned": spp, "skills": skills, "kind": kind, "games": 1}
    )


def player_status(status: str) -> Callable[[Fold, Any], None]:
    def apply(f: Fold, e: Any) -> None:
        player = f.player(e.player)
        if player is not None:
            f.change_player(player, status=status)

    return apply


def sideline_purchased(f: Fold, e: ev.SidelinePurchased) -> None:
    for purchase in e.purchases:
        team = f.team(e.team)
        item = f.ruleset.sideline_items(team).get(purchase.item)
        price = purchase.price
        if not f.native and item is not None:
            price = f.ruleset.price(Sideline(team, purchase.item, purchase.count))
        f.change_team(
            team, **added(team, purchase.item, purchase.count, item.counts_as if item else "staff")
        )
        f.move_gold(e.seq, e.team, -price, "purchase", f"{purchase.count} x {purchase.item}")


def added(team: TeamRow, item: str, count: int, counts_as: str) -> dict[str, Any]:
    """What ``count`` of a sideline item (negative: released) changes in ``team``."""
    if counts_as == "reroll":
        return {"rerolls": max(0, team.rerolls + count)}
    if counts_as == "fans":
        return {"fans": max(0, team.fans + count)}
    staff = dict(team.staff)
    staff[item] = max(0, staff.get(item, 0) + count)
    return {"staff": {k: v for k, v in staff.items() if v}}


def sideline_released(f: Fold, e: ev.SidelineReleased) -> None:
    team = f.team(e.team)
    item = f.ruleset.sideline_items(team).get(e.item)
    f.change_team(team, **added(team, e.item, -e.count, item.counts_as if item else "staff"))


def treasury_adjusted(f: Fold, e: ev.TreasuryAdjusted) -> None:
    f.move_gold(e.seq, e.team, e.amount, "adjustment", e.reason or "")


def player_advanced(f: Fold, e: ev.PlayerAdvanced) -> None:
    player = f.player(e.player)
    if player is None:
        return
    result = f.ruleset.advancement(player, e)
    taken = {
        "kind": e.kind,
        "skill": result.skill,
        "characteristic": result.characteristic,
        "spp": result.spp_cost,
        "value": result.value_increase,
        "seq": e.seq,
    }
    update: dict[str, Any] = {
        "spp": player.spp - result.spp_cost,
        "extra_value": player.extra_value + result.value_increase,
        "advancements": (*player.advancements, taken),
    }
    skills = tuple(s for s in player.skills if s not in result.skills_lost)
    if result.skill:
        skills = (*skills, result.skill)
        update["gained"] = (*player.gained, result.skill)
    update["skills"] = skills
    player = f.change_player(player, **update)
    if result.characteristic:
        player = f.change_player(player, **f.injury(player, result.characteristic, True))
    for injury in result.injuries:
        player = f.change_player(player, **f.injury(player, injury, better=False))


def inducements_bought(f: Fold, e: ev.InducementsBought) -> None:
    items = ", ".join(f"{p.count} x {p.item}" for p in e.purchases)
    if e.treasury_spent:
        f.move_gold(e.seq, e.team, -e.treasury_spent, "inducements", f"{e.match}: {items}")
    match = f.store.get(MatchRow, f.league_id, e.match)
    if match is not None:
        bought = {
            "items": items,
            "purchases": {p.item: p.count for p in e.purchases},
            "treasury_spent": e.treasury_spent,
            "petty_cash": e.petty_cash,
        }
        f.store.change(match, inducements={**match.inducements, e.team: bought})


def match_recorded(f: Fold, e: ev.MatchRecorded) -> None:
    for sheet in e.sheets():
        f.team(sheet.team)  # a team the books do not hold is this event's fault, said so
    if f.native:
        known_players(f, e)
    for sheet in e.others:  # one read per side (home and away: gathered with the rows below)
        roster_of(f.store, f.league_id, sheet.team)
    scheme = f.ruleset.points_scheme(f.league().points)
    tallies = {s.team: f.ruleset.tally(e, s.team, scheme) for s in (e.home, e.away)}
    row = match_row(f, e, tallies)
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
    effects = f.ruleset.outcomes(Report(e, match_rows(f.store, f.league_id, e, f.ruleset)), f.dice)
    earned = f.apply_effects(e.seq, effects, hirelings)
    count_games(f, e, earned)
    winnings: dict[str, int] = {}
    for effect in effects:
        if isinstance(effect, Gold) and effect.kind == "winnings":
            winnings[effect.team] = winnings.get(effect.team, 0) + effect.amount
    f.store.put(row.model_copy(update={"hirelings": hirelings, "winnings": winnings}))
    for sheet in e.sheets():
        team = f.team(sheet.team)
        opened = (*team.open_games, e.match) if e.kind != "exhibition" else team.open_games
        f.change_team(team, drafting=False, games=team.games + 1, open_games=opened)
    if e.kind in ("league", "unplayed") and row.season is not None:
        update_standings(f, e, row, tallies, scheme)
    f.history_match = {"match_id": e.match, "season": row.season, "round": row.round}


def known_players(f: Fold, e: ev.MatchRecorded) -> None:
    """Every player a report names is one of the books or a hireling of the game (the
    command checks it; a void of his hire would leave his touchdowns to nobody). Not asked
    of a what-if, whose replay may leave out a hire the log holds (it lists why)."""
    hirelings = {h.id for sheet in e.sheets() for h in sheet.hirelings}
    named = [p.player for sheet in e.sheets() for p in sheet.players]
    named += [c.victim for c in e.casualties]
    named += [c.inflicted_by for c in e.casualties if c.inflicted_by is not None]
    for player_id in named:
        if player_id not in hirelings and f.player(player_id) is None:
            raise UnknownPlayer(
                f"match {e.match} names {player_id}, who is neither a player of the books"
                " nor a hireling of the game"
            )


def match_row(f: Fold, e: ev.MatchRecorded, tallies: Mapping[str, Tally]) -> MatchRow:
    scheduled = f.store.get(MatchRow, f.league_id, e.match)
    if scheduled is not None:
        unrecorded(scheduled)
    season = e.season or (scheduled.season if scheduled else None) or f.league().current_season
    home_cas, away_cas = (tallies[s.team].casualties for s in (e.home, e.away))
    row = scheduled or MatchRow(
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
        }
    )


def winner(e: ev.MatchRecorded) -> str | None:
    if e.winner:
        return e.winner
    if e.home.touchdowns != e.away.touchdowns:
        return e.home.team if e.home.touchdowns > e.away.touchdowns else e.away.team
    if e.shootout is not None and e.shootout.penalties_home != e.shootout.penalties_away:
        home_won = e.shootout.penalties_home > e.shootout.penalties_away
        return e.home.team if home_won else e.away.team
    return None


def count_games(f: Fold, e: ev.MatchRecorded, earned: dict[str, int]) -> None:
    """Per-player counters and match lines: facts of the game, in no edition's terms."""
    counted = e.kind not in ("exhibition", "unplayed")
    if not f.counts_play:
        if counted and e.season:
            count_seasons(f, e, e.season)
        return
    inflicted_by: dict[str, list[Casualty]] = {}
    injuries: dict[str, str] = {}
    for casualty in e.casualties:
        if casualty.inflicted_by is not None:
            inflicted_by.setdefault(casualty.inflicted_by, []).append(casualty)
        injuries.setdefault(casualty.victim, casualty.outcome)  # the first one counts
    for sheet in e.sheets():
        for performance in sheet.players:
            player = f.player(performance.player)
            if player is None:
                continue
            caused = casualties_caused(f, inflicted_by.get(player.player_id))
            if counted:  # counters only: the player's value is unchanged
                player = f.store.change(player, **played(player, performance, e.season, caused))
            if f.keeps_lines:
                f.store.emit(
                    PlayerGameLine.build(
                        league_id=f.league_id,
                        player_id=player.player_id,
                        team_id=sheet.team,
                        match_id=e.match,
                        seq=e.seq,
                        season=e.season,
                        round=e.round,
                        touchdowns=performance.touchdowns,
                        completions=performance.completions,
                        interceptions=performance.interceptions,
                        casualties=caused.earning_spp,
                        kills=caused.kills,
                        mvps=performance.mvps,
                        spp=earned.get(player.player_id, 0),
                        injury=injuries.get(player.player_id, ""),
                    )
                )


def count_seasons(f: Fold, e: ev.MatchRecorded, season: int) -> None:
    """The one record of play that a rule reads: the seasons each player has played in
    (a re-draft's)."""
    for sheet in e.sheets():
        for performance in sheet.players:
            player = f.player(performance.player)
            if player is not None and season not in player.seasons:
                f.store.change(player, seasons=tuple(sorted({*player.seasons, season})))


class Caused(NamedTuple):
    """The casualties a player caused in one game."""

    earning_spp: int
    kills: int
    all: int


NONE_CAUSED = Caused(0, 0, 0)


def casualties_caused(f: Fold, inflicted: list[Casualty] | None) -> Caused:
    """Most players cause none: then nothing is asked of the ruleset."""
    if not inflicted:
        return NONE_CAUSED
    return Caused(
        earning_spp=sum(1 for c in inflicted if f.ruleset.casualty_earns_spp(c)),
        kills=sum(1 for c in inflicted if "dead" in c.effects and not c.recovered),
        all=len(inflicted),
    )


def played(
    player: PlayerRow, performance: Performance, season: int | None, caused: Caused
) -> dict[str, Any]:
    """What one more game counts in ``player``."""
    seasons = player.seasons
    if season and season not in seasons:
        seasons = tuple(sorted({*seasons, season}))
    return {
        "games": player.games + 1,
        "touchdowns": player.touchdowns + performance.touchdowns,
        "completions": player.completions + performance.completions,
        "interceptions": player.interceptions + performance.interceptions,
        "casualties": player.casualties + caused.earning_spp,
        "casualties_all": player.casualties_all + caused.all,
        "kills": player.kills + caused.kills,
        "mvps": player.mvps + performance.mvps,
        "seasons": seasons,
    }


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
        standing = f.store.get(StandingRow, f.league_id, row.season, sheet.team) or StandingRow(
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


def post_game_closed(f: Fold, e: ev.PostGameClosed) -> None:
    team = f.team(e.team)
    effects = f.ruleset.outcomes(Closed(e, team), f.dice)
    f.apply_effects(e.seq, effects, {})
    team = f.team(e.team)
    f.change_team(team, open_games=tuple(m for m in team.open_games if m != e.match))
    match = f.store.get(MatchRow, f.league_id, e.match)
    if match is not None:
        f.store.change(match, closed=(*match.closed, e.team))


def appearance_fees_paid(f: Fold, e: ev.AppearanceFeesPaid) -> None:
    for fee in e.fees:
        f.move_gold(e.seq, e.team, -fee.price, "appearance fee", f"{e.match}: {fee.item}")
    team = f.team(e.team)
    paid = dict(team.fees_paid.get(e.match, {}))
    for fee in e.fees:
        paid[fee.item] = paid.get(fee.item, 0) + fee.price
    f.change_team(team, fees_paid={**team.fees_paid, e.match: paid})


def bounty_posted(f: Fold, e: ev.BountyPosted) -> None:
    f.move_gold(e.seq, e.team, -e.amount, "bounty", f"on {e.player}")
    player = f.player(e.player)
    if player is not None:
        bounty = int(player.extras.get("bounty", 0)) + e.amount
        f.change_player(player, extras={**player.extras, "bounty": bounty})


def card_played(f: Fold, e: ev.CardPlayed) -> None:
    rows = card_rows(f.store, f.league_id, e)
    f.apply_effects(e.seq, f.ruleset.outcomes(Card(e, rows), f.dice), {})


def star_draft_ordered(f: Fold, e: ev.StarDraftOrdered) -> None:
    season = f.store.get(SeasonRow, f.league_id, e.season)
    if season is not None:
        f.store.change(season, star_draft=e.order)


def star_signed(f: Fold, e: ev.StarSigned) -> None:
    before = [p for p in f.players(e.team) if p.kind == "star" and p.position == e.star]
    star = f.ruleset.new_player(e, f.team(e.team), f.league_id)
    if any(e.season - 1 in p.seasons for p in before):
        # Spike! 2021 'A Familiar Face': the same star re-signed loses Loner.
        star = star.model_copy(
            update={"skills": tuple(s for s in star.skills if not s.lower().startswith("loner"))}
        )
    f.put_player(star.model_copy(update={"seasons": (e.season,)}))
    league = f.league()
    f.store.change(league, next_player=league.next_player + 1)


def team_redrafted(f: Fold, e: ev.TeamRedrafted) -> None:
    rows = redraft_rows(f.store, f.league_id, f.team(e.team), e.season)
    effects = f.ruleset.outcomes(Redrafted(e, rows), f.dice)
    f.apply_effects(e.seq, effects, {})
    f.change_team(f.team(e.team), drafting=True, season=e.season)


def nothing(f: Fold, e: ev.LedgerEvent) -> None:
    """Corrections change how the fold reads earlier events, not state of their own."""


APPLIERS: dict[type[ev.LedgerEvent], Callable[[Fold, Any], None]] = {
    ev.LeagueCreated: league_created,
    ev.SeasonStarted: season_started,
    ev.FixturesScheduled: fixtures_scheduled,
    ev.SeasonClosed: season_closed,
    ev.TeamRegistered: team_registered,
    ev.PlayerHired: player_hired,
    ev.PlayerFired: player_status("fired"),
    ev.PlayerTemporarilyRetired: player_status("retired"),
    ev.PlayerDied: player_status("dead"),
    ev.PlayerLeft: player_status("left"),
    ev.SidelinePurchased: sideline_purchased,
    ev.SidelineReleased: sideline_released,
    ev.TreasuryAdjusted: treasury_adjusted,
    ev.PlayerAdvanced: player_advanced,
    ev.InducementsBought: inducements_bought,
    ev.MatchRecorded: match_recorded,
    ev.PostGameClosed: post_game_closed,
    ev.AppearanceFeesPaid: appearance_fees_paid,
    ev.BountyPosted: bounty_posted,
    ev.CardPlayed: card_played,
    ev.StarDraftOrdered: star_draft_ordered,
    ev.StarSigned: star_signed,
    ev.TeamRedrafted: team_redrafted,
    ev.EventCorrected: nothing,
}
APPLIERS.update(MEMBER_APPLIERS)
APPLIERS.update(SUBMISSION_APPLIERS)
