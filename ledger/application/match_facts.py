"""Pre-game and in-game facts that reach the books beside a match's report: a special play
card (lrb6-zal) and a freebooted star's appearance fee (gold4)."""

from __future__ import annotations

from dataclasses import dataclass

from ledger.application.commands import (
    PayAppearanceFees,
    PlayCard,
)
from ledger.application.context import Context, Drafts
from ledger.application.match_dice import describe_need, make_roll, no_rolls
from ledger.application.match_sides import unavailable
from ledger.domain import events as ev
from ledger.domain.state import MatchRow, PlayerRow, TeamRow
from ledger.domain.values import Purchase
from ledger.errors import InsufficientTreasury, InvalidDice, InvalidInput, NotAllowed
from ledger.projections.gather import card_rows
from ledger.rules.asked import Appearance, Card
from ledger.rules.problems import has_feature, refuse
from ledger.rules.protocol import Feature


def plan_card(c: Context, command: PlayCard) -> Drafts:
    """A special play card whose effect the league's edition books (ZAL 8d)."""
    match_id, team_id, card, against = command.match, command.team, command.card, command.against
    entries, roll_missing = dict(command.dice or {}), command.roll_missing
    refuse(has_feature(c.ruleset, Feature.CARDS, "special play cards in the books"))
    team = c.team(team_id)
    if match_id is not None:
        played_in(c, match_id, team)
    played = ev.CardPlayed(match=match_id, team=team_id, card=card, against=against, dice=())
    needs = c.ruleset.dice_needed(Card(played, card_rows(c.view, c.league_id, played)))
    rolls = []
    for need in needs:
        if need.purpose in entries:
            rolls.append(make_roll(need.purpose, need.dice, entries[need.purpose], need.subject))
        elif roll_missing:
            rolls.append(c.roll(need.purpose, need.dice, need.subject))
        else:
            raise InvalidDice(
                f"{card} needs {describe_need(need)} (enter it, or let the ledger roll it)"
            )
    unexpected = set(entries) - {n.purpose for n in needs}
    if unexpected:
        raise InvalidDice(f"{card} needs {no_rolls(unexpected)}")
    return [played.model_copy(update={"dice": tuple(rolls)})]


def plan_fees(c: Context, command: PayAppearanceFees) -> Drafts:
    """4th edition appearance fees: each player paid for may play; the rest may not."""
    match_id, team_id, refs = command.match, command.team, command.players
    refuse(has_feature(c.ruleset, Feature.APPEARANCE_FEES, "appearance fees"))
    team = c.team(team_id)
    coming(c, match_id, team, "appearance fees are paid before it")
    fees: list[Purchase] = []
    paid = team.fees_paid.get(match_id, {})
    for ref in refs:
        player = freebooted_star(c, team, ref) if "=" in ref else c.player(ref, team_id)
        fee = c.ruleset.price(Appearance(player))
        if fee <= 0:
            raise InvalidInput(f"{player.name} asks no appearance fee")
        # paid once a match: again only for a freebooted star now dearer than paid for
        if paid.get(player.player_id, 0) >= fee or player.player_id in {f.item for f in fees}:
            raise InvalidInput(
                f"{player.name}'s appearance fee for {match_id} is paid already"
                f" ({paid.get(player.player_id, fee):,}): a fee is paid once a match"
            )
        fees.append(Purchase(item=player.player_id, price=fee))
    total = sum(f.price for f in fees)
    if total > team.treasury:
        raise InsufficientTreasury(
            f"the fees come to {total:,} but {team.name} have {team.treasury:,}"
        )
    return [ev.AppearanceFeesPaid(match=match_id, team=team_id, fees=tuple(fees))]


@dataclass(frozen=True)
class Asking:
    """A player of the team who asks an appearance fee to play the match."""

    player: PlayerRow
    fee: int
    paid: int
    """What the team paid him for this match already (0: nothing yet)."""


@dataclass(frozen=True)
class FeeTerms:
    """What the fees page offers: the team, the match still to come, and each of its
    players who may play it and asks a fee (the command decides with the same rows)."""

    team: TeamRow
    match: MatchRow | None
    """The fixture; None for a game without one, whose report will carry the id."""
    asking: list[Asking]
    stars_paid: dict[str, int]
    """What was paid for this match for ids that are no player of the team: freebooted
    stars, by the hireling id the report will give them."""


def fee_terms(c: Context, match_id: str, team_id: str) -> FeeTerms:
    """The team's appearance fees for a match to come, refused as the command refuses
    them: an edition without fees, another team's match, a match already recorded."""
    refuse(has_feature(c.ruleset, Feature.APPEARANCE_FEES, "appearance fees"))
    team = c.team(team_id)
    coming(c, match_id, team, "appearance fees are paid before it")
    paid = team.fees_paid.get(match_id, {})
    asking = [
        Asking(player, fee, paid.get(player.player_id, 0))
        for player in sorted(c.players(team_id), key=lambda p: (p.number or 0, p.name))
        if unavailable(player) is None and (fee := c.ruleset.price(Appearance(player))) > 0
    ]
    players = {a.player.player_id for a in asking}
    stars = {
        ref: fee
        for ref, fee in paid.items()
        if ref not in players and c.view.get(PlayerRow, c.league_id, ref) is None
    }
    return FeeTerms(team, c.match(match_id), asking, stars)


def played_in(c: Context, match_id: str, team: TeamRow) -> MatchRow | None:
    """The match of the books ``team`` plays in, or None for an id a report to come will
    carry (a friendly's: docs/rulesets/gold4.md); a match of other teams is refused (its
    fees had been charged, its card booked, to a team that did not play)."""
    row = c.match(match_id)
    if row is not None and team.team_id not in (row.home, row.away, *row.others):
        teams = " v ".join((row.home, row.away, *row.others))
        raise InvalidInput(f"{team.name} do not play match {match_id} ({teams})")
    return row


def coming(c: Context, match_id: str, team: TeamRow, before: str) -> None:
    """A match ``team`` plays and that is still to be recorded."""
    row = played_in(c, match_id, team)
    if row is not None and row.status == "played":
        raise NotAllowed(f"match {match_id} was recorded (event {row.recorded_seq}): {before}")


def freebooted_star(c: Context, team: TeamRow, ref: str) -> PlayerRow:
    """A star freebooted for the match, named HIRELING_ID=COST: the id of his hireling line
    in the report to come and his cost, which his fee is reckoned from (4th edition Q&A:
    'Do freebooted star players charge an appearance fee? Yes')."""
    hireling, _, cost = (part.strip() for part in ref.partition("="))
    if not hireling or not cost.isdigit():
        raise InvalidInput(f"'{ref}': name a freebooted star as HIRELING_ID=COST, e.g. zug=120000")
    return PlayerRow(
        league_id=c.league_id,
        player_id=hireling,
        team_id=team.team_id,
        name=f"{hireling} (cost {int(cost):,})",
        roster=team.roster,
        position=hireling,
        kind="star",
        base_cost=int(cost),
        ma=0,  # the profile is the report's business; the fee reads only the cost
        st=0,
        ag=0,
        av=0,
    )
