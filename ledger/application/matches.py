"""Recording a match report: its sides, players, casualties, score and dice, every mistake
found before it is refused (``closing.py`` closes the post-game sequence after it,
``match_facts.py`` records a card played or a fee paid beside it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import ValidationError

from ledger.application.commands import (
    RecordMatch,
)
from ledger.application.context import Context, Drafts
from ledger.application.mistakes import Found, Mistake, Place
from ledger.application.reports import (
    CasualtyLine,
    DiceEntry,
    MatchReport,
    PlayerLine,
    SideReport,
)
from ledger.domain import events as ev
from ledger.domain.state import (
    REPORTS_WAITING,
    LeagueRow,
    LeagueView,
    MatchRow,
    PlayerRow,
    SeasonRow,
    SubmissionRow,
    TeamRow,
    roster_of,
)
from ledger.domain.values import (
    Casualty,
    DiceRoll,
    Effect,
    Hireling,
    Performance,
    TeamSheet,
    dice_shape,
)
from ledger.errors import (
    DieWanted,
    InvalidDice,
    InvalidInput,
    LedgerError,
    NotAllowed,
    PlayerNotInTeam,
    PlayerUnavailable,
    PostGameOpen,
    SeasonState,
    UnknownPlayer,
)
from ledger.projections.gather import match_rows
from ledger.projections.match_applier import unrecorded
from ledger.rules.asked import Report
from ledger.rules.playoffs import shootout_problems
from ledger.rules.problems import casualties_once, refuse
from ledger.rules.protocol import DiceNeed
from ledger.rules.rows import MatchRows
from ledger.words import possessive


@dataclass
class Side:
    """One team's side while a report is resolved into facts."""

    team: TeamRow
    report: SideReport
    place: Place = ("home",)
    """Where the side is in the report: ``("home",)``, ``("away",)``, ``("others", 0)``."""
    players: dict[str, Performance] = field(default_factory=dict)
    hirelings: dict[str, Hireling] = field(default_factory=dict)
    roster: set[str] = field(default_factory=set)
    """Every player id of the team: rolls about a player who did not play (a walk-out
    after a concession) still belong to this side."""

    def ids(self) -> set[str]:
        return set(self.players) | set(self.hirelings)

    def name_of(self, ref: str, c: Context) -> str:
        """The name of the side's player or hireling the report calls ``ref`` (an id, a
        name, a shirt number): a sentence names him so, not by the form's id."""
        hireling = next((h for h in self.hirelings.values() if ref in (h.id, h.name)), None)
        if hireling is not None:
            return hireling.name
        try:
            return c.player(ref, self.team.team_id).name
        except LedgerError:
            return ref


def rolled(
    draft: ev.MatchRecorded, sides: list[Side], report: MatchReport, rolls: tuple[DiceRoll, ...]
) -> ev.MatchRecorded:
    """The drafted match with ``rolls``: each on the sheet of the side it is about, the rest
    at the match's level. Each step of resolving a report makes a new draft rather than
    changing one in place; the ruleset is asked about each as the event it would be."""
    home, away, *others = (sheet(side, report, rolls) for side in sides)
    match_level = tuple(r for r in rolls if r.subject is None)
    update = {"home": home, "away": away, "others": tuple(others), "dice": match_level}
    return draft.model_copy(update=update)


def plan_record(c: Context, command: RecordMatch) -> Drafts:
    return [resolve_report(c, command.report, command.roll_missing)]


