"""``ledger season ...``: divisions, the schedule, the play-offs, the end of a season."""

from __future__ import annotations

import click

from cli.main import Session, pass_session
from cli.output import REASON, say
from ledger.application.commands import (
    CloseSeason,
    OrderStarDraft,
    SchedulePlayoffs,
    ScheduleSeason,
    SignStar,
    StartSeason,
)
from ledger.application.seasons import as_they_stand
from ledger.domain.values import Division
from ledger.errors import InvalidInput
from ledger.words import plural


def parse_division(text: str) -> Division:
    name, sep, teams = text.partition("=")
    if not sep or not teams.strip():
        raise InvalidInput(f"a division is NAME=team,team,..., not '{text}'")
    return Division(name=name.strip(), teams=tuple(t.strip() for t in teams.split(",")))


@click.group()
def season() -> None:
    """Start a season with its divisions, schedule it, run its play-offs, close it."""


@season.command("start")
@click.option(
    "--division",
    "divisions",
    multiple=True,
    required=True,
    metavar="NAME=TEAM,TEAM,...",
    help="A division and its teams (repeatable).",
)
@click.option(
    "--playoffs",
    "playoff_teams",
    type=click.IntRange(0, 64),
    default=0,
    show_default=True,
    help="How many teams qualify for the play-offs.",
)
@click.option("--name", default="", help="A name for the season.")
@REASON
@pass_session
def start(
    session: Session, divisions: tuple[str, ...], playoff_teams: int, name: str, reason: str | None
) -> None:
    """Start the next season."""
    planned = [parse_division(d) for d in divisions]
    ledger = session.ledger()
    kept = as_they_stand(ledger.context(session.league()), planned)
    number = ledger.handle(
        StartSeason(session.league(), planned, playoff_teams=playoff_teams, name=name),
        by=session.user,
        reason=reason,
    )
    say(f"Season {number} started with {plural(len(divisions), 'division')}.")
    if kept:
        say(f"Not re-drafted, so playing as they stand: {', '.join(kept)}.")


@season.command("schedule")
@click.option(
    "--legs",
    type=click.IntRange(1, 4),
    default=1,
    show_default=True,
    help="Times each pair meets (2: home and away).",
)
@REASON
@pass_session
def schedule(session: Session, legs: int, reason: str | None) -> None:
    """Schedule a round robin in every division of the current season."""
    count = session.ledger().handle(
        ScheduleSeason(session.league(), legs=legs), by=session.user, reason=reason
    )
    say(f"Scheduled {count} fixtures: see 'ledger match list'.")


@season.command("playoffs")
@click.option(
    "--dungeon-bowl",
    is_flag=True,
    help="Play the final as one multi-player Dungeon Bowl match of all qualifiers.",
)
@REASON
@pass_session
def playoffs(session: Session, dungeon_bowl: bool, reason: str | None) -> None:
    """Draw the play-offs (or their next round) from the results so far."""
    count = session.ledger().handle(
        SchedulePlayoffs(session.league(), dungeon_bowl=dungeon_bowl),
        by=session.user,
        reason=reason,
    )
    say(f"Scheduled {plural(count, 'play-off fixture')}: see 'ledger match list'.")


@season.command("close")
@click.option(
    "--without-playoffs",
    is_flag=True,
    help="Close a season started with play-offs before their final: places by the table.",
)
@REASON
@pass_session
def close(session: Session, without_playoffs: bool, reason: str | None) -> None:
    """Close the current season: prizes and the League Trophy are awarded."""
    command = CloseSeason(session.league(), without_playoffs=without_playoffs)
    session.ledger().handle(command, by=session.user, reason=reason)
    say("Season closed.")


@season.command("star-draft")
@click.option(
    "--drawn",
    metavar="TEAM,TEAM,...",
    help="The hat draw as made at the table (all teams in a first season, the new"
    " teams afterwards); left out, the ledger draws.",
)
@REASON
@pass_session
def star_draft(session: Session, drawn: str | None, reason: str | None) -> None:
    """Set the order in which teams sign a star (Spike! 2021 long-term contracts)."""
    order = session.ledger().handle(
        OrderStarDraft(
            session.league(), drawn=[t.strip() for t in drawn.split(",")] if drawn else None
        ),
        by=session.user,
        reason=reason,
    )
    say("Star draft order: " + ", ".join(order))


@season.command("sign")
@click.argument("team_id")
@click.argument("star")
@REASON
@pass_session
def sign(session: Session, team_id: str, star: str, reason: str | None) -> None:
    """TEAM_ID signs STAR for the season, free (Spike! 2021 long-term contracts)."""
    session.ledger().handle(
        SignStar(session.league(), team_id, star), by=session.user, reason=reason
    )
    say(f"{team_id} signed {star} for the season.")


COMMANDS = [season]
