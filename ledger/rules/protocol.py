"""The seam between the fold and an edition's rules (DESIGN.md decision 2).

The fold (ledger/projections) and the commands (ledger/application) only ever ask a
ruleset these questions. Each edition answers them from its own tables; what-if replays
ask a different ruleset the same questions about the same events. A ruleset is given the
rows it reads (``rows.py``, gathered by ``ledger/projections/gather.py``), never a store;
what an edition offers (lists, positions, stars, skills) is asked of its ``catalogue``.

The seam is narrow on purpose (issue 13: at most 25 methods, ``tests/rules/test_seam.py``
counts them): a question with many kinds of answer takes a value saying what is asked
(``asked.py``: ``problems(Firing(...))``, ``outcomes(Report(...), dice)``), and
``BaseRuleset`` hands it to the hook an edition overrides (``hooks.py``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from ledger.domain.events import (
    AdvancementKind,
    MatchRecorded,
    PlayerAdvanced,
    PlayerHired,
    StarSigned,
)
from ledger.domain.state import MatchRow, PlayerRow, StandingRow, TeamRow
from ledger.domain.values import Casualty, DiceRoll, Effect, PointsScheme
from ledger.rules.asked import Decision, Happened, Priced, Rolled, Valued
from ledger.rules.catalogue import Catalogue
from ledger.rules.dice import DiceBox
from ledger.rules.effects import Effects
from ledger.rules.rows import RedraftRows

if TYPE_CHECKING:
    from ledger.rules.problems import Problem


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SidelineItem(Frozen):
    id: str
    name: str
    price: int
    max: int
    max_printed: bool = True
    """False where the edition prints no limit: ``max`` is then the ledger's stand-in
    (``base.UNPRINTED_MAX``), which the forms do not show as a limit."""
    in_value: bool = True
    """Counts towards team value / rating."""
    draft_only: bool = False
    """May only be bought while the team is drafting (BB2025 Dedicated Fans)."""
    double_after_draft: bool = False
    """Costs double once the team has played (BB2025 team re-rolls)."""
    counts_as: Literal["reroll", "fans", "staff"] = "staff"
    """What buying it adds to: the team's re-rolls, its fans, or its staff by id."""
    star: bool = False
    """A Star Player induced for one game (BB2025), which the forms mark as such."""


class DiceNeed(Frozen):
    purpose: str
    dice: str
    subject: str | None = None
    why: str = ""


class Budget(Frozen):
    """What a team may spend on inducements for one game."""

    petty_cash: int
    treasury: int
    """The most it may take from its treasury."""
    why: str


class AdvancementResult(Frozen):
    spp_cost: int
    value_increase: int
    skill: str | None = None
    characteristic: str | None = None
    injuries: tuple[Effect, ...] = ()
    """What the advancement cost the player's body (ZAL ageing: niggling, -1 AV...)."""
    skills_lost: tuple[str, ...] = ()
    """Skills or traits removed (a 4th edition Big Guy's unwanted trait)."""


LEVEL = "team order"
"""``Ranked.separated_by`` of a team that no tie-breaker put above the next one: the
table lists them in team-id order, which is no sporting reason (they share a place)."""


@dataclass(frozen=True, slots=True)
class Start:
    """What a new team starts with: its treasury, and its fans (Dedicated Fans in BB2025,
    none where every Fan Factor is bought)."""

    treasury: int
    fans: int


@dataclass(frozen=True, slots=True)
class Tally:
    """One team's line from one match, as the league table counts it (a plain record: the
    fold makes two per match)."""

    result: str
    """win, draw or loss."""
    points: int
    bonus: int
    casualties: int
    """Casualties it inflicted that the edition counts (the table's columns, bonus points)."""


@dataclass(frozen=True, slots=True)
class ValueReads:
    """The fields of a team and of its players that an edition's ``team_values`` reads
    (``Ruleset.value_reads``): a change to no other field leaves a team's values as they
    were, so the fold does not ask for them again (a player's SPP in BB2025, a team's
    treasury where the rating leaves it out)."""

    team: frozenset[str]
    players: frozenset[str]


class Ranked(Frozen):
    team_id: str
    rank: int
    row: StandingRow
    separated_by: str | None = None
    """The tie-breaker that put this team above the next team on equal points (``LEVEL``
    when none did)."""


class Feature(StrEnum):
    """An optional league mechanic: the commands for it exist only in editions that have it,
    and a what-if replay leaves its events out under an edition that does not."""

    INDUCEMENTS = "inducements"
    BOUNTIES = "bounties"
    CARDS = "cards"
    """Special play cards bought and played (ZAL)."""
    APPEARANCE_FEES = "appearance_fees"
    REDRAFT = "redraft"
    """The off-season re-draft (BB2025)."""
    STAR_CONTRACTS = "star_contracts"
    """Long-term star player contracts (Spike! 2021), when the league's options allow them."""
    TEMPORARY_RETIREMENT = "temporary_retirement"


