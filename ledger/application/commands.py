"""The commands a league's books take: one small frozen object for each thing a
commissioner or a coach asks the ledger to record.

A command says what is asked, in the words of the one asking (a player by name or
``#number``, dice as entered); it checks nothing. Its handler (``ledger.application.
handlers.HANDLERS``, installed by ``ledger.bootstrap``) validates it against the league's
state and ruleset and returns what to record, or raises the ``LedgerError`` of the first
rule it breaks. ``LeagueLedger.handle(command, by=..., reason=...)`` runs it; the CLI, the
service, the demo and the generator all go through it. Who asks and why are not part of
the command: they are the envelope of every event it records.

Worked example::

    ledger.handle(HirePlayer("reavers-league", "reavers", "lineman", "Otto"), by="ann")

records one ``PlayerHired`` and answers the new player's id (``HirePlayer.answer``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, fields
from typing import Any, Generic, Literal, TypeVar

from ledger.application.reports import MatchReport
from ledger.domain import events as ev
from ledger.domain.events import LedgerEvent
from ledger.domain.values import Characteristic, DiceRoll, Division
from ledger.errors import InvalidInput

R = TypeVar("R", covariant=True)
Dice = Mapping[str, int | list[int]]
"""Dice as entered: a roll's purpose and its value (or values)."""


@dataclass(frozen=True)
class Command(ABC, Generic[R]):
    """A request about one league; ``answer`` is what ``handle`` gives back to its caller
    (the new player's id, the season's number...), read from the events it recorded.
    Abstract: a command that does not say what it answers cannot be made."""

    league: str

    @abstractmethod
    def answer(self, events: Sequence[LedgerEvent]) -> R: ...

    def why(self, reason: str | None) -> str | None:
        """The reason its events record when none is given."""
        return reason


def printable(command: Command[Any]) -> None:
    """Every name and word a command carries is one line of printable text: a tab or a
    line break in a player's or a team's name would break every table that shows it.
    (Checked when a command is handled, not in the events: a stored name must always
    read back.)"""
    for field in fields(command):
        value = getattr(command, field.name)
        if isinstance(value, str):
            one_line(field.name, value)


def one_line(what: str, text: str) -> None:
    if not text.isprintable():
        raise InvalidInput(f"{what} must be one line of printable text")


@dataclass(frozen=True)
class Change(Command[None]):
    """A command that answers nothing but what it recorded."""

    def answer(self, events: Sequence[LedgerEvent]) -> None:
        return None


E = TypeVar("E", bound=LedgerEvent)


def first(events: Sequence[LedgerEvent], kind: type[E]) -> E:
    found = events[0]
    if not isinstance(found, kind):  # a handler records its own event first: a bug otherwise
        raise TypeError(f"expected {kind.__name__} first, not {type(found).__name__}")
    return found


# --- teams and players -----------------------------------------------------------------------


@dataclass(frozen=True)
class RegisterTeam(Change):
    team: str
    name: str
    coach: str
    roster: str
    _: KW_ONLY
    treasury: int | None = None
    """None: the edition's starting treasury."""


@dataclass(frozen=True)
class HirePlayer(Command[str]):
    team: str
    position: str
    name: str
    _: KW_ONLY
    number: int | None = None
    journeyman: str | None = None
    """A hireling of ``match`` hired for good (his id in that match's report)."""
    match: str | None = None
    star: str | None = None
    from_list: str | None = None
    """Another team list the position comes from (an edition's allies)."""
    equipment: Sequence[str] = ()

    def answer(self, events: Sequence[LedgerEvent]) -> str:
        return first(events, ev.PlayerHired).player


@dataclass(frozen=True)
class FirePlayer(Change):
    team: str
    player: str
    """Name, ``#number`` or id."""


@dataclass(frozen=True)
class RetirePlayer(Change):
    team: str
    player: str


