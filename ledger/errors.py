"""The one exception hierarchy of the ledger.

Every problem a commissioner can cause is a :class:`LedgerError` with a stable ``code``
(for scripts and tests) and a sentence a commissioner understands (for people). The CLI
prints ``error[<code>]: <sentence>`` and exits non-zero; nothing has been written when one
of these is raised by a command.
"""

from __future__ import annotations


class LedgerError(Exception):
    code = "ledger-error"
    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --- things that do not exist -------------------------------------------------------


class NotFound(LedgerError):
    code = "not-found"


class UnknownLeague(NotFound):
    code = "unknown-league"


class UnknownTeam(NotFound):
    code = "unknown-team"


class UnknownPlayer(NotFound):
    code = "unknown-player"


class UnknownPosition(NotFound):
    code = "unknown-position"


class UnknownMatch(NotFound):
    code = "unknown-match"


class UnknownEvent(NotFound):
    code = "unknown-event"


class UnknownRuleset(NotFound):
    code = "unknown-ruleset"


class UnknownSeason(NotFound):
    code = "unknown-season"


# --- input that does not have the right shape ----------------------------------------


class InvalidInput(LedgerError):
    code = "invalid-input"
    exit_code = 2


class MalformedReport(InvalidInput):
    code = "malformed-report"


class InvalidOption(InvalidInput):
    code = "invalid-option"


class InvalidDice(InvalidInput):
    code = "invalid-dice"


# --- rules of the league's edition ----------------------------------------------------


class RuleViolation(LedgerError):
    code = "rule-violation"


class RosterFull(RuleViolation):
    code = "roster-full"


class PositionLimitReached(RuleViolation):
    code = "position-limit"


class InsufficientTreasury(RuleViolation):
    code = "insufficient-treasury"


class NameTaken(RuleViolation):
    code = "name-taken"


class PlayerUnavailable(RuleViolation):
    code = "player-unavailable"


class PlayerNotInTeam(RuleViolation):
    code = "player-not-in-team"


class MatchAlreadyRecorded(RuleViolation):
    code = "match-already-recorded"


class TooFewPlayers(RuleViolation):
    code = "too-few-players"


class InvalidAdvancement(RuleViolation):
    code = "invalid-advancement"


class SeasonState(RuleViolation):
    code = "season-state"


class PostGameOpen(RuleViolation):
    code = "post-game-open"


class StaffLimit(RuleViolation):
    code = "staff-limit"


class NotAllowed(RuleViolation):
    code = "not-allowed"


class CorrectionRefused(RuleViolation):
    code = "correction-refused"


# --- the store ---------------------------------------------------------------------


class ConcurrentUpdate(LedgerError):
    code = "concurrent-update"


class StoreError(LedgerError):
    code = "store-error"


class ImportRefused(StoreError):
    code = "import-refused"


class AmbiguousLeague(LedgerError):
    code = "ambiguous-league"
    exit_code = 2
