"""The one fold of DESIGN.md decision 2: ``state = fold(events, ruleset)``.

A ``Fold`` applies a league's events, in order, to a store, asking the ruleset for every
number. The live read models, a full rebuild and a what-if replay all run this code; they
differ only in the store (SQL or memory) and the ruleset. Corrections are honoured here:
a voided event is skipped and an amended one is applied as amended, so a correction
reaches every figure that depended on the original. A voided match report takes its
post-game closes with it (``Fold.follow_match``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from ledger.domain import events as ev
from ledger.domain.events import EventCorrected, LedgerEvent
from ledger.domain.state import (
    EventLine,
    FaultLine,
    LeagueRow,
    PlayerRow,
    RefLine,
    StandingRow,
    TeamHistoryLine,
    TeamRow,
    TreasuryLine,
    roster_of,
)
from ledger.domain.unreadable import UnreadableEvent
from ledger.projections.describe import also_voided, describe
from ledger.projections.history import HistoryNote, history_rows
from ledger.projections.plays import Play
from ledger.projections.shapes import json_text
from ledger.projections.store import MemoryStore, Store
from ledger.rules.dice import DiceBox
from ledger.rules.effects import (
    Effects,
    Fans,
    Forgets,
    Gold,
    Heals,
    Hurt,
    Leaves,
    Sideline,
    Spp,
    Trophy,
)
from ledger.rules.protocol import Ruleset, ValueReads

MILESTONES = (
    ev.TeamRegistered,
    ev.MatchRecorded,
    ev.PostGameClosed,
    ev.SeasonClosed,
    ev.TeamRedrafted,
    ev.TreasuryAdjusted,
    ev.CardPlayed,
)
"""Events after which a team's values and treasury are kept in its history (rm_team_history):
the points the season charts draw; purchases in between show at the next one."""

ROSTER_PLACE = frozenset({"status", "team_id"})
"""A player's fields that put him on a team's roster: a change of either may change the
team's values, whatever the edition reads of him."""


