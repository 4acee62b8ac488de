"""Decisions the target edition would not allow, and the documented policy for each.

Before the replay applies a decision of the log (a hire, a purchase, an advancement, a fee,
a fine...) it asks the target ruleset the questions the commands ask (``check_hire``,
position limits, ``sideline_price`` against the replay's own treasury,
``check_advancement``...) and, when the answer is no, applies the policy
(``ledger.whatif.divergence.POLICIES``) and lists a divergence. Nothing here validates the
league's own history: a replay under the league's own ruleset and options never gets here.

Worked example: a team that bought two re-rolls after its first game in BB2025 (100,000
each, doubled after the draft) has, replayed under dz3 where winnings came out lower,
only 150,000: it buys one (``buy-what-fits``) and the divergence says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ledger.application.teams import held
from ledger.domain import events as ev
from ledger.domain.state import PlayerRow, TeamRow, on_roster
from ledger.domain.values import Purchase
from ledger.errors import LedgerError
from ledger.projections.appliers import APPLIERS
from ledger.projections.fold import Fold
from ledger.rules.protocol import Ruleset, SidelineItem
from ledger.whatif.advance import Fitter
from ledger.whatif.divergence import Divergence
from ledger.whatif.translate import lineman

FEATURES: dict[type[ev.LedgerEvent], tuple[str, str]] = {
    ev.InducementsBought: ("inducements", "inducements"),
    ev.BountyPosted: ("bounties", "bounties"),
    ev.CardPlayed: ("cards", "special play cards in the books"),
    ev.TeamRedrafted: ("redraft", "off-season re-drafts: the team carries on as it stood"),
    ev.PlayerTemporarilyRetired: ("temporary_retirement", "temporary retirement"),
    ev.StarDraftOrdered: ("star_contracts", "star player contracts"),
    ev.StarSigned: ("star_contracts", "star player contracts"),
    ev.AppearanceFeesPaid: ("appearance_fees", "appearance fees"),
}
"""Events that only exist with an optional mechanic of an edition (``Ruleset.features``)."""


@dataclass
class Policies:
    fold: Fold
    source: Ruleset
    explain: bool = True
    """Also list facts kept as recorded (checks that change nothing): off for Monte Carlo."""
    divergences: list[Divergence] = field(default_factory=list)
    hires: list[ev.PlayerHired] = field(default_factory=list)
    """Hires waiting for the treasury."""
    advances: dict[str, list[ev.PlayerAdvanced]] = field(default_factory=dict)
    """Advancements waiting for the target to allow them, per player, in order."""
    waiting: dict[int, int] = field(default_factory=dict)
    """Index in ``divergences`` of each waiting decision's divergence, by event."""
    fitter: Fitter = field(init=False)

    def __post_init__(self) -> None:
        self.fitter = Fitter(self.source, self.target, self.fold.dice)

    @property
    def target(self) -> Ruleset:
        return self.fold.ruleset

    # --- recording --------------------------------------------------------------------------

    def diverge(
        self,
        event: ev.LedgerEvent,
        rule: str,
        reason: str,
        policy: str,
        action: str,
        subject: str | None = None,
        team: str | None = None,
    ) -> None:
        self.divergences.append(
            Divergence.of(
                event,
                rule=rule,
                reason=reason,
                policy=policy,
                action=action,
                subject=subject,
                team=team,
            )
        )

    def resolve(self, seq: int, action: str, policy: str | None = None) -> None:
        """A waiting decision's divergence, now that it is settled."""
        index = self.waiting.pop(seq)
        update: dict[str, Any] = {"action": action}
        if policy is not None:
            update["policy"] = policy
        self.divergences[index] = self.divergences[index].model_copy(update=update)

    def apply_late(self, event: ev.LedgerEvent, at: int) -> None:
        """Apply a decision after its own place in the log (the dice stay its own)."""
        self.fold.dice.event = event.seq
        APPLIERS[type(event)](self.fold, event)
        self.fold.dice.event = at

    # --- the decisions ----------------------------------------------------------------------

    def decide(self, event: ev.LedgerEvent) -> ev.LedgerEvent | None:
        """The event to apply (possibly changed), or ``None`` to leave it out."""
        needed = FEATURES.get(type(event))
        if needed is not None and needed[0] not in self.target.features:
            self.diverge(
                event,
                "feature",
                f"{self.target.name} leagues have no {needed[1]}",
                "skip",
                "left out" + (", the gold stays in the treasury" if gold_of(event) else ""),
            )
            return None
        decide = DECISIONS.get(type(event))
        return decide(self, event) if decide is not None else event

    def player_hired(self, e: ev.PlayerHired) -> ev.PlayerHired | None:
        team = self.fold.team(e.team)
        players = on_roster(self.fold.players(e.team))
        team_list = self.target.team_list(team.roster)
        if len(players) >= team_list.max_players:
            most = team_list.max_players
            reason = f"{team.name} already have {len(players)} players (at most {most})"
            self.diverge(e, "roster-full", reason, "skip", f"{e.name} is not hired", e.player)
            return None
        if e.kind != "star":
            found = self.within_limits(e, team, players)
            if found is None:
                return None
            e = found
        problems = self.target.check_hire(
            team, players, e, view=self.fold.store, league_id=self.fold.league_id
        )
        if problems:
            self.diverge(e, "hire", "; ".join(problems), "skip", f"{e.name} is not hired", e.player)
            return None
        return self.afford_hire(e, team, players)

    def within_limits(
        self, e: ev.PlayerHired, team: TeamRow, players: list[PlayerRow]
    ) -> ev.PlayerHired | None:
        team_list = self.target.team_list(team.roster)
        position = team_list.position(e.position)
        if position is None:
            return e  # the translation fell back to a position that exists
        if count_of(players, team.roster, position.id) < position.max:
            return e
        reason = f"the {team_list.name} list allows at most {position.max} x {position.name}"
        instead = lineman(team_list)
        if instead.id != position.id and count_of(players, team.roster, instead.id) < instead.max:
            action = f"{e.name} is hired as {instead.name}"
            self.diverge(e, "position-limit", reason, "lineman-instead", action, e.player)
            return e.model_copy(update={"position": instead.id})
        self.diverge(e, "position-limit", reason, "skip", f"{e.name} is not hired", e.player)
        return None

    def afford_hire(
        self, e: ev.PlayerHired, team: TeamRow, players: list[PlayerRow]
    ) -> ev.PlayerHired | None:
        price = self.price(e, team, players)
        if price <= team.treasury:
            return e
        reason = f"{e.name} costs {price:,}; the replay's treasury holds {team.treasury:,}"
        self.diverge(e, "treasury", reason, "defer", "waits for the treasury", e.player)
        self.waiting[e.seq] = len(self.divergences) - 1
        self.hires.append(e)
        return None

    def price(self, e: ev.PlayerHired, team: TeamRow, players: list[PlayerRow]) -> int:
        store, league = self.fold.store, self.fold.league_id
        return self.target.hire_price(team, e, players, view=store, league_id=league)

    def sideline_purchased(self, e: ev.SidelinePurchased) -> ev.SidelinePurchased | None:
        team = self.fold.team(e.team)
        items = self.target.sideline_items(team)
        treasury, bought, kept = team.treasury, dict[str, int](), []
        for purchase in e.purchases:
            item = items.get(purchase.item)
            if item is None or (item.draft_only and not team.drafting):
                why = "only while drafting" if item is not None else "not sold"
                reason = f"{purchase.item}: {why} in {self.target.name}"
                self.diverge(e, "item", reason, "skip", "not bought", purchase.item)
                continue
            have = held(team, item.id, item.counts_as) + bought.get(item.id, 0)
            count, reason = self.what_fits(team, item, purchase.count, have, treasury)
            if count < purchase.count:
                done = f"bought {count}" if count else "bought none"
                self.diverge(e, "treasury", reason, "buy-what-fits", done, item.id)
            if count > 0:
                price = self.target.sideline_price(team, item.id, count)
                treasury -= price
                bought[item.id] = bought.get(item.id, 0) + count
                kept.append(Purchase(item=item.id, count=count, price=price))
        return e.model_copy(update={"purchases": tuple(kept)}) if kept else None

    def what_fits(
        self, team: TeamRow, item: SidelineItem, wanted: int, have: int, treasury: int
    ) -> tuple[int, str]:
        """How many of ``wanted`` the target's limit, its checks and the treasury allow."""
        count = min(wanted, item.max - have)
        problems = self.target.check_buy(team, self.fold.players(team.team_id), item.id, count)
        if count > 0 and problems:
            return 0, "; ".join(problems)
        while count > 0 and self.target.sideline_price(team, item.id, count) > treasury:
            count -= 1
        return count, f"{wanted} x {item.name}: at most {item.max}, gold {treasury:,}"

    def sideline_released(self, e: ev.SidelineReleased) -> ev.SidelineReleased | None:
        team = self.fold.team(e.team)
        item = self.target.sideline_items(team).get(e.item)
        have = held(team, e.item, item.counts_as if item else "staff")
        problems = self.target.check_release(team, e.item)
        if have <= 0 or problems:
            reason = "; ".join(problems) or f"{team.name} hold no {e.item} in the replay"
            self.diverge(e, "item", reason, "skip", "nothing let go", e.item)
            return None
        if have < e.count:
            reason = f"{team.name} hold {have} x {e.item} in the replay"
            self.diverge(e, "item", reason, "buy-what-fits", f"let {have} go", e.item)
            return e.model_copy(update={"count": have})
        return e

    def treasury_adjusted(self, e: ev.TreasuryAdjusted) -> ev.TreasuryAdjusted:
        team = self.fold.team(e.team)
        if e.amount >= 0 or team.treasury + e.amount >= 0:
            return e
        reason = f"a fine of {-e.amount:,} but the replay's treasury holds {team.treasury:,}"
        self.diverge(e, "treasury", reason, "take-what-there-is", f"took {team.treasury:,}")
        return e.model_copy(update={"amount": -team.treasury})

    def player_advanced(self, e: ev.PlayerAdvanced) -> ev.PlayerAdvanced | None:
        player = self.fold.player(e.player)
        if player is None or player.status != "active":
            status = "not on the replay's roster" if player is None else player.status
            reason = f"player {e.player} is {status} in the replay"
            self.diverge(e, "player", reason, "skip", "no advancement", e.player)
            return None
        if self.advances.get(e.player):
            reason = "an earlier advancement of his is still waiting"
            self.diverge(e, "advancement", reason, "defer", "waits its turn", e.player)
            self.waiting[e.seq] = len(self.divergences) - 1
            self.advances[e.player].append(e)
            return None
        return self.try_advance(e, player, waiting=False)

    def try_advance(
        self, e: ev.PlayerAdvanced, player: PlayerRow, waiting: bool
    ) -> ev.PlayerAdvanced | None:
        attempt = self.fitter.attempt(e, player, self.fold.team(e.team))
        if attempt.event is None:
            if not waiting:
                reason = "; ".join(attempt.problems)
                self.diverge(e, "advancement", reason, "defer", "waits", e.player)
                self.waiting[e.seq] = len(self.divergences) - 1
                self.advances.setdefault(e.player, []).append(e)
            return None
        for roll in attempt.simulated:
            key = roll.subject or ""
            self.fold.dice.simulated[key] = self.fold.dice.simulated.get(key, 0) + 1
        if attempt.problems:
            took = describe_advancement(attempt.event)
            reason = "; ".join(attempt.problems)
            forced = attempt.event.characteristic or not attempt.event.skill
            policy = "roll-decides" if forced else "substitute-skill"
            if waiting:
                self.resolve(e.seq, f"taken later as {took}", policy)
            else:
                self.diverge(e, "advancement", reason, policy, f"took {took}", e.player)
        elif waiting:
            self.resolve(e.seq, f"taken later ({describe_advancement(attempt.event)})")
        return attempt.event

    def inducements_bought(self, e: ev.InducementsBought) -> ev.InducementsBought | None:
        team = self.fold.team(e.team)
        if e.treasury_spent <= team.treasury:
            return e
        reason = f"inducements took {e.treasury_spent:,}; the treasury holds {team.treasury:,}"
        self.diverge(e, "treasury", reason, "skip", "no inducements bought")
        return None

    def bounty_posted(self, e: ev.BountyPosted) -> ev.BountyPosted | None:
        team = self.fold.team(e.team)
        if e.amount <= team.treasury:
            return e
        reason = f"a bounty of {e.amount:,}; the treasury holds {team.treasury:,}"
        self.diverge(e, "treasury", reason, "skip", "no bounty posted", e.player)
        return None

    def appearance_fees_paid(self, e: ev.AppearanceFeesPaid) -> ev.AppearanceFeesPaid | None:
        team, kept, treasury = self.fold.team(e.team), [], self.fold.team(e.team).treasury
        for line in e.fees:
            player = self.fold.player(line.item)
            fee = self.target.appearance_fee(player) if player is not None else 0
            if 0 < fee <= treasury:
                kept.append(line.model_copy(update={"price": fee}))
                treasury -= fee
            elif fee > treasury:
                reason = f"a fee of {fee:,}; {team.name} have {treasury:,} left"
                self.diverge(e, "fees", reason, "pay-or-sit-out", "not paid", line.item)
        return e.model_copy(update={"fees": tuple(kept)}) if kept else None

    def star_signed(self, e: ev.StarSigned) -> ev.StarSigned | None:
        try:
            self.target.star(e.star)
        except LedgerError:
            reason = f"{self.target.name} has no star player {e.star}"
            self.diverge(e, "star", reason, "skip", "not signed", e.player)
            return None
        return e

    def season_started(self, e: ev.SeasonStarted) -> ev.SeasonStarted:
        if self.explain:
            for problem in self.target.check_season(e.divisions, e.playoff_teams):
                self.diverge(e, "season", problem, "kept-as-recorded", "the season stands")
        return e


