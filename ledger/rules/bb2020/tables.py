"""The Season 2 tables file (data/tables.yaml): the 2025 shape plus the Advancements
table's random Secondary column (Season 2 prints 'Choose a Primary skill or randomly select
a Secondary skill' as one column)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ledger.rules.bb2025 import tables as bb2025
from ledger.rules.schema import SkillList, load_yaml

DATA = Path(__file__).parent / "data"


class AdvancementCosts(bb2025.AdvancementCosts):
    random_secondary: int


class Tables(bb2025.Tables):
    advancement_costs: tuple[AdvancementCosts, ...]


@cache
def tables() -> Tables:
    return load_yaml(DATA / "tables.yaml", Tables)


@cache
def skills() -> SkillList:
    return load_yaml(DATA / "skills.yaml", SkillList)
