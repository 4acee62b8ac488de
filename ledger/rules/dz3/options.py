"""The league variants OBERWALD lets a dz3 league choose (seed 004), recorded at creation.

OBERWALD's introduction: "Leagues that use this document as a basis for their rules should
first decide which of the possible alternatives they prefer and which variants (if any) they
will use." Each option below is one such choice, named after the seed's Var/Alt letter.

Worked example: ``ledger league create dz --name "DZ League" --ruleset dz3 -o handicap=ratio``
reads the handicap by the ratio of the two team ratings: TR 150 against TR 100 is a ratio of
1.5, which seed 004 3.8's ratio table gives 2 bonus cards and 2 bonus MVPs.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, StrictBool

Penalty = Literal["income", "spp", "fans"]


class Options(BaseModel):
    """Named options of a dz3 league, recorded in its creation event."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    handicap: Literal["difference", "ratio"] = "difference"
    """3.8 Handicaps: bonus cards and MVPs by the difference in team rating, or by the
    ratio of the higher to the lower team rating."""
    fan_factor_damping: StrictBool = False
    """'Fan Factor Roll' Var (a): -1 on the roll for each full 10 of current fan factor
    (-1 for 10-19, -2 for 20-29...)."""
    team_rating: Literal["spp", "upgrades"] = "spp"
    """3.8: TR from SPP (value / 10,000 + SPP / 5), or the variant 'player score': value /
    10,000 + 2 x (upgrades - characteristic losses and niggling injuries)."""
    star_players: Literal["any", "two", "secret_weapons", "none"] = "any"
    """Star Players: how many a team may have: any (the books), Alt (b) two at most,
    Alt (c) only those with secret weapons, Alt (d) none."""
    star_duplicates: Literal["allowed", "not_in_team", "not_in_league"] = "allowed"
    """Star Players: Alt (a) multiple copies allowed, Alt (b) no duplicates on a team,
    Alt (c) no duplicates in the league ('first to hire Morg will get him')."""
    star_positions: Literal["separate", "counted"] = "separate"
    """Star Players: Alt (a) stars take up no position, Alt (b) they count against the
    position limits ('Griff takes up one Blitzer position on the Human team')."""
    forfeits: Literal["none", "b", "c", "d"] = "none"
    """3.7 Forfeits: none (the books: no forfeits), Var (b) a team unable to field 3 players
    may forfeit without penalty, Var (c) must forfeit without penalty, Var (d) a team may
    forfeit, penalised if it could still field more than 3 players."""
    forfeit_penalties: tuple[Penalty, ...] = ("income", "spp", "fans")
    """3.7 Var (d): 'some or all of' the penalties for a voluntary forfeit: no income, no
    MVPs nor SPPs, -2 fan factor. (The pitch invasion is rolled at the table and its
    casualties go in the match report.)"""