def count_of(players: Sequence[PlayerRow], roster: str, position: str) -> int:
    return sum(1 for p in players if p.position == position and p.roster == roster)


def gold_of(event: ev.LedgerEvent) -> int:
    for name in ("treasury_spent", "amount"):
        value = getattr(event, name, 0)
        if isinstance(value, int) and value > 0:
            return value
    return sum(f.price for f in getattr(event, "fees", ()))


def describe_advancement(event: ev.PlayerAdvanced) -> str:
    if event.skill:
        return event.skill
    if event.characteristic:
        return f"+1 {event.characteristic.upper()}"
    return "nothing (the roll was lost)"


DECISIONS: dict[type[ev.LedgerEvent], Callable[[Policies, Any], ev.LedgerEvent | None]] = {
    ev.PlayerHired: Policies.player_hired,
    ev.SidelinePurchased: Policies.sideline_purchased,
    ev.SidelineReleased: Policies.sideline_released,
    ev.TreasuryAdjusted: Policies.treasury_adjusted,
    ev.PlayerAdvanced: Policies.player_advanced,
    ev.InducementsBought: Policies.inducements_bought,
    ev.BountyPosted: Policies.bounty_posted,
    ev.AppearanceFeesPaid: Policies.appearance_fees_paid,
    ev.StarSigned: Policies.star_signed,
    ev.SeasonStarted: Policies.season_started,
}
