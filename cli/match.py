"""``ledger match ...``: record reports, close post-game sequences, list fixtures."""

from __future__ import annotations

from pathlib import Path

import click
import yaml

from cli.main import Session, pass_session
from cli.output import SEASON, WIDE, dice_text, gold, print_json, say, table
from ledger.application.commands import (
    BuyInducements,
    CloseMatch,
    PayAppearanceFees,
    PlayCard,
    RecordMatch,
)
from ledger.application.reports import read_report
from ledger.application.restated import by_name, plain_names, report_of_match
from ledger.application.service import LeagueLedger
from ledger.domain.state import MatchRow, PlayerRow, TeamRow
from ledger.errors import InvalidInput
from ledger.reports.match_sheet import MatchSheet, match_sheet, report_standing


@click.group()
def match() -> None:
    """Record match reports and close post-game sequences."""


@match.command("record")
@click.argument("report", type=click.Path(path_type=Path))
@click.option(
    "--roll",
    "roll_missing",
    is_flag=True,
    help="Let the ledger roll (and record) any post-game die the report leaves out.",
)
@click.option("--reason", help="Why (kept in the log).")
@pass_session
def record(session: Session, report: Path, roll_missing: bool, reason: str | None) -> None:
    """Record the match REPORT (a YAML or JSON file; see docs/match-report.md)."""
    parsed = read_report(report)
    ledger = session.ledger()
    match_id = ledger.handle(
        RecordMatch(session.league(), parsed, roll_missing=roll_missing),
        by=session.user,
        reason=reason,
    )
    if ledger.unit is not None:  # a line of 'ledger run': the tables show the match once
        say(f"Recorded match {match_id}: {parsed.home.team} v {parsed.away.team}.")
        return  # the script is stored, so the teams are said as the script gave them
    from cli.match_show import print_sheet, rolled_line

    sheet = sheet_of(session, match_id)
    say(f"Recorded match {match_id}.")  # the sheet's first line names the teams and the score
    if roll_missing:
        say(rolled_line(sheet))
    say()
    print_sheet(sheet)


def print_report(session: Session, match_id: str, as_json: bool) -> None:
    """The match's report file as it stands, headed by how to correct it with it."""
    from cli.queries import queries_for

    queries = queries_for(session)
    standing = report_standing(session.ledger(), queries, match_id)
    report = report_of_match(standing)
    if as_json:
        print_json(report)
        return
    everyone = list(queries.store.select(PlayerRow, league_id=queries.league_id))
    teams = {sheet.team for sheet in standing.sheets()}
    players = (p for p in everyone if p.team_id in teams)
    report = by_name(report, plain_names(players, (p.player_id for p in everyone)))
    click.echo(
        f"# Match {match_id} as it stands (event {standing.seq}). Correct what the sheet got"
        f" wrong, then:\n# ledger correct {standing.seq} --report FILE --reason WHY\n"
        "# (Players are named; one whose name another of the teams shares, by his id.)\n"
        + yaml.safe_dump(report, sort_keys=False, allow_unicode=True),
        nl=False,
    )


def sheet_of(session: Session, match_id: str) -> MatchSheet:
    from cli.queries import queries_for

    # The sheet reads the match's report from the log: the ledger is opened first, and
    # the questions then go through it (not the lean read path, which has no SQLAlchemy).
    ledger = session.ledger()
    return match_sheet(ledger, queries_for(session), match_id)


@match.command("show")
@click.argument("match_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option(
    "--report",
    "as_report",
    is_flag=True,
    help="Print the report file that records the match as it stands (YAML): edit it, then"
    " 'ledger correct EVENT --report FILE --reason ...'.",
)
@WIDE
@pass_session
def show(session: Session, match_id: str, as_json: bool, as_report: bool) -> None:
    """MATCH_ID as recorded (score, each player's achievements, casualties with their dice
    and outcomes, MVPs), what the league's ruleset made of it (SPP, winnings, fans,
    Expensive Mistakes), which dice were entered and which the ledger rolled, and any
    correction of it."""
    if session.ledger().unit is not None:
        raise InvalidInput(
            "'match show' only reads, and a script stored as one unit is read once stored:"
            " run it after the script, or use --each"
        )
    if as_report:
        print_report(session, match_id, as_json)
        return
    from cli.match_show import print_sheet

    sheet = sheet_of(session, match_id)
    if as_json:
        print_json(sheet)
    else:
        print_sheet(sheet)


