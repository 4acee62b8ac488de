"""The event catalogue: every fact a league's books can hold.

This module's path is part of every stored event's topic
(``ledger.domain.events:PlayerHired``): classes here are never renamed or moved, only
added to. A field added later gets a default and a ``class_version`` bump with an
``upcast_vN_vM`` static method; a new meaning gets a new class.

Events record facts and decisions in no edition's arithmetic (DESIGN.md decision 1):
derived figures such as SPP totals, team value, winnings or league points are computed
by a ruleset when the log is folded. Where a command charged gold, the event keeps the
amount charged *and* what was bought, so another ruleset can recompute the price.

Docs: docs/events.md describes each event for commissioners.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, ClassVar, Literal
from uuid import UUID

import orjson
from eventsourcing.domain import CanInitAggregate, CanMutateAggregate
from eventsourcing.utils import get_topic
from pydantic import BaseModel, ConfigDict, Field

from ledger.domain.values import (
    Casualty,
    Characteristic,
    Concession,
    DiceRoll,
    Division,
    Fixture,
    PointsScheme,
    Purchase,
    Shootout,
    TeamSheet,
)

GENESIS_HASH = "0" * 64


class LedgerEvent(BaseModel, CanMutateAggregate[UUID]):
    """Base of every league event: the envelope every fact carries."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)
    class_version: ClassVar[int] = 1
    summary_template: ClassVar[str] = ""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    recorded_by: str = Field(min_length=1)
    reason: str | None = None
    prev_hash: str = GENESIS_HASH
    hash: str = ""

    @property
    def seq(self) -> int:
        """The event's number in its league's log (1 is the league's creation)."""
        return self.originator_version

    def apply(self, aggregate: Any) -> None:
        aggregate.last_hash = self.hash

    def content_hash(self) -> str:
        return content_hash(get_topic(type(self)), self.stored())

    def stored(self) -> dict[str, Any]:
        """The event as stored: defaults are left out (a match report's many zero counters
        would triple its size), and the hash covers exactly what is stored."""
        return self.model_dump(mode="json", exclude_defaults=True)


