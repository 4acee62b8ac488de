"""Blood Bowl 4th edition "Gold" rules, ruleset id ``gold4``.

Source: shared/seeds/002_af84a64a17c90723.txt (Jervis Johnson's "Gold" rules), sections cited on
each rule, "in addition to the rules in the Handbook and Playbook": the 3rd edition team lists
of ``classic3`` and the Death Zone league sequence (data/deathzone.yaml, not in the seeds and
marked as readings in docs/rulesets/gold4.md). Modules: ``rosters`` (team lists, allies, secret
weapons), ``injuries`` (NEW INJURY TABLE), ``postgame`` (winnings, fan factor, CONCEDING THE
MATCH), ``fees`` (APPEARANCE FEES), ``advancement`` (Star Player rolls, BIG GUYS AND STAR
PLAYER POINTS).

Worked example (TEAM RATINGS and the Q&A): a Dwarf team spends 1,000,000 on players, re-rolls,
fan factor and staff or keeps it in the treasury, and takes its free starting re-roll: team
rating (1,000,000 / 10,000) + (0 SPP / 5) = 100, "the latter" of the Q&A - the free re-roll
does not count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, StrictBool

from ledger.domain.events import MatchRecorded, PlayerAdvanced, PlayerHired
from ledger.domain.state import ON_ROSTER, PlayerRow, TeamRow
from ledger.domain.values import Casualty, DiceRoll, Effect, PointsScheme, TeamSheet
from ledger.errors import (
    AllyRefused,
    AppearanceFeeRefused,
    CasualtyDice,
    ConcessionRefused,
    FreeRerollRefused,
    HirelingRefused,
    InvalidAdvancement,
    SecretWeaponRefused,
)
from ledger.rules.base import (
    ROSTER_READS,
    BaseRuleset,
    rerolls_and_fan_factor,
    roster_totals,
    staff_value,
)
from ledger.rules.catalogue import Catalogue
from ledger.rules.dice import DiceBox
from ledger.rules.effects import Effects, Spp
from ledger.rules.gold4 import advancement, fees, injuries, postgame, rosters
from ledger.rules.gold4.catalogue import Gold4Catalogue
from ledger.rules.gold4.league_tables import deathzone, gold_rules
from ledger.rules.gold4.matchday import MatchChecks
from ledger.rules.gold4.tables import FeeLevel, load_gold4_tables
from ledger.rules.problems import Problem, found
from ledger.rules.protocol import AdvancementResult, DiceNeed, Feature, SidelineItem, ValueReads
from ledger.rules.rows import HireRows, MatchRows
from ledger.rules.schema import Skill, TeamList


class Gold4Options(BaseModel):
    """Named options of a gold4 league, recorded in its creation event."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    appearance_fees: FeeLevel = "balanced"
    """APPEARANCE FEES: 'monty_haul' (none), 'laissez_faire' or 'balanced'. Balanced is the
    default: 'anybody starting a new league would be foolish to choose to run it other than as
    a balanced league'."""
    secret_weapons: StrictBool = True
    """SECRET WEAPONS: players may be bought with a secret weapon (one armed player per team,
    four for Goblins). Off: only the lists' own Fanatic and Death Roller."""
    handicap_mvps: StrictBool = True
    """Death Zone Handicap Table: the team with the lower team rating may award bonus MVPs."""


