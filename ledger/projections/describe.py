"""One-line descriptions of events, and the entities each touched (for ``ledger history``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ledger.domain import events as ev
from ledger.words import plural

Describer = Callable[[ev.LedgerEvent], str]


def _gold(amount: int) -> str:
    return f"{amount:,}"


def _match(e: ev.MatchRecorded) -> str:
    score = f"{e.home.team} {e.home.touchdowns}-{e.away.touchdowns} {e.away.team}"
    extra = f", conceded by {e.concession.team}" if e.concession else ""
    return f"{e.kind} match {e.match}: {score}{extra}"


def _submitted(e: ev.ReportSubmitted) -> str:
    """The score as the submitted report gives it (a side's players' touchdowns add up to
    its score unless it says otherwise)."""
    return " v ".join(_side(e.report.get(side)) for side in ("home", "away"))


def _side(side: object) -> str:
    if not isinstance(side, dict):
        return "?"
    scored = side.get("touchdowns")
    if not isinstance(scored, int):
        players = side.get("players")
        lines = players if isinstance(players, list) else []
        tds = [line.get("touchdowns", 0) for line in lines if isinstance(line, dict)]
        scored = sum(td for td in tds if isinstance(td, int))
    return f"{side.get('team', '?')} {scored}"


DESCRIBERS: dict[type[ev.LedgerEvent], Callable[..., str]] = {
    ev.LeagueCreated: lambda e: f"league {e.name} created under {e.ruleset}",
    ev.SeasonStarted: lambda e: (
        f"season {e.season} started ({plural(len(e.divisions), 'division')})"
    ),
    ev.FixturesScheduled: lambda e: (
        f"{plural(len(e.fixtures), 'fixture')} scheduled for season {e.season}"
    ),
    ev.SeasonClosed: lambda e: f"season {e.season} closed",
    ev.TeamRegistered: lambda e: (
        f"{e.name} ({e.roster}, coach {e.coach}) registered with {_gold(e.treasury)}"
    ),
    ev.PlayerHired: lambda e: (
        f"{e.team} hired {e.name} ({e.position}, {e.kind}) for {_gold(e.price)}"
    ),
    ev.PlayerFired: lambda e: f"{e.team} fired player {e.player}",
    ev.PlayerTemporarilyRetired: lambda e: f"{e.team}: player {e.player} temporarily retired",
    ev.PlayerDied: lambda e: f"{e.team}: player {e.player} died",
    ev.PlayerLeft: lambda e: f"{e.team}: player {e.player} left the team",
    ev.SidelinePurchased: lambda e: (
        f"{e.team} bought "
        + ", ".join(f"{p.count} x {p.item} ({_gold(p.price)})" for p in e.purchases)
    ),
    ev.SidelineReleased: lambda e: f"{e.team} let go {e.count} x {e.item}",
    ev.TreasuryAdjusted: lambda e: f"{e.team} treasury adjusted by {_gold(e.amount)}",
    ev.PlayerAdvanced: lambda e: (
        f"{e.team}: player {e.player} took {e.kind.replace('_', ' ')}"
        f" {e.skill or (e.characteristic or '').upper()}"
    ),
    ev.InducementsBought: lambda e: (
        f"{e.team} bought inducements for {e.match}: "
        + (", ".join(f"{p.count} x {p.item}" for p in e.purchases) or "none")
    ),
    ev.MatchRecorded: _match,
    ev.PostGameClosed: lambda e: f"{e.team} closed the post-game sequence of {e.match}",
    ev.AppearanceFeesPaid: lambda e: (
        f"{e.team} paid appearance fees for {e.match}: "
        + ", ".join(f"{p.item} {_gold(p.price)}" for p in e.fees)
    ),
    ev.BountyPosted: lambda e: (
        f"{e.team} posted a bounty of {_gold(e.amount)} on player {e.player}"
    ),
    ev.CardPlayed: lambda e: (
        f"{e.team} played {e.card}" + (f" on {e.against}" if e.against else "")
    ),
    ev.StarDraftOrdered: lambda e: f"star draft order for season {e.season}: " + ", ".join(e.order),
    ev.StarSigned: lambda e: f"{e.team} signed star {e.star} for season {e.season}",
    ev.TeamRedrafted: lambda e: (
        f"{e.team} re-drafted for season {e.season}: {len(e.players)} players kept"
    ),
    ev.MemberGranted: lambda e: (
        f"account {e.member} made {e.role}"
        + (f" of {', '.join(e.teams)}" if e.teams else " of the league")
    ),
    ev.MemberRemoved: lambda e: f"account {e.member} no longer has a role in the league",
    ev.LeagueVisibilitySet: lambda e: (
        "the league made public" if e.public else "the league made members-only"
    ),
    ev.ReportSubmitted: lambda e: (
        f"{e.team} submitted report {e.submission} of match {e.match}: {_submitted(e)}"
    ),
    ev.ReportConfirmed: lambda e: f"{e.team} confirmed report {e.submission} of match {e.match}",
    ev.ReportDisputed: lambda e: f"{e.team} disputed report {e.submission} of match {e.match}",
    ev.ReportApproved: lambda e: f"report {e.submission} of match {e.match} approved",
    ev.ReportRejected: lambda e: f"report {e.submission} of match {e.match} rejected",
    ev.EventCorrected: lambda e: (
        f"event {e.target} voided"
        if e.action == "void"
        else f"event {e.target} amended ({', '.join(sorted(e.amendment))})"
    ),
}


def describe(event: ev.LedgerEvent, name_of: Callable[[str], str | None] | None = None) -> str:
    """The event in words; ``name_of`` turns the player id an event names into his name."""
    describer = DESCRIBERS.get(type(event))
    text = describer(event) if describer else type(event).__name__
    player = vars(event).get("player")
    if name_of is not None and isinstance(player, str) and (name := name_of(player)):
        text = text.replace(f"player {player}", name)
    return text


def also_voided(closes: Sequence[int]) -> str:
    """What a void of a match report takes with it, for the correction's description."""
    if not closes:
        return ""
    numbers = ", ".join(str(seq) for seq in closes)
    return f", and with it the post-game close{'s' if len(closes) > 1 else ''} {numbers}"


def refs(event: ev.LedgerEvent) -> list[str]:
    """``team:<id>``, ``player:<id>``, ``match:<id>`` for every entity the event names."""
    fields = vars(event)  # not getattr: a missing attribute of a model is slow to miss
    found: list[str] = ["league"]
    for name in ("team", "player", "match"):
        value = fields.get(name)
        if isinstance(value, str):
            found.append(f"{name}:{value}")
    if isinstance(event, ev.MatchRecorded):
        # Players who merely played are found through their game lines (rm_player_games);
        # a casualty changes a player's record, so it is referenced here.
        found += [f"team:{sheet.team}" for sheet in event.sheets()]
        found += [f"player:{c.victim}" for c in event.casualties]
    if isinstance(event, ev.EventCorrected):
        found.append(f"event:{event.target}")
    submission = fields.get("submission")
    if isinstance(submission, str):
        found.append(f"submission:{submission}")
    if isinstance(event, ev.TeamRedrafted):
        found += [f"player:{p.item}" for p in event.players]
    if isinstance(event, ev.CardPlayed) and event.against:
        found.append(f"player:{event.against}")
        found.append(f"team:{event.against}")
    if isinstance(event, ev.AppearanceFeesPaid):
        found += [f"player:{p.item}" for p in event.fees]
    return sorted(set(found))
