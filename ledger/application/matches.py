"""Recording a match report: its sides, players, casualties, score and dice, every mistake
found before it is refused (a side in ``match_sides.py``, the casualties in
``match_casualties.py``, the dice in ``match_dice.py``; ``closing.py`` closes the
post-game sequence after it, ``match_facts.py`` records a card played or a fee paid
beside it)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

from ledger.application.commands import RecordMatch
from ledger.application.context import Context, Drafts
from ledger.application.match_casualties import resolve_casualties
from ledger.application.match_dice import complete_dice, given_dice
from ledger.application.match_sides import Side, find_player, rolled, sheet
from ledger.application.mistakes import Found, Mistake, Place
from ledger.application.reports import MatchReport, PlayerLine, SideReport
from ledger.application.restated import restated_dice_kept
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
from ledger.domain.values import Hireling, Performance
from ledger.errors import DiceNotAsked, InvalidInput, NotAllowed, PostGameOpen, SeasonState
from ledger.projections.gather import match_rows
from ledger.projections.match_applier import unrecorded
from ledger.rules.asked import Report
from ledger.rules.playoffs import shootout_problems
from ledger.words import possessive


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
    then the edition's rules of the whole game. A game one of whose lines was left out for
    its mistake (a player who may not play) has its casualties and each die read for their
    own mistakes, not its score, its concession or its rules (a game without the line).
    """
    found = Found(partial=c.lines_left_out)
    with found.at("played_on"):
        check_played(report.played_on)
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
                check_post_game_closed(c, side.team, match_id)
    casualties = resolve_casualties(c, report, sides, roll_missing, found)
    if not found.partial:  # the score and the concession are the whole game's
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
    if found.partial:  # the game is not whole: its dice are read for their own mistakes only
        found.mistakes += dice_mistakes(c, draft, sides, report)
        found.refuse()
        return draft  # lines the caller left out (a form's dry run): nothing more is asked
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
    if amending is not None:
        draft = restated_dice_kept(draft, amending)
    for problem in c.ruleset.problems(Report(draft, rows)):
        found.add_problems([problem], *side_lines(draft, problem.team))
    found.refuse()
    return draft


def side_lines(draft: ev.MatchRecorded, team: str | None) -> Place:
    """Where a problem of the report is: the lines of the side of ``team`` (a side's
    MVPs), or the whole report."""
    teams = [sheet.team for sheet in draft.sheets()]
    if team is None or team not in teams:
        return ()
    at = teams.index(team)
    side: Place = ("home",) if at == 0 else ("away",) if at == 1 else ("others", at - 2)
    return (*side, "players")


def dice_mistakes(
    c: Context, draft: ev.MatchRecorded, sides: list[Side], report: MatchReport
) -> list[Mistake]:
    """The mistakes of the dice a report gives, each die by itself (a 2D6 showing 7), for
    a game a line of which was left out: whether the game asks a die at all is its whole
    sequence's question, not asked of a game without all its players."""
    rows = match_rows(c.view, c.league_id, draft, c.ruleset, checking=True)
    scratch = Found()
    given_dice(c, draft, sides, report, rows, scratch)
    return [m for m in scratch.mistakes if not isinstance(m.error, DiceNotAsked)]


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


def check_played(played_on: str | None, today: date | None = None) -> None:
    """A report records a game played: not one dated to come. A day past today's date in
    UTC is still taken (a game played this evening east of Greenwich)."""
    if played_on is None:
        return
    today = today or datetime.now(UTC).date()
    if date.fromisoformat(played_on) > today + timedelta(days=1):
        raise InvalidInput(
            f"played on {played_on}: that day is still to come (today is {today});"
            " a report records a game already played"
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
    if len(sides) < len(places):  # a side left out: nothing more of the game can be read
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


def check_post_game_closed(c: Context, team: TeamRow, reported: str) -> None:
    """A team closes its last game before it plays the next. The game ``reported`` itself,
    open because it was recorded already, is that refusal's to say, not this one's."""
    if not c.ruleset.post_game_closes:
        return
    for match_id in (m for m in team.open_games if m != reported):
        raise PostGameOpen(
            f"{team.name} have not closed the post-game sequence of match"
            f" {match_id}: close it first"
        )


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
