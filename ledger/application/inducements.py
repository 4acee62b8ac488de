"""Inducements bought before a fixture (BB2025 'Inducements'; BB2020 and LRB6 alike): the
team of higher value for the game (CTV; TV in LRB6) buys first, from its treasury; then
the other spends its petty cash (and at most what the edition lets it add from its
treasury).

``inducement_terms`` is where a team stands before it chooses: whether it may buy now,
the edition's offer to it and what it may spend. The handler decides with it and a form
shows it, so a page never reckons a price, a limit or a budget of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ledger.application.commands import BuyInducements
from ledger.application.context import Context, Drafts
from ledger.domain import events as ev
from ledger.domain.state import MatchRow, TeamRow, on_roster
from ledger.domain.values import Purchase
from ledger.errors import InsufficientTreasury, InvalidInput, NotAllowed, UnknownItem, UnknownMatch
from ledger.projections.gather import league_stars
from ledger.rules.asked import Inducing, Lineup
from ledger.rules.problems import refuse
from ledger.rules.protocol import Budget, Feature, SidelineItem


@dataclass(frozen=True)
class Terms:
    """What a team may buy for a fixture now, and with what."""

    match: MatchRow
    team: TeamRow
    other: TeamRow
    value: int
    other_value: int
    """Each side's value for the game (``Ruleset.game_value_label`` names it)."""
    offer: Mapping[str, SidelineItem]
    budget: Budget
    contracted: Mapping[str, tuple[str, str]]
    """The star players on a roster of the league, by star id, each with his name and his
    team's: what the edition's offer leaves out for that (BB2025's long-term contracts)."""


def inducement_terms(c: Context, match_id: str, team_id: str) -> Terms:
    """The team's terms for the fixture; raises why when it may not buy now (the edition
    buys none this way, the game is played, the team bought already, or the other side
    buys first)."""
    if Feature.INDUCEMENTS not in c.ruleset.features:
        raise NotAllowed(f"{c.ruleset.name} leagues buy no inducements this way")
    match = c.match(match_id)
    if match is None or match.status != "scheduled":
        raise UnknownMatch(f"no fixture '{match_id}' waiting to be played in {c.league.slug}")
    if team_id not in (match.home, match.away):
        raise InvalidInput(f"{team_id[:64]} does not play {match_id}")
    other_id = match.away if team_id == match.home else match.home
    team, other = c.team(team_id), c.team(other_id)
    if team_id in match.inducements:
        raise NotAllowed(f"{team.name} have already bought their inducements for {match_id}")
    value = c.ruleset.value(Lineup(team, c.players(team_id)))
    other_value = c.ruleset.value(Lineup(other, c.players(other_id)))
    if value < other_value and other_id not in match.inducements:
        label = c.ruleset.game_value_label
        raise NotAllowed(
            f"{other.name} ({label} {other_value:,}) buy their inducements first;"
            f" {team.name} have {label} {value:,}"
        )
    spent = int(match.inducements.get(other_id, {}).get("treasury_spent", 0))
    budget = c.ruleset.inducement_budget(value, other_value, spent, team.treasury)
    contracted = contracted_stars(c)
    offer = c.ruleset.inducement_offer(team, contracted)
    return Terms(match, team, other, value, other_value, offer, budget, contracted)


def contracted_stars(c: Context) -> dict[str, tuple[str, str]]:
    """The star players on a roster of the league (signed for the season, or hired for
    good), by star id, each with his name and the name of the team that holds him."""
    held = on_roster(league_stars(c.view, c.league_id))
    return {p.position: (p.name, c.team(p.team_id).name) for p in held}


def plan_inducements(c: Context, command: BuyInducements) -> Drafts:
    terms = inducement_terms(c, command.match, command.team)
    team, budget = terms.team, terms.budget
    purchases = [priced(terms, item, count) for item, count in command.wanted.items()]
    refuse(c.ruleset.problems(Inducing(team, command.wanted)))
    cost = sum(p.price for p in purchases)
    from_treasury = max(0, cost - budget.petty_cash)
    if from_treasury > budget.treasury:
        raise InsufficientTreasury(
            f"the inducements cost {cost:,}; {team.name} may spend {budget.petty_cash:,} petty"
            f" cash and at most {budget.treasury:,} from the treasury ({budget.why})"
        )
    return [
        ev.InducementsBought(
            match=command.match,
            team=command.team,
            purchases=tuple(purchases),
            treasury_spent=from_treasury,
            petty_cash=budget.petty_cash,
        )
    ]


def priced(terms: Terms, item_id: str, count: int) -> Purchase:
    """``count`` of an inducement at the edition's price, within its limit."""
    item = terms.offer.get(item_id)
    if item is None and item_id in terms.contracted:
        star, team = terms.contracted[item_id]
        raise NotAllowed(
            f"{terms.team.name} cannot induce {star}: he is under contract to {team} this"
            " season, and plays for no other team"
        )
    if item is None:
        offered = ", ".join(sorted(terms.offer))
        raise UnknownItem(
            f"{terms.team.name} cannot buy inducement '{item_id}' (offer: {offered})",
            given=item_id,
            known=terms.offer,
        )
    if count < 1:  # a purchase of none was stored, and one of -1 refused in its fields' words
        raise InvalidInput(f"{count} x {item.name} asked for: leave out an inducement not bought")
    if count > item.max:
        raise InvalidInput(f"{count} x {item.name} asked for; at most {item.max}")
    return Purchase(item=item_id, count=count, price=item.price * count)
