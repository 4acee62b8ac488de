"""The BB2025 tables file, validated at load (data/tables.yaml)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from ledger.domain.values import Characteristic
from ledger.rules.schema import Band, Frozen, SkillList, load_yaml

DATA = Path(__file__).parent / "data"

Mishap = Literal["averted", "minor", "major", "catastrophe"]


class AdvancementCosts(Frozen):
    title: str
    random_primary: int
    chosen_primary: int
    chosen_secondary: int
    characteristic: int


class Winnings(Frozen):
    per_point: int
    no_stalling_bonus: int
    fan_factor_die: str


class DedicatedFans(Frozen):
    start: int
    min: int
    max: int
    draft_max: int
    price: int


class ExpensiveMistakes(Frozen):
    threshold: int
    band: int
    table: tuple[tuple[Mishap, ...], ...]
    minor_per_pip: int
    major_rounding: int
    catastrophe_per_pip: int


class Staff(Frozen):
    name: str
    price: int
    max: int


class Concession(Frozen):
    default_score: int
    fans_die: str
    walkout_advancements: int
    walkout_leaves_on: tuple[int, ...]


class Unplayed(Frozen):
    agreed_concession_die: str
    per_pip: int


class Redraft(Frozen):
    budget: int
    per_fixture: int
    per_win: int
    per_draw: int
    cap: int
    agent_fee: int
    recovery_target: int


class Tables(Frozen):
    source: str
    starting_treasury: int
    spp: dict[str, int]
    advancement_costs: tuple[AdvancementCosts, ...]
    value_increase: dict[str, int]
    characteristic_improvement: dict[int, tuple[Characteristic, ...]]
    max_improvements: int
    characteristic_limits: dict[Characteristic, int]
    winnings: Winnings
    dedicated_fans: DedicatedFans
    expensive_mistakes: ExpensiveMistakes
    casualty_table: tuple[Band, ...]
    lasting_injury_table: tuple[Band, ...]
    sideline: dict[str, Staff]
    max_rerolls: int
    concession: Concession
    unplayed: Unplayed
    prizes: tuple[int, ...]
    redraft: Redraft


@cache
def tables() -> Tables:
    return load_yaml(DATA / "tables.yaml", Tables)


@cache
def skills() -> SkillList:
    return load_yaml(DATA / "skills.yaml", SkillList)


def band(bands: tuple[Band, ...], roll: int) -> Band:
    return next(b for b in bands if b.start <= roll <= b.end)
