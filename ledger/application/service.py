"""The league ledger as an eventsourcing ``Application``: commands in, facts appended.

Every command runs the same loop: bring the read models up to the head of the log, load
the league's log (cheap: a snapshot and a few events), check that both are at the same
version, validate against the league's ruleset, append all of the command's facts in one
save, and catch the read models up again. If another writer appended in between, the
save fails on the log's version and the command starts over with fresh state, up to a few
times; then it is refused. Nothing is ever written by a command that raised.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Any, ClassVar, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.domain import Snapshot
from eventsourcing.persistence import Recording
from eventsourcing.utils import get_topic

from ledger.application import transfer
from ledger.application.access import Actor
from ledger.application.commands import one_line, printable
from ledger.application.context import Context, drafting
from ledger.application.keyed_dice import dice_key
from ledger.application.source import StoreSource
from ledger.application.unit import Plan, SitePlan, Stale, UnitOfWork, retried
from ledger.domain.events import LedgerEvent
from ledger.domain.log import SITE_ID, ChainedLog, LeagueLog, SiteLog, league_id
from ledger.domain.state import FaultLine, LeagueRow
from ledger.domain.values import PointsScheme
from ledger.errors import (
    InvalidOption,
    LeagueExists,
    LeagueUnreadable,
    LedgerError,
    UnknownLeague,
)
from ledger.persistence.mapper import LedgerMapper
from ledger.projections import leagues
from ledger.projections.runner import ReadModels
from ledger.projections.sql import SqlStore
from ledger.projections.store import Store
from ledger.rules import find_ruleset
from ledger.words import possessive

if TYPE_CHECKING:
    from ledger.application.commands import Command
    from ledger.application.handlers import Handler

R = TypeVar("R")


class LeagueLedger(Application[UUID]):
    name = "Ledger"
    env: ClassVar[dict[str, str]] = {"MAPPER_TOPIC": get_topic(LedgerMapper)}
    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {LeagueLog: 100}
    snapshot_class = Snapshot

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        *,
        read_models: ReadModels | None = None,
        handlers: Mapping[type[Command[Any]], Handler] | None = None,
        roller: random.Random | None = None,
    ) -> None:
        super().__init__(env)
        self.source = StoreSource(self.recorder, self.mapper, self.env)
        if read_models is None:
            raise ValueError("LeagueLedger needs its read models (see ledger.bootstrap)")
        self.read_models = read_models
        if handlers is None:
            raise ValueError("LeagueLedger needs its command handlers (see ledger.bootstrap)")
        self.handlers = handlers
        """Each command's handler (``ledger.application.handlers.HANDLERS``)."""
        self.roller = roller or random.SystemRandom()
        """Where the ledger's own dice come from (``--roll``); seeded for synthetic leagues."""
        self.conflicts = 0
        """Saves refused by a concurrent writer and retried (for tests and benchmarks)."""
        self.local = threading.local()
        """What belongs to the thread running a command (see ``unit``)."""
        self.actor: Actor | None = None
        """Who the commands now run for (``acting``): their events record its account."""
        self.dice_key: bytes | None = None
        """The store's dice key, once read (``read_dice_key``)."""

    def read_dice_key(self) -> bytes:
        """The store's dice key (``keyed_dice``), read once it is first needed."""
        if self.dice_key is None:
            self.dice_key = dice_key(self.read_models.engine)
        return self.dice_key

    # --- the command loop ----------------------------------------------------------------

    def catch_up(self) -> int:
        return self.read_models.catch_up(self.source)

    def run(
        self, league: str, plan: Plan, *, by: str, reason: str | None = None
    ) -> list[LedgerEvent]:
        """Validate ``plan`` against fresh state, rehearse its facts and append them
        atomically; inside ``atomic()``, as one more command of that unit."""
        if self.unit is not None:
            return self.unit.command(league, plan, by=by, reason=reason)

        def attempt() -> list[LedgerEvent]:
            with self.atomic() as unit:
                return unit.command(league, plan, by=by, reason=reason)

        return retried(
            attempt,
            f"league {league} kept changing while this command ran; nothing was recorded,"
            " try again",
            lost=self.lost_a_race,
        )

    def run_site(self, plan: SitePlan, *, by: str, reason: str | None = None) -> list[LedgerEvent]:
        """A command on the site's log (accounts and admins), like ``run`` for a league."""
        if self.unit is not None:
            return self.unit.site_command(plan, by=by, reason=reason)

        def attempt() -> list[LedgerEvent]:
            with self.atomic() as unit:
                return unit.site_command(plan, by=by, reason=reason)

        return retried(
            attempt,
            "the site's accounts kept changing; nothing was recorded, try again",
            lost=self.lost_a_race,
        )

    def lost_a_race(self) -> None:
        self.conflicts += 1

    @property
    def unit(self) -> UnitOfWork | None:
        """The unit of work this thread's commands now run in (``atomic``), if any. A unit
        belongs to the thread that opened it: the service reads on other threads while a
        write runs, and they must see the stored read models (through connections of their
        own), not the write's rehearsal."""
        unit: UnitOfWork | None = getattr(self.local, "unit", None)
        return unit

    @unit.setter
    def unit(self, unit: UnitOfWork | None) -> None:
        self.local.unit = unit

    @property
    def account(self) -> str | None:
        """The account commands are asked from now, if any (``acting``)."""
        return self.actor.account if self.actor is not None else None

    @contextmanager
    def acting(self, actor: Actor) -> Iterator[None]:
        """Commands in the block are recorded as caused by ``actor`` (its account, role,
        where it came from), whatever name they are given."""
        before, self.actor = self.actor, actor
        try:
            yield
        finally:
            self.actor = before

    def load_site(self) -> SiteLog | None:
        """The site's log, or None before its first account."""
        try:
            log: SiteLog = self.repository.get(SITE_ID)
        except AggregateNotFoundError:
            return None
        assert isinstance(log, SiteLog)
        return log

    def save_within(self, *logs: ChainedLog) -> tuple[list[Recording[UUID]], Callable[[], None]]:
        """``save``'s append, made while the recorder is lent a cursor inside the read
        models' open transaction (``Lending.lent_cursor``): its recordings, and what
        ``save`` does after the append (the snapshots, which read the log through the
        library's own connection, and its notices), to be called once that transaction
        has committed."""
        processing: ProcessingEvent[UUID] = ProcessingEvent()
        processing.collect_events(*logs)
        recordings = self._record(processing)

        def committed() -> None:
            self._take_snapshots(processing)
            self._notify(recordings)
            self.notify(processing.events)

        return recordings, committed

    @contextmanager
    def atomic(self) -> Iterator[UnitOfWork]:
        """All the commands run inside the block, or none: each is validated and rehearsed
        as it runs (so the next one sees it), and all their events are appended in one
        store transaction when the block ends without an exception (ledger/application/
        unit.py). A block inside another is part of the outer one."""
        if self.unit is not None:
            yield self.unit
            return
        self.catch_up()
        self.unit = UnitOfWork(self)
        try:
            yield self.unit
            self.unit.commit()
        finally:
            self.unit = None

    def open_league(
        self, slug: str, *, by: str, reason: str | None = None, **fields: Any
    ) -> LedgerEvent:
        try:
            with self.atomic() as unit, drafting():  # a slug too long: the caller's input
                return unit.open(slug, by=by, reason=reason, fields=fields)
        except Stale:
            raise LeagueExists(f"a league '{slug}' already exists in this ledger") from None

    def load_log(self, league: str) -> LeagueLog:
        """The league's log as appending needs it (its version and last hash)."""
        try:
            log: LeagueLog = self.repository.get(league_id(league))
        except AggregateNotFoundError:
            raise self.unknown_league(league) from None
        except AssertionError:  # the library's answer to a first event that did not read
            raise LeagueUnreadable(
                f"league {possessive(league)} first event cannot be read: 'ledger audit verify' and"
                " 'ledger export' still work on it"
            ) from None
        assert isinstance(log, LeagueLog)
        return log

    def import_log(
        self, stream: IO[bytes], progress: Callable[[int], None] | None = None
    ) -> tuple[str, int]:
        """Restore an exported league (ledger/application/transfer.py) and fold it
        (``progress`` is told of each page of events folded)."""
        slug, count = transfer.import_league(self.recorder, self.mapper, stream)
        self.read_models.refresh(self.source, progress)
        return slug, count

    # --- reading ---------------------------------------------------------------------------

    def view(self) -> Store:
        """The read models; inside ``atomic()``, as the unit's commands so far left them
        (so that a script's second line finds the league its first line created). Callers
        read it through the store protocol, whatever holds the rows (SQL, or memory)."""
        if self.unit is not None:
            return self.unit.store
        return SqlStore(self.read_models.engine)

    def league_row(self, league: str, view: Store | None = None) -> LeagueRow:
        return leagues.league_row(view or self.view(), league)

    def context(self, league: str) -> Context:
        view = self.view()
        row = self.league_row(league, view)
        ruleset = find_ruleset(row.ruleset, row.options)
        return Context(
            view=view, league=row, ruleset=ruleset, roller=self.roller, dice_key=self.read_dice_key
        )

    def faults(self, league: str) -> list[FaultLine]:
        """The league's stored events that could not be read or applied, passed over by
        the read models until they are voided (ledger/projections/faults.py)."""
        return list(self.view().select(FaultLine, league_id=str(league_id(league))))

    def leagues(self) -> list[LeagueRow]:
        return leagues.leagues(self.view())

    def resolve_league(self, given: str | None) -> str:
        """The league a command is about: the one given, or the only one in the ledger."""
        return leagues.resolve_league(self.view(), given)

    def unknown_league(self, league: str) -> UnknownLeague:
        return leagues.unknown_league(self.view(), league)

    # --- commands ----------------------------------------------------------------------------

    def handle(self, command: Command[R], *, by: str, reason: str | None = None) -> R:
        """Run ``command`` through its handler (``handlers.HANDLERS``, installed by the
        composition root) as ``run`` runs a plan, and answer what the command answers."""
        printable(command)
        events = self.run(command.league, self.plan_of(command), by=by, reason=command.why(reason))
        return command.answer(events)

    def plan_of(self, command: Command[Any]) -> Plan:
        """The command's handler, given the command: the plan ``run`` (or a ``Batch``) runs."""
        handler = self.handlers.get(type(command))
        if handler is None:
            raise LedgerError(f"this ledger has no handler for {type(command).__name__}")
        return lambda c: handler(c, command)

    def create_league(
        self,
        slug: str,
        name: str,
        ruleset: str,
        *,
        by: str,
        options: Mapping[str, Any] | None = None,
        points: PointsScheme | None = None,
        reason: str | None = None,
    ) -> LeagueRow:
        one_line("name", name)
        chosen = find_ruleset(ruleset, options)
        if points is not None:
            check_points(points)
        self.open_league(
            slug,
            by=by,
            reason=reason,
            name=name,
            ruleset=chosen.id,
            options=chosen.options.model_dump(mode="json"),
            points=points,
        )
        return self.league_row(slug)


def check_points(points: PointsScheme) -> None:
    """League points as the editions give them (001, League Play: win 3, draw 1, loss 0):
    none negative, a win worth more than a loss, a draw in between. They are fixed in the
    league's first event, which no correction reaches, so nonsense is refused up front."""
    for result, value in (("win", points.win), ("draw", points.draw), ("loss", points.loss)):
        if value < 0:
            raise InvalidOption(f"league points are never negative: a {result} gives {value}")
    if points.win <= points.loss:
        raise InvalidOption(
            f"a win must give more league points than a loss ({points.win} for a win,"
            f" {points.loss} for a loss)"
        )
    if not points.loss <= points.draw <= points.win:
        raise InvalidOption(
            f"a draw gives {points.draw} league points: at most a win's ({points.win}) and at"
            f" least a loss's ({points.loss})"
        )
    for what, names in (("tie-breaker", points.tiebreakers), ("bonus point", points.bonus)):
        twice = next((name for at, name in enumerate(names) if name in names[:at]), None)
        if twice is not None:
            raise InvalidOption(f"each {what} counts once: '{twice}' is named twice")
