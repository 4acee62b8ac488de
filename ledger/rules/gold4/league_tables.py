"""The league tables of a gold4 league, validated at load: Death Zone and seed 002 rule figures.

Source: seed 002 (shared/seeds/002_af84a64a17c90723.txt) sits on the 3rd edition Handbook and
Death Zone, whose league tables the seeds do not print. ``data/deathzone.yaml`` holds those
(gate, Match Winnings Table, fan factor roll, Star Player table, Serious Injury table, staff
prices, team rating), each with its source; ``data/rules.yaml`` holds the figures of seed 002's
"CONCEDING THE MATCH" and "Acquiring Traits" and the readings that join printed race names to
team lists. ``tables.py`` (the colleague's loader) holds the printed Gold tables.

Worked example (Match Winnings Table): a gate of 35,000 (band 31-45) and a team rating of 104
(band 100-125) give +2; a winner rolling 3 earns (3 + 2 + 1) x 10,000 = 60,000.
"""

from __future__ import annotations

from functools import cache, cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from ledger.domain.values import Effect
from ledger.rules.classic3.fans import FanFactorRoll
from ledger.rules.schema import Frozen, SkillCategory, load_yaml

DATA = Path(__file__).parent / "data"

StarRollResult = Literal["skill", "ma", "ag", "st"]


def band_index(bounds: tuple[int | None, ...], value: int) -> int:
    """The index of the first band whose upper bound holds ``value`` (None: and above).
    A plain loop: asked twice per side of every match for the winnings."""
    for index, top in enumerate(bounds):
        if top is None or value <= top:
            return index
    raise LookupError(f"no band holds {value}")  # never: each table ends in an open band


class Staff(Frozen):
    name: str
    price: int = Field(ge=0)
    max: int = Field(ge=0)


class Sideline(Frozen):
    reroll_max: int = Field(ge=0)
    reroll_doubles_after_draft: bool
    fan_factor_price: int = Field(ge=0)
    fan_factor_draft_only: bool
    fan_factor_draft_max: int | None = Field(ge=0)
    """None: no limit printed."""
    staff: dict[str, Staff]


class TeamRating(Frozen):
    gold_per_point: int = Field(gt=0)
    spp_per_point: int = Field(gt=0)
    fan_factor_value: int = Field(ge=0)


class Gate(Frozen):
    die: str
    per_pip: int = Field(gt=0)
    stage_bonus_per_die: dict[str, int] = {}


class Winnings(Frozen):
    die: str
    per_pip: int = Field(gt=0)
    won_bonus: int
    gate_bands: tuple[int | None, ...]
    rating_bands: tuple[int | None, ...]
    modifiers: tuple[tuple[int, ...], ...]

    def modifier(self, gate_thousands: int, rating: int) -> int:
        row = self.modifiers[band_index(self.gate_bands, gate_thousands)]
        return row[band_index(self.rating_bands, rating)]

    @model_validator(mode="after")
    def _grid_fits_bands(self) -> Winnings:
        columns = {len(row) for row in self.modifiers}
        if len(self.modifiers) != len(self.gate_bands) or columns != {len(self.rating_bands)}:
            raise ValueError("winnings modifiers must be a gate-band x rating-band grid")
        for bounds in (self.gate_bands, self.rating_bands):
            if bounds[-1] is not None or None in bounds[:-1]:
                raise ValueError("only the last band may be open ended (null)")
        return self


class Mvp(Frozen):
    per_team: int = Field(ge=0)
    max_per_player: int = Field(ge=1)


class HandicapRow(Frozen):
    max_difference: int | None
    bonus_mvps: int = Field(ge=0)


class Handicap(Frozen):
    section: str
    rows: tuple[HandicapRow, ...]

    def bonus_mvps(self, difference: int) -> int:
        bounds = tuple(row.max_difference for row in self.rows)
        return self.rows[band_index(bounds, difference)].bonus_mvps


class StarRollRow(Frozen):
    min: int = Field(ge=2, le=12)
    max: int = Field(ge=2, le=12)
    result: StarRollResult