class Ruleset(Protocol):
    id: ClassVar[str]
    name: ClassVar[str]
    source: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]]
    value_labels: ClassVar[Mapping[str, str]]
    """Team figures this edition shows, e.g. ``{"tv": "TV", "ctv": "CTV"}``."""
    rating_key: ClassVar[str]
    hireling_spp_source: ClassVar[str]
    """Where the edition says what a one-game player's SPP are (a page's note cites it)."""

    @property
    def game_value_label(self) -> str:
        """What ``value(Lineup(...))`` is called in the edition's books (CTV in BB2025, TV
        in LRB6)."""
        ...

    @property
    def rating_in_gold(self) -> bool:
        """Whether the headline figure is gold (a team value) or points (a Team Rating)."""
        ...

    data_dir: ClassVar[Path]
    """Where the edition's data files live (team lists, skills, stars, tables)."""

    @property
    def options(self) -> BaseModel:
        """The league's named options, typed by each edition (``BaseRuleset[OptionsT]``)."""
        ...

    features: ClassVar[frozenset[Feature]]
    """Optional league mechanics this edition has."""
    characteristic_targets: ClassVar[bool]
    """Whether the edition writes AG, PA and AV as targets (3+) rather than plain numbers:
    rosters, reports and the service's pages show them so."""
    casualty_dice: ClassVar[Mapping[str, str]]
    """Dice a report may give for a casualty, by purpose (BB2025: D16 then D6)."""
    advancement_dice: ClassVar[Mapping[str, str]]
    """Dice an advancement is rolled with, by purpose (the characteristic roll: a D8 in
    BB2025, a D16 in BB2020; a Star Player Roll's 2D6, and ZAL's Ageing Roll and its
    effect). A random skill's Skill Table rolls, 2D6 each, are not listed: how many it
    takes depends on the skills the player has (``application.skill_rolls``)."""
    star_roll_sets: ClassVar[tuple[tuple[str, ...], ...]]
    """The rolls a Star Player Roll is made with, by purpose, as sets tried in order: the
    first the edition's check takes stands (ZAL 19: the Ageing Roll's effect is rolled
    only when the Ageing Roll fails). Empty where SPP are spent instead. The ledger rolls
    them when asked (``advance_rolls.missing_rolls``); a what-if draws those a replayed
    advancement lacks (``whatif.advance``)."""
    advancement_reads: ClassVar[Mapping[str, Mapping[str, int | None]]]
    """The rolls each kind of advancement reads, by purpose, with how many it reads at most
    (``None``: as many as come, a random skill's rolls past those giving a skill the player
    has). A command refuses any other roll rather than store it unread
    (``problems.unread_rolls``)."""
    advancement_kinds: ClassVar[tuple[AdvancementKind, ...]]
    """The advancements a player may take, in the books' order: the Advancement Table's
    columns where SPP are spent (BB2025, BB2020), a Star Player Roll where SPP levels
    give rolls (LRB6, ZAL, 4th and 3rd editions)."""
    spends_spp: ClassVar[bool]
    """Whether an advancement spends SPP (BB2025, BB2020's Advancement Table), so that a
    player has SPP to spend beside those he earned; else his SPP levels give him rolls and
    no SPP are spent (the pages then speak of his SPP earned only)."""
    post_game_closes: ClassVar[bool]
    """Whether a team must close each game's post-game sequence before its next game."""
    reads_former_players: ClassVar[bool]
    """Whether the edition's match rules read a team's former players too (the gatherer
    then reads them back; else it gives the current roster, which the fold keeps)."""
    reads_league_stars: ClassVar[bool]
    """Whether the edition's hiring and match checks look at every star of the league
    (OBERWALD: 'first to hire Morg will get him'): the gatherer then reads them."""

    @property
    def catalogue(self) -> Catalogue:
        """Its team lists, positions, star players and skills (``catalogue.py``)."""
        ...

    # --- the questions with many kinds of answer (``asked.py``) ---------------------------

    def problems(self, asked: Decision) -> list[Problem]:
        """The rules ``asked`` breaks (none: it may be done), each a ``Problem`` with its
        rule's code, in the order the edition's book gives the rules. A command raises the
        first (``refuse``), a what-if replay turns each into a divergence."""
        ...

    def dice_needed(self, asked: Rolled) -> list[DiceNeed]:
        """The dice a report's post-game sequence, a card, a team's close (given the rolls
        known so far) or a re-draft still needs."""
        ...

    def outcomes(self, asked: Happened, dice: DiceBox) -> Effects:
        """What a recorded fact does to the books under this edition: a match's SPP and
        injuries, a card's, a close's, a re-draft's, a season's end. ``dice`` gives the
        recorded rolls (or seeded ones, counted as simulated)."""
        ...

    def price(self, asked: Priced) -> int:
        """What a hire, some sideline items, a re-hired player or an appearance costs."""
        ...

    def value(self, asked: Valued) -> int:
        """A player's value on the roster, or a team's game value going into a game."""
        ...

    # --- building a team -------------------------------------------------------------

    def start(self) -> Start: ...
    def sideline_items(self, team: TeamRow) -> Mapping[str, SidelineItem]: ...
    def sideline_offer(self, roster: str) -> Mapping[str, SidelineItem]:
        """What a team of the list ``roster`` may buy beside its players."""
        ...

    def new_player(
        self, event: PlayerHired | StarSigned, team: TeamRow, league_id: str
    ) -> PlayerRow:
        """The player a hire or a star's signing puts on the roster, valued."""
        ...

    def star_draft_order(self, drawn: Sequence[str], last_table: Sequence[str]) -> list[str]: ...
    def may_sign_star(self, star_id: str, team: TeamRow, signed: set[str]) -> bool: ...

    # --- values --------------------------------------------------------------------------
    def changed_characteristic(self, player: PlayerRow, stat: str, better: bool) -> int | None: ...
    def team_values(self, team: TeamRow, players: Sequence[PlayerRow]) -> dict[str, int]: ...
    def value_reads(self) -> ValueReads:
        """What ``team_values`` reads of the team and its players, with these options (a
        contract test gives it a team whose other fields fail when read)."""
        ...

    # --- matches -------------------------------------------------------------------------
    def spp_table(self) -> Mapping[str, int]:
        """SPP per achievement (``touchdown``, ``completion``, ``superb_throw``, ``landing``,
        ``deflection``...): what a report's player line must be able to say (the report
        form asks the figures the table pays for)."""
        ...

    @property
    def referees(self) -> tuple[str, ...]:
        """The referees a report may name (BB2025's 'Red Cards & Rulekeepers' option);
        none where the edition's reports name none (the report form then asks for none,
        nor who was sent off)."""
        ...

    @property
    def concession_kinds(self) -> tuple[str, ...]:
        """The kinds of concession (``Concession.kind``) the edition knows, in the league's
        options: the report form offers these only (none: no concession section)."""
        ...

    @property
    def reads_stalling(self) -> bool:
        """Whether a team deemed Stalling changes anything in the edition (BB2025: no bonus
        for not stalling in its winnings); the report form asks it only then."""
        ...

    def report_stars(self, fixture: MatchRow, team: TeamRow) -> tuple[str, ...] | None:
        """The star players a report of ``fixture`` may name among the team's hirelings,
        each on his own, by id (what the report form offers); None where the edition does
        not narrow them so (the command checks each one named)."""
        ...

    def casualty_earns_spp(self, casualty: Casualty) -> bool: ...
    def casualty_from_report(
        self, outcome: str | None, effects: tuple[str, ...], dice: Sequence[DiceRoll]
    ) -> tuple[str, tuple[Effect, ...]]: ...

    # --- advancement ---------------------------------------------------------------------
    def advancement(self, player: PlayerRow, event: PlayerAdvanced) -> AdvancementResult: ...

    # --- before a game, re-drafts ----------------------------------------------------------
    def inducement_offer(
        self, team: TeamRow, contracted: Collection[str] = ()
    ) -> Mapping[str, SidelineItem]:
        """What the team may induce for a fixture, by item; ``contracted``: the star players
        on a roster of the league (BB2025's long-term contracts: a signed star plays for
        his team alone, seed 003 'Signing Star Players')."""
        ...

    def inducement_budget(
        self, value: int, other_value: int, other_spent: int, treasury: int
    ) -> Budget: ...
    def redraft_budget(self, rows: RedraftRows, season: int) -> tuple[int, str]: ...

    # --- the league table ----------------------------------------------------------------
    def points_scheme(self, recorded: Mapping[str, Any] | None) -> PointsScheme: ...
    def tally(self, match: MatchRecorded, team: str, scheme: PointsScheme) -> Tally: ...
    def rank(
        self,
        rows: Sequence[StandingRow],
        results: Sequence[tuple[str, str, int, int]],
        scheme: PointsScheme,
    ) -> list[Ranked]: ...