@match.command("close")
@click.argument("match_id")
@click.option(
    "--team",
    "teams",
    multiple=True,
    help="Team to close for (default: every team of the match that has not closed yet).",
)
@click.option(
    "--die",
    "dice",
    multiple=True,
    metavar="[TEAM:]PURPOSE=VALUES",
    help="A post-game roll, e.g. expensive_mistakes=3 (repeatable): it goes to each team whose"
    " sequence needs it. TEAM:PURPOSE=VALUES is one team's own, e.g."
    " --die reavers:expensive_mistakes=3 --die rats:expensive_mistakes=5.",
)
@click.option("--roll", "roll_missing", is_flag=True, help="Let the ledger roll any die not given.")
@click.option("--reason", help="Why (kept in the log).")
@pass_session
def close(
    session: Session,
    match_id: str,
    teams: tuple[str, ...],
    dice: tuple[str, ...],
    roll_missing: bool,
    reason: str | None,
) -> None:
    """Close the post-game sequence of MATCH_ID (after hiring and advancements), for both
    teams or, if either cannot close, for neither.

    A die given as PURPOSE=VALUES goes to the teams that need it: BB2025 Expensive
    Mistakes are rolled only by a team with 100,000 or more in its treasury, so one
    --die expensive_mistakes=3 closes both teams when only one rolled. When both rolled,
    one value serves both; give TEAM:PURPOSE=VALUES for each when they differ. A die that
    no team closing needs is refused, and nothing is recorded."""
    ledger, league = session.ledger(), session.league()
    league_id = ledger.league_row(league).league_id
    row = ledger.view().get(MatchRow, league_id, match_id)
    chosen = teams or (still_open(row) if row else ())
    given = dict(parse_die(d) for d in dice)
    before = treasuries(ledger, league_id)
    closes = ledger.handle(
        CloseMatch(league, match_id, chosen, dice=given, roll_missing=roll_missing),
        by=session.user,
        reason=reason,
    )
    after = treasuries(ledger, league_id)
    for close in closes:
        was, now = before.get(close.team), after.get(close.team)
        cost = f": treasury {gold(was)} -> {gold(now)}" if was != now else ""
        say(f"Closed the post-game sequence of {match_id} for {close.team}{cost}.")
        rolled = [d for d in close.dice if d.source == "ledger"]
        if rolled:  # what the ledger decided for the team
            shown = "; ".join(f"{d.purpose} {d.dice} {dice_text(d.values)}" for d in rolled)
            say(f"  The ledger rolled: {shown}.")


def treasuries(ledger: LeagueLedger, league_id: str) -> dict[str, int]:
    """Each team's treasury, to say what a close cost it (BB2025 Expensive Mistakes)."""
    return {t.team_id: t.treasury for t in ledger.view().select(TeamRow, league_id=league_id)}


def still_open(row: MatchRow) -> tuple[str, ...]:
    """The teams of a match still to close (all of them when none is: the close says why)."""
    teams = (row.home, row.away, *row.others)
    return tuple(t for t in teams if t not in row.closed) or teams


def parse_die(entry: str) -> tuple[str, int | list[int]]:
    purpose, _, raw = entry.partition("=")
    try:
        values = [int(v) for v in raw.split(",")]
    except ValueError:
        raise click.BadParameter(
            f"'{entry}' is not PURPOSE=VALUE[,VALUE]", param_hint="--die"
        ) from None
    return purpose, values[0] if len(values) == 1 else values


def counted_items(entries: tuple[str, ...], option: str) -> dict[str, int]:
    """``ITEM=COUNT`` each (``ITEM`` alone: one), each item once (a second count had won)."""
    counted: dict[str, int] = {}
    for entry in entries:
        item, _, count = entry.partition("=")
        if item in counted:
            raise click.BadParameter(
                f"{item} is given twice: once, with its count", param_hint=option
            )
        try:
            counted[item] = int(count or 1)
        except ValueError:
            raise click.BadParameter(f"'{entry}' is not ITEM=COUNT", param_hint=option) from None
    return counted