@dataclass
class Fold:
    store: Store
    ruleset: Ruleset
    league_id: str
    native: bool = True
    """Folding with the league's own ruleset and options: recorded amounts are used as
    charged. A what-if fold (``native=False``) recomputes them."""
    corrections: Mapping[int, EventCorrected] = field(default_factory=dict)
    faults: Mapping[int, str] = field(default_factory=dict)
    """Stored events found not to apply (by number, with why): passed over and reported
    (ledger/projections/faults.py finds them)."""
    dice: DiceBox = field(init=False)
    every_correction: bool = False
    """Whether ``corrections`` names every event the log corrects (a rebuild reads them
    all first): then only the closes of corrected reports need keeping."""
    reports: dict[str, int] = field(default_factory=dict)
    """The latest report of each match met so far: its event number, negative if voided
    (one int per match: a rebuild meets every match of the league's history)."""
    closes: dict[int, list[int]] = field(default_factory=dict)
    """The post-game closes that follow each report (by the report's event number)."""
    touched: set[str] = field(default_factory=set)
    """The teams the event being applied changed (or named: a season's close), each given
    a history line at a milestone."""
    revalue: set[str] = field(default_factory=set)
    """The touched teams whose values the event may have changed: a change of a field the
    ruleset's ``team_values`` reads (``value_reads``), a player joining or leaving. The
    others keep theirs without asking (a player's SPP in BB2025: 42% of the asking)."""
    reads: ValueReads = field(init=False)
    """What the ruleset's ``team_values`` reads: of the team, and of each player with the
    two fields that put him on the team's roster."""
    history_match: tuple[str | None, int | None, int | None] = (None, None, None)
    """The match, season and round the event's team history lines name (a game's)."""
    fans_before: dict[str, int] = field(default_factory=dict)
    """Each touched team's fans as they stood before the event being applied."""
    treasury_lines: int = 0
    position_names: dict[tuple[str, str], str | None] = field(default_factory=dict)
    """Each position's name as the edition gives it, by list and position, once asked: a
    hire's history line and its treasury note both say it."""
    note: HistoryNote | None = None
    """The note of the event being applied (``emit_refs``), sent once it is applied: a
    match report's tells its play too (``note_play``)."""
    seasoned: dict[int, set[str]] = field(default_factory=dict)
    """The players each season's games have counted, when the fold keeps no records of
    play (``count_seasons``): a player's seasons only grow, so he is looked up once."""
    counts_play: ClassVar[bool] = True
    """Whether the fold keeps each player's records of play: the games, touchdowns,
    casualties... and game lines that leaderboards and careers show. No edition's rule
    reads them (a player's seasons, which a re-draft reads, are kept always), so a Monte
    Carlo sample, which shows no leaderboard, leaves them: a tenth of its time. A rebuild's
    line process counts them where the fold sends it notes (``plays_apart``)."""
    keeps_lines: ClassVar[bool] = True
    """Whether the fold writes its append-only lines (game lines, treasury movements, team
    history): a Monte Carlo sample's fold reads only figures, and builds none."""

    @property
    def plays_apart(self) -> bool:
        """Whether a report's records of play are counted apart, by the rebuild's line
        process that the fold sends its notes to (ledger/projections/plays.py)."""
        return self.keeps_lines and self.store.plays_apart

    def __post_init__(self) -> None:
        self.dice = DiceBox(league=self.league_id)
        reads = self.ruleset.value_reads()
        self.reads = ValueReads(reads.team, reads.players | ROSTER_PLACE)

    # --- the loop ------------------------------------------------------------------------

    def apply_all(self, events: Iterable[LedgerEvent]) -> None:
        for event in events:
            self.apply(event)

    def apply(self, event: LedgerEvent, stored: bytes | None = None) -> None:
        """Fold ``event``; ``stored``, its JSON as the log holds it, where a rebuild read
        it (its history may then be made from that in another process: ``emit_refs``)."""
        seq = event.seq  # a property: read once
        correction = self.corrections.get(seq)
        voided = correction is not None and correction.action == "void"
        if self.passes_over(event, voided):
            return
        read = amended(event, correction) if correction is not None and not voided else event
        voided = self.follow_match(read, voided)
        self.note = None  # none left by an event that failed
        # History tells an amended event as it now reads, which its stored JSON does not.
        self.emit_refs(read, voided, stored if read is event else None)
        self.dice.event = seq
        if not voided:
            appliers()[type(read)](self, read)
        self.send_note()
        self.advance_league(read)
        self.refresh_touched(seq, isinstance(event, MILESTONES))

    def follow_match(self, event: LedgerEvent, voided: bool) -> bool:
        """Whether ``event`` is voided, noting which report of its match each post-game
        close follows: a close follows the match's latest report before it and is voided
        with that report, so that a voided match can be recorded and closed again and
        what its closes moved (Expensive Mistakes) goes with it."""
        if isinstance(event, ev.MatchRecorded):
            self.reports[event.match] = -event.seq if voided else event.seq
        elif isinstance(event, ev.PostGameClosed) and event.match in self.reports:
            report = self.reports[event.match]
            if not voided and self.may_be_voided(report):
                self.closes.setdefault(abs(report), []).append(event.seq)
            return voided or report < 0
        return voided

    def may_be_voided(self, report: int) -> bool:
        """Whether a correction may yet void this report (and its closes with it)."""
        return not self.every_correction or abs(report) in self.corrections

    def voided_with(self, event: LedgerEvent) -> list[int]:
        """The closes that a correction voiding a match report voids with it."""
        if isinstance(event, EventCorrected) and event.action == "void":
            return self.closes.get(event.target, [])
        return []

    def passes_over(self, event: LedgerEvent, voided: bool) -> bool:
        """Whether ``event`` is one that cannot be read or applied: reported as a fault
        (unless voided) and passed over, so the rest of the league still folds."""
        problem = self.faults.get(event.seq)
        if isinstance(event, UnreadableEvent):
            problem = event.problem
        if problem is None:
            return False
        if not voided:
            topic = event.topic if isinstance(event, UnreadableEvent) else type(event).__name__
            self.store.emit(
                FaultLine.build(
                    league_id=self.league_id, seq=event.seq, topic=topic, problem=problem
                )
            )
        if self.store.get(LeagueRow, self.league_id) is not None:
            self.advance_league(event)
        return True

    def advance_league(self, event: LedgerEvent) -> None:
        self.stand_at(event.seq, event.hash)

    def stand_at(self, seq: int, last_hash: str) -> None:
        """The league row says where the log stands: the last event folded, and its hash."""
        self.store.change(self.league(), version=seq, last_hash=last_hash)

    # --- reading state ---------------------------------------------------------------------

    def league(self) -> LeagueRow:
        league = self.store.get(LeagueRow, self.league_id)
        if league is None:
            raise LookupError(f"league {self.league_id} has no creation event in this log")
        return league

    def team(self, team_id: str) -> TeamRow:
        team = self.store.get(TeamRow, self.league_id, team_id)
        if team is None:
            raise LookupError(f"team {team_id} is not registered")
        return team

    def player(self, player_id: str) -> PlayerRow | None:
        return self.store.get(PlayerRow, self.league_id, player_id)

    def players_by_id(self, player_ids: Iterable[str]) -> dict[str, PlayerRow | None]:
        """``player`` of each id, asked of the store in one loop (a what-if asks it of every
        player of every report: a call through ``player`` each was 0.9% of a sample)."""
        get, league = self.store.get, self.league_id
        return {player_id: get(PlayerRow, league, player_id) for player_id in player_ids}

    def players(self, team_id: str) -> list[PlayerRow]:
        return list(self.store.select(PlayerRow, league_id=self.league_id, team_id=team_id))

    # --- writing state ---------------------------------------------------------------------

    def put_team(self, team: TeamRow) -> None:
        self.note_fans(self.store.get(TeamRow, self.league_id, team.team_id) or team)
        self.store.put(team)
        self.touched.add(team.team_id)
        self.revalue.add(team.team_id)

    def change_team(self, team: TeamRow, /, **updates: Any) -> TeamRow:
        """The store's ``team`` changed (``Store.change``: go on with the answer)."""
        self.note_fans(team)  # the store's record: its fans as they stand before the change
        self.touched.add(team.team_id)
        if not self.reads.team.isdisjoint(updates):
            self.revalue.add(team.team_id)
        return self.store.change(team, **updates)

    def note_fans(self, before: TeamRow) -> None:
        """Keep the team's fans as they stood before the event, for its history line, from
        its record ``before`` the change (a fold that writes no lines keeps none)."""
        if self.keeps_lines and before.team_id not in self.fans_before:
            self.fans_before[before.team_id] = before.fans

    def put_player(self, player: PlayerRow) -> None:
        self.store.put(player)
        self.valued(player, self.reads.players)  # a player new to the team, or replaced

    def change_player(self, player: PlayerRow, /, **updates: Any) -> PlayerRow:
        """The store's ``player`` changed and valued again (``Store.change``: go on with the
        answer)."""
        return self.valued(self.store.change(player, **updates), updates)

    def valued(self, player: PlayerRow, changed: Iterable[str]) -> PlayerRow:
        """The store's ``player``, whose ``changed`` fields are new, at the value the
        ruleset gives him."""
        value = self.ruleset.value(player)
        if value != player.value:  # most changes (SPP, counters) leave it as it was
            player = self.store.change(player, value=value)
            self.revalue.add(player.team_id)
        elif not self.reads.players.isdisjoint(changed):
            self.revalue.add(player.team_id)
        self.touched.add(player.team_id)
        return player

    def move_gold(self, seq: int, team_id: str, amount: int, kind: str, note: str = "") -> None:
        team = self.team(team_id)
        balance = team.treasury + amount
        self.change_team(team, treasury=balance)
        if not self.keeps_lines:
            return
        self.treasury_lines += 1
        self.store.emit_row(
            TreasuryLine,
            (self.league_id, team_id, seq, self.treasury_lines, amount, balance, kind, note),
        )  # its row: ``TreasuryLine``'s fields in order (``history_rows`` says why)

    def refresh_touched(self, seq: int, milestone: bool) -> None:
        """Recompute the values of the touched teams whose values the event may have
        changed (``revalue``); at a milestone (a game, a closed post-game, a season's
        end...) also record every touched team's in its history for the season charts.
        Between milestones, or in a fold without history, only the teams to revalue need
        anything (each of them is a touched one too)."""
        history = milestone and self.keeps_lines
        match_id, season, round_ = self.history_match
        for team_id in sorted(self.touched if history else self.revalue):
            team = self.team(team_id)
            values, rating = team.values, team.rating
            if team_id in self.revalue:
                values = self.ruleset.team_values(
                    team, roster_of(self.store, self.league_id, team_id)
                )
                rating = values.get(self.ruleset.rating_key, 0)
                if values != team.values or rating != team.rating:
                    team = self.store.change(team, values=values, rating=rating)
            if not history:
                continue
            self.store.emit_row(
                TeamHistoryLine,
                (  # its row: ``TeamHistoryLine``'s fields in order (``history_rows`` says why)
                    self.league_id,
                    team_id,
                    seq,
                    match_id,
                    season,
                    round_,
                    rating,
                    json_text(values),
                    team.treasury,
                    team.fans,
                    self.fans_before.get(team_id, team.fans),
                ),
            )
        self.touched.clear()
        self.revalue.clear()
        self.fans_before.clear()
        self.history_match = (None, None, None)
        self.treasury_lines = 0

    def player_name(self, player_id: str) -> str | None:
        player = self.store.get(PlayerRow, self.league_id, player_id)
        return player.name if player else None

    def team_name(self, team_id: str) -> str | None:
        team = self.store.get(TeamRow, self.league_id, team_id)
        return team.name if team else None

    def item_name(self, team_id: str, item: str) -> str | None:
        team = self.store.get(TeamRow, self.league_id, team_id)
        found = self.ruleset.sideline_items(team).get(item) if team else None
        return found.name if found else None

    def inducement_name(self, team_id: str, item: str) -> str | None:
        team = self.store.get(TeamRow, self.league_id, team_id)
        found = self.ruleset.inducement_offer(team).get(item) if team else None
        return found.name if found else None

    def position_name(self, team_id: str, position: str, from_list: str | None) -> str | None:
        team = self.store.get(TeamRow, self.league_id, team_id)
        key = (from_list or (team.roster if team else ""), position)
        if key not in self.position_names:
            found = self.ruleset.catalogue.team_lists().get(key[0])
            named = found.position(position) if found is not None else None
            self.position_names[key] = named.name if named is not None else None
        return self.position_names[key]

    def list_name(self, roster: str) -> str | None:
        found = self.ruleset.catalogue.team_lists().get(roster)
        return found.name if found is not None else None

    def emit_refs(self, event: LedgerEvent, voided: bool, stored: bytes | None = None) -> None:
        """The event's line of history, and a reference to it for each team, player, match
        and event it touched: its description is written once, whatever it touched. Given
        the event as ``stored``, the fold sends a note of it instead where it can
        (ledger/projections/history.py), and the line process makes the rows."""
        if not self.keeps_lines:
            return
        closes = self.voided_with(event)
        description = describe(event, self) + also_voided(closes)
        # A note where the rows read nothing of the state but the description (history.py)
        notes, seasonal = self.store.notes, isinstance(event, ev.SeasonClosed)
        if notes is not None and stored is not None and not closes and not seasonal:
            self.note = (self.league_id, type(event).__name__, stored, description, voided, None)
            return
        more = [f"event:{close}" for close in closes]
        if isinstance(event, ev.SeasonClosed):
            more += self.season_teams(event)
        line, references = history_rows(self.league_id, event, description, voided, more)
        emit = self.store.row_sink()
        emit(EventLine, line)
        for reference in references:
            emit(RefLine, reference)

    def note_play(self, match: ev.MatchRecorded, play: Play) -> None:
        """Tell the line process the ``play`` of the report being applied, with its note of
        history; or alone, where the fold made its history's rows itself (an amended
        report: then with the report as it now reads, not as stored)."""
        if self.note is not None:
            league_id, kind, stored, description, voided, _ = self.note
            self.note = (league_id, kind, stored, description, voided, play)
        else:
            self.note = (self.league_id, type(match).__name__, match, None, False, play)

    def send_note(self) -> None:
        """Send the note of the event just applied, if it has one."""
        if self.note is not None:
            assert self.store.notes is not None
            self.store.notes(self.note)
            self.note = None

    def season_teams(self, event: ev.SeasonClosed) -> list[str]:
        """A season's close names only the season, but it is part of each team's history
        that played it: its place, its prize, the League Trophy."""
        rows = self.store.select(StandingRow, league_id=self.league_id, season=event.season)
        return [f"team:{row.team_id}" for row in rows]

    # --- effects decided by the ruleset --------------------------------------------------------

    def apply_effects(
        self, seq: int, effects: Effects, hirelings: dict[str, Any], spp_later: bool = False
    ) -> dict[str, int]:
        """Apply a ruleset's effects; returns SPP earned per player for the game lines.
        ``spp_later``: the SPP are only added up, and the caller writes them (a match
        report writes each player's with his counters: ``count_games``)."""
        earned: dict[str, int] = {}
        # SPP earned and not yet written: a player's awards of one game are added up and
        # written once (they only add, and no effect reads them).
        pending: dict[str, int] = {}
        for effect in effects:
            if isinstance(effect, Spp):
                earned[effect.player] = earned.get(effect.player, 0) + effect.amount
                if not spp_later:
                    pending[effect.player] = pending.get(effect.player, 0) + effect.amount
                continue
            if pending:
                self.earn_spp(pending, hirelings)
                pending = {}
            if isinstance(effect, Gold):
                self.move_gold(seq, effect.team, effect.amount, effect.kind, effect.note)
            elif isinstance(effect, Fans):
                team = self.team(effect.team)
                self.change_team(team, fans=team.fans + effect.delta)
            elif isinstance(effect, Trophy):
                self.change_team(self.team(effect.team), trophy=effect.held)
            elif isinstance(effect, Sideline):
                self.change_team(
                    self.team(effect.team),
                    rerolls=effect.rerolls,
                    fans=effect.fans,
                    staff=effect.staff,
                )
            else:
                self.player_effect(effect)
        if pending:
            self.earn_spp(pending, hirelings)
        return earned

    def earn_spp(self, earned: dict[str, int], hirelings: dict[str, Any]) -> None:
        for player_id, amount in earned.items():
            player = self.player(player_id)
            if player is None:
                if player_id in hirelings:
                    hireling = hirelings[player_id]
                    hireling["spp"] = hireling.get("spp", 0) + amount
                continue
            self.change_player(player, **spp_added(player, amount))

    def player_effect(self, effect: Hurt | Leaves | Heals | Forgets) -> None:
        player = self.player(effect.player)
        if player is None:
            return  # a one-game player: nothing carries over
        if isinstance(effect, Forgets):
            skills = tuple(s for s in player.skills if s != effect.skill)
            self.change_player(player, skills=skills)
        elif isinstance(effect, Leaves):
            self.change_player(player, status=effect.status)
        elif isinstance(effect, Hurt):
            for what in effect.effects:
                player = self.change_player(player, **self.injury(player, what, better=False))
        else:
            self.change_player(player, **self.injury(player, effect.what, better=True))

    def injury(self, player: PlayerRow, what: str, better: bool) -> dict[str, Any]:
        """What an injury (or its healing, ``better``) changes in ``player``."""
        if what == "retired":
            return {"status": "active" if better else "retired"}
        if what == "miss_next_game":
            return {"miss_next_game": not better}
        if what == "niggling":
            return {"niggling": max(0, player.niggling - 1 if better else player.niggling + 1)}
        if what == "dead":
            return {"status": "dead"}
        stat = what.lstrip("-")
        new = self.ruleset.changed_characteristic(player, stat, better)
        changes = dict(player.changes)
        changes[stat] = changes.get(stat, 0) + (1 if better else -1)
        return {stat: new, "changes": changes}

    # --- a what-if's copy ----------------------------------------------------------------------

    def clone(self, memo: dict[int, Any] | None = None) -> Fold:
        """A fold that starts where this one stands and goes its own way: a Monte Carlo
        sample of a what-if starts from one. Total: every attribute is copied deeply,
        whatever attributes the class has, so one added later needs no list kept up to
        date. Shared: the ruleset (its caches hold read-only answers of its tables); the
        store copies itself (``MemoryStore.copy``, sharing the records until one changes
        them). ``memo`` is
        ``copy.deepcopy``'s: an object holding the fold (a what-if's replayer) passes the
        memo it then deep-copies itself with, so its references to the fold's parts lead to
        the clone's."""
        import copy  # only a what-if clones a fold

        if not isinstance(self.store, MemoryStore):
            raise TypeError("only a fold over a MemoryStore can be cloned")
        memo = {} if memo is None else memo
        memo.setdefault(id(self.ruleset), self.ruleset)
        memo[id(self.store)] = self.store.copy()
        twin: Fold = copy.deepcopy(self, memo)
        return twin


