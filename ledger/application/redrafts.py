"""The re-draft between seasons (seed 001 'Off-season and Re-drafting'): a team's coach
re-hires players at the price the edition asks, carries re-rolls and staff at their
standard cost, all within the Re-draft Budget, and the Rest & Relaxation rolls are made.

``plan_redraft`` is the command's handler. ``redraft_offer`` is what a form shows before
the choice: who may be re-hired and at what price, what may be carried, the budget and
the rolls asked, each from the very functions the handler decides with, so a page never
prices or checks a re-draft by a second reckoning of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ledger.application.commands import Redraft
from ledger.application.context import Context, Drafts
from ledger.application.teams import active_team, current_player, require
from ledger.domain import events as ev
from ledger.domain.state import ON_ROSTER, PlayerRow, SeasonRow, TeamRow
from ledger.domain.values import DiceRoll, Purchase
from ledger.errors import InsufficientTreasury, InvalidDice, InvalidInput, SeasonState
from ledger.projections.gather import redraft_rows
from ledger.rules.asked import Redrafting, Rehiring
from ledger.rules.problems import gold, held
from ledger.rules.protocol import DiceNeed, Feature, SidelineItem

REGULAR = "regular"
"""The players a re-draft re-hires; another kind on the roster (a star under contract)
stays as he is."""
Entries = dict[str, dict[str, int | list[int]]]
"""The rolls entered, by purpose, then by player (a name or id)."""


def redraft_turn(c: Context, team_id: str) -> tuple[TeamRow, int]:
    """The team and the season it would re-draft for, when it may re-draft now: the
    edition has re-drafts, the last season is closed, and the team has not re-drafted for
    the next one yet. Raises the reason otherwise."""
    require(c, Feature.REDRAFT, "off-season re-drafts")
    team = active_team(c, team_id)
    season = c.league.current_season + 1
    current = c.view.get(SeasonRow, c.league_id, c.league.current_season)
    if current is None:
        raise SeasonState("re-drafting happens in the off-season, once a season is closed")
    if current.status != "closed":
        raise SeasonState(
            f"re-drafting happens in the off-season: season {current.season} is still open"
        )
    if team.season == season:
        raise SeasonState(f"{team.name} are already re-drafted for season {season}")
    return team, season


def rehire_price(c: Context, player: PlayerRow, season: int) -> int:
    return c.ruleset.price(Rehiring(player, season))


def redraft_funds(c: Context, team: TeamRow, season: int) -> tuple[int, str]:
    """The Re-draft Budget and how it is made up, as the edition reckons it."""
    return c.ruleset.redraft_budget(redraft_rows(c.view, c.league_id, team, season), season)


def redraft_needs(c: Context, team: TeamRow) -> list[DiceNeed]:
    """The Rest & Relaxation rolls the edition asks of the team's players."""
    return c.ruleset.dice_needed(Redrafting(team, c.players(team.team_id)))


def plan_redraft(c: Context, command: Redraft) -> Drafts:
    """BB2025 'Off-season and Re-drafting': between a closed season and the next."""
    team_id, keep, carry = command.team, list(command.keep), dict(command.carry or {})
    entries = {k: dict(v) for k, v in (command.dice or {}).items()}
    team, season = redraft_turn(c, team_id)
    kept = [current_player(c, team_id, ref) for ref in keep]
    twice = next((p for i, p in enumerate(kept) if p in kept[:i]), None)
    if twice is not None:
        raise InvalidInput(f"{twice.name} is kept twice: a player is re-hired once")
    players = tuple(
        Purchase(item=p.player_id, price=rehire_price(c, p, season))
        for p in kept
        if p.kind == REGULAR
    )
    staff = tuple(carried(c, team, item, count) for item, count in carry.items())
    funds, how = redraft_funds(c, team, season)
    cost = sum(p.price for p in (*players, *staff))
    if cost > funds:
        raise InsufficientTreasury(
            f"re-hiring and carrying cost {gold(cost)} but the re-draft"
            f" budget is {gold(funds)} ({how})"
        )
    dice = redraft_rolls(c, team, entries, command.roll_missing)
    return [ev.TeamRedrafted(team=team_id, season=season, players=players, kept=staff, dice=dice)]


def carriable(c: Context, team: TeamRow) -> dict[str, SidelineItem]:
    """What a re-draft may carry: re-rolls and sideline staff (Dedicated Fans start anew)."""
    return {k: i for k, i in c.ruleset.sideline_items(team).items() if i.counts_as != "fans"}


