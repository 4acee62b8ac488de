"""Value objects carried by events: what happened at the table, in no edition's arithmetic.

A casualty, for example, records the edition's own outcome name *and* its effect in
neutral terms (``miss_next_game``, ``niggling``, ``-av``, ``dead``) *and* the dice that
were rolled, so the league's ruleset can check it and another ruleset can reinterpret it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

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


class Value(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class DiceRoll(Value):
    """One roll with its purpose, so a replay can reuse it or know it must simulate it."""

    purpose: str = Field(min_length=1)
    dice: str = Field(pattern=r"^([1-9][0-9]?)?D(3|6|8|16|66|68)$")
    values: tuple[int, ...]
    subject: str | None = None
    """The team or player the roll is for, when the purpose alone does not say."""
    source: DiceSource = "table"
    """``table``: rolled by the coaches and entered; ``ledger``: rolled and recorded by us."""

    @model_validator(mode="after")
    def _values_fit_the_dice(self) -> DiceRoll:
        count, sides = dice_shape(self.dice)
        if sides in (66, 68):
            return self  # D66/D68 are read as two digits; checked by the ruleset.
        if len(self.values) != count:
            raise ValueError(f"{self.dice} needs {count} value(s), got {len(self.values)}")
        if any(not 1 <= v <= sides for v in self.values):
            raise ValueError(f"{self.dice} values must be 1-{sides}, got {list(self.values)}")
        return self

    @property
    def total(self) -> int:
        return sum(self.values)


def dice_shape(dice: str) -> tuple[int, int]:
    count, _, sides = dice.partition("D")
    return (int(count) if count else 1), int(sides)


def find_roll(
    rolls: tuple[DiceRoll, ...], purpose: str, subject: str | None = None
) -> DiceRoll | None:
    return next(
        (r for r in rolls if r.purpose == purpose and (subject is None or r.subject == subject)),
        None,
    )


class Casualty(Value):
    """A player removed as a casualty, with how and by whom, as it happened at the table."""

    victim: str
    inflicted_by: str | None = None
    """The opposing player credited with it, if any (the blocker, the fouler...)."""
    cause: CasualtyCause
    outcome: str
    """The edition's own result name, e.g. ``lasting_injury`` (BB2020) or ``serious_injury``."""
    effects: tuple[Effect, ...] = ()
    """What the outcome does to the player, in neutral terms."""
    dice: tuple[DiceRoll, ...] = ()
    recovered: bool = False
    """Healed during the game (apothecary, regeneration): the effects did not stick."""


class Performance(Value):
    """One player's achievements in one game."""

    player: str
    touchdowns: int = Field(default=0, ge=0)
    completions: int = Field(default=0, ge=0)
    superb_throws: int = Field(default=0, ge=0)
    """Throw team-mate actions with a superb throw whose team-mate landed."""
    throws: int = Field(default=0, ge=0)
    """Successful throw team-mate actions of any quality whose team-mate landed."""
    landings: int = Field(default=0, ge=0)
    interceptions: int = Field(default=0, ge=0)
    deflections: int = Field(default=0, ge=0)
    mvps: int = Field(default=0, ge=0)
    sent_off: bool = False
    stalling: bool = False


class Hireling(Value):
    """A player who played for one game only: a journeyman, a mercenary, a star player."""

    id: str
    name: str
    kind: Literal["journeyman", "mercenary", "star"]
    position: str | None = None
    """Position id on the team's list (journeymen, mercenaries)."""
    star: str | None = None
    """Star player id (stars)."""
    price: int = 0
    """Gold paid from the treasury for this game (mercenaries, freebooted stars)."""


class TeamSheet(Value):
    """One team's side of a match report."""

    team: str
    touchdowns: int = Field(ge=0)
    stalling: bool = False
    """Some player of the team was deemed to be Stalling (BB2020 winnings)."""
    players: tuple[Performance, ...] = ()
    hirelings: tuple[Hireling, ...] = ()
    dice: tuple[DiceRoll, ...] = ()
    """Post-game dice for this team: dedicated fans, fan factor, winnings, walk-outs..."""


class Concession(Value):
    team: str
    kind: Literal["conceded", "without_penalty", "forfeit_forced", "forfeit_voluntary"]


class Shootout(Value):
    """How a play-off tie was settled after extra time."""

    extra_time: bool = True
    penalties_home: int = 0
    penalties_away: int = 0


class Purchase(Value):
    item: str
    count: int = Field(default=1, ge=1)
    price: int = Field(ge=0)
    """Total charged under the league's ruleset."""


class Fixture(Value):
    id: str = Field(pattern=r"^[A-Za-z0-9_.:-]+$")
    round: int = Field(ge=1)
    division: str
    home: str
    away: str
    stage: str = "regular"
    """``regular``, or a play-off stage: ``quarter-final``, ``semi-final``, ``final``,
    ``third-place``..."""
    teams: tuple[str, ...] = ()
    """Every team of a multi-team match (Spike! multi-player Dungeon Bowl final)."""


class Division(Value):
    name: str
    teams: tuple[str, ...]


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

    win: int = 3
    draw: int = 1
    loss: int = 0
    bonus: tuple[BonusPoint, ...] = ()
    bonus_mode: Literal["added", "tiebreak"] = "added"
    tiebreakers: tuple[Tiebreaker, ...] = (
        "touchdown_difference",
        "touchdowns_for",
        "casualties_for",
        "head_to_head",
    )
