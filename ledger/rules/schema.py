"""Shapes of the rules data files that every edition ships beside its module.

Each edition keeps its tables in YAML files under ``ledger/rules/<edition>/`` and loads
them through these pydantic models, so a typo in a data file fails loudly at load time
with the file and field named, never later in the middle of a season.

Characteristics are stored as printed in the edition's own books: BB2025 prints AG, PA
and AV as target numbers (``3+`` is stored as ``3``), the older editions print AG and AV
as plain values. ``pa`` is ``None`` where the profile shows ``-`` or the edition has no
Passing characteristic.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import ConfigDict, Field, ValidationError, model_validator

from ledger.domain.per_class import per_class
from ledger.domain.plain import Plain, fields_reader, template_of
from ledger.domain.values import Effect

SkillCategory = Literal["A", "D", "G", "M", "P", "S", "T"]
"""Skill categories: Agility, Devious (BB2025), General, Mutation (Physical in 3rd/4th
edition), Passing, Strength, Trait (4th edition traits)."""
SKILL_CATEGORIES: dict[str, str] = {
    "A": "Agility",
    "D": "Devious",
    "G": "General",
    "M": "Mutation",
    "P": "Passing",
    "S": "Strength",
    "T": "Trait",
}
"""Each category's name, for a list or a pick-list of skills."""


def category_said(category: str) -> str:
    """``G (General)``: a Skill Table column as a sentence names it, its letter as the
    commands take it."""
    name = SKILL_CATEGORIES.get(category)
    return f"{category} ({name})" if name else category


class Frozen(Plain):
    """An edition's table, read from its data files: a plain model (ledger/domain/plain.py),
    validated through its twin when loaded, read as a plain object ever after (a gold4
    Monte Carlo sample reads some 4,700 fields of tables: as pydantic models, about 2% of
    its instructions). A table may keep an answer worked out from its fields beside them
    (``cached_property``), so it compares and hashes by its fields alone."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        read = field_values[type(self)]
        return bool(read(self.__dict__) == read(other.__dict__))

    def __hash__(self) -> int:
        # a what-if's advancement keys its drawn dice by the target's rolls (mapping.Roll)
        return hash((type(self), field_values[type(self)](self.__dict__)))


@per_class
def field_values(kind: type[Frozen]) -> Callable[[dict[str, Any]], Any]:
    """Reads a table's fields off its ``__dict__``, without the answers kept beside them."""
    return fields_reader(list(template_of[kind]))


class Range(Frozen):
    """A closed range of a roll, a rating or a number of fans: ``{from: 11, to: 20}``."""

    start: int = Field(alias="from")
    end: int = Field(alias="to")

    def holds(self, value: int) -> bool:
        return self.start <= value <= self.end


class Band(Range):
    """A range of a die roll and what it means: ``{from: 7, to: 9, outcome: ...}``, with
    its effects (``effect: -av`` is written for one)."""

    outcome: str
    effects: tuple[Effect, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _single_effect(cls, data: Any) -> Any:
        if isinstance(data, dict) and "effect" in data:
            data = {**data, "effects": (data["effect"],)}
            del data["effect"]
        return data


R = TypeVar("R", bound=Range)


def band(bands: Sequence[R], roll: int) -> R | None:
    """The row of a table whose range holds ``roll``; None when no row does."""
    return next((b for b in bands if b.holds(roll)), None)


class Position(Frozen):
    """One line of a team list."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    min: int = Field(default=0, ge=0)
    max: int = Field(ge=0, le=16)
    cost: int = Field(ge=0)
    ma: int = Field(ge=0)
    st: int = Field(ge=0)
    ag: int = Field(ge=0)
    pa: int | None = None
    av: int = Field(ge=0)
    skills: tuple[str, ...] = ()
    primary: tuple[SkillCategory, ...] = ()
    secondary: tuple[SkillCategory, ...] = ()
    keywords: tuple[str, ...] = ()
    """Lower-case tags the rules test for: ``lineman`` (journeyman-eligible line),
    ``big_guy``, ``secret_weapon``, ``no_spp``, race keywords..."""

    @model_validator(mode="after")
    def _quantity_is_a_range(self) -> Position:
        if self.min > self.max:
            raise ValueError(f"position {self.id}: min {self.min} > max {self.max}")
        return self


class TeamList(Frozen):
    """A team roster as printed in an edition's books."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    source: str
    """Where the figures come from (book, edition, page or section)."""
    reroll_cost: int = Field(gt=0)
    apothecary: bool = True
    special_rules: tuple[str, ...] = ()
    min_players: int = 11
    max_players: int = 16
    positions: tuple[Position, ...]
    notes: str = ""
    """Documented readings where the source was ambiguous or had to be interpreted."""

    @model_validator(mode="after")
    def _positions_are_unique(self) -> TeamList:
        ids = [p.id for p in self.positions]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"team {self.id}: duplicate position ids {duplicates}")
        return self

    def position(self, position_id: str) -> Position | None:
        return self.position_index.get(position_id)

    @cached_property
    def position_index(self) -> dict[str, Position]:
        """The positions by id (the first of an id), for ``position``: asked for players
        of every match. A list is only ever built by validation, never copied with other
        positions, so the index made on first use stays the list's."""
        index: dict[str, Position] = {}
        for p in self.positions:
            index.setdefault(p.id, p)
        return index


