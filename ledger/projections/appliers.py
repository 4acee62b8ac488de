"""How each event changes a league's state. Facts in, the ruleset's numbers out.

Nothing here validates the rules, nor the values: commands did that before the event existed
(a record is built from the event's values unchecked, ``Record.build``), and an event
that a later correction made awkward (a purchase the voided winnings had paid for) still
folds, leaving a figure the audit reports instead of a log that cannot be replayed. What
the fold does refuse is an event the books cannot hold at all: a second league, team,
player or report under an id already taken (``new``; a report's in ``match_applier``,
which holds the match report's applier). Folded on, it would
overwrite what the first one made, and the SQL read models, whose keys are unique, could
not be written; refused, it is a fault the audit names (ledger/projections/faults.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.domain import events as ev
from ledger.domain.state import (
    LeagueRow,
    MatchRow,
    PlayerRow,
    Record,
    SeasonRow,
    StandingRow,
    TeamRow,
)
from ledger.errors import (
    AlreadyInBooks,
    SeasonState,
    UnknownSeason,
)
from ledger.projections.describe import Say, counted
from ledger.projections.fold import Fold
from ledger.projections.gather import card_rows, hire_rows, redraft_rows, season_rows
from ledger.projections.match_applier import match_recorded
from ledger.projections.members import MEMBER_APPLIERS
from ledger.projections.submissions import SUBMISSION_APPLIERS
from ledger.rules.asked import Card, Closed, Hiring, Redrafted, SeasonEnded, Sideline
from ledger.rules.effects import Trophy
from ledger.words import words


def new(f: Fold, kind: type[Record], *key: str | int, taken: str) -> None:
    """Refuse an event that would make a record under a key already taken."""
    if f.store.get(kind, f.league_id, *key) is not None:
        raise AlreadyInBooks(taken)


def league_created(f: Fold, e: ev.LeagueCreated) -> None:
    new(f, LeagueRow, taken=f"the league was already created (event {e.seq} creates it again)")
    f.store.put(
        LeagueRow.build(
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
        SeasonRow.build(
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
                StandingRow.build(
                    league_id=f.league_id, season=e.season, team_id=team_id, division=division.name
                )
            )


def fixtures_scheduled(f: Fold, e: ev.FixturesScheduled) -> None:
    started(f, e.season)
    for number, fixture in enumerate(e.fixtures):
        f.store.put(
            MatchRow.build(
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
        TeamRow.build(
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
    # a treasury line is read by coaches: the position by the edition's name; made only
    # where lines are kept (a what-if's fold keeps none)
    note = f"{e.name} ({Say(f).hired_as(e)})" if f.keeps_lines else ""
    f.move_gold(e.seq, e.team, -price, "hire", note)


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
    # What he did in the game comes with him (``match_applier.hireling_plays``), as in a
    # rebuild the line process has it (``plays.Totals.signed``).
    counts = dict(played.get("plays", {}))
    update = {"spp": spp, "spp_earned": spp, "skills": skills, "kind": kind, "games": 1}
    return player.model_copy(update={**counts, **update})


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
        named = item.name if item is not None else purchase.item
        f.move_gold(e.seq, e.team, -price, "purchase", f"{purchase.count} x {named}")


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
        "lost": list(result.skills_lost),  # a list, as the row reads back from json
        "spp": result.spp_cost,
        "value": result.value_increase,
        "seq": e.seq,
    }
    update: dict[str, Any] = {
        "spp": player.spp - result.spp_cost,
        "extra_value": player.extra_value + result.value_increase,
        "advancements": (*player.advancements, taken),
    }
    if player.rolled:  # the roll is taken with the advancement
        update["rolled"] = {}
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


def advancement_rolled(f: Fold, e: ev.AdvancementRolled) -> None:
    player = f.player(e.player)
    if player is None:
        return
    dice = [d.model_dump(mode="json", exclude_defaults=True) for d in e.dice]
    f.change_player(
        player, rolled={"kind": e.kind, "category": e.category, "dice": dice, "seq": e.seq}
    )


def inducements_bought(f: Fold, e: ev.InducementsBought) -> None:
    items = ", ".join(counted(p.count, p.item) for p in e.purchases)
    if e.treasury_spent:
        # the note by the offer's names, made only where lines are kept: asking the offer
        # for each purchase would cost every what-if sample (a hire's note likewise)
        said = Say(f)
        named = (said.induced(e.team, p.count, p.item) for p in e.purchases)
        note = f"{e.match}: {', '.join(named)}" if f.keeps_lines else ""
        f.move_gold(e.seq, e.team, -e.treasury_spent, "inducements", note)
    match = f.store.get(MatchRow, f.league_id, e.match)
    if match is not None:
        bought = {
            "items": items,
            "purchases": {p.item: p.count for p in e.purchases},
            "treasury_spent": e.treasury_spent,
            "petty_cash": e.petty_cash,
        }
        f.store.change(match, inducements={**match.inducements, e.team: bought})


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
        player = f.player(fee.item)  # a freebooted star is his report line's id
        named = player.name if player is not None else words(fee.item)
        f.move_gold(e.seq, e.team, -fee.price, "appearance fee", f"{e.match}: {named}")
    team = f.team(e.team)
    paid = dict(team.fees_paid.get(e.match, {}))
    for fee in e.fees:
        paid[fee.item] = paid.get(fee.item, 0) + fee.price
    f.change_team(team, fees_paid={**team.fees_paid, e.match: paid})


def bounty_posted(f: Fold, e: ev.BountyPosted) -> None:
    player = f.player(e.player)
    f.move_gold(e.seq, e.team, -e.amount, "bounty", f"on {player.name if player else e.player}")
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
    """The star joins the team for the season, and his partner with him (a pair)."""
    signed = [e]
    pair = f.ruleset.catalogue.stars().get(e.star)
    if e.partner and pair is not None and pair.pair_with:
        signed.append(e.model_copy(update={"star": pair.pair_with, "player": e.partner}))
    for one in signed:
        before = [p for p in f.players(e.team) if p.kind == "star" and p.position == one.star]
        star = f.ruleset.new_player(one, f.team(e.team), f.league_id)
        if any(e.season - 1 in p.seasons for p in before):
            # Spike! 2021 'A Familiar Face': the same star re-signed loses Loner.
            kept = tuple(s for s in star.skills if not s.lower().startswith("loner"))
            star = star.model_copy(update={"skills": kept})
        f.put_player(star.model_copy(update={"seasons": (e.season,)}))
    league = f.league()
    f.store.change(league, next_player=league.next_player + 1 + bool(e.partner))


def team_redrafted(f: Fold, e: ev.TeamRedrafted) -> None:
    rows = redraft_rows(f.store, f.league_id, f.team(e.team), e.season)
    effects = f.ruleset.outcomes(Redrafted(e, rows), f.dice)
    f.apply_effects(e.seq, effects, {})
    f.change_team(f.team(e.team), drafting=True, season=e.season)


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
    ev.AdvancementRolled: advancement_rolled,
    ev.InducementsBought: inducements_bought,
    ev.MatchRecorded: match_recorded,
    ev.PostGameClosed: post_game_closed,
    ev.AppearanceFeesPaid: appearance_fees_paid,
    ev.BountyPosted: bounty_posted,
    ev.CardPlayed: card_played,
    ev.StarDraftOrdered: star_draft_ordered,
    ev.StarSigned: star_signed,
    ev.TeamRedrafted: team_redrafted,
}
APPLIERS.update(MEMBER_APPLIERS)
APPLIERS.update(SUBMISSION_APPLIERS)
