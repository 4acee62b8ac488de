"""Recording a match report and closing a team's post-game sequence."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from pydantic import ValidationError

from ledger.application.commands import (
    CloseMatch,
    ClosePostGame,
    PayAppearanceFees,
    PlayCard,
    RecordMatch,
)
from ledger.application.context import Context, Drafts
from ledger.application.reports import CasualtyLine, DiceEntry, MatchReport, SideReport
from ledger.domain import events as ev
from ledger.domain.state import (
    REPORTS_WAITING,
    LeagueRow,
    LeagueView,
    MatchRow,
    PlayerRow,
    SubmissionRow,
    TeamRow,
    roster_of,
)
from ledger.domain.values import (
    Casualty,
    DiceRoll,
    Hireling,
    Performance,
    Purchase,
    TeamSheet,
    dice_shape,
)
from ledger.errors import (
    InsufficientTreasury,
    InvalidDice,
    InvalidInput,
    LedgerError,
    NotAllowed,
    PlayerNotInTeam,
    PlayerUnavailable,
    PostGameOpen,
    UnknownMatch,
    UnknownPlayer,
)
from ledger.projections.gather import card_rows, match_rows
from ledger.projections.match_applier import unrecorded
from ledger.rules.asked import Appearance, Card, CloseRolls, Closing, Report
from ledger.rules.playoffs import shootout_problems
from ledger.rules.problems import casualties_once, has_feature, refuse
from ledger.rules.protocol import DiceNeed, Feature
from ledger.rules.rows import MatchRows
from ledger.words import possessive


@dataclass
class Side:
    """One team's side while a report is resolved into facts."""

    team: TeamRow
    report: SideReport
    players: dict[str, Performance] = field(default_factory=dict)
    hirelings: dict[str, Hireling] = field(default_factory=dict)
    roster: set[str] = field(default_factory=set)
    """Every player id of the team: rolls about a player who did not play (a walk-out
    after a concession) still belong to this side."""

    def ids(self) -> set[str]:
        return set(self.players) | set(self.hirelings)


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
    """
    if amending is None:
        match_id, season, round_ = match_identity(c, report)
    else:
        match_id, season, round_ = amending.match, amending.season, amending.round
    sides = [resolve_side(c, r) for r in (report.home, report.away, *report.others)]
    if len({s.team.team_id for s in sides}) != len(sides):
        raise InvalidInput("a team cannot play against itself")
    if amending is None and c.match(match_id) is None:
        check_no_fixture_waits(c, report.kind, match_id, season, sides)
    for side in sides:
        if amending is None:
            check_post_game_closed(c, side.team)
    casualties = tuple(resolve_casualty(c, line, sides) for line in report.casualties)
    refuse(casualties_once(casualties, [line.victim for line in report.casualties]))
    check_concession(report, sides)
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
    refuse(shootout_problems(draft))
    # The rows the ruleset reads (teams, fixture, named players, the league's stars) are
    # the same for every stage of the draft: the dice added change none of them.
    rows = match_rows(c.view, c.league_id, draft, c.ruleset, checking=True)
    rolls = given_dice(c, draft, sides, report, rows)
    if amending is not None:
        rolls += tuple(
            r
            for s in amending.sheets()
            for r in s.dice
            if not any(g.purpose == r.purpose and g.subject == r.subject for g in rolls)
        )
        rolls += tuple(r for r in amending.dice if r not in rolls)
    draft = complete_dice(c, rolled(draft, sides, report, rolls), sides, report, roll_missing, rows)
    refuse(c.ruleset.problems(Report(draft, rows)))
    return draft


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
    if report.match is None:
        match_id = free_match_id(c.view, c.league)
        return match_id, report.season or c.league.current_season or 1, report.round
    row = c.match(report.match)
    if row is None:
        return report.match, report.season or c.league.current_season or 1, report.round
    unrecorded(row)
    check_fixture(row, report)
    return row.match_id, row.season, row.round


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
    if {row.home, row.away} != {report.home.team, report.away.team}:
        raise InvalidInput(
            f"fixture {row.match_id} is {row.home} v {row.away}, not"
            f" {report.home.team} v {report.away.team}"
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


def check_hireling(c: Context, team: TeamRow, hireling: Hireling) -> None:
    """A journeyman or mercenary plays as a position of the team's own list; a star is
    one the edition knows (``error[unknown-position]`` naming the ones it has)."""
    if hireling.position is not None:
        c.ruleset.catalogue.position(team.roster, hireling.position)
    if hireling.star is not None:
        c.ruleset.catalogue.star(hireling.star)


def resolve_side(c: Context, report: SideReport) -> Side:
    team = c.team(report.team)
    if team.status != "active":
        raise NotAllowed(f"{team.name} have withdrawn from the league")
    side = Side(
        team=team,
        report=report,
        hirelings={h.id: h for h in report.hirelings},
        roster={p.player_id for p in roster_of(c.view, c.league_id, team.team_id)},
    )
    for hireling in report.hirelings:
        check_hireling(c, team, hireling)
    for line in report.players:
        player_id = find_player(c, side, line.player)
        if player_id in side.players:
            raise InvalidInput(f"{line.player} appears twice in {possessive(team.name)} report")
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
    return side


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


def resolve_casualty(c: Context, line: CasualtyLine, sides: list[Side]) -> Casualty:
    victim_side = side_of(c, line.victim, sides, "victim")
    victim = (
        find_player(c, victim_side, line.victim)
        if line.victim not in victim_side.ids()
        else line.victim
    )
    victim_side.players.setdefault(victim, Performance(player=victim))
    by = None
    if line.by is not None:
        by_side = side_of(c, line.by, sides, "by")
        if by_side is victim_side:
            raise InvalidInput(f"{line.by} cannot be credited with a casualty on a team-mate")
        by = find_player(c, by_side, line.by)
        by_side.players.setdefault(by, Performance(player=by))
    dice = casualty_dice(c, line)
    try:
        outcome, effects = c.ruleset.casualty_from_report(line.outcome, line.effects, dice)
    except LedgerError as error:  # the edition says what is missing; the report, of whom
        raise type(error)(f"casualty of {line.victim}: {error.message}") from None
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
    if problems:
        first = problems[0]
        raise first.error(f"casualty of {line.victim}: {first.sentence}")
    return casualty


def side_of(c: Context, ref: str, sides: list[Side], role: str) -> Side:
    for side in sides:
        if ref in side.ids() or any(h.name == ref for h in side.hirelings.values()):
            return side
        try:
            c.player(ref, side.team.team_id)
            return side
        except (UnknownPlayer, PlayerNotInTeam):
            continue
    teams = " or ".join(s.team.team_id for s in sides)
    raise UnknownPlayer(f"casualty {role} '{ref}' is not a player of {teams}")


def casualty_dice(c: Context, line: CasualtyLine) -> tuple[DiceRoll, ...]:
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
            raise InvalidDice(
                f"casualty of {line.victim}: no '{purpose}' roll in"
                f" {c.ruleset.name} (rolls: {known})"
            )
        rolls.append(make_roll(purpose, shape, values, line.victim))
    return tuple(rolls)


def make_roll(purpose: str, dice: str, values: int | list[int], subject: str | None) -> DiceRoll:
    given = (values,) if isinstance(values, int) else tuple(values)
    try:
        return DiceRoll(purpose=purpose, dice=dice, values=given, subject=subject)
    except ValidationError as error:
        detail = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise InvalidDice(f"{purpose} for {subject or 'the match'}: {detail}") from None


def check_concession(report: MatchReport, sides: list[Side]) -> None:
    if report.concession and report.concession.team not in {s.team.team_id for s in sides}:
        raise InvalidInput(f"{report.concession.team} conceded but did not play this match")


def sheet(side: Side, report: MatchReport, rolls: tuple[DiceRoll, ...]) -> TeamSheet:
    scored = sum(p.touchdowns for p in side.players.values())
    touchdowns = side.report.touchdowns if side.report.touchdowns is not None else scored
    if side.report.players and scored != touchdowns and report.concession is None:
        raise InvalidInput(
            f"{side.team.name} scored {touchdowns} but the touchdowns of"
            f" their players add up to {scored}"
        )
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
    c: Context, draft: ev.MatchRecorded, sides: list[Side], report: MatchReport, rows: MatchRows
) -> tuple[DiceRoll, ...]:
    """The dice the report gives, shaped by what the ruleset expects of each purpose."""
    needs = c.ruleset.dice_needed(Report(draft, rows))
    rolls: list[DiceRoll] = []
    for side in sides:
        rolls += side_rolls(needs, side.report.dice, side.team.team_id)
    rolls += side_rolls(needs, report.dice, None)
    return tuple(rolls)


def side_rolls(
    needs: list[DiceNeed], entries: dict[str, DiceEntry], team: str | None
) -> list[DiceRoll]:
    rolls = []
    for purpose, entry in entries.items():
        subjects: dict[str | None, int | list[int]] = (
            dict(entry.items()) if isinstance(entry, dict) else {team: entry}
        )
        for subject, values in subjects.items():
            need = next((n for n in needs if n.purpose == purpose and n.subject == subject), None)
            if need is None:
                expected = sorted({n.purpose for n in needs if n.subject in (team, None)})
                asked = f"expected: {', '.join(expected)}" if expected else "it asks no dice of it"
                raise InvalidDice(
                    f"dice '{purpose}' for {subject or 'the match'} are not part of"
                    f" this match's sequence ({asked})"
                )
            rolls.append(make_roll(purpose, need.dice, values, subject))
    return rolls


def complete_dice(
    c: Context,
    draft: ev.MatchRecorded,
    sides: list[Side],
    report: MatchReport,
    roll_missing: bool,
    rows: MatchRows,
) -> ev.MatchRecorded:
    """Every roll the ruleset needs: given, or rolled by the ledger when allowed."""
    rolls = [r for s in draft.sheets() for r in s.dice]
    rolls += list(draft.dice)
    needs = c.ruleset.dice_needed(Report(draft, rows))
    missing = [
        n
        for n in needs
        if not any(r.purpose == n.purpose and r.subject == n.subject for r in rolls)
    ]
    if missing and not roll_missing:
        raise InvalidDice(
            "the report lacks these rolls (enter them, or let the ledger roll them): "
            + "; ".join(describe_need(n) for n in missing)
        )
    rolls += [c.roll(n.purpose, n.dice, n.subject) for n in missing]
    return rolled(draft, sides, report, tuple(rolls))


def no_rolls(purposes: set[str]) -> str:
    """'no expensive_mistakes_amount roll' (given, but not asked for: leave it out)."""
    names = sorted(purposes)
    listed = " or ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} or {names[-1]}"
    one = len(names) == 1
    return f"no {listed} {'roll' if one else 'rolls'} (leave {'it' if one else 'them'} out)"


def describe_need(need: DiceNeed) -> str:
    return f"{need.purpose} ({need.dice}) for {need.subject or 'the match'}: {need.why}"


# --- closing the post-game sequence ------------------------------------------------------------


def plan_close(c: Context, command: ClosePostGame) -> Drafts:
    match_id, team_id, entries = command.match, command.team, dict(command.dice or {})
    roll_missing = command.roll_missing
    check_closer(played_match(c, match_id), team_id)
    team = c.team(team_id)
    refuse(c.ruleset.problems(Closing(team, c.players(team_id))))

    def missing(need: DiceNeed) -> DiceRoll:
        if not roll_missing:
            raise InvalidDice(
                f"closing {match_id} for {team_id} needs "
                f"{describe_need(need)} (enter it, or let the ledger roll it)"
            )
        return c.roll(need.purpose, need.dice, team_id)

    rolls, needs = close_rolls(c, team, entries, missing)
    unexpected = set(entries) - {n.purpose for n in needs}
    if unexpected:
        raise InvalidDice(f"closing {match_id} for {team_id} needs {no_rolls(unexpected)}")
    return [ev.PostGameClosed(match=match_id, team=team_id, dice=tuple(rolls))]


def plan_close_match(c: Context, command: CloseMatch) -> Drafts:
    """Each team's close in turn, all or none, the dice shared among them; unless the
    ledger may roll, a close lacking dice is refused naming every die each team needs."""
    match = played_match(c, command.match)
    for team in command.teams:  # who may close comes before the dice they would need
        check_closer(match, team)
    shares = share_close_dice(c, command.match, command.teams, command.dice)
    if not command.roll_missing:
        check_close_dice(c, command.match, shares)
    closes: Drafts = []
    for named, team in enumerate(command.teams):
        if team in command.teams[:named]:  # named twice: as a second close of it would say
            raise NotAllowed(f"{team} already closed the post-game sequence of {command.match}")
        close = ClosePostGame(
            command.league,
            command.match,
            team,
            dice=shares[team],
            roll_missing=command.roll_missing,
        )
        closes += plan_close(c, close)
    return closes


def check_closer(match: MatchRow, team_id: str) -> None:
    """Only a team that played the match closes its post-game sequence, and once."""
    if team_id not in (match.home, match.away, *match.others):
        raise InvalidInput(f"{team_id} did not play match {match.match_id}")
    if team_id in match.closed:
        raise NotAllowed(f"{team_id} already closed the post-game sequence of {match.match_id}")


def played_match(c: Context, match_id: str) -> MatchRow:
    match = c.match(match_id)
    if match is None or match.status != "played":
        raise UnknownMatch(f"no recorded match '{match_id}' in league {c.league.slug}")
    return match


def close_rolls(
    c: Context,
    team: TeamRow,
    entries: Mapping[str, int | list[int]],
    missing: Callable[[DiceNeed], DiceRoll | None],
) -> tuple[list[DiceRoll], list[DiceNeed]]:
    """The rolls of a team's close, and every roll it needed: the ones given in
    ``entries``, the others from ``missing`` (None: not known)."""
    rolls: list[DiceRoll] = []
    needs: list[DiceNeed] = []
    for _ in range(4):  # later rolls can depend on earlier ones (a D6, then the D3)
        for need in c.ruleset.dice_needed(CloseRolls(team, tuple(rolls))):
            if any(n.purpose == need.purpose for n in needs):
                continue
            needs.append(need)
            if need.purpose in entries:
                given = entries[need.purpose]
                rolls.append(make_roll(need.purpose, need.dice, given, team.team_id))
            elif (rolled := missing(need)) is not None:
                rolls.append(rolled)
    return rolls, needs


def share_close_dice(
    c: Context, match_id: str, teams: Sequence[str], given: Mapping[str, int | list[int]]
) -> dict[str, dict[str, int | list[int]]]:
    """The dice of ``ledger match close`` for each team it closes.

    ``TEAM:purpose`` is that team's own die. A bare ``purpose`` goes to every team whose
    sequence needs it, so that a die only one team rolled (BB2025 Expensive Mistakes: only
    a treasury of 100,000 or more) cannot fail the other team's close. A bare die that no
    team closing needs, or a die for a team not closing, is refused.
    """
    played_match(c, match_id)
    shares: dict[str, dict[str, int | list[int]]] = {team: {} for team in teams}
    bare: dict[str, int | list[int]] = {}
    for key, values in given.items():
        team, _, purpose = key.rpartition(":")
        if not team:
            bare[purpose] = values
        elif team in shares:
            shares[team][purpose] = values
        else:
            raise InvalidDice(
                f"die '{key}' is for {team}, who is not closing {match_id} here"
                f" (closing: {', '.join(teams)})"
            )
    for purpose, values in bare.items():
        takers = [
            team
            for team in teams
            if purpose not in shares[team] and purpose in close_purposes(c, team, bare, shares)
        ]
        if not takers:
            raise InvalidDice(
                f"no team closing {match_id} ({', '.join(teams)}) needs a roll of '{purpose}'"
                " that it was not given on its own"
            )
        for team in takers:
            shares[team][purpose] = values
    return shares


def close_purposes(
    c: Context,
    team_id: str,
    bare: Mapping[str, int | list[int]],
    shares: Mapping[str, Mapping[str, int | list[int]]],
) -> set[str]:
    """What a team's close needs rolled, given the dice entered so far."""
    entries = {**bare, **shares[team_id]}
    _, needs = close_rolls(c, c.team(team_id), entries, lambda need: None)
    return {n.purpose for n in needs}


