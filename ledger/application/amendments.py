"""What ``ledger correct --set`` may store: what the event's own command could have
recorded where the event stands.

An amendment changes the facts an event records. Folding the corrected log shows whether
the books still add up (``corrections.rehearse``), but the fold reads facts without asking
the questions the command asked before the event existed: whether a skill is one the
player may take, an item one the team may buy, a name one no team-mate wears, a season
plan one the edition allows. So an amended event is planned again by its command, in the
league as it stood just before it (``corrections.context_before``): one rule in one place,
and a refusal in the command's own words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ledger.application import seasons, teams
from ledger.application.commands import AdvancePlayer, Buy, HirePlayer, StartSeason
from ledger.application.context import Context, Drafts
from ledger.domain import events as ev
from ledger.domain.state import ON_ROSTER
from ledger.errors import CorrectionRefused, LedgerError
from ledger.rules.problems import refuse, unique_identity


def hire(c: Context, e: Any) -> Drafts:
    return teams.plan_hire(
        c,
        HirePlayer(
            c.league.slug,
            e.team,
            e.position,
            e.name,
            number=e.number,
            journeyman=e.hireling,
            match=e.from_match,
            star=e.star,
            from_list=e.from_list,
            equipment=e.equipment,
        ),
    )


def advance(c: Context, e: Any) -> Drafts:
    return teams.plan_advance(
        c,
        AdvancePlayer(
            c.league.slug,
            e.team,
            e.player,
            e.kind,
            skill=e.skill,
            characteristic=e.characteristic,
            dice=e.dice,
            category=e.category,
        ),
    )


def purchase(c: Context, e: Any) -> Drafts:
    return [
        draft
        for bought in e.purchases
        for draft in teams.plan_buy(c, Buy(c.league.slug, e.team, bought.item, bought.count))
    ]


def season(c: Context, e: Any) -> Drafts:
    planned = seasons.plan_start(
        c, StartSeason(c.league.slug, e.divisions, playoff_teams=e.playoff_teams, name=e.name)
    )
    number = planned[0].season if isinstance(planned[0], ev.SeasonStarted) else None
    if number != e.season:
        raise CorrectionRefused(
            f"the season it starts follows from the seasons before it: {number}, not {e.season}"
        )
    return planned


PLANNED_BY: Mapping[type[ev.LedgerEvent], Callable[[Context, Any], Drafts]] = {
    ev.PlayerHired: hire,
    ev.PlayerAdvanced: advance,
    ev.SidelinePurchased: purchase,
    ev.SeasonStarted: season,
}
"""The events whose command decides more than the fold can tell, by the command that
plans them. Other events' amendments are judged by the fold's rehearsal alone."""


def still_unique(now: Context, e: ev.PlayerHired) -> None:
    """A hired player still on the roster keeps a name and number no team-mate wears now:
    a later hire was allowed a name the amendment would give him."""
    roster = [p for p in now.players(e.team) if p.status in ON_ROSTER]
    if any(p.player_id == e.player for p in roster):
        mates = [p for p in roster if p.player_id != e.player]
        refuse(unique_identity(now.team(e.team), mates, e.name, e.number))


def check_as_planned(before: Context, now: Context, event: ev.LedgerEvent) -> None:
    """Refuse ``event`` (an amended event) unless its command would record it in the league
    as it stood just before it (``before``), and, for a hire, unless its name and number
    are still free among the player's team-mates (``now``)."""
    plan = PLANNED_BY.get(type(event))
    if plan is None:
        return
    try:
        plan(before, event)
        if isinstance(event, ev.PlayerHired):
            still_unique(now, event)
    except LedgerError as refused:
        raise CorrectionRefused(
            f"event {event.seq} amended so could not have been recorded: {refused.message}"
        ) from None
