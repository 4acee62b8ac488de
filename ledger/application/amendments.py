"""What a correction may store: a log whose every event its own command could have
recorded where the event stands.

An amendment changes the facts an event records. Folding the corrected log shows whether
the books still add up (``corrections.rehearse``), but the fold reads facts without asking
the questions the command asked before the event existed: whether a skill is one the
player may take, an item one the team may buy, a name one no team-mate wears, a season
plan one the edition allows. So an amended event is planned again by its command, in the
league as it stood just before it (``corrections.context_before``): one rule in one place,
and a refusal in the command's own words.

A correction also changes the league every later event was decided in: an amended hire
may take the last place of a position a later hire filled, a voided purchase of a star
leaves a later report fielding a star nobody bought. So the rehearsal plans every later
event again in the corrected history (``Replanned``), and refuses what the correction
alone makes impossible (an event today's checks would refuse anyway, recorded before they
existed, is not the correction's doing).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from itertools import pairwise
from typing import Any

from ledger.application import closing, inducements, redrafts, seasons, teams
from ledger.application.commands import (
    AdvancePlayer,
    Buy,
    BuyInducements,
    ClosePostGame,
    CloseSeason,
    HirePlayer,
    Redraft,
    Release,
    StartSeason,
)
from ledger.application.context import Context, Drafts, drafting
from ledger.domain import events as ev
from ledger.domain.state import ON_ROSTER
from ledger.errors import CorrectionRefused, LedgerError
from ledger.projections.fold import Fold, amended
from ledger.projections.gather import match_rows
from ledger.rules.asked import Report
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


def release(c: Context, e: Any) -> Drafts:
    return teams.plan_release(c, Release(c.league.slug, e.team, e.item, e.count))


def induce(c: Context, e: Any) -> Drafts:
    wanted = {bought.item: bought.count for bought in e.purchases}
    return inducements.plan_inducements(c, BuyInducements(c.league.slug, e.match, e.team, wanted))


def report(c: Context, e: Any) -> Drafts:
    """A report's checks as the command makes them once the report is resolved: the
    edition's (its players may play, its stars were induced...)."""
    rows = match_rows(c.view, c.league_id, e, c.ruleset, checking=True)
    refuse(c.ruleset.problems(Report(e, rows)))
    return [e]


def redraft(c: Context, e: Any) -> Drafts:
    """Whom it re-hires, what it carries and the rolls made, asked again; an amended price
    stands as set, as a hire's does (a price the rules do not know)."""
    rolls: dict[str, dict[str, int | list[int]]] = {}
    for roll in e.dice:
        rolls.setdefault(roll.purpose, {})[roll.subject or ""] = list(roll.values)
    kept = [bought.item for bought in e.players]
    carried = {item.item: item.count for item in e.kept}
    return redrafts.plan_redraft(
        c, Redraft(c.league.slug, e.team, keep=kept, carry=carried, dice=rolls)
    )


def post_game(c: Context, e: Any) -> Drafts:
    """A close's dice asked again: those the edition asks of the team (Expensive Mistakes
    of a rich one), and once a team, so a close voided alone cannot be brought back beside
    the one the team made after it."""
    dice = {roll.purpose: list(roll.values) for roll in e.dice}
    return closing.plan_close(c, ClosePostGame(c.league.slug, e.match, e.team, dice=dice))


def close(c: Context, e: Any) -> Drafts:
    """Whether the close waived its play-offs is not recorded: asked as if it did, the
    command's other checks stand (every fixture recorded, every post-game closed)."""
    return seasons.plan_close(c, CloseSeason(c.league.slug, without_playoffs=True))


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
    ev.SidelineReleased: release,
    ev.InducementsBought: induce,
    ev.MatchRecorded: report,
    ev.PostGameClosed: post_game,
    ev.SeasonStarted: season,
    ev.SeasonClosed: close,
    ev.TeamRedrafted: redraft,
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
        with drafting():
            plan(before, event)
            if isinstance(event, ev.PlayerHired):
                still_unique(now, event)
    except LedgerError as refused:
        raise CorrectionRefused(
            f"event {event.seq} amended so could not have been recorded: {refused.message}"
        ) from None


class Replanned:
    """A fold's watcher that plans every event after ``after`` again, in the state the
    fold has reached just before it, by the command that records it (``PLANNED_BY``), and
    keeps each refusal by event number. Called after each event, it plans the next one."""

    def __init__(self, c: Context, events: Sequence[ev.LedgerEvent], after: int) -> None:
        self.c = c
        self.after = after
        self.following = {e.seq: n for e, n in pairwise(events)}
        self.refused: dict[int, str] = {}

    def __call__(self, fold: Fold, event: ev.LedgerEvent) -> None:
        upcoming = self.following.get(event.seq)
        if upcoming is None or upcoming.seq <= self.after:
            return
        plan = PLANNED_BY.get(type(upcoming))
        correction = fold.corrections.get(upcoming.seq)
        if plan is None or (correction is not None and correction.action == "void"):
            return
        read = amended(upcoming, correction) if correction is not None else upcoming
        if isinstance(read, ev.PostGameClosed) and fold.reports.get(read.match, 0) < 0:
            return  # voided with the match report it follows (``Fold.follow_match``)
        where = replace(self.c, view=fold.store, league=fold.league())
        try:
            with drafting():
                plan(where, read)
        except LedgerError as refused:
            self.refused[upcoming.seq] = refused.message
        else:  # a fold that starts again (past a fault) may find otherwise
            self.refused.pop(upcoming.seq, None)
