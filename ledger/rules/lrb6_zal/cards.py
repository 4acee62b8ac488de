"""The special play cards whose effect reaches the books (seed 000, ZAL 8b, 8d i, ii, iv).

- Bonus cards (ZAL 8b and the HANDICAP TABLE): before the match the team with the lower Team
  Rating draws the table's bonus cards on top of the D6 draw (1 card on a 1, 2 on 2-5, 3 on
  a 6, one of them a Magic Item on a 6); with two or more bonus cards one of those may be a
  Magic Item too, on a 6 only. Booked before the match's report, with the D6: the ledger
  checks the team is owed bonus cards and says how many cards it draws.

- Bankruptcy: the affected coach rolls a D6: 1 loses all his earnings and savings (the
  whole treasury), 2-5 half of them, 6 nothing.
- Robbery: the thief rolls a D6: 1 caught, nothing; 2-5 steals half of the victim's
  earnings from the match; 6 all of them. The earnings are the winnings the match paid the
  victim (``MatchRow.winnings``); gold already spent cannot be stolen, so the theft never
  takes more than the victim's treasury holds.
- Injured in Practice: the player rolls on the LRB6 Casualty Table (a D6, then a D8) and
  misses the match; he still counts in his team's Team Rating (ZAL 8a, 8d iv).

A card is played on another team (a documented reading: 8d names the coach who plays it
apart from the "affected" one, Robbery's "attacking" coach from the robbed): Bankruptcy,
Robbery and Injured in Practice on one's own team or player are refused.

Worked example: TR 96 against TR 130 is 34 points: the Handicap Table's 31-50 row gives the
weaker team 2 bonus cards; its D6 of 6 draws 3, so 5 cards, 2 of which may be Magic Items.
Bankruptcy on a team with 130,000 in the treasury, D6 of 3: it loses
65,000. Robbery of a team that earned 70,000, D6 of 6: 70,000 move to the thief's team.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ledger.domain.events import CardPlayed
from ledger.domain.state import MatchRow, PlayerRow
from ledger.domain.values import Casualty, DiceRoll
from ledger.errors import InvalidInput, NotAllowed
from ledger.rules.dice import DiceBox
from ledger.rules.effects import Effects, Gold, Hurt, Leaves
from ledger.rules.lrb6 import casualties
from ledger.rules.lrb6.tables import tables as lrb6_tables
from ledger.rules.lrb6_zal.rating import handicap
from ledger.rules.lrb6_zal.tables import Tables, share_of, take
from ledger.rules.protocol import DiceNeed
from ledger.rules.rows import MatchRows
from ledger.words import possessive

BONUS = "bonus_cards"
CARDS = ("bankruptcy", "robbery", "injured_in_practice", BONUS)

Rating = Callable[[str], int | None]
"""Team id -> its Team Rating for its next match (ZAL 8a), None for an unknown team."""


@dataclass(frozen=True)
class Draw:
    """The special play cards a team draws before a match (ZAL 8b)."""

    drawn: int
    bonus: int
    magic_items: int

    def describe(self) -> str:
        return (
            f"{self.drawn} drawn + {self.bonus} bonus = {self.drawn + self.bonus} cards,"
            f" up to {self.magic_items} of them Magic Items"
        )


def draw(t: Tables, ours: int, theirs: int, d6: int) -> Draw:
    """ZAL 8b: the D6 draw, the Handicap Table's bonus cards, and the Magic Items allowed."""
    bonus = handicap(t, ours, theirs).cards
    drawn = next(b.cards for b in t.cards.draw if b.holds(d6))
    magic = 0
    if d6 in t.cards.magic_item_on:
        magic = 1 + (1 if bonus >= t.cards.bonus_magic_item_from else 0)
    return Draw(drawn=drawn, bonus=bonus, magic_items=magic)


