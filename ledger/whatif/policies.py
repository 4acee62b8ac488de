"""Decisions the target edition would not allow, and the documented policy for each.

Before the replay applies a decision of the log (a hire, a purchase, an advancement, a fee,
a fine...) it asks the target ruleset the questions the commands ask and, when the answer
is no, applies the policy (``ledger.whatif.divergence.POLICIES``) and lists a divergence.
Hires and purchases are checked by the very functions the commands call
(``ledger.rules.problems``: roster size, position limits, the edition's ``check_hire`` and
``check_buy``, item limits, the replay's own treasury); each problem they return becomes a
divergence carrying its code, so a replay and a command cannot disagree on those rules.
Nothing here validates the league's own history: a replay under the league's own ruleset
and options never gets here.

Worked example: a team that bought two re-rolls after its first game in BB2025 (100,000
each, doubled after the draft) has, replayed under dz3 where winnings came out lower,
only 150,000: it buys one (``buy-what-fits``) and the divergence says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ledger.domain import events as ev
from ledger.domain.state import PlayerRow, TeamRow, roster_of
from ledger.domain.values import Purchase
from ledger.errors import LedgerError
from ledger.projections.appliers import APPLIERS
from ledger.projections.fold import Fold
from ledger.projections.gather import hire_rows
from ledger.rules.asked import (
    Appearance,
    Buying,
    Hiring,
    Releasing,
    SeasonPlan,
    Sideline,
)
from ledger.rules.problems import (
    Problem,
    gold_enough,
    has_feature,
    held,
    item_room,
    let_go,
    not_below_nothing,
    position_room,
    roster_room,
    sold,
    while_drafting,
)
from ledger.rules.protocol import Feature, Ruleset, SidelineItem
from ledger.rules.rows import HireRows
from ledger.rules.schema import Position, TeamList
from ledger.whatif.advance import Fitter
from ledger.whatif.divergence import Divergence
from ledger.whatif.translate import lineman

FEATURES: dict[type[ev.LedgerEvent], tuple[Feature, str]] = {
    ev.InducementsBought: (Feature.INDUCEMENTS, "inducements"),
    ev.BountyPosted: (Feature.BOUNTIES, "bounties"),
    ev.CardPlayed: (Feature.CARDS, "special play cards in the books"),
    ev.TeamRedrafted: (Feature.REDRAFT, "off-season re-drafts: the team carries on as it stood"),
    ev.PlayerTemporarilyRetired: (Feature.TEMPORARY_RETIREMENT, "temporary retirement"),
    ev.StarDraftOrdered: (Feature.STAR_CONTRACTS, "star player contracts"),
    ev.StarSigned: (Feature.STAR_CONTRACTS, "star player contracts"),
    ev.AppearanceFeesPaid: (Feature.APPEARANCE_FEES, "appearance fees"),
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
        problem: Problem | None = None,
    ) -> None:
        """``problem``: the rule of ``ledger.rules.problems`` that decided, if one did."""
        self.divergences.append(
            Divergence.of(
                event,
                rule=rule,
                reason=reason,
                policy=policy,
                action=action,
                subject=subject,
                team=team,
                code=problem.code if problem is not None else None,
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
        for missing in has_feature(self.target, *needed) if needed is not None else []:
            left_out = "left out" + (", the gold stays in the treasury" if gold_of(event) else "")
            self.diverge(event, "feature", missing.sentence, "skip", left_out, problem=missing)
            return None
        decide = DECISIONS.get(type(event))
        return decide(self, event) if decide is not None else event

    def player_hired(self, e: ev.PlayerHired) -> ev.PlayerHired | None:
        team = self.fold.team(e.team)
        players = roster_of(self.fold.store, self.fold.league_id, e.team)
        for full in roster_room(team, players, self.target.catalogue.team_list(team.roster)):
            reason = f"{team.name} already have {full.have} players (at most {full.limit})"
            not_hired = f"{e.name} is not hired"
            self.diverge(e, "roster-full", reason, "skip", not_hired, e.player, problem=full)
            return None
        if e.kind != "star":
            found = self.within_limits(e, team, players)
            if found is None:
                return None
            e = found
        store, league = self.fold.store, self.fold.league_id
        rows = hire_rows(store, league, team, e, players, checking=self.target)
        problems = self.target.problems(Hiring(e, rows))
        if problems:
            reason, not_hired = sentences(problems), f"{e.name} is not hired"
            self.diverge(e, "hire", reason, "skip", not_hired, e.player, problem=problems[0])
            return None
        return self.afford_hire(e, team, rows)

    def within_limits(
        self, e: ev.PlayerHired, team: TeamRow, players: list[PlayerRow]
    ) -> ev.PlayerHired | None:
        """Over its position's limit, a player is hired as the list's lineman if there is
        room for one more of those, else not at all."""
        team_list, position = self.position_of(e, team)
        if position is None:
            return e  # the translation fell back to a position that exists
        roster = team_list.id
        for full in position_room(team, players, position, roster):
            reason = f"the {team_list.name} list allows at most {position.max} x {position.name}"
            instead = lineman(team_list)
            if instead.id != position.id and not position_room(team, players, instead, roster):
                hired_as = f"{e.name} is hired as {instead.name}"
                policy = "lineman-instead"
                self.diverge(e, "position-limit", reason, policy, hired_as, e.player, problem=full)
                return e.model_copy(update={"position": instead.id})
            not_hired = f"{e.name} is not hired"
            self.diverge(e, "position-limit", reason, "skip", not_hired, e.player, problem=full)
            return None
        return e

    def position_of(self, e: ev.PlayerHired, team: TeamRow) -> tuple[TeamList, Position | None]:
        """The target's list a hire is made from (an ally's, or the team's own) and his
        position on it, if it has that position."""
        team_list = self.target.catalogue.team_lists().get(e.from_list or team.roster)
        if team_list is None:  # the target has no such list to take allies from
            team_list = self.target.catalogue.team_list(team.roster)
            return team_list, None
        return team_list, team_list.position(e.position)

    def no_room(self, e: ev.PlayerHired, team: TeamRow, players: list[PlayerRow]) -> bool:
        """Whether a hire that waited for the treasury has lost its place on the roster."""
        if roster_room(team, players, self.target.catalogue.team_list(team.roster)):
            return True
        team_list, position = self.position_of(e, team)
        return position is not None and bool(position_room(team, players, position, team_list.id))

    def afford_hire(
        self, e: ev.PlayerHired, team: TeamRow, rows: HireRows
    ) -> ev.PlayerHired | None:
        short = self.short_of_gold(e, team, rows)
        if not short:
            return e
        price = short[0].price or 0
        reason = f"{e.name} costs {price:,}; the replay's treasury holds {team.treasury:,}"
        action = "waits for the treasury"
        self.diverge(e, "treasury", reason, "defer", action, e.player, problem=short[0])
        self.waiting[e.seq] = len(self.divergences) - 1
        self.hires.append(e)
        return None

    def short_of_gold(self, e: ev.PlayerHired, team: TeamRow, rows: HireRows) -> list[Problem]:
        """``rows`` as the hire's check read them, or without the league's stars, which
        only ``check_hire`` reads (``HireRows``)."""
        price = self.target.price(Hiring(e, rows))
        return gold_enough(team, price, e.name)

    def sideline_purchased(self, e: ev.SidelinePurchased) -> ev.SidelinePurchased | None:
        team = self.fold.team(e.team)
        items = self.target.sideline_items(team)
        treasury, bought, kept = team.treasury, dict[str, int](), []
        for purchase in e.purchases:
            item = self.on_sale(e, team, items, purchase.item)
            if item is None:
                continue
            have = held(team, item.id, item.counts_as) + bought.get(item.id, 0)
            count, reason, cut = self.what_fits(team, item, purchase.count, have, treasury)
            if count < purchase.count:
                done = f"bought {count}" if count else "bought none"
                why = cut[0] if cut else None
                self.diverge(e, "treasury", reason, "buy-what-fits", done, item.id, problem=why)
            if count > 0:
                price = self.target.price(Sideline(team, item.id, count))
                treasury -= price
                bought[item.id] = bought.get(item.id, 0) + count
                kept.append(Purchase(item=item.id, count=count, price=price))
        return e.model_copy(update={"purchases": tuple(kept)}) if kept else None

    def on_sale(
        self, e: ev.SidelinePurchased, team: TeamRow, items: Mapping[str, SidelineItem], item: str
    ) -> SidelineItem | None:
        """The item, if the target sells it to the team now; else a divergence and None."""
        found = items.get(item)
        refused = sold(self.target, items, item) if found is None else while_drafting(team, found)
        if not refused:
            return found
        why = "only while drafting" if found is not None else "not sold"
        reason = f"{item}: {why} in {self.target.name}"
        self.diverge(e, "item", reason, "skip", "not bought", item, problem=refused[0])
        return None

    def what_fits(
        self, team: TeamRow, item: SidelineItem, wanted: int, have: int, treasury: int
    ) -> tuple[int, str, list[Problem]]:
        """How many of ``wanted`` the target's limit, its checks and the treasury allow,
        why fewer, and the problems that cut it (none when all of it fits)."""
        over = item_room(team, item, have, wanted)
        count = max(0, item.max - have) if over else wanted
        players = self.fold.players(team.team_id)
        refused = self.target.problems(Buying(team, players, item.id, count)) if count > 0 else []
        if refused:
            return 0, sentences(refused), refused
        cut, poor = over, False
        while count > 0:
            short = self.gold_for(team, item, count, treasury)
            if not short:
                break
            cut, count, poor = cut or short, count - 1, True
        why = [f"at most {item.max}"] if over else []
        why += [f"the treasury holds {treasury:,}"] if poor else []
        reason = f"{wanted} x {item.name}: {', '.join(why)}"
        return count, reason, cut

    def gold_for(
        self, team: TeamRow, item: SidelineItem, count: int, treasury: int
    ) -> list[Problem]:
        price = self.target.price(Sideline(team, item.id, count))
        return gold_enough(team, price, f"{count} x {item.name}", treasury)

    def sideline_released(self, e: ev.SidelineReleased) -> ev.SidelineReleased | None:
        team = self.fold.team(e.team)
        item = self.target.sideline_items(team).get(e.item)
        have = held(team, e.item, item.counts_as if item else "staff")
        short = let_go(team, e.item, have, e.count)
        refused = self.target.problems(Releasing(team, e.item, min(e.count, have)))
        if have <= 0 or refused:
            reason = sentences(refused) or f"{team.name} hold no {e.item} in the replay"
            first = (short or refused)[0]  # the command's first answer to the same release
            self.diverge(e, "item", reason, "skip", "nothing let go", e.item, problem=first)
            return None
        if short:
            reason = f"{team.name} hold {have} x {e.item} in the replay"
            let = f"let {have} go"
            self.diverge(e, "item", reason, "buy-what-fits", let, e.item, problem=short[0])
            return e.model_copy(update={"count": have})
        return e

    def treasury_adjusted(self, e: ev.TreasuryAdjusted) -> ev.TreasuryAdjusted:
        team = self.fold.team(e.team)
        for short in not_below_nothing(team, e.amount):
            reason = f"a fine of {-e.amount:,} but the replay's treasury holds {team.treasury:,}"
            took, policy = f"took {team.treasury:,}", "take-what-there-is"
            self.diverge(e, "treasury", reason, policy, took, problem=short)
            return e.model_copy(update={"amount": -team.treasury})
        return e

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
                reason, first = sentences(attempt.problems), attempt.problems[0]
                self.diverge(e, "advancement", reason, "defer", "waits", e.player, problem=first)
                self.waiting[e.seq] = len(self.divergences) - 1
                self.advances.setdefault(e.player, []).append(e)
            return None
        for roll in attempt.simulated:
            key = roll.subject or ""
            self.fold.dice.simulated[key] = self.fold.dice.simulated.get(key, 0) + 1
        if attempt.problems:
            took = describe_advancement(attempt.event)
            reason = sentences(attempt.problems)
            forced = attempt.event.characteristic or not attempt.event.skill
            policy = "roll-decides" if forced else "substitute-skill"
            if waiting:
                self.resolve(e.seq, f"taken later as {took}", policy)
            else:
                first = attempt.problems[0]
                self.diverge(
                    e, "advancement", reason, policy, f"took {took}", e.player, problem=first
                )
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
        for short in gold_enough(team, e.amount, f"a bounty of {e.amount:,}"):
            reason = f"a bounty of {e.amount:,}; the treasury holds {team.treasury:,}"
            self.diverge(e, "treasury", reason, "skip", "no bounty posted", e.player, problem=short)
            return None
        return e

    def appearance_fees_paid(self, e: ev.AppearanceFeesPaid) -> ev.AppearanceFeesPaid | None:
        team, kept, treasury = self.fold.team(e.team), [], self.fold.team(e.team).treasury
        for line in e.fees:
            player = self.fold.player(line.item)
            fee = self.target.price(Appearance(player)) if player is not None else 0
            if fee <= 0:  # a Monty Haul league, another edition, a player not on the roster
                name = player.name if player is not None else line.item
                reason = f"{name} asks no appearance fee here; the log paid {line.price:,}"
                self.diverge(e, "fees", reason, "skip", "no fee paid", line.item)
            elif fee <= treasury:
                kept.append(line.model_copy(update={"price": fee}))
                treasury -= fee
                if fee != line.price:
                    reason = f"a fee of {fee:,}; the log paid {line.price:,}"
                    self.diverge(e, "fees", reason, "pay-or-sit-out", f"paid {fee:,}", line.item)
            else:
                reason = f"a fee of {fee:,}; {team.name} have {treasury:,} left"
                self.diverge(e, "fees", reason, "pay-or-sit-out", "not paid", line.item)
        return e.model_copy(update={"fees": tuple(kept)}) if kept else None

    def star_signed(self, e: ev.StarSigned) -> ev.StarSigned | None:
        try:
            self.target.catalogue.star(e.star)
        except LedgerError:
            reason = f"{self.target.name} has no star player {e.star}"
            self.diverge(e, "star", reason, "skip", "not signed", e.player)
            return None
        return e

    def season_started(self, e: ev.SeasonStarted) -> ev.SeasonStarted:
        if self.explain:
            for problem in self.target.problems(SeasonPlan(e.divisions, e.playoff_teams)):
                self.diverge(
                    e,
                    "season",
                    problem.sentence,
                    "kept-as-recorded",
                    "the season stands",
                    problem=problem,
                )
        return e


def sentences(problems: Sequence[Problem]) -> str:
    return "; ".join(p.sentence for p in problems)


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
