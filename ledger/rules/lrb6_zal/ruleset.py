"""LRB6 with the Zürchheim Alchemists' League Season 5 rules, ruleset id ``lrb6-zal``.

Source: shared/seeds/000_e199eb2e30fe6ef5.txt (cited "ZAL n" and by table name) on the
Blood Bowl Living Rulebook 6 (Competition Rules 2010). An overlay one level deep: the class
subclasses ``LRB6`` (ledger/rules/lrb6/) and keeps what ZAL leaves alone - the team lists,
star players and skills, the Casualty Table, the characteristic limits - overriding what
ZAL changes: a Team Rating with SPP (8a) instead of team value, the Handicap Table instead
of inducements (8), its gate, FAME, Match Winnings and Fan Factor tables instead of p.28's,
no spiralling expenses and no value increases (18), Ageing (19), forfeits (9), Star
Players and freebooters (3f-3k), bounties (21) and cards (8b, 8d). ZAL's numbers are in
data/tables.yaml. Readings of ambiguous passages: docs/rulesets/lrb6-zal.md.

Worked example (a first match): Reavers (TR 102) host the Gouged Eye (TR 125), 23 points
higher, so the Reavers may name 2 MVPs (one each, plus one bonus MVP from the Handicap
Table's 21-30 row). Fan Factors 5 and 4 roll 18 and 13: gate 31,000. The Reavers win 2-1:
D6 4 + 2 (table) + 1 (win) = 70,000 gold; their fan roll of 3 +1 (won) +1 (2 TDs) = 5
keeps their Fan Factor.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

from ledger.domain.events import CardPlayed, MatchRecorded, PlayerAdvanced, PlayerHired
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import Hireling, TeamSheet
from ledger.errors import (
    ConcessionRefused,
    FanFactorRefused,
    HirelingRefused,
    InvalidAdvancement,
    LedgerError,
    MvpRefused,
    StarRefused,
    TooFewPlayers,
)
from ledger.rules.base import eligible, roster_totals
from ledger.rules.catalogue import Catalogue, JoiningStars
from ledger.rules.dice import DiceBox
from ledger.rules.effects import Effects
from ledger.rules.lrb6 import LRB6
from ledger.rules.lrb6.postgame import BOOKED, hireling_fees
from ledger.rules.lrb6.ruleset import recoveries
from ledger.rules.lrb6.tables import Common
from ledger.rules.lrb6_zal import (
    advancement,
    bounties,
    cards,
    checks,
    hiring,
    postgame,
    rating,
)
from ledger.rules.lrb6_zal.options import Options as ZalOptions
from ledger.rules.lrb6_zal.postgame import Side
from ledger.rules.lrb6_zal.tables import tables
from ledger.rules.problems import Problem, found
from ledger.rules.protocol import (
    AdvancementResult,
    Budget,
    DiceNeed,
    Feature,
    SidelineItem,
    ValueReads,
)
from ledger.rules.rows import HireRows, MatchRows, TeamRows
from ledger.rules.schema import StarPlayer


class LRB6ZAL(LRB6[ZalOptions]):
    id = "lrb6-zal"
    name = "LRB6 with ZAL Season 5 rules"
    hireling_spp_source = "ZAL Season 5, rules 3k and 8a"
    source = "Zürchheim Alchemists' League rules, Season 5, on the Living Rulebook 6 (2010)"
    """The books, as ``ledger rulesets`` names them (seed 000 in the docstrings)."""
    aliases = ("zal", "lrb6zal")
    value_labels = {"tr": "TR"}
    rating_key = "tr"
    features = frozenset({Feature.BOUNTIES, Feature.CARDS})

    @property
    def concession_kinds(self) -> tuple[str, ...]:
        return checks.FORFEITS  # ZAL 9a and 9b

    advancement_reads: ClassVar[Mapping[str, Mapping[str, int | None]]] = {
        # ZAL 19: every Star Player Roll is followed by an Ageing Roll, a failed one by
        # the roll of its effect
        "star_roll": {"star_roll": 1, "ageing": 1, "ageing_effect": 1}
    }
    advancement_dice: ClassVar[Mapping[str, str]] = {
        "star_roll": "2D6",
        "ageing": "2D6",
        "ageing_effect": "2D6",
    }
    star_roll_sets: ClassVar[tuple[tuple[str, ...], ...]] = (
        ("star_roll", "ageing"),
        ("star_roll", "ageing", "ageing_effect"),
    )
    example_option_sets: ClassVar[tuple[dict[str, Any], ...]] = (
        {},
        {"winnings_roll": "2D6", "fame_in_winnings": True},
        {"winnings_roll": "none", "tr_counts_treasury": True},
        {"tr_counts_spp": False, "hirelings_in_match_tr": "journeymen"},
        {"ageing_by": "roll_number", "value_modifiers": True, "all_casualties_count": False},
    )

    @classmethod
    def tables(cls) -> Common:
        """ZAL's numbers for LRB6's shared rules: SPP, the starting treasury, the sideline
        (re-rolls double after creation as in LRB6, ZAL 8c's 'Extra Training' cards
        aside), the Fan Factor's price (3c) and which casualties earn SPP (16b)."""
        return tables()

    # --- building a team --------------------------------------------------------------------

    @cached_property
    def catalogue(self) -> Catalogue:
        """ZAL 3f: Star Players 'may [...] be recruited either for single matches
        (Mercenaries/Freebooters) or be permanently integrated into a team'."""
        return JoiningStars(*self.catalogue_sources())

    def starting_fans(self) -> int:
        """ZAL 3c: every Fan Factor 'must be paid for'."""
        return 0

    def hire_price(self, event: PlayerHired, rows: HireRows) -> int:
        """A hireling signed after his match pays full price (ZAL 3k, 8a), a mercenary
        plus the rise for the SPP he collected in that match."""
        price = super().hire_price(event, rows)
        if event.hireling is None or event.from_match is None:
            return price
        match = rows.from_match
        played = match.hirelings.get(event.hireling, {}) if match is not None else {}
        kind = "mercenary" if played.get("kind") == "mercenary" else "journeyman"
        return hiring.signing_price(tables(), price, kind, int(played.get("spp", 0)))

    def check_hire(self, event: PlayerHired, rows: HireRows) -> list[Problem]:
        if event.kind != "star" or not event.star:
            return []
        star = self.catalogue.stars().get(event.star)
        if star is None:
            return [Problem(StarRefused, f"{self.name} has no star player '{event.star}'")]
        held = self.held_stars(rows.players)
        return found(StarRefused, hiring.star_problems(tables(), rows.team, star, held))

    def held_stars(self, players: Sequence[PlayerRow]) -> list[StarPlayer]:
        known = self.catalogue.stars()
        return [known[s] for s in hiring.roster_stars(players) if s in known]

    # --- values -------------------------------------------------------------------------------

    def team_values(self, team: TeamRow, players: Sequence[PlayerRow]) -> dict[str, int]:
        """The roster's Team Rating: every player on the roster, injured or not."""
        value, spp = roster_totals(players)
        gold = value + self.sideline_gold(team)
        return {"tr": rating.rating(tables(), gold, spp, self.options.tr_counts_spp)}

    def sideline_gold(self, team: TeamRow) -> int:
        """Re-rolls, staff and Fan Factor at their price (LRB6 team value), and the
        treasury when the league counts it."""
        treasury = team.treasury if self.options.tr_counts_treasury else 0
        return super().sideline_gold(team) + treasury

    def value_reads(self) -> ValueReads:
        reads = super().value_reads()
        treasury = {"treasury"} if self.options.tr_counts_treasury else set()
        return ValueReads(team=reads.team | treasury, players=reads.players | {"spp_earned"})

    def match_rating(self, team: TeamRow, players: Sequence[PlayerRow], sheet: TeamSheet) -> int:
        """ZAL 8a: injured players' value and SPP left out, journeymen added."""
        gold = spp = 0
        for p in eligible(players):  # one loop for both sums: asked for both sides of a match
            gold += p.value
            spp += p.spp_earned
        if sheet.hirelings:
            gold += sum(self.hireling_value(team, h) for h in sheet.hirelings if self.rated(h))
        gold += self.sideline_gold(team)
        return rating.rating(tables(), gold, spp, self.options.tr_counts_spp)

    def rated(self, hireling: Hireling) -> bool:
        return hireling.kind == "journeyman" or self.options.hirelings_in_match_tr == "all"

    def hireling_value(self, team: TeamRow, hireling: Hireling) -> int:
        try:
            if hireling.kind == "star":
                return self.catalogue.star(hireling.star or "").cost
            return self.catalogue.position(team.roster, hireling.position or "").cost
        except LedgerError:
            return 0  # check_match refuses these before they are recorded

    # --- matches ------------------------------------------------------------------------------

    def count_caused(self, match: MatchRecorded, team: str) -> int:
        """Casualties a team inflicted, for the league table and the Fan Factor roll: ZAL 16b
        counts 'all Casualties that occurred during the match' (the option may narrow it)."""
        if not self.options.all_casualties_count:
            return super().count_caused(match, team)
        ours: set[str] = set()
        theirs: set[str] = set()
        for s in match.sheets():  # one pass: asked twice for each side of every match
            (ours if s.team == team else theirs).update(sheet_ids(s))
        counted = 0
        for c in match.casualties:
            if c.victim in theirs or (c.victim not in ours and c.inflicted_by in ours):
                counted += 1
        return counted

    def sides(self, match: MatchRecorded, rows: MatchRows) -> tuple[Side, ...]:
        """Each side with its Team Rating for the match (ZAL 8a) instead of team value."""
        found = []
        for sheet in match.sheets():
            team = rows.team(sheet.team)
            if team is None:
                continue  # commands only record matches of registered teams
            players = rows.players(sheet.team)
            found.append(
                Side(
                    sheet=sheet,
                    team=team,
                    players=players,
                    rating=self.match_rating(team, players, sheet),
                    casualties=self.spp_casualties(match, sheet.team),
                )
            )
        return tuple(found)

    def check_match(self, match: MatchRecorded, rows: MatchRows) -> list[Problem]:
        t, sides = tables(), self.sides(match, rows)
        names = {side.team_id: side.team.name for side in sides}
        problems = found(ConcessionRefused, checks.forfeit_problems(t, match, names))
        for side in sides:
            other = next(s for s in sides if s is not side)
            lists = checks.Lists(self.catalogue.team_list(side.team.roster), self.catalogue.stars())
            problems += found(MvpRefused, checks.mvp_problems(t, match, side, other), side.team_id)
            hired = checks.hireling_problems(t, side, lists, self.held_stars(side.players))
            problems += found(HirelingRefused, hired)
            problems += found(FanFactorRefused, checks.fan_factor_problems(t, match, side))
        return problems

    def check_starting(self, teams: Sequence[TeamRows]) -> list[Problem]:
        few = checks.starting_players_problems(teams)
        fans = checks.starting_fans_problems(tables(), teams)
        return found(TooFewPlayers, few) + found(FanFactorRefused, fans)

    def match_dice(self, match: MatchRecorded, rows: MatchRows) -> list[DiceNeed]:
        return postgame.needs(tables(), self.options, match, self.sides(match, rows))

    def match_outcomes(self, match: MatchRecorded, rows: MatchRows, dice: DiceBox) -> Effects:
        if match.kind in ("exhibition", "unplayed"):
            return hireling_fees(match)
        t, sides = tables(), self.sides(match, rows)
        # ZAL 3k: the mercenaries and freebooters of the match are paid as in LRB6
        effects = recoveries(sides) + hireling_fees(match)
        if match.kind in BOOKED:
            row = rows.fixture
            effects += postgame.money(t, self.options, match, sides, dice)
            for side in sides:
                effects += postgame.fan_factor(
                    t, match, side, row.stage if row else "regular", dice
                )
                effects += self.spp_outcomes(match, side.sheet)
        effects += self.injury_outcomes(match)
        if match.kind not in BOOKED:
            return effects
        effects += bounties.payouts(match, lambda: by_id(sides), self.casualty_earns_spp)
        for side in sides:
            effects += postgame.walkouts(t, match, side, dice)
        return effects

    def spp_exempt(self, sheet: TeamSheet) -> set[str]:
        """Every player of the sheet earns SPP, its one-game players too: ZAL 3k's
        mercenaries and freebooters 'may nevertheless collect' SPP, and a Star Player,
        on the roster or hired for the game, earns them as any player does (the ledger's
        reading: docs/rulesets/lrb6-zal.md, R8)."""
        return set()

    # --- cards ----------------------------------------------------------------------------------

    def card_dice(self, event: CardPlayed, rows: MatchRows) -> list[DiceNeed]:
        def rating(team_id: str) -> int | None:
            return self.next_match_rating(rows, team_id)

        return cards.needs(tables(), event, rows, rating)

    def next_match_rating(self, rows: MatchRows, team_id: str) -> int | None:
        """The Team Rating a team takes into its next match as the books stand (ZAL 8a):
        its fit players; one-game players are only known with the report."""
        team = rows.team(team_id)
        if team is None:
            return None
        players = list(rows.players(team_id))
        return self.match_rating(team, players, TeamSheet(team=team_id, touchdowns=0))

    def card_outcomes(self, event: CardPlayed, rows: MatchRows, dice: DiceBox) -> Effects:
        return cards.outcomes(tables(), event, rows, dice)

    # --- before a game -----------------------------------------------------------------------

    def inducement_offer(
        self, team: TeamRow, contracted: Collection[str] = ()
    ) -> Mapping[str, SidelineItem]:
        """ZAL 8: 'The Inducement Descriptions - p.69 - are not applied'."""
        return {}

    def inducement_budget(
        self, value: int, other_value: int, other_spent: int, treasury: int
    ) -> Budget:
        return Budget(petty_cash=0, treasury=0, why="ZAL 8: the Handicap Table, no inducements")

    # --- advancement ---------------------------------------------------------------------------

    def advancement(self, player: PlayerRow, event: PlayerAdvanced) -> AdvancementResult:
        position, opts = self.position_of(player), self.options
        return advancement.result(
            tables(), player, position, event, opts.value_modifiers, opts.ageing_by
        )

    def check_advancement(
        self, player: PlayerRow, team: TeamRow, event: PlayerAdvanced
    ) -> list[Problem]:
        problems = advancement.problems(
            tables(), player, self.position_of(player), event, self.options.ageing_by
        )
        return found(InvalidAdvancement, problems)


def by_id(sides: Sequence[Side]) -> dict[str, PlayerRow]:
    """The players of the match's sides by id (whom a bounty may be on)."""
    return {p.player_id: p for s in sides for p in s.players}


def sheet_ids(sheet: TeamSheet) -> set[str]:
    return {p.player for p in sheet.players} | {h.id for h in sheet.hirelings}
