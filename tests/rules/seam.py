"""Asking a ruleset about a report as the commands do: the rows gathered from the books."""

from __future__ import annotations

from collections.abc import Sequence

from ledger.domain.events import MatchRecorded
from ledger.domain.state import LeagueView
from ledger.projections.gather import match_rows
from ledger.rules.asked import Report
from ledger.rules.problems import Problem
from ledger.rules.protocol import DiceNeed, Ruleset


def checked(ruleset: Ruleset, state: LeagueView, league_id: str, match: MatchRecorded) -> list[str]:
    """What ``ruleset`` finds wrong with a report against the books in ``state``."""
    rows = match_rows(state, league_id, match, ruleset, checking=True)
    return said(ruleset.problems(Report(match, rows)))


def said(problems: Sequence[Problem]) -> list[str]:
    """The sentences of the problems a ruleset finds, in its order (their codes are
    asserted in tests/rules/test_problems.py and tests/integration)."""
    return [problem.sentence for problem in problems]


def dice_for(
    ruleset: Ruleset, state: LeagueView, league_id: str, match: MatchRecorded
) -> list[DiceNeed]:
    """The dice ``ruleset`` asks of a report against the books in ``state``."""
    return ruleset.dice_needed(Report(match, match_rows(state, league_id, match, ruleset)))