class StarPlayer(Frozen):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    cost: int = Field(ge=0)
    ma: int
    st: int
    ag: int
    pa: int | None = None
    av: int
    skills: tuple[str, ...] = ()
    plays_for: tuple[str, ...]
    """Team list ids, or special-rule names such as ``Old World Classic``, or ``any``."""
    pair_with: str | None = None
    """Id of the star who must be hired together with this one (the Swift Twins...)."""
    keywords: tuple[str, ...] = ()

    def plays_for_list(self, roster: str) -> bool:
        """Whether he plays for a team of the list ``roster`` (it, or any team, is named)."""
        return roster in self.plays_for or "any" in self.plays_for

    @property
    def partner_only(self) -> bool:
        """Half of a pair printed at 0 (Crumbleberry beside Grak, Drull beside Dribl): he
        is induced and signed with his partner, never alone."""
        return self.pair_with is not None and self.cost == 0


def pair_name(star: StarPlayer, stars: Mapping[str, StarPlayer]) -> str:
    """A star as the books name him where a pair comes as one: ``Grak & Crumbleberry``
    under the priced star, his own name otherwise."""
    partner = stars.get(star.pair_with or "")
    if partner is None or star.partner_only:
        return star.name
    return f"{star.name} & {partner.name}"


class Skill(Frozen):
    name: str
    category: SkillCategory
    elite: bool = False


class Inducement(Frozen):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    cost: int = Field(ge=0)
    max: int = Field(ge=0)
    reduced_cost: dict[str, int] = {}
    """Cheaper price keyed by team special rule or team list id (e.g. Bribes for
    ``Bribery and Corruption`` teams)."""
    only_for: tuple[str, ...] = ()
    """If non-empty, only teams with one of these special rules or ids may buy it."""


class StarPlayerList(Frozen):
    source: str
    stars: tuple[StarPlayer, ...]


class SkillList(Frozen):
    source: str
    skills: tuple[Skill, ...]


class InducementList(Frozen):
    source: str
    inducements: tuple[Inducement, ...]


M = TypeVar("M", bound=Frozen)


class RulesDataError(Exception):
    """A rules data file is missing or does not match its schema."""


def load_yaml(path: Path, model: type[M]) -> M:
    # PyYAML is imported with the first rules file read, not with the rules: most
    # commands read none (``ledger standings`` spent a sixteenth of its start on it).
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, where built
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
        return model.model_validate(raw)
    except (OSError, yaml.YAMLError, ValidationError) as error:
        raise RulesDataError(f"{path}: {error}") from error


@cache
def load_team_lists(folder: Path) -> dict[str, TeamList]:
    """Every team list in a folder; loaded once per process (the data never changes)."""
    teams = [load_yaml(path, TeamList) for path in sorted(folder.glob("*.yaml"))]
    by_id = {team.id: team for team in teams}
    if len(by_id) != len(teams):
        raise RulesDataError(f"{folder}: two team files share an id")
    return by_id


@cache
def load_stars(path: Path) -> StarPlayerList:
    return load_yaml(path, StarPlayerList)


@cache
def load_skills(path: Path) -> SkillList:
    return load_yaml(path, SkillList)