@dataclass(frozen=True)
class Buy(Change):
    team: str
    item: str
    count: int = 1


@dataclass(frozen=True)
class Release(Change):
    team: str
    item: str
    count: int = 1


@dataclass(frozen=True)
class AdjustTreasury(Change):
    """Needs a reason (the one given to ``handle``)."""

    team: str
    amount: int


@dataclass(frozen=True)
class AdvancePlayer(Command[ev.PlayerAdvanced | ev.AdvancementRolled]):
    """Answers the advancement as recorded (its skill as the edition spells it), or the
    ledger's roll recorded for the coach to choose from (``advance_rolls``)."""

    team: str
    player: str
    kind: ev.AdvancementKind
    _: KW_ONLY
    skill: str | None = None
    characteristic: Characteristic | None = None
    dice: tuple[DiceRoll, ...] = ()
    category: str | None = None
    roll_missing: bool = False
    """The coach let the ledger roll: a roll sent with the values of the ledger's own for
    this advancement is recorded as the ledger's (``keyed_dice``)."""

    def answer(self, events: Sequence[LedgerEvent]) -> ev.PlayerAdvanced | ev.AdvancementRolled:
        return next(e for e in events if isinstance(e, ev.PlayerAdvanced | ev.AdvancementRolled))


@dataclass(frozen=True)
class PostBounty(Change):
    team: str
    player: str
    amount: int


@dataclass(frozen=True)
class Redraft(Change):
    team: str
    _: KW_ONLY
    keep: Sequence[str] = ()
    carry: Mapping[str, int] | None = None
    dice: Mapping[str, Dice] | None = None
    """By purpose, each player's roll."""
    roll_missing: bool = False


# --- matches -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordMatch(Command[str]):
    report: MatchReport
    _: KW_ONLY
    roll_missing: bool = False

    def answer(self, events: Sequence[LedgerEvent]) -> str:
        return first(events, ev.MatchRecorded).match


@dataclass(frozen=True)
class ClosePostGame(Change):
    match: str
    team: str
    _: KW_ONLY
    dice: Dice | None = None
    roll_missing: bool = False


@dataclass(frozen=True)
class CloseMatch(Command[list[ev.PostGameClosed]]):
    """Close the post-game sequence of ``match`` for each of ``teams``, all or none: the
    dice go to the teams that need them (``closing.share_close_dice``); unless the ledger
    may roll, a close lacking dice is refused naming every die each team needs. Answers
    the closes, with the dice each recorded (the ledger's own rolls among them)."""

    match: str
    teams: Sequence[str]
    _: KW_ONLY
    dice: Dice
    roll_missing: bool = False

    def answer(self, events: Sequence[LedgerEvent]) -> list[ev.PostGameClosed]:
        return [e for e in events if isinstance(e, ev.PostGameClosed)]


@dataclass(frozen=True)
class BuyInducements(Change):
    match: str
    team: str
    wanted: Mapping[str, int]


@dataclass(frozen=True)
class PlayCard(Change):
    team: str
    card: str
    _: KW_ONLY
    match: str | None = None
    against: str | None = None
    dice: Dice | None = None
    roll_missing: bool = False


@dataclass(frozen=True)
class PayAppearanceFees(Change):
    match: str
    team: str
    players: Sequence[str]


# --- seasons -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StartSeason(Command[int]):
    divisions: Sequence[Division]
    _: KW_ONLY
    playoff_teams: int = 0
    name: str = ""

    def answer(self, events: Sequence[LedgerEvent]) -> int:
        return first(events, ev.SeasonStarted).season


@dataclass(frozen=True)
class ScheduleSeason(Command[int]):
    """Answers how many fixtures it scheduled."""

    _: KW_ONLY
    legs: int = 1

    def answer(self, events: Sequence[LedgerEvent]) -> int:
        return len(first(events, ev.FixturesScheduled).fixtures)


