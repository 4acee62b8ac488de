"""``ledger team ...``: registering teams and everything bought, hired or lost."""

from __future__ import annotations

import shlex
from collections.abc import Mapping

import click

from cli.main import Session, pass_session
from cli.match import counted_items
from cli.output import REASON, dice_text, gold, say
from cli.queries import queries_for
from cli.rules import league_ruleset
from ledger.application.advance_rolls import choice_waiting, waiting
from ledger.application.commands import (
    AdjustTreasury,
    AdvancePlayer,
    Buy,
    FirePlayer,
    HirePlayer,
    PostBounty,
    Redraft,
    RegisterTeam,
    Release,
    RetirePlayer,
)
from ledger.domain import events as ev
from ledger.domain.events import AdvancementKind
from ledger.domain.state import EventLine
from ledger.domain.values import MOST_BOUGHT, Characteristic, DiceRoll, dice_shape
from ledger.projections.describe import advanced, kind_said
from ledger.projections.sql import table_of
from ledger.words import plural


@click.group()
def team() -> None:
    """Register teams; hire, fire and retire players; buy re-rolls, staff and fans."""


@team.command("register")
@click.argument("team_id")
@click.option("--name", required=True, help="The team's name.")
@click.option("--coach", required=True, help="The coach's name.")
@click.option("--roster", required=True, help="Team list id, e.g. human, skaven, orc.")
@click.option("--treasury", type=int, help="Starting treasury (default: the ruleset's).")
@REASON
@pass_session
def register(
    session: Session,
    team_id: str,
    name: str,
    coach: str,
    roster: str,
    treasury: int | None,
    reason: str | None,
) -> None:
    """Register TEAM_ID (lower-case letters, digits and dashes)."""
    league = session.league()
    session.ledger().handle(
        RegisterTeam(league, team_id, name, coach, roster, treasury=treasury),
        by=session.user,
        reason=reason,
    )
    say(f"Registered {name} ({team_id}) in {league}.")


@team.command("hire")
@click.argument("team_id")
@click.argument("position")
@click.argument("name")
@click.option("--number", type=click.IntRange(1, 99), help="Shirt number.")
@click.option("--journeyman", metavar="ID", help="Sign the journeyman ID who played in --match.")
@click.option("--match", "match_id", metavar="MATCH", help="The match the journeyman played.")
@click.option("--star", is_flag=True, help="POSITION is a star player's id (hired for good).")
@click.option(
    "--from-list",
    metavar="LIST",
    help="The allied team list the position comes from (4th edition allies).",
)
@click.option(
    "--equipment",
    multiple=True,
    metavar="ITEM",
    help="Bought with the player, e.g. a secret weapon (repeatable).",
)
@REASON
@pass_session
def hire(
    session: Session,
    team_id: str,
    position: str,
    name: str,
    number: int | None,
    journeyman: str | None,
    match_id: str | None,
    star: bool,
    from_list: str | None,
    equipment: tuple[str, ...],
    reason: str | None,
) -> None:
    """Hire NAME for TEAM_ID at POSITION (a position id of the team list)."""
    if bool(journeyman) != bool(match_id):
        raise click.UsageError("--journeyman and --match go together")
    player = session.ledger().handle(
        HirePlayer(
            session.league(),
            team_id,
            position,
            name,
            number=number,
            journeyman=journeyman,
            match=match_id,
            star=position if star else None,
            from_list=from_list,
            equipment=equipment,
        ),
        by=session.user,
        reason=reason,
    )
    say(f"{recorded(session)}; his id is {player}.")


@team.command("fire")
@click.argument("team_id")
@click.argument("player")
@REASON
@pass_session
def fire(session: Session, team_id: str, player: str, reason: str | None) -> None:
    """Fire PLAYER (name, #number or id) from TEAM_ID."""
    session.ledger().handle(
        FirePlayer(session.league(), team_id, player), by=session.user, reason=reason
    )
    say(f"{recorded(session)}.")


@team.command("retire")
@click.argument("team_id")
@click.argument("player")
@REASON
@pass_session
def retire(session: Session, team_id: str, player: str, reason: str | None) -> None:
    """Temporarily retire PLAYER (BB2025): on the roster, out of CTV and the season."""
    session.ledger().handle(
        RetirePlayer(session.league(), team_id, player), by=session.user, reason=reason
    )
    say(f"{recorded(session)}.")


@team.command("buy")
@click.argument("team_id")
@click.argument("item")
@click.option("--count", default=1, show_default=True, type=click.IntRange(1, MOST_BOUGHT))
@REASON
@pass_session
def buy(session: Session, team_id: str, item: str, count: int, reason: str | None) -> None:
    """Buy ITEM for TEAM_ID: reroll, assistant_coach, cheerleader, apothecary,
    dedicated_fans... (as the ruleset allows)."""
    session.ledger().handle(
        Buy(session.league(), team_id, item, count), by=session.user, reason=reason
    )
    say(f"{recorded(session)}.")