@match.command("inducements")
@click.argument("match_id")
@click.argument("team_id")
@click.option(
    "--buy",
    "items",
    multiple=True,
    metavar="ITEM=COUNT",
    help=(
        "An inducement and how many, e.g. blitzers_best_kegs=1, or a Star Player by id,"
        " e.g. morg_n_thorg=1 (repeatable)."
    ),
)
@click.option("--reason", help="Why (kept in the log).")
@pass_session
def inducements(
    session: Session, match_id: str, team_id: str, items: tuple[str, ...], reason: str | None
) -> None:
    """TEAM_ID buys its inducements for fixture MATCH_ID (none: no --buy). The team with the
    higher value for the game (CTV in BB2020 and BB2025, TV in LRB6) goes first; the other
    then spends petty cash. In BB2020 and BB2025 Star Players are induced here (at most
    two); the match report then names each under the team's hirelings, without a price."""
    wanted = counted_items(items, "--buy")
    session.ledger().handle(
        BuyInducements(session.league(), match_id, team_id, wanted), by=session.user, reason=reason
    )
    say(f"{team_id} bought its inducements for {match_id}.")


@match.command("card")
@click.argument("team_id")
@click.argument("card")
@click.option("--match", "match_id", help="The match it was played in.")
@click.option("--against", help="The team or player it was played on.")
@click.option(
    "--die",
    "dice",
    multiple=True,
    metavar="PURPOSE=VALUES",
    help="A roll the card needs (repeatable).",
)
@click.option("--roll", "roll_missing", is_flag=True, help="Let the ledger roll missing dice.")
@click.option("--reason", help="Why (kept in the log).")
@pass_session
def card(
    session: Session,
    team_id: str,
    card: str,
    match_id: str | None,
    against: str | None,
    dice: tuple[str, ...],
    roll_missing: bool,
    reason: str | None,
) -> None:
    """TEAM_ID played special play CARD with an effect on the books (e.g. bankruptcy)."""
    session.ledger().handle(
        PlayCard(
            session.league(),
            team_id,
            card,
            match=match_id,
            against=against,
            dice=dict(parse_die(d) for d in dice),
            roll_missing=roll_missing,
        ),
        by=session.user,
        reason=reason,
    )
    say(f"{team_id} played {card}.")


@match.command("fees")
@click.argument("match_id")
@click.argument("team_id")
@click.argument("players", nargs=-1, required=True)
@click.option("--reason", help="Why (kept in the log).")
@pass_session
def fees(
    session: Session, match_id: str, team_id: str, players: tuple[str, ...], reason: str | None
) -> None:
    """TEAM_ID pays the appearance fees of PLAYERS before MATCH_ID (4th edition); a star
    freebooted for the match is named HIRELING_ID=COST (his id in the report, his cost)."""
    session.ledger().handle(
        PayAppearanceFees(session.league(), match_id, team_id, list(players)),
        by=session.user,
        reason=reason,
    )
    say(f"{team_id} paid appearance fees for {', '.join(players)}.")


@match.command("list")
@click.option("--season", type=SEASON, help="Only this season.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@WIDE
@pass_session
def list_matches(session: Session, season: int | None, as_json: bool) -> None:
    """Fixtures and results."""
    from cli.queries import queries_for

    rows = queries_for(session).matches(season)
    if as_json:
        print_json(rows)
        return
    say(
        table(
            ["match", "season", "round", "stage", "home", "score", "away", "status"],
            [
                [
                    m.match_id,
                    m.season,
                    m.round,
                    m.stage,
                    m.home,
                    f"{m.home_score}-{m.away_score}" if m.status == "played" else "",
                    m.away,
                    m.status + (f" (conceded by {m.conceded_by})" if m.conceded_by else ""),
                ]
                for m in rows
            ],
        )
    )


COMMANDS = [match]
