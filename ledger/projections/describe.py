"""One-line descriptions of events, and the entities each touched (for ``ledger history``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from ledger.domain import events as ev
from ledger.domain.per_class import per_class
from ledger.domain.plain import field_names
from ledger.rules.schema import category_said
from ledger.words import advancement, plural, rolls_said, words


class Names(Protocol):
    """What the state and the league's edition know of the ids an event names (None:
    nothing)."""

    def player_name(self, player_id: str, /) -> str | None: ...

    def team_name(self, team_id: str, /) -> str | None: ...

    def item_name(self, team_id: str, item: str, /) -> str | None:
        """A sideline item as the edition names it for the team (``reroll``: Team
        Re-roll)."""

    def inducement_name(self, team_id: str, item: str, /) -> str | None:
        """An inducement as the edition's offer to the team names it (``bribe``: Bribes;
        a Star Player by his name)."""

    def position_name(self, team_id: str, position: str, from_list: str | None, /) -> str | None:
        """A position of the team's list (or of ``from_list``, an ally's) as the edition
        names it."""

    def list_name(self, roster: str, /) -> str | None:
        """A team list as the edition names it (``human``: Human)."""


class NoNames:
    """Nothing known: every id is said as it is (the raw log, a drafted event)."""

    def player_name(self, player_id: str, /) -> str | None:
        return None

    def team_name(self, team_id: str, /) -> str | None:
        return None

    def item_name(self, team_id: str, item: str, /) -> str | None:
        return None

    def inducement_name(self, team_id: str, item: str, /) -> str | None:
        return None

    def position_name(self, team_id: str, position: str, from_list: str | None, /) -> str | None:
        return None

    def list_name(self, roster: str, /) -> str | None:
        return None


class Say:
    """Names where the state knows them, ids where nothing else exists. A plain class
    (a frozen dataclass sets its field through ``object.__setattr__``): one is made for
    every event a rebuild folds."""

    __slots__ = ("names",)

    def __init__(self, names: Names) -> None:
        self.names = names

    def team(self, team_id: str) -> str:
        return self.names.team_name(team_id) or team_id

    def teams(self, team_ids: Iterable[str]) -> str:
        return ", ".join(self.team(t) for t in team_ids)

    def player(self, player_id: str) -> str:
        return self.names.player_name(player_id) or f"player {player_id}"

    def either(self, ref: str) -> str:
        """A team's or a player's id (a card's target)."""
        return self.names.team_name(ref) or self.names.player_name(ref) or ref

    def counted(self, team_id: str, count: int, item: str) -> str:
        """``2 x Assistant Coach``: a sideline item by the edition's name where it has one,
        else by its id in words."""
        named = self.names.item_name(team_id, item)
        return f"{count} x {named}" if named else counted(count, item)

    def induced(self, team_id: str, count: int, item: str) -> str:
        """``1 x Nobbla Blackwart``: an inducement by the edition's name where its offer
        to the team has one, else by its id in words."""
        named = self.names.inducement_name(team_id, item)
        return f"{count} x {named}" if named else counted(count, item)

    def hired_as(self, e: ev.PlayerHired) -> str:
        """What a hire took on: a position of the list, and the kind unless a regular; a
        star by his kind alone (the event names him so; his id is the books')."""
        named = self.names.position_name(e.team, e.position, e.from_list)
        if e.kind == "star" or not named:
            return hired_as(e)
        return named if e.kind == "regular" else f"{named}, {e.kind}"

    def list(self, roster: str) -> str:
        return self.names.list_name(roster) or words(roster)


def _gold(amount: int) -> str:
    return f"{amount:,}"


def _match(e: ev.MatchRecorded, n: Say) -> str:
    """The score; a game of more than two teams (a Dungeon Bowl final) by each side's
    touchdowns and its winner."""
    if e.others:
        sides = " v ".join(f"{n.team(s.team)} {s.touchdowns}" for s in e.sheets())
        score = f"{sides}, won by {n.team(e.winner)}" if e.winner else sides
    else:
        home, away = e.home, e.away
        score = f"{n.team(home.team)} {home.touchdowns}-{away.touchdowns} {n.team(away.team)}"
    extra = f", conceded by {n.team(e.concession.team)}" if e.concession else ""
    return f"{e.kind} match {e.match}: {score}{extra}"


def hired_as(e: ev.PlayerHired) -> str:
    """What a hire took on, by the books' ids (a treasury line's note): a position of the
    list and the kind; a star by his kind alone (the event names him so)."""
    return e.kind if e.kind == "star" else f"{words(e.position)}, {e.kind}"


def counted(count: int, item_id: str) -> str:
    """``2 x bribe``: an item by its id in words, where nothing names it (the raw log, an
    item the edition no longer offers)."""
    return f"{count} x {words(item_id)}"


REMOVES_TRAIT = "remove_trait"
"""The category of a 4th edition Big Guy's double that takes a trait away (his skill names
the trait): the event says it, so its sentence does too."""


SIDES = {"home": "home side", "away": "away side", "others": "other sides"}
"""A report's fields that hold a whole side, as an amendment's summary says them."""


def field_said(name: str) -> str:
    """An amended field in words: ``played_on`` is ``played on``, ``home`` the home side."""
    return SIDES.get(name) or words(name)


def scheduled(e: ev.FixturesScheduled, n: Say) -> str:
    """A season's round robin by its count; a play-off round drawn by its stage, and a
    single game (the final) by its teams."""
    if any(f.stage == "regular" for f in e.fixtures) or not e.fixtures:
        return f"{plural(len(e.fixtures), 'fixture')} scheduled for season {e.season}"
    if len(e.fixtures) == 1:
        game = e.fixtures[0]
        teams = " v ".join(n.team(t) for t in (game.teams or (game.home, game.away)))
        return f"play-offs of season {e.season} drawn: the {words(game.stage)}, {teams}"
    stages = ", ".join(words(stage) for stage in dict.fromkeys(f.stage for f in e.fixtures))
    return f"play-offs of season {e.season} drawn: {plural(len(e.fixtures), 'game')} ({stages})"


def advanced(e: ev.PlayerAdvanced) -> str:
    """What the advancement took: a skill, +MA, or a trait removed."""
    if e.category == REMOVES_TRAIT and e.skill:
        return advancement(None, None, (e.skill,))
    return advancement(e.skill, e.characteristic)


def kind_said(kind: str) -> str:
    """``random primary skill``: an advancement's kind as a sentence names it."""
    return ev.ADVANCEMENT_NAMES.get(kind, words(kind))


def rolled(e: ev.AdvancementRolled, n: Say) -> str:
    """The roll and the column it was made on, before the choice."""
    column = f" in category {category_said(e.category)}" if e.category else ""
    dice = rolls_said((d.purpose, d.values) for d in e.dice)
    said = f"{n.player(e.player)}'s {kind_said(e.kind)}{column}"
    return f"{n.team(e.team)}: the ledger rolled {said}: {dice}"


def _submitted(e: ev.ReportSubmitted, n: Say) -> str:
    """The score as the submitted report gives it (a side's players' touchdowns add up to
    its score unless it says otherwise)."""
    sides = [e.report.get("home"), e.report.get("away"), *e.report.get("others", ())]
    return " v ".join(_side(side, n) for side in sides)


def _side(side: object, n: Say) -> str:
    if not isinstance(side, dict):
        return "?"
    scored = side.get("touchdowns")
    if not isinstance(scored, int):
        players = side.get("players")
        lines = players if isinstance(players, list) else []
        tds = [line.get("touchdowns", 0) for line in lines if isinstance(line, dict)]
        scored = sum(td for td in tds if isinstance(td, int))
    team = side.get("team")
    return f"{n.team(team) if isinstance(team, str) else '?'} {scored}"


DESCRIBERS: dict[type[ev.LedgerEvent], Callable[..., str]] = {
    ev.LeagueCreated: lambda e, n: f"league {e.name} created under {e.ruleset}",
    ev.SeasonStarted: lambda e, n: (
        f"season {e.season} started ({plural(len(e.divisions), 'division')})"
    ),
    ev.FixturesScheduled: scheduled,
    ev.SeasonClosed: lambda e, n: f"season {e.season} closed",
    ev.TeamRegistered: lambda e, n: (
        f"{e.name} ({n.list(e.roster)}, coach {e.coach}) registered with {_gold(e.treasury)}"
    ),
    ev.PlayerHired: lambda e, n: (
        f"{n.team(e.team)} hired {e.name} ({n.hired_as(e)}) for {_gold(e.price)}"
    ),
    ev.PlayerFired: lambda e, n: f"{n.team(e.team)} fired {n.player(e.player)}",
    ev.PlayerTemporarilyRetired: lambda e, n: (
        f"{n.team(e.team)}: {n.player(e.player)} temporarily retired"
    ),
    ev.PlayerDied: lambda e, n: f"{n.team(e.team)}: {n.player(e.player)} died",
    ev.PlayerLeft: lambda e, n: f"{n.team(e.team)}: {n.player(e.player)} left the team",
    ev.SidelinePurchased: lambda e, n: (
        f"{n.team(e.team)} bought "
        + ", ".join(f"{n.counted(e.team, p.count, p.item)} ({_gold(p.price)})" for p in e.purchases)
    ),
    ev.SidelineReleased: lambda e, n: (
        f"{n.team(e.team)} let go {n.counted(e.team, e.count, e.item)}"
    ),
    ev.TreasuryAdjusted: lambda e, n: f"{n.team(e.team)} treasury adjusted by {_gold(e.amount)}",
    ev.PlayerAdvanced: lambda e, n: (
        f"{n.team(e.team)}: {n.player(e.player)} took a {kind_said(e.kind)}: " + advanced(e)
    ),
    ev.AdvancementRolled: rolled,
    ev.InducementsBought: lambda e, n: (
        f"{n.team(e.team)} bought inducements for match {e.match}: "
        + (", ".join(n.induced(e.team, p.count, p.item) for p in e.purchases) or "none")
    ),
    ev.MatchRecorded: _match,
    ev.PostGameClosed: lambda e, n: (
        f"{n.team(e.team)} closed the post-game sequence of match {e.match}"
    ),
    ev.AppearanceFeesPaid: lambda e, n: (
        f"{n.team(e.team)} paid appearance fees for match {e.match}: "
        + ", ".join(f"{n.player(p.item)} {_gold(p.price)}" for p in e.fees)
    ),
    ev.BountyPosted: lambda e, n: (
        f"{n.team(e.team)} posted a bounty of {_gold(e.amount)} on {n.player(e.player)}"
    ),
    ev.CardPlayed: lambda e, n: (
        f"{n.team(e.team)} played {e.card}" + (f" on {n.either(e.against)}" if e.against else "")
    ),
    ev.StarDraftOrdered: lambda e, n: f"star draft order for season {e.season}: {n.teams(e.order)}",
    ev.StarSigned: lambda e, n: f"{n.team(e.team)} signed star {e.star} for season {e.season}",
    ev.TeamRedrafted: lambda e, n: (
        f"{n.team(e.team)} re-drafted for season {e.season}: {len(e.players)} players kept"
    ),
    ev.MemberGranted: lambda e, n: (
        f"account {e.member} made {e.role}"
        + (f" of {n.teams(e.teams)}" if e.teams else " of the league")
    ),
    ev.MemberRemoved: lambda e, n: f"account {e.member} no longer has a role in the league",
    ev.AdvancementDiceSet: lambda e, n: (
        "advancements rolled by the ledger only: dice typed in refused"
        if e.by_ledger
        else "advancement dice rolled at the table taken again"
    ),
    ev.LeagueVisibilitySet: lambda e, n: (
        "the league made public" if e.public else "the league made members-only"
    ),
    ev.ReportSubmitted: lambda e, n: (
        f"{n.team(e.team)} submitted report {e.submission} of match {e.match}: {_submitted(e, n)}"
    ),
    ev.ReportConfirmed: lambda e, n: (
        f"{n.team(e.team)} confirmed report {e.submission} of match {e.match}"
    ),
    ev.ReportDisputed: lambda e, n: (
        f"{n.team(e.team)} disputed report {e.submission} of match {e.match}"
    ),
    ev.ReportApproved: lambda e, n: f"report {e.submission} of match {e.match} approved",
    ev.ReportRejected: lambda e, n: f"report {e.submission} of match {e.match} rejected",
    ev.ReportWithdrawn: lambda e, n: (
        f"{n.team(e.team)} withdrew report {e.submission} of match {e.match}"
    ),
    ev.EventCorrected: lambda e, n: (
        f"event {e.target} voided"
        if e.action == "void"
        else f"event {e.target} amended ({', '.join(sorted(map(field_said, e.amendment)))})"
    ),
}
"""Each event in words: ``describer(event, say)``, ``say`` naming its teams and players."""


def describe(event: ev.LedgerEvent, names: Names | None = None) -> str:
    """The event in words, naming its teams and players as ``names`` knows them (the
    fold's state when it folds the event); an id stands where nothing else exists."""
    describer = DESCRIBERS.get(type(event))
    return describer(event, Say(names or NoNames())) if describer else type(event).__name__


def also_voided(closes: Sequence[int]) -> str:
    """What a void of a match report takes with it, for the correction's description."""
    if not closes:
        return ""
    numbers = ", ".join(str(seq) for seq in closes)
    return f", and with it the post-game close{'s' if len(closes) > 1 else ''} {numbers}"


def refs(event: ev.LedgerEvent) -> set[str]:
    """``team:<id>``, ``player:<id>``, ``match:<id>`` for every entity the event names (a
    set: the fold puts them in order with the references it adds). Not the league: every
    event is part of its history (``EventLine``)."""
    fields = vars(event)  # not getattr: a missing attribute of a model is slow to miss
    found = {
        f"{name}:{value}"
        for name in naming_fields[type(event)]
        if isinstance(value := fields[name], str)
    }
    more = more_refs.get(type(event))
    if more is not None:
        found.update(more(event))
    return found


NAMING = ("team", "player", "match", "submission")
"""The fields that name an entity by its id, where an event has them (not every event's
``team`` is an id: a report's sides are sheets)."""


@per_class
def naming_fields(kind: type[ev.LedgerEvent]) -> tuple[str, ...]:
    """The fields of ``NAMING`` that events of ``kind`` have: a rebuild asks every event."""
    names = field_names(kind)
    return tuple(name for name in NAMING if name in names)


more_refs: dict[type[ev.LedgerEvent], Callable[[Any], Iterable[str]]] = {
    # Players who merely played are found through their game lines (rm_team_games); a
    # casualty changes a player's record, so it is referenced here.
    ev.MatchRecorded: lambda e: (
        [f"team:{sheet.team}" for sheet in e.sheets()]
        + [f"player:{c.victim}" for c in e.casualties]
    ),
    ev.EventCorrected: lambda e: [f"event:{e.target}"],
    ev.TeamRedrafted: lambda e: [f"player:{p.item}" for p in e.players],
    ev.CardPlayed: lambda e: [f"player:{e.against}", f"team:{e.against}"] if e.against else [],
    ev.AppearanceFeesPaid: lambda e: [f"player:{p.item}" for p in e.fees],
}
"""The entities an event of these classes names besides its ``NAMING`` fields."""