@team.command("release")
@click.argument("team_id")
@click.argument("item")
@click.option("--count", default=1, show_default=True, type=click.IntRange(1, MOST_BOUGHT))
@REASON
@pass_session
def release(session: Session, team_id: str, item: str, count: int, reason: str | None) -> None:
    """Let go of staff or other bought items (no refund)."""
    session.ledger().handle(
        Release(session.league(), team_id, item, count), by=session.user, reason=reason
    )
    say(f"{recorded(session)}.")


# A negative AMOUNT reads as an unknown option ('-2') unless click leaves unknown options to
# the arguments (click's documented way to take option-like arguments).
@team.command("adjust", context_settings={"ignore_unknown_options": True})
@click.argument("team_id")
@click.argument("amount", type=int)
@click.option("--reason", required=True, help="Why: an award, a fine... (required).")
@pass_session
def adjust(session: Session, team_id: str, amount: int, reason: str) -> None:
    """Add AMOUNT (negative to take) to TEAM_ID's treasury, with a reason."""
    session.ledger().handle(
        AdjustTreasury(session.league(), team_id, amount), by=session.user, reason=reason
    )
    say(f"{team_id} treasury adjusted by {gold(amount)}.")


@team.command("advance")
@click.argument("team_id")
@click.argument("player")
@click.argument(
    "kind",
    type=click.Choice(
        [
            "random_primary",
            "chosen_primary",
            "random_secondary",
            "chosen_secondary",
            "characteristic",
            "star_roll",
        ]
    ),
)
@click.option("--skill", help="The skill taken.")
@click.option("--characteristic", type=click.Choice(["ma", "st", "ag", "pa", "av"]))
@click.option(
    "--die",
    "dice",
    multiple=True,
    metavar="PURPOSE=VALUES",
    help="A roll made for it, e.g. characteristic=7 (the edition's die: a D8 in bb2025,"
    " a D16 in bb2020), random_skill=3,5 (a Skill Table roll) or star_roll=4,4.",
)
@click.option(
    "--roll",
    "roll_it",
    is_flag=True,
    help="Let the ledger roll the dice not given: the characteristic die, the Skill Table"
    " rolls, or a Star Player Roll's (with ZAL's Ageing Roll, and its effect when it fails).",
)
@click.option(
    "--category",
    help=(
        "The category a random skill is drawn from (BB2025, BB2020: one of the player's"
        " primary or secondary categories, e.g. G), or a choice the edition asks for"
        " (4th edition Big Guys: remove_trait)."
    ),
)
@REASON
@pass_session
def advance(
    session: Session,
    team_id: str,
    player: str,
    kind: AdvancementKind,
    skill: str | None,
    characteristic: Characteristic | None,
    dice: tuple[str, ...],
    roll_it: bool,
    category: str | None,
    reason: str | None,
) -> None:
    """PLAYER of TEAM_ID takes an advancement of KIND: SPP spent on the Advancement Table
    (BB2025, BB2020), or the Star Player Roll his SPP level gives (the other editions).

    A random skill (BB2025, BB2020) names its --category. With --roll the ledger rolls the
    characteristic die or the Skill Table dice; when they leave a choice not made (no
    --skill or --characteristic, or one they do not give), the roll is recorded and the
    command says what it gives: run it again with the choice, and the advancement is taken
    from that roll (its kind, category and dice stand). A Star Player Roll's dice, rolled
    by the ledger, are the same on every try: a roll refused for want of a choice says
    what it gives, and the same command with the choice takes it. --die values are the
    dice rolled at the table."""
    # the characteristic die is the edition's: a D8 in bb2025, a D16 in bb2020
    shapes = league_ruleset(session).advancement_dice
    rolls = tuple(parse_roll(entry, shapes) for entry in dice)
    c = session.ledger().context(session.league())
    waits = waiting(c.player(player, team_id))
    command = AdvancePlayer(
        session.league(),
        team_id,
        player,
        kind,
        skill=skill,
        characteristic=characteristic,
        dice=rolls,
        category=category,
        roll_missing=roll_it,
    )
    answer = session.ledger().handle(command, by=session.user, reason=reason)
    if isinstance(answer, ev.AdvancementRolled):
        say_roll(session, command, answer)
        return
    rolled = [r for r in answer.dice if r.source == "ledger"]
    if waits:
        say(f"Taken from the ledger's roll for a {waits.said()}.")
    elif rolled:  # said once stored: a refusal (a category missing...) shows no roll
        say("The ledger rolled: " + ", ".join(f"{r.purpose} {dice_text(r.values)}" for r in rolled))
    say(f"{player} of {team_id} took a {kind_said(kind)}: {advanced(answer)}.")


