"""Which handler answers which command: one explicit table, installed by the composition
root (``ledger.bootstrap``) in the ledger, whose ``handle`` looks the command up here.

A handler is a function ``(context, command) -> facts``: it reads the league as the
context shows it (its state and ruleset), raises the ``LedgerError`` of the first rule the
command breaks, and otherwise returns the facts to record (``context.Fact``). It writes
nothing itself: ``LeagueLedger.handle`` seals the facts into the league's log, rehearses
them and appends them in one transaction, or nothing (``unit.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ledger.application import commands as cmd
from ledger.application import corrections, matches, seasons, teams
from ledger.application.context import Context, Fact

Handler = Callable[[Context, Any], list[Fact]]
"""``(context, command) -> facts``; ``Any`` because each takes its own command type."""

HANDLERS: Mapping[type[cmd.Command[Any]], Handler] = {
    cmd.RegisterTeam: teams.plan_register,
    cmd.HirePlayer: teams.plan_hire,
    cmd.FirePlayer: teams.plan_fire,
    cmd.RetirePlayer: teams.plan_retire,
    cmd.Buy: teams.plan_buy,
    cmd.Release: teams.plan_release,
    cmd.AdjustTreasury: teams.plan_adjust,
    cmd.AdvancePlayer: teams.plan_advance,
    cmd.PostBounty: teams.plan_bounty,
    cmd.Redraft: teams.plan_redraft,
    cmd.RecordMatch: matches.plan_record,
    cmd.ClosePostGame: matches.plan_close,
    cmd.CloseMatch: matches.plan_close_match,
    cmd.BuyInducements: matches.plan_inducements,
    cmd.PlayCard: matches.plan_card,
    cmd.PayAppearanceFees: matches.plan_fees,
    cmd.StartSeason: seasons.plan_start,
    cmd.ScheduleSeason: seasons.plan_schedule,
    cmd.SchedulePlayoffs: seasons.plan_playoffs,
    cmd.CloseSeason: seasons.plan_close,
    cmd.OrderStarDraft: seasons.plan_star_draft,
    cmd.SignStar: seasons.plan_sign,
    cmd.CorrectMatch: corrections.plan_correct_match,
    cmd.Correct: corrections.plan_correct,
}
