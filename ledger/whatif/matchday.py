"""The policies around a recorded match: who may still play, fees, and closing the post-game.

A match is a fact: its score, its casualties and who scored stand in every replay. What
the target edition changes around it:

- a player the replay no longer has (he died, left or was never hired there) takes no part:
  his achievements earn nothing and injuries to him are not booked (policy ``skip``);
- an edition with appearance fees (gold4) asks them before the match: the team pays when
  its treasury allows, else the player earns nothing from it (``pay-or-sit-out``);
- an edition whose post-game sequence ends with a roll of its own (BB2025's Expensive
  Mistakes) closes each team's sequence just before its next game, after its purchases,
  when the log holds no such close (the roll is simulated);
- what the target's match checks would refuse (too many MVPs, a forfeit it does not know)
  stands as recorded and is listed (``kept-as-recorded``).

Worked example: a ZAL league replayed under BB2025 has no ``PostGameClosed`` events; the
replay closes the Reavers' sequence of match m1 just before their match m2, rolling
Expensive Mistakes with the generator (seeded by league, m1's event, purpose, team).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.domain import events as ev
from ledger.domain.state import PlayerRow
from ledger.domain.values import Purchase, TeamSheet
from ledger.errors import LedgerError
from ledger.projections.fold import Fold
from ledger.projections.gather import match_rows
from ledger.rules.asked import Appearance, Report
from ledger.rules.problems import Problem
from ledger.rules.protocol import Feature
from ledger.whatif.policies import Policies


@dataclass
class Matchday:
    policies: Policies
    closes: bool
    """Whether the replay must close post-game sequences the log never closed."""
    open: dict[str, ev.MatchRecorded] = field(default_factory=dict)
    """Per team, the match whose post-game sequence is still open."""

    @property
    def fold(self) -> Fold:
        return self.policies.fold

    def before(self, event: ev.LedgerEvent) -> None:
        """Close the sequences a coming event needs closed."""
        if not self.closes:
            return
        if isinstance(event, ev.MatchRecorded):
            teams = [s.team for s in event.sheets()]
        elif isinstance(event, ev.TeamRedrafted):
            teams = [event.team]
        elif isinstance(event, ev.SeasonClosed):
            teams = sorted(self.open)
        else:
            return
        for team in teams:
            self.close(team, event.seq)

    def close(self, team: str, at: int) -> None:
        match = self.open.pop(team, None)
        if match is None:
            return
        closing = ev.PostGameClosed.model_construct(
            originator_id=match.originator_id,
            originator_version=match.seq,
            timestamp=match.timestamp,
            recorded_by="what-if",
            match=match.match,
            team=team,
            dice=(),
        )
        self.policies.apply_late(closing, at)

    def close_all(self, at: int) -> None:
        for team in sorted(self.open):
            self.close(team, at)

    def after(self, event: ev.MatchRecorded) -> None:
        if self.closes and event.kind != "exhibition":
            for sheet in event.sheets():
                self.open[sheet.team] = event

    # --- the match itself -----------------------------------------------------------------

    def match(self, e: ev.MatchRecorded) -> ev.MatchRecorded:
        players = self.players_of(e)
        gone = absent(players)
        if gone:
            e = self.without_absent(e, players, gone)
        if Feature.APPEARANCE_FEES in self.policies.target.features and e.kind != "unplayed":
            e = self.fees(e, players)
        if self.policies.explain:
            self.checks(e)
        return e

    def players_of(self, e: ev.MatchRecorded) -> dict[str, PlayerRow | None]:
        """The replay's row of every player of the report (``None``: it has no such
        player), asked once per game: who is absent and who asks a fee both read it, and
        paying a fee changes the team, never a player."""
        return self.fold.players_by_id(p.player for s in e.sheets() for p in s.players)

    def without_absent(
        self, e: ev.MatchRecorded, players: dict[str, PlayerRow | None], gone: set[str]
    ) -> ev.MatchRecorded:
        for sheet in e.sheets():
            for performance in sheet.players:
                player = players[performance.player]
                if player is not None and performance.player in gone:
                    self.policies.diverge(
                        e,
                        "player",
                        f"{player.name} is {player.status} in the replay",
                        "skip",
                        f"his part in match {e.match} is left out",
                        player.player_id,
                        sheet.team,
                    )
        return without(e, gone)

    def fees(self, e: ev.MatchRecorded, players: dict[str, PlayerRow | None]) -> ev.MatchRecorded:
        unpaid: set[str] = set()
        for sheet in e.sheets():
            unpaid |= self.pay(e, sheet, players)
        return without(e, unpaid) if unpaid else e

    def pay(
        self, e: ev.MatchRecorded, sheet: TeamSheet, players: dict[str, PlayerRow | None]
    ) -> set[str]:
        """Pay the fees the target asks for this match; the players not paid for."""
        team = self.fold.team(sheet.team)
        paid, treasury = set(team.fees_paid.get(e.match, ())), team.treasury
        lines, unpaid = [], set()
        price = self.policies.target.price  # asked of every player before every game
        for performance in sheet.players:
            player = players[performance.player]
            if player is None or player.player_id in paid:
                continue
            fee = price(Appearance(player))
            if fee <= 0:
                continue
            if fee <= treasury:
                lines.append(Purchase(item=player.player_id, price=fee))
                treasury -= fee
                reason = f"{player.name} asks a fee of {fee:,} the log did not pay"
                action = f"paid before match {e.match}"
            else:
                unpaid.add(player.player_id)
                reason = f"{player.name} asks a fee of {fee:,}; {team.name} have {treasury:,}"
                action = f"not paid: he earns nothing from match {e.match}"
            self.policies.diverge(
                e, "fees", reason, "pay-or-sit-out", action, player.player_id, sheet.team
            )
        if lines:
            payment = ev.AppearanceFeesPaid.model_construct(
                originator_id=e.originator_id,
                originator_version=e.seq,
                timestamp=e.timestamp,
                recorded_by="what-if",
                match=e.match,
                team=sheet.team,
                fees=tuple(lines),
            )
            self.policies.apply_late(payment, e.seq)
        return unpaid

    def checks(self, e: ev.MatchRecorded) -> None:
        target, fold = self.policies.target, self.fold
        try:
            rows = match_rows(fold.store, fold.league_id, e, target, checking=True)
            problems = target.problems(Report(e, rows))
        except LedgerError as error:
            problems = [Problem(type(error), error.message)]
        for problem in problems:
            self.policies.diverge(
                e,
                "match",
                problem.sentence,
                "kept-as-recorded",
                "the match stands",
                e.match,
                problem=problem,
            )


def absent(players: dict[str, PlayerRow | None]) -> set[str]:
    """The players of a report the replay has, but not active (dead, retired...)."""
    return {i for i, row in players.items() if row is not None and row.status != "active"}


def without(e: ev.MatchRecorded, players: set[str]) -> ev.MatchRecorded:
    """The match with these players' achievements taken out; the score stands."""

    def sheet(s: TeamSheet) -> TeamSheet:
        kept = tuple(p for p in s.players if p.player not in players)
        return s.model_copy(update={"players": kept}) if len(kept) != len(s.players) else s

    casualties = tuple(
        c.model_copy(update={"inflicted_by": None}) if c.inflicted_by in players else c
        for c in e.casualties
        if c.victim not in players
    )
    return e.model_copy(
        update={
            "home": sheet(e.home),
            "away": sheet(e.away),
            "others": tuple(sheet(s) for s in e.others),
            "casualties": casualties,
        }
    )
