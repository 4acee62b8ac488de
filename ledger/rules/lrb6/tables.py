"""The lrb6 tables file (data/tables.yaml), validated at load; its row types are shared
with the lrb6-zal overlay, which keeps its own tables beside these.

Source: the Blood Bowl Living Rulebook 6 (Competition Rules 2010), cited by page as seed
000 cites it: p.17 staff and Fan Factor, p.18 the fans, p.25 the Casualty Table, p.26
SPP and Star Player Rolls, p.27 the Value Modifiers Table, p.28 the post-match sequence,
p.29 conceding, pp.70-71 inducements. Readings: docs/rulesets/lrb6.md.

Worked example (spiralling expenses): a team value of 1,930,000 is one full band of
150,000 above 1,750,000, so ``tables().spiralling_expenses.due(1_930_000) == 20_000``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Literal, Protocol

from pydantic import Field

from ledger.domain.values import Characteristic
from ledger.rules import schema
from ledger.rules.schema import Frozen, Inducement, SkillCategory, SkillList, load_yaml

DATA = Path(__file__).parent / "data"

Result = Literal["win", "draw", "loss"]


class Band(schema.Band):
    name: str = ""
    """The result's name as the book prints it (the Casualty Table's 'Smashed Hand')."""


class SppLevel(Frozen):
    start: int = Field(alias="from")
    title: str
    rolls: int


class StarRoll(Frozen):
    characteristics: dict[int, tuple[Characteristic, ...]]
    double_categories: tuple[SkillCategory, ...]
    """Categories any player may take on a double, beyond his own double access."""
    mutation_on_double: tuple[str, ...]
    """Team lists whose players may take a Mutation on a double."""
    max_increase: int
    maximum: dict[Characteristic, int]


class ValueModifiers(Frozen):
    normal_skill: int
    double_skill: int
    ma: int
    av: int
    ag: int
    st: int


class Staff(Frozen):
    name: str
    price: int
    max: int
    not_for: tuple[str, ...] = ()


class Gate(Frozen):
    dice: str
    fans_per_point: int
    fame_more: int
    fame_double: int


class Winnings(Frozen):
    die: str
    per_point: int
    won_or_tied: int


class SpirallingExpenses(Frozen):
    from_value: int
    band: int
    per_band: int

    def due(self, team_value: int) -> int:
        """10,000 from 1,750,000, and 10,000 more for each full band of 150,000 above."""
        if team_value < self.from_value:
            return 0
        return (1 + (team_value - self.from_value) // self.band) * self.per_band


class FanFactor(Frozen):
    dice: dict[Result, str]
    up_when: tuple[Result, ...]
    down_when: tuple[Result, ...]
    minimum: int
    price: int
    start_max: int


class Concession(Frozen):
    fans_lost: int
    walkout_spp: int
    walkout_leaves_on: tuple[int, ...]


class LrbInducement(Inducement):
    apothecary: Literal["any", "with", "without"] = "any"
    """Wandering Apothecaries for teams that may have an apothecary, Igor for the rest."""


class InjuryLimits(Frozen):
    max_reduction: int
    min_value: int


class Tables(Frozen):
    source: str
    starting_treasury: int
    spp: dict[str, int]
    spp_casualty_causes: tuple[str, ...]
    spp_levels: tuple[SppLevel, ...]
    star_roll: StarRoll
    value_modifiers: ValueModifiers
    mvps_per_team: int
    gate: Gate
    winnings: Winnings
    spiralling_expenses: SpirallingExpenses
    fan_factor: FanFactor
    concession: Concession
    sideline: dict[str, Staff]
    max_rerolls: int
    full_team: int
    inducements: tuple[LrbInducement, ...]
    injury_limits: InjuryLimits
    casualty_table: tuple[Band, ...]


class Priced(Protocol):
    @property
    def price(self) -> int: ...
    @property
    def start_max(self) -> int: ...


class Common(Protocol):
    """What LRB6's shared rules read of an edition's league tables: LRB6's own, or an
    overlay's (``lrb6-zal`` keeps its numbers in its own file, with the same names)."""

    @property
    def starting_treasury(self) -> int: ...
    @property
    def spp(self) -> Mapping[str, int]: ...
    @property
    def spp_casualty_causes(self) -> tuple[str, ...]: ...
    @property
    def fan_factor(self) -> Priced: ...
    @property
    def sideline(self) -> Mapping[str, Staff]: ...
    @property
    def max_rerolls(self) -> int: ...


@cache
def tables() -> Tables:
    return load_yaml(DATA / "tables.yaml", Tables)


@cache
def skills() -> SkillList:
    return load_yaml(DATA / "skills.yaml", SkillList)
