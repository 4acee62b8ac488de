"""One match as the books hold it: ``ledger match show`` and the summary of ``match record``.

The report is read from the log as recorded (with its correction applied, if amended);
what the league's ruleset made of it comes from the read models the fold wrote for the
match's events: each player's game line (SPP, injury), the teams' treasury lines of the
report and of its post-game closes (winnings, Expensive Mistakes... with the ruleset's own
notes), and the teams' history lines (fans). Nothing is computed again here.
"""

from __future__ import annotations

from typing import Any

from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.log import league_id
from ledger.domain.state import (
    EventRef,
    MatchRow,
    PlayerGameLine,
    PlayerRow,
    TeamHistoryLine,
    TeamRow,
    TreasuryLine,
)
from ledger.domain.values import Casualty, DiceRoll, Hireling, Performance, TeamSheet
from ledger.errors import NotAllowed, UnknownMatch
from ledger.projections.fold import amended
from ledger.projections.queries import Queries
from ledger.projections.sql import table_of
from ledger.reports.match_model import (
    CasualtySheet,
    CorrectionSheet,
    Die,
    MatchSheet,
    Money,
    PlayerSheet,
    SideSheet,
)


def match_sheet(ledger: LeagueLedger, queries: Queries, match_id: str) -> MatchSheet:
    """The match ``match_id`` of the league ``queries`` answers for."""
    row = queries.store.get(MatchRow, queries.league_id, match_id)
    refs = queries.history(f"match:{match_id}")
    reports = [r for r in refs if r.event_type == "MatchRecorded"]
    if row is None and not reports:
        raise UnknownMatch(f"no match '{match_id}' in league {queries.league.slug}")
    played = row is not None and row.status == "played"
    seq = row.recorded_seq if played and row else (reports[-1].seq if reports else None)
    if seq is None:
        assert row is not None
        return fixture(queries, row)
    closes = [r for r in refs if r.event_type == "PostGameClosed" and r.seq > seq]
    corrections = corrections_of(refs, {seq, *(r.seq for r in closes)})
    report = read_report(ledger, queries, seq, corrections)
    if report is None:  # a fault the read models pass over: 'ledger audit verify' names it
        raise UnknownMatch(f"match '{match_id}' was recorded by event {seq}, which cannot be read")
    recorded = next(r for r in reports if r.seq == seq)
    kept = [r.seq for r in closes if not r.voided]
    return build(ledger, queries, row, report, recorded, kept, corrections, played)


def report_standing(ledger: LeagueLedger, queries: Queries, match_id: str) -> ev.MatchRecorded:
    """The played match's report as it stands, its latest amendment applied: what a
    correction of it restates (``ledger match show --report``)."""
    row = queries.store.get(MatchRow, queries.league_id, match_id)
    if row is None:
        raise UnknownMatch(f"no match '{match_id}' in league {queries.league.slug}")
    if row.status != "played" or row.recorded_seq is None:
        raise NotAllowed(f"match {match_id} is {row.status}: it has no report standing")
    refs = queries.history(f"match:{match_id}")
    report = read_report(
        ledger, queries, row.recorded_seq, corrections_of(refs, {row.recorded_seq})
    )
    if report is None:
        raise UnknownMatch(
            f"match '{match_id}' was recorded by event {row.recorded_seq}, which cannot be read"
        )
    return report


def fixture(queries: Queries, row: MatchRow) -> MatchSheet:
    names = Names(queries, row)
    return MatchSheet(
        match_id=row.match_id,
        status=row.status,
        kind=row.kind,
        season=row.season,
        round=row.round,
        stage=row.stage,
        sides=[
            SideSheet(team_id=t, name=names.team(t), touchdowns=0) for t in (row.home, row.away)
        ],
    )


def corrections_of(refs: list[EventRef], targets: set[int]) -> list[CorrectionSheet]:
    """The corrections of the report and of its closes, in the order made."""
    return [
        CorrectionSheet(
            seq=r.seq,
            target=r.target,
            summary=r.summary,
            by=r.who,
            at=r.recorded_at,
            reason=r.reason,
        )
        for r in refs
        if r.event_type == "EventCorrected" and r.target in targets
    ]


def read_event(ledger: LeagueLedger, queries: Queries, seq: int) -> ev.LedgerEvent | None:
    stored = ledger.recorder.select_events(
        league_id(queries.league.slug), gt=seq - 1 if seq > 1 else None, lte=seq, limit=1
    )
    event = ledger.mapper.to_domain_event(stored[0]) if stored else None
    return event if isinstance(event, ev.LedgerEvent) else None


def read_report(
    ledger: LeagueLedger, queries: Queries, seq: int, corrections: list[CorrectionSheet]
) -> ev.MatchRecorded | None:
    report = read_amended(ledger, queries, seq, corrections)
    return report if isinstance(report, ev.MatchRecorded) else None