@dataclass(frozen=True)
class SchedulePlayoffs(Command[int]):
    _: KW_ONLY
    dungeon_bowl: bool = False

    def answer(self, events: Sequence[LedgerEvent]) -> int:
        return len(first(events, ev.FixturesScheduled).fixtures)


@dataclass(frozen=True)
class CloseSeason(Change):
    _: KW_ONLY
    without_playoffs: bool = False
    """Close a season that was to end in play-offs without them: its places, and so its
    prizes, are then read from the table."""


@dataclass(frozen=True)
class OrderStarDraft(Command[list[str]]):
    _: KW_ONLY
    drawn: Sequence[str] | None = None
    """The hat draw; None lets the ledger draw."""

    def answer(self, events: Sequence[LedgerEvent]) -> list[str]:
        return list(first(events, ev.StarDraftOrdered).order)

    def why(self, reason: str | None) -> str | None:
        return reason or ("hat draw by the ledger" if self.drawn is None else None)


@dataclass(frozen=True)
class SignStar(Change):
    team: str
    star: str


# --- corrections (each needs a reason) ----------------------------------------------------------


@dataclass(frozen=True)
class CorrectMatch(Change):
    target: int
    report: MatchReport


@dataclass(frozen=True)
class Correct(Change):
    target: int
    action: str
    _: KW_ONLY
    amendment: Mapping[str, Any] | None = None


# --- a league's members (application/grants.py) -------------------------------------------


@dataclass(frozen=True)
class GrantMember(Change):
    """Make ``account`` the league's commissioner, or the coach of ``teams``."""

    account: str
    role: Literal["commissioner", "coach"]
    teams: Sequence[str] = ()


@dataclass(frozen=True)
class RemoveMember(Change):
    """``account`` no longer has a role in the league (the account itself stays)."""

    account: str


@dataclass(frozen=True)
class SetVisibility(Change):
    """Let anyone read the league (``public``), or only its members."""

    public: bool


@dataclass(frozen=True)
class SetAdvancementDice(Change):
    """Have the ledger roll every advancement's dice (``by_ledger``), or take dice rolled
    at the table too."""

    by_ledger: bool


# --- the report workflow of a league's coaches (application/submissions.py) -----------------


@dataclass(frozen=True)
class SubmitReport(Command[str]):
    """``team``'s coach submits the report of a match it played; answers its id (``s1``)."""

    team: str
    report: MatchReport
    _: KW_ONLY
    roll_missing: bool = False

    def answer(self, events: Sequence[LedgerEvent]) -> str:
        return first(events, ev.ReportSubmitted).submission


@dataclass(frozen=True)
class ConfirmReport(Command[str]):
    """The opposing ``team`` confirms a submitted report: its match is recorded at once;
    answers the match's id."""

    submission: str
    team: str

    def answer(self, events: Sequence[LedgerEvent]) -> str:
        return answered_match(events)


@dataclass(frozen=True)
class DisputeReport(Change):
    """The opposing ``team`` disputes a submitted report (with a reason): it waits for the
    commissioner."""

    submission: str
    team: str


@dataclass(frozen=True)
class ApproveReport(Command[str]):
    """The commissioner approves a waiting report: its match is recorded; answers its id."""

    submission: str

    def answer(self, events: Sequence[LedgerEvent]) -> str:
        return answered_match(events)


@dataclass(frozen=True)
class RejectReport(Change):
    """The commissioner rejects a waiting report (with a reason): nothing else is recorded."""

    submission: str


@dataclass(frozen=True)
class WithdrawReport(Change):
    """The ``team`` that submitted a report takes it back while it waits: nothing else is
    recorded, and a corrected one may be submitted."""

    submission: str
    team: str


def answered_match(events: Sequence[LedgerEvent]) -> str:
    """The match an answer to a report recorded (its second event, after the answer)."""
    return next(e.match for e in events if isinstance(e, ev.MatchRecorded))
