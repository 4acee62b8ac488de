"""Commands about teams and their players: register, hire, fire, buy, advance.

Each ``plan_*`` function validates against the league's state and ruleset and returns the
events to append, as drafts; it raises a ``LedgerError`` (and so writes nothing) on any
violation. The rules a what-if replay also applies (hiring, buying, letting staff go) are
the functions of ``ledger.rules.problems``: a command raises the first problem they return
(``refuse``).
"""

from __future__ import annotations

import re
from typing import cast

from ledger.application.advance_rolls import (
    ROLLED_FIRST,
    after_the_roll,
    from_waiting,
    missing_rolls,
    refuse_star_roll_unchosen,
    refuse_table_dice,
    refuse_unchosen,
    waiting,
)
from ledger.application.commands import (
    AdjustTreasury,
    AdvancePlayer,
    Buy,
    FirePlayer,
    HirePlayer,
    PostBounty,
    RegisterTeam,
    Release,
    RetirePlayer,
)
from ledger.application.context import Context, Drafts, check_reason, drafting
from ledger.domain import events as ev
from ledger.domain.state import ON_ROSTER, PlayerRow, TeamRow, lasting_injuries, on_roster
from ledger.domain.values import Purchase
from ledger.errors import (
    HirelingAlreadySigned,
    InvalidInput,
    NameTaken,
    NotAllowed,
    TeamNameTaken,
)
from ledger.projections.gather import hire_rows
from ledger.rules.asked import (
    Advancing,
    Buying,
    Firing,
    Hiring,
    Releasing,
    Sideline,
)
from ledger.rules.problems import (
    gold,
    gold_enough,
    has_feature,
    held,
    item_room,
    let_go,
    not_below_nothing,
    not_past_the_bound,
    position_room,
    refuse,
    roster_room,
    sold,
    unique_identity,
    unread_rolls,
    while_drafting,
)
from ledger.rules.protocol import Feature
from ledger.words import article


def afford(team: TeamRow, price: int, what: str) -> None:
    refuse(gold_enough(team, price, what))


def active_team(c: Context, team_id: str) -> TeamRow:
    team = c.team(team_id)
    if team.status != "active":
        raise NotAllowed(f"{team.name} have withdrawn from the league")
    return team


def plan_register(c: Context, command: RegisterTeam) -> Drafts:
    team_id, name, coach, roster = command.team, command.name, command.coach, command.roster
    treasury = command.treasury
    if c.view.get(TeamRow, c.league_id, team_id) is not None:
        raise NameTaken(f"league {c.league.slug} already has a team '{team_id}'")
    same = " ".join(name.split()).casefold()
    for other in c.view.select(TeamRow, league_id=c.league_id):
        if " ".join(other.name.split()).casefold() == same:
            raise TeamNameTaken(
                f"league {c.league.slug} already has a team called {other.name}"
                f" ({other.team_id}): give this one a name of its own"
            )
    c.ruleset.catalogue.team_list(roster)  # refuses an unknown team list, naming the known ones
    start = c.ruleset.start().treasury if treasury is None else treasury
    if start < 0:
        raise InvalidInput("a starting treasury cannot be negative")
    return [ev.TeamRegistered(team=team_id, name=name, coach=coach, roster=roster, treasury=start)]


def plan_hire(c: Context, command: HirePlayer) -> Drafts:
    team, hired, what = priced_hire(c, command)
    afford(team, hired.price, what)
    return [hired]


PLAYER_ID = re.compile(r"p\d+")
"""A player's id as the ledger gives it (``p12``); ``P12`` is a name (ids are matched as
they are written)."""
SHIRT = re.compile(r"#\d+")


def referable(name: str) -> None:
    """A player is named in reports and commands by his id (``p12``), his shirt (``#5``)
    or his name, read in that order: a name that reads as an id or a shirt would always
    name another player."""
    if PLAYER_ID.fullmatch(name) or SHIRT.fullmatch(name):
        raise InvalidInput(
            f"a player may not be called {name}: it reads as a player's id or shirt number"
        )


def hire_price(c: Context, command: HirePlayer) -> int:
    """What hiring as ``command`` says costs now, refused as ``plan_hire`` refuses it
    except for the treasury and the name and number (a form shows the price to a team
    still short of it, before the coach has named the player)."""
    with drafting():
        _, hired, _ = priced_hire(c, command, named=False)
    return hired.price


def own_name(star: str, given: str, *, signing: bool) -> str:
    """The name a star player is recorded and shown under: the one given (a coach's
    nickname for him), else his own; a freebooted star signed after his game takes his
    own (the report named him as it liked)."""
    return star if signing or not given.strip() else given.strip()