def as_it_stands(ledger: LeagueLedger, queries: Queries, seq: int) -> ev.LedgerEvent | None:
    """Event ``seq`` as the fold reads it now: its latest amendment applied."""
    corrections = corrections_of(queries.history(f"event:{seq}"), {seq})
    return read_amended(ledger, queries, seq, corrections)


def read_amended(
    ledger: LeagueLedger, queries: Queries, seq: int, corrections: list[CorrectionSheet]
) -> ev.LedgerEvent | None:
    """Event ``seq`` as the fold reads it: as amended by its latest correction (a close's
    dice amended show as amended, as its gold does)."""
    event = read_event(ledger, queries, seq)
    if event is None:
        return None
    fixes = [c.seq for c in corrections if c.target == seq]
    correction = read_event(ledger, queries, fixes[-1]) if fixes else None
    if isinstance(correction, ev.EventCorrected) and correction.action == "amend":
        return amended(event, correction)
    return event


def build(
    ledger: LeagueLedger,
    queries: Queries,
    row: MatchRow | None,
    report: ev.MatchRecorded,
    recorded: EventRef,
    closes: list[int],
    corrections: list[CorrectionSheet],
    played: bool,
) -> MatchSheet:
    names = Names(queries, row)
    close_events = [
        e
        for s in closes
        if isinstance(e := read_amended(ledger, queries, s, corrections), ev.PostGameClosed)
    ]
    return MatchSheet(
        match_id=report.match,
        status="played" if played else "voided",
        kind=report.kind,
        season=row.season if row else report.season,
        round=row.round if row else report.round,
        stage=row.stage if row else "",
        recorded_seq=recorded.seq,
        recorded_by=recorded.who,
        recorded_at=recorded.recorded_at,
        played_on=report.played_on,
        weather=report.weather,
        referee=report.referee,
        winner=row.winner if played and row else None,
        conceded_by=report.concession.team if report.concession else None,
        closes=queries.ruleset.post_game_closes,
        sides=[
            side(ledger, queries, names, s.team, s.touchdowns, recorded.seq, close_events, played)
            for s in report.sheets()
        ],
        players=players(queries, names, report, row, played),
        casualties=[casualty(names, c) for c in report.casualties],
        dice=report_dice(report, names)
        + [die(r, "close", names) for e in close_events for r in e.dice],
        corrections=corrections,
    )


class Names:
    """Players' names: the roster's, or a hireling's as the match recorded him."""

    def __init__(self, queries: Queries, row: MatchRow | None) -> None:
        self.queries = queries
        self.hirelings: dict[str, dict[str, Any]] = dict(row.hirelings) if row else {}
        self.teams = {t.team_id: t.name for t in queries.teams()}

    def player(self, player_id: str) -> str:
        found = self.queries.store.get(PlayerRow, self.queries.league_id, player_id)
        if found is not None:
            return found.name
        return str(self.hirelings.get(player_id, {}).get("name", player_id))

    def team(self, team_id: str) -> str:
        return self.teams.get(team_id, team_id)

    def of(self, subject: str) -> str:
        """A roll's subject by name: a team's (a side's dice) or a player's."""
        return self.teams[subject] if subject in self.teams else self.player(subject)


def side(
    ledger: LeagueLedger,
    queries: Queries,
    names: Names,
    team: str,
    touchdowns: int,
    seq: int,
    closes: list[ev.PostGameClosed],
    played: bool,
) -> SideSheet:
    closed = next((e.seq for e in closes if e.team == team), None)
    seqs = [seq, *([closed] if closed else [])]
    sheet = SideSheet(team_id=team, name=names.team(team), touchdowns=touchdowns, closed_seq=closed)
    if not played:
        return sheet
    gold = [
        Money(seq=line.seq, kind=line.kind, amount=line.amount, note=line.note)
        for line in sorted(
            treasury_lines(queries, team, seqs), key=lambda line: (line.seq, line.line)
        )
    ]
    before, after = fans(queries, team, seq, max(seqs))
    return sheet.model_copy(update={"gold": gold, "fans_before": before, "fans_after": after})


def treasury_lines(queries: Queries, team: str, seqs: list[int]) -> list[TreasuryLine]:
    t = table_of(TreasuryLine)
    return queries.rows(TreasuryLine, t.c.team_id == team, t.c.seq.in_(seqs))


def fans(queries: Queries, team: str, seq: int, last: int) -> tuple[int | None, int | None]:
    """The team's fans as it took the field and after the match (and its close), from the
    history lines the fold wrote for them."""
    t = table_of(TeamHistoryLine)
    lines = queries.rows(TeamHistoryLine, t.c.team_id == team, t.c.seq >= seq, t.c.seq <= last)
    at_match = next((line for line in lines if line.seq == seq), None)
    after = max(lines, key=lambda line: line.seq).fans if lines else None
    return (at_match.fans_before if at_match else None), after


