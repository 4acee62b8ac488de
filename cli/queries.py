"""Read-only commands: roster, standings, leaders, treasury, history, teams."""

from __future__ import annotations

import click

from cli.main import Session, pass_session
from cli.output import SEASON, WIDE, gold, print_json, say, spaced, table, wrapped
from ledger.domain.events import ADVANCEMENT_NAMES
from ledger.domain.state import EventRef, PlayerRow
from ledger.projections.leagues import league_row, resolve_league
from ledger.projections.queries import STAT_COLUMNS, Queries, Roster, Standings, TableRow
from ledger.projections.refs import history_key
from ledger.rules import find_ruleset
from ledger.rules.protocol import LEVEL
from ledger.words import taken

JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def queries_for(session: Session) -> Queries:
    """The questions about the session's league, asked of read models that include every
    event: through a plain sqlite3 connection when they already do (the quick start of
    ``Session.current_tables``), else through the ledger, caught up first. The answers
    are the same either way: only the connection under ``Queries`` differs."""
    tables = session.current_tables()
    if tables is not None:
        row = league_row(tables, resolve_league(tables, session.league_named))
        return Queries(tables, row, find_ruleset(row.ruleset, row.options))
    ledger = session.ledger()
    ledger.catch_up()  # only the events recorded since the tables were last written
    row = ledger.league_row(session.league())
    return Queries(ledger.read_models.engine, row, find_ruleset(row.ruleset, row.options))


def status_of(player: PlayerRow) -> str:
    marks = [
        {"retired": "TR", "dead": "dead", "fired": "fired", "left": "left"}.get(player.status, "")
    ]
    if player.miss_next_game:
        marks.append("MNG")
    if player.niggling:
        marks.append(f"niggling x{player.niggling}" if player.niggling > 1 else "niggling")
    return ", ".join(m for m in marks if m)


def characteristic(value: int | None, target: bool) -> str:
    if value is None:
        return "-"
    return f"{value}+" if target else str(value)


def player_line(player: PlayerRow, targets: bool) -> list[object]:
    advancements = ", ".join(taken(a) for a in player.advancements)
    return [
        player.number or "",
        player.name,
        player.position,
        player.ma,
        player.st,
        characteristic(player.ag, targets),
        characteristic(player.pa, targets),
        characteristic(player.av, targets),
        ", ".join(player.skills),
        player.spp,
        advancements,
        gold(player.value),
        status_of(player),
    ]


ROSTER_DROPS = (10, 11, 6, 5, 3, 4, 7, 2)
"""Left out first on a narrow terminal: advancements (the skills column lists them too),
value, PA, AG, MA, ST, AV, position; never the number, name, skills, SPP or status."""


def print_roster(roster: Roster, targets: bool) -> None:
    """``targets``: the edition writes AG, PA and AV as targets (3+)."""
    team = roster.team
    labels = roster.value_labels.items()
    say(wrapped(f"{team.name} ({team.team_id}) - {team.roster}, coach {team.coach}"))
    staff = [f"{item} {count}" for item, count in sorted(team.staff.items())]
    rerolls = f"re-rolls {team.rerolls}" + (" (+1 League Trophy)" if team.trophy else "")
    say(
        spaced(
            [
                *(f"{label} {gold(team.values.get(key, 0))}" for key, label in labels),
                f"treasury {gold(team.treasury)}",
                rerolls,
                f"fans {team.fans}",
                *staff,
                f"games {team.games}",
            ]
        )
    )
    headers = [
        "#",
        "name",
        "position",
        "MA",
        "ST",
        "AG",
        "PA",
        "AV",
        "skills",
        "SPP",
        "advancements",
        "value",
        "status",
    ]
    lines = [player_line(p, targets) for p in roster.players]
    say(table(headers, lines, right=(3, 4, 9, 11), wrap=(1, 2, 8, 10, 12), drop=ROSTER_DROPS))
    if waiting := [p for p in roster.players if p.rolled]:
        rolls = "; ".join(
            f"{p.name} ({ADVANCEMENT_NAMES[p.rolled['kind']]}, event {p.rolled['seq']})"
            for p in waiting
        )
        say("\n" + wrapped(f"Advancements rolled, waiting to be taken: {rolls}"))
    if roster.former:
        former = "; ".join(f"{p.name} ({p.position}, {p.status})" for p in roster.former)
        say("\n" + wrapped(f"Former players: {former}"))


@click.command("roster")
@WIDE
@click.argument("team_id")
@JSON
@pass_session
def roster(session: Session, team_id: str, as_json: bool) -> None:
    """TEAM_ID's roster: TV/CTV (or TR), treasury, players with SPP, value and status."""
    q = queries_for(session)
    found = q.roster(team_id)
    if as_json:
        print_json(found)
    else:
        print_roster(found, q.ruleset.characteristic_targets)


@click.command("teams")
@WIDE
@JSON
@pass_session
def teams(session: Session, as_json: bool) -> None:
    """The league's teams with their headline figures."""
    q = queries_for(session)
    rows = q.teams()
    if as_json:
        print_json(rows)
        return
    label = q.ruleset.value_labels.get(q.ruleset.rating_key, "rating")
    say(
        table(
            ["team", "name", "roster", "coach", label, "treasury", "games"],
            [
                [t.team_id, t.name, t.roster, t.coach, gold(t.rating), gold(t.treasury), t.games]
                for t in rows
            ],
            right=(4, 5, 6),
            drop=(6, 2, 3),
        )
    )


