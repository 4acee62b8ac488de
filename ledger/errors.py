"""The one exception hierarchy of the ledger.

Every problem a commissioner can cause is a :class:`LedgerError` with a stable ``code``
(for scripts and tests) and a sentence a commissioner understands (for people). The CLI
prints ``error[<code>]: <sentence>`` and exits non-zero; nothing has been written when one
of these is raised by a command.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

LONGEST_WORD = 120
"""A run of text without a space longer than this in a sentence is something given, not
a word: an id of 10,000 characters is said by its start and its length."""


class LedgerError(Exception):
    """``given`` and ``known``, when a name was not found among others: the sentence then
    ends by suggesting the closest known one (``did you mean 'Griff Junior'?``)."""

    code = "ledger-error"
    exit_code = 1

    def __init__(
        self, message: str, *, given: str | None = None, known: Iterable[str] = ()
    ) -> None:
        if given is not None:
            message = suggested(message, given, known)
        message = clipped(message)
        super().__init__(message)
        self.message = message


def clipped(sentence: str) -> str:
    """``sentence`` with every run of over ``LONGEST_WORD`` characters without a space
    shortened to its start and its length (a sentence echoes what it was given: a line of
    the CLI, a problem's detail and a page's error stay readable)."""
    return re.sub(
        rf"""[^\s'"]{{{LONGEST_WORD + 1},}}""",
        lambda m: f"{m.group()[:40]}... ({len(m.group()):,} characters)",
        sentence,
    )


def suggested(sentence: str, given: str, known: Iterable[str]) -> str:
    """``sentence``, ending with the known name closest to ``given`` when one is close."""
    closest = did_you_mean(given, known)
    return f"{sentence}; did you mean '{closest}'?" if closest is not None else sentence


def did_you_mean(given: str, known: Iterable[str]) -> str | None:
    """The known name closest to ``given`` (a typo, another case), or None when none is
    close: the one place that suggests, for commands, leagues, teams, players, positions
    and options alike."""
    names = {name.casefold(): name for name in known if name != given}
    wanted = given.casefold()
    if wanted in names:
        return names[wanted]
    # The first word of an id ('rotter' for rotter_lineman) before a near spelling of
    # another ('bloater'): ids join words with _ or -, and a user often gives the first.
    started = sorted(n for n in names if n.startswith((f"{wanted}_", f"{wanted}-")))
    if len(started) == 1:
        return names[started[0]]
    close = difflib.get_close_matches(wanted, list(names), n=1, cutoff=0.6)
    return names[close[0]] if close else None


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


class UnknownSubmission(NotFound):
    code = "unknown-submission"


class UnknownItem(NotFound):
    """Something to buy that the sideline or the inducements do not sell."""

    code = "unknown-item"


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


class DiceNotAsked(InvalidDice):
    """Dice the match's sequence does not ask for: a mistake of the game as a whole (which
    players played decides it), where ``InvalidDice`` is one of the die itself."""


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


class TeamNameTaken(NameTaken):
    """Another team of the league is called so: the pick-lists, the tables and the star
    draft would show two teams alike."""

    code = "team-name-taken"


class NumberTaken(RuleViolation):
    """A shirt number another player of the roster wears."""

    code = "number-taken"


class PlayerUnavailable(RuleViolation):
    code = "player-unavailable"


class PlayerNotInTeam(RuleViolation):
    code = "player-not-in-team"


class MatchAlreadyRecorded(RuleViolation):
    code = "match-already-recorded"


class AlreadyInBooks(RuleViolation):
    """A stored event that would make a second league, team or player under an id the
    books already hold (an altered log: no command writes one)."""

    code = "already-in-books"


class HirelingAlreadySigned(RuleViolation):
    """A journeyman or mercenary joins a roster once for a game he played."""

    code = "hireling-signed"


class TooFewPlayers(RuleViolation):
    code = "too-few-players"


class InvalidAdvancement(RuleViolation):
    code = "invalid-advancement"


class ChoiceNeeded(InvalidAdvancement):
    """The dice stand and give more than one thing: the refusal names what they give, and
    the same advancement with a choice of them is taken."""

    code = "choice-needed"


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


# An edition's own rules (its ``check_*`` answers ``Problem`` values carrying these): each
# refines the error its command refused with before it had a code of its own, so the exit
# code and the HTTP status stay those of the parent.


