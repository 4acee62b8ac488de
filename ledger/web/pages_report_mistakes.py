"""The report form's mistakes, every one at once, each beside its field in the form's words.

A report built from the form (``pages_report_form.report_of``) keeps where each of its lines
came from: its second casualty may be the form's third row. The form's own mistakes (a
figure that is not a number, a die the report's bounds refuse) are found first, each
beside its field, and the line or value at fault is left out of the report; the command's
mistakes (``application/mistakes.py``: a player who may not play, a score that is not the
players' touchdowns added up, a casualty's die left empty) are placed by their place in
the report. The command then runs without writing anything when the form had mistakes of
its own, so one submission names them all.

The command says its mistakes as the report file writes them; the form says a die the
edition wants next by the form's own field (``DieWanted``), not by the file's key.

Worked example: a gold4 report whose form's casualty row 1 names Otto Brandt with an
injury of "4 6" and no Specific Injury is refused with, beside that row's Specific injury
cell, "casualty of Otto Brandt: enter the roll under “Specific injury (D6)”, or tick “Let
the ledger roll the dice left empty”".
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError

from ledger.application.commands import SubmitReport
from ledger.application.context import decided
from ledger.application.mistakes import Mistake, Place, ReportMistakes, mistakes_of
from ledger.application.reports import MatchReport
from ledger.application.service import LeagueLedger
from ledger.domain.values import UNION_MEMBER, one_a_place, sentence_of
from ledger.errors import DieWanted, LedgerError, MalformedReport
from ledger.web.pages_forms import Errors, FieldInvalid
from ledger.words import words

REPORT_FIELDS = {
    "malformed-report": "form",
    "invalid-dice": "dice",
    "unknown-player": "players",
    "unknown-position": "hirelings",
    "player-not-in-team": "players",
    "player-unavailable": "players",
    "invalid-input": "form",
    "referee": "referee",
    "mvp-award": "players",  # the lines that award them
}
"""Where a mistake of the whole report is shown, by its code."""

LINES = {"players": "player line", "hirelings": "hireling"}
"""A side's lines, as the form calls them."""

ROLL_MISSING = "Let the ledger roll the dice left empty"
"""The form's box for the dice the ledger rolls (report.html.j2)."""


