"""The shape of a league's state as the fold builds it: one record per entity, frozen to
everyone but the store that holds it (``MemoryStore.change``).

These records are what a ruleset reads when it interprets an event, and what the read
models persist (ledger/projections maps each record class to one SQL table, and each
``Line`` class to one append-only table). They hold derived figures — SPP totals, values,
treasury — only as the output of a fold; the events stay the source of truth.

``LeagueView`` is the read interface the fold and the commands see: an in-memory dict
during a rebuild or a what-if, a lazily loaded SQL cache during incremental catch-up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from ledger.domain.per_class import per_class
from ledger.domain.plain import Plain
from ledger.domain.values import Division


class Record(Plain):
    """One entity of the league's state (a plain model: ledger/domain/plain.py)."""

    table: ClassVar[str]
    key: ClassVar[tuple[str, ...]]
    indexes: ClassVar[tuple[str, ...]] = ()
    grouped: ClassVar[tuple[tuple[str, ...], ...]] = ()
    """Field combinations the in-memory store keeps buckets for, beside ``indexes``; the
    table's index of a field in ``indexes`` carries the rest of a combination that begins
    with it (ledger/projections/shapes.py, ``index_columns``)."""
    keyed_only: ClassVar[bool] = False
    """Stored in its key's order, without a row id (SQLite's ``WITHOUT ROWID``): for lines
    read by ranges of their key, whose rows are short, where a row id would only add an
    index of the key beside the table (at 10^5 events, 4.1 MB for ``rm_events``, 3.6 MB
    for ``rm_team_history``, 24 MB for the players' game lines of the time, whose
    secondary indexes grew by 8.6 MB holding the key instead; ``rm_event_refs``, all key,
    would be stored twice)."""

    def key_values(self) -> tuple[Any, ...]:
        return key_reader[type(self)](self.__dict__)


