"""The dz3 data files, validated at load: data/tables.yaml, data/skills.yaml, data/stars.yaml.

Every edition number of the ruleset lives in those files; this module gives them shapes
(pydantic, ``extra="forbid"``) and the small lookups the rules need. The comments in the
YAML say where each figure comes from (seed 004, the seeds README, or a documented reading).

Worked example (seed 004 3.8 Handicaps, difference table): a TR 100 team playing a TR 121
team is 21 behind, which reads the "21-30" line: 1 bonus card and 1 bonus MVP::

    tables().handicap.by_difference(21)  # -> HandicapBand(cards=1, mvps=1)
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import cache
from itertools import pairwise
from pathlib import Path

from pydantic import Field, model_validator

from ledger.domain.values import Characteristic
from ledger.rules.classic3.fans import FanFactorRoll
from ledger.rules.schema import Band, Frozen, Skill, StarPlayer, load_yaml

DATA = Path(__file__).parent / "data"


class Level(Frozen):
    title: str
    start: int = Field(alias="from", ge=0)


class TeamRating(Frozen):
    gold_per_point: int = Field(gt=0)
    spp_per_point: int = Field(gt=0)
    upgrade_points: int = Field(ge=0)


class HandicapBand(Frozen):
    cards: int = Field(ge=0)
    mvps: int = Field(ge=0)


class DifferenceBand(HandicapBand):
    max: int | None = None
    """Highest TR difference of the band (inclusive); ``None`` for the open last band."""


class RatioBand(HandicapBand):
    below: Decimal | None = None
    """The band holds ratios strictly below this..."""
    through: Decimal | None = None
    """...or up to and including this; neither for the open last band."""

    @model_validator(mode="after")
    def _one_bound(self) -> RatioBand:
        if self.below is not None and self.through is not None:
            raise ValueError("a ratio band has 'below' or 'through', not both")
        return self

    def holds(self, ratio: Fraction) -> bool:
        if self.below is not None:
            return ratio < Fraction(self.below)
        return self.through is None or ratio <= Fraction(self.through)


class Handicap(Frozen):
    difference: tuple[DifferenceBand, ...]
    ratio: tuple[RatioBand, ...]

    @model_validator(mode="after")
    def _open_last_bands(self) -> Handicap:
        if self.difference[-1].max is not None:
            raise ValueError("the last difference band must be open (no max)")
        last = self.ratio[-1]
        if last.below is not None or last.through is not None:
            raise ValueError("the last ratio band must be open")
        return self

    def by_difference(self, difference: int) -> HandicapBand:
        band = next(b for b in self.difference if b.max is None or difference <= b.max)
        return HandicapBand(cards=band.cards, mvps=band.mvps)

    def by_ratio(self, ratio: Fraction) -> HandicapBand:
        band = next(b for b in self.ratio if b.holds(ratio))
        return HandicapBand(cards=band.cards, mvps=band.mvps)


class Gate(Frozen):
    die: str
    fans_per_pip: int = Field(gt=0)
    stage_bonus_per_die: dict[str, int] = {}


class Winnings(Frozen):
    die: str
    per_pip: int = Field(gt=0)
    win_bonus: int
    gate_up_to: tuple[int, ...]
    rating_up_to: tuple[int, ...]
    modifiers: tuple[tuple[int, ...], ...]

    @model_validator(mode="after")
    def _table_shape(self) -> Winnings:
        rows, columns = len(self.gate_up_to) + 1, len(self.rating_up_to) + 1
        if len(self.modifiers) != rows or any(len(r) != columns for r in self.modifiers):
            raise ValueError(f"the winnings modifiers must be {rows} rows of {columns}")
        for bounds in (self.gate_up_to, self.rating_up_to):
            if any(a >= b for a, b in pairwise(bounds)):
                raise ValueError("winnings table bounds must increase")
        return self

    def modifier(self, gate: int, rating: int) -> int:
        row = sum(1 for bound in self.gate_up_to if gate > bound)
        column = sum(1 for bound in self.rating_up_to if rating > bound)
        return self.modifiers[row][column]


class FanFactor(FanFactorRoll):
    """The Death Zone roll (``classic3.fans``) with dz3's price, cap and damping."""

    price: int = Field(gt=0)
    draft_max: int = Field(ge=0)
    damping_per: int = Field(gt=0)


class Staff(Frozen):
    name: str
    price: int = Field(ge=0)
    max: int = Field(ge=0)


class StarRoll(Frozen):
    die: str
    skill_up_to: int
    characteristics: dict[int, Characteristic]
    increase_limit: int = Field(ge=0)
    characteristic_max: int = Field(gt=0)


class Forfeit(Frozen):
    fan_factor_loss: int = Field(ge=0)


class StarLimits(Frozen):
    two_stars: int = Field(ge=0)


class Tables(Frozen):
    source: str
    starting_treasury: int
    spp: dict[str, int]
    casualty_spp_causes: tuple[str, ...]
    spp_levels: tuple[Level, ...]
    team_rating: TeamRating
    handicap: Handicap
    mvps_per_team: int
    gate: Gate
    winnings: Winnings
    fan_factor: FanFactor
    max_rerolls: int
    reroll_double_after_draft: bool
    sideline: dict[str, Staff]
    casualty_table: tuple[Band, ...]
    serious_injury_table: tuple[Band, ...]
    reduction_limit: int
    star_roll: StarRoll
    forfeit: Forfeit
    star_players: StarLimits

    @model_validator(mode="after")
    def _levels_increase(self) -> Tables:
        starts = [level.start for level in self.spp_levels]
        if starts[0] != 0 or any(a >= b for a, b in pairwise(starts)):
            raise ValueError("SPP levels must start at 0 and increase")
        return self

    def rolls_earned(self, spp: int) -> int:
        """Star player rolls a player's SPP have earned: one per level after Rookie."""
        return sum(1 for level in self.spp_levels[1:] if spp >= level.start)

    def level(self, spp: int) -> str:
        return [lv.title for lv in self.spp_levels if spp >= lv.start][-1]


class DZSkill(Skill):
    max_st: int | None = None
    min_st: int | None = None


class DZSkillList(Frozen):
    source: str
    skills: tuple[DZSkill, ...]


class DZStar(StarPlayer):
    counts_as: dict[str, str] = {}
    """Team list id -> the position the star takes up there (Star Players Alt (b))."""


class DZStarList(Frozen):
    source: str
    stars: tuple[DZStar, ...]


@cache
def tables() -> Tables:
    return load_yaml(DATA / "tables.yaml", Tables)


@cache
def skills() -> DZSkillList:
    return load_yaml(DATA / "skills.yaml", DZSkillList)


@cache
def stars() -> dict[str, DZStar]:
    return {s.id: s for s in load_yaml(DATA / "stars.yaml", DZStarList).stars}


def d66(values: tuple[int, ...]) -> int | None:
    """A D66 as entered: two dice (6, 3) or one two-digit value 63; None if neither."""
    if len(values) == 2 and all(1 <= v <= 6 for v in values):
        return values[0] * 10 + values[1]
    if len(values) == 1 and all(ch in "123456" for ch in str(values[0])):
        return values[0] if 11 <= values[0] <= 66 else None
    return None


@cache
def find_skill(name: str) -> DZSkill | None:
    """Looked up once per name, like lrb6's: asked of every advancement a replay tries."""
    wanted = name.strip().casefold()
    return next((s for s in skills().skills if s.name.casefold() == wanted), None)
