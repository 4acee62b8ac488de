"""Hiring and buying rules (and a match's casualties) as functions that return the
problems they find.

Every edition limits a team the same way: a roster of at most ``TeamList.max_players``,
at most ``Position.max`` of each position of its list, at most ``SidelineItem.max`` of
each sideline item, items sold only where its sideline table lists them (some only while
drafting), whatever its own rules add (``Ruleset.problems`` of a ``Hiring`` or a
``Buying``: the edition's ``check_hire``, ``check_buy``), and nothing bought beyond the
treasury. The numbers come from each edition's data files; these functions are
the one place the rules are checked. A command raises the first problem as its
``LedgerError`` (``refuse``); a what-if replay turns each into a divergence
(``ledger.whatif.policies``). A rule checked here and again beside a command or a replay
would let the two drift apart silently.

Worked example: a Human team (0-2 Blitzers) holding two Blitzers asks for a third:
``position_room(team, players, blitzer, "human")`` is
``[Problem(PositionLimitReached, "Reavers already have 2 x Blitzer (at most 2)", have=2,
limit=2)]``; ``ledger team hire`` prints ``error[position-limit]: Reavers already have 2 x
Blitzer (at most 2)`` and a replay of a league that hired him hires him as a Lineman.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ledger.domain.events import ADVANCEMENT_NAMES, PlayerAdvanced, PlayerHired
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import MAX_GOLD, Casualty
from ledger.errors import (
    AllyRefused,
    InsufficientTreasury,
    InvalidAdvancement,
    InvalidDice,
    InvalidInput,
    LedgerError,
    NameTaken,
    NotAllowed,
    NumberTaken,
    PositionLimitReached,
    RosterFull,
    SecretWeaponRefused,
    StaffLimit,
    UnknownItem,
    suggested,
)
from ledger.rules.protocol import Feature, Ruleset, SidelineItem
from ledger.rules.schema import Position, TeamList
from ledger.words import article, one_of


@dataclass(frozen=True, slots=True)
class Problem:
    """One rule a decision breaks: the error a command raises for it (whose ``code`` is
    stable: the CLI prints it, the service returns it) and the sentence it says, with the
    numbers a what-if replay decides by (how far over a limit, how short of gold)."""

    error: type[LedgerError]
    sentence: str
    have: int | None = None
    """How many there already are (players, of a position, of an item), or the gold held."""
    limit: int | None = None
    """The most the rule allows."""
    price: int | None = None
    """What the refused decision costs."""
    team: str | None = None
    """The team of a match report the problem is about (a side's MVPs): a form shows it
    beside that side's lines."""

    @property
    def code(self) -> str:
        return self.error.code


def refuse(problems: Sequence[Problem]) -> None:
    """Raise the first problem as its error, its sentence as it is.

    Which is first: the order the rule lists them. A command's own checks come before the
    edition's (``plan_hire``: roster size, position limit, name and number, the edition's
    ``problems(Hiring(...))``, then the price); an edition lists its problems in the order
    its book gives the rules (``problems(Report(...))``: the concession, then each side's
    MVPs and hirelings, home before away). The others are the what-if replay's: it turns each
    into a divergence.
    """
    if problems:
        first = problems[0]
        raise first.error(first.sentence)


def found(
    error: type[LedgerError], sentences: Iterable[str], team: str | None = None
) -> list[Problem]:
    """Each sentence a rule's helper says, as a problem of that rule (``error``'s code),
    about ``team``'s side of a report when it names one."""
    return [Problem(error, sentence, team=team) for sentence in sentences]


def gold(amount: int) -> str:
    return f"{amount:,}"


def has_feature(ruleset: Ruleset, feature: Feature, what: str) -> list[Problem]:
    """An optional mechanic (bounties, re-drafts, temporary retirement...) exists only in
    the editions whose ``Ruleset.features`` name it."""
    if feature in ruleset.features:
        return []
    return [Problem(NotAllowed, f"{ruleset.name} leagues have no {what}")]


# --- hiring ------------------------------------------------------------------------------


RESULT_EITHER_WAY = ("characteristic", "star_roll")
"""The advancements whose roll may give a characteristic (or, chosen instead, a skill);
every other column of the table gives a skill."""


def kind_offered(ruleset: Ruleset, event: PlayerAdvanced) -> list[Problem]:
    """A kind of advancement the edition does not have (``advancement_kinds``: BB2025
    dropped BB2020's random secondary skill, the older editions have only the Star Player
    Roll) is refused in one sentence for all, naming the ways its players advance."""
    kinds = ruleset.advancement_kinds
    if event.kind in kinds:
        return []
    ways = one_of([f"{article(ADVANCEMENT_NAMES[k])} ({k})" for k in kinds])
    asked = ADVANCEMENT_NAMES.get(event.kind, event.kind)
    sentence = f"no {asked} in {ruleset.name}: a player advances by {ways}"
    return [Problem(InvalidAdvancement, sentence)]


def one_result(event: PlayerAdvanced) -> list[Problem]:
    """An advancement gives one thing, in every edition: a skill, or a characteristic
    where its roll allows one. Asked before the edition's own check, which reads only the
    half its kind uses and would record the other unread."""
    if event.skill and event.characteristic:
        sentence = "an advancement gives a skill or a characteristic, not both: leave one out"
        return [Problem(InvalidAdvancement, sentence)]
    if event.characteristic and event.kind not in RESULT_EITHER_WAY:
        words = event.kind.replace("_", " ")
        sentence = f"a {words} skill improves no characteristic: leave the characteristic out"
        return [Problem(InvalidAdvancement, sentence)]
    return []


def unread_rolls(ruleset: Ruleset, event: PlayerAdvanced) -> list[Problem]:
    """A roll the advancement's kind does not read (a characteristic die given with a
    chosen skill, a second Star Player Roll) is refused, not stored unread. Asked by the
    command only: a what-if's candidates carry the rolls of the edition replayed."""
    reads = ruleset.advancement_reads.get(event.kind)
    if reads is None:
        return []  # a kind the edition does not know: its own check says so
    given = Counter(roll.purpose for roll in event.dice)
    what = f"a {event.kind.replace('_', ' ')} advancement"
    if unread := sorted(given.keys() - reads.keys()):
        it_reads = f"reads only {' and '.join(reads)}" if reads else "reads no roll"
        sentence = f"{what} {it_reads}: leave out {' and '.join(unread)}"
        return [Problem(InvalidDice, sentence)]
    for purpose, most in reads.items():
        if most is not None and given[purpose] > most:
            sentence = f"{what} reads one {purpose} roll, not {given[purpose]}"
            return [Problem(InvalidDice, sentence)]
    return []


def beyond_the_list(ruleset: Ruleset, event: PlayerHired, team: TeamRow) -> list[Problem]:
    """A player of another team list (an ally) only from a list the edition lets the team
    draw on, and bought with only what his position may take: nothing of either in an
    edition without allies or equipment (``Catalogue.allies`` and ``equipment``: gold4's
    Allied Teams Table and Secret Weapons; every other edition has none). Asked after the
    edition's own ``check_hire``, which may say it in the edition's words."""
    catalogue, ally = ruleset.catalogue, event.from_list
    allies = catalogue.allies(team.roster)
    if ally is not None and ally != team.roster and ally not in allies:
        allowed = ", ".join(sorted(allies)) or f"{ruleset.name} has no allies"
        sentence = f"{article(team.roster)} team may not take {ally} allies ({allowed})"
        return [Problem(AllyRefused, sentence)]
    if not event.equipment or event.star is not None:
        return []
    roster = ally or team.roster
    team_list = catalogue.team_lists().get(roster)
    position = team_list.position(event.position) if team_list is not None else None
    allowed_items = {e.id for e in catalogue.equipment(roster, position)} if position else set()
    return [
        Problem(SecretWeaponRefused, f"{article(event.position)} may not be bought with {item}")
        for item in event.equipment
        if item not in allowed_items
    ]


def roster_room(team: TeamRow, players: Sequence[PlayerRow], team_list: TeamList) -> list[Problem]:
    """A roster holds at most the list's ``max_players`` (16 in every edition so far)."""
    if len(players) < team_list.max_players:
        return []
    sentence = (
        f"{team.name} already have {len(players)} players on the roster"
        f" (at most {team_list.max_players})"
    )
    return [Problem(RosterFull, sentence, have=len(players), limit=team_list.max_players)]


def position_room(
    team: TeamRow, players: Sequence[PlayerRow], position: Position, roster: str
) -> list[Problem]:
    """At most ``position.max`` players of a position of the list ``roster`` (the team's
    own, or the list an ally is hired from)."""
    same = count_of(players, roster, position.id)
    if same < position.max:
        return []
    sentence = f"{team.name} already have {same} x {position.name} (at most {position.max})"
    return [Problem(PositionLimitReached, sentence, have=same, limit=position.max)]


def count_of(players: Sequence[PlayerRow], roster: str, position: str) -> int:
    return sum(1 for p in players if p.position == position and p.roster == roster)


def unique_identity(
    team: TeamRow, players: Sequence[PlayerRow], name: str, number: int | None
) -> list[Problem]:
    """Names and shirt numbers are unique within a roster, so a commissioner can name a
    player by either. Not an edition's rule: a replay keeps the names it was given."""
    problems = []
    if any(p.name.casefold() == name.casefold() for p in players):
        problems.append(Problem(NameTaken, f"{team.name} already have a player called {name}"))
    if number is not None and any(p.number == number for p in players):
        problems.append(
            Problem(NumberTaken, f"{team.name} already have a player wearing #{number}")
        )
    return problems


def gold_enough(team: TeamRow, price: int, what: str, treasury: int | None = None) -> list[Problem]:
    """Nothing is bought beyond the treasury (``treasury`` when what is left of it is not
    yet the team's: a replay buying several items of one purchase)."""
    held = team.treasury if treasury is None else treasury
    if price <= held:
        return []
    sentence = f"{what} costs {gold(price)} but {team.name} have {gold(held)} in the treasury"
    return [Problem(InsufficientTreasury, sentence, have=held, price=price)]


def not_past_the_bound(team: TeamRow, amount: int) -> list[Problem]:
    """An award never takes the treasury past any amount of gold the books hold (each award
    within the bound, repeated, reached a billion)."""
    if team.treasury + amount <= MAX_GOLD:
        return []
    sentence = (
        f"{team.name} have {gold(team.treasury)}; an award of {gold(amount)} would take"
        f" the treasury past {gold(MAX_GOLD)}, more gold than any league's books hold"
    )
    return [Problem(NotAllowed, sentence, have=team.treasury, limit=MAX_GOLD)]


def not_below_nothing(team: TeamRow, amount: int) -> list[Problem]:
    """A treasury adjustment (a fine) never leaves the treasury negative."""
    if team.treasury + amount >= 0:
        return []
    sentence = (
        f"{team.name} have {gold(team.treasury)}; an adjustment of"
        f" {gold(amount)} would leave the treasury negative"
    )
    return [Problem(InsufficientTreasury, sentence, have=team.treasury, price=-amount)]


# --- buying --------------------------------------------------------------------------------


def sold(ruleset: Ruleset, items: Mapping[str, SidelineItem], item_id: str) -> list[Problem]:
    """Only what the edition's sideline table sells (``Ruleset.sideline_items``)."""
    if item_id in items:
        return []
    listed = ", ".join(sorted(items))
    if any(item_id in ruleset.sideline_offer(r) for r in ruleset.catalogue.team_lists()):
        # an item of the edition this team's list goes without (a Nurgle apothecary)
        sentence = f"{ruleset.name} sells no '{item_id}' to this team's list (items: {listed})"
        return [Problem(NotAllowed, sentence)]
    sentence = f"{ruleset.name} teams cannot buy '{item_id}' (items: {listed})"
    return [Problem(UnknownItem, suggested(sentence, item_id, items))]


def while_drafting(team: TeamRow, item: SidelineItem) -> list[Problem]:
    """Some items (BB2025 Dedicated Fans) are bought only while the team is drafting."""
    if not item.draft_only or team.drafting:
        return []
    return [Problem(NotAllowed, f"{item.name} can only be bought while drafting the team")]


def held(team: TeamRow, item: str, counts_as: str) -> int:
    """How many of a sideline item a team holds."""
    if counts_as == "reroll":
        return team.rerolls
    if counts_as == "fans":
        return team.fans
    return team.staff.get(item, 0)


def item_room(team: TeamRow, item: SidelineItem, have: int, count: int) -> list[Problem]:
    """At most ``item.max`` of an item (re-rolls, Dedicated Fans, each kind of staff)."""
    if have + count <= item.max:
        return []
    sentence = (
        f"{team.name} have {have} x {item.name}: {count} more would make {have + count};"
        f" at most {item.max}"
    )
    return [Problem(StaffLimit, sentence, have=have, limit=item.max)]


# --- letting staff go ----------------------------------------------------------------------


def let_go(team: TeamRow, item: str, have: int, count: int) -> list[Problem]:
    """At least one, and no more than the team holds."""
    if 1 <= count <= have:
        return []
    sentence = f"{team.name} have {have} x {item}; cannot let {count} go"
    return [Problem(InvalidInput, sentence, have=have)]


# --- a match's casualties ------------------------------------------------------------------


def casualties_once(casualties: Sequence[Casualty], names: Sequence[str]) -> list[Problem]:
    """A player removed as a casualty takes no further part in the game, unless the
    casualty is recovered (seed 001 'Earning Star Player Points', Casualty: "recovered by
    any means - such as an Apothecary or the Regeneration Trait"); so a player is a
    casualty again only after a recovered one: at most one of his casualties stands.
    ``names`` are the victims as the report names them, one per casualty."""
    standing: set[str] = set()
    for casualty, name in zip(casualties, names, strict=True):
        if casualty.recovered:
            continue
        if casualty.victim in standing:
            sentence = (
                f"{name} is a casualty twice and neither was recovered: a player removed as"
                " a casualty plays no more of the game (mark the one an apothecary or"
                " regeneration healed recovered: true)"
            )
            return [Problem(InvalidInput, sentence)]
        standing.add(casualty.victim)
    return []
