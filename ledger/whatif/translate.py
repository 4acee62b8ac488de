"""Puts each event of a league's log in the target edition's terms, before the fold sees it.

The translation depends only on the log and the mapping tables (ledger/whatif/mappings),
never on the replay's state or dice, so it is done once per what-if and shared by every
Monte Carlo sample. What depends on the replay's state (a position limit reached, a
purchase the treasury cannot pay) is decided later by ``ledger.whatif.policies``.

A fact that cannot be mapped is a divergence, never a crash: a team list with no
equivalent plays the nearest one (or Humans), a position without one is hired as the
list's lineman, a star the edition does not have is not hired, a casualty effect the
edition does not have (a BB2025 -1 PA under LRB6) is dropped and the rest of the casualty
stands.

Worked example: ``PlayerHired(team="rats", position="clanrat")`` of a BB2025 Skaven team
is, for lrb6-zal, the same event with ``position="lineman"``; for dz3 a BB2025 Skaven
``blitzer`` becomes a ``storm_vermin``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Unpack

from ledger.domain import events as ev
from ledger.domain.values import Casualty, Hireling, TeamSheet
from ledger.errors import LedgerError
from ledger.projections.fold import amended, corrections_of
from ledger.rules.protocol import Ruleset
from ledger.rules.schema import Position, TeamList
from ledger.whatif import mapping
from ledger.whatif.divergence import Details, Divergence

FALLBACK_LIST = "human"
"""The list a team plays when the tables know no equivalent: every edition has Humans."""


@dataclass(frozen=True)
class Step:
    """One event of the log as the replay will meet it."""

    original: ev.LedgerEvent
    event: ev.LedgerEvent | None
    """The event in the target's terms; ``None`` when nothing of it applies there."""
    voided: ev.EventCorrected | None = None
    """The correction that voided it, if one did."""
    notes: tuple[Divergence, ...] = ()


def lineman(team_list: TeamList) -> Position:
    """The list's lineman: the position with the highest maximum, then the cheapest."""
    return min(team_list.positions, key=lambda p: (-p.max, p.cost))