def content_hash(topic: str, stored: dict[str, Any]) -> str:
    """The chained hash of one stored event: its topic and its content without the hash.

    The content includes ``prev_hash``, so each event's hash covers the whole log before it.
    It is computed from the stored JSON, not from a re-encoded object, so upcasting an old
    event on read never makes the audit fail.
    """
    content = {k: v for k, v in stored.items() if k not in ("hash", "class_version")}
    canonical = orjson.dumps(content, option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(topic.encode() + b"\n" + canonical).hexdigest()


# --- the league and its seasons -------------------------------------------------------


class LeagueCreated(LedgerEvent, CanInitAggregate[UUID]):
    """The league exists: its name, ruleset, options and points; event 1 of its log."""

    originator_topic: str
    slug: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    """The league's short id (lower-case letters, digits, dashes)."""
    name: str = Field(min_length=1)
    """The league's full name."""
    ruleset: str
    """Stable ruleset id (``bb2020``, ``lrb6-zal``, ``gold4``, ``dz3``)."""
    options: dict[str, Any] = {}
    """The ruleset's named options, as validated by the ruleset at creation."""
    points: PointsScheme | None = None
    """League points and tie-breakers; ``None`` means the ruleset's default."""

    def apply(self, aggregate: Any) -> None:
        super().apply(aggregate)
        aggregate.slug = self.slug


class SeasonStarted(LedgerEvent):
    """A season begins: its divisions and how many teams reach the play-offs."""

    season: int = Field(ge=1)
    """The season's number (1, 2...)."""
    name: str = ""
    """A name for the season, if the league gives one."""
    divisions: tuple[Division, ...]
    """The divisions and the teams in each."""
    playoff_teams: int = Field(default=0, ge=0)
    """How many teams qualify for the play-offs (0: no play-offs)."""


class FixturesScheduled(LedgerEvent):
    """Fixtures of a season (a round robin, or a play-off round) with their ids."""

    season: int
    fixtures: tuple[Fixture, ...]
    """Each fixture's id, round, division, home and away teams and stage."""


class SeasonClosed(LedgerEvent):
    """The season is over: prizes and the League Trophy follow from its results."""

    season: int


# --- teams, players and purchases -----------------------------------------------------


class TeamRegistered(LedgerEvent):
    """A team joins the league with its coach, its team list and its starting treasury."""

    team: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    """The team's id in the league (lower-case letters, digits, dashes)."""
    name: str = Field(min_length=1)
    """The team's name."""
    coach: str = Field(min_length=1)
    """The coach's name."""
    roster: str
    """Team list id in the league's ruleset (``human``, ``skaven``...)."""
    treasury: int = Field(ge=0)
    """Starting treasury (1,000,000 for a BB2020 draft)."""


class PlayerHired(LedgerEvent):
    """A player joins a team: drafted, hired after a game, a signed journeyman..."""

    team: str
    player: str
    """The player's ledger id (``p1``, ``p2``... in the order hired)."""
    name: str = Field(min_length=1)
    number: int | None = Field(default=None, ge=1, le=99)
    """Shirt number."""
    position: str
    """Position id on the team list (or the star's id)."""
    price: int = Field(ge=0)
    """Gold charged under the league's ruleset (the audit trail; another ruleset may
    recompute it from ``position`` and ``kind``)."""
    kind: Literal["regular", "journeyman", "mercenary", "star", "rehire"] = "regular"
    hireling: str | None = None
    """For a journeyman or mercenary who played and is now signed: his id in the report."""
    from_match: str | None = None
    """The match that hireling played in."""
    from_list: str | None = None
    """The team list the position comes from, when not the team's own (4th edition allies)."""
    star: str | None = None
    """Star player id, for a star hired permanently (``kind="star"``; ZAL 3f)."""
    equipment: tuple[str, ...] = ()
    """Bought with the player, e.g. a secret weapon (4th edition: its cost is in the price)."""


class PlayerFired(LedgerEvent):
    """A player is let go by his coach."""

    team: str
    player: str


class PlayerTemporarilyRetired(LedgerEvent):
    """BB2020: a player with a Lasting Injury sits out the rest of the season."""

    team: str
    player: str


class PlayerDied(LedgerEvent):
    """A death outside a match report (e.g. a pre-game mishap recorded by hand)."""

    team: str
    player: str


class PlayerLeft(LedgerEvent):
    """A player quit the team for a reason no match report records."""

    team: str
    player: str


class SidelinePurchased(LedgerEvent):
    """Re-rolls, staff, fans and other non-player purchases."""

    team: str
    purchases: tuple[Purchase, ...] = Field(min_length=1)
    """What was bought (``reroll``, ``apothecary``, ``dedicated_fans``...), how many, and
    the gold charged."""


class SidelineReleased(LedgerEvent):
    """Staff or other bought items let go (no refund)."""

    team: str
    item: str
    count: int = Field(default=1, ge=1)


class TreasuryAdjusted(LedgerEvent):
    """A commissioner's award or fine that no rule computes (always needs a reason)."""

    team: str
    amount: int
    """Gold added (negative: taken)."""


class PlayerAdvanced(LedgerEvent):
    """A player spent SPP (or a star player roll) on an advancement."""

    team: str
    player: str
    kind: Literal[
        "random_primary",
        "chosen_primary",
        "random_secondary",
        "chosen_secondary",
        "characteristic",
        "star_roll",
    ]
    """Which Advancement Table column (BB2020), or a star player roll (older editions)."""
    skill: str | None = None
    """The skill taken, if any."""
    characteristic: Characteristic | None = None
    """The characteristic improved, if any."""
    category: str | None = None
    dice: tuple[DiceRoll, ...] = ()
    """The rolls made: the D8 of a characteristic improvement, a star player roll..."""


# --- matches ----------------------------------------------------------------------------


class InducementsBought(LedgerEvent):
    """Pre-game purchases for one fixture, from the treasury and/or petty cash."""

    match: str
    team: str
    purchases: tuple[Purchase, ...] = ()
    treasury_spent: int = Field(default=0, ge=0)
    petty_cash: int = Field(default=0, ge=0)


class MatchRecorded(LedgerEvent):
    """The facts of one game, as reported by the coaches."""

    match: str
    """The match's id (a fixture's id when scheduled)."""
    season: int | None = None
    round: int | None = None
    kind: Literal["league", "playoff", "friendly", "exhibition", "unplayed"] = "league"
    """What the game counted for; friendlies and exhibitions change no league figure."""
    home: TeamSheet
    away: TeamSheet
    casualties: tuple[Casualty, ...] = ()
    """Every player removed as a casualty, with how, by whom, and the dice."""
    concession: Concession | None = None
    shootout: Shootout | None = None
    weather: str | None = None
    referee: str | None = None
    dice: tuple[DiceRoll, ...] = ()
    """Match-level dice (gate, weather...)."""
    played_on: str | None = None
    others: tuple[TeamSheet, ...] = ()
    """Further teams of a multi-team match (multi-player Dungeon Bowl)."""
    winner: str | None = None
    """Only for multi-team matches, where the score alone does not name the winner."""

    def sheets(self) -> tuple[TeamSheet, ...]:
        return (self.home, self.away, *self.others)


class PostGameClosed(LedgerEvent):
    """A team finished the post-game sequence of a match (the rolls that come last)."""

    match: str
    team: str
    dice: tuple[DiceRoll, ...] = ()


class AppearanceFeesPaid(LedgerEvent):
    """4th edition: fees paid before a match; a player not paid for does not play."""

    match: str
    team: str
    fees: tuple[Purchase, ...]
    """One line per player paid: ``item`` is the player id, ``price`` the fee."""


class BountyPosted(LedgerEvent):
    """ZAL 21: gold taken from a team's treasury and put on a player's head."""

    team: str
    player: str
    amount: int = Field(gt=0)


class CardPlayed(LedgerEvent):
    """A special play card whose effect reaches the league's books (ZAL 8d: Bankruptcy,
    Robbery, Injured in Practice), with the dice it needed."""

    match: str | None = None
    team: str
    """The team that played the card."""
    card: str
    against: str | None = None
    """The team or player it was played on."""
    dice: tuple[DiceRoll, ...] = ()
    casualty: Casualty | None = None


class StarDraftOrdered(LedgerEvent):
    """Spike! 2021 'Signing Star Players': the order in which teams choose their star."""

    season: int
    order: tuple[str, ...]
    """Team ids, first to choose first."""
    drawn: tuple[str, ...] = ()
    """The teams whose places were drawn from a hat (all teams in a first season; the new
    teams afterwards), as drawn at the table or by the ledger (see ``reason``)."""


class StarSigned(LedgerEvent):
    """Spike! 2021 'Long Term Contracts': a star signed to a team for a season."""

    season: int
    team: str
    star: str
    player: str
    """The ledger id the star plays under this season."""


class TeamRedrafted(LedgerEvent):
    """BB2020 'Off-season and Re-drafting': the team carried into the next season."""

    team: str
    season: int
    """The season the team is re-drafted for."""
    players: tuple[Purchase, ...] = ()
    """Players re-hired: ``item`` is the player id, ``price`` value plus agent's fees."""
    kept: tuple[Purchase, ...] = ()
    """Staff and re-rolls carried over at standard cost."""
    dice: tuple[DiceRoll, ...] = ()
    """Rest & Relaxation rolls: niggling and temporary-retirement recovery, Hatred."""


# --- corrections ------------------------------------------------------------------------


class EventCorrected(LedgerEvent):
    """Voids or amends an earlier event; the log keeps both (DESIGN.md decision 5)."""

    target: int = Field(ge=2)
    action: Literal["void", "amend"]
    amendment: dict[str, Any] = {}
    """Fields of the target that take new values (``amend`` only)."""
