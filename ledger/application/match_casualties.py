"""A match report's casualties resolved into facts (``matches.py``): the victim and who is
credited, the dice as given, and the outcome the edition reads from them (with
``roll_missing``, the dice it asks for next rolled by the ledger)."""

from __future__ import annotations

from ledger.application.context import Context
from ledger.application.match_dice import make_roll
from ledger.application.match_sides import Side, find_player
from ledger.application.mistakes import Found, Mistake, Place
from ledger.application.reports import CasualtyLine, MatchReport
from ledger.domain.values import Casualty, DiceRoll, Effect, Performance, dice_shape
from ledger.errors import DieWanted, InvalidDice, InvalidInput, PlayerNotInTeam, UnknownPlayer
from ledger.rules.problems import casualties_once, refuse


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