def priced_hire(
    c: Context, command: HirePlayer, *, named: bool = True
) -> tuple[TeamRow, ev.PlayerHired, str]:
    """The hire checked and priced: the team, the drafted event, and what is bought."""
    team_id, position_id, name, number = (
        command.team,
        command.position,
        command.name,
        command.number,
    )
    hireling, from_match, star = command.journeyman, command.match, command.star
    from_list, equipment = command.from_list, tuple(command.equipment)
    team = active_team(c, team_id)
    team_list = c.ruleset.catalogue.team_list(team.roster)
    players = on_roster(c.players(team_id))
    kind: ev.HireKind = "star" if star else "regular"
    if hireling:
        kind = hireling_kind(c, team_id, hireling, from_match)
    if kind == "star" and hireling:
        star = signed_star(c, hireling, from_match)  # a freebooted star, signed for good
    refuse(roster_room(team, players, team_list))
    if star is None:
        roster = position_list(from_list, team)
        position = c.ruleset.catalogue.position(roster, position_id)
        refuse(position_room(team, players, position, roster))
        position_id, what = position.id, article(position.name)
    else:
        position_id, what = star, c.ruleset.catalogue.star(star).name
        name = own_name(what, name, signing=hireling is not None)
    if named:
        referable(name)
        refuse(unique_identity(team, players, name, number))
    proposed = ev.PlayerHired(
        team=team_id,
        player=f"p{c.league.next_player}",
        name=name,
        number=number,
        position=position_id,
        kind=kind,
        hireling=hireling,
        from_match=from_match,
        star=star,
        from_list=from_list,
        equipment=equipment,
        price=0,
    )
    rows = hire_rows(c.view, c.league_id, team, proposed, players, checking=c.ruleset)
    refuse(c.ruleset.problems(Hiring(proposed, rows)))
    price = c.ruleset.price(Hiring(proposed, rows))
    return team, proposed.model_copy(update={"price": price}), what


def hireling_kind(c: Context, team_id: str, hireling: str, match_id: str | None) -> ev.HireKind:
    """How a one-game player played for the team (journeyman, mercenary), from his match:
    only a team he played for may sign him, only after a match that was played (a voided
    report's hirelings played for no one), and only once for that game."""
    match = c.match(match_id) if match_id else None
    kept = match.hirelings.get(hireling) if match is not None else None
    if match is None or kept is None or kept.get("team") != team_id or match.status != "played":
        raise InvalidInput(f"no hireling '{hireling}' played for {team_id} in match {match_id}")
    if kept.get("signed"):
        raise HirelingAlreadySigned(
            f"{kept.get('name', hireling)}, who played match {match_id} for {team_id}, was"
            f" already signed after it (player {kept['signed']})"
        )
    # the fold kept the report's validated Hireling.kind; the draft validates it again
    return cast(ev.HireKind, kept.get("kind", "journeyman"))


def signed_star(c: Context, hireling: str, match_id: str | None) -> str:
    match = c.match(match_id) if match_id else None
    star = match.hirelings[hireling].get("star") if match else None
    if not star:
        raise InvalidInput(f"hireling '{hireling}' of match {match_id} names no star player")
    return str(star)


def position_list(from_list: str | None, team: TeamRow) -> str:
    return from_list or team.roster


def current_player(c: Context, team_id: str, ref: str) -> PlayerRow:
    player = c.player(ref, team_id)
    if player.status not in ON_ROSTER:
        raise NotAllowed(f"{player.name} is no longer on the roster ({player.status})")
    return player


def plan_fire(c: Context, command: FirePlayer) -> Drafts:
    team_id, ref = command.team, command.player
    team = active_team(c, team_id)
    player = current_player(c, team_id, ref)
    refuse(c.ruleset.problems(Firing(team, c.players(team_id), player)))
    return [ev.PlayerFired(team=team_id, player=player.player_id)]


def plan_retire(c: Context, command: RetirePlayer) -> Drafts:
    active_team(c, command.team)
    player = current_player(c, command.team, command.player)
    check_retirement(c, player)
    return [ev.PlayerTemporarilyRetired(team=command.team, player=player.player_id)]


def plan_buy(c: Context, command: Buy) -> Drafts:
    team_id, item_id, count = command.team, command.item, command.count
    team = active_team(c, team_id)
    items = c.ruleset.sideline_items(team)
    refuse(sold(c.ruleset, items, item_id))
    item = items[item_id]
    if count < 1:
        raise InvalidInput("buy at least one")
    refuse(while_drafting(team, item))
    refuse(item_room(team, item, held(team, item_id, item.counts_as), count))
    refuse(c.ruleset.problems(Buying(team, c.players(team_id), item_id, count)))
    price = c.ruleset.price(Sideline(team, item_id, count))
    afford(team, price, f"{count} x {item.name}")
    return [
        ev.SidelinePurchased(
            team=team_id, purchases=(Purchase(item=item_id, count=count, price=price),)
        )
    ]