def check_close_dice(
    c: Context, match_id: str, shares: Mapping[str, Mapping[str, int | list[int]]]
) -> None:
    """Refuse, before any team closes, a close that lacks dice: naming at once every die
    each team still needs and what it is for, and the dice a roll not yet given may call
    for next (BB2025 Expensive Mistakes: the amount, D3 or 2D6, by the D6's result)."""
    wanted = [
        f"for {team_id} needs {' and '.join(needs)}"
        for team_id, entries in shares.items()
        if (needs := missing_for(c, c.team(team_id), entries))
    ]
    if wanted:
        raise InvalidDice(
            f"closing {match_id} "
            + "; and ".join(wanted)
            + " (enter them, or let the ledger roll them)"
        )


def missing_for(c: Context, team: TeamRow, entries: Mapping[str, int | list[int]]) -> list[str]:
    if c.ruleset.problems(Closing(team, c.players(team.team_id))):
        return []  # the close refuses for a rule first, and says which
    rolls, needs = close_rolls(c, team, entries, lambda need: None)
    return [
        f"{need.purpose} ({need.dice}): {need.why}" + follow_ups(c, team, rolls, need)
        for need in needs
        if need.purpose not in entries
    ]


def follow_ups(c: Context, team: TeamRow, rolls: list[DiceRoll], need: DiceNeed) -> str:
    """The dice each result of a single die ``need`` would call for next, by the results
    that call for them: `` (on a roll of 1 also expensive_mistakes_amount (2D6): ...)``."""
    count, sides = dice_shape(need.dice)
    if count != 1 or sides > 16:
        return ""
    known = {n.purpose for n in c.ruleset.dice_needed(CloseRolls(team, tuple(rolls)))}
    results: dict[str, list[int]] = {}
    for value in range(1, sides + 1):
        probe = (*rolls, make_roll(need.purpose, need.dice, value, team.team_id))
        for after in c.ruleset.dice_needed(CloseRolls(team, probe)):
            if after.purpose not in known:
                results.setdefault(f"{after.purpose} ({after.dice}): {after.why}", []).append(value)
    shown = "; ".join(f"on {spans(values)} also {what}" for what, values in results.items())
    return f" ({shown})" if shown else ""


def spans(values: list[int]) -> str:
    """``[1, 3, 4]`` -> ``1, 3-4``."""
    runs: list[list[int]] = []
    for value in values:
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


# --- pre-game and in-game facts that reach the books ------------------------------------------


def plan_card(c: Context, command: PlayCard) -> Drafts:
    """A special play card whose effect the league's edition books (ZAL 8d)."""
    match_id, team_id, card, against = command.match, command.team, command.card, command.against
    entries, roll_missing = dict(command.dice or {}), command.roll_missing
    refuse(has_feature(c.ruleset, Feature.CARDS, "special play cards in the books"))
    c.team(team_id)
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
    fees = []
    for ref in refs:
        player = freebooted_star(c, team, ref) if "=" in ref else c.player(ref, team_id)
        fee = c.ruleset.price(Appearance(player))
        if fee <= 0:
            raise InvalidInput(f"{player.name} asks no appearance fee")
        fees.append(Purchase(item=player.player_id, price=fee))
    total = sum(f.price for f in fees)
    if total > team.treasury:
        raise InsufficientTreasury(
            f"the fees come to {total:,} but {team.name} have {team.treasury:,}"
        )
    return [ev.AppearanceFeesPaid(match=match_id, team=team_id, fees=tuple(fees))]


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
