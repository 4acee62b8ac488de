"""The CSV report: one file per table, with headings a spreadsheet user reads as words.

Numbers are plain integers (gold pieces without separators) so a spreadsheet can add them
up; lists are joined with "; "; yes/no for flags. Files are UTF-8 with a byte-order mark,
which is what makes Excel read accented names right (Python: ``encoding="utf-8-sig"``).
docs/reports.md lists every file and column.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ledger.reports.model import (
    HistoryPoint,
    PlayerLine,
    PublishedCheckpoint,
    SeasonReport,
    TeamPage,
)

Column = tuple[str, Callable[[Any], object]]
Table = tuple[list[str], list[list[object]]]


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection")."""


def cell(value: object) -> object:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return inert("; ".join(str(v) for v in value))
    if isinstance(value, str):
        return inert(value)
    return "" if value is None else value


def inert(text: str) -> str:
    """``text`` as a spreadsheet shows it and never runs it: a name or note a coach typed
    (a player called ``=HYPERLINK(...)``) is a formula to Excel unless it starts with a
    quote, which the spreadsheet hides. Numbers stay numbers: they are not text here."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def table(columns: Sequence[Column], rows: Iterable[Any]) -> Table:
    return [h for h, _ in columns], [[cell(get(row)) for _, get in columns] for row in rows]


def season(report: SeasonReport) -> Table:
    """One row: which season this is and how far it has gone, so a report of a league
    with nothing played yet says so in data (0 games played, not started)."""
    return table(
        [
            ("Season", lambda s: s.number),
            ("Name", lambda s: s.name),
            ("Started", lambda s: s.started),
            ("Status", lambda s: s.status),
            ("Games played", lambda s: s.matches_played),
            ("League games played", lambda s: s.league_games_played),
            ("Games to play", lambda s: s.matches_scheduled),
            ("Champion team ID", lambda s: s.champion_id),
            ("Champion", lambda s: s.champion),
            ("Notice", lambda s: s.notice),
        ],
        [report.season],
    )


def standings(report: SeasonReport) -> Table:
    rows = [(d.division, r) for d in report.standings for r in d.rows]
    return table(
        [
            ("Season", lambda _: report.season.number),
            ("Division", lambda x: x[0]),
            ("Position", lambda x: x[1].rank),
            ("Team ID", lambda x: x[1].team_id),
            ("Team", lambda x: x[1].team),
            ("Coach", lambda x: x[1].coach),
            ("Played", lambda x: x[1].played),
            ("Won", lambda x: x[1].won),
            ("Drawn", lambda x: x[1].drawn),
            ("Lost", lambda x: x[1].lost),
            ("Touchdowns for", lambda x: x[1].td_for),
            ("Touchdowns against", lambda x: x[1].td_against),
            ("Touchdown difference", lambda x: x[1].td_difference),
            ("Casualties for", lambda x: x[1].cas_for),
            ("Casualties against", lambda x: x[1].cas_against),
            ("Bonus points", lambda x: x[1].bonus),
            ("Points", lambda x: x[1].points),
            ("Ahead of the next team on", lambda x: x[1].separated_by),
            ("Plays in the play-offs", lambda x: x[1].qualified),
        ],
        rows,
    )


def positions(report: SeasonReport) -> Table:
    rounds = max((c.rounds for c in report.positions), key=len, default=[])
    headers = ["Division", "Team ID", "Team", *(f"After round {r}" for r in rounds)]
    rows: list[list[object]] = [
        [c.division, s.team_id, s.team, *(cell(p) for p in s.positions)]
        for c in report.positions
        for s in c.series
    ]
    return headers, rows


def matches(report: SeasonReport) -> Table:
    games = [m for r in report.rounds for m in r.matches]
    games += [m for s in report.playoffs for m in s.matches]
    return table(
        [
            ("Match ID", lambda m: m.match_id),
            ("Event", lambda m: m.event),
            ("Round", lambda m: m.round),
            ("Division", lambda m: m.division),
            ("Stage", lambda m: m.stage),
            ("Kind", lambda m: m.kind),
            ("Status", lambda m: m.status),
            ("Home team ID", lambda m: m.home_id),
            ("Home team", lambda m: m.home),
            ("Away team ID", lambda m: m.away_id),
            ("Away team", lambda m: m.away),
            ("Home score", lambda m: m.home_score),
            ("Away score", lambda m: m.away_score),
            ("Home casualties", lambda m: m.home_casualties),
            ("Away casualties", lambda m: m.away_casualties),
            ("Winner team ID", lambda m: m.winner_id),
            ("Conceded by", lambda m: m.conceded_by),
        ],
        games,
    )


def prizes(report: SeasonReport) -> Table:
    return table(
        [
            ("Event", lambda p: p.event),
            ("Team ID", lambda p: p.team_id),
            ("Team", lambda p: p.team),
            ("Amount", lambda p: p.amount),
            ("For", lambda p: p.note),
        ],
        report.prizes,
    )


def team_figure(key: str) -> Callable[[TeamPage], int]:
    """A getter for one of a team's figures (TV, CTV, TR...)."""
    return lambda team: team.figures.get(key, 0)