def say_roll(session: Session, command: AdvancePlayer, roll: ev.AdvancementRolled) -> None:
    """The roll recorded, what it gives, and the command that takes it."""
    c = session.ledger().context(session.league())
    found = c.player(roll.player, roll.team)
    waits = waiting(found)
    assert waits is not None  # just recorded, the read models with it
    choice = choice_waiting(c, c.team(roll.team), found, waits)
    chose = command.skill or (
        f"+{command.characteristic.upper()}" if command.characteristic else ""
    )
    not_it = f", not {chose}" if chose else ""
    again = f"ledger team advance {command.team} {shlex.quote(command.player)} {roll.kind}"
    again += f" --category {roll.category}" if roll.category else ""
    take = "--characteristic STAT or --skill SKILL" if choice.stats else "--skill SKILL"
    say(f"The ledger rolled for {found.name}'s {waits.said()}.")
    say(f"It gives {choice.said()}{not_it}: take one with `{again} {take}`.")


SKILL_TABLE_ROLL = {"random_skill": "2D6"}
"""A Skill Table roll's shape, in every edition that has the table (BB2025, BB2020)."""


def parse_roll(entry: str, shapes: Mapping[str, str]) -> DiceRoll:
    """PURPOSE=VALUES as a roll of the dice ``shapes`` names for the purpose: as many
    values as it has dice (``random_skill=3,5``, ``star_roll=4,4``; ``characteristic=14``,
    a D16 in bb2020); a purpose it does not name, a D6 a value."""
    purpose, _, raw = entry.partition("=")
    values = die_values(raw, entry)
    if not values:
        raise click.BadParameter(f"'{entry}' is not PURPOSE=VALUES", param_hint="--die")
    shape = {**SKILL_TABLE_ROLL, **shapes}.get(purpose)
    count, sides = dice_shape(shape or "D6")
    if shape is not None and len(values) != count:
        example = ",".join(str(min(n + 2, sides)) for n in range(count))
        raise click.BadParameter(
            f"{purpose} is a {shape} roll: {plural(count, 'value')}, as {purpose}={example},"
            f" not {dice_text(values)}",
            param_hint="--die",
        )
    dice = f"D{sides}" if len(values) == 1 else f"{len(values)}D{sides}"
    try:
        return DiceRoll(purpose=purpose, dice=dice, values=values)
    except ValueError:
        raise click.BadParameter(
            f"{dice_text(values)} is not a {dice} roll", param_hint="--die"
        ) from None


def die_values(raw: str, entry: str) -> tuple[int, ...]:
    try:
        return tuple(int(v) for v in raw.split(",") if v.strip())
    except ValueError:
        raise click.BadParameter(
            f"'{entry}' is not PURPOSE=VALUE[,VALUE]", param_hint="--die"
        ) from None


COMMANDS = [team]


@team.command("redraft")
@click.argument("team_id")
@click.option(
    "--keep",
    "keep",
    multiple=True,
    metavar="PLAYER",
    help="A player to re-hire at Current Value + agent's fees (repeatable).",
)
@click.option(
    "--carry",
    "carry",
    multiple=True,
    metavar="ITEM=COUNT",
    help="Re-rolls or staff to carry at standard cost, e.g. reroll=2 (repeatable).",
)
@click.option(
    "--die",
    "dice",
    multiple=True,
    metavar="PURPOSE:PLAYER=VALUES",
    help="A Rest & Relaxation roll, e.g. niggling_recovery:Skweek=5 (repeatable).",
)
@click.option("--roll", "roll_missing", is_flag=True, help="Let the ledger roll missing dice.")
@REASON
@pass_session
def redraft(
    session: Session,
    team_id: str,
    keep: tuple[str, ...],
    carry: tuple[str, ...],
    dice: tuple[str, ...],
    roll_missing: bool,
    reason: str | None,
) -> None:
    """Re-draft TEAM_ID for the next season (BB2025 off-season)."""
    rolls: dict[str, dict[str, list[int]]] = {}
    for entry in dice:
        head, _, values = entry.partition("=")
        purpose, _, player = head.partition(":")
        rolls.setdefault(purpose, {})[player] = list(die_values(values, entry))
    carried = counted_items(carry, "--carry")
    session.ledger().handle(
        Redraft(
            session.league(),
            team_id,
            keep=keep,
            carry=carried,
            dice=rolls,
            roll_missing=roll_missing,
        ),
        by=session.user,
        reason=reason,
    )
    say(f"{team_id} re-drafted for next season: see 'ledger roster {team_id}'.")


@team.command("bounty")
@click.argument("team_id")
@click.argument("player")
@click.argument("amount", type=click.IntRange(min=1))
@REASON
@pass_session
def bounty(session: Session, team_id: str, player: str, amount: int, reason: str | None) -> None:
    """TEAM_ID puts AMOUNT on PLAYER's head (ZAL bounties)."""
    session.ledger().handle(
        PostBounty(session.league(), team_id, player, amount), by=session.user, reason=reason
    )
    say(f"{team_id} posted a bounty of {gold(amount)} on {player}.")


def recorded(session: Session) -> str:
    """The league's newest event as its history says it, with its number (``Event 12:
    Reikland Reavers hired Griff Junior (Human Blitzer) for 85,000``): what a command just
    recorded, in the edition's names rather than the ids it was given."""
    queries = queries_for(session)
    seq = queries.league.version
    line = queries.rows(EventLine, table_of(EventLine).c.seq == seq)
    return f"Event {seq}: {line[0].summary if line else 'recorded'}"