class Gold4(BaseRuleset[Gold4Options]):
    id = "gold4"
    name = 'Blood Bowl 4th edition "Gold"'
    hireling_spp_source = "3rd edition freebooters, as OBERWALD 'Freebooters' rules them"
    source = "4th edition Gold rules, on the 3rd edition Handbook and Death Zone"
    """The books, as ``ledger rulesets`` names them (seed 002 in the docstrings)."""
    aliases = ("bb4", "4th", "gold", "fourth")
    data_dir = Path(__file__).parent / "data"
    example_option_sets: ClassVar[tuple[dict[str, Any], ...]] = (
        {},
        {"appearance_fees": "monty_haul"},
        {"appearance_fees": "laissez_faire", "secret_weapons": False, "handicap_mvps": False},
    )
    value_labels = {"tr": "TR"}
    rating_key = "tr"
    features = frozenset({Feature.APPEARANCE_FEES})
    casualty_dice = injuries.CASUALTY_DICE
    reads_former_players = True
    """Death Zone 'Miss Next Game' is rubbed out of every player's card after the next
    match, a player who has left too."""

    def spp_table(self) -> Mapping[str, int]:
        return deathzone().spp

    # --- building a team ---------------------------------------------------------------------

    @cached_property
    def catalogue(self) -> Catalogue:
        """Allies and secret weapons besides the lists (``gold4.catalogue``)."""
        return Gold4Catalogue(self.catalogue_sources(), self.options.secret_weapons)

    def load_team_lists(self) -> Mapping[str, TeamList]:
        """The 3rd edition lists with gold4's allies and secret weapons (``rosters``)."""
        return rosters.team_lists()

    def starting_treasury(self) -> int:
        return deathzone().starting_treasury

    def load_skills(self) -> Sequence[Skill]:
        """The Skills and Trait Table: a skill under its access letter, a trait under T (its
        printed category, which the Acquiring Traits rule reads, is ``advancement``'s), so
        that a list of skills can tell what the table prints among the Traits."""
        codes = gold_rules().category_codes
        return tuple(
            Skill(name=s.name, category="T" if s.kind == "trait" else codes[s.category])
            for s in load_gold4_tables().tables.skills_and_traits
        )

    def sideline_offer(self, roster: str) -> Mapping[str, SidelineItem]:
        team_list, side = self.catalogue.team_list(roster), deathzone().sideline
        items = {
            **rerolls_and_fan_factor(
                reroll_price=team_list.reroll_cost,
                reroll_max=side.reroll_max,
                reroll_doubles=side.reroll_doubles_after_draft,
                fan_price=side.fan_factor_price,
                fan_max=side.fan_factor_draft_max,
                fan_draft_only=side.fan_factor_draft_only,
            ),
            **self.free_reroll(roster),
        }
        for item_id, staff in side.staff.items():
            if item_id != "apothecary" or team_list.apothecary:
                items[item_id] = SidelineItem(
                    id=item_id, name=staff.name, price=staff.price, max=staff.max
                )
        return items

    def free_reroll(self, roster: str) -> dict[str, SidelineItem]:
        """BUYING RE-ROLLS & FAN FACTORS: a separate, free, draft-only item, so the roster shows
        it was the free one and the team rating can leave it out (Q&A: TR stays 100)."""
        free = load_gold4_tables().tables.free_reroll_races
        if roster not in {gold_rules().list_id(race) for race in free.races}:
            return {}
        item = SidelineItem(
            id="free_reroll",
            name="Free starting team re-roll",
            price=0,
            max=free.free_team_rerolls,
            in_value=False,
            draft_only=True,
        )
        return {"free_reroll": item}

    def hire_price(self, event: PlayerHired, rows: HireRows) -> int:
        if event.kind == "star" and event.star:
            return super().hire_price(event, rows)
        return rosters.hire_price(event, rows.team)

    def hired_player(self, event: PlayerHired, team: TeamRow, league_id: str) -> PlayerRow:
        """'The cost of a weapon is added to the cost of the player using it' (SECRET WEAPONS)."""
        player = super().hired_player(event, team, league_id)
        weapons = [w for ref in event.equipment if (w := rosters.weapon(ref)) is not None]
        if not weapons:
            return player
        armed = player.model_copy(
            update={
                "extra_value": player.extra_value + sum(w.cost for w in weapons),
                "skills": (*player.skills, *(w.called for w in weapons)),
                "extras": {**player.extras, "secret_weapons": [w.id for w in weapons]},
            }
        )
        return armed.model_copy(update={"value": self.player_value(armed)})

    def check_hire(self, event: PlayerHired, rows: HireRows) -> list[Problem]:
        team, players = rows.team, rows.players
        free = team.staff.get("free_reroll", 0) > 0
        weapons = rosters.weapon_problems(team, players, event, self.options.secret_weapons)
        return [
            *found(AllyRefused, rosters.ally_problems(team, players, event, free)),
            *found(SecretWeaponRefused, weapons),
        ]

    def check_buy(
        self, team: TeamRow, players: Sequence[PlayerRow], item: str, count: int
    ) -> list[Problem]:
        """G2: the free re-roll 'does not apply to mixed race teams', bought before or after
        the allies (check_hire refuses allies after it)."""
        allies = [p.name for p in players if p.status in ON_ROSTER and p.roster != team.roster]
        if item != "free_reroll" or not allies:
            return []
        sentence = (
            f"{team.name} have allies ({', '.join(allies)}): the free re-roll 'does not apply"
            " to mixed race teams' (BUYING RE-ROLLS & FAN FACTORS)"
        )
        return [Problem(FreeRerollRefused, sentence)]

    # --- values --------------------------------------------------------------------------------

    def changed_characteristic(self, player: PlayerRow, stat: str, better: bool) -> int | None:
        """Improvements are checked before they are recorded; injuries never take a
        characteristic more than 2 below its starting value (Death Zone), nor below 1."""
        value = getattr(player, stat)
        if value is None:
            return None
        if better:
            return int(value + 1)
        position = rosters.position_of(player)
        start = int(getattr(position, stat)) if position else int(value)
        floor = max(1, start - deathzone().serious_injury_table.max_reduction)
        return int(max(min(value, floor), value - 1))

    def team_values(self, team: TeamRow, players: Sequence[PlayerRow]) -> dict[str, int]:
        """TEAM RATINGS: 'include the value of each player, re-roll, and the total number of star
        player points of each player, irrespective of ... what you actually paid'; Death Zone
        adds fan factor, staff and treasury (seeds/README.md). Each term is rounded down."""
        rating = deathzone().team_rating
        value, spp = roster_totals(players)
        fans = team.fans * rating.fan_factor_value
        gold = value + self.sideline_value(team) + fans + team.treasury
        return {"tr": gold // rating.gold_per_point + spp // rating.spp_per_point}

    def sideline_value(self, team: TeamRow) -> int:
        """Re-rolls at list price, never the League trophy (004 [JJ]) or the free one."""
        rerolls = self.catalogue.team_list(team.roster).reroll_cost * team.rerolls
        return rerolls + staff_value(self.sideline_items(team), team.staff, counts_as="staff")

    def value_reads(self) -> ValueReads:
        team = frozenset({"roster", "rerolls", "staff", "fans", "treasury"})
        return ValueReads(team=team, players=ROSTER_READS | {"spp_earned"})

    # --- matches -------------------------------------------------------------------------------

    def casualty_earns_spp(self, casualty: Casualty) -> bool:
        """STAR PLAYER POINTS: only 'if he blocks an opponent, or is blocked by an opponent
        himself, and the opposing player [is] knocked over on the pitch' - a crowd push, a foul
        or a secret weapon earns nothing. Regenerated players still count (Regeneration)."""
        return casualty.cause == "block" and casualty.inflicted_by is not None

    def casualty_from_report(
        self, outcome: str | None, effects: tuple[str, ...], dice: Sequence[DiceRoll]
    ) -> tuple[str, tuple[Effect, ...]]:
        return injuries.casualty_from_report(outcome, effects, dice)

    def check_casualty(self, casualty: Casualty) -> list[Problem]:
        return found(CasualtyDice, injuries.problems(casualty))

    def check_match(self, match: MatchRecorded, rows: MatchRows) -> list[Problem]:
        checks = MatchChecks(match, rows, self.options.handicap_mvps)
        return [
            *found(ConcessionRefused, checks.concession_problems()),
            *checks.mvp_problems(),
            *found(AppearanceFeeRefused, fees.problems(match, rows, self.options.appearance_fees)),
            *found(HirelingRefused, postgame.freebooter_problems(match, rows)),
        ]

    def match_dice(self, match: MatchRecorded, rows: MatchRows) -> list[DiceNeed]:
        return postgame.match_dice(match, rows)

    def match_outcomes(self, match: MatchRecorded, rows: MatchRows, dice: DiceBox) -> Effects:
        effects = postgame.match_outcomes(match, rows, dice)
        if match.kind in ("exhibition", "unplayed"):
            return effects
        checks = MatchChecks(match, rows, self.options.handicap_mvps)
        for sheet in match.sheets():
            effects += self.gold_spp(match, sheet, checks)
        return effects + self.injury_outcomes(match)

    def gold_spp(self, match: MatchRecorded, sheet: TeamSheet, checks: MatchChecks) -> Effects:
        """Death Zone SPP, except for players that 'may not earn SPPs' (Fanatic, Death Roller)."""
        # asked only of the few who earned some: a roster lookup per player of every match
        return [
            e
            for e in self.spp_outcomes(match, sheet)
            if isinstance(e, Spp) and not checks.earns_no_spp(e.player, sheet)
        ]

    def appearance_fee(self, player: PlayerRow) -> int:
        return fees.fee(player, self.options.appearance_fees)

    def match_points(
        self, match: MatchRecorded, team: str, scheme: PointsScheme
    ) -> tuple[int, int]:
        """CONCEDING THE MATCH names the other side 'the winner', whatever the score."""
        loser = postgame.conceded_by(match)
        if loser is None:
            return super().match_points(match, team, scheme)
        points = scheme.loss if loser == team else scheme.win
        return points, self.bonus_points(match, team, scheme)

    # --- advancement ---------------------------------------------------------------------------

    def advancement(self, player: PlayerRow, event: PlayerAdvanced) -> AdvancementResult:
        return advancement.result(player, event)

    def check_advancement(
        self, player: PlayerRow, team: TeamRow, event: PlayerAdvanced
    ) -> list[Problem]:
        problems = advancement.problems(player, rosters.position_of(player), event)
        return found(InvalidAdvancement, problems)
