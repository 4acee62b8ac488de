"""The hire form: what the books let a team hire, and ``ledger team hire`` from a page.

The pick-list offers the positions of the team's own list and, where the edition's
catalogue says so (``Catalogue.allies``, ``stars_joining``, ``equipment``): positions of
allied lists (gold4), star players hired for good (lrb6-zal, dz3) and what a player may be
bought with (gold4's secret weapons). An ally's or a star's price is the command's own
(``teams.hire_price``: a Goblin team pays double for an ally); when the command would
refuse one now (a second ally of a race, a star before the team's second match), the
option is shown, not offered, with the command's sentence. Every rule is the command's:
the POST runs ``HirePlayer`` with what was chosen and shows its refusal beside the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from annotated_types import Ge, Le
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.application.commands import HirePlayer
from ledger.application.context import Context
from ledger.application.service import LeagueLedger
from ledger.application.teams import hire_price
from ledger.domain.events import PlayerHired
from ledger.domain.state import PlayerRow, TeamRow
from ledger.errors import LedgerError
from ledger.rules.catalogue import Equipment
from ledger.rules.schema import Position, TeamList
from ledger.web import pages_reads as reads
from ledger.web.guard import needs
from ledger.web.pages_forms import (
    Calling,
    Errors,
    errors_of,
    number,
    required,
    see_other,
    team_crumbs,
    team_row,
    valid,
    values_of,
)
from ledger.web.pages_render import PageRoute, ledger_of, page
from ledger.web.problems import status_of

router = APIRouter(route_class=PageRoute, include_in_schema=False)

HIRE_FIELDS = {
    "unknown-position": "position",
    "unknown-team": "position",
    "position-limit": "position",
    "insufficient-treasury": "position",
    "ally": "position",
    "star-hire": "position",
    "secret-weapon": "equipment",
    "name-taken": "name",
    "number-taken": "number",
    "roster-full": "form",
}
ALLY, STAR = "ally:", "star:"
"""How the pick-list names an allied position (``ally:goblin:troll``) and a star
(``star:morg_n_thorg``); a position of the team's own list is its id, as before."""


def shirt_numbers() -> tuple[int, int]:
    """The shirt numbers a player may wear: the bounds of ``PlayerHired.number``, so that
    the form's field, its check and the event say the same."""
    bounds = PlayerHired.model_fields["number"].metadata
    low = next(b.ge for b in bounds if isinstance(b, Ge))
    high = next(b.le for b in bounds if isinstance(b, Le))
    return cast(int, low), cast(int, high)


SHIRTS = shirt_numbers()


@dataclass(frozen=True)
class Offer:
    """One line of the pick-list: its price and how many more may join (0: shown, not
    offered), and the command's sentence when it would refuse him now."""

    value: str
    name: str
    cost: int
    left: int
    refused: str = ""


@dataclass(frozen=True)
class OfferGroup:
    label: str
    offers: tuple[Offer, ...]


@dataclass(frozen=True)
class Asking:
    """What pricing an ally or a star asks of the command: its context, the team and its
    roster (``hire_price`` leaves the name aside: it is not what is priced)."""

    context: Context
    league: str
    team: TeamRow
    roster: Sequence[PlayerRow]

    def hire(
        self, position: str, *, star: str | None = None, ally: str | None = None
    ) -> HirePlayer:
        return HirePlayer(
            self.league, self.team.team_id, position, "new player", star=star, from_list=ally
        )

    def priced(self, offer: Offer, command: HirePlayer) -> Offer:
        """The offer at the command's price, or not offered with its refusal: also one
        the team has no more room for, so that the page says which rule stops it (one
        ally of each race, the position's limit), not only "0 more allowed"."""
        try:
            price = hire_price(self.context, command)
        except LedgerError as error:
            return Offer(offer.value, offer.name, offer.cost, 0, error.message)
        return Offer(offer.value, offer.name, price, offer.left)


def own_offers(league: reads.League, team: TeamRow) -> OfferGroup:
    choices = reads.hire_choices(league, team)
    offers = tuple(Offer(c.id, c.name, c.cost, c.left) for c in choices)
    return OfferGroup(league.ruleset.catalogue.team_list(team.roster).name, offers)


def ally_offers(league: reads.League, asking: Asking) -> list[OfferGroup]:
    """Per allied list, its positions: how many more is the smallest of the position's
    limit, the list's allowance (``Catalogue.allies``) and the roster's places."""
    catalogue, team, roster = league.ruleset.catalogue, asking.team, asking.roster
    places = max(catalogue.team_list(team.roster).max_players - len(roster), 0)
    groups = []
    for ally, most in catalogue.allies(team.roster).items():
        taken = [p for p in roster if p.roster == ally]
        allowed = min(max(most - len(taken), 0), places)
        team_list = catalogue.team_list(ally)
        offers = tuple(
            asking.priced(ally_offer(team_list, p, taken, allowed), asking.hire(p.id, ally=ally))
            for p in team_list.positions
        )
        groups.append(OfferGroup(f"Allies: {team_list.name} (at most {most})", offers))
    return groups