def resolve_report(
    c: Context, report: MatchReport, roll_missing: bool, amending: ev.MatchRecorded | None = None
) -> ev.MatchRecorded:
    """The ``MatchRecorded`` this report records (a draft), checked against the league.

    When ``amending`` an earlier report, ``c`` is the league as it stood just before that
    report (corrections.context_before): its players are checked as they were then, not
    barred by the injuries the match itself caused. The match keeps its identity, and dice
    the new report leaves out are taken from the original.

    Every mistake of the report is found before it is refused, each at its place
    (``mistakes.py``): its match, each side's lines, each casualty, the score, the dice,
    then the edition's rules of the whole game (asked only of a game none of whose lines
    was left out for a mistake).
    """
    found = Found()
    if amending is None:
        match_id, season, round_ = identified(c, report, found)
    else:
        match_id, season, round_ = amending.match, amending.season, amending.round
    sides = resolve_sides(c, report, found)
    if amending is None and c.match(match_id) is None:
        with found.at("match"):
            check_no_fixture_waits(c, report.kind, match_id, season, sides)
    for side in sides:
        if amending is None:
            with found.at(*side.place, "team"):
                check_post_game_closed(c, side.team)
    casualties = resolve_casualties(c, report, sides, roll_missing, found)
    with found.at("concession"):
        check_concession(report, sides)
    for side in sides:
        with found.at(*side.place, "touchdowns"):
            check_score(side, report)
    home, away, *others = (sheet(side, report, ()) for side in sides)
    draft = ev.MatchRecorded(
        match=match_id,
        season=season,
        round=round_,
        kind=report.kind,
        casualties=casualties,
        concession=report.concession,
        shootout=report.shootout,
        weather=report.weather,
        referee=report.referee,
        played_on=report.played_on,
        winner=report.winner,
        home=home,
        away=away,
        others=tuple(others),
    )
    found.add_problems(shootout_problems(draft), "shootout")
    if found.partial:
        found.refuse()
    # The rows the ruleset reads (teams, fixture, named players, the league's stars) are
    # the same for every stage of the draft: the dice added change none of them.
    rows = match_rows(c.view, c.league_id, draft, c.ruleset, checking=True)
    rolls = given_dice(c, draft, sides, report, rows, found)
    if amending is not None:
        rolls += tuple(
            r
            for s in amending.sheets()
            for r in s.dice
            if not any(g.purpose == r.purpose and g.subject == r.subject for g in rolls)
        )
        rolls += tuple(r for r in amending.dice if r not in rolls)
    draft = rolled(draft, sides, report, rolls)
    draft = complete_dice(c, draft, sides, report, roll_missing, rows, found)
    found.add_problems(c.ruleset.problems(Report(draft, rows)))
    found.refuse()
    return draft


def identified(c: Context, report: MatchReport, found: Found) -> tuple[str, int | None, int | None]:
    """The match's id, season and round (``match_identity``); for a report naming a
    fixture it does not fit, the report's own, so the rest of it is checked too."""
    with found.at("match"):
        return match_identity(c, report)
    match_id = report.match or free_match_id(c.view, c.league)
    return match_id, report.season or c.league.current_season or 1, report.round


def free_match_id(view: LeagueView, league: LeagueRow) -> str:
    """The id a report that names none is given (docs/match-report.md: the ledger numbers
    it), and the one the report form proposes: the first ``m<n>`` from the league's next
    number that no match of the books holds (a report may have given itself one) and no
    report still waiting names."""
    waiting = {
        row.match_id
        for state in REPORTS_WAITING
        for row in view.select(SubmissionRow, league_id=league.league_id, status=state)
    }
    number = league.next_match
    while f"m{number}" in waiting or view.get(MatchRow, league.league_id, f"m{number}") is not None:
        number += 1
    return f"m{number}"


def match_identity(c: Context, report: MatchReport) -> tuple[str, int | None, int | None]:
    row = c.match(report.match) if report.match is not None else None
    if row is None:
        season = report.season or c.league.current_season or 1
        check_season_open(c, season, report.kind)
        return report.match or free_match_id(c.view, c.league), season, report.round
    unrecorded(row)
    check_fixture(row, report)
    return row.match_id, row.season, row.round


def check_season_open(c: Context, season: int, kind: str) -> None:
    """A game that counts in a season's standings is not recorded once the season is
    closed: its places and prizes are paid (it had changed them after the close)."""
    row = c.view.get(SeasonRow, c.league_id, season)
    if kind in ev.SEASON_KINDS and row is not None and row.status == "closed":
        raise SeasonState(
            f"season {season} is closed, its places and prizes given: a {kind} game is no"
            " longer recorded in it (record a friendly, or start the next season)"
        )