def card_id(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def earnings(row: MatchRow | None, team: str) -> int | None:
    """What ``team`` earned in the match of ``row`` (for Robbery): the winnings the fold
    booked for it. A team that gave up earned nothing, its winnings went to the winner
    (ZAL 9b). None while the match is not recorded or ``team`` did not play it."""
    if row is None or row.status != "played" or team not in (row.home, row.away, *row.others):
        return None
    return row.winnings.get(team, 0)


def opponent_in(rows: MatchRows, match_id: str | None, team: str) -> str | None:
    row = rows.fixture if match_id else None
    if row is None or team not in (row.home, row.away):
        return None
    return row.away if row.home == team else row.home


def target_team(event: CardPlayed, rows: MatchRows) -> str | None:
    """The team the card was played on: ``against``, else the opponent in ``match``."""
    if event.against and rows.team(event.against) is not None:
        return event.against
    return opponent_in(rows, event.match, event.team)


def target_player(event: CardPlayed, rows: MatchRows) -> PlayerRow | None:
    if event.casualty is not None:
        return rows.player(event.casualty.victim)
    ref = event.against or ""
    found = rows.player(ref)
    if found is not None:
        return found
    everyone = [p for side in rows.teams.values() for p in side.players]
    named = [p for p in everyone if p.name.casefold() == ref.casefold() and p.status == "active"]
    return named[0] if len(named) == 1 else None


# --- the dice a card needs (command side: refusals are LedgerErrors) --------------------------


def needs(
    t: Tables,
    event: CardPlayed,
    rows: MatchRows,
    rating: Rating,
) -> list[DiceNeed]:
    card = card_id(event.card)
    if card not in CARDS:
        raise InvalidInput(
            f"'{event.card}' has no effect on the books in a ZAL league (cards: {', '.join(CARDS)})"
        )
    if card == BONUS:
        return bonus_needs(t, event, rows, rating)
    if card == "injured_in_practice":
        return injury_needs(event, rows)
    if card == "robbery":
        return robbery_needs(event, rows)
    victim = target_team(event, rows)
    if victim is None:
        raise InvalidInput(f"{card}: name the team it was played on, or its match")
    if victim == event.team:
        raise InvalidInput(f"{card}: {event.team} played it, and it is played on another team")
    return [DiceNeed(purpose=card, dice="D6", subject=victim, why=f"ZAL 8d: {card}")]


def robbery_needs(event: CardPlayed, rows: MatchRows) -> list[DiceNeed]:
    """Robbery steals from what the victim earned in a recorded match both teams played."""
    if event.match is None:
        raise InvalidInput("robbery: name the match whose earnings were stolen")
    row = rows.fixture
    if row is None or row.status != "played":
        raise NotAllowed(
            f"robbery: match {event.match} has no recorded report yet; the victim's"
            " earnings are known once it is recorded"
        )
    victim = target_team(event, rows)
    playing = (row.home, row.away, *row.others)
    if victim == event.team:
        raise InvalidInput("robbery: a team cannot rob itself")
    if victim is None or event.team not in playing or victim not in playing:
        raise InvalidInput(
            f"robbery: {event.team} and {victim or event.against} did not play each other"
            f" in {event.match}"
        )
    if earnings(row, victim) is None:
        raise NotAllowed(f"robbery: {possessive(victim)} earnings of {event.match} are not known")
    why = f"ZAL 8d ii: robbing {victim} of its earnings in {event.match}"
    return [DiceNeed(purpose="robbery", dice="D6", subject=event.team, why=why)]


def bonus_needs(t: Tables, event: CardPlayed, rows: MatchRows, rating: Rating) -> list[DiceNeed]:
    """Bonus cards are drawn before kick-off (pre-match 7), so they are booked before the
    report, at the Team Ratings the books hold then (ZAL 8a)."""
    row = rows.fixture if event.match else None
    if row is not None and row.status == "played":
        raise NotAllowed(
            f"{BONUS}: {event.match} is already recorded; bonus cards are drawn before"
            " kick-off (pre-match 7): book them before the report"
        )
    other = target_team(event, rows)
    if other is None or other == event.team:
        raise InvalidInput(f"{BONUS}: name the opponent or the scheduled fixture")
    ours, theirs = rating(event.team), rating(other)
    if ours is None or theirs is None:
        raise InvalidInput(f"{BONUS}: {event.team} or {other} is not a team of this league")
    bonus = handicap(t, ours, theirs).cards
    if not bonus:
        raise NotAllowed(
            f"{event.team} (TR {ours}) v {other} (TR {theirs}): no bonus cards (Handicap"
            " Table: only the lower-rated team, from a difference of 11)"
        )
    why = f"ZAL 8b: the D6 draw, then {bonus} bonus cards (Handicap Table, TR {ours} v {theirs})"
    return [DiceNeed(purpose="cards", dice="D6", subject=event.team, why=why)]


def injury_needs(event: CardPlayed, rows: MatchRows) -> list[DiceNeed]:
    player = target_player(event, rows)
    if player is None:
        raise InvalidInput("injured_in_practice: name the player it was played on")
    if player.team_id == event.team:
        raise InvalidInput(
            f"injured_in_practice: {player.name} plays for {event.team}, which played the"
            " card: it is played on an opposing player"
        )
    why = f"ZAL 8d iv: {player.name} on the Casualty Table"
    return [
        DiceNeed(purpose="casualty_d6", dice="D6", subject=player.player_id, why=why),
        DiceNeed(purpose="casualty_d8", dice="D8", subject=player.player_id, why=why),
    ]


# --- what a card does (fold side: never raises) -------------------------------------------------


def outcomes(
    t: Tables,
    event: CardPlayed,
    rows: MatchRows,
    dice: DiceBox,
) -> Effects:
    card = card_id(event.card)
    if card == "injured_in_practice":
        return injured_in_practice(t, event, rows, dice)
    victim = target_team(event, rows)
    if victim is None or card not in ("bankruptcy", "robbery"):
        return []
    if card == "bankruptcy":
        return bankruptcy(t, event, rows, victim, dice)
    earned = earnings(rows.fixture, victim) if event.match else None
    team = rows.team(victim)
    held = max(0, team.treasury) if team is not None else 0
    return robbery(t, event, victim, earned or 0, held, dice)


def bankruptcy(
    t: Tables, event: CardPlayed, rows: MatchRows, victim: str, dice: DiceBox
) -> Effects:
    team = rows.team(victim)
    roll = dice.roll(event.dice, "bankruptcy", "D6", victim)[0]
    share = share_of(t.cards.bankruptcy, roll)
    lost = take(share, max(0, team.treasury if team else 0))
    if not lost:
        return []
    note = f"Bankruptcy (D6 {roll}): loses {share} of earnings and savings (ZAL 8d i)"
    return [Gold(team=victim, amount=-lost, kind="card", note=note)]


def robbery(
    t: Tables, event: CardPlayed, victim: str, earned: int, held: int, dice: DiceBox
) -> Effects:
    """The thief's share of what the victim ``earned``; no more than the victim ``held``."""
    roll = dice.roll(event.dice, "robbery", "D6", event.team)[0]
    share = share_of(t.cards.robbery, roll)
    stolen = min(take(share, earned), held)
    if not stolen:
        return []
    note = f"Robbery (D6 {roll}): {share} of {earned:,} earned in {event.match} (ZAL 8d ii)"
    if stolen < take(share, earned):
        note += f"; only {stolen:,} left in the treasury"
    return [
        Gold(team=victim, amount=-stolen, kind="card", note=note),
        Gold(team=event.team, amount=stolen, kind="card", note=note),
    ]


def injured_in_practice(t: Tables, event: CardPlayed, rows: MatchRows, dice: DiceBox) -> Effects:
    player = target_player(event, rows)
    if player is None:
        return []
    casualty = event.casualty or practice_casualty(t, player.player_id, event.dice, dice)
    if casualty is None or casualty.recovered:
        return []
    note = f"Injured in Practice: {casualty.outcome} (ZAL 8d iv)"
    if "dead" in casualty.effects:
        return [Leaves(player=player.player_id, status="dead", note=note)]
    # He misses this match, which the card was played for; the injury's own 'miss next
    # game' is that same match, so only the lasting effects stay on the roster.
    lasting = tuple(e for e in casualty.effects if e != "miss_next_game")
    return [Hurt(player=player.player_id, effects=lasting, note=note)] if lasting else []


def practice_casualty(
    t: Tables, player: str, recorded: tuple[DiceRoll, ...], dice: DiceBox
) -> Casualty | None:
    rolls = [
        DiceRoll(purpose=p, dice=d, values=dice.roll(recorded, p, d, player), subject=player)
        for p, d in (("casualty_d6", "D6"), ("casualty_d8", "D8"))
    ]
    found = casualties.from_dice(lrb6_tables(), rolls)
    if found is None:
        return None
    outcome, effects = found
    return Casualty(
        victim=player, cause="card", outcome=outcome, effects=effects, dice=tuple(rolls)
    )