class ConcessionRefused(RuleViolation):
    """A concession or forfeit the edition does not have, or recorded wrongly."""

    code = "concession"


class MvpRefused(RuleViolation):
    """More MVPs than the edition awards, or one given to a player who may not have it."""

    code = "mvp-award"


class RefereeRefused(RuleViolation):
    code = "referee"


class HirelingRefused(RuleViolation):
    """A star, mercenary, freebooter or journeyman a team may not field in this game."""

    code = "hireling"


class AppearanceFeeRefused(RuleViolation):
    code = "appearance-fee"


class FanFactorRefused(RuleViolation):
    code = "fan-factor"


class MatchSidesRefused(RuleViolation):
    """More teams in one match than the edition plays."""

    code = "match-sides"


class AdvancementDue(RuleViolation):
    """The post-game sequence closes only once every advancement due is taken."""

    code = "advancement-due"


class StarRefused(NotAllowed):
    """A star player the edition does not let this team hire."""

    code = "star-hire"


class AllyRefused(NotAllowed):
    code = "ally"


class SecretWeaponRefused(NotAllowed):
    code = "secret-weapon"


class FreeRerollRefused(NotAllowed):
    code = "free-reroll"


class RerollsKept(NotAllowed):
    """Team re-rolls that stay on the roster once the team is drafted."""

    code = "rerolls-kept"


class FansKept(NotAllowed):
    """Dedicated Fans, which only the post-game roll changes once the team is drafted."""

    code = "fans-kept"


class StarContracted(RuleViolation):
    """A star under contract for the season, who may not be fired."""

    code = "star-contract"


class CasualtyDice(InvalidDice):
    """Casualty dice that disagree with the outcome or effects reported."""

    code = "casualty-dice"


class DieWanted(InvalidInput):
    """A casualty whose dice so far leave its result open: ``purpose`` is the die its
    edition reads the result from next (a gold4 Specific Injury D6). The sentence is the
    report file's (the key to give, or the outcome to name instead); a form says it by its
    own field, and the ledger rolls the die when asked to roll what is left out."""

    def __init__(self, message: str, purpose: str = "") -> None:
        super().__init__(message)
        self.purpose = purpose


class PlayoffPlaces(InvalidInput):
    code = "playoff-places"


class EmptyDivision(InvalidInput):
    code = "empty-division"


class DivisionSize(InvalidInput):
    code = "division-size"


# --- the store ---------------------------------------------------------------------


class ConcurrentUpdate(LedgerError):
    code = "concurrent-update"


class AlreadyExists(LedgerError):
    """A name the ledger already gives to another league or account (a conflict with the
    ledger as it is: HTTP 409)."""

    code = "already-exists"


class LeagueExists(AlreadyExists):
    code = "league-exists"


class AccountExists(AlreadyExists):
    code = "account-exists"


class StoreError(LedgerError):
    code = "store-error"


class ImportRefused(StoreError):
    code = "import-refused"


class AmbiguousLeague(LedgerError):
    code = "ambiguous-league"
    exit_code = 2


class EventDoesNotApply(LedgerError):
    """A command's event would not apply to the league's books (a bug or an older log's
    state the rules did not foresee): refused, nothing written, rather than stored."""

    code = "event-does-not-apply"


class LeagueUnreadable(StoreError):
    code = "league-unreadable"


class NoLedger(NotFound):
    """A command that only reads, pointed at a ledger file that does not exist: most
    likely a typo in ``--db``, so nothing is created."""

    code = "no-ledger"


class FileProblem(InvalidInput):
    """A file or folder named on the command line cannot be read or written."""

    code = "file"


# --- who may act ----------------------------------------------------------------------


class Unauthenticated(LedgerError):
    """No account, or credentials that do not hold, where an account is needed (401)."""

    code = "unauthenticated"


class Forbidden(LedgerError):
    """The account may not do this (403): the sentence says which role it would need."""

    code = "forbidden"


class UnknownAccount(NotFound):
    code = "unknown-account"


class UnknownToken(NotFound):
    code = "unknown-token"


class VersionMismatch(LedgerError):
    """The caller acted on a version of the league that is no longer the latest (412)."""

    code = "version-mismatch"