def carried(c: Context, team: TeamRow, item_id: str, count: int) -> Purchase:
    items = carriable(c, team)
    item = items.get(item_id)
    if item is None:
        raise InvalidInput(
            f"'{item_id}' cannot be carried into a re-draft (re-rolls and sideline staff can:"
            f" {', '.join(sorted(items))})",
            given=item_id,
            known=items,
        )
    if count < 1:
        raise InvalidInput(f"carry 1 or more x {item.name}, not {count}")
    have = held(team, item_id, item.counts_as)
    if count > have:
        raise InvalidInput(f"{team.name} have {have} x {item.name}, not {count}")
    return Purchase(item=item_id, count=count, price=item.price * count)


def redraft_rolls(
    c: Context, team: TeamRow, entries: Entries, roll_missing: bool
) -> tuple[DiceRoll, ...]:
    needs = redraft_needs(c, team)
    entered = rolls_asked(c, team, entries, needs)
    rolls = []
    for need in needs:
        by_player = entered.get(need.purpose, {})
        if need.subject in by_player:
            values = by_player[need.subject]
            dice = (values,) if isinstance(values, int) else tuple(values)
            rolls.append(
                DiceRoll(purpose=need.purpose, dice=need.dice, values=dice, subject=need.subject)
            )
        elif roll_missing:
            rolls.append(c.roll(need.purpose, need.dice, need.subject))
        else:
            raise InvalidDice(
                f"the re-draft needs {need.purpose} ({need.dice}) for"
                f" {need.subject}: {need.why} (enter it, or let the ledger roll it)"
            )
    return tuple(rolls)


def rolls_asked(
    c: Context, team: TeamRow, entries: Entries, needs: Sequence[DiceNeed]
) -> dict[str, dict[str, int | list[int]]]:
    """The rolls entered, by purpose and player id. One the re-draft does not ask is
    refused, not dropped unrecorded: a purpose misspelt, a player with nothing to roll."""
    asked = {(need.purpose, need.subject) for need in needs}
    given: dict[str, dict[str, int | list[int]]] = {}
    for purpose, by_ref in entries.items():
        for ref, values in by_ref.items():
            player = c.player(ref, team.team_id) if ref.strip() else None
            if player is None or (purpose, player.player_id) not in asked:
                whose = f" of {player.name}" if player else ""
                wanted = sorted(
                    {f"{n.purpose} for {c.player(n.subject or '').name}" for n in needs}
                )
                raise InvalidDice(
                    f"the re-draft asks no {purpose} roll{whose}"
                    f" (it asks {', '.join(wanted) or 'no roll of this team'})"
                )
            given.setdefault(purpose, {})[player.player_id] = values
    return given


# --- what a form shows before the choice ------------------------------------------------------


@dataclass(frozen=True)
class Rehire:
    player: PlayerRow
    price: int
    """Current Value plus agent's fees, as the edition prices the re-hire."""


@dataclass(frozen=True)
class Carry:
    item: SidelineItem
    held: int


@dataclass(frozen=True)
class RedraftOffer:
    team: TeamRow
    season: int
    rehires: tuple[Rehire, ...]
    staying: tuple[PlayerRow, ...]
    """Players on the roster the re-draft does not re-hire (a star under contract): they
    stay, and nothing is paid for them."""
    carry: tuple[Carry, ...]
    funds: int
    how: str
    """How the budget is made up."""
    dice: tuple[DiceNeed, ...]


def redraft_offer(c: Context, team_id: str) -> RedraftOffer:
    """What the team may choose at its re-draft now; raises why when it may not re-draft."""
    team, season = redraft_turn(c, team_id)
    players = [p for p in c.players(team_id) if p.status in ON_ROSTER]
    players.sort(key=lambda p: (p.number is None, p.number or 0, p.name))
    funds, how = redraft_funds(c, team, season)
    return RedraftOffer(
        team=team,
        season=season,
        rehires=tuple(Rehire(p, rehire_price(c, p, season)) for p in players if p.kind == REGULAR),
        staying=tuple(p for p in players if p.kind != REGULAR),
        carry=tuple(
            Carry(item, have)
            for item_id, item in carriable(c, team).items()
            if (have := held(team, item_id, item.counts_as))
        ),
        funds=funds,
        how=how,
        dice=tuple(redraft_needs(c, team)),
    )