@dataclass
class FormReport:
    """The report a form holds, and where each of its lines came from."""

    home: str
    away: str
    casualty_dice: Mapping[str, str]
    names: Mapping[str, str]
    """Team names by id."""
    fixture: bool = True
    others: tuple[str, ...] = ()
    """The third and later teams of a game of more than two (sides ``other1``...)."""
    rows: dict[Place, list[int]] = field(default_factory=dict)
    """The form's row of each line of a list of the report: ``rows[("casualties",)][1]``
    is the form's row of the report's second casualty."""
    errors: Errors = field(default_factory=dict)
    """The form's own mistakes, by field."""
    report: MatchReport | None = None
    lines_left_out: bool = False
    """A side's line (a player's, a hireling's) or figure was left out for a mistake of
    the form's own: the game the report holds is not the one played."""
    ledger_rolls: bool = True
    """Whether the form offers to let the ledger roll the dice left empty (a correction's
    does not: its dice are those of the game as recorded)."""

    def line(self, *where: str) -> list[int]:
        return self.rows.setdefault(where, [])

    @contextmanager
    def checking(self, leaves_out: bool = False) -> Iterator[None]:
        """A field read from the form: one that does not hold is a mistake beside it
        (``leaves_out``: what it is read for is left out of the game, its line or figure)."""
        try:
            yield
        except FieldInvalid as error:
            self.wrong(error.field, error.code, error.message)
            self.lines_left_out |= leaves_out

    def wrong(self, key: str, code: str, sentence: str) -> None:
        if key in self.errors:  # a field shows the first mistake found in it
            return
        self.errors[key] = (code, sentence)

    # --- the report's places, as the form's fields and words -------------------------------

    def team(self, side: str) -> str:
        if side.startswith("other"):
            return self.others[int(side.removeprefix("other")) - 1]
        return self.home if side == "home" else self.away

    def row(self, place: Place) -> int | None:
        """The form's row of the report's line ``place`` is in: a casualty
        (``("casualties", 1, ...)``) or a side's player or hireling line (``("home",
        "players", 0, ...)``); None for any other place."""
        where: Place
        place = on_form(place)
        if place[:1] == ("casualties",):
            where, index = ("casualties",), place[1:2]
        elif len(place) > 2 and place[1] in LINES:
            where, index = (str(place[0]), str(place[1])), place[2:3]
        else:
            return None
        found = self.rows.get(where, [])
        n = index[0] if index else None
        return found[n] if isinstance(n, int) and n < len(found) else None

    def field_of(self, place: Place, code: str) -> str:
        """The form's field a mistake at ``place`` is shown beside."""
        place = on_form(place)
        head = place[:1]
        if head == ("casualties",):
            return self.casualty_field(place)
        if is_side(head):
            return self.side_field(place)
        if head == ("shootout",) and self.others:  # a game of more than two: its winner
            return "winner"
        if head == ("dice",) and len(place) > 1:
            subject = str(place[2]) if len(place) > 2 else "match"
            return f"dice-{subject}-{place[1]}"
        if head == ("match",):
            return "form" if self.fixture else "match"
        if head in (("played_on",), ("concession",), ("shootout",)):
            return str(head[0])
        return "dice" if head == ("dice",) else REPORT_FIELDS.get(code, "form")

    def casualty_field(self, place: Place) -> str:
        row = self.row(place)
        if row is None:
            return "casualties"
        if place[2:3] == ("dice",) and len(place) > 3 and place[3] in self.casualty_dice:
            return f"cas-{row}-die-{place[3]}"
        return f"cas-{row}-by" if place[2:3] == ("by",) else f"cas-{row}-victim"

    def side_field(self, place: Place) -> str:
        side, part = str(place[0]), place[1:2]
        if part == ("touchdowns",):
            return f"{side}-touchdowns"
        if part == ("dice",) and len(place) > 2:
            return f"dice-{self.team(side)}-{place[2]}"
        row = self.row(place)
        if part == ("players",) and row is not None:
            stat = place[3] if len(place) > 3 and place[3] in STATS else "player"
            return f"{side}-{row}-{stat}"
        if part == ("players",):  # the side's lines as a whole (its MVPs)
            return f"{side}-players"
        return "hirelings" if part == ("hirelings",) else "form"

    def label(self, place: Place) -> str:
        """How the form names the place of a mistake of the report's shape."""
        place = on_form(place)
        head, row = place[:1], self.row(place)
        if head == ("casualties",) and row is not None:
            die = f"'s {words(place[3])} roll" if place[2:3] == ("dice",) and place[3:] else ""
            return f"casualty {row + 1}{die}"
        if is_side(head) and len(place) > 1:
            side = self.names.get(self.team(str(place[0])), "") if self.others else place[0]
            part = str(place[1])
            if part in LINES and row is not None:
                return f"{side} {LINES[part]} {row + 1}"
            if part == "dice" and len(place) > 2:
                team = self.names.get(self.team(str(place[0])), self.team(str(place[0])))
                return f"{team}'s {words(place[2])} roll"
            return f"{side} {part}"
        if head == ("dice",) and len(place) > 1:
            return f"the {words(place[1])} roll"
        return {"match": "the match id", "played_on": "the date played"}.get(
            str(place[0]) if place else "", "the report"
        )

    # --- the command's mistakes --------------------------------------------------------------

    def said(self, mistake: Mistake) -> str:
        """A mistake of the command, in the form's words: a die the edition wants next is
        entered in its cell or rolled by the ledger (the file's key means nothing here)."""
        wanted = mistake.error
        if isinstance(wanted, DieWanted) and wanted.purpose in self.casualty_dice:
            column = words(wanted.purpose).capitalize()
            shape = self.casualty_dice[wanted.purpose]
            sentence = f"enter the roll under “{column} ({shape})”"
            sentence += f", or tick “{ROLL_MISSING}”" if self.ledger_rolls else ""
            return f"{mistake.about}: {sentence}" if mistake.about else sentence
        return mistake.sentence

    def shown(self, error: LedgerError) -> Errors:
        """Every mistake of a refused report beside its field: the form's own first,
        then the command's (a field with one already shows it; a section, such as the
        dice, says each of its mistakes one after another)."""
        shown = dict(self.errors)
        mistakes = mistakes_of(error)
        if not mistakes and not (isinstance(error, FieldInvalid) and self.errors):
            mistakes = [Mistake((), error)]  # a refusal of the whole report
        for mistake in mistakes:
            key, said = self.field_of(mistake.place, mistake.error.code), self.said(mistake)
            if key not in shown:
                shown[key] = (mistake.error.code, said)
            elif key in SECTIONS and said not in shown[key][1]:
                shown[key] = (shown[key][0], f"{shown[key][1]}; {said}")
        return shown

    def refusal(self, mistakes: Sequence[Mistake]) -> FieldInvalid:
        """The form's first mistake as the refusal, with the command's ``mistakes`` as
        its cause (``mistakes_of``): found without writing anything."""
        key, (_, sentence) = next(iter(self.errors.items()))
        refused = FieldInvalid(key, sentence)
        refused.__cause__ = ReportMistakes(mistakes)
        return refused

    # --- the report's shape ------------------------------------------------------------------

    def validated(self, data: dict[str, Any]) -> MatchReport | None:
        """The report the form's fields make, each value its bounds refuse said beside
        its field and left out (a line holding one, the whole line), so the rest of the
        report is checked; None when what is left is no report."""
        for _ in range(MOST_TRIES):
            try:
                return MatchReport.model_validate(data)
            except ValidationError as error:
                for _, problem in one_a_place(error.errors()):
                    place = clean(problem["loc"])
                    key = self.field_of(place, MalformedReport.code)
                    said = f"{self.label(place)}: {sentence_of((), problem, None)}"
                    self.wrong(key, MalformedReport.code, said)
                    if not self.leave_out(data, place):
                        return None
        return None

    def leave_out(self, data: dict[str, Any], place: Place) -> bool:
        """Take the value at ``place`` out of the report (a line of a list: the line, and
        its row); False when there is nothing there to take out."""
        cut = cut_at(place)
        if not cut:  # the report as a whole: nothing of it to take out
            return False
        *path, last = cut
        container: Any = data
        for step in path:
            try:
                container = container[step]
            except (KeyError, IndexError, TypeError):
                return False
        if isinstance(container, list) and isinstance(last, int) and last < len(container):
            del container[last]
            del self.line(*(str(p) for p in on_form(tuple(path))))[last]
        elif isinstance(container, dict) and last in container:
            del container[last]
        else:
            return False
        self.lines_left_out |= is_side(on_form(cut)) and "dice" not in cut
        return True