def spp_added(player: PlayerRow, amount: int) -> dict[str, int]:
    """What earning ``amount`` SPP changes in ``player`` (``SPP_ADDED``): his SPP to spend,
    and those he has earned in all."""
    return {"spp": player.spp + amount, "spp_earned": player.spp_earned + amount}


SPP_ADDED = ("spp", "spp_earned")
"""The fields ``spp_added`` changes (``Fold.valued`` asks whether a value reads them)."""


Applier = Callable[[Fold, Any], None]


@cache
def appliers() -> dict[type[LedgerEvent], Applier]:
    """Each event type's applier (``ledger.projections.appliers.APPLIERS``, the table
    itself), imported on the first event: the appliers need ``Fold``'s methods, so this
    module cannot import them at its top, and an import statement in ``Fold.apply`` cost
    more than the rest of its bookkeeping."""
    from ledger.projections.appliers import APPLIERS

    return APPLIERS


def amended(event: LedgerEvent, correction: EventCorrected) -> LedgerEvent:
    data = {**event.model_dump(), **correction.amendment}
    return type(event).model_validate(data)


def corrections_of(events: Iterable[LedgerEvent]) -> dict[int, EventCorrected]:
    """The latest correction of each corrected event (a later one supersedes)."""
    found: dict[int, EventCorrected] = {}
    for event in events:
        if isinstance(event, EventCorrected):
            found[event.target] = event
    return found


def fold(events: list[LedgerEvent], ruleset: Ruleset, native: bool = True) -> MemoryStore:
    """Fold a whole league log in memory: the pure form used by tests and what-if."""
    store = MemoryStore()
    if not events:
        return store
    Fold(store, ruleset, str(events[0].originator_id), native, corrections_of(events)).apply_all(
        events
    )
    return store
