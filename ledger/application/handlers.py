"""Which handler answers which command: one explicit table, installed by the composition
root (``ledger.bootstrap``) in the ledger, whose ``handle`` looks the command up here.

A handler is a function ``(context, command) -> drafts``: it reads the league as the
context shows it (its state and ruleset), raises the ``LedgerError`` of the first rule the
command breaks, and otherwise returns the events to record, as drafts: built and validated
(``PlayerHired(team=..., ...)``), without the envelope the log seals them with. It writes
nothing itself: ``LeagueLedger.handle`` seals the drafts into the league's log, rehearses
them and appends them in one transaction, or nothing (``unit.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ledger.application import (
    closing,
    corrections,
    grants,
    inducements,
    match_facts,
    matches,
    redrafts,
    seasons,
    submissions,
    teams,
)
from ledger.application import commands as cmd
from ledger.application.context import Context, Drafts

Handler = Callable[[Context, Any], Drafts]
"""``(context, command) -> drafts``; ``Any`` because each takes its own command type."""

C = TypeVar("C", bound=cmd.Command[Any])


def on(kind: type[C], handler: Callable[[Context, C], Drafts]) -> tuple[type[C], Handler]:
    """One row of the table; mypy checks that the handler takes that very command."""
    return kind, handler


ROWS = (
    on(cmd.RegisterTeam, teams.plan_register),
    on(cmd.HirePlayer, teams.plan_hire),
    on(cmd.FirePlayer, teams.plan_fire),
    on(cmd.RetirePlayer, teams.plan_retire),
    on(cmd.Buy, teams.plan_buy),
    on(cmd.Release, teams.plan_release),
    on(cmd.AdjustTreasury, teams.plan_adjust),
    on(cmd.AdvancePlayer, teams.plan_advance),
    on(cmd.PostBounty, teams.plan_bounty),
    on(cmd.Redraft, redrafts.plan_redraft),
    on(cmd.RecordMatch, matches.plan_record),
    on(cmd.ClosePostGame, closing.plan_close),
    on(cmd.CloseMatch, closing.plan_close_match),
    on(cmd.BuyInducements, inducements.plan_inducements),
    on(cmd.PlayCard, match_facts.plan_card),
    on(cmd.PayAppearanceFees, match_facts.plan_fees),
    on(cmd.StartSeason, seasons.plan_start),
    on(cmd.ScheduleSeason, seasons.plan_schedule),
    on(cmd.SchedulePlayoffs, seasons.plan_playoffs),
    on(cmd.CloseSeason, seasons.plan_close),
    on(cmd.OrderStarDraft, seasons.plan_star_draft),
    on(cmd.SignStar, seasons.plan_sign),
    on(cmd.CorrectMatch, corrections.plan_correct_match),
    on(cmd.Correct, corrections.plan_correct),
    on(cmd.SubmitReport, submissions.plan_submit),
    on(cmd.ConfirmReport, submissions.plan_confirm),
    on(cmd.DisputeReport, submissions.plan_dispute),
    on(cmd.WithdrawReport, submissions.plan_withdraw),
    on(cmd.ApproveReport, submissions.plan_approve),
    on(cmd.RejectReport, submissions.plan_reject),
    on(cmd.GrantMember, grants.plan_grant),
    on(cmd.RemoveMember, grants.plan_removal),
    on(cmd.SetVisibility, grants.plan_visibility),
    on(cmd.SetAdvancementDice, grants.plan_advancement_dice),
)
HANDLERS: Mapping[type[cmd.Command[Any]], Handler] = dict(ROWS)