FIXTURE_KINDS = {"league": ("league", "unplayed"), "playoff": ("playoff",)}
"""What a report of a scheduled fixture may record it as: a league fixture is played, or
counts as unplayed by the round's deadline (seed 001 'League Fixtures'); a play-off is
always played to a winner ('Play-offs'). A friendly or an exhibition between the same
teams is another game, under another match id."""


def check_fixture(row: MatchRow, report: MatchReport) -> None:
    """A report naming a scheduled fixture is of that fixture: its kind, its teams, and
    its season and round if it gives them."""
    kinds = FIXTURE_KINDS.get(row.kind, (row.kind,))
    if report.kind not in kinds:
        label = "play-off" if row.kind == "playoff" else row.kind
        apart = report.kind in ("friendly", "exhibition")
        raise InvalidInput(
            f"{row.match_id} is a {label} fixture: record it with kind: {' or '.join(kinds)},"
            f" not {report.kind}"
            + (f" (record their {report.kind} game under another match id)" if apart else "")
        )
    drawn = (row.home, row.away, *row.others)
    playing = (report.home.team, report.away.team, *(side.team for side in report.others))
    if set(drawn) != set(playing) or len(playing) != len(drawn):
        raise InvalidInput(
            f"fixture {row.match_id} is {' v '.join(drawn)}, not {' v '.join(playing)}"
        )
    given = {"season": report.season, "round": report.round}
    fixed = {"season": row.season, "round": row.round}
    for what, value in given.items():
        if value is not None and value != fixed[what]:
            raise InvalidInput(
                f"fixture {row.match_id} is season {row.season}, round {row.round},"
                f" not {what} {value}: leave out the report's {what}, or name another match"
            )


def check_no_fixture_waits(
    c: Context, kind: str, match_id: str, season: int | None, sides: Sequence[Side]
) -> None:
    """A league game of two teams whose fixture of the season is still to play is that
    fixture (seed 001 'League Fixtures'): under another id (its id mistyped) it would be a
    second game, counted in the standings beside the fixture left scheduled."""
    if kind not in FIXTURE_KINDS["league"] or len(sides) != 2:
        return
    teams = {side.team.team_id for side in sides}
    for row in c.view.select(MatchRow, league_id=c.league_id, status="scheduled"):
        if row.kind == "league" and row.season == season and {row.home, row.away} == teams:
            raise InvalidInput(
                f"{row.home} v {row.away} is fixture {row.match_id} of season {row.season},"
                f" still to play: record the report as match {row.match_id}, not {match_id}"
            )


def check_hireling(c: Context, team: TeamRow, hireling: Hireling, seen: set[str]) -> None:
    """A journeyman or mercenary plays as a position of the team's own list; a star is
    one the edition knows (``error[unknown-position]`` naming the ones it has). Each has
    an id of his own: one given twice lost the second hireling, and one a player of the
    books holds credited that player with the hireling's game."""
    if hireling.id in seen:
        raise InvalidInput(f"the report names hireling {hireling.id} twice: give each his own id")
    seen.add(hireling.id)
    if c.view.get(PlayerRow, c.league_id, hireling.id) is not None:
        raise InvalidInput(
            f"hireling {hireling.name} has the id of a player of the books ({hireling.id}):"
            " give him one of his own"
        )
    if hireling.position is not None:
        c.ruleset.catalogue.position(team.roster, hireling.position)
    if hireling.star is not None:
        c.ruleset.catalogue.star(hireling.star)


def resolve_sides(c: Context, report: MatchReport, found: Found) -> list[Side]:
    """Each side of the report, its lines checked (a line with a mistake left out); a
    team the league does not hold, or one named twice, ends the report's checks there."""
    sides: list[Side] = []
    others: list[Place] = [("others", n) for n in range(len(report.others))]
    places: list[Place] = [("home",), ("away",), *others]
    hirelings: set[str] = set()  # one id a hireling, whichever side he plays for
    for place, side in zip(places, (report.home, report.away, *report.others), strict=True):
        with found.at(*place, "team", leaves_out=True):
            sides.append(resolve_side(c, side, place, found, hirelings))
    if len({s.team.team_id for s in sides}) != len(sides):
        found.add(Mistake((), InvalidInput("a team cannot play against itself")))
    if found.partial:
        found.refuse()
    return sides