@per_class
def key_reader(kind: type[Record]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """Reads a record's key from its values (the stores ask for it on every put)."""
    if len(kind.key) == 1:
        name = kind.key[0]
        return lambda values: (values[name],)
    return itemgetter(*kind.key)


class Line(Record):
    """An append-only output row (a treasury movement, a team's side of a game...)."""


R = TypeVar("R", bound=Record)

PlayerStatus = Literal["active", "retired", "dead", "fired", "left"]
"""``retired`` is BB2025's Temporarily Retiring: on the roster, not in CTV, not playing."""
ON_ROSTER: tuple[PlayerStatus, ...] = ("active", "retired")
"""The statuses of a team's current players (counted in its 16); the rest are former."""


class LeagueRow(Record):
    table = "rm_leagues"
    key = ("league_id",)

    league_id: str
    slug: str
    name: str
    ruleset: str
    options: dict[str, Any] = {}
    points: dict[str, Any] | None = None
    version: int = 0
    last_hash: str = ""
    created_at: str = ""
    next_player: int = 1
    next_match: int = 1
    next_submission: int = 1
    """One more than the number of the league's highest submission (``s7``: 8)."""
    current_season: int = 0
    public: bool = False
    """Whether anyone may read the league (else only its members and admins)."""
    advancements_by_ledger: bool = False
    """Whether the ledger rolls every advancement's dice (``AdvancementDiceSet``), dice
    typed in refused."""
    members_version: int = 0
    """The number of the league's latest grant or removal of a role, or correction (which
    may void one): who may do what in the league changes with it alone, and it only
    grows (the service keeps its callers until it moves, ledger/web/known.py)."""


class SeasonRow(Record):
    table = "rm_seasons"
    key = ("league_id", "season")

    league_id: str
    season: int
    name: str = ""
    divisions: tuple[Division, ...] = ()
    playoff_teams: int = 0
    status: Literal["open", "closed"] = "open"
    trophy_holder: str | None = None
    star_draft: tuple[str, ...] = ()
    """Spike! 2021 star contracts: the order in which teams sign their star."""


class TeamRow(Record):
    table = "rm_teams"
    key = ("league_id", "team_id")

    league_id: str
    team_id: str
    name: str
    coach: str
    roster: str
    treasury: int = 0
    fans: int = 0
    """Dedicated Fans (BB2025) or Fan Factor (older editions)."""
    rerolls: int = 0
    staff: dict[str, int] = {}
    """Sideline staff and other bought items by id: assistant_coach, cheerleader,
    apothecary, wizard, bribe..."""
    status: Literal["active", "withdrawn"] = "active"
    drafting: bool = True
    """Still building the roster (before its first game, or while re-drafting)."""
    values: dict[str, int] = {}
    """The ruleset's team figures, e.g. ``{"tv": ..., "ctv": ...}`` or ``{"tr": ...}``."""
    rating: int = 0
    """The ruleset's headline figure (TV for BB2025, TR for the older editions)."""
    games: int = 0
    open_games: tuple[str, ...] = ()
    """Matches whose post-game sequence the team has not closed yet."""
    season: int | None = None
    trophy: bool = False
    registered_seq: int = 0
    extras: dict[str, Any] = {}
    """Ruleset-specific running state (bounties, star contracts, ...)."""
    fees_paid: dict[str, dict[str, int]] = {}
    """Appearance fees paid (4th edition), by match id: what was paid for each player or
    freebooted star (by his id in the report)."""


class PlayerRow(Record):
    table = "rm_players"
    key = ("league_id", "player_id")
    indexes = ("team_id",)
    grouped = (
        ("team_id", "status"),  # a team's current players, however long its past
        ("kind",),  # the league's stars, which some editions' hire checks read
    )

    league_id: str
    player_id: str
    team_id: str
    name: str
    number: int | None = None
    roster: str
    """The team list the position belongs to."""
    position: str
    kind: Literal["regular", "journeyman", "mercenary", "star"] = "regular"
    ma: int
    st: int
    ag: int
    pa: int | None = None
    av: int
    skills: tuple[str, ...] = ()
    """Every skill and trait the player has now, innate and gained."""
    gained: tuple[str, ...] = ()
    advancements: tuple[dict[str, Any], ...] = ()
    """Each advancement taken: kind, skill or characteristic, SPP cost, value increase."""
    rolled: dict[str, Any] = {}
    """The ledger's roll for his next advancement, recorded before the coach chose
    (``AdvancementRolled``: kind, category, dice, seq); empty once he takes it."""
    changes: dict[str, int] = {}
    """Net change per characteristic (improvements minus injuries), in the edition's
    direction: +1 is always better for the player."""
    niggling: int = 0
    spp: int = 0
    """SPP available to spend."""
    spp_earned: int = 0
    status: PlayerStatus = "active"
    miss_next_game: bool = False
    value: int = 0
    base_cost: int = 0
    extra_value: int = 0
    """Value added by advancements and other rules (secret weapons...), per the ruleset."""
    price_paid: int = 0
    hired_seq: int = 0
    seasons: tuple[int, ...] = ()
    games: int = 0
    touchdowns: int = 0
    completions: int = 0
    interceptions: int = 0
    casualties: int = 0
    """Casualties inflicted that earned SPP under the ruleset."""
    casualties_all: int = 0
    kills: int = 0
    mvps: int = 0
    extras: dict[str, Any] = {}


class MatchRow(Record):
    table = "rm_matches"
    key = ("league_id", "match_id")
    indexes = ("season", "home", "away")

    league_id: str
    match_id: str
    season: int | None = None
    round: int | None = None
    division: str = ""
    stage: str = "regular"
    kind: str = "league"
    home: str
    away: str
    others: tuple[str, ...] = ()
    status: Literal["scheduled", "played", "voided"] = "scheduled"
    home_score: int = 0
    away_score: int = 0
    home_casualties: int = 0
    away_casualties: int = 0
    winner: str | None = None
    conceded_by: str | None = None
    recorded_seq: int | None = None
    scheduled_seq: int | None = None
    """The event that scheduled the fixture (None: a match played without one)."""
    fixture: int | None = None
    """The fixture's place in that event's list: with ``scheduled_seq``, the order in
    which ``match list`` shows a round's games, the same before and after they are played."""
    closed: tuple[str, ...] = ()
    """Teams that finished the post-game sequence."""
    hirelings: dict[str, dict[str, Any]] = {}
    """One-game players (journeymen, mercenaries) by id, for hiring after the game."""
    winnings: dict[str, int] = {}
    """Gold each team collected as winnings from this game (whatever the edition)."""
    inducements: dict[str, dict[str, Any]] = {}
    """Per team: what it bought before the game (``purchases``: count by item; ``items``:
    as a sentence) and how (``treasury_spent``, ``petty_cash``)."""


class StandingRow(Record):
    table = "rm_standings"
    key = ("league_id", "season", "team_id")
    indexes = ("season",)

    league_id: str
    season: int
    team_id: str
    division: str = ""
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    td_for: int = 0
    td_against: int = 0
    cas_for: int = 0
    cas_against: int = 0
    points: int = 0
    bonus: int = 0


class TreasuryLine(Line):
    table = "rm_treasury"
    key = ("league_id", "team_id", "seq", "line")
    keyed_only = True
    indexes = ("team_id",)

    league_id: str
    team_id: str
    seq: int
    line: int
    amount: int
    balance: int
    kind: str
    note: str = ""


class PlayerGameLine(Plain):
    """What one player of the books did in one game, as the pages, the API and the reports
    read it: unpacked from his team's side of the game (``TeamGameLine``), not a row of its
    own."""

    league_id: str
    player_id: str
    team_id: str
    match_id: str
    seq: int
    season: int | None = None
    round: int | None = None
    touchdowns: int = 0
    completions: int = 0
    interceptions: int = 0
    casualties: int = 0
    kills: int = 0
    mvps: int = 0
    spp: int = 0
    injury: str = ""


GAME_COUNTS = (
    "touchdowns",
    "completions",
    "interceptions",
    "casualties",
    "kills",
    "mvps",
    "spp",
    "injury",
)
"""The fields of a player's game that ``TeamGameLine.players`` holds, in its lists' order."""


def game_counts(counts: tuple[int | str, ...]) -> list[int | str]:
    """A player's ``GAME_COUNTS`` as ``TeamGameLine.players`` holds them: without the
    trailing ones at their defaults (most players of a game only play it: ``[]``)."""
    if not any(counts):
        return []
    kept = len(counts)
    while not counts[kept - 1]:
        kept -= 1
    return list(counts[:kept])


class TeamGameLine(Line):
    """One team's side of one game: what each of its players of the books did in it
    (``players``: by id, ``game_counts``). One row a side, not one a player: a player's
    line was the rebuild's most common row (331,633 of the 793,606 lines at 10^5 events),
    and each row costs the fold, the line process and the copy alike
    (docs/performance-journal.md, thirty-second session).

    Read by the key alone, kept without a secondary index:
    - a player's games by his team's, from his hiring on (``Queries.player_games``: a
      player never changes teams);
    - a match's by each of its teams' at its report's number (``Queries.match_games``);
    - a season's along the league's lines (the season report's
      ``ReportReads.player_games``), a tenth of them or more, which SQLite reads by the key
      even where an index of seasons exists."""

    table = "rm_team_games"
    key = ("league_id", "team_id", "seq")
    keyed_only = True

    league_id: str
    team_id: str
    seq: int
    match_id: str
    season: int | None = None
    round: int | None = None
    players: dict[str, list[int | str]] = {}

    def player_lines(self) -> list[PlayerGameLine]:
        """Each player's line, in the order the sheet named them."""
        return [self.line_of(player_id, counts) for player_id, counts in self.players.items()]

    def game_of(self, player_id: str) -> PlayerGameLine | None:
        counts = self.players.get(player_id)
        return None if counts is None else self.line_of(player_id, counts)

    def line_of(self, player_id: str, counts: list[int | str]) -> PlayerGameLine:
        return PlayerGameLine.build(
            league_id=self.league_id,
            player_id=player_id,
            team_id=self.team_id,
            match_id=self.match_id,
            seq=self.seq,
            season=self.season,
            round=self.round,
            **dict(zip(GAME_COUNTS, counts, strict=False)),
        )


def games_of(sides: Iterable[TeamGameLine]) -> list[PlayerGameLine]:
    """The players' game lines that ``sides`` hold, side by side, each in its sheet's order."""
    return [line for side in sides for line in side.player_lines()]


class TeamHistoryLine(Line):
    table = "rm_team_history"
    key = ("league_id", "team_id", "seq")
    keyed_only = True

    league_id: str
    team_id: str
    seq: int
    match_id: str | None = None
    season: int | None = None
    round: int | None = None
    rating: int
    values: dict[str, int] = {}
    treasury: int
    fans: int
    fans_before: int
    """The team's fans just before this line's event (a game's: as the teams took the
    field, after whatever they bought before it)."""


class EventFacts(Plain):
    """An event as a history and the audit show it: what it was, who recorded it and when,
    and what it did in a sentence (``summary``)."""

    league_id: str
    seq: int
    event_type: str
    recorded_by: str
    recorded_at: str
    reason: str | None = None
    summary: str = ""
    voided: bool = False
    account: str | None = None
    """The account that caused the event, and the role it acted in (``acting_as``)."""
    acting_as: str | None = None
    target: int | None = None
    """The event a correction corrected (``EventCorrected.target``; None for any other
    event): a void of a match report refers to the closes it voids with it too, so its
    references alone do not say which event it corrected."""

    @property
    def who(self) -> str:
        """Who recorded it, as the history shows it: ``Jay (jay, coach)`` for an account,
        the name alone for an event recorded before accounts or on the command line."""
        if self.account is None:
            return self.recorded_by
        role = f", {self.acting_as}" if self.acting_as else ""
        return f"{self.recorded_by} ({self.account}{role})"


class EventLine(EventFacts, Line):
    """One row per event of the league, for its history and the audit appendix."""

    table = "rm_events"
    key = ("league_id", "seq")
    keyed_only = True
    indexes = ("event_type",)


class RefLine(Line):
    """One team, player, match or event an event touched: which events a history shows.
    The league is no reference of its own: every event touches it (``EventLine``)."""

    table = "rm_event_refs"
    key = ("league_id", "ref", "seq")
    keyed_only = True

    league_id: str
    ref: str
    """``team:<id>``, ``player:<id>``, ``match:<id>``, ``event:<seq>`` (a correction's)."""
    seq: int


class EventRef(EventFacts):
    """An event of a history, with the reference it was found by (``RefLine``): a row of
    ``rm_events`` joined to one of ``rm_event_refs``, not a table of its own."""

    ref: str


class MemberRow(Record):
    """An account's role in a league (from MemberGranted / MemberRemoved)."""

    table = "rm_members"
    key = ("league_id", "account")

    league_id: str
    account: str
    role: Literal["commissioner", "coach"]
    teams: tuple[str, ...] = ()
    granted_seq: int = 0
    active: bool = True
    """False once removed (the row stays, for the audit page)."""


class SiteRow(Record):
    """The site's log as the read models have folded it (like a league's row)."""

    table = "rm_site"
    key = ("league_id",)

    league_id: str
    version: int = 0
    last_hash: str = ""


class AccountRow(Record):
    """An account of the site (from the site's log; its ``league_id`` is the site's)."""

    table = "rm_accounts"
    key = ("league_id", "account")

    league_id: str
    account: str
    name: str
    admin: bool = False
    revoked: bool = False
    added_seq: int = 0


class SubmissionRow(Record):
    """A match report a coach submitted, and where it stands (ReportSubmitted and the
    answers to it). Until it is confirmed or approved it changes nothing else."""

    table = "rm_submissions"
    key = ("league_id", "submission")
    indexes = ("match_id",)

    league_id: str
    submission: str
    match_id: str
    team: str
    """The team whose coach submitted it."""
    home: str
    away: str
    others: tuple[str, ...] = ()
    report: dict[str, Any] = {}
    """The report as submitted (docs/match-report.md), as JSON."""
    roll_missing: bool = False
    status: Literal["submitted", "disputed", "confirmed", "approved", "rejected", "withdrawn"] = (
        "submitted"
    )
    submitted_seq: int = 0
    submitted_at: str = ""
    submitted_by: str = ""
    account: str | None = None
    """The account that submitted it, if it was signed in."""
    answered_by: str | None = None
    """The opposing team that confirmed or disputed it."""
    dispute: str | None = None
    """Why the opposing coach disputed it."""
    decided_seq: int | None = None
    """The event that confirmed, approved, rejected or withdrew it."""
    rejection: str | None = None
    """Why the commissioner rejected it (or its team withdrew it)."""


REPORTS_WAITING = ("submitted", "disputed")
"""The states of a submitted report that waits for an answer or a decision."""


class FaultLine(Line):
    """A stored event the fold could not read or apply: it is passed over, so the rest of
    the league still folds, and reported (``ledger audit verify``) until it is voided."""

    table = "rm_faults"
    key = ("league_id", "seq")

    league_id: str
    seq: int
    topic: str
    problem: str


ENTITY_RECORDS: tuple[type[Record], ...] = (
    LeagueRow,
    SeasonRow,
    TeamRow,
    PlayerRow,
    MatchRow,
    StandingRow,
    MemberRow,
    SiteRow,
    AccountRow,
    SubmissionRow,
)
LINE_RECORDS: tuple[type[Line], ...] = (
    TreasuryLine,
    TeamGameLine,
    TeamHistoryLine,
    EventLine,
    RefLine,
    FaultLine,
)


class LeagueView(Protocol):
    """What the fold, the rulesets and the commands may read of a league's state."""

    def get(self, kind: type[R], /, *key: Any) -> R | None: ...

    def select(self, kind: type[R], /, **where: Any) -> Sequence[R]: ...


def lasting_injuries(player: PlayerRow) -> dict[str, int]:
    """The characteristics a player has lost for good, net, each with its (negative)
    change: ``changes`` counts what his advancements improved too (+1 always better)."""
    return {stat: change for stat, change in sorted(player.changes.items()) if change < 0}


def on_roster(players: Iterable[PlayerRow]) -> list[PlayerRow]:
    return [p for p in players if p.status in ON_ROSTER]


def roster_of(view: LeagueView, league_id: str, team_id: str) -> list[PlayerRow]:
    """A team's current players, asked of the store by status: a team's former players
    (the dead, fired and departed of every past season) grow with its history, and
    reading them all on every command would make commands slower as a league ages (the
    table's index of a team's players carries their status, as ``PlayerRow.grouped`` asks).
    A store that keeps each roster itself (the fold's in-memory store) is asked for it."""
    kept = getattr(view, "roster", None)
    if kept is not None:
        return kept(league_id, team_id)  # type: ignore[no-any-return]
    found = [
        p
        for status in ON_ROSTER
        for p in view.select(PlayerRow, league_id=league_id, team_id=team_id, status=status)
    ]
    return sorted(found, key=lambda p: p.key_values())