def plan_release(c: Context, command: Release) -> Drafts:
    team_id, item_id, count = command.team, command.item, command.count
    team = active_team(c, team_id)
    items = c.ruleset.sideline_items(team)
    item = items.get(item_id)
    have = held(team, item_id, item.counts_as if item else "staff")
    refuse(let_go(team, item_id, have, count))
    refuse(c.ruleset.problems(Releasing(team, item_id, count)))
    return [ev.SidelineReleased(team=team_id, item=item_id, count=count)]


def plan_adjust(c: Context, command: AdjustTreasury) -> Drafts:
    team_id, amount = command.team, command.amount
    team = active_team(c, team_id)
    check_reason(c.reason, "a treasury adjustment", "the treasury shows it beside the gold")
    if amount == 0:
        raise InvalidInput(
            "an adjustment of 0 changes nothing: give the gold to add (negative to take)"
        )
    refuse(not_below_nothing(team, amount))
    adjusted = ev.TreasuryAdjusted(team=team_id, amount=amount)  # the amount's own bound first
    refuse(not_past_the_bound(team, amount))
    return [adjusted]


def plan_advance(c: Context, command: AdvancePlayer) -> Drafts:
    """The advancement, or, when the ledger's dice leave a choice not yet made, the roll
    recorded for the coach to choose from (``advance_rolls``)."""
    team_id = command.team
    team = active_team(c, team_id)
    player = current_player(c, team_id, command.player)
    roll = waiting(player)
    by_ledger = c.league.advancements_by_ledger and command.kind in ROLLED_FIRST
    rolling = (command.roll_missing or by_ledger) and not roll
    ledger_dice = c.advancement_dice(player) if rolling else None
    proposed = ev.PlayerAdvanced(
        team=team_id,
        player=player.player_id,
        kind=command.kind,
        skill=c.ruleset.catalogue.skill_named(command.skill) if command.skill else None,
        characteristic=command.characteristic,
        category=command.category,
        # the ledger's roll, sent by the form with its values, is recorded as its own
        dice=ledger_dice.recognised(command.dice) if ledger_dice else command.dice,
    )
    if by_ledger and not roll:
        refuse_table_dice(c, proposed)
    if ledger_dice is not None:
        rolled = missing_rolls(c, team, player, proposed, ledger_dice)
        proposed = proposed.model_copy(update={"dice": proposed.dice + rolled})
    if roll is not None:
        proposed = from_waiting(player, roll, proposed)
    problems = c.ruleset.problems(Advancing(player, team, proposed))
    if problems and roll is not None:
        refuse_unchosen(c, team, player, roll, proposed)
    if problems and roll is None and (instead := after_the_roll(c, team, player, proposed)):
        if isinstance(instead, ev.AdvancementRolled):
            return [instead]
        proposed, problems = instead, []
    if problems and roll is None:
        refuse_star_roll_unchosen(c, team, player, proposed)
    refuse(problems)
    refuse(unread_rolls(c.ruleset, proposed))
    return [proposed]


def require(c: Context, feature: Feature, what: str) -> None:
    refuse(has_feature(c.ruleset, feature, what))


def plan_bounty(c: Context, command: PostBounty) -> Drafts:
    """ZAL 21: any team may put gold on a player's head, at any time but during a game."""
    team_id, ref, amount = command.team, command.player, command.amount
    require(c, Feature.BOUNTIES, "bounties")
    team = active_team(c, team_id)
    target = next(
        (p for t in c.teams() for p in c.players(t.team_id) if ref in (p.player_id, p.name)), None
    )
    if target is None:
        raise InvalidInput(f"no player '{ref}' in league {c.league.slug}")
    if target.status not in ON_ROSTER:
        raise NotAllowed(f"{target.name} is no longer playing ({target.status})")
    if amount <= 0:
        raise InvalidInput("a bounty must be more than nothing")
    afford(team, amount, f"a bounty of {gold(amount)}")
    return [ev.BountyPosted(team=team_id, player=target.player_id, amount=amount)]


def check_retirement(c: Context, player: PlayerRow) -> None:
    """BB2025 'Temporarily Retiring': only "should a player suffer a Lasting Injury"."""
    require(c, Feature.TEMPORARY_RETIREMENT, "temporary retirement")
    if player.status == "retired":
        raise NotAllowed(f"{player.name} is already temporarily retiring")
    if not lasting_injuries(player):
        raise NotAllowed(
            f"{player.name} has no Lasting Injury: only a player who suffered"
            " one may temporarily retire"
        )
