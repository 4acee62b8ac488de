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
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Literal
from uuid import UUID

import orjson
from eventsourcing.domain import CanInitAggregate, CanMutateAggregate
from eventsourcing.utils import get_topic
from pydantic import ConfigDict, Field, StringConstraints

from ledger.domain.plain import Plain
from ledger.domain.values import (
    ACCOUNT,
    MAX_GOLD,
    MAX_ID,
    Casualty,
    Characteristic,
    Concession,
    Count,
    DiceRoll,
    Division,
    Fixture,
    Gold,
    IsoDate,
    Label,
    MatchRef,
    Name,
    Number,
    PointsScheme,
    Price,
    Purchase,
    Ref,
    Shootout,
    Slug,
    TeamSheet,
    Text,
)

GENESIS_HASH = "0" * 64
HireKind = Literal["regular", "journeyman", "mercenary", "star", "rehire"]
MatchKind = Literal["league", "playoff", "friendly", "exhibition", "unplayed"]
SEASON_KINDS: tuple[MatchKind, ...] = ("league", "unplayed", "playoff")
"""The games a season's standings, places and prizes read (a friendly or an exhibition
counts in none)."""
UNSEALED_ID = UUID(int=0)
UNSEALED_AT = datetime(1, 1, 1, tzinfo=UTC)

Role = Literal["admin", "commissioner", "coach"]


# A plain model (ledger/domain/plain.py): the fold reads events' fields as often as records'.
class LedgerEvent(Plain, CanMutateAggregate[UUID]):
    """Base of every league event: the envelope every fact carries."""

    # defer_build: a model's validator is built when first used, not at import; a read
    # command that decodes no event (ledger standings) skips building most of the 66
    # models of ledger.domain (about 0.15 s of its start-up). The fields' docstrings are
    # read by the event catalogue when it is written (ledger/domain/catalogue.py), not by
    # pydantic at import (``use_attribute_docstrings`` parses every class's source: about
    # 50 ms of every command's start).
    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")
    class_version: ClassVar[int] = 1
    summary_template: ClassVar[str] = ""

    # The envelope the log seals an event with (``ChainedLog.record``). Its defaults belong
    # to no sealed event: they mark a draft, the event a command has decided to record,
    # built and validated like any other (``PlayerHired(team=..., ...)``, checked by mypy
    # field by field) before the log gives it its place, time and author.
    originator_id: UUID = UNSEALED_ID
    originator_version: int = 0
    timestamp: datetime = UNSEALED_AT
    recorded_by: Name = ""
    reason: Text | None = None
    account: Slug | None = None
    """The account that caused the event (signed in to the service, or named with ``--as``
    on the command line); absent on events recorded before accounts existed."""
    acting_as: Role | None = None
    """The role the account acted in: ``admin``, ``commissioner`` or ``coach``."""
    via: Literal["cli", "api", "web"] | None = None
    """Where the command came from."""
    request_id: Ref | None = None
    """The service request that recorded it, for matching the service's own log."""
    prev_hash: str = GENESIS_HASH
    hash: str = ""

    @property
    def seq(self) -> int:
        """The event's number in its league's log (1 is the league's creation)."""
        return self.originator_version

    def apply(self, aggregate: Any) -> None:
        aggregate.last_hash = self.hash

    def facts(self) -> dict[str, Any]:
        """What the event says, without its envelope: what a draft gives the log to seal."""
        return {k: v for k, v in self.__dict__.items() if k not in ENVELOPE}

    def content_hash(self) -> str:
        return content_hash(get_topic(type(self)), self.stored())

    def stored(self) -> dict[str, Any]:
        """The event as stored: defaults are left out (a match report's many zero counters
        would triple its size), its class version is in (from version 2), and the hash
        covers exactly what is stored."""
        state = self.model_dump(mode="json", exclude_defaults=True)
        if self.class_version > 1:
            state["class_version"] = self.class_version
        return state


SEALED = ("originator_id", "originator_version", "timestamp", "recorded_by")
"""What the log gives every event it records, and a draft lacks: a stored event without
all of them is not one the ledger recorded (``persistence.mapper.decode``)."""
ENVELOPE = frozenset(LedgerEvent.model_fields)
"""The fields every event carries beside its facts: what the log seals it with, the acting
account's, and the reason the command was given (``handle(command, reason=...)``)."""