def players(
    queries: Queries, names: Names, report: ev.MatchRecorded, row: MatchRow | None, played: bool
) -> list[PlayerSheet]:
    """The roster players' game lines, then the report's hirelings (``hireling_sheets``)."""
    lines = {line.player_id: line for line in queries.match_games(report)} if played else {}
    hirelings = hireling_sheets(queries, row if played else None, report)
    found: list[PlayerSheet] = []
    for sheet in report.sheets():
        hired = {h.id for h in sheet.hirelings}
        for performance in sheet.players:
            if performance.player in hired:
                continue
            line = lines.get(performance.player)
            spp = line.spp if line else (0 if played else None)
            found.append(player(names, sheet.team, performance, line, spp))
        found += [h for h in hirelings if h.player_id in hired]
    return found


def hireling_sheets(
    queries: Queries, row: MatchRow | None, report: ev.MatchRecorded
) -> list[PlayerSheet]:
    """Every one-game player of the report (journeymen, mercenaries, stars) as a game line.

    The fold writes game lines (``PlayerGameLine``) for roster players only; a hireling's
    SPP it keeps on the match's row (``MatchRow.hirelings``), which is where they are read
    here, with his achievements from the report. ``row`` None (a voided report): no SPP.
    """
    kept = row.hirelings if row is not None and row.status == "played" else None
    return [
        hireling_sheet(queries, report, sheet, h, kept)
        for sheet in report.sheets()
        for h in sheet.hirelings
    ]


def hireling_sheet(
    queries: Queries,
    report: ev.MatchRecorded,
    sheet: TeamSheet,
    h: Hireling,
    kept: dict[str, dict[str, Any]] | None,
) -> PlayerSheet:
    performance = next((p for p in sheet.players if p.player == h.id), Performance(player=h.id))
    earned = kept.get(h.id) if kept is not None else None
    casualties = sum(
        1
        for c in report.casualties
        if c.inflicted_by == h.id and queries.ruleset.casualty_earns_spp(c)
    )
    spp = int(earned.get("spp", 0)) if earned is not None else (0 if kept is not None else None)
    return PlayerSheet(
        **player_fields(h.name, sheet.team, performance),
        casualties=casualties,
        spp=spp,
        hireling=h.kind,
        position=hireling_position(queries, sheet.team, h.kind, h.position, h.star),
    )


def hireling_position(
    queries: Queries, team_id: str, kind: str, position: str | None, star: str | None
) -> str:
    """The name the books print for a hireling's position on his team's list, or his star
    player's name ('' when the edition has no star list to name him from, as gold4)."""
    if kind == "star":
        found = queries.ruleset.catalogue.stars().get(star or "")
        return found.name if found is not None else ""
    team = queries.store.get(TeamRow, queries.league_id, team_id)
    team_list = (
        queries.ruleset.catalogue.team_lists().get(team.roster) if team is not None else None
    )
    line = team_list.position(position or "") if team_list is not None else None
    return line.name if line is not None else (position or "").replace("_", " ")


def player(
    names: Names,
    team: str,
    p: Performance,
    line: PlayerGameLine | None,
    spp: int | None,
) -> PlayerSheet:
    return PlayerSheet(
        **player_fields(names.player(p.player), team, p),
        casualties=line.casualties if line else 0,
        spp=spp,
        injury=line.injury if line else "",
    )


def player_fields(name: str, team: str, p: Performance) -> dict[str, Any]:
    """What the report itself says of a player's game."""
    return {
        "player_id": p.player,
        "name": name,
        "team": team,
        "touchdowns": p.touchdowns,
        "completions": p.completions,
        "interceptions": p.interceptions,
        "deflections": p.deflections,
        "superb_throws": p.superb_throws,
        "throws": p.throws,
        "landings": p.landings,
        "mvps": p.mvps,
        "sent_off": p.sent_off,
    }


def casualty(names: Names, c: Casualty) -> CasualtySheet:
    return CasualtySheet(
        victim=c.victim,
        victim_name=names.player(c.victim),
        by=c.inflicted_by,
        by_name=names.player(c.inflicted_by) if c.inflicted_by else None,
        cause=c.cause,
        outcome=c.outcome,
        effects=tuple(c.effects),
        recovered=c.recovered,
        dice=[die(r, "casualty", names) for r in c.dice],
    )


def report_dice(report: ev.MatchRecorded, names: Names) -> list[Die]:
    rolls = [*report.dice, *(r for s in report.sheets() for r in s.dice)]
    return [die(r, "report", names) for r in rolls] + [
        die(r, "casualty", names) for c in report.casualties for r in c.dice
    ]


def die(roll: DiceRoll, step: str, names: Names) -> Die:
    return Die(
        purpose=roll.purpose,
        dice=roll.dice,
        values=tuple(roll.values),
        subject=roll.subject,
        subject_name=names.of(roll.subject) if roll.subject else None,
        source=roll.source,
        step=step,
    )


__all__ = ["MatchSheet", "match_sheet"]