def history_figure(key: str) -> Callable[[tuple[TeamPage, HistoryPoint]], int]:
    return lambda row: row[1].values.get(key, 0)


def teams(report: SeasonReport) -> Table:
    labels = report.league.value_labels
    return table(
        [
            ("Team ID", lambda t: t.team_id),
            ("Team", lambda t: t.name),
            ("Coach", lambda t: t.coach),
            ("Roster", lambda t: t.roster),
            ("Division", lambda t: t.division),
            ("Final position", lambda t: t.rank),
            *((label, team_figure(key)) for key, label in labels.items()),
            ("Treasury", lambda t: t.treasury),
            ("Fans", lambda t: t.fans),
            ("Team re-rolls", lambda t: t.rerolls),
            ("League Trophy", lambda t: t.trophy),
            ("Staff", lambda t: [f"{k} {v}" for k, v in sorted(t.staff.items())]),
            ("Games played", lambda t: t.games),
            ("Players on the roster", lambda t: len(t.players)),
            ("Status", lambda t: t.status),
        ],
        report.teams,
    )


PLAYER_COLUMNS: list[Column] = [
    ("Team ID", lambda x: x[0].team_id),
    ("Team", lambda x: x[0].name),
    ("Player ID", lambda x: x[1].player_id),
    ("Number", lambda x: x[1].number),
    ("Name", lambda x: x[1].name),
    ("Position", lambda x: x[1].position),
    ("Kind", lambda x: x[1].kind),
    ("MA", lambda x: x[1].ma),
    ("ST", lambda x: x[1].st),
    ("AG", lambda x: x[1].ag),
    ("PA", lambda x: x[1].pa),
    ("AV", lambda x: x[1].av),
    ("Skills", lambda x: x[1].skills),
    ("Skills gained", lambda x: x[1].gained),
    ("Niggling injuries", lambda x: x[1].niggling),
    ("Misses next game", lambda x: x[1].miss_next_game),
    ("Games this season", lambda x: x[1].season.games),
    ("Touchdowns this season", lambda x: x[1].season.touchdowns),
    ("Completions this season", lambda x: x[1].season.completions),
    ("Interceptions this season", lambda x: x[1].season.interceptions),
    ("Casualties this season", lambda x: x[1].season.casualties),
    ("MVPs this season", lambda x: x[1].season.mvps),
    ("SPP earned this season", lambda x: x[1].season.spp),
    ("SPP to spend", lambda x: x[1].spp),
    ("SPP earned in career", lambda x: x[1].spp_earned),
    ("Career games", lambda x: x[1].career_games),
    ("Career touchdowns", lambda x: x[1].career_touchdowns),
    ("Career casualties", lambda x: x[1].career_casualties),
    ("Kills", lambda x: x[1].kills),
    ("Career MVPs", lambda x: x[1].mvps),
    ("Value", lambda x: x[1].value),
    ("Status", lambda x: x[1].status),
]


def players(report: SeasonReport) -> Table:
    everyone: list[tuple[TeamPage, PlayerLine]] = [
        (t, p) for t in report.teams for p in (*t.players, *t.former)
    ]
    return table(PLAYER_COLUMNS, everyone)


def team_history(report: SeasonReport) -> Table:
    labels = report.league.value_labels
    rows = [(t, h) for t in report.teams for h in t.history]
    return table(
        [
            ("Team ID", lambda x: x[0].team_id),
            ("Team", lambda x: x[0].name),
            ("Event", lambda x: x[1].event),
            ("Round", lambda x: x[1].round),
            ("Match ID", lambda x: x[1].match_id),
            ("Match", lambda x: x[1].match),
            *((label, history_figure(key)) for key, label in labels.items()),
            ("Treasury", lambda x: x[1].treasury),
            ("Fans", lambda x: x[1].fans),
        ],
        rows,
    )


def treasury(report: SeasonReport) -> Table:
    rows = [(t, e) for t in report.teams for e in t.statement.entries]
    return table(
        [
            ("Team ID", lambda x: x[0].team_id),
            ("Team", lambda x: x[0].name),
            ("Event", lambda x: x[1].event),
            ("Movement", lambda x: x[1].kind),
            ("Details", lambda x: x[1].note),
            ("Amount", lambda x: x[1].amount),
            ("Balance", lambda x: x[1].balance),
        ],
        rows,
    )


def treasury_summary(report: SeasonReport) -> Table:
    return table(
        [
            ("Team ID", lambda t: t.team_id),
            ("Team", lambda t: t.name),
            ("Opening balance", lambda t: t.statement.opening),
            ("Income", lambda t: t.statement.income),
            ("Spending", lambda t: t.statement.spending),
            ("Closing balance", lambda t: t.statement.closing),
        ],
        report.teams,
    )


def player_moves(report: SeasonReport) -> Table:
    rows = [(t, m) for t in report.teams for m in t.moves]
    return table(
        [
            ("Team ID", lambda x: x[0].team_id),
            ("Team", lambda x: x[0].name),
            ("Event", lambda x: x[1].event),
            ("Move", lambda x: x[1].move),
            ("Player ID", lambda x: x[1].player_id),
            ("Player", lambda x: x[1].name),
            ("Position", lambda x: x[1].position),
            ("Details", lambda x: x[1].detail),
            ("Recorded by", lambda x: x[1].recorded_by),
            ("Reason", lambda x: x[1].reason),
        ],
        rows,
    )