def content_hash(topic: str, stored: dict[str, Any]) -> str:
    """The chained hash of one stored event: its topic and its content without the hash.

    The content includes ``prev_hash``, so each event's hash covers the whole log before it,
    and ``class_version``, so that no one can make an event read as an older version (and
    be upcast into another meaning) without breaking the chain. It is computed from the
    stored JSON, not from a re-encoded object, so upcasting an old event on read never makes
    the audit fail.
    """
    content = {k: v for k, v in stored.items() if k != "hash"}
    canonical = orjson.dumps(content, option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(topic.encode() + b"\n" + canonical).hexdigest()


# --- the league and its seasons -------------------------------------------------------


class LeagueCreated(LedgerEvent, CanInitAggregate[UUID]):
    """The league exists: its name, ruleset, options and points; event 1 of its log."""

    originator_topic: Literal["ledger.domain.log:LeagueLog"]
    """The log's class: only ever this one, since the library imports it by name."""
    slug: Slug
    """The league's short id (lower-case letters, digits, dashes)."""
    name: Name
    """The league's full name."""
    ruleset: Ref
    """Stable ruleset id, as ``ledger rulesets`` lists them (``bb2025``, ``lrb6-zal``...)."""
    options: dict[str, Any] = {}
    """The ruleset's named options, as validated by the ruleset at creation."""
    points: PointsScheme | None = None
    """League points and tie-breakers; ``None`` means the ruleset's default."""

    class_version: ClassVar[int] = 2
    """Version 2: ``bb2025`` is the id of the 2025 rulebook's ruleset, which version 1
    recorded as ``bb2020``. The id ``bb2020`` in a version-2 event is Blood Bowl 2020
    (Season 2), a different ruleset."""

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Version 1 recorded the 2025 rulebook's ruleset as ``bb2020``: such a league
        reads as ``bb2025``, the ruleset it was played under. Only the decoded event
        changes: the stored JSON, and so the hash chain over it, stays as recorded (the
        audit reads the raw JSON). A version-2 event's hash covers its class version, so
        taking it out to have a Season 2 league read as 2025 breaks the chain."""
        if state.get("ruleset") == "bb2020":
            state["ruleset"] = "bb2025"

    def apply(self, aggregate: Any) -> None:
        super().apply(aggregate)
        aggregate.slug = self.slug


class SeasonStarted(LedgerEvent):
    """A season begins: its divisions and how many teams reach the play-offs."""

    season: Number
    """The season's number (1, 2...)."""
    name: Label = ""
    """A name for the season, if the league gives one."""
    divisions: tuple[Division, ...]
    """The divisions and the teams in each."""
    playoff_teams: Annotated[int, Field(strict=True, ge=0, le=1024)] = 0
    """How many teams qualify for the play-offs (0: no play-offs)."""


class FixturesScheduled(LedgerEvent):
    """Fixtures of a season (a round robin, or a play-off round) with their ids."""

    season: Number
    fixtures: tuple[Fixture, ...]
    """Each fixture's id, round, division, home and away teams and stage."""


class SeasonClosed(LedgerEvent):
    """The season is over: prizes and the League Trophy follow from its results."""

    season: Number


# --- teams, players and purchases -----------------------------------------------------


class TeamRegistered(LedgerEvent):
    """A team joins the league with its coach, its team list and its starting treasury."""

    team: Slug
    """The team's id in the league (lower-case letters, digits, dashes)."""
    name: Name
    """The team's name."""
    coach: Name
    """The coach's name."""
    roster: Ref
    """Team list id in the league's ruleset (``human``, ``skaven``...)."""
    treasury: Price
    """Starting treasury (1,000,000 for a BB2025 draft)."""


class PlayerHired(LedgerEvent):
    """A player joins a team: drafted, hired after a game, a signed journeyman..."""

    team: Ref
    player: Ref
    """The player's ledger id (``p1``, ``p2``... in the order hired)."""
    name: Name
    number: int | None = Field(default=None, strict=True, ge=1, le=99)
    """Shirt number."""
    position: Ref
    """Position id on the team list (or the star's id)."""
    price: Price
    """Gold charged under the league's ruleset (the audit trail; another ruleset may
    recompute it from ``position`` and ``kind``)."""
    kind: HireKind = "regular"
    hireling: Ref | None = None
    """For a journeyman or mercenary who played and is now signed: his id in the report."""
    from_match: MatchRef | None = None
    """The match that hireling played in."""
    from_list: Ref | None = None
    """The team list the position comes from, when not the team's own (4th edition allies)."""
    star: Ref | None = None
    """Star player id, for a star hired permanently (``kind="star"``; ZAL 3f)."""
    equipment: tuple[Ref, ...] = ()
    """Bought with the player, e.g. a secret weapon (4th edition: its cost is in the price)."""


class PlayerFired(LedgerEvent):
    """A player is let go by his coach."""

    team: Ref
    player: Ref


class PlayerTemporarilyRetired(LedgerEvent):
    """BB2025: a player with a Lasting Injury sits out the rest of the season."""

    team: Ref
    player: Ref


class PlayerDied(LedgerEvent):
    """A death outside a match report (e.g. a pre-game mishap recorded by hand)."""

    team: Ref
    player: Ref


class PlayerLeft(LedgerEvent):
    """A player quit the team for a reason no match report records."""

    team: Ref
    player: Ref


class SidelinePurchased(LedgerEvent):
    """Re-rolls, staff, fans and other non-player purchases."""

    team: Ref
    purchases: tuple[Purchase, ...] = Field(min_length=1)
    """What was bought (``reroll``, ``apothecary``, ``dedicated_fans``...), how many, and
    the gold charged."""


class SidelineReleased(LedgerEvent):
    """Staff or other bought items let go (no refund)."""

    team: Ref
    item: Ref
    count: Count = Field(default=1, ge=1)


class TreasuryAdjusted(LedgerEvent):
    """A commissioner's award or fine that no rule computes (always needs a reason)."""

    team: Ref
    amount: Gold
    """Gold added (negative: taken)."""


AdvancementKind = Literal[
    "random_primary",
    "chosen_primary",
    "random_secondary",
    "chosen_secondary",
    "characteristic",
    "star_roll",
]
ADVANCEMENT_NAMES: Mapping[str, str] = {
    "random_primary": "random primary skill",
    "chosen_primary": "chosen primary skill",
    "random_secondary": "random secondary skill",
    "chosen_secondary": "chosen secondary skill",
    "characteristic": "characteristic improvement",
    "star_roll": "Star Player Roll",
}
"""Each kind as a sentence names it (the advancement page capitalises it in its list)."""


class PlayerAdvanced(LedgerEvent):
    """A player spent SPP (or a star player roll) on an advancement."""

    team: Ref
    player: Ref
    kind: AdvancementKind
    """Which Advancement Table column (BB2025; BB2020 adds a random secondary skill), or a
    star player roll (older editions)."""
    skill: Name | None = None
    """The skill taken, if any."""
    characteristic: Characteristic | None = None
    """The characteristic improved, if any."""
    category: Ref | None = None
    dice: tuple[DiceRoll, ...] = ()
    """The rolls made: the D8 of a characteristic improvement, a star player roll..."""


class AdvancementRolled(LedgerEvent):
    """The ledger rolled a player's advancement before the coach chose what he takes.

    The kind (and a random skill's category, its Skill Table column) is fixed before the
    dice are seen, as at the table (seed 001, 'New Skills': "select the category ... then
    roll"; 'Characteristic Improvements': the SPP are spent, then the D8 is rolled). The
    player's next advancement is then of this kind, with these dice: only the choice they
    leave is the coach's. Recorded only when the ledger's dice leave a choice to make."""

    team: Ref
    player: Ref
    kind: AdvancementKind
    category: Ref | None = None
    dice: tuple[DiceRoll, ...] = Field(min_length=1)


# --- matches ----------------------------------------------------------------------------


class InducementsBought(LedgerEvent):
    """Pre-game purchases for one fixture, from the treasury and/or petty cash."""

    match: MatchRef
    team: Ref
    purchases: tuple[Purchase, ...] = ()
    treasury_spent: Price = 0
    petty_cash: Price = 0


class MatchRecorded(LedgerEvent):
    """The facts of one game, as reported by the coaches."""

    match: MatchRef
    """The match's id (a fixture's id when scheduled)."""
    season: Number | None = None
    round: Number | None = None
    kind: MatchKind = "league"
    """What the game counted for; friendlies and exhibitions change no league figure."""
    home: TeamSheet
    away: TeamSheet
    casualties: tuple[Casualty, ...] = ()
    """Every player removed as a casualty, with how, by whom, and the dice."""
    concession: Concession | None = None
    shootout: Shootout | None = None
    weather: Text | None = None
    referee: Text | None = None
    dice: tuple[DiceRoll, ...] = ()
    """Match-level dice (gate, weather...)."""
    played_on: IsoDate | None = None
    others: tuple[TeamSheet, ...] = ()
    """Further teams of a multi-team match (multi-player Dungeon Bowl)."""
    winner: Ref | None = None
    """Only for multi-team matches, where the score alone does not name the winner."""

    def sheets(self) -> tuple[TeamSheet, ...]:
        if not self.others:  # a game of two, the fold's every match: no unpacking
            return (self.home, self.away)
        return (self.home, self.away, *self.others)

    def on_sheets(self) -> set[str]:
        """The ids of the players on the report's sheets (a hireling of the game's among
        them): those a game line is written for, when the books hold them."""
        return {p.player for sheet in self.sheets() for p in sheet.players}

    def named_players(self) -> set[str]:
        """The ids of every player the report names: on a sheet, as a casualty or as the
        one who caused it (a hireling of the game's among them)."""
        named = self.on_sheets()
        for casualty in self.casualties:
            named.add(casualty.victim)
            if casualty.inflicted_by is not None:
                named.add(casualty.inflicted_by)
        return named


class PostGameClosed(LedgerEvent):
    """A team finished the post-game sequence of a match (the rolls that come last)."""

    match: MatchRef
    team: Ref
    dice: tuple[DiceRoll, ...] = ()


class AppearanceFeesPaid(LedgerEvent):
    """4th edition: fees paid before a match; a player not paid for does not play."""

    match: MatchRef
    team: Ref
    fees: tuple[Purchase, ...]
    """One line per player paid: ``item`` is the player id, ``price`` the fee."""


class BountyPosted(LedgerEvent):
    """ZAL 21: gold taken from a team's treasury and put on a player's head."""

    team: Ref
    player: Ref
    amount: Annotated[int, Field(strict=True, gt=0, le=MAX_GOLD)]


class CardPlayed(LedgerEvent):
    """A special play card whose effect reaches the league's books (ZAL 8d: Bankruptcy,
    Robbery, Injured in Practice), with the dice it needed."""

    match: MatchRef | None = None
    team: Ref
    """The team that played the card."""
    card: Ref
    against: Name | None = None
    """The team or player it was played on."""
    dice: tuple[DiceRoll, ...] = ()
    casualty: Casualty | None = None


class StarDraftOrdered(LedgerEvent):
    """Spike! 2021 'Signing Star Players': the order in which teams choose their star."""

    season: Number
    order: tuple[Ref, ...]
    """Team ids, first to choose first."""
    drawn: tuple[Ref, ...] = ()
    """The teams whose places were drawn from a hat (all teams in a first season; the new
    teams afterwards), as drawn at the table or by the ledger (see ``reason``)."""


class StarSigned(LedgerEvent):
    """Spike! 2021 'Long Term Contracts': a star signed to a team for a season."""

    season: Number
    team: Ref
    star: Ref
    player: Ref
    """The ledger id the star plays under this season."""
    partner: Ref | None = None
    """The ledger id his partner plays under, for a star of a pair who come together
    (Grak and Crumbleberry: the edition's catalogue names the partner)."""


class TeamRedrafted(LedgerEvent):
    """BB2025 'Off-season and Re-drafting': the team carried into the next season."""

    team: Ref
    season: Number
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

    target: Annotated[int, Field(strict=True, ge=2, le=2**53)]
    action: Literal["void", "amend"]
    amendment: dict[str, Any] = {}
    """Fields of the target that take new values (``amend`` only)."""


# --- accounts and who may act ----------------------------------------------------------
# Grants are facts like any other (DESIGN.md decision 8): a league's grants are events of
# its own log; site-wide ones (accounts, admins) are events of the site's log, a log of
# its own, hash-chained like a league's. Passwords and tokens are never in any log.

Account = Annotated[str, StringConstraints(strict=True, max_length=MAX_ID, pattern=ACCOUNT)]


class SiteOpened(LedgerEvent, CanInitAggregate[UUID]):
    """The site's log begins: event 1 of the log that holds accounts and admins."""

    originator_topic: Literal["ledger.domain.log:SiteLog"]


class AccountAdded(LedgerEvent):
    """An account exists: the name people sign in with and the name shown for it."""

    login: Account
    """The account's id, which it signs in with (lower-case letters, digits, . _ -);
    the envelope's ``account`` is who added it."""
    name: Name
    """The name shown for the account (a coach's name, say)."""


class AdminGranted(LedgerEvent):
    """The account may administer the site: create leagues and accounts, and do anything
    a league's commissioner may."""

    login: Account


class AccountRevoked(LedgerEvent):
    """The account can no longer sign in or use its tokens; its past events keep its name."""

    login: Account


class TokenRevoked(LedgerEvent):
    """One API token of the account stops working (a script retired, a token leaked); its
    other tokens and its password stay. The token is in no log: ``token`` is its public
    id, the part after ``bbl_``."""

    login: Account
    token: Annotated[str, StringConstraints(strict=True, pattern=r"^[0-9a-f]{8}$")]


class PasswordSet(LedgerEvent):
    """An admin set the account's password after it was added (its owner forgot it, say),
    and the account's browser sessions ended. The password is in no log: only its argon2
    hash is kept, in the secrets table. An owner changing their own password records no
    event, as signing in records none."""

    login: Account


class MemberGranted(LedgerEvent):
    """An account joins a league as its commissioner or as the coach of some of its teams
    (a later grant to the same account replaces the earlier one)."""

    member: Account
    """The account given the role (the envelope's ``account`` is who granted it)."""
    role: Literal["commissioner", "coach"]
    teams: tuple[Slug, ...] = ()
    """The teams a coach coaches (none for a commissioner, who acts for every team)."""


class MemberRemoved(LedgerEvent):
    """The account no longer has a role in the league."""

    member: Account
    """The account whose role ends (the envelope's ``account`` is who removed it)."""


class LeagueVisibilitySet(LedgerEvent):
    """Whether anyone may read the league (public) or only its members (the default)."""

    public: bool


class AdvancementDiceSet(LedgerEvent):
    """Whether the ledger rolls every advancement's dice in the league (a characteristic
    improvement's die, a random skill's Skill Table rolls), dice typed in refused; or
    dice rolled at the table are taken too (the default)."""

    by_ledger: bool


# --- match reports submitted by the coaches --------------------------------------------
# DESIGN.md decision 8: a coach submits the report of a match their team played; the
# opposing coach confirms it (the match is then recorded at once: a MatchRecorded follows
# the confirmation in the same transaction) or disputes it; a report not confirmed waits
# for the commissioner, who approves it (recorded the same way) or rejects it. These
# events change no figure of the league: only the MatchRecorded does.


class ReportSubmitted(LedgerEvent):
    """A coach submitted the report of a match their team played, for the opposing coach
    to confirm or dispute (or the commissioner to approve or reject)."""

    submission: Ref
    """The submission's id in the league (``s1``, ``s2``... in the order submitted)."""
    match: MatchRef
    """The match it reports: a fixture's id, or an id the coach chose for a friendly."""
    team: Ref
    """The team whose coach submitted it."""
    report: dict[str, Any]
    """The match report in the documented format (docs/match-report.md), as checked
    against the league when it was submitted; checked again when it is recorded."""
    roll_missing: bool = False
    """Whether the ledger rolls the post-game dice the report leaves out when the match is
    recorded (``--roll``), rather than the coaches entering them."""


class ReportConfirmed(LedgerEvent):
    """The opposing coach confirmed a submitted report: the ``MatchRecorded`` that follows
    records the match."""

    submission: Ref
    """The submitted report's id (``s1``...)."""
    match: MatchRef
    """The match it reports."""
    team: Ref
    """The opposing team, whose coach confirmed it."""


class ReportDisputed(LedgerEvent):
    """The opposing coach disputed a submitted report (the reason says why): it waits for
    the commissioner to approve or reject it."""

    submission: Ref
    """The submitted report's id (``s1``...)."""
    match: MatchRef
    """The match it reports."""
    team: Ref
    """The opposing team, whose coach disputed it."""


class ReportApproved(LedgerEvent):
    """The commissioner approved a report waiting for an answer or disputed: the
    ``MatchRecorded`` that follows records the match."""

    submission: Ref
    """The submitted report's id (``s1``...)."""
    match: MatchRef
    """The match it reports."""


class ReportRejected(LedgerEvent):
    """The commissioner rejected a submitted report (the reason says why): the match was
    not recorded, and a corrected report may be submitted."""

    submission: Ref
    """The submitted report's id (``s1``...)."""
    match: MatchRef
    """The match it reports."""


class ReportWithdrawn(LedgerEvent):
    """The team that submitted a report took it back before it was decided (a mistake in
    it, seen after sending): the match was not recorded, and a corrected report may be
    submitted."""

    submission: Ref
    """The submitted report's id (``s1``...)."""
    match: MatchRef
    """The match it reports."""
    team: Ref
    """The team that submitted it, and withdrew it."""
