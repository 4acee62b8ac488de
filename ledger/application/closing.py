"""Closing a team's post-game sequence: its dice, shared between the teams that need them
(a match closed at once), rolled by the ledger when asked, and the edition's check of what
the team must do first (``matches.py`` records the report it follows)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ledger.application.commands import (
    CloseMatch,
    ClosePostGame,
)
from ledger.application.context import Context, Drafts
from ledger.application.match_dice import describe_need, make_roll, no_rolls
from ledger.domain import events as ev
from ledger.domain.state import (
    MatchRow,
    TeamRow,
)
from ledger.domain.values import (
    DiceRoll,
    dice_shape,
)
from ledger.errors import (
    InvalidDice,
    InvalidInput,
    NotAllowed,
    UnknownMatch,
)
from ledger.rules.asked import CloseRolls, Closing
from ledger.rules.problems import refuse
from ledger.rules.protocol import DiceNeed, Ruleset


def plan_close(c: Context, command: ClosePostGame) -> Drafts:
    match_id, team_id, entries = command.match, command.team, dict(command.dice or {})
    roll_missing = command.roll_missing
    check_closes(c.ruleset)
    check_closer(c, played_match(c, match_id), team_id)
    team = c.team(team_id)
    refuse(c.ruleset.problems(Closing(team, c.players(team_id))))

    def missing(need: DiceNeed) -> DiceRoll:
        if not roll_missing:
            raise InvalidDice(
                f"closing {match_id} for {said(team)} needs "
                f"{describe_need(need)} (enter it, or let the ledger roll it)"
            )
        return c.roll(need.purpose, need.dice, team_id)

    rolls, needs = close_rolls(c, team, entries, missing)
    unexpected = set(entries) - {n.purpose for n in needs}
    if unexpected:
        raise InvalidDice(f"closing {match_id} for {said(team)} needs {no_rolls(unexpected)}")
    return [ev.PostGameClosed(match=match_id, team=team_id, dice=tuple(rolls))]


def check_closes(ruleset: Ruleset) -> None:
    """An edition whose report records the whole post-game (``post_game_closes`` False:
    LRB6, gold4, 3rd edition) has no close to record: one would be an event that changes
    nothing."""
    if not ruleset.post_game_closes:
        raise NotAllowed(
            f"{ruleset.name} teams close no post-game sequence: the match report records"
            " all of it (winnings, fan factor)"
        )


def plan_close_match(c: Context, command: CloseMatch) -> Drafts:
    """Each team's close in turn, all or none, the dice shared among them; unless the
    ledger may roll, a close lacking dice is refused naming every die each team needs."""
    check_closes(c.ruleset)
    match = played_match(c, command.match)
    for team in command.teams:  # who may close comes before the dice they would need
        check_closer(c, match, team)
    shares = share_close_dice(c, command.match, command.teams, command.dice)
    if not command.roll_missing:
        check_close_dice(c, command.match, shares)
    closes: Drafts = []
    for named, team in enumerate(command.teams):
        if team in command.teams[:named]:  # named twice: as a second close of it would say
            raise NotAllowed(
                f"{c.team_name(team)} already closed the post-game sequence of {command.match}"
            )
        close = ClosePostGame(
            command.league,
            command.match,
            team,
            dice=shares[team],
            roll_missing=command.roll_missing,
        )
        closes += plan_close(c, close)
    return closes


def check_closer(c: Context, match: MatchRow, team_id: str) -> None:
    """Only a team that played the match closes its post-game sequence, and once."""
    if team_id not in (match.home, match.away, *match.others):
        raise InvalidInput(f"{c.team_name(team_id)} did not play match {match.match_id}")
    if team_id in match.closed:
        raise NotAllowed(
            f"{c.team_name(team_id)} already closed the post-game sequence of {match.match_id}"
        )


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
                rolls.append(make_roll(need.purpose, need.dice, given, team.team_id, team.name))
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
    wanted = []
    for team_id, entries in shares.items():
        team = c.team(team_id)
        if needs := missing_for(c, team, entries):
            wanted.append(f"for {said(team)} needs {' and '.join(needs)}")
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
        probe = (*rolls, make_roll(need.purpose, need.dice, value, team.team_id, team.name))
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


def said(team: TeamRow) -> str:
    """A team as a close's refusal names it: its name, then the id ``--die TEAM:...``
    takes (``Reikland Reavers (reavers)``)."""
    return f"{team.name} ({team.team_id})"