def resolve_side(
    c: Context, report: SideReport, place: Place, found: Found, hirelings: set[str]
) -> Side:
    team = c.team(report.team)
    side = Side(
        team=team,
        report=report,
        place=place,
        hirelings={h.id: h for h in report.hirelings},
        roster={p.player_id for p in roster_of(c.view, c.league_id, team.team_id)},
    )
    if team.status != "active":
        withdrawn = NotAllowed(f"{team.name} have withdrawn from the league")
        found.add(Mistake((*place, "team"), withdrawn))
    for n, hireling in enumerate(report.hirelings):
        with found.at(*place, "hirelings", n):
            check_hireling(c, team, hireling, hirelings)
    for n, line in enumerate(report.players):
        with found.at(*place, "players", n, leaves_out=True):
            add_line(c, side, line)
    return side


def add_line(c: Context, side: Side, line: PlayerLine) -> None:
    """A player line of the side's report: who played, and what he did."""
    player_id = find_player(c, side, line.player)
    if player_id in side.players:
        raise InvalidInput(
            f"{side.name_of(player_id, c)} appears twice in {possessive(side.team.name)} report"
        )
    side.players[player_id] = Performance(
        player=player_id,
        touchdowns=line.touchdowns,
        completions=line.completions,
        superb_throws=line.superb_throws,
        throws=line.throws,
        landings=line.landings,
        interceptions=line.interceptions,
        deflections=line.deflections,
        mvps=line.mvps,
        sent_off=line.sent_off,
        stalling=line.stalling,
    )


def find_player(c: Context, side: Side, ref: str) -> str:
    """A player of this side's team who may play, or one of its hirelings."""
    hireling = next((h for h in side.hirelings.values() if ref in (h.id, h.name)), None)
    if hireling is not None:
        return hireling.id
    player = c.player(ref, side.team.team_id)
    check_can_play(player)
    return player.player_id


def check_can_play(player: PlayerRow) -> None:
    why = unavailable(player)
    if why is not None:
        raise PlayerUnavailable(why)


UNAVAILABLE = {
    "dead": "is dead",
    "fired": "was fired",
    "left": "has left the team",
    "retired": "is temporarily retired",
}


def unavailable(player: PlayerRow) -> str | None:
    """Why ``player`` cannot play a game now, or None when he may (the report form offers
    only those who may: ledger/web/pages_report.py)."""
    if player.status in UNAVAILABLE:
        return f"{player.name} {UNAVAILABLE[player.status]} and cannot play"
    if player.miss_next_game:
        return f"{player.name} must miss this game (injured last game)"
    return None


def check_post_game_closed(c: Context, team: TeamRow) -> None:
    if not c.ruleset.post_game_closes:
        return
    for match_id in team.open_games:
        raise PostGameOpen(
            f"{team.name} have not closed the post-game sequence of match"
            f" {match_id}: close it first"
        )


def resolve_casualties(
    c: Context, report: MatchReport, sides: list[Side], roll_missing: bool, found: Found
) -> tuple[Casualty, ...]:
    """Each casualty of the report that holds (one with a mistake is left out)."""
    resolved: list[Casualty] = []
    names: list[str] = []
    for n, line in enumerate(report.casualties):
        with found.at("casualties", n):
            casualty = resolve_casualty(c, line, sides, roll_missing, ("casualties", n))
            resolved.append(casualty)
            names.append(victim_side(casualty.victim, sides).name_of(casualty.victim, c))
    with found.at("casualties"):
        refuse(casualties_once(resolved, names))
    return tuple(resolved)