STATS = ("td", "comp", "int", "mvp", "superb_throws", "throws", "landings", "deflections")
"""A player line's figures, as the form and the report name them."""

SECTIONS = ("form", "players", "hirelings", "casualties", "dice", "concession", "shootout")
"""Parts of the form that show every mistake in them, not each beside a field."""

MOST_TRIES = 10
"""Rounds of leaving out what the report's bounds refuse: each leaves out one value per
place named, so a few rounds settle any form."""


def clean(loc: Sequence[Any]) -> Place:
    """A validation error's place in the report, without the union members pydantic
    tried (``constrained-int``)."""
    return tuple(p for p in loc if not (isinstance(p, str) and UNION_MEMBER.match(p)))


def on_form(place: Place) -> Place:
    """A place of the report as the form keys it: the report's third team, ``("others",
    0, ...)``, is the form's side ``other1``."""
    if place[:1] == ("others",) and len(place) > 1 and isinstance(place[1], int):
        return (f"other{place[1] + 1}", *place[2:])
    return place


def is_side(head: Place) -> bool:
    """Whether ``head`` (a place's first step, as the form keys it) is a team's side."""
    return bool(head) and (head[0] in ("home", "away") or str(head[0]).startswith("other"))


def cut_at(place: Place) -> Place:
    """What to leave out for a mistake at ``place``: a casualty's die, else the casualty;
    a side's player or hireling line; a side's die; else the report's field."""
    if place[:1] == ("casualties",):
        return place[:4] if place[2:3] == ("dice",) else place[:2]
    if place[:1] == ("others",):
        return place[:4]
    if place[:1] in (("home",), ("away",)):
        return place[:3]
    return place[:2] if place[:1] == ("dice",) else place[:1]


def unwritten_mistakes(
    ledger: LeagueLedger, command: SubmitReport, lines_left_out: bool
) -> list[Mistake]:
    """Every mistake the command would refuse the report for, its plan run on the league
    as it stands and recorded nowhere (the form had mistakes of its own: it is not sent);
    with ``lines_left_out``, those of the lines only, not of the whole game."""
    context = replace(ledger.context(command.league), lines_left_out=lines_left_out)
    try:
        decided(ledger.plan_of(command), context)
    except LedgerError as error:
        return mistakes_of(error) or [Mistake((), error)]
    return []
