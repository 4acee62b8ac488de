"""A match report's dice (``matches.py``): each die given, shaped by what the edition's
post-game sequence asks of its purpose, and the ones it lacks, said or rolled by the
ledger. ``closing.py`` and ``match_facts.py`` read their dice the same way."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from ledger.application.context import Context
from ledger.application.match_sides import Side, rolled
from ledger.application.mistakes import Found, Mistake, Place
from ledger.application.reports import DiceEntry, MatchReport
from ledger.domain import events as ev
from ledger.domain.values import DiceRoll
from ledger.errors import DiceNotAsked, InvalidDice
from ledger.rules.asked import Report
from ledger.rules.protocol import DiceNeed
from ledger.rules.rows import MatchRows
from ledger.words import one_of


def make_roll(
    purpose: str, dice: str, values: int | list[int], subject: str | None, said: str = ""
) -> DiceRoll:
    """The roll as entered; ``said``: how a refusal names its subject (a player's name,
    where ``subject`` is the report's way of naming him)."""
    given = (values,) if isinstance(values, int) else tuple(values)
    try:
        return DiceRoll(purpose=purpose, dice=dice, values=given, subject=subject)
    except ValidationError as error:
        detail = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise InvalidDice(f"{purpose} for {said or subject or 'the match'}: {detail}") from None


def given_dice(
    c: Context,
    draft: ev.MatchRecorded,
    sides: list[Side],
    report: MatchReport,
    rows: MatchRows,
    found: Found,
) -> tuple[DiceRoll, ...]:
    """The dice the report gives, shaped by what the ruleset expects of each purpose;
    each that does not hold is a mistake at its place."""
    needs = c.ruleset.dice_needed(Report(draft, rows))
    names = Names(c, sides)
    rolls: list[DiceRoll] = []
    for side in sides:
        rolls += side_rolls(needs, side.report.dice, side.team.team_id, side.place, names, found)
    rolls += side_rolls(needs, report.dice, None, (), names, found)
    return tuple(rolls)


@dataclass(frozen=True)
class Names:
    """How a sentence about a die names its subject: a team or a player by name."""

    c: Context
    sides: Sequence[Side]

    def __call__(self, subject: str | None) -> str:
        if subject is None:
            return "the match"
        team = next((s.team for s in self.sides if s.team.team_id == subject), None)
        if team is not None:
            return team.name
        side = next((s for s in self.sides if subject in s.ids() | s.roster), None)
        return side.name_of(subject, self.c) if side is not None else subject


def side_rolls(
    needs: list[DiceNeed],
    entries: dict[str, DiceEntry],
    team: str | None,
    place: Place,
    names: Names,
    found: Found,
) -> list[DiceRoll]:
    rolls = []
    for purpose, entry in entries.items():
        subjects: dict[str | None, int | list[int]] = (
            dict(entry.items()) if isinstance(entry, dict) else {team: entry}
        )
        for subject, values in subjects.items():
            keyed: Place = (subject,) if subject is not None else ()
            with found.at(*place, "dice", purpose, *keyed):
                rolls.append(side_roll(needs, purpose, values, team, subject, names))
    return rolls


def side_roll(
    needs: list[DiceNeed],
    purpose: str,
    values: int | list[int],
    team: str | None,
    subject: str | None,
    names: Names,
) -> DiceRoll:
    need = next((n for n in needs if n.purpose == purpose and n.subject == subject), None)
    if need is None:
        expected = sorted({n.purpose for n in needs if n.subject in (team, None)})
        asked = f"expected: {', '.join(expected)}" if expected else "it asks no dice of it"
        raise DiceNotAsked(
            f"dice '{purpose}' for {names(subject)} are not part of this match's sequence ({asked})"
        )
    return make_roll(purpose, need.dice, values, subject, said=names(subject))


def complete_dice(
    c: Context,
    draft: ev.MatchRecorded,
    sides: list[Side],
    report: MatchReport,
    roll_missing: bool,
    rows: MatchRows,
    found: Found,
) -> ev.MatchRecorded:
    """Every roll the ruleset needs: given, or rolled by the ledger when allowed. A roll
    given but refused (a mistake already) is not said again as missing."""
    rolls = [r for s in draft.sheets() for r in s.dice]
    rolls += list(draft.dice)
    needs = c.ruleset.dice_needed(Report(draft, rows))
    given = given_entries(sides, report)
    missing = [
        n
        for n in needs
        if not any(r.purpose == n.purpose and r.subject == n.subject for r in rolls)
    ]
    if missing and not roll_missing:
        names = Names(c, sides)
        unsaid = [n for n in missing if (n.purpose, n.subject) not in given]
        if unsaid:
            found.add(
                Mistake(
                    ("dice",),
                    InvalidDice(
                        "the report lacks these rolls (enter them, or let the ledger roll them): "
                        + "; ".join(describe_need(n, names(n.subject)) for n in unsaid)
                    ),
                )
            )
        return draft
    rolls += [c.roll(n.purpose, n.dice, n.subject) for n in missing]
    return rolled(draft, sides, report, tuple(rolls))


def given_entries(sides: list[Side], report: MatchReport) -> set[tuple[str, str | None]]:
    """Each die the report enters, as (purpose, subject), whether it holds or not."""
    entered: set[tuple[str, str | None]] = set()
    for team, entries in [*((s.team.team_id, s.report.dice) for s in sides), (None, report.dice)]:
        for purpose, entry in entries.items():
            subjects = list(entry) if isinstance(entry, dict) else [team]
            entered |= {(purpose, subject) for subject in subjects}
    return entered


def no_rolls(purposes: set[str]) -> str:
    """'no expensive_mistakes_amount roll' (given, but not asked for: leave it out)."""
    names = sorted(purposes)
    one = len(names) == 1
    return f"no {one_of(names)} {'roll' if one else 'rolls'} (leave {'it' if one else 'them'} out)"


def describe_need(need: DiceNeed, subject: str = "") -> str:
    """``subject``: how the sentence names the die's subject (its id, if not said)."""
    return f"{need.purpose} ({need.dice}) for {subject or need.subject or 'the match'}: {need.why}"