@click.command("standings")
@WIDE
@click.option("--season", type=SEASON, help="Season (default: the latest).")
@JSON
@pass_session
def standings(session: Session, season: int | None, as_json: bool) -> None:
    """The league table per division under the league's ruleset, with tie-breakers."""
    queries = queries_for(session)
    found = queries.standings(season)
    if as_json:
        print_json(found)
        return
    print_standings(found)
    if found.divisions and found.season != max(queries.seasons(), default=found.season):
        figures = " and ".join(found.value_labels.values())
        say(
            wrapped(
                f"{figures} are the teams' now; the season report has them as season"
                f" {found.season} ended ('ledger report --season {found.season}')."
            )
        )


STANDING_COLUMNS = ["P", "W", "D", "L", "TD+", "TD-", "TDΔ", "CAS+", "CAS-", "bonus", "pts"]


def standing_line(r: TableRow, figures: list[str]) -> list[object]:
    """One team's line: rank, name, the edition's figures (TR; TV and CTV), the table."""
    row = r.row
    return [
        r.rank,
        r.name,
        *(gold(r.values.get(key)) for key in figures),
        *(row.played, row.won, row.drawn, row.lost, row.td_for, row.td_against),
        *(row.td_for - row.td_against, row.cas_for, row.cas_against, row.bonus, row.points),
        separation(r.separated_by),
    ]


def separation(separated_by: str | None) -> str:
    """What put a team above the next one on the same points, in words."""
    if separated_by is None:
        return ""
    return LEVEL_WORDS if separated_by == LEVEL else separated_by.replace("_", " ")


LEVEL_WORDS = "level on all"
SEPARATION_NOTE = (
    "separated by: the tie-breaker that put a team above the next one on the same points"
    f" ('{LEVEL_WORDS}': none did, so they share a place and are listed by team id)."
)


def standing_drops(figures: int) -> tuple[int, ...]:
    """Left out first on a narrow terminal: the team value columns (TV/CTV or TR), then
    CAS-, CAS+, TD-, TD+, bonus, D; never rank, team, P, W, L, TDΔ, points or what
    separated a tie."""
    first = 2 + figures  # the column after the figures: P
    table_column = {name: first + i for i, name in enumerate(STANDING_COLUMNS)}
    order = ("CAS-", "CAS+", "TD-", "TD+", "bonus", "D")
    return (*range(2, first), *(table_column[name] for name in order))


def print_standings(found: Standings) -> None:
    figures = list(found.value_labels)
    headers = ["#", "team", *found.value_labels.values(), *STANDING_COLUMNS, "separated by"]
    numbers = tuple(range(2, 2 + len(figures) + len(STANDING_COLUMNS)))
    if not found.divisions:
        say(f"No standings yet: league {found.league} has started no season.")
    for division, rows in found.divisions.items():
        say(f"Season {found.season}" + (f", {division}" if division else ""))
        lines = [standing_line(r, figures) for r in rows]
        drops = standing_drops(len(figures))
        say(table(headers, lines, right=numbers, wrap=(1, len(headers) - 1), drop=drops))
        if any(r.separated_by for r in rows):
            say(wrapped(SEPARATION_NOTE))
        say()


@click.command("leaders")
@WIDE
@click.option("--stat", type=click.Choice(sorted(STAT_COLUMNS)), default="spp", show_default=True)
@click.option("--limit", type=click.IntRange(1, 1000), default=10, show_default=True)
@JSON
@pass_session
def leaders(session: Session, stat: str, limit: int, as_json: bool) -> None:
    """Leaderboards: touchdowns, casualties, SPP, MVPs, completions, interceptions, kills."""
    found = queries_for(session).leaders(stat, limit)
    if as_json:
        print_json(found)
        return
    if not found:
        say(f"Nobody on the {stat} board yet.")
        return
    say(
        table(
            ["#", "player", "team", stat, "status"],
            [[r.rank, r.name, r.team_id, r.value, r.status] for r in found],
            right=(3,),
        )
    )


@click.command("treasury")
@WIDE
@click.argument("team_id")
@JSON
@pass_session
def treasury(session: Session, team_id: str, as_json: bool) -> None:
    """Every movement of TEAM_ID's gold, the event that caused it and the running balance."""
    lines = queries_for(session).treasury(team_id)
    if as_json:
        print_json(lines)
        return
    say(
        table(
            ["event", "kind", "amount", "balance", "note"],
            [
                [line.seq, line.kind, gold(line.amount), gold(line.balance), line.note]
                for line in lines
            ],
            right=(0, 2, 3),
        )
    )


@click.command("history")
@click.argument("ref")
@JSON
@WIDE
@pass_session
def history(session: Session, ref: str, as_json: bool) -> None:
    """Every event that touched REF (a team id, a match id, a player name or id; or
    team:<id>, match:<id>, player:<id>), with who recorded it, when and why. A player's
    games say what he did there and what it did to him (SPP, injuries)."""
    q = queries_for(session)
    key = history_key(q, ref)
    lines = q.history(key)
    if key.startswith("player:"):
        lines = with_games(session, q, key.removeprefix("player:"), lines)
    if as_json:
        print_json(lines)
        return
    say(
        table(
            ["event", "when", "by", "what", "why"],
            [
                [
                    line.seq,
                    line.recorded_at[:19].replace("T", " "),
                    line.who,
                    ("[voided] " if line.voided else "") + line.summary,
                    line.reason or "",
                ]
                for line in lines
            ],
            right=(0,),
        )
    )


def with_games(session: Session, q: Queries, player: str, lines: list[EventRef]) -> list[EventRef]:
    """The player's history with, on each game he played, what he did and took there."""
    from ledger.reports.player_games import game_notes

    notes = game_notes(session.ledger(), q, player)
    return [
        line.model_copy(update={"summary": f"{line.summary}; {notes[line.seq]}"})
        if line.seq in notes and line.event_type == "MatchRecorded"
        else line
        for line in lines
    ]


COMMANDS = [roster, teams, standings, leaders, treasury, history]
