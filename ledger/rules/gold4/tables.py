"""The 4th edition "Gold" tables and team-list additions, validated at load.

Source: seed 002 (shared/seeds/002_af84a64a17c90723.txt), Jervis Johnson's "Gold" rules on
top of the 3rd edition Handbook and Death Zone. ``data/additions.yaml`` quotes "ADDITIONS TO
THE EXISTING TEAM LISTS"; ``data/tables.yaml`` quotes the Allied Teams Table, the free
re-roll races, the Secret Weapons Table, the Appearance Fee table, the new injury tables,
"Big Guys and Star Player Points" and the Skills and Trait Table. The Big Guy team lists
(Minotaur, Ogre, Treeman) are ordinary ``TeamList`` files in ``data/teams/``.

Worked example (the seed's own): The Mighty Zug costs 120,000 gp, so he counts as 120 SPP
and in a Balanced league demands a 50,000 gp appearance fee::

    fees = load_gold4_tables().tables.appearance_fees
    fees.fee(fees.star_player_spp(120_000), "balanced")  # -> 50_000
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from ledger.rules.schema import Frozen, Position, SkillCategory, load_yaml

DATA = Path(__file__).parent / "data"

FeeLevel = Literal["monty_haul", "laissez_faire", "balanced"]
PrintedCategory = Literal["General", "Agility", "Strength", "Passing", "Physical", "Daemonic"]


class SecretWeaponSpecial(Frozen):
    """The printed "Special:" line of an added position."""

    team: str
    position: str
    weapon: str
    penalty_roll: int = Field(ge=2, le=12)
    earns_spp: bool
    printed: str


class Additions(Frozen):
    """additions.yaml: positions added to existing (classic3) team lists."""

    source: str
    additions: dict[str, tuple[Position, ...]]
    specials: tuple[SecretWeaponSpecial, ...] = ()

    @model_validator(mode="after")
    def _specials_match_positions(self) -> Additions:
        armed = {(t, p.id) for t, ps in self.additions.items() for p in ps if _armed(p)}
        special = {(s.team, s.position) for s in self.specials}
        if armed != special or len(special) != len(self.specials):
            raise ValueError(
                f"secret weapon positions {sorted(armed)} != specials {sorted(special)}"
            )
        return self

    def special(self, team: str, position: str) -> SecretWeaponSpecial | None:
        return next((s for s in self.specials if (s.team, s.position) == (team, position)), None)


def _armed(position: Position) -> bool:
    return "secret_weapon" in position.keywords


class AllyRow(Frozen):
    team: str
    may_ally_with: tuple[str, ...]


class AlliedTeams(Frozen):
    section: str
    max_allies_per_allowed_race: int = Field(ge=0)
    team_rerolls_on_allies: bool
    rows: tuple[AllyRow, ...]
    notes: str = ""

    def allies_of(self, team: str) -> tuple[str, ...]:
        """Allowed allies of a team, by printed name in any case; unknown -> "ANY OTHER"."""
        rows = {row.team.casefold(): row for row in self.rows}
        row = rows.get(team.casefold()) or rows["any other"]
        return row.may_ally_with

    @model_validator(mode="after")
    def _has_fallback_row(self) -> AlliedTeams:
        if not any(row.team.casefold() == "any other" for row in self.rows):
            raise ValueError("allied teams table needs its 'ANY OTHER' row")
        return self


class FreeRerollRaces(Frozen):
    section: str
    races: tuple[str, ...]
    free_team_rerolls: int = Field(ge=0)
    applies_to_mixed_race_teams: bool
    existing_league_teams_gain: int = Field(ge=0)
    notes: str = ""


class SecretWeapon(Frozen):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    group: str | None = None
    cost: int = Field(ge=0)
    teams_printed: str
    teams: tuple[str, ...]
    penalty_roll: int = Field(ge=2, le=12)
    """The 2D6 penalty roll as printed: 8 means 8+."""

    @property
    def called(self) -> str:
        """The weapon as the text calls it: the table prints "Stink" in its row of
        "Bombs", and the rules below it speak of "the dreaded 'stink bomb'"."""
        return f"{self.name} {self.group.removesuffix('s')}" if self.group else self.name


class SecretWeapons(Frozen):
    section: str
    max_per_team: int = Field(ge=0)
    max_per_goblin_team: int = Field(ge=0)
    weapons: tuple[SecretWeapon, ...]
    notes: str = ""

    def weapon(self, weapon_id: str) -> SecretWeapon:
        return next(w for w in self.weapons if w.id == weapon_id)

    def limit_for(self, team: str) -> int:
        """Players with secret weapons a team may have on its roster at any one time."""
        return self.max_per_goblin_team if team.casefold() == "goblin" else self.max_per_team


class FeeBand(Frozen):
    spp_min: int = Field(ge=0)
    spp_max: int | None
    monty_haul: int = Field(ge=0)
    laissez_faire: int = Field(ge=0)
    balanced: int = Field(ge=0)

    def contains(self, spp: int) -> bool:
        return self.spp_min <= spp and (self.spp_max is None or spp <= self.spp_max)

    def fee(self, level: FeeLevel) -> int:
        """The band's fee at a league's level: each level is a column (field) of the band."""
        fee: int = getattr(self, level)
        return fee


class AppearanceFees(Frozen):
    section: str
    levels: tuple[FeeLevel, ...]
    star_player_cost_per_spp: int = Field(gt=0)
    bands: tuple[FeeBand, ...]
    notes: str = ""

    def fee(self, spp: int, level: FeeLevel) -> int:
        """Appearance fee in gold pieces for a player with ``spp`` SPPs (0 below the bands)."""
        for band in self.bands:  # a plain loop: asked for every player before every match
            if band.contains(spp):
                return band.fee(level)
        return 0

    def star_player_spp(self, cost: int) -> int:
        """Star Players "have a number of SPPs equal to their cost divided by a thousand"."""
        return cost // self.star_player_cost_per_spp

    @model_validator(mode="after")
    def _bands_are_contiguous(self) -> AppearanceFees:
        _check_contiguous([(b.spp_min, b.spp_max) for b in self.bands], "appearance fee bands")
        return self


class InjuryRow(Frozen):
    min: int
    max: int | None
    result: str = Field(pattern=r"^[a-z0-9_]+$")
    printed: str


class InjuryTable(Frozen):
    section: str
    dice: str
    modifiers_apply: bool
    rows: tuple[InjuryRow, ...]
    notes: str = ""

    def result(self, total: int) -> str:
        """The result id for a (modified, where allowed) total; below the table -> first row."""
        if total < self.rows[0].min:
            return self.rows[0].result
        return next(r.result for r in self.rows if r.max is None or total <= r.max)

    @model_validator(mode="after")
    def _rows_are_contiguous(self) -> InjuryTable:
        _check_contiguous([(r.min, r.max) for r in self.rows], f"{self.dice} injury rows")
        return self


class SppLevel(Frozen):
    title: str
    min_spp: int = Field(ge=0)
    big_guy_min_spp: int = Field(ge=0)


class BigGuySpp(Frozen):
    section: str
    multiplier: int = Field(gt=0)
    skill_categories: tuple[SkillCategory, ...]
    mutation_capable: tuple[str, ...]
    double_options: tuple[str, ...]
    max_characteristic_gain: int
    max_characteristic: int
    levels: tuple[SppLevel, ...]
    notes: str = ""

    def level(self, spp: int, *, big_guy: bool) -> str:
        """The title a player with ``spp`` SPPs has reached; Big Guys need double."""
        reached = [
            lv for lv in self.levels if spp >= (lv.big_guy_min_spp if big_guy else lv.min_spp)
        ]
        return reached[-1].title

    @model_validator(mode="after")
    def _levels_are_doubled(self) -> BigGuySpp:
        for lv in self.levels:
            if lv.big_guy_min_spp != self.multiplier * lv.min_spp:
                raise ValueError(f"{lv.title}: big_guy_min_spp is not {self.multiplier}x min_spp")
        if [lv.min_spp for lv in self.levels] != sorted({lv.min_spp for lv in self.levels}):
            raise ValueError("SPP levels must rise strictly")
        return self


class SkillOrTrait(Frozen):
    name: str
    kind: Literal["skill", "trait"]
    category: PrintedCategory


class Tables(Frozen):
    """tables.yaml."""

    source: str
    allied_teams: AlliedTeams
    free_reroll_races: FreeRerollRaces
    secret_weapons: SecretWeapons
    appearance_fees: AppearanceFees
    injury_table: InjuryTable
    specific_injury_table: InjuryTable
    big_guy_spp: BigGuySpp
    skills_and_traits: tuple[SkillOrTrait, ...]

    def is_trait(self, name: str) -> bool:
        return any(s.name == name and s.kind == "trait" for s in self.skills_and_traits)


class Gold4Tables(Frozen):
    additions: Additions
    tables: Tables


def _check_contiguous(ranges: list[tuple[int, int | None]], what: str) -> None:
    for (_, high), (low, _) in pairwise(ranges):
        if high is None or low != high + 1:
            raise ValueError(f"{what} are not contiguous at {low}")


@cache
def load_gold4_tables(data: Path = DATA) -> Gold4Tables:
    """Load and validate additions.yaml and tables.yaml (RulesDataError names the file)."""
    return Gold4Tables(
        additions=load_yaml(data / "additions.yaml", Additions),
        tables=load_yaml(data / "tables.yaml", Tables),
    )