def resolve_casualty(
    c: Context, line: CasualtyLine, sides: list[Side], roll_missing: bool, place: Place
) -> Casualty:
    """The casualty a report's line records, its outcome read from its dice by the
    edition (with ``roll_missing``, each die the edition asks for next is rolled). Refused,
    naming every mistake of the line, when any; a victim not found ends its checks."""
    victims = side_of(c, line.victim, sides, "victim")
    victim = line.victim if line.victim in victims.ids() else find_player(c, victims, line.victim)
    victims.players.setdefault(victim, Performance(player=victim))
    name = victims.name_of(victim, c)
    found = Found()
    by = None
    with found.at(*place, "by"):
        by = credited(c, line, sides, victims)
    dice = casualty_dice(c, line, name, place, found)
    found.refuse()  # the outcome is read from the dice given: each must hold first
    about = f"casualty of {name}"
    with found.at(*place, about=about):  # the edition says what is missing; this, of whom
        outcome, effects, dice = casualty_outcome(c, line, dice, roll_missing, victim)
    found.refuse()
    casualty = Casualty(
        victim=victim,
        inflicted_by=by,
        cause=line.cause,
        outcome=outcome,
        effects=effects,
        dice=dice,
        recovered=line.recovered,
    )
    problems = c.ruleset.problems(casualty)
    if line.outcome is not None and line.outcome != outcome:
        # The outcome was read from the dice: an outcome also given must agree with them.
        given = casualty.model_copy(update={"outcome": line.outcome})
        problems += c.ruleset.problems(given)
    found.add_problems(problems, *place, about=about)
    found.refuse()
    return casualty


def credited(c: Context, line: CasualtyLine, sides: list[Side], victims: Side) -> str | None:
    """The opposing player credited with the casualty (None: no one)."""
    if line.by is None:
        return None
    by_side = side_of(c, line.by, sides, "by")
    if by_side is victims:
        raise InvalidInput(
            f"{victims.name_of(line.by, c)} cannot be credited with a casualty on a team-mate"
        )
    by = find_player(c, by_side, line.by)
    by_side.players.setdefault(by, Performance(player=by))
    return by


def casualty_outcome(
    c: Context, line: CasualtyLine, dice: tuple[DiceRoll, ...], roll_missing: bool, victim: str
) -> tuple[str, tuple[Effect, ...], tuple[DiceRoll, ...]]:
    """The outcome and effects the edition reads from the casualty's dice (or the outcome
    named), with the dice read. With ``roll_missing``, a die the edition wants next
    (``DieWanted``) is rolled by the ledger, in the order it asks: a gold4 Specific Injury
    D6, then a Seriously Injured result's D66. A die it does not ask for is never rolled:
    gold4's Injury 2D6 is the in-game roll, made at the table with its modifiers, that
    made this a casualty at all."""
    while True:
        try:
            outcome, effects = c.ruleset.casualty_from_report(line.outcome, line.effects, dice)
            return outcome, effects, dice
        except DieWanted as wanted:
            shape = c.ruleset.casualty_dice.get(wanted.purpose)
            if not roll_missing or shape is None or any(d.purpose == wanted.purpose for d in dice):
                raise
            dice = (*dice, ledger_roll(c, wanted.purpose, shape, victim))


TWO_DIGITS = {66: 6, 68: 8}
"""A D66 or a D68 is read as two dice: a D6 for the tens, a D6 or a D8 for the units."""


def ledger_roll(c: Context, purpose: str, dice: str, subject: str) -> DiceRoll:
    """A die the ledger rolls for a casualty (a D66 as its two dice)."""
    _, sides = dice_shape(dice)
    if sides not in TWO_DIGITS:
        return c.roll(purpose, dice, subject)
    tens = c.roll(purpose, "D6", subject).values
    units = c.roll(purpose, f"D{TWO_DIGITS[sides]}", subject).values
    return DiceRoll(
        purpose=purpose, dice=dice, values=(*tens, *units), subject=subject, source="ledger"
    )


def victim_side(victim: str, sides: list[Side]) -> Side:
    """The side a resolved casualty's victim played for."""
    return next((s for s in sides if victim in s.ids()), sides[0])