def cemetery(report: SeasonReport) -> Table:
    rows = [o for t in report.teams for o in t.cemetery]
    return table(
        [
            ("Team ID", lambda o: o.team_id),
            ("Team", lambda o: o.team),
            ("Player ID", lambda o: o.player_id),
            ("Player", lambda o: o.name),
            ("Position", lambda o: o.position),
            ("Event", lambda o: o.event),
            ("Match ID", lambda o: o.match_id),
            ("Match", lambda o: o.match),
            ("Round", lambda o: o.round),
            ("Games", lambda o: o.games),
            ("Touchdowns", lambda o: o.touchdowns),
            ("Casualties", lambda o: o.casualties),
            ("SPP earned", lambda o: o.spp_earned),
            ("Skills", lambda o: o.skills),
        ],
        rows,
    )


def leaders(report: SeasonReport) -> Table:
    rows = [(b, e) for b in report.leaders for e in b.entries]
    return table(
        [
            ("Leaderboard", lambda x: x[0].label),
            ("Position", lambda x: x[1].rank),
            ("Player ID", lambda x: x[1].player_id),
            ("Player", lambda x: x[1].name),
            ("Team ID", lambda x: x[1].team_id),
            ("Team", lambda x: x[1].team),
            ("Value", lambda x: x[1].value),
        ],
        rows,
    )


def records(report: SeasonReport) -> Table:
    return table(
        [
            ("Record", lambda r: r.title),
            ("Held by", lambda r: r.holder),
            ("Value", lambda r: r.value),
            ("Details", lambda r: r.detail),
            ("Team ID", lambda r: r.team_id),
            ("Player ID", lambda r: r.player_id),
            ("Match ID", lambda r: r.match_id),
            ("Match", lambda r: r.match),
        ],
        report.records,
    )


def corrections(report: SeasonReport) -> Table:
    return table(
        [
            ("Event", lambda c: c.event),
            ("Recorded at", lambda c: c.recorded_at),
            ("Recorded by", lambda c: c.recorded_by),
            ("Correction", lambda c: c.summary),
            ("Corrected event", lambda c: c.target),
            ("Corrected event was", lambda c: c.target_summary),
            ("Reason", lambda c: c.reason),
        ],
        report.audit.corrections,
    )


def audit(report: SeasonReport) -> Table:
    a, s, c = report.audit, report.season, report.audit.checkpoint
    return (
        [
            "Events in the log",
            "Hash of the last event",
            "Hash chain intact",
            "Season's first event",
            "Season's last event",
            "Check with",
            "Checkpoint events",
            "Checkpoint head hash",
            "Checkpoint made at",
            "Checkpoint key",
            "Checkpoint public key",
            "Checkpoint signature",
        ],
        [
            [
                a.events,
                a.last_hash,
                cell(a.chain_ok),
                s.first_event,
                s.last_event,
                a.verify_command,
                *checkpoint_cells(c),
            ]
        ],
    )


def checkpoint_cells(c: PublishedCheckpoint | None) -> list[object]:
    if c is None:
        return [""] * 6
    return [c.events, c.head_hash, c.made_at, c.key_id, c.public_key, c.signature]


def whatif(report: SeasonReport) -> Table:
    rows = report.whatif.rows if report.whatif else []
    return table(
        [
            ("Team ID", lambda r: r.team_id),
            ("Team", lambda r: r.team),
            ("Division", lambda r: r.division),
            ("Position", lambda r: r.actual_rank),
            ("Points", lambda r: r.actual_points),
            ("What-if position", lambda r: r.whatif_rank),
            ("What-if points", lambda r: r.whatif_points),
            ("Places gained", lambda r: r.movement),
        ],
        rows,
    )


TABLES: dict[str, Callable[[SeasonReport], Table]] = {
    "season": season,
    "standings": standings,
    "positions": positions,
    "matches": matches,
    "prizes": prizes,
    "teams": teams,
    "players": players,
    "team_history": team_history,
    "treasury": treasury,
    "treasury_summary": treasury_summary,
    "player_moves": player_moves,
    "cemetery": cemetery,
    "leaders": leaders,
    "records": records,
    "corrections": corrections,
    "audit": audit,
}


CSV_FILES = frozenset(f"{name}.csv" for name in (*TABLES, "whatif"))
"""Every file a CSV report may hold: a folder written again loses those it does not."""


def render_csv(report: SeasonReport) -> dict[str, str]:
    """File name -> CSV text, one per table (``whatif.csv`` only with a comparison)."""
    chosen = {**TABLES, **({"whatif": whatif} if report.whatif else {})}
    return {f"{name}.csv": as_text(*build(report)) for name, build in chosen.items()}


def as_text(headers: list[str], rows: list[list[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(headers)
    writer.writerows(rows)
    return out.getvalue()
