"""3rd edition Blood Bowl with Death Zone and the OBERWALD rulings, ruleset id ``dz3``.

Source: shared/seeds/004_a32ffd8ab3d1f0ed.txt, OBERWALD "The Crazy Coaches Edition" v2.06
(2000), rulings and league variants (Var/Alt) for the 3rd edition Handbook (1994) and Death
Zone (1995); the 3rd edition facts in shared/seeds/README.md (team rating, SPP levels and
awards). The Death Zone tables that no seed prints (winnings, fan factor, serious injuries)
are in data/tables.yaml with their source and marked as readings; team lists are the
classic3 ones (ledger/rules/classic3/data). Every reading: docs/rulesets/dz3.md.

Worked example (seeds README, seed 004 3.8): every starting team has TR 100 - a team drafted
with 1,000,000 is worth 1,000,000 at list prices, treasury included, and has no SPP. After a
match in which its players earned 3 + 5 + 2 = 10 SPP and it took 60,000 in winnings, its TR
is 1,060,000 / 10,000 + 10 / 5 = 108.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, cached_property
from pathlib import Path
from typing import Any, ClassVar

from ledger.domain.events import MatchRecorded, PlayerAdvanced, PlayerHired
from ledger.domain.state import PlayerRow, TeamRow, on_roster
from ledger.domain.values import Casualty, DiceRoll, Effect
from ledger.errors import CasualtyDice, InvalidAdvancement, PositionLimitReached, StarRefused
from ledger.rules.base import BaseRuleset, rerolls_and_fan_factor
from ledger.rules.catalogue import Catalogue
from ledger.rules.dice import DiceBox
from ledger.rules.dz3 import advancement, checks, injuries, postgame, rating, stars
from ledger.rules.dz3.catalogue import DZ3Catalogue
from ledger.rules.dz3.game import Game
from ledger.rules.dz3.options import Options as DZ3Options
from ledger.rules.dz3.tables import DZStar, tables
from ledger.rules.dz3.tables import skills as skill_list
from ledger.rules.dz3.tables import stars as star_list
from ledger.rules.effects import Effects
from ledger.rules.problems import Problem, found
from ledger.rules.protocol import AdvancementResult, DiceNeed, SidelineItem, ValueReads
from ledger.rules.rows import HireRows, MatchRows
from ledger.rules.schema import Skill, StarPlayer


class DZ3(BaseRuleset[DZ3Options]):
    id = "dz3"
    name = "3rd edition Death Zone (OBERWALD)"
    hireling_spp_source = "OBERWALD 'Freebooters'"
    source = "OBERWALD Crazy Coaches Edition v2.06, on the 3rd edition Handbook and Death Zone"
    """The books, as ``ledger rulesets`` names them (seed 004 in the docstrings)."""
    aliases = ("bb3", "3rd", "deathzone", "death-zone", "oberwald")
    data_dir = Path(__file__).parent.parent / "classic3" / "data"
    value_labels = {"tr": "TR"}
    rating_key = "tr"
    casualty_dice = injuries.CASUALTY_DICE
    reads_league_stars = True
    reads_former_players = True
    """The card of every player who missed the game is rubbed out, a departed one too."""
    """Alt (c) of duplicates: 'first to hire Morg will get him', across the league."""
    example_option_sets: ClassVar[tuple[dict[str, Any], ...]] = (
        {},
        {"handicap": "ratio", "fan_factor_damping": True},
        {"star_players": "two", "star_duplicates": "not_in_league", "star_positions": "counted"},
        {"star_players": "secret_weapons", "star_duplicates": "not_in_team"},
        {"star_players": "none", "forfeits": "b", "team_rating": "upgrades"},
        {"forfeits": "d", "forfeit_penalties": ["income", "fans"]},
        {"forfeits": "c"},
    )

    @property
    def concession_kinds(self) -> tuple[str, ...]:
        """OBERWALD 3.7: none in the books; the league's ``forfeits`` variant says which."""
        return checks.FORFEIT_KINDS[self.options.forfeits]

    def spp_table(self) -> Mapping[str, int]:
        return tables().spp

    def game(self, match: MatchRecorded, rows: MatchRows) -> Game:
        return Game(tables(), self.options, match, rows)

    # --- building a team -------------------------------------------------------------------

    def starting_treasury(self) -> int:
        return tables().starting_treasury

    @cached_property
    def catalogue(self) -> Catalogue:
        """Stars hired onto a roster as the league's Star Players variant allows."""
        return DZ3Catalogue(self.catalogue_sources(), self.options)

    def load_stars(self) -> Mapping[str, StarPlayer]:
        return star_list()

    def load_skills(self) -> Sequence[Skill]:
        return skill_list().skills

    def sideline_offer(self, roster: str) -> Mapping[str, SidelineItem]:
        t, team_list = tables(), self.catalogue.team_list(roster)
        items = rerolls_and_fan_factor(
            reroll_price=team_list.reroll_cost,
            reroll_max=t.max_rerolls,
            reroll_doubles=t.reroll_double_after_draft,
            fan_price=t.fan_factor.price,
            fan_max=t.fan_factor.draft_max,
        )
        for item_id, staff in t.sideline.items():
            if item_id != "apothecary" or team_list.apothecary:
                items[item_id] = SidelineItem(
                    id=item_id, name=staff.name, price=staff.price, max=staff.max
                )
        return items

    def hire_price(self, event: PlayerHired, rows: HireRows) -> int:
        """The full list price, also for a freebooter signed after the match: 'The original
        "freeboot fee" is lost but any SPPs are kept' (seed 004 'Freebooters')."""
        return super().hire_price(event, rows)

    def check_hire(self, event: PlayerHired, rows: HireRows) -> list[Problem]:
        """The star player variants; under Alt (b) of positions, stars fill positions. Alt
        (c) of duplicates looks at the whole league: a star on another team's roster is
        taken ("first to hire Morg will get him")."""
        team, players = rows.team, rows.players
        team_list = self.catalogue.team_list(team.roster)
        if event.kind == "star" and event.star:
            star = star_list().get(event.star)
            if star is None:
                return [Problem(StarRefused, f"{self.name} has no star player '{event.star}'")]
            holders = stars.holders(rows.league_stars)
            league = stars.league_problems(self.options, star, team.team_id, holders)
            return self.star_hire_problems(team, players, star) + found(StarRefused, league)
        if event.from_list is None:
            held = stars.roster_stars(players)
            taken = same_position(players, team.roster, event.position)
            taken += stars.stars_as(star_list(), held, team_list, event.position)
            limit = stars.position_problems(
                self.options, team_list, event.position, taken, event.name
            )
            return found(PositionLimitReached, limit)
        return []

    def star_hire_problems(
        self, team: TeamRow, players: Sequence[PlayerRow], star: DZStar
    ) -> list[Problem]:
        team_list, held = self.catalogue.team_list(team.roster), stars.roster_stars(players)
        problems = found(
            StarRefused, stars.star_problems(tables(), self.options, star, team_list, held)
        )
        position = star.counts_as.get(team_list.id)
        if position is not None:
            taken = same_position(players, team.roster, position)
            taken += stars.stars_as(star_list(), held, team_list, position)
            limit = stars.position_problems(self.options, team_list, position, taken, star.name)
            problems += found(PositionLimitReached, limit)
        return problems

    # --- values ----------------------------------------------------------------------------

    def player_value(self, player: PlayerRow) -> int:
        """A player's list cost: 3rd edition skills add nothing to it (experience reaches
        the team rating through SPP / 5), and a discounted hire still counts its list price."""
        return player.base_cost

    def team_values(self, team: TeamRow, players: Sequence[PlayerRow]) -> dict[str, int]:
        t, roster = tables(), on_roster(players)  # once: the value and the rating both read it
        value = rating.team_value(
            t, team, roster, self.catalogue.team_list(team.roster).reroll_cost
        )
        if self.options.team_rating == "upgrades":
            return {"tr": rating.upgrades_rating(t, value, roster)}
        return {"tr": rating.spp_rating(t, value, roster)}

    def value_reads(self) -> ValueReads:
        team = frozenset({"roster", "rerolls", "staff", "fans", "treasury"})
        if self.options.team_rating == "upgrades":
            rated = {"advancements", "changes", "niggling"}
        else:
            rated = {"spp_earned"}
        return ValueReads(team=team, players=frozenset({"status", "base_cost", *rated}))

    # --- matches ---------------------------------------------------------------------------

    def casualty_earns_spp(self, casualty: Casualty) -> bool:
        """Block and crowd (pushed in: 'award Star Player Points to whoever knocked this
        player into the crowd' [WD]); never a failed Dodge or Go For It (2.3, 2.4)."""
        return postgame.earns(casualty, spp_causes())

    def check_casualty(self, casualty: Casualty) -> list[Problem]:
        return found(CasualtyDice, injuries.problems(tables(), casualty))

    def casualty_from_report(
        self, outcome: str | None, effects: tuple[str, ...], dice: Sequence[DiceRoll]
    ) -> tuple[str, tuple[Effect, ...]]:
        return injuries.from_report(tables(), outcome, effects, dice)

    def check_match(self, match: MatchRecorded, rows: MatchRows) -> list[Problem]:
        return checks.match_problems(self.game(match, rows), dict(self.catalogue.team_lists()))

    def match_dice(self, match: MatchRecorded, rows: MatchRows) -> list[DiceNeed]:
        return postgame.match_dice(self.game(match, rows))

    def match_outcomes(self, match: MatchRecorded, rows: MatchRows, dice: DiceBox) -> Effects:
        game = self.game(match, rows)
        return postgame.match_outcomes(
            game, dice, spp_causes(), lambda sheet: self.spp_outcomes(match, sheet)
        )

    # --- advancement -----------------------------------------------------------------------

    def advancement(self, player: PlayerRow, event: PlayerAdvanced) -> AdvancementResult:
        return advancement.result(event)

    def check_advancement(
        self, player: PlayerRow, team: TeamRow, event: PlayerAdvanced
    ) -> list[Problem]:
        position = self.catalogue.team_list(player.roster).position(player.position)
        if position is None:
            sentence = f"{player.name} ({player.position}) makes no star player rolls"
            return [Problem(InvalidAdvancement, sentence)]
        return found(InvalidAdvancement, advancement.problems(tables(), player, position, event))


def same_position(players: Sequence[PlayerRow], roster: str, position: str) -> int:
    return sum(
        1
        for p in on_roster(players)
        if p.position == position and p.roster == roster and p.kind != "star"
    )


@cache
def spp_causes() -> frozenset[str]:
    """The causes of a casualty that earn SPP (2.3, 2.4, [WD]), read once from the tables."""
    return frozenset(tables().casualty_spp_causes)
