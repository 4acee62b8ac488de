"""What every edition shares; an edition subclasses this and overrides only what differs.

The shared parts are the mechanics every Blood Bowl league has had since 3rd edition:
team lists with position limits, players valued at their list cost plus increases, SPP
from achievements, league tables with tie-breakers. The numbers are always the edition's.
"""

from __future__ import annotations

import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import cached_property
from operator import attrgetter
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Literal

from pydantic import BaseModel, ConfigDict, ValidationError
from typing_extensions import TypeVar

from ledger.domain.events import (
    AdvancementKind,
    CardPlayed,
    MatchRecorded,
    PlayerAdvanced,
    PlayerHired,
    PostGameClosed,
    SeasonClosed,
    StarSigned,
    TeamRedrafted,
)
from ledger.domain.state import ON_ROSTER, MatchRow, PlayerRow, StandingRow, TeamRow
from ledger.domain.values import (
    Casualty,
    DiceRoll,
    Division,
    Effect,
    Performance,
    PointsScheme,
    TeamSheet,
    validation_problems,
)
from ledger.errors import DivisionSize, EmptyDivision, InvalidInput, InvalidOption, PlayoffPlaces
from ledger.rules.asked import Decision, Happened, Priced, Rolled, Valued
from ledger.rules.catalogue import Catalogue, CatalogueSources
from ledger.rules.caused import caused_by
from ledger.rules.dice import DiceBox
from ledger.rules.effects import AnyOutcome, Effects, Hurt, Leaves, Spp
from ledger.rules.hooks import CHECKS, DICE, OUTCOMES, PRICES, VALUES
from ledger.rules.memo import ReportMemo
from ledger.rules.problems import Problem, found
from ledger.rules.protocol import (
    LEVEL,
    AdvancementResult,
    Budget,
    DiceNeed,
    Feature,
    Ranked,
    Ruleset,
    SidelineItem,
    Start,
    Tally,
    ValueReads,
)
from ledger.rules.rows import HireRows, MatchRows, RedraftRows, SeasonRows, TeamRows
from ledger.rules.schema import (
    Skill,
    StarPlayer,
    TeamList,
    load_skills,
    load_stars,
    load_team_lists,
)


