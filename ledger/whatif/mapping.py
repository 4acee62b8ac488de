"""The mapping tables between editions (``ledger/whatif/mappings/*.yaml``), loaded and asked.

Every table is data with its sources in its header, validated by pydantic when first read;
this module only answers lookups: the target edition's name for a team list, a position, a
skill, a sideline item, a star player, a concession, a casualty's outcome. Columns are
list families (``bb2025``, ``lrb6``, ``classic3``) or, where one edition of a family
differs, a ruleset id, which wins over its family.

Worked example: a BB2025 league's Skaven team replayed under dz3 -
``team_list("bb2025", "dz3", "skaven")`` is ``skaven`` (an exact equivalent), and its
Blitzer is ``position(row, "bb2025", "dz3", "blitzer") == "storm_vermin"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ledger.domain.values import Casualty, Effect
from ledger.rules.schema import Frozen, load_yaml

FOLDER = Path(__file__).parent / "mappings"
SEVERITY = ("dead", "-ma", "-st", "-ag", "-pa", "-av", "niggling", "miss_next_game")
"""Which effect names a casualty's outcome, most severe first."""


Row = dict[str, str]


class TeamRow(Frozen):
    lists: Row
    approx: tuple[str, ...] = ()
    positions: tuple[Row, ...] = ()


class TeamTable(Frozen):
    families: dict[str, str]
    teams: tuple[TeamRow, ...]


class SkillTable(Frozen):
    renames: tuple[Row, ...]
    fallbacks: tuple[str, ...]


class CasualtyEdition(Frozen):
    drops: dict[str, str] = {}
    outcomes: dict[str, str]


class CasualtyTable(Frozen):
    editions: dict[str, CasualtyEdition]


class SidelineTable(Frozen):
    items: tuple[Row, ...]
    stars: tuple[Row, ...]
    concessions: dict[str, dict[str, str]]


@dataclass(frozen=True)
class Found:
    """A name in the target edition, and whether it is only the nearest equivalent."""

    name: str
    approx: bool = False
    row: TeamRow | None = None


@cache
def tables() -> tuple[TeamTable, SkillTable, CasualtyTable, SidelineTable]:
    return (
        load_yaml(FOLDER / "teams.yaml", TeamTable),
        load_yaml(FOLDER / "skills.yaml", SkillTable),
        load_yaml(FOLDER / "casualties.yaml", CasualtyTable),
        load_yaml(FOLDER / "sideline.yaml", SidelineTable),
    )


def family(ruleset: str) -> str:
    return tables()[0].families.get(ruleset, ruleset)


def column(row: Mapping[str, str], ruleset: str) -> str | None:
    """The row's entry for a ruleset: its own column, else its family's."""
    return row.get(ruleset) or row.get(family(ruleset))


def same_family(source: str, target: str) -> bool:
    return family(source) == family(target)


def find_row(rows: tuple[Row, ...], ruleset: str, name: str) -> Row | None:
    wanted = name.casefold()
    return next((r for r in rows if (column(r, ruleset) or "").casefold() == wanted), None)


# --- team lists and positions ----------------------------------------------------------


def team_list(source: str, target: str, roster: str) -> Found | None:
    """The target's list for a source list; ``None`` when the table has no row for it."""
    for row in tables()[0].teams:
        approx_in_source = source in row.approx or family(source) in row.approx
        if column(row.lists, source) != roster or approx_in_source:
            continue
        mapped = column(row.lists, target)
        if mapped is None:
            return None
        approx = target in row.approx or family(target) in row.approx
        return Found(mapped, approx, row)
    return None


def position(row: TeamRow | None, source: str, target: str, position_id: str) -> str | None:
    if row is None:
        return None
    found = find_row(row.positions, source, position_id)
    return column(found, target) if found is not None else None


# --- skills, items, stars, concessions ------------------------------------------------------


def skill(source: str, target: str, name: str) -> str:
    """The target's name for a skill (unchanged when the table does not rename it)."""
    renames = tables()[1].renames
    found = find_row(renames, source, name) or find_row(renames, source, base_name(name))
    mapped = column(found, target) if found is not None else None
    return mapped or name


def base_name(name: str) -> str:
    """'Mighty Blow (+1)' is Mighty Blow."""
    return name.split("(")[0].strip()


def fallback_skills() -> tuple[str, ...]:
    return tables()[1].fallbacks


def item(source: str, target: str, item_id: str) -> str | None:
    """The target's id for a sideline item; ``None`` when the target has no such item."""
    found = find_row(tables()[3].items, source, item_id)
    if found is None:
        return item_id
    return column(found, target)


def star(source: str, target: str, star_id: str) -> str:
    found = find_row(tables()[3].stars, source, star_id)
    return (column(found, target) if found is not None else None) or star_id


def concession(target: str, kind: str) -> str:
    kinds = tables()[3].concessions.get(target, {})
    return kinds.get(kind, kind)


# --- casualties -------------------------------------------------------------------------------


def casualty_edition(target: str) -> CasualtyEdition | None:
    editions = tables()[2].editions
    return editions.get(target) or editions.get(family(target))


def reread(target: str, casualty: Casualty) -> tuple[Casualty, list[str]]:
    """A casualty in the target edition's terms, and the reasons for any effect dropped."""
    edition = casualty_edition(target)
    if edition is None:
        return casualty, []
    dropped = [e for e in casualty.effects if e in edition.drops]
    kept: tuple[Effect, ...] = tuple(e for e in casualty.effects if e not in edition.drops)
    if dropped and "miss_next_game" not in kept and "dead" not in kept:
        kept = ("miss_next_game", *kept)
    worst = next((e for e in SEVERITY if e in kept), "none")
    outcome = edition.outcomes.get(worst, casualty.outcome)
    reread_casualty = casualty.model_copy(update={"outcome": outcome, "effects": kept})
    return reread_casualty, [edition.drops[e] for e in dropped]
