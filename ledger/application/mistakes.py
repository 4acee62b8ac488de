"""Every mistake of a match report, found in one pass and refused together.

A report is resolved step by step (its match, each side's lines, each casualty, the
score, the dice, the edition's rules of the whole report); a step that fails is kept as
a ``Mistake`` at its place in the report and the next step goes on, so that a report with
a wrong score and two wrong dice is refused once, naming the three, rather than three
times, each refusal revealing the next. Nothing is recorded while there is one.

The refusal is the first mistake's error (its code, exit status and HTTP status), its
sentence naming every mistake on one line (up to five, then how many more), as a report
file's shape problems are named; its cause (``raise ... from``) keeps each mistake with
its place, for a form to show each beside its field (``mistakes_of``).

Worked example: a report whose home side scored 3 while its players' touchdowns add up
to 2, and whose first casualty lacks its Specific Injury D6, is refused with
``error[invalid-input]: casualty of Otto Brandt: give the casualty's Specific Injury D6
(...); Reikland Reavers scored 3 but the touchdowns of their players add up to 2``, and
``mistakes_of(error)`` gives the two places: ``("casualties", 0, "dice",
"specific_injury")`` and ``("home", "touchdowns")``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from ledger.domain.values import MOST_SAID
from ledger.errors import DieWanted, LedgerError
from ledger.rules.problems import Problem

Place = tuple[str | int, ...]
"""Where in a report a mistake is, as the report file writes the path: ``("home",
"touchdowns")``, ``("casualties", 0, "dice", "specific_injury")``; ``()``: the report
as a whole (an edition's rule of the whole game)."""


@dataclass(frozen=True)
class Mistake:
    """One problem of a report: the error a command refuses it with, at its place, and
    what of the report it is about (``casualty of Otto Brandt``), said before the error's
    own sentence."""

    place: Place
    error: LedgerError
    about: str = ""

    @property
    def sentence(self) -> str:
        return f"{self.about}: {self.error.message}" if self.about else self.error.message


class ReportMistakes(Exception):
    """The mistakes a report was refused for: the cause of its refusal."""

    def __init__(self, mistakes: Sequence[Mistake]) -> None:
        super().__init__("; ".join(m.sentence for m in mistakes))
        self.mistakes = tuple(mistakes)


@dataclass
class Found:
    """The mistakes found so far while a report is resolved."""

    mistakes: list[Mistake] = field(default_factory=list)
    partial: bool = False
    """A line of the report (a player line, a side) was left out for its mistake: the
    checks of the whole game would read a game without it, and are not asked."""

    @contextmanager
    def at(self, *place: str | int, about: str = "", leaves_out: bool = False) -> Iterator[None]:
        """A step of resolving a report: its error is kept as a mistake at ``place``
        (``leaves_out``: the line it resolves is left out of the game) and the steps after
        it go on."""
        try:
            yield
        except LedgerError as error:
            self.mistakes += mistakes_of(error) or [Mistake(placed(place, error), error, about)]
            self.partial = self.partial or leaves_out

    def add(self, mistake: Mistake) -> None:
        self.mistakes.append(mistake)

    def add_problems(self, problems: Sequence[Problem], *place: str | int, about: str = "") -> None:
        """A rule's problems (``Ruleset.problems``), each a mistake at ``place``."""
        self.mistakes += [Mistake(place, p.error(p.sentence), about) for p in problems]

    def refuse(self) -> None:
        """Refuse the report for every mistake found (none: go on)."""
        if self.mistakes:
            raise refusal(self.mistakes)


def refusal(mistakes: Sequence[Mistake]) -> LedgerError:
    """The first mistake's kind of error, saying every mistake on one line."""
    said = [m.sentence for m in mistakes[:MOST_SAID]]
    if len(mistakes) > MOST_SAID:
        said.append(f"and {len(mistakes) - MOST_SAID} more")
    error = type(mistakes[0].error)("; ".join(said))
    error.__cause__ = ReportMistakes(mistakes)
    return error


def placed(place: Place, error: LedgerError) -> Place:
    """A die wanted is a mistake at that die, within the line that wants it."""
    if isinstance(error, DieWanted) and error.purpose:
        return (*place, "dice", error.purpose)
    return place


def mistakes_of(error: BaseException) -> list[Mistake]:
    """The mistakes a report was refused for, each at its place (none: ``error`` is not
    such a refusal)."""
    cause = error.__cause__
    return list(cause.mistakes) if isinstance(cause, ReportMistakes) else []