def listed(model: type[BaseModel], options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with a list option given as text read as its items, separated by
    commas, as ``ledger rulesets`` prints them (``forfeit_penalties=income,spp``)."""
    for name, value in options.items():
        field = model.model_fields.get(name)
        kind = typing.get_origin(field.annotation) if field is not None else None
        if isinstance(value, str) and kind in (tuple, list):
            options[name] = [item.strip() for item in value.split(",") if item.strip()]
    return options


class NoOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


DEFAULT_POINTS = PointsScheme()
"""The points of a league that recorded none: one frozen value, not one per match."""

OptionsT = TypeVar("OptionsT", bound=BaseModel, default=NoOptions)
"""An edition's named options (a frozen pydantic model), given as the class's type
argument: ``class BB2025(BaseRuleset[BB2025Options])``."""


class BaseRuleset(ABC, Generic[OptionsT]):
    """The shared rules. An edition must say what it pays (``spp_table``) and how its
    players advance (``advancement``, ``check_advancement``): the base has no default, so
    an edition without them cannot be instantiated (and mypy says so where it is built)."""

    id: ClassVar[str]
    name: ClassVar[str]
    source: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    data_dir: ClassVar[Path]
    Options: ClassVar[type[BaseModel]] = NoOptions
    """The options model, taken from the class's type argument (``__init_subclass__``)."""
    options: OptionsT
    value_labels: ClassVar[Mapping[str, str]] = {"tv": "TV"}
    rating_key: ClassVar[str] = "tv"
    features: ClassVar[frozenset[Feature]] = frozenset()
    characteristic_targets: ClassVar[bool] = False
    casualty_dice: ClassVar[Mapping[str, str]] = {}
    advancement_dice: ClassVar[Mapping[str, str]] = {"star_roll": "2D6"}
    star_roll_sets: ClassVar[tuple[tuple[str, ...], ...]] = (("star_roll",),)
    advancement_kinds: ClassVar[tuple[AdvancementKind, ...]] = ("star_roll",)
    spends_spp: ClassVar[bool] = False
    advancement_reads: ClassVar[Mapping[str, Mapping[str, int | None]]] = {
        "star_roll": {"star_roll": 1}
    }
    post_game_closes: ClassVar[bool] = False
    reads_former_players: ClassVar[bool] = False
    reads_league_stars: ClassVar[bool] = False
    remembers_reports: bool = False
    """Whether what a report alone decides is kept per report (``ReportMemo``): on for the
    ruleset of a Monte Carlo what-if's samples (``remembering_reports``), which fold the
    same reports again and again; off for a fold that meets each report once (a rebuild,
    the live read models, a comparison), where keeping them costs about 4%."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            for arg in typing.get_args(base):
                if isinstance(arg, type) and issubclass(arg, BaseModel):
                    cls.Options = arg

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        given = listed(self.Options, dict(options or {}))
        try:
            # The one place options are typed: Options is the class's own OptionsT.
            self.options = typing.cast(OptionsT, self.Options.model_validate(given))
        except ValidationError as error:
            unknown = [p["loc"][0] for p in error.errors() if p["type"] == "extra_forbidden"]
            raise InvalidOption(
                f"ruleset {self.id}: option {validation_problems(error)}"
                f" (options: {', '.join(self.Options.model_fields) or 'none'})",
                given=str(unknown[0]) if unknown else None,  # a name misspelt, not a value
                known=self.Options.model_fields,
            ) from None

    def describe_options(self) -> dict[str, Any]:
        return self.options.model_dump(mode="json")

    @abstractmethod
    def spp_table(self) -> Mapping[str, int]:
        """SPP per achievement: touchdown, completion, interception, casualty, mvp,
        superb_throw, throw, landing (and what else the edition pays for)."""

    hireling_spp_source: ClassVar[str] = ""
    """Read from the texts in ../shared/seeds/: a hireling earns SPP in his game like anyone,
    and keeps them only if the team signs him after it. Seed 001 step 5: "A hired Journeyman
    ... will retain any SPP gained during the game ... Any Journeymen not hired are
    permanently lost"; seed 000 rule 3k (mercenaries) "may nevertheless collect experience
    points (SPP) during the match", rule 8a (journeymen) "may retain these, should the coach
    choose to purchase the Journeyman after the match"; seed 004 'Freebooters': "The
    original 'freeboot fee' is lost but any SPPs are kept". Not signed, his SPP leave with
    him: they are no roster player's and count in no team total. Star players earn none in
    BB2020 and BB2025 (seed 001 'Recording Star Player Points')."""

    @property
    def game_value_label(self) -> str:
        """The headline figure's name (TV, TR) unless an edition's game value is another."""
        return self.value_labels[self.rating_key]

    @property
    def rating_in_gold(self) -> bool:
        """A team value is gold; a Team Rating (``tr``) is points: value / 10,000 plus
        SPP / 5."""
        return self.rating_key != "tr"

    # --- the questions of the seam, each answered by the hook its table names (hooks.py) --
    # The row is found by the type asked, in the table's ``found`` (one lookup in C): a
    # Monte Carlo sample asks two thousand prices and values.

    def problems(self, asked: Decision) -> list[Problem]:
        return CHECKS.found[type(asked)](self, asked)

    def dice_needed(self, asked: Rolled) -> list[DiceNeed]:
        return DICE.found[type(asked)](self, asked)

    def outcomes(self, asked: Happened, dice: DiceBox) -> Effects:
        return OUTCOMES.found[type(asked)](self, asked, dice)

    def price(self, asked: Priced) -> int:
        return PRICES.found[type(asked)](self, asked)

    def value(self, asked: Valued) -> int:
        return VALUES.found[type(asked)](self, asked)

    def start(self) -> Start:
        return Start(treasury=self.starting_treasury(), fans=self.starting_fans())

    def new_player(
        self, event: PlayerHired | StarSigned, team: TeamRow, league_id: str
    ) -> PlayerRow:
        if isinstance(event, StarSigned):
            return self.star_player(event.star, event.player, team, league_id, event.seq)
        return self.hired_player(event, team, league_id)

    # --- building a team -------------------------------------------------------------

    @cached_property
    def catalogue(self) -> Catalogue:
        """The edition's team lists, positions, stars and skills."""
        return Catalogue(*self.catalogue_sources())

    def catalogue_sources(self) -> CatalogueSources:
        """What a catalogue reads, for an edition that answers with its own kind of one
        (``JoiningStars``, gold4's allies and weapons)."""
        return (self.name, self.load_team_lists, self.load_stars, self.load_skills)

    def load_team_lists(self) -> Mapping[str, TeamList]:
        """The team lists of ``data_dir/teams`` (an edition may read them otherwise)."""
        return load_team_lists(self.data_dir / "teams")

    def load_stars(self) -> Mapping[str, StarPlayer]:
        path = self.data_dir / "stars.yaml"
        return {s.id: s for s in load_stars(path).stars} if path.exists() else {}

    def load_skills(self) -> Sequence[Skill]:
        path = self.data_dir / "skills.yaml"
        return load_skills(path).skills if path.exists() else ()

    def starting_treasury(self) -> int:
        return 1_000_000

    def starting_fans(self) -> int:
        return 0

    def hire_price(self, event: PlayerHired, rows: HireRows) -> int:
        """List price of what the event hires: a position of the team's (or an allied)
        list, or a star player."""
        if event.kind == "star" and event.star:
            return self.catalogue.star(event.star).cost
        return self.catalogue.position(event.from_list or rows.team.roster, event.position).cost

    def sideline_items(self, team: TeamRow) -> Mapping[str, SidelineItem]:
        """What a team may buy beside its players. Every value refresh asks it, and the
        offer depends on the team's list alone: ``sideline_offer`` builds it once a list."""
        offer = self.sideline_offers.get(team.roster)
        if offer is None:
            # read-only: one offer is shared by every team of the list, in every sample
            offer = MappingProxyType(dict(self.sideline_offer(team.roster)))
            self.sideline_offers[team.roster] = offer
        return offer

    @cached_property
    def sideline_offers(self) -> dict[str, Mapping[str, SidelineItem]]:
        """``sideline_offer`` by team list, as far as asked."""
        return {}

    def sideline_offer(self, roster: str) -> Mapping[str, SidelineItem]:
        """The sideline items a team of the list ``roster`` may buy (none here)."""
        return {}

    def sideline_price(self, team: TeamRow, item: str, count: int) -> int:
        spec = self.sideline_items(team)[item]
        factor = 2 if spec.double_after_draft and not team.drafting else 1
        return spec.price * factor * count

    def hired_player(self, event: PlayerHired, team: TeamRow, league_id: str) -> PlayerRow:
        """The player a hire puts on the roster (a star through ``star_player``)."""
        if event.kind == "star" and event.star:
            star = self.star_player(event.star, event.player, team, league_id, event.seq)
            hired = {"price_paid": event.price, "number": event.number, "name": event.name}
            return star.model_copy(update=hired)
        roster = event.from_list or team.roster
        position = self.catalogue.position(roster, event.position)
        # built unchecked: each value is a validated event's or a validated list's, and a
        # what-if sample hires tens of players (validating them was a percent of it)
        player = PlayerRow.build(
            league_id=league_id,
            player_id=event.player,
            team_id=event.team,
            name=event.name,
            number=event.number,
            roster=roster,
            position=position.id,
            kind="journeyman" if event.kind == "journeyman" else "regular",
            ma=position.ma,
            st=position.st,
            ag=position.ag,
            pa=position.pa,
            av=position.av,
            skills=position.skills,
            base_cost=position.cost,
            price_paid=event.price,
            hired_seq=event.seq,
        )
        return player.model_copy(update={"value": self.player_value(player)})

    def check_fire(
        self, team: TeamRow, players: Sequence[PlayerRow], player: PlayerRow
    ) -> list[Problem]:
        return []

    def check_release(self, team: TeamRow, item: str, count: int = 1) -> list[Problem]:
        return []

    def check_buy(
        self, team: TeamRow, players: Sequence[PlayerRow], item: str, count: int
    ) -> list[Problem]:
        """Edition rules on a purchase beyond its price and limit."""
        return []

    def check_hire(self, event: PlayerHired, rows: HireRows) -> list[Problem]:
        """Edition rules on who may be hired beyond roster size and position limits."""
        return []

    def star_draft_order(self, drawn: Sequence[str], last_table: Sequence[str]) -> list[str]:
        return [*drawn, *(t for t in last_table if t not in drawn)]

    def may_sign_star(self, star_id: str, team: TeamRow, signed: set[str]) -> bool:
        return False

    def report_stars(self, fixture: MatchRow, team: TeamRow) -> tuple[str, ...] | None:
        return None

    @property
    def referees(self) -> tuple[str, ...]:
        return ()

    @property
    def reads_stalling(self) -> bool:
        return False

    @property
    def concession_kinds(self) -> tuple[str, ...]:
        return ("conceded",)

    def star_player(
        self, star: str, player_id: str, team: TeamRow, league_id: str, seq: int
    ) -> PlayerRow:
        """A star on a team's roster: valued at his cost, earning no SPP."""
        found = self.catalogue.star(star)
        player = PlayerRow.build(  # unchecked, like ``hired_player``'s
            league_id=league_id,
            player_id=player_id,
            team_id=team.team_id,
            name=found.name,
            roster=team.roster,
            position=found.id,
            kind="star",
            ma=found.ma,
            st=found.st,
            ag=found.ag,
            pa=found.pa,
            av=found.av,
            skills=found.skills,
            base_cost=found.cost,
            hired_seq=seq,
        )
        return player.model_copy(update={"value": self.player_value(player)})

    # --- values --------------------------------------------------------------------------

    def player_value(self, player: PlayerRow) -> int:
        return player.base_cost + player.extra_value

    def changed_characteristic(self, player: PlayerRow, stat: str, better: bool) -> int | None:
        """The characteristic after one step of improvement or injury (never below 1)."""
        value = getattr(player, stat)
        return None if value is None else int(max(1, value + (1 if better else -1)))

    def team_values(self, team: TeamRow, players: Sequence[PlayerRow]) -> dict[str, int]:
        return {"tv": roster_value(players) + self.sideline_value(team)}

    def value_reads(self) -> ValueReads:
        return ValueReads(team=SIDELINE_READS, players=ROSTER_READS)

    def sideline_value(self, team: TeamRow) -> int:
        reroll = self.catalogue.team_list(team.roster).reroll_cost * (
            team.rerolls + int(team.trophy)
        )
        return reroll + staff_value(self.sideline_items(team), team.staff)

    # --- matches -------------------------------------------------------------------------

    def casualty_earns_spp(self, casualty: Casualty) -> bool:
        """Whether a casualty earns its causer SPP. Like ``spp_exempt``, ``spp_for`` and
        ``count_caused``, it reads the report and the edition's tables and options only:
        their answers are kept per report (``ReportMemo``)."""
        return casualty.cause == "block" and casualty.inflicted_by is not None

    def casualty_effects(self, casualty: Casualty) -> Casualty:
        """The casualty as this edition reads it (the league's own edition: as recorded).
        Reads the casualty alone: ``injury_outcomes`` are kept per report (``ReportMemo``)."""
        return casualty

    def check_casualty(self, casualty: Casualty) -> list[Problem]:
        return []

    def casualty_from_report(
        self, outcome: str | None, effects: tuple[str, ...], dice: Sequence[DiceRoll]
    ) -> tuple[str, tuple[Effect, ...]]:
        """The outcome and effects of a reported casualty; this edition takes them as given."""
        if not outcome:
            raise InvalidInput("give the casualty's outcome (and its effects)")
        return outcome, checked_effects(effects)

    def check_match(self, match: MatchRecorded, rows: MatchRows) -> list[Problem]:
        return []

    def match_dice(self, match: MatchRecorded, rows: MatchRows) -> list[DiceNeed]:
        return []

    def match_outcomes(self, match: MatchRecorded, rows: MatchRows, dice: DiceBox) -> Effects:
        effects: Effects = []
        for sheet in match.sheets():
            effects += self.spp_outcomes(match, sheet)
        return effects + self.injury_outcomes(match)

    def spp_outcomes(self, match: MatchRecorded, sheet: TeamSheet) -> Effects:
        """The SPP each player of ``sheet`` earned: the report's facts alone decide it, so
        a Monte Carlo what-if works it out once for all its samples (``ReportMemo``)."""
        if not self.remembers_reports:
            return list(self.sheet_spp(match, sheet))
        earned = self.spp_memo.get(
            sheet, (match.casualties,), lambda: tuple(self.sheet_spp(match, sheet))
        )
        return list(earned)

    @cached_property
    def spp_memo(self) -> ReportMemo[tuple[Spp, ...]]:
        return ReportMemo()

    def sheet_spp(self, match: MatchRecorded, sheet: TeamSheet) -> list[Spp]:
        exempt = self.spp_exempt(sheet)
        caused = caused_by(match.casualties, self.casualty_earns_spp)  # once a side
        effects: list[Spp] = []
        for performance in sheet.players:
            if performance.player in exempt:
                continue
            amount = self.spp_for(performance, caused.get(performance.player, 0))
            if amount:
                effects.append(Spp(player=performance.player, amount=amount))
        return effects

    def spp_exempt(self, sheet: TeamSheet) -> set[str]:
        """The players of a sheet who earn no SPP whatever they do: the stars it hired
        (seed 001 'Recording Star Player Points'). Reads the sheet alone (``ReportMemo``)."""
        return {h.id for h in sheet.hirelings if h.kind == "star"}

    def spp_for(self, performance: Performance, caused: int) -> int:
        """What ``performance`` earns, with ``caused`` casualties that earn SPP. Reads
        nothing else but the edition's tables (``ReportMemo``)."""
        return spp_earned(self.spp_table, performance, caused)

    def injury_outcomes(self, match: MatchRecorded) -> Effects:
        """Who the report's casualties leave dead or hurt: the report alone decides it
        (``casualty_effects`` reads the casualty alone), so a Monte Carlo what-if works it
        out once for all its samples (``ReportMemo``), like ``spp_outcomes``."""
        if not self.remembers_reports:
            return self.casualty_outcomes(match)
        read = self.injury_memo.get(
            match, (match.casualties,), lambda: tuple(self.casualty_outcomes(match))
        )
        return list(read)

    @cached_property
    def injury_memo(self) -> ReportMemo[tuple[AnyOutcome, ...]]:
        return ReportMemo()

    def casualty_outcomes(self, match: MatchRecorded) -> Effects:
        """``injury_outcomes`` worked out (for a report made for this question alone, such
        as a copy with some casualties read anew, without keeping it)."""
        effects: Effects = []
        for casualty in match.casualties:
            read = self.casualty_effects(casualty)
            if read.recovered:
                continue
            if "dead" in read.effects:
                effects.append(Leaves(player=read.victim, status="dead", note=read.outcome))
            elif read.effects:
                effects.append(Hurt(player=read.victim, effects=read.effects, note=read.outcome))
        return effects

    def close_dice(self, team: TeamRow, rolls: tuple[DiceRoll, ...]) -> list[DiceNeed]:
        return []

    def card_dice(self, event: CardPlayed, rows: MatchRows) -> list[DiceNeed]:
        return []

    def appearance_fee(self, player: PlayerRow) -> int:
        return 0

    def card_outcomes(self, event: CardPlayed, rows: MatchRows, dice: DiceBox) -> Effects:
        return []

    def redraft_dice(self, team: TeamRow, players: Sequence[PlayerRow]) -> list[DiceNeed]:
        return []

    def redraft_budget(self, rows: RedraftRows, season: int) -> tuple[int, str]:
        return rows.team.treasury, "the treasury (no re-draft rules in this edition)"

    def rehire_price(self, player: PlayerRow, season: int) -> int:
        return player.value

    def redraft_outcomes(self, event: TeamRedrafted, rows: RedraftRows, dice: DiceBox) -> Effects:
        return []

    def close_outcomes(self, event: PostGameClosed, team: TeamRow, dice: DiceBox) -> Effects:
        return []

    def check_close(self, team: TeamRow, players: Sequence[PlayerRow]) -> list[Problem]:
        return []

    # --- advancement ---------------------------------------------------------------------

    @abstractmethod
    def advancement(self, player: PlayerRow, event: PlayerAdvanced) -> AdvancementResult:
        """What an advancement costs and gives under this edition."""

    @abstractmethod
    def check_advancement(
        self, player: PlayerRow, team: TeamRow, event: PlayerAdvanced
    ) -> list[Problem]:
        """Why this edition refuses the advancement (none: it may be taken)."""

    # --- before a game ----------------------------------------------------------------

    def game_value(self, team: TeamRow, players: Sequence[PlayerRow]) -> int:
        return team.rating

    def inducement_offer(
        self, team: TeamRow, contracted: Collection[str] = ()
    ) -> Mapping[str, SidelineItem]:
        return {}

    def check_inducements(self, team: TeamRow, wanted: Mapping[str, int]) -> list[Problem]:
        """Rules across the items asked for (each item's limit is the offer's)."""
        return []

    def inducement_budget(
        self, value: int, other_value: int, other_spent: int, treasury: int
    ) -> Budget:
        return Budget(petty_cash=0, treasury=0, why=f"{self.name} has no inducements")

    # --- seasons -----------------------------------------------------------------------

    def check_season(self, divisions: Sequence[Division], playoff_teams: int) -> list[Problem]:
        teams = sum(len(d.teams) for d in divisions)
        if playoff_teams > teams:
            return [
                Problem(PlayoffPlaces, f"{playoff_teams} play-off places but only {teams} teams")
            ]
        empty = [f"division {d.name or '(unnamed)'} has no teams" for d in divisions if not d.teams]
        alone = [
            f"division {d.name or '(unnamed)'} has one team, who would play no one: a division"
            " plays a round robin"
            for d in divisions
            if len(d.teams) == 1
        ]
        return found(EmptyDivision, empty) + found(DivisionSize, alone)

    def check_starting(self, teams: Sequence[TeamRows]) -> list[Problem]:
        """What this edition asks of a team starting a season (none: whatever the coach
        drafted, Journeymen filling the line-up where the edition has them)."""
        return []

    def season_outcomes(self, event: SeasonClosed, rows: SeasonRows) -> Effects:
        return []

    # --- the league table ----------------------------------------------------------------

    def points_scheme(self, recorded: Mapping[str, Any] | None) -> PointsScheme:
        return PointsScheme.model_validate(recorded) if recorded else DEFAULT_POINTS

    def tally(self, match: MatchRecorded, team: str, scheme: PointsScheme) -> Tally:
        """The team's result, league points, bonus points and counted casualties: what an
        edition rules through ``match_result``, ``match_points`` and ``spp_casualties``.
        The report and the scheme alone decide it (``ReportMemo``)."""
        if not self.remembers_reports:
            return self.count_tally(match, team, scheme)
        return self.tally_memo.get(
            match, (team, scheme), lambda: self.count_tally(match, team, scheme)
        )

    @cached_property
    def tally_memo(self) -> ReportMemo[Tally]:
        return ReportMemo()

    def count_tally(self, match: MatchRecorded, team: str, scheme: PointsScheme) -> Tally:
        """``tally`` worked out."""
        points, bonus = self.match_points(match, team, scheme)
        return Tally(
            result=self.match_result(match, team),
            points=points,
            bonus=bonus,
            casualties=self.spp_casualties(match, team),
        )

    def match_result(self, match: MatchRecorded, team: str) -> str:
        """Win, draw or loss for the league table: a conceding team loses whatever the
        score; an unplayed fixture is lost by both unless one conceded it."""
        if match.concession is not None:
            return "loss" if match.concession.team == team else "win"
        if match.kind == "unplayed":
            return "loss"
        return outcome_for(match, team)

    def match_points(
        self, match: MatchRecorded, team: str, scheme: PointsScheme
    ) -> tuple[int, int]:
        result = self.match_result(match, team)
        points = {"win": scheme.win, "draw": scheme.draw, "loss": scheme.loss}[result]
        if match.kind == "unplayed" and match.concession is None:
            return points, 0
        return points, self.bonus_points(match, team, scheme)

    def bonus_points(self, match: MatchRecorded, team: str, scheme: PointsScheme) -> int:
        if not scheme.bonus:
            return 0  # most leagues: nothing to count
        ours, theirs = scores(match, team)
        earned = {
            "three_touchdowns": ours >= 3,
            "clean_sheet": theirs == 0,
            "three_casualties": self.spp_casualties(match, team) >= 3,
        }
        return sum(1 for rule in scheme.bonus if earned[rule])

    def spp_casualties(self, match: MatchRecorded, team: str) -> int:
        """The casualties ``team``'s players caused that earn SPP: the report alone decides
        it, and the standings and the editions' ratings ask it (``ReportMemo``)."""
        if not self.remembers_reports:
            return self.count_caused(match, team)
        return self.caused_memo.get(match, (team,), lambda: self.count_caused(match, team))

    @cached_property
    def caused_memo(self) -> ReportMemo[int]:
        return ReportMemo()

    def count_caused(self, match: MatchRecorded, team: str) -> int:
        """``spp_casualties`` worked out; reads the report alone (``ReportMemo``)."""
        ours = {p.player for s in match.sheets() if s.team == team for p in s.players}
        caused = caused_by(match.casualties, self.casualty_earns_spp)
        return sum(caused.get(player, 0) for player in ours)

    def rank(
        self,
        rows: Sequence[StandingRow],
        results: Sequence[tuple[str, str, int, int]],
        scheme: PointsScheme,
    ) -> list[Ranked]:
        return rank_table(rows, results, scheme)


SIDELINE_READS = frozenset({"roster", "rerolls", "trophy", "staff"})
"""What ``sideline_value`` reads of a team: its list (the re-roll's price, the staff on
offer), its re-rolls, the trophy's re-roll and its staff."""
ROSTER_READS = frozenset({"status", "value"})
"""What a team value reads of each player: whether he is on the roster, and his value."""


def roster_value(players: Iterable[PlayerRow]) -> int:
    """The value of the players on the roster (``roster_totals``' first, without reading
    their SPP: a change of SPP then leaves a team value alone)."""
    return sum([p.value for p in players if p.status in ON_ROSTER])


def roster_totals(players: Iterable[PlayerRow]) -> tuple[int, int]:
    """The value and the SPP of the players on the roster. One loop: the fold asks for a
    team's values after every change they read, in a rebuild and in every what-if sample."""
    value = spp = 0
    for p in players:
        if p.status in ON_ROSTER:
            value += p.value
            spp += p.spp_earned
    return value, spp


def staff_value(
    items: Mapping[str, SidelineItem], staff: Mapping[str, int], counts_as: str | None = None
) -> int:
    """The price of the staff a team holds among ``items`` that count in its value (and,
    given ``counts_as``, are of that kind). A plain loop, each item looked up once: the
    fold asks a team's values after every change they read."""
    total = 0
    for item, count in staff.items():
        spec = items.get(item)
        if (
            spec is not None
            and spec.in_value
            and (counts_as is None or spec.counts_as == counts_as)
        ):
            total += spec.price * count
    return total


def eligible(players: Iterable[PlayerRow]) -> list[PlayerRow]:
    """Players who may play the next match: on the roster and not missing it injured."""
    return [p for p in players if p.status == "active" and not p.miss_next_game]


def unaffordable_hirelings(sheet: TeamSheet, treasury: int) -> int | None:
    """What a report's one-game players cost, when the treasury cannot pay it: they are
    paid from it before the match (LRB6 pp.70-71, ZAL 3k, OBERWALD 'Freebooters' as gold4
    reads them). None when it can. Each edition words the refusal its own way."""
    spent = sum(h.price for h in sheet.hirelings)
    return spent if spent > max(0, treasury) else None


UNPRINTED_MAX = 99
"""What a team may hold of an item whose edition prints no limit (gold4's Fan Factor)."""


def rerolls_and_fan_factor(
    *,
    reroll_price: int,
    reroll_max: int,
    reroll_doubles: bool,
    fan_price: int,
    fan_max: int | None,
    fan_draft_only: bool = True,
) -> dict[str, SidelineItem]:
    """Team re-rolls and Fan Factor, as every edition before BB2020 sells them (``fan_max``
    None: no limit printed)."""
    return {
        "reroll": SidelineItem(
            id="reroll",
            name="Team Re-roll",
            price=reroll_price,
            max=reroll_max,
            double_after_draft=reroll_doubles,
            counts_as="reroll",
        ),
        "fan_factor": SidelineItem(
            id="fan_factor",
            name="Fan Factor",
            price=fan_price,
            max=UNPRINTED_MAX if fan_max is None else fan_max,
            max_printed=fan_max is not None,
            draft_only=fan_draft_only,
            counts_as="fans",
        ),
    }


def checked_effects(effects: Sequence[str]) -> tuple[Effect, ...]:
    """Effects of the edition's words, each once (five -st were read as one, silently)."""
    allowed = typing.get_args(Effect)
    wrong = [e for e in effects if e not in allowed]
    if wrong:
        noun = "effect" if len(wrong) == 1 else "effects"
        raise InvalidInput(f"unknown casualty {noun} {wrong} (effects: {', '.join(allowed)})")
    twice = sorted({e for e in effects if effects.count(e) > 1})
    if twice:
        raise InvalidInput(
            f"the casualty effect {twice[0]} is given twice: a casualty gives it once"
        )
    return tuple(typing.cast(Effect, e) for e in effects)


ACHIEVEMENTS = (
    ("touchdown", "touchdowns"),
    ("completion", "completions"),
    ("interception", "interceptions"),
    ("superb_throw", "superb_throws"),
    ("throw", "throws"),
    ("landing", "landings"),
    ("mvp", "mvps"),
)
"""What a performance counts that an SPP table may pay for: the table's name, the field."""
ACHIEVEMENT_NAMES = tuple(name for name, _ in ACHIEVEMENTS)
achievement_counts = attrgetter(*(field for _, field in ACHIEVEMENTS))
"""A performance's counts in ``ACHIEVEMENTS`` order, read in one call."""


def spp_earned(
    table: Callable[[], Mapping[str, int]], performance: Performance, caused: int
) -> int:
    """The SPP a performance earns, with the casualties it caused that earn SPP, by the
    ``table`` the edition gives (the SPP each achievement pays). Most players of a match
    do nothing that counts: they are answered 0 at once, the table not asked for. A
    number only: a rebuild asks it of every player of every game, and nothing reads an
    account of it in words."""
    counts = achievement_counts(performance)
    if not caused and not any(counts):
        return 0
    paid = table()
    total = caused * paid.get("casualty", 0)
    for name, count in zip(ACHIEVEMENT_NAMES, counts, strict=True):
        if count:
            total += count * paid.get(name, 0)
    return total


def scores(match: MatchRecorded, team: str) -> tuple[int, int]:
    home, away = match.home, match.away
    if not match.others and home.team != away.team:  # a two-team match: no search needed
        if team == home.team:
            return home.touchdowns, away.touchdowns
        if team == away.team:
            return away.touchdowns, home.touchdowns
    sheets = match.sheets()
    ours = next(s.touchdowns for s in sheets if s.team == team)
    theirs = max((s.touchdowns for s in sheets if s.team != team), default=0)
    return ours, theirs


def outcome_for(match: MatchRecorded, team: str) -> Literal["win", "draw", "loss"]:
    """Win, draw or loss as the game's score says; a game of more than two teams (a Dungeon
    Bowl final) is won by its ``winner`` and lost by every other team (seed 003, 'Winning
    the Game': the game-winning touchdown decides, not the most touchdowns)."""
    if match.others:
        return "win" if team == match.winner else "loss"
    return by_score(*scores(match, team))


def by_score(ours: int, theirs: int) -> Literal["win", "draw", "loss"]:
    """Win, draw or loss as the two scores (touchdowns, or a shoot-out's penalties) say."""
    return "win" if ours > theirs else "draw" if ours == theirs else "loss"


def opponent(match: MatchRecorded, sheet: TeamSheet) -> TeamSheet:
    return match.away if sheet.team == match.home.team else match.home


# --- ranking ------------------------------------------------------------------------------

TIEBREAKERS = {
    "bonus_points": lambda r: r.bonus,
    "touchdown_difference": lambda r: r.td_for - r.td_against,
    "touchdowns_for": lambda r: r.td_for,
    "casualties_for": lambda r: r.cas_for,
    "casualty_difference": lambda r: r.cas_for - r.cas_against,
    "wins": lambda r: r.won,
}


def rank_table(
    rows: Sequence[StandingRow],
    results: Sequence[tuple[str, str, int, int]],
    scheme: PointsScheme,
) -> list[Ranked]:
    """Order a table by points, then by the scheme's tie-breakers in order.

    ``results`` are (home, away, home score, away score) of the games counted, which the
    head-to-head tie-breaker reads. Teams still level after every tie-breaker are listed
    in team-id order and share their place (the rules leave the final decision to the
    commissioner; the order still decides play-off seeds until the commissioner does).
    """
    breakers = ["bonus_points"] if scheme.bonus_mode == "tiebreak" and scheme.bonus else []
    breakers += list(scheme.tiebreakers)
    points = {row.team_id: row.points for row in rows}
    # Head-to-head counts only the games between teams level on points with each other.
    between: dict[str, list[tuple[str, str, int, int]]] = {}
    for result in results:
        home, away = result[0], result[1]
        if home in points and points[home] == points.get(away):
            between.setdefault(home, []).append(result)
            between.setdefault(away, []).append(result)

    def key(row: StandingRow) -> tuple[int, ...]:
        values = [row.points]
        for name in breakers:
            if name == "head_to_head":
                values.append(head_to_head(row.team_id, between.get(row.team_id, []), scheme))
            else:
                values.append(TIEBREAKERS[name](row))
        return tuple(values)

    keys = {row.team_id: key(row) for row in rows}
    keyed = sorted(rows, key=lambda r: (tuple(-v for v in keys[r.team_id]), r.team_id))
    ranked: list[Ranked] = []
    for index, row in enumerate(keyed):
        below = keyed[index + 1] if index + 1 < len(keyed) else None
        separated = None
        if below is not None and below.points == row.points:
            separated = separating(keys[row.team_id], keys[below.team_id], breakers)
        level = bool(ranked) and ranked[-1].separated_by == LEVEL
        place = ranked[-1].rank if level else index + 1  # level teams share it: 1, 1, 3
        ranked.append(Ranked(team_id=row.team_id, rank=place, row=row, separated_by=separated))
    return ranked


def separating(ours: tuple[int, ...], theirs: tuple[int, ...], names: list[str]) -> str:
    for name, a, b in zip(names, ours[1:], theirs[1:], strict=False):
        if a != b:
            return name
    return LEVEL


def head_to_head(
    team: str, games: Sequence[tuple[str, str, int, int]], scheme: PointsScheme
) -> int:
    """League points ``team`` took in ``games``: its games against teams level with it."""
    points = 0
    for home, _away, home_score, away_score in games:
        ours, theirs = (home_score, away_score) if team == home else (away_score, home_score)
        points += scheme.win if ours > theirs else scheme.draw if ours == theirs else 0
    return points


def remembering_reports(ruleset: Ruleset) -> Ruleset:
    """``ruleset`` keeping what a report alone decides (``BaseRuleset.remembers_reports``),
    for folds that meet the same reports again and again."""
    if isinstance(ruleset, BaseRuleset):
        ruleset.remembers_reports = True
    return ruleset