@dataclass
class Translator:
    source: Ruleset
    target: Ruleset
    rows: dict[str, mapping.TeamRow | None] = field(default_factory=dict)
    """The concordance row each team's list was mapped by."""
    rosters: dict[str, str] = field(default_factory=dict)
    """Each team's list in the target edition."""
    notes: list[Divergence] = field(default_factory=list)

    @property
    def identical(self) -> bool:
        return self.source.id == self.target.id

    def translate_log(self, events: Iterable[ev.LedgerEvent]) -> list[Step]:
        log = list(events)
        return list(self.steps(log, corrections_of(log)))

    def steps(
        self, events: Iterable[ev.LedgerEvent], corrections: Mapping[int, ev.EventCorrected]
    ) -> Iterator[Step]:
        """The steps of ``events`` one at a time; ``corrections`` are every correction of the
        log, read beforehand (a correction comes after the event it corrects)."""
        for event in events:
            correction = corrections.get(event.seq)
            if correction is not None and correction.action == "void":
                yield Step(event, None, voided=correction)
                continue
            read = amended(event, correction) if correction is not None else event
            self.notes = []
            translated = self.translate(read)
            yield Step(event, translated, notes=tuple(self.notes))

    def note(self, event: ev.LedgerEvent, **details: Unpack[Details]) -> None:
        self.notes.append(Divergence.of(event, **details))

    def translate(self, event: ev.LedgerEvent) -> ev.LedgerEvent | None:
        if isinstance(event, ev.LeagueCreated):
            options = self.target.options.model_dump(mode="json")
            return event.model_copy(update={"ruleset": self.target.id, "options": options})
        if isinstance(event, ev.TeamRegistered):
            return self.team_registered(event)
        if self.identical:
            return event
        if isinstance(event, ev.PostGameClosed) and not self.target.post_game_closes:
            return None  # the target's post-game sequence has no closing step (nor its rolls)
        if isinstance(event, ev.PlayerHired):
            return self.player_hired(event)
        if isinstance(event, ev.SidelinePurchased):
            return self.purchases(event)
        if isinstance(event, ev.SidelineReleased):
            return self.release(event)
        if isinstance(event, ev.PlayerAdvanced) and event.skill:
            renamed = mapping.skill(self.source.id, self.target.id, event.skill)
            return event.model_copy(update={"skill": renamed})
        if isinstance(event, ev.MatchRecorded):
            return self.match(event)
        if isinstance(event, ev.CardPlayed) and event.casualty is not None:
            read = self.casualty(event, event.casualty, event.against)
            return event.model_copy(update={"casualty": read})
        return event

    # --- teams and players ------------------------------------------------------------------

    def team_registered(self, event: ev.TeamRegistered) -> ev.TeamRegistered:
        roster, row = self.team_list(event)
        self.rows[event.team], self.rosters[event.team] = row, roster
        treasury = event.treasury
        if treasury == self.source.start().treasury:
            treasury = self.target.start().treasury
        return event.model_copy(update={"roster": roster, "treasury": treasury})

    def team_list(self, event: ev.TeamRegistered) -> tuple[str, mapping.TeamRow | None]:
        known = self.target.catalogue.team_lists()
        same = self.identical or mapping.same_family(self.source.id, self.target.id)
        if same and event.roster in known:
            return event.roster, None
        found = mapping.team_list(self.source.id, self.target.id, event.roster)
        if found is not None and found.name in known:
            if found.approx:
                self.note(
                    event,
                    rule="team-list",
                    reason=f"{self.target.name} has no {event.roster} list",
                    policy="nearest-list",
                    action=f"plays as {known[found.name].name} ({found.name})",
                )
            return found.name, found.row
        self.note(
            event,
            rule="team-list",
            reason=f"no {self.target.name} list corresponds to {event.roster}",
            policy="nearest-list",
            action=f"plays as {known[FALLBACK_LIST].name} ({FALLBACK_LIST})",
        )
        return FALLBACK_LIST, None

    def position(self, event: ev.LedgerEvent, team: str, position_id: str, who: str) -> str:
        """The target position for a one-game player of ``team`` (``who``: his id, for the
        divergence): one of the team's own list, as a hireling names no ally list."""
        return self.placed(event, team, position_id, who, allies=False)[0]

    def placed(
        self,
        event: ev.LedgerEvent,
        team: str,
        position_id: str,
        who: str,
        from_list: str | None = None,
        *,
        allies: bool = True,
    ) -> tuple[str, str | None]:
        """The target position for a source position of ``team`` (drawn from the ally
        list ``from_list``, if given), and the ally list the target draws it from (None:
        the team's own); the lineman, noted, when the target has nothing like it."""
        team_list = self.target.catalogue.team_list(self.rosters[team])
        for mapped in self.candidates(team, position_id, from_list):
            ally, _, mapped_id = mapped.rpartition(".")
            if not ally and team_list.position(mapped_id) is not None:
                return mapped_id, None
            if ally and allies and self.ally_has(team_list, ally, mapped_id):
                if ally != from_list:
                    self.note(
                        event,
                        team=team,
                        subject=who,
                        rule="position",
                        reason=(
                            f"the {team_list.name} list has no {position_id}:"
                            f" {self.target.name} teams take one as an ally"
                        ),
                        policy="map-by-table",
                        action=f"hired from the {ally} list ({mapped_id}) as an ally",
                    )
                return mapped_id, ally
        fallback = lineman(team_list)
        self.note(
            event,
            team=team,
            subject=who,
            rule="position",
            reason=f"the {team_list.name} list has no position like {position_id}",
            policy="lineman-instead",
            action=f"plays as {fallback.name}",
        )
        return fallback.id, None

    def candidates(self, team: str, position_id: str, from_list: str | None) -> list[str]:
        """The target's names for a position, best first: as drawn from its ally list
        (``ogre.ogre``), then by its id alone."""
        keys = [f"{from_list}.{position_id}"] if from_list else []
        keys.append(position_id)
        if mapping.same_family(self.source.id, self.target.id):
            return keys
        row = self.rows.get(team)
        found = (mapping.position(row, self.source.id, self.target.id, key) for key in keys)
        return [name for name in found if name is not None]

    def ally_has(self, team_list: TeamList, ally: str, position_id: str) -> bool:
        """Whether the target lets a team of ``team_list`` draw ``position_id`` from the
        list ``ally`` (gold4's Allied Teams Table; no edition else has allies)."""
        if ally not in self.target.catalogue.allies(team_list.id):
            return False
        lists = self.target.catalogue.team_lists()
        return ally in lists and lists[ally].position(position_id) is not None

    def player_hired(self, event: ev.PlayerHired) -> ev.PlayerHired | None:
        if event.kind == "star" and event.star:
            star = self.star(event, event.star, event.player)
            if star is None:
                return None
            return event.model_copy(update={"star": star, "position": star, "from_list": None})
        before = len(self.notes)
        position, ally = self.placed(
            event, event.team, event.position, event.player, event.from_list
        )
        if event.from_list is not None and ally is None:
            own = Divergence.of(
                event,
                subject=event.player,
                rule="position",
                reason=f"{self.target.name} teams take no players from another list",
                policy="map-by-table",
                action=f"{event.name} is hired from the team's own list",
            )
            self.notes.insert(before, own)  # said before what the own list makes of him
        if event.equipment:
            self.note(
                event,
                subject=event.player,
                rule="item",
                reason=f"{', '.join(event.equipment)}: no such equipment in {self.target.name}",
                policy="skip",
                action=f"{event.name} is hired without it",
            )
        update = {"position": position, "from_list": ally, "equipment": ()}
        return event.model_copy(update=update)

    def star(self, event: ev.LedgerEvent, star_id: str, who: str) -> str | None:
        mapped = mapping.star(self.source.id, self.target.id, star_id)
        try:
            self.target.catalogue.star(mapped)
        except LedgerError:
            self.note(
                event,
                subject=who,
                rule="star",
                reason=f"{self.target.name} has no star player {star_id}",
                policy="skip",
                action="not hired; his price stays in the treasury",
            )
            return None
        return mapped

    # --- the sideline -------------------------------------------------------------------------

    def purchases(self, event: ev.SidelinePurchased) -> ev.SidelinePurchased | None:
        kept = []
        for purchase in event.purchases:
            mapped = mapping.item(self.source.id, self.target.id, purchase.item)
            if mapped is None:
                self.note(
                    event,
                    subject=purchase.item,
                    rule="item",
                    reason=f"{self.target.name} sells nothing like {purchase.item}",
                    policy="skip",
                    action="not bought; the gold stays in the treasury",
                )
                continue
            kept.append(purchase.model_copy(update={"item": mapped}))
        return event.model_copy(update={"purchases": tuple(kept)}) if kept else None

    def release(self, event: ev.SidelineReleased) -> ev.SidelineReleased | None:
        mapped = mapping.item(self.source.id, self.target.id, event.item)
        return event.model_copy(update={"item": mapped}) if mapped is not None else None

    # --- matches ------------------------------------------------------------------------------

    def match(self, event: ev.MatchRecorded) -> ev.MatchRecorded:
        update: dict[str, object] = {
            "casualties": tuple(
                self.casualty(event, c, victim_team(event, c.victim)) for c in event.casualties
            ),
            "home": self.sheet(event, event.home),
            "away": self.sheet(event, event.away),
            "others": tuple(self.sheet(event, s) for s in event.others),
        }
        if event.concession is not None:
            kind = mapping.concession(self.target.id, event.concession.kind)
            update["concession"] = event.concession.model_copy(update={"kind": kind})
        return event.model_copy(update=update)

    def sheet(self, event: ev.MatchRecorded, sheet: TeamSheet) -> TeamSheet:
        if not sheet.hirelings or sheet.team not in self.rosters:
            return sheet
        hirelings = tuple(self.hireling(event, sheet.team, h) for h in sheet.hirelings)
        return sheet.model_copy(update={"hirelings": hirelings})

    def hireling(self, event: ev.MatchRecorded, team: str, hireling: Hireling) -> Hireling:
        if hireling.kind == "star" and hireling.star:
            mapped = mapping.star(self.source.id, self.target.id, hireling.star)
            return hireling.model_copy(update={"star": mapped})
        if hireling.position is None:
            return hireling
        position = self.position(event, team, hireling.position, hireling.id)
        return hireling.model_copy(update={"position": position})

    def casualty(self, event: ev.LedgerEvent, casualty: Casualty, team: str | None) -> Casualty:
        read, dropped = mapping.reread(self.target.id, casualty)
        for reason in dropped:
            self.note(
                event,
                team=team,
                subject=casualty.victim,
                rule="casualty",
                reason=f"{casualty.outcome}: {reason}",
                policy="map-by-table",
                action=f"read as {read.outcome} ({', '.join(read.effects) or 'no lasting effect'})",
            )
        return read


def victim_team(event: ev.MatchRecorded, victim: str) -> str | None:
    """The team whose sheet names the victim (reports add every victim to his sheet)."""
    for sheet in event.sheets():
        if any(p.player == victim for p in sheet.players) or any(
            h.id == victim for h in sheet.hirelings
        ):
            return sheet.team
    return None
