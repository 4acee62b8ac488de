"""Blood Bowl Living Rulebook 6 (Competition Rules 2010) league rules, ruleset id ``lrb6``.

Source: the LRB6 book, cited by page as seed 000 (shared/seeds/000_e199eb2e30fe6ef5.txt)
cites it, for what no seed prints: p.17 team creation and staff, p.18 the fans and FAME,
p.25 the Casualty Table, p.26 SPP, MVP and Star Player Rolls, p.27 the Value Modifiers
Table, p.28 winnings, Fan Factor and spiralling expenses, p.29 conceding, pp.70-71
inducements. Team lists, stars and skills: data/ (README.md), shared with the ``lrb6-zal``
overlay, which subclasses this class and changes what ZAL changes. Readings:
docs/rulesets/lrb6.md.

Worked example (a match): Fan Factors 3 and 2 roll 8 and 4 on 2D6: 11,000 and 6,000 fans,
FAME +1 for the first team. It wins 2-1 with a team value of 1,120,000: (D6 4 + 1 + 1) x
10,000 = 60,000 gold, no spiralling expenses below 1,750,000; its 3D6 Fan Factor roll of 10
beats 3, so its Fan Factor is 4. Its Lineman who scored twice earns 6 SPP: one Star Player
Roll, and a skill adds 20,000 to his value.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from ledger.domain.events import MatchRecorded, PlayerAdvanced, PlayerHired
from ledger.domain.state import ON_ROSTER, PlayerRow, TeamRow
from ledger.domain.values import Casualty, DiceRoll, Effect
from ledger.errors import (
    CasualtyDice,
    ConcessionRefused,
    HirelingRefused,
    InvalidAdvancement,
    LedgerError,
    MvpRefused,
    StarRefused,
)
from ledger.rules.base import (
    ROSTER_READS,
    SIDELINE_READS,
    BaseRuleset,
    OptionsT,
    eligible,
    rerolls_and_fan_factor,
)
from ledger.rules.dice import DiceBox
from ledger.rules.effects import Effects, Heals
from ledger.rules.lrb6 import advancement, casualties, checks, postgame, pregame
from ledger.rules.lrb6.postgame import Side
from ledger.rules.lrb6.tables import Common, Staff, tables
from ledger.rules.problems import Problem, found
from ledger.rules.protocol import (
    AdvancementResult,
    Budget,
    DiceNeed,
    Feature,
    SidelineItem,
    ValueReads,
)
from ledger.rules.rows import HireRows, MatchRows
from ledger.rules.schema import Position, StarPlayer, TeamList


class LRB6(BaseRuleset[OptionsT]):
    """Generic over its options (none of its own) so that the ZAL overlay brings its own:
    ``LRB6ZAL(LRB6[ZalOptions])``."""

    id = "lrb6"
    name = "Living Rulebook 6"
    hireling_spp_source = "LRB6 as ZAL Season 5 rules 3k and 8a state it"
    source = "Blood Bowl Living Rulebook 6 (Competition Rules, 2010)"
    aliases: ClassVar[tuple[str, ...]] = ("lrb", "lrb6.0", "crp")
    data_dir = Path(__file__).parent / "data"
    features = frozenset({Feature.INDUCEMENTS})

    @property
    def concession_kinds(self) -> tuple[str, ...]:
        return checks.CONCESSIONS

    casualty_dice = casualties.DICE
    reads_former_players = True
    """Its match rules read every player the team has had, as they always have (they
    look at the roster's by status)."""
    example_option_sets: ClassVar[tuple[dict[str, Any], ...]] = ({},)

    @classmethod
    def tables(cls) -> Common:
        """The league tables the shared rules below read (SPP, treasury, sideline, Fan
        Factor price, casualty causes); an overlay (lrb6-zal) gives its own file."""
        return tables()

    def spp_table(self) -> Mapping[str, int]:
        return self.tables().spp

    # --- building a team ------------------------------------------------------------------

    def starting_treasury(self) -> int:
        return self.tables().starting_treasury

    def sideline_offer(self, roster: str) -> Mapping[str, SidelineItem]:
        """p.17: re-rolls (double after creation), Fan Factor while drafting, staff."""
        t, team_list = self.tables(), self.catalogue.team_list(roster)
        items = rerolls_and_fan_factor(
            reroll_price=team_list.reroll_cost,
            reroll_max=t.max_rerolls,
            reroll_doubles=True,
            fan_price=t.fan_factor.price,
            fan_max=t.fan_factor.start_max,
        )
        return items | staff_items(t.sideline, roster, team_list)

    def check_hire(self, event: PlayerHired, rows: HireRows) -> list[Problem]:
        """pp.70-71: Star Players play one game at a time, as inducements."""
        if event.kind == "star":
            sentence = (
                "LRB6 Star Players are induced for one game (a report's hirelings), never hired"
            )
            return [Problem(StarRefused, sentence)]
        return []

    # --- values ---------------------------------------------------------------------------

    def starting_profile(self, player: PlayerRow) -> Position | StarPlayer | None:
        try:
            if player.kind == "star":
                return self.catalogue.star(player.position)
            return self.catalogue.position(player.roster, player.position)
        except LedgerError:
            return None  # a what-if replay of another edition's position

    def changed_characteristic(self, player: PlayerRow, stat: str, better: bool) -> int | None:
        """p.25 (and ZAL 19: 'the rule remains'): never reduced by more than 2 points below
        the starting profile, never below 1."""
        value = getattr(player, stat)
        if value is None or better:
            return None if value is None else int(value + 1)
        profile = self.starting_profile(player)
        start = getattr(profile, stat, value) if profile else value
        limit = tables().injury_limits
        return int(min(value, max(limit.min_value, start - limit.max_reduction, value - 1)))

    def team_values(self, team: TeamRow, players: Sequence[PlayerRow]) -> dict[str, int]:
        """Team value: players on the roster, re-rolls, Fan Factor and staff at their price."""
        counted = [p for p in players if p.status in ON_ROSTER]
        return {"tv": sum(p.value for p in counted) + self.sideline_gold(team)}

    def sideline_gold(self, team: TeamRow) -> int:
        return self.sideline_value(team) + team.fans * self.tables().fan_factor.price

    def value_reads(self) -> ValueReads:
        return ValueReads(team=SIDELINE_READS | {"fans"}, players=ROSTER_READS)

    # --- matches --------------------------------------------------------------------------

    def casualty_earns_spp(self, casualty: Casualty) -> bool:
        causes = self.tables().spp_casualty_causes
        return casualty.inflicted_by is not None and casualty.cause in causes

    def check_casualty(self, casualty: Casualty) -> list[Problem]:
        return found(CasualtyDice, casualties.problems(tables(), casualty))

    def casualty_from_report(
        self, outcome: str | None, effects: tuple[str, ...], dice: Sequence[DiceRoll]
    ) -> tuple[str, tuple[Effect, ...]]:
        return casualties.from_report(tables(), outcome, effects, dice)

    def sides_of(self, match: MatchRecorded, rows: MatchRows) -> tuple[Side, ...]:
        found = []
        for sheet in match.sheets():
            team = rows.team(sheet.team)
            if team is None:
                continue  # commands only record matches of registered teams
            players = rows.players(sheet.team)
            value = self.team_values(team, players)["tv"]
            found.append(Side(sheet=sheet, team=team, players=players, value=value))
        return tuple(found)

    def check_match(self, match: MatchRecorded, rows: MatchRows) -> list[Problem]:
        t, problems = tables(), found(ConcessionRefused, checks.concession_problems(match))
        for side in self.sides_of(match, rows):
            lists = (self.catalogue.team_list(side.team.roster), self.catalogue.stars())
            mvps = checks.mvp_problems(t, match, side.sheet, side.team.name)
            problems += found(MvpRefused, mvps, side.team.team_id)
            hired = checks.hireling_problems(t, side.team, side.players, side.sheet, lists)
            problems += found(HirelingRefused, hired)
        return problems

    def match_dice(self, match: MatchRecorded, rows: MatchRows) -> list[DiceNeed]:
        return postgame.needs(tables(), match, self.sides_of(match, rows))

    def match_outcomes(self, match: MatchRecorded, rows: MatchRows, dice: DiceBox) -> Effects:
        t, sides = tables(), self.sides_of(match, rows)
        effects = postgame.hireling_fees(match)
        if match.kind in ("exhibition", "unplayed"):
            return effects
        effects += recoveries(sides)
        if match.kind in postgame.BOOKED:
            effects += postgame.money(t, match, sides, dice)
            for side in sides:
                effects += postgame.fan_factor(t, match, side, dice)
        for side in sides:
            effects += self.spp_outcomes(match, side.sheet)
        effects += self.injury_outcomes(match)
        if match.kind in postgame.BOOKED:
            for side in sides:
                effects += postgame.walkouts(t, match, side, dice)
        return effects

    # --- advancement ----------------------------------------------------------------------

    def position_of(self, player: PlayerRow) -> Position | None:
        profile = self.starting_profile(player)
        return profile if isinstance(profile, Position) else None

    def advancement(self, player: PlayerRow, event: PlayerAdvanced) -> AdvancementResult:
        return advancement.result(tables(), self.position_of(player), event, priced=True)

    def check_advancement(
        self, player: PlayerRow, team: TeamRow, event: PlayerAdvanced
    ) -> list[Problem]:
        problems = advancement.problems(tables(), player, self.position_of(player), event)
        return found(InvalidAdvancement, problems)

    # --- before a game ----------------------------------------------------------------------

    def game_value(self, team: TeamRow, players: Sequence[PlayerRow]) -> int:
        """pp.70-71: the fit players and the journeymen the team must take."""
        fit = eligible(players)
        lineman = pregame.journeyman_position(self.catalogue.team_list(team.roster))
        journeymen = pregame.journeymen_needed(tables(), fit) * (lineman.cost if lineman else 0)
        return sum(p.value for p in fit) + self.sideline_gold(team) + journeymen

    def inducement_offer(
        self, team: TeamRow, contracted: Collection[str] = ()
    ) -> Mapping[str, SidelineItem]:
        return pregame.offer(tables(), self.catalogue.team_list(team.roster))

    def inducement_budget(
        self, value: int, other_value: int, other_spent: int, treasury: int
    ) -> Budget:
        return pregame.budget(value, other_value, other_spent, treasury)


def recoveries(sides: Sequence[Any]) -> Effects:
    """Players who had to miss this match are back for the next (LRB6 p.25)."""
    return [
        Heals(player=p.player_id, what="miss_next_game", note="missed this match")
        for side in sides
        for p in side.players
        if p.miss_next_game and p.status in ON_ROSTER
    ]


def staff_items(
    staff: Mapping[str, Staff], roster: str, team_list: TeamList
) -> dict[str, SidelineItem]:
    """The staff a team may hire (p.17): no Apothecary for a list without one, nothing a
    table keeps from the team's list (ZAL 3e: no Wizard for the undead)."""
    return {
        item_id: SidelineItem(id=item_id, name=s.name, price=s.price, max=s.max)
        for item_id, s in staff.items()
        if roster not in s.not_for and (item_id != "apothecary" or team_list.apothecary)
    }