def side_of(c: Context, ref: str, sides: list[Side], role: str) -> Side:
    for side in sides:
        if ref in side.ids() or any(h.name == ref for h in side.hirelings.values()):
            return side
        try:
            c.player(ref, side.team.team_id)
            return side
        except (UnknownPlayer, PlayerNotInTeam):
            continue
    teams = " or ".join(s.team.name for s in sides)
    raise UnknownPlayer(f"casualty {role} '{ref}' is not a player of {teams}")


def casualty_dice(
    c: Context, line: CasualtyLine, name: str, place: Place, found: Found
) -> tuple[DiceRoll, ...]:
    """The casualty's dice as the report gives them, each that holds (one that does not is
    a mistake at its place)."""
    entries: dict[str, int | list[int]] = dict(line.dice)
    if line.roll is not None:
        entries["casualty"] = line.roll
    if line.lasting is not None:
        entries["lasting_injury"] = line.lasting
    rolls = []
    for purpose, values in entries.items():
        shape = c.ruleset.casualty_dice.get(purpose)
        if shape is None:
            known = ", ".join(c.ruleset.casualty_dice) or "none"
            wrong = f"no '{purpose}' roll in {c.ruleset.name} (rolls: {known})"
            found.add(Mistake((*place, "dice", purpose), InvalidDice(wrong), f"casualty of {name}"))
            continue
        with found.at(*place, "dice", purpose):
            rolls.append(make_roll(purpose, shape, values, line.victim, said=name))
    return tuple(rolls)


def make_roll(
    purpose: str, dice: str, values: int | list[int], subject: str | None, said: str = ""
) -> DiceRoll:
    """The roll as entered; ``said``: how a refusal names its subject (a player's name,
    where ``subject`` is the report's way of naming him)."""
    given = (values,) if isinstance(values, int) else tuple(values)
    try:
        return DiceRoll(purpose=purpose, dice=dice, values=given, subject=subject)
    except ValidationError as error:
        detail = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise InvalidDice(f"{purpose} for {said or subject or 'the match'}: {detail}") from None


def check_concession(report: MatchReport, sides: list[Side]) -> None:
    if report.concession and report.concession.team not in {s.team.team_id for s in sides}:
        raise InvalidInput(f"{report.concession.team} conceded but did not play this match")


def check_score(side: Side, report: MatchReport) -> None:
    """A side's touchdowns, when given beside its player lines, are theirs added up
    (after a concession the score is the conceding side's to decide)."""
    scored = sum(p.touchdowns for p in side.players.values())
    touchdowns = side.report.touchdowns
    if touchdowns is None or not side.report.players or report.concession is not None:
        return
    if scored != touchdowns:
        raise InvalidInput(
            f"{side.team.name} scored {touchdowns} but the touchdowns of"
            f" their players add up to {scored}"
        )


def sheet(side: Side, report: MatchReport, rolls: tuple[DiceRoll, ...]) -> TeamSheet:
    scored = sum(p.touchdowns for p in side.players.values())
    touchdowns = side.report.touchdowns if side.report.touchdowns is not None else scored
    players = tuple(side.players.values())
    mine = {side.team.team_id, *side.ids(), *side.roster}
    return TeamSheet(
        team=side.team.team_id,
        touchdowns=touchdowns,
        players=players,
        stalling=side.report.stalled or any(p.stalling for p in players),
        hirelings=tuple(side.hirelings.values()),
        dice=tuple(r for r in rolls if r.subject in mine),
    )


def given_dice(
    c: Context,
    draft: ev.MatchRecorded,
    sides: list[Side],
    report: MatchReport,
    rows: MatchRows,
    found: Found,
) -> tuple[DiceRoll, ...]:
    """The dice the report gives, shaped by what the ruleset expects of each purpose;
    each that does not hold is a mistake at its place."""
    needs = c.ruleset.dice_needed(Report(draft, rows))
    names = Names(c, sides)
    rolls: list[DiceRoll] = []
    for side in sides:
        rolls += side_rolls(needs, side.report.dice, side.team.team_id, side.place, names, found)
    rolls += side_rolls(needs, report.dice, None, (), names, found)
    return tuple(rolls)