def ally_offer(
    ally: TeamList, position: Position, taken: Sequence[PlayerRow], allowed: int
) -> Offer:
    """Named with his list: a closed pick-list shows the option, not its group."""
    same = sum(1 for p in taken if p.position == position.id)
    left = min(max(position.max - same, 0), allowed)
    name = f"{position.name} ({ally.name} ally)"
    return Offer(f"{ALLY}{ally.id}:{position.id}", name, position.cost, left)


def star_offers(league: reads.League, asking: Asking) -> list[OfferGroup]:
    stars = league.ruleset.catalogue.stars_joining(asking.team.roster)
    offers = tuple(
        asking.priced(Offer(f"{STAR}{s.id}", s.name, s.cost, 1), asking.hire(s.id, star=s.id))
        for s in stars
    )
    return [OfferGroup("Star Players, hired for good", offers)] if offers else []


def offer_groups(ledger: LeagueLedger, league: reads.League, team: TeamRow) -> list[OfferGroup]:
    roster = league.queries.roster(team.team_id).players
    own = own_offers(league, team)
    catalogue = league.ruleset.catalogue
    if not catalogue.allies(team.roster) and not catalogue.stars_joining(team.roster):
        return [own]
    asking = Asking(ledger.context(league.slug), league.slug, team, roster)
    return [own, *ally_offers(league, asking), *star_offers(league, asking)]


@dataclass(frozen=True)
class Arming:
    """What the offered positions may be bought with, and those that may take none."""

    items: tuple[Equipment, ...]
    bare: tuple[str, ...]


def arming(league: reads.League, team: TeamRow) -> Arming:
    catalogue = league.ruleset.catalogue
    positions = [
        *catalogue.team_list(team.roster).positions,
        *(p for ally in catalogue.allies(team.roster) for p in catalogue.team_list(ally).positions),
    ]
    each = [(p, catalogue.equipment(team.roster, p)) for p in positions]
    items = {item.id: item for _, offered in each for item in offered}
    if not items:
        return Arming((), ())
    bare = tuple(dict.fromkeys(p.name for p, offered in each if not offered))
    return Arming(tuple(items.values()), bare)


def refusals(groups: Sequence[OfferGroup]) -> dict[str, list[str]]:
    """The offers shown but not offered, by the command's sentence (six stars refused for
    the same reason are one line)."""
    said: dict[str, list[str]] = {}
    for offer in (o for group in groups for o in group.offers if o.refused):
        said.setdefault(offer.refused, []).append(offer.name)
    return said


def hire_form(
    request: Request,
    league: str,
    team: str,
    values: Mapping[str, str],
    errors: Errors,
    status: int = 200,
) -> HTMLResponse:
    ledger = ledger_of(request)
    found = reads.open_league(ledger, league)
    row = team_row(found, team)
    roster = found.queries.roster(team).players
    groups = offer_groups(ledger, found, row)
    return page(
        request,
        "hire.html.j2",
        status=status,
        title=f"Hire for {row.name}",
        crumbs=team_crumbs(found, row),
        league=found,
        team=row,
        groups=groups,
        refused=refusals(groups),
        stars=any(o.value.startswith(STAR) for group in groups for o in group.offers),
        arming=arming(found, row),
        players=len(roster),
        max_players=found.ruleset.catalogue.team_list(row.roster).max_players,
        shirts=SHIRTS,
        values=values,
        errors=errors,
    )


@router.get("/leagues/{league}/teams/{team}/hire")
@needs("hire")
def hire_page(request: Request, league: str, team: str) -> HTMLResponse:
    return hire_form(request, league, team, {}, {})


def chosen(league: str, team: str, values: Mapping[str, str]) -> HirePlayer:
    """The command the form asks for: a position of the team's list, an ally's (``ally:
    LIST:POSITION``) or a star's (``star:ID``), with what he is bought with."""
    picked = required(values, "position", "choose a position from the team list")
    name = values.get("name", "").strip()  # a star joins under his own (the command's)
    if not picked.startswith(STAR):
        name = required(values, "name", "give the new player a name")
    shirt = number(values, "number", "a shirt number", *SHIRTS)
    equipment = tuple(e for e in (values.get("equipment", "").strip(),) if e)
    ally, star = None, None
    if picked.startswith(ALLY):
        ally, _, picked = picked.removeprefix(ALLY).partition(":")
    elif picked.startswith(STAR):
        picked = star = picked.removeprefix(STAR)
    return HirePlayer(
        league, team, picked, name, number=shirt, star=star, from_list=ally, equipment=equipment
    )


@router.post("/leagues/{league}/teams/{team}/hire")
@needs("hire")
async def hire(request: Request, league: str, team: str, call: Calling) -> Response:
    values = await values_of(request)

    def command(ledger: LeagueLedger, by: str) -> str:
        return str(valid(lambda: ledger.handle(chosen(league, team, values), by=by)))

    try:
        player = await run_in_threadpool(call.write, command)
    except LedgerError as error:
        return await run_in_threadpool(
            hire_form,
            request,
            league,
            team,
            values,
            errors_of(error, HIRE_FIELDS),
            status_of(error),
        )
    return see_other(f"/leagues/{league}/players/{player}?hired=1")  # with "Hire another"
