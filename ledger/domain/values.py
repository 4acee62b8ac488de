"""Value objects carried by events: what happened at the table, in no edition's arithmetic.

A casualty, for example, records the edition's own outcome name *and* its effect in
neutral terms (``miss_next_game``, ``niggling``, ``-av``, ``dead``) *and* the dice that
were rolled, so the league's ruleset can check it and another ruleset can reinterpret it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    ValidationError,
    model_validator,
)

from ledger.domain.plain import Plain
from ledger.words import plural

# --- bounds ---------------------------------------------------------------------------
# Every event is checked against these before it is stored (DESIGN.md decision 9), and
# every event an import brings in: so each bound is one that no real league's fact comes
# near, and numbers are strict (no ``true`` or ``"5"`` for a number, from any file). The
# fold reads its own log back by its shape alone (ledger/domain/readback.py).

MAX_COUNT = 50
"""One player's count of one achievement in one game; also a team's score."""
MOST_BOUGHT = 16
"""The most of one item a purchase or a release names at once, from every edge (the CLI's
``--count``, the API's ``count``, the forms' "how many"): no list holds more of anything."""
MAX_GOLD = 100_000_000
"""Any amount of gold, either way (a season's whole income is a few million)."""
MAX_NAME = 100
"""A name: a team's, a player's, a coach's, who recorded an event."""
MAX_ID = 64
"""An id: a league's or team's slug, a player's, a position's."""
MAX_MATCH_ID = 128
"""A match's id: a scheduled fixture's id holds its division's name (up to MAX_NAME)."""
MAX_TEXT = 1_000
"""Free text: a reason, the weather, a note."""
MAX_NUMBER = 1_000_000
"""A season's or round's number."""

NOT_BLANK = r"\S"
ONE_LINE = r"^[^\x00-\x1f\x7f]*[^\x00-\x20\x7f][^\x00-\x1f\x7f]*$"
"""A name: one line, something printed in it (a line break or a tab in a name breaks every
table that shows it; the commands say so first, this holds an import and who recorded)."""
LABEL = r"^[^\x00-\x1f\x7f]*$"
"""A name that may be left empty, on one line: a division's makes its fixtures' ids and
heads its table."""
FREE_TEXT = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$"
"""No control character but line breaks and tabs: PostgreSQL's text holds no NUL, and
a terminal or a spreadsheet would act on the others."""
SLUG = r"^[a-z0-9][a-z0-9-]*$"
MATCH_ID = r"^[A-Za-z0-9_.:-]+$"
ACCOUNT = r"^[a-z0-9][a-z0-9._-]*$"
PATTERN_WORDS = {
    NOT_BLANK: "must not be blank",
    ONE_LINE: "must be one line of printable text, not blank",
    LABEL: "must be one line of printable text",
    FREE_TEXT: "must hold no control character (line breaks and tabs are kept)",
    SLUG: "must be lower-case letters, digits and dashes",
    MATCH_ID: "must be letters, digits and _ . : -",
    ACCOUNT: "must be lower-case letters, digits and . _ -",
}
"""What each pattern asks, in words, for error messages."""
PROBLEM_WORDS = {
    "extra_forbidden": "no such field",
    "json_invalid": "not valid JSON ({error})",
    "missing": "required, not given",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "string_type": "must be text",
    "greater_than_equal": "must be at least {ge}",
    "greater_than": "must be more than {gt}",
    "less_than_equal": "must be at most {le}",
    "less_than": "must be less than {lt}",
    "string_too_short": "must hold at least {min_length} characters",
    "string_too_long": "must hold at most {max_length} characters",
    "too_short": "must hold at least {min_length} items",
    "too_long": "must hold at most {max_length} items",
    "literal_error": "must be {expected}",
    "enum": "must be {expected}",
    "dict_type": "must be a mapping (a JSON object)",
    "model_type": "must be a mapping (a JSON object)",
    "model_attributes_type": "must be a mapping (a JSON object)",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "date_type": "must be a date (YYYY-MM-DD)",
    "date_parsing": "must be a date (YYYY-MM-DD)",
    "date_from_datetime_parsing": "must be a date (YYYY-MM-DD)",
}
"""pydantic's problems in the league's words, the bound named and the value sent never
repeated ('Input should be less than or equal to 50' is 'must be at most 50')."""
MOST_SAID = 5
"""The problems one line names; it counts the rest."""


UNION_MEMBER = re.compile(r"^(constrained-\w+|[\w-]+\[.*\])$")
"""The name pydantic gives the member of a union it tried (``list[constrained-int]``):
not a place in the input, left out of the place named."""

Hint = Callable[[Mapping[str, Any]], str]
"""What a caller adds to one problem's sentence (the field meant, for one misspelt)."""


def place_of(loc: Sequence[int | str]) -> tuple[str, ...]:
    return tuple(str(p)[:40] for p in loc if not UNION_MEMBER.match(str(p)))


def validation_problems(error: ValidationError, hint: Hint | None = None) -> str:
    """Every problem of ``error`` as ``place: what is wrong``, on one line."""
    return problems_said(error.errors(), hint)


def problems_said(errors: Iterable[Mapping[str, Any]], hint: Hint | None = None) -> str:
    """Each place's problem as ``place: what is wrong``, the first ``MOST_SAID`` joined on
    one short line whatever the input held (a 10 MB string or key is not repeated back),
    so that a file with three mistakes is fixed in one go, not three."""
    chosen = one_a_place(errors)
    said = [sentence_of(place, problem, hint) for place, problem in chosen[:MOST_SAID]]
    if len(chosen) > MOST_SAID:
        said.append(f"and {len(chosen) - MOST_SAID} more")
    return "; ".join(said)


def one_a_place(
    errors: Iterable[Mapping[str, Any]],
) -> list[tuple[tuple[str, ...], Mapping[str, Any]]]:
    """One problem for each place of the input, in the order found. Of the members of a
    union tried at one place, the one that went deepest into the input says what is
    wrong (a die of 0 in a list, not "the list is not a number")."""
    kept: dict[tuple[str, ...], tuple[tuple[str, ...], Mapping[str, Any]]] = {}
    for problem in errors:
        loc = [str(p) for p in problem["loc"]]
        member = next((i for i, p in enumerate(loc) if UNION_MEMBER.match(p)), len(loc))
        anchor = tuple(loc[:member])
        place = place_of(loc)
        if anchor not in kept or len(place) > len(kept[anchor][0]):
            kept[anchor] = (place, problem)
    return list(kept.values())


def sentence_of(place: tuple[str, ...], problem: Mapping[str, Any], hint: Hint | None) -> str:
    context = {k: f"{v:,}" if type(v) is int else v for k, v in (problem.get("ctx") or {}).items()}
    pattern = str(context.get("pattern", ""))
    words = PROBLEM_WORDS.get(problem["type"])
    if problem["type"] == "string_too_short" and context.get("min_length") == "1":
        words = "must not be empty"
    try:
        worded = words.format_map(context) if words else None
    except KeyError:  # a problem of this type that pydantic said without its bound
        worded = None
    message = (
        PATTERN_WORDS.get(pattern) or worded or str(problem["msg"]).removeprefix("Value error, ")
    )
    message += hint(problem) if hint else ""
    return f"{'.'.join(place)}: {message}" if place else message


Count = Annotated[int, Field(strict=True, ge=0, le=MAX_COUNT)]
Gold = Annotated[int, Field(strict=True, ge=-MAX_GOLD, le=MAX_GOLD)]
Price = Annotated[int, Field(strict=True, ge=0, le=MAX_GOLD)]
Number = Annotated[int, Field(strict=True, ge=1, le=MAX_NUMBER)]
MAX_DIE = 99


def on_a_die(value: int) -> int:
    if not 1 <= value <= MAX_DIE:
        raise ValueError(f"a die shows 1 or more (a D66's two digits, 99 at most), not {value}")
    return value


Die = Annotated[
    int,
    Field(strict=True, json_schema_extra={"minimum": 1, "maximum": MAX_DIE}),
    AfterValidator(on_a_die),
]
"""One die as entered: 1-16, or a D66/D68 read as one two-digit value. Its bounds are
checked in the dice's words (pydantic's would be 'greater than or equal to 1'), and
published in the schema as before; a roll's own dice are checked by the roll
(``DiceRoll``)."""
Name = Annotated[
    str, StringConstraints(strict=True, min_length=1, max_length=MAX_NAME, pattern=ONE_LINE)
]
Label = Annotated[str, StringConstraints(strict=True, max_length=MAX_NAME, pattern=LABEL)]
"""A name that may be left empty (a season's, a division's)."""
Ref = Annotated[
    str, StringConstraints(strict=True, min_length=1, max_length=MAX_ID, pattern=NOT_BLANK)
]
"""An id without a pattern of its own: a player, a position, an item, a skill..."""
Slug = Annotated[str, StringConstraints(strict=True, max_length=MAX_ID, pattern=SLUG)]
Given = Annotated[str, StringConstraints(strict=True, min_length=1, max_length=MAX_MATCH_ID)]
"""A name or id a request gives for the command to look up (a team, a player by name, a
roll's purpose): bounded, so a refusal that names it stays short."""
MatchId = Annotated[str, StringConstraints(strict=True, max_length=MAX_MATCH_ID, pattern=MATCH_ID)]
MatchRef = Annotated[
    str, StringConstraints(strict=True, min_length=1, max_length=MAX_MATCH_ID, pattern=NOT_BLANK)
]
"""A match named by an event (its id, as scheduled or as the report gave it)."""
Text = Annotated[str, StringConstraints(strict=True, max_length=MAX_TEXT, pattern=FREE_TEXT)]
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
DAY_FIRST = re.compile(r"(\d{1,2})[./-](\d{1,2})[./-](\d{4})")


def iso_date(text: str) -> str:
    """``played_on`` as an ISO date (YYYY-MM-DD), with the fix spelled out when it is a
    day/month/year date as people write them."""
    if ISO_DATE.fullmatch(text):
        try:
            return date.fromisoformat(text).isoformat()
        except ValueError as error:
            raise ValueError(f"{text} is not a date ({error})") from None
    raise ValueError(f"'{text[:40]}' is not an ISO date (YYYY-MM-DD){hint(text)}")


def hint(text: str) -> str:
    found = DAY_FIRST.fullmatch(text.strip())
    if found is None:
        return ""
    first, second, year = (int(part) for part in found.groups())
    day, month = (second, first) if second > 12 >= first else (first, second)
    try:
        return f": write {date(year, month, day).isoformat()}"
    except ValueError:
        return ""


IsoDate = Annotated[str, Field(strict=True, max_length=40), AfterValidator(iso_date)]
"""A day a game was played: a report's, and its event's (an amendment's too)."""


Points = Annotated[int, Field(strict=True, ge=-MAX_COUNT, le=MAX_COUNT)]
"""League points for one result."""

Characteristic = Literal["ma", "st", "ag", "pa", "av"]
CHARACTERISTICS: tuple[Characteristic, ...] = ("ma", "st", "ag", "pa", "av")

Effect = Literal["miss_next_game", "niggling", "-ma", "-st", "-ag", "-pa", "-av", "dead"]

CasualtyCause = Literal[
    "block",  # knocked down by a Block or Blitz action (either player's)
    "foul",
    "crowd",  # injury by the crowd after a push
    "secret_weapon",
    "stab",
    "chainsaw",
    "throw_team_mate",
    "failed_dodge",
    "going_for_it",
    "failed_landing",
    "spell",
    "card",  # special play card or inducement effect
    "other",
]

DiceSource = Literal["table", "ledger"]


class Value(Plain):
    """A value held by events (a plain model: ledger/domain/plain.py, read by the fold in
    every game)."""

    model_config = ConfigDict(
        defer_build=True, frozen=True, extra="forbid", use_attribute_docstrings=True
    )


class DiceRoll(Value):
    """One roll with its purpose, so a replay can reuse it or know it must simulate it."""

    purpose: Ref
    dice: str = Field(strict=True, pattern=r"^([1-9][0-9]?)?D(3|6|8|16|66|68)$")
    values: tuple[StrictInt, ...] = Field(max_length=99)
    subject: Name | None = None
    """The team or player the roll is for, when the purpose alone does not say."""
    source: DiceSource = "table"
    """``table``: rolled by the coaches and entered; ``ledger``: rolled and recorded by us."""

    @model_validator(mode="after")
    def _values_fit_the_dice(self) -> DiceRoll:
        count, sides = dice_shape(self.dice)
        if sides in (66, 68):  # read as two digits; checked by the ruleset
            if wrong := [v for v in self.values if not 1 <= v <= MAX_DIE]:
                raise ValueError(f"a {self.dice} is read as two digits, not {listed(wrong)}")
            return self
        if len(self.values) != count:
            many = plural(count, "die", "dice")
            raise ValueError(f"a {self.dice} roll is {many}, not {len(self.values)}")
        if wrong := [v for v in self.values if not 1 <= v <= sides]:
            raise ValueError(f"a {self.dice} shows 1 to {sides} on each die, not {listed(wrong)}")
        return self

    @property
    def total(self) -> int:
        return sum(self.values)


def listed(values: Sequence[int]) -> str:
    return ", ".join(str(v) for v in values)


def dice_shape(dice: str) -> tuple[int, int]:
    count, _, sides = dice.partition("D")
    return (int(count) if count else 1), int(sides)


class Casualty(Value):
    """A player removed as a casualty, with how and by whom, as it happened at the table."""

    victim: Ref
    inflicted_by: Ref | None = None
    """The opposing player credited with it, if any (the blocker, the fouler...)."""
    cause: CasualtyCause
    outcome: Ref
    """The edition's own result name, e.g. ``lasting_injury`` (BB2025) or ``serious_injury``."""
    effects: tuple[Effect, ...] = ()
    """What the outcome does to the player, in neutral terms."""
    dice: tuple[DiceRoll, ...] = ()
    recovered: StrictBool = False
    """Healed during the game (apothecary, regeneration): the effects did not stick."""

    @property
    def killed(self) -> bool:
        """Dead, and not saved by an apothecary or regeneration."""
        return not self.recovered and "dead" in self.effects


class Performance(Value):
    """One player's achievements in one game."""

    player: Ref
    touchdowns: Count = 0
    completions: Count = 0
    superb_throws: Count = 0
    """Throw team-mate actions with a superb throw whose team-mate landed."""
    throws: Count = 0
    """Successful throw team-mate actions of any quality whose team-mate landed."""
    landings: Count = 0
    interceptions: Count = 0
    deflections: Count = 0
    mvps: Count = 0
    sent_off: StrictBool = False
    stalling: StrictBool = False


class Hireling(Value):
    """A player who played for one game only: a journeyman, a mercenary, a star player."""

    id: Ref
    name: Name
    kind: Literal["journeyman", "mercenary", "star"]
    position: Ref | None = None
    """Position id on the team's list (journeymen, mercenaries)."""
    star: Ref | None = None
    """Star player id (stars)."""
    price: Price = 0
    """Gold paid from the treasury for this game (mercenaries, freebooted stars)."""


class TeamSheet(Value):
    """One team's side of a match report."""

    team: Ref
    touchdowns: Count
    stalling: StrictBool = False
    """Some player of the team was deemed to be Stalling (BB2025 winnings)."""
    players: tuple[Performance, ...] = ()
    hirelings: tuple[Hireling, ...] = ()
    dice: tuple[DiceRoll, ...] = ()
    """Post-game dice for this team: dedicated fans, fan factor, winnings, walk-outs..."""


class Concession(Value):
    team: Ref
    kind: Literal["conceded", "without_penalty", "forfeit_forced", "forfeit_voluntary"]


class Shootout(Value):
    """How a play-off tie was settled after extra time."""

    extra_time: StrictBool = True
    penalties_home: Count = 0
    penalties_away: Count = 0


class Purchase(Value):
    item: Ref
    count: Count = Field(default=1, ge=1)
    price: Price
    """Total charged under the league's ruleset."""


class Fixture(Value):
    id: MatchId
    round: Number
    division: Label
    home: Ref
    away: Ref
    stage: Ref = "regular"
    """``regular``, or a play-off stage: ``quarter-final``, ``semi-final``, ``final``,
    ``third-place``..."""
    teams: tuple[Ref, ...] = ()
    """Every team of a multi-team match (Spike! multi-player Dungeon Bowl final)."""


class Division(Value):
    name: Label
    teams: tuple[Ref, ...]


Tiebreaker = Literal[
    "touchdown_difference",
    "touchdowns_for",
    "casualties_for",
    "casualty_difference",
    "wins",
    "head_to_head",
    "bonus_points",
]
BonusPoint = Literal["three_touchdowns", "clean_sheet", "three_casualties"]


class PointsScheme(Value):
    """League points and tie-breakers; the ruleset supplies the default."""

    win: Points = 3
    draw: Points = 1
    loss: Points = 0
    bonus: tuple[BonusPoint, ...] = ()
    bonus_mode: Literal["added", "tiebreak"] = "added"
    tiebreakers: tuple[Tiebreaker, ...] = (
        "touchdown_difference",
        "touchdowns_for",
        "casualties_for",
        "head_to_head",
    )
