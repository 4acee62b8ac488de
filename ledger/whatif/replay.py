"""One replay of a league's log under a target ruleset: the same fold, a disposable store.

``replay`` is the what-if of DESIGN.md decisions 2-4. The events, put in the target's terms
by ``ledger.whatif.translate``, go through the very ``Fold`` the live read models use, into
a ``MemoryStore`` that nothing else sees; before each decision the policies
(``ledger.whatif.policies``, ``ledger.whatif.matchday``) ask the target whether it allows
it. Decisions that wait (a hire the treasury cannot pay yet, an advancement not yet due)
are retried after each event that may allow them. Dice come from the fold's ``DiceBox``,
seeded with the replay's seed: recorded rolls of the same purpose and dice are reused, the
others drawn and counted per team.

Under the league's own ruleset and options the replay is the live fold itself (``native``):
no translation, no policy, every table equal to the read models.

Worked example: ``replay(events, find_ruleset("dz3"), seed=0)`` of a BB2025 league gives an
``Outcome`` whose store holds the dz3 rosters, standings and treasuries, the divergences,
and e.g. ``simulated["reavers"] == 24`` rolls the log did not hold.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ledger.domain import events as ev
from ledger.domain.state import LeagueRow, Line, MatchRow, PlayerRow, TeamRow, roster_of
from ledger.errors import LedgerError
from ledger.projections.fold import MILESTONES, Fold, corrections_of
from ledger.projections.gather import hire_rows
from ledger.projections.shapes import LineRow
from ledger.projections.store import MemoryStore
from ledger.rules import find_ruleset
from ledger.rules.dice import DiceBox
from ledger.rules.protocol import Ruleset
from ledger.whatif.divergence import Divergence
from ledger.whatif.matchday import Matchday
from ledger.whatif.policies import Policies
from ledger.whatif.translate import Step, Translator

GOLD_EVENTS = (
    ev.MatchRecorded,
    ev.SeasonClosed,
    ev.TreasuryAdjusted,
    ev.CardPlayed,
    ev.TeamRedrafted,
    ev.PostGameClosed,
)
"""Events after which a hire waiting for the treasury is tried again."""


@dataclass
class Outcome:
    """A finished replay: its store and what it had to say. Its dice are counted per team
    when asked: whose each subject is takes a walk over every player and match, which a
    Monte Carlo sample, reading only its tables, never needs (0.2 ms of a 22 ms sample)."""

    store: MemoryStore
    league_id: str
    divergences: list[Divergence]
    simulated_by_subject: dict[str, int]
    """Rolls drawn by the generator, per team or player (``""``: no subject)."""
    recorded_by_subject: dict[str, int]
    """Recorded rolls used, likewise."""

    @cached_property
    def simulated(self) -> dict[str, int]:
        """Rolls drawn by the generator, per team (``""``: the league's own)."""
        return per_team(self.simulated_by_subject, self.owners)

    @cached_property
    def recorded(self) -> dict[str, int]:
        """Recorded rolls used, per team."""
        return per_team(self.recorded_by_subject, self.owners)

    @cached_property
    def owners(self) -> dict[str, str]:
        """Whose each dice subject is (``team_of``)."""
        return team_of(self.store, self.league_id)


def source_ruleset(events: Sequence[ev.LedgerEvent]) -> Ruleset:
    created = events[0]
    if not isinstance(created, ev.LeagueCreated):
        raise LedgerError("a league's log starts with its creation")
    return find_ruleset(created.ruleset, created.options)


def is_native(source: Ruleset, target: Ruleset) -> bool:
    """The league's own ruleset with its own options."""
    same = source.options.model_dump(mode="json") == target.options.model_dump(mode="json")
    return source.id == target.id and same


def translate(events: Sequence[ev.LedgerEvent], target: Ruleset) -> list[Step]:
    return Translator(source_ruleset(events), target).translate_log(events)


def replay(
    events: Sequence[ev.LedgerEvent],
    target: Ruleset,
    seed: int = 0,
    explain: bool = True,
    steps: Sequence[Step] | None = None,
) -> Outcome:
    """Replay a league's whole log under ``target``, its audit lines (treasury statements,
    games, event references) kept in the outcome's store as the live ledger keeps them;
    ``steps`` may be given pre-translated. A comparison uses ``replay_figures``."""
    source = source_ruleset(events)
    league_id = str(events[0].originator_id)
    if is_native(source, target):
        return native(events, corrections_of(events), target, league_id, seed)
    found = steps if steps is not None else translate(events, target)
    return Replayer(source, target, league_id, seed, explain).run(found)


def replay_figures(
    events: Iterable[ev.LedgerEvent],
    corrections: Mapping[int, ev.EventCorrected],
    source: Ruleset,
    target: Ruleset,
    league_id: str,
    seed: int = 0,
) -> Outcome:
    """``replay`` for a comparison: figures only, no audit line (a long league's lines
    outweigh the rest of its state: 390,065, about 0.5 GB, for 84,596 events), and the log
    read one event at a time, never held whole (its decoded events would be more still);
    ``corrections`` are the log's, read beforehand."""
    if is_native(source, target):
        return native(events, corrections, target, league_id, seed, lines=False)
    replayer = Replayer(source, target, league_id, seed, explain=True, lines=False)
    return replayer.run(Translator(source, target).steps(events, corrections))


def native(
    events: Iterable[ev.LedgerEvent],
    corrections: Mapping[int, ev.EventCorrected],
    ruleset: Ruleset,
    league_id: str,
    seed: int,
    lines: bool = True,
) -> Outcome:
    fold = memory_fold(ruleset, league_id, True, Fold if lines else FiguresFold, corrections)
    fold.dice.seed = seed
    fold.apply_all(events)
    return finished(fold, [])


class FiguresFold(Fold):
    """The same fold without its audit trail (the event references of ``ledger history``):
    a comparison reads only the figures, and its lines go nowhere."""

    keeps_lines = False


class SampleFold(FiguresFold):
    """A Monte Carlo sample's fold: the figures without the players' records of play,
    which no edition's rule and no figure of a sample reads (``Fold.counts_play``)."""

    counts_play = False
    position: tuple[int, str] | None = None
    """The last event folded (its number and hash), written to the league row once, when
    the sample ends (``finished``)."""

    def advance_league(self, event: ev.LedgerEvent) -> None:
        """Noted, not written: the league row's version and hash say where the log stands,
        which no figure of a sample reads while it runs; writing them after each of a
        season's 200 events was 2% of a sample."""
        self.position = (event.seq, event.hash)

    def write_position(self) -> None:
        if self.position is not None:
            self.stand_at(*self.position)


def memory_fold(
    ruleset: Ruleset,
    league_id: str,
    native: bool,
    kind: type[Fold],
    corrections: Mapping[int, ev.EventCorrected] | None = None,
) -> Fold:
    """A fold of ``kind`` (``Fold``, ``FiguresFold`` or ``SampleFold``) into a store of its
    own in memory, keeping its audit lines there if it keeps any."""
    store = MemoryStore() if kind.keeps_lines else MemoryStore(sink=discard)
    return kind(store, ruleset, league_id, native=native, corrections=corrections or {})


def discard(kind: type[Line], row: LineRow) -> None:
    return


class WatchedDice(DiceBox):
    """The fold's dice, noting whether the generator has been asked for a roll yet."""

    drawn: bool = False

    def draw(self, purpose: str, dice: str, subject: str | None = None) -> tuple[int, ...]:
        self.drawn = True
        return super().draw(purpose, dice, subject)


@dataclass
class Replayer:
    source: Ruleset
    target: Ruleset
    league_id: str
    seed: int
    explain: bool
    """False for a Monte Carlo sample: figures only (no diagnostics, no audit lines, no
    records of play: ``SampleFold``)."""
    lines: bool = True
    """Whether the fold keeps its audit lines (not for a comparison: ``replay_figures``);
    never without ``explain``."""
    fold: Fold = field(init=False)
    policies: Policies = field(init=False)
    matchday: Matchday = field(init=False)
    notes: list[Divergence] = field(default_factory=list)
    """The translation's divergences of the steps played so far."""

    def __post_init__(self) -> None:
        self.fold = memory_fold(self.target, self.league_id, False, self.fold_kind())
        self.fold.dice = WatchedDice(league=self.league_id, seed=self.seed)
        self.policies = Policies(self.fold, self.source, self.explain)
        closes = self.target.post_game_closes and not self.source.post_game_closes
        self.matchday = Matchday(self.policies, closes)

    def fold_kind(self) -> type[Fold]:
        if not self.explain:
            return SampleFold
        return Fold if self.lines else FiguresFold

    def run(self, steps: Iterable[Step]) -> Outcome:
        last = 0
        for step in steps:
            self.play((step,))
            last = step.original.seq
        return self.finish(last)

    def play(self, steps: Sequence[Step]) -> None:
        for step in steps:
            self.notes += step.notes
            self.step(step)

    def finish(self, last: int) -> Outcome:
        self.matchday.close_all(last)
        self.give_up()
        self.fold.refresh_touched(last, True)
        return finished(self.fold, self.notes + self.policies.divergences)

    def clone(self, seed: int) -> Replayer:
        """A replayer that goes on from where this one stands, with its own dice. Total: its
        fold is cloned (``Fold.clone``), then the rest of it is deep-copied with the same
        memo, so that whatever holds the fold or its dice (the policies, the advancement
        fitter, the matchday) holds the clone's. The rulesets are immutable and shared."""
        memo: dict[int, Any] = {id(self.source): self.source, id(self.target): self.target}
        self.fold.clone(memo)
        twin = copy.deepcopy(self, memo)
        twin.seed = twin.fold.dice.seed = seed
        return twin

    def step(self, step: Step) -> None:
        if step.voided is not None:
            self.fold.corrections = {step.original.seq: step.voided}
            self.fold.apply(step.original)
            return
        event = step.event
        if event is None:
            self.fold.advance_league(step.original)
            return
        self.matchday.before(event)
        decided = self.policies.decide(event)
        if isinstance(decided, ev.MatchRecorded):
            decided = self.matchday.match(decided)
        if decided is None:
            self.fold.advance_league(step.original)
            self.refresh(event)
        else:
            self.apply(decided)
        self.after(event)

    def apply(self, event: ev.LedgerEvent) -> None:
        try:
            self.fold.apply(event)
        except LedgerError as error:  # the target cannot read this fact at all
            self.policies.diverge(event, "edition", error.message, "skip", "left out")
            self.fold.advance_league(event)

    def after(self, event: ev.LedgerEvent) -> None:
        if isinstance(event, ev.MatchRecorded):
            self.matchday.after(event)
            for sheet in event.sheets():
                self.retry_advances(sheet.team, event.seq)
        if isinstance(event, GOLD_EVENTS) and self.policies.hires:
            self.retry_hires(event.seq)
        if self.fold.touched:
            self.refresh(event)

    def refresh(self, event: ev.LedgerEvent) -> None:
        self.fold.refresh_touched(event.seq, isinstance(event, MILESTONES))

    # --- decisions that waited --------------------------------------------------------------

    def retry_hires(self, at: int) -> None:
        for hire in list(self.policies.hires):
            team = self.fold.team(hire.team)
            players = roster_of(self.fold.store, self.league_id, hire.team)
            rows = hire_rows(self.fold.store, self.league_id, team, hire, players)
            if self.policies.short_of_gold(hire, team, rows):
                continue
            self.policies.hires.remove(hire)
            if self.policies.no_room(hire, team, players):
                self.policies.resolve(hire.seq, "not hired: no room left on the roster", "skip")
                continue
            self.policies.resolve(hire.seq, f"hired later (at event {at})")
            self.policies.apply_late(hire, at)

    def retry_advances(self, team: str, at: int) -> None:
        for player_id in sorted(self.policies.advances):
            queue = self.policies.advances[player_id]
            while queue and queue[0].team == team:
                player = self.fold.player(player_id)
                if player is None or player.status != "active":
                    break
                chosen = self.policies.try_advance(queue[0], player, waiting=True)
                if chosen is None:
                    break
                queue.pop(0)
                self.policies.apply_late(chosen, at)
            if not queue:
                del self.policies.advances[player_id]

    def give_up(self) -> None:
        for hire in self.policies.hires:
            never = "never hired: the treasury never allowed it"
            self.policies.resolve(hire.seq, never, "never-applied")
        for queue in self.policies.advances.values():
            for advance in queue:
                self.policies.resolve(advance.seq, "never taken", "never-applied")
        self.policies.hires.clear()
        self.policies.advances.clear()


def finished(fold: Fold, divergences: list[Divergence]) -> Outcome:
    if isinstance(fold, SampleFold):
        fold.write_position()
    store = fold.store
    assert isinstance(store, MemoryStore)
    return Outcome(
        store=store,
        league_id=fold.league_id,
        divergences=sorted(divergences, key=Divergence.sort_key),
        simulated_by_subject=dict(fold.dice.simulated),
        recorded_by_subject=dict(fold.dice.recorded),
    )


def team_of(store: MemoryStore, league_id: str) -> dict[str, str]:
    """Whose each dice subject is: teams are their own, players and hirelings their team's."""
    owners = {t.team_id: t.team_id for t in store.select(TeamRow, league_id=league_id)}
    owners |= {p.player_id: p.team_id for p in store.select(PlayerRow, league_id=league_id)}
    for match in store.select(MatchRow, league_id=league_id):
        owners |= {h: str(v.get("team", "")) for h, v in match.hirelings.items()}
    return owners


def per_team(counts: dict[str, int], owners: dict[str, str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for subject, count in counts.items():
        owner = owners.get(subject, "")
        found[owner] = found.get(owner, 0) + count
    return dict(sorted(found.items()))


def league_row(outcome: Outcome) -> LeagueRow:
    row = outcome.store.get(LeagueRow, outcome.league_id)
    assert row is not None  # every log starts with the league's creation
    return row