class StarPlayerTable(Frozen):
    dice: str
    rows: tuple[StarRollRow, ...]

    def result(self, total: int) -> StarRollResult:
        return next(row.result for row in self.rows if row.min <= total <= row.max)

    @model_validator(mode="after")
    def _covers_two_to_twelve(self) -> StarPlayerTable:
        covered = sorted(t for row in self.rows for t in range(row.min, row.max + 1))
        if covered != list(range(2, 13)):
            raise ValueError("the Star Player table must cover 2-12 exactly once")
        return self


class SeriousInjuryRow(Frozen):
    min: int = Field(ge=11, le=66)
    max: int = Field(ge=11, le=66)
    name: str
    effects: tuple[Effect, ...]


class SeriousInjuryTable(Frozen):
    dice: str
    max_reduction: int = Field(ge=0)
    rows: tuple[SeriousInjuryRow, ...]

    def row(self, d66: int) -> SeriousInjuryRow | None:
        return next((r for r in self.rows if r.min <= d66 <= r.max), None)

    @model_validator(mode="after")
    def _covers_every_d66(self) -> SeriousInjuryTable:
        every = [10 * tens + units for tens in range(1, 7) for units in range(1, 7)]
        if any(sum(1 for r in self.rows if r.min <= n <= r.max) != 1 for n in every):
            raise ValueError("the Serious Injury table must cover 11-66 exactly once")
        return self


class DeathZone(Frozen):
    """deathzone.yaml."""

    source: str
    starting_treasury: int = Field(ge=0)
    spp: dict[str, int]
    team_rating: TeamRating
    sideline: Sideline
    gate: Gate
    winnings: Winnings
    fan_factor_roll: FanFactorRoll
    mvp: Mvp
    handicap: Handicap
    star_player_table: StarPlayerTable
    serious_injury_table: SeriousInjuryTable


class Concession(Frozen):
    section: str
    printed: str
    winner_fan_roll_bonus: int
    loser_fan_factor_loss: int = Field(ge=0)
    walkout_min_spp: int = Field(ge=0)
    walkout_die: str
    walkout_leaves_on: tuple[int, ...]


class TraitRules(Frozen):
    section: str
    never_categories: tuple[str, ...]
    never_acquired: tuple[str, ...]
    max_strength: dict[str, int]
    physical_needs_mutation: bool


class DoubleCost(Frozen):
    section: str
    teams: dict[str, str]
    """Team list -> the position id of its race's players on any list (goblin: goblin)."""
    factor: int = Field(ge=1)

    def outsider(self, team_roster: str, position: str) -> bool:
        """Whether an ally of this position costs double on a team of this list: he is not
        of the team's race ('Do non-goblin players still cost double ...? Yes')."""
        own = self.teams.get(team_roster)
        return own is not None and position != own


class DoubleProgression(Frozen):
    keywords: tuple[str, ...]
    big_guy_keyword: str


class Names(Frozen):
    race_lists: dict[str, str]
    trait_aliases: dict[str, str]


class GoldRules(Frozen):
    """rules.yaml."""

    source: str
    concession: Concession
    traits: TraitRules
    category_codes: dict[str, SkillCategory]
    double_cost_teams: DoubleCost
    double_progression: DoubleProgression
    names: Names

    def list_id(self, printed: str) -> str:
        """The team list id a printed race or team name refers to ("Treemen" -> treeman)."""
        name = printed.split("(")[0].strip()
        return self.race_aliases.get(name.casefold(), name.casefold().replace(" ", "_"))

    @cached_property
    def race_aliases(self) -> dict[str, str]:
        """``names.race_lists`` by case-folded name: ``list_id`` is asked for every row of
        the allies table on every hire, so it is folded once."""
        return {k.casefold(): v for k, v in self.names.race_lists.items()}

    def trait_name(self, printed: str) -> str:
        return self.names.trait_aliases.get(printed, printed)


@cache
def deathzone(data: Path = DATA) -> DeathZone:
    return load_yaml(data / "deathzone.yaml", DeathZone)


@cache
def gold_rules(data: Path = DATA) -> GoldRules:
    return load_yaml(data / "rules.yaml", GoldRules)
