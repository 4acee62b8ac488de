"""The lrb6-zal tables file (data/tables.yaml), validated at load.

Source: shared/seeds/000_e199eb2e30fe6ef5.txt (ZAL Season 5): the Handicap, Match Winnings,
Fan Factor and Star Player Points tables, ZAL 3c-3k, 8a, 8d, 9b, 16, 17 and 19; LRB6 (Blood
Bowl Competition Rules 2010) where the seed leans on it (casualty table, prices), as marked
in the file.

Worked example (Match Winnings Table): a gate of 31,000 fans is the third row and a Team
Rating of 112 the second column, so ``tables().winnings.modifier(31_000, 112) == 2``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import model_validator

from ledger.rules.lrb6 import tables as lrb6
from ledger.rules.lrb6.tables import Band, Staff, StarRoll, ValueModifiers
from ledger.rules.schema import Frozen, Range, load_yaml

DATA = Path(__file__).parent / "data"

Share = Literal["all", "half", "none"]


class ShareBand(Range):
    share: Share


class HandicapRow(Range):
    cards: int
    mvps: int


class RiseBand(Range):
    rise: int


class SppLevel(lrb6.SppLevel):
    ageing: str | None = None
    """The ZAL 19 hurdle title this level's roll is aged under."""


class Hurdle(Frozen):
    title: str
    target: int


class Ageing(Frozen):
    hurdles: tuple[Hurdle, ...]
    effects: tuple[Band, ...]
    """What a failed hurdle costs; never beyond LRB6's injury limits (ZAL 19: 'the rule
    remains', lrb6's ``injury_limits``)."""

    def target(self, title: str) -> int:
        return next(h.target for h in self.hurdles if h.title == title)


class TeamRatingTable(Frozen):
    gold_per_point: int
    spp_per_point: int


class Gate(Frozen):
    fans_per_pip: int
    fame_more: int
    fame_more_than_double: int


class Winnings(Frozen):
    per_point: int
    win_bonus: int
    gate_bands: tuple[Range, ...]
    tr_bands: tuple[Range, ...]
    table: tuple[tuple[int, ...], ...]

    @model_validator(mode="after")
    def _table_fits_the_bands(self) -> Winnings:
        if len(self.table) != len(self.gate_bands) or any(
            len(row) != len(self.tr_bands) for row in self.table
        ):
            raise ValueError(
                "the winnings table must have one row per gate band, one column per TR"
            )
        return self

    def modifier(self, gate: int, rating: int) -> int:
        row = next(i for i, b in enumerate(self.gate_bands) if b.holds(gate))
        column = next(i for i, b in enumerate(self.tr_bands) if b.holds(rating))
        return self.table[row][column]


class Threshold(Frozen):
    at_least: int
    modifier: int


class FanFactor(Frozen):
    die: str
    down_at_most: int
    up_at_least: int
    won: int
    lost: int
    touchdowns: Threshold
    casualties: Threshold
    stages: dict[str, int]
    minimum: int
    price: int
    start_min: int
    start_max: int


class Stars(Frozen):
    from_match: int
    max_count: int
    max_total: int


class Hirelings(Frozen):
    one_game_divisor: int
    full_team: int
    price_rise: tuple[RiseBand, ...]


class Forfeit(Frozen):
    score: int
    extra_mvp: int
    fans_lost: int
    walkout_spp: int
    walkout_leaves_on: tuple[int, ...]


class DrawBand(Range):
    cards: int


class Cards(Frozen):
    draw: tuple[DrawBand, ...]
    """ZAL 8b: the cards a D6 draws before any bonus card."""
    magic_item_on: tuple[int, ...]
    bonus_magic_item_from: int
    """Bonus cards from which one of them may be a Magic Item too (on a 6 only)."""
    bankruptcy: tuple[ShareBand, ...]
    robbery: tuple[ShareBand, ...]


class Tables(Frozen):
    source: str
    starting_treasury: int
    spp: dict[str, int]
    spp_casualty_causes: tuple[str, ...]
    spp_levels: tuple[SppLevel, ...]
    ageing: Ageing
    star_roll: StarRoll
    value_modifiers: ValueModifiers
    team_rating: TeamRatingTable
    handicap: tuple[HandicapRow, ...]
    mvps_per_team: int
    gate: Gate
    winnings: Winnings
    fan_factor: FanFactor
    sideline: dict[str, Staff]
    max_rerolls: int
    stars: Stars
    hirelings: Hirelings
    forfeit: Forfeit
    cards: Cards

    @model_validator(mode="after")
    def _levels_name_known_hurdles(self) -> Tables:
        titles = {h.title for h in self.ageing.hurdles}
        unknown = [lv.ageing for lv in self.spp_levels if lv.ageing and lv.ageing not in titles]
        if unknown:
            raise ValueError(f"SPP levels name unknown ageing hurdles {unknown}")
        return self


@cache
def tables() -> Tables:
    return load_yaml(DATA / "tables.yaml", Tables)


def share_of(bands: tuple[ShareBand, ...], roll: int) -> Share:
    return next(b.share for b in bands if b.holds(roll))


def take(share: Share, amount: int) -> int:
    """The part of ``amount`` a card's share takes ('half' rounds down)."""
    return {"all": amount, "half": amount // 2, "none": 0}[share]