@dataclass(frozen=True)
class Names:
    """How a sentence about a die names its subject: a team or a player by name."""

    c: Context
    sides: Sequence[Side]

    def __call__(self, subject: str | None) -> str:
        if subject is None:
            return "the match"
        team = next((s.team for s in self.sides if s.team.team_id == subject), None)
        if team is not None:
            return team.name
        side = next((s for s in self.sides if subject in s.ids() | s.roster), None)
        return side.name_of(subject, self.c) if side is not None else subject


def side_rolls(
    needs: list[DiceNeed],
    entries: dict[str, DiceEntry],
    team: str | None,
    place: Place,
    names: Names,
    found: Found,
) -> list[DiceRoll]:
    rolls = []
    for purpose, entry in entries.items():
        subjects: dict[str | None, int | list[int]] = (
            dict(entry.items()) if isinstance(entry, dict) else {team: entry}
        )
        for subject, values in subjects.items():
            keyed: Place = (subject,) if subject is not None else ()
            with found.at(*place, "dice", purpose, *keyed):
                rolls.append(side_roll(needs, purpose, values, team, subject, names))
    return rolls


def side_roll(
    needs: list[DiceNeed],
    purpose: str,
    values: int | list[int],
    team: str | None,
    subject: str | None,
    names: Names,
) -> DiceRoll:
    need = next((n for n in needs if n.purpose == purpose and n.subject == subject), None)
    if need is None:
        expected = sorted({n.purpose for n in needs if n.subject in (team, None)})
        asked = f"expected: {', '.join(expected)}" if expected else "it asks no dice of it"
        raise InvalidDice(
            f"dice '{purpose}' for {names(subject)} are not part of this match's sequence ({asked})"
        )
    return make_roll(purpose, need.dice, values, subject, said=names(subject))


def complete_dice(
    c: Context,
    draft: ev.MatchRecorded,
    sides: list[Side],
    report: MatchReport,
    roll_missing: bool,
    rows: MatchRows,
    found: Found,
) -> ev.MatchRecorded:
    """Every roll the ruleset needs: given, or rolled by the ledger when allowed. A roll
    given but refused (a mistake already) is not said again as missing."""
    rolls = [r for s in draft.sheets() for r in s.dice]
    rolls += list(draft.dice)
    needs = c.ruleset.dice_needed(Report(draft, rows))
    given = given_entries(sides, report)
    missing = [
        n
        for n in needs
        if not any(r.purpose == n.purpose and r.subject == n.subject for r in rolls)
    ]
    if missing and not roll_missing:
        names = Names(c, sides)
        unsaid = [n for n in missing if (n.purpose, n.subject) not in given]
        if unsaid:
            found.add(
                Mistake(
                    ("dice",),
                    InvalidDice(
                        "the report lacks these rolls (enter them, or let the ledger roll them): "
                        + "; ".join(describe_need(n, names(n.subject)) for n in unsaid)
                    ),
                )
            )
        return draft
    rolls += [c.roll(n.purpose, n.dice, n.subject) for n in missing]
    return rolled(draft, sides, report, tuple(rolls))


def given_entries(sides: list[Side], report: MatchReport) -> set[tuple[str, str | None]]:
    """Each die the report enters, as (purpose, subject), whether it holds or not."""
    entered: set[tuple[str, str | None]] = set()
    for team, entries in [*((s.team.team_id, s.report.dice) for s in sides), (None, report.dice)]:
        for purpose, entry in entries.items():
            subjects = list(entry) if isinstance(entry, dict) else [team]
            entered |= {(purpose, subject) for subject in subjects}
    return entered


def no_rolls(purposes: set[str]) -> str:
    """'no expensive_mistakes_amount roll' (given, but not asked for: leave it out)."""
    names = sorted(purposes)
    listed = " or ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} or {names[-1]}"
    one = len(names) == 1
    return f"no {listed} {'roll' if one else 'rolls'} (leave {'it' if one else 'them'} out)"


def describe_need(need: DiceNeed, subject: str = "") -> str:
    """``subject``: how the sentence names the die's subject (its id, if not said)."""
    return f"{need.purpose} ({need.dice}) for {subject or need.subject or 'the match'}: {need.why}"
