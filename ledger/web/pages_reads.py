"""What the pages show: read from the read models as they stand (``ledger.view()`` and SQL),
and, for a match's report and the audit trail, from the stored log itself.

Nothing here catches up or refolds: the writer's process keeps the read models current
after each command (docs/service.md), so a page costs a few queries. Every number comes
from the read models or the league's ruleset, never from arithmetic done here.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import cast

import orjson

from ledger.application import submissions
from ledger.application.access import Principal
from ledger.application.audit import ChainReport, verify_chain
from ledger.application.checkpoints import latest_checkpoint
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.log import league_id
from ledger.domain.state import (
    EventFacts,
    EventLine,
    EventRef,
    FaultLine,
    LeagueRow,
    MatchRow,
    PlayerGameLine,
    PlayerRow,
    SubmissionRow,
    TeamRow,
    TreasuryLine,
)
from ledger.domain.values import TeamSheet
from ledger.errors import UnknownMatch
from ledger.projections.gather import match_rows
from ledger.projections.queries import Queries
from ledger.projections.sql import table_of
from ledger.projections.store import Store
from ledger.reports.build import build_report
from ledger.reports.match_model import OTHER_ACHIEVEMENTS
from ledger.reports.match_sheet import corrections_of, read_report
from ledger.reports.render import Format, render
from ledger.reports.results import PRIZE_KINDS
from ledger.rules import find_ruleset
from ledger.rules.asked import Report, Sideline
from ledger.rules.problems import held, item_room, while_drafting
from ledger.rules.protocol import DiceNeed, Ruleset, SidelineItem
from ledger.words import possessive, words

RESULTS_SHOWN = 8
AUDIT_PAGE = 50


@dataclass(frozen=True)
class League:
    """One league as the pages read it: its row, its ruleset and its questions."""

    row: LeagueRow
    ruleset: Ruleset
    queries: Queries
    view: Store

    @property
    def slug(self) -> str:
        return self.row.slug

    @property
    def rating_label(self) -> str:
        return self.ruleset.value_labels.get(self.ruleset.rating_key, "rating")

    def team_names(self) -> dict[str, str]:
        return {t.team_id: t.name for t in self.queries.teams()}

    def player_names(self, ids: set[str]) -> dict[str, str]:
        found = (self.view.get(PlayerRow, self.row.league_id, pid) for pid in sorted(ids))
        return {p.player_id: p.name for p in found if p is not None}

    def list_name(self, roster: str) -> str:
        return list_name(self.ruleset, roster)

    def waiting_for(self, report: SubmissionRow, mine: Collection[str]) -> str:
        """What a fixture's waiting report waits for, as a coach of ``mine`` reads it: the
        fixture's pages link the report with it instead of a form that would be refused."""
        if report.status == "disputed":
            return "Report disputed, waiting for the commissioner's decision"
        answering = self.answering(report, mine)
        if answering:
            return f"Report sent, waiting for {possessive(answering)} answer"
        sender = self.team_names().get(report.team, report.team)
        return f"Report sent by {sender}, waiting for your answer"

    def waits_for(self, report: SubmissionRow, mine: Collection[str]) -> str:
        """The same, said of a report in the league's list of those waiting."""
        if report.status == "disputed":
            return "disputed: waits for the commissioner"
        answering = self.answering(report, mine)
        return f"waits for {possessive(answering)} coach" if answering else "waits for your answer"

    def answering(self, report: SubmissionRow, mine: Collection[str]) -> str:
        """Who answers a report waiting for its opposing coach: "" when a coach of ``mine``
        does (and did not send it), else the opposing team by name."""
        opposing = submissions.opponents_of(report)
        if report.team not in mine and any(team in mine for team in opposing):
            return ""
        names = self.team_names()
        return " or ".join(names.get(team, team) for team in opposing)

    def position_name(self, player: PlayerRow) -> str:
        """A player's position as the edition's books name it; a star's is his star's name.
        An id the edition does not know (a ledger read under another) is shown as it is."""
        if player.kind == "star":
            star = self.ruleset.catalogue.stars().get(player.position)
            return star.name if star is not None else player.position.replace("_", " ")
        found = self.ruleset.catalogue.team_lists().get(player.roster)
        position = found.position(player.position) if found is not None else None
        return position.name if position is not None else player.position.replace("_", " ")


def crumbs(league: League) -> list[tuple[str, str]]:
    """The way back from a page of ``league``: the leagues, then the league."""
    return [("Leagues", "/"), (league.row.name, f"/leagues/{league.slug}")]


def list_name(ruleset: Ruleset, roster: str) -> str:
    """A team list as the edition's books name it (``human`` -> Human); an id the edition
    does not know (a what-if's list under another edition) is shown as it is."""
    found = ruleset.catalogue.team_lists().get(roster)
    return found.name if found is not None else roster.replace("_", " ")


def open_league(ledger: LeagueLedger, slug: str, row: LeagueRow | None = None) -> League:
    """The league ``slug`` with the questions to ask of it: at ``row`` where the caller
    holds it (a guarded read's, whose ``ETag`` names its version), else as it is now."""
    view = ledger.view()
    row = row or ledger.league_row(slug, view)
    ruleset = find_ruleset(row.ruleset, row.options)
    return League(row, ruleset, Queries(ledger.read_models.engine, row, ruleset, view), view)


# --- the league's home --------------------------------------------------------------------


def this_round(league: League) -> list[MatchRow]:
    """The fixtures still to play in the earliest round of the current season with any."""
    season = league.row.current_season
    if not season:
        return []
    waiting = league.queries.fixtures(season)
    rounds = [m.round for m in waiting if m.round is not None]
    first = min(rounds) if rounds else None
    return [m for m in waiting if m.round == first]


def waiting_reports(league: League) -> dict[str, SubmissionRow]:
    """The reports waiting for an answer or a decision, by their match: a fixture with one
    is not reported again until it is answered (``submissions.check_nothing_waiting``)."""
    rows = submissions.listed(league.view, league.row.league_id, submissions.PENDING)
    return {row.match_id: row for row in rows}


def round_name(fixtures: Sequence[MatchRow]) -> str:
    """What the league page calls a round: a play-off round by its stages ("final and
    third-place": the third-place game is played beside the final), a regular one by its
    number; "" when there is none."""
    stages = [s for s in dict.fromkeys(m.stage for m in fixtures) if s != "regular"]
    if stages:
        return " and ".join(words(s) for s in stages)
    return str(fixtures[0].round) if fixtures and fixtures[0].round else ""


def latest_results(league: League, team: str | None = None) -> list[MatchRow]:
    return league.queries.latest_played(RESULTS_SHOWN, team)


def prizes_of_last_close(league: League) -> list[TreasuryLine]:
    """The prize money the league's latest season close paid (the close form lands on
    the league's home saying it): its treasury lines of kind ``prize``, as the season
    report reads them (``reports.results.PRIZE_KINDS``); none where the edition pays none."""
    closes = [
        e.seq for e in league.queries.lines(EventLine, event_type="SeasonClosed") if not e.voided
    ]
    if not closes:
        return []
    paid = league.queries.lines(TreasuryLine, seq=max(closes))
    return sorted((line for line in paid if line.kind in PRIZE_KINDS), key=lambda p: -p.amount)


# --- a team -------------------------------------------------------------------------------


@dataclass(frozen=True)
class HireChoice:
    """One line of the hire form's pick-list: the list price and how many more may join."""

    id: str
    name: str
    cost: int
    left: int


def hire_choices(league: League, team: TeamRow) -> list[HireChoice]:
    """Each position of the team's list; how many more may join is the smaller of what is
    left of the position's limit and the places left on the roster (a team of 9 under a
    16-player list has 7 places, whatever its Lineman limit of 0-16 leaves)."""
    roster = league.queries.roster(team.team_id).players
    team_list = league.ruleset.catalogue.team_list(team.roster)
    places = max(team_list.max_players - len(roster), 0)
    choices = []
    for position in team_list.positions:
        same = [p for p in roster if p.position == position.id and p.roster == team.roster]
        left = min(max(position.max - len(same), 0), places)
        choices.append(HireChoice(position.id, position.name, position.cost, left))
    return choices


def star_choices(league: League, only: Sequence[str] | None = None) -> list[tuple[str, str, int]]:
    """The edition's star players (id, name, price) by name, for a report's star hireling,
    or ``only`` those of them; none where the edition keeps no star list (gold4 freeboots a
    star by his cost). An id ``only`` names that the edition does not know is left out."""
    stars = league.ruleset.catalogue.stars()
    chosen = stars.values() if only is None else [stars[s] for s in only if s in stars]
    return [(s.id, s.name, s.cost) for s in sorted(chosen, key=lambda s: s.name)]


@dataclass(frozen=True)
class BuyChoice:
    item: SidelineItem
    price: int
    held: int
    drafting_only: bool = False
    """Sold only while the team drafts, and it no longer does (BB2020 Dedicated Fans, LRB6
    and gold4 Fan Factor): shown, not offered; the command refuses it anyway."""
    full: bool = False
    """The team holds the most the books allow (one Apothecary): shown, not offered."""


def buy_choices(league: League, team: TeamRow) -> list[BuyChoice]:
    """What the team may buy, at the price the ruleset asks of it now, and what it holds."""
    items = league.ruleset.sideline_items(team).values()
    return [buy_choice(league, team, item) for item in items]


def buy_choice(league: League, team: TeamRow, item: SidelineItem) -> BuyChoice:
    have = held(team, item.id, item.counts_as)
    return BuyChoice(
        item,
        league.ruleset.price(Sideline(team, item.id, 1)),
        have,
        drafting_only=bool(while_drafting(team, item)),
        full=bool(item_room(team, item, have, 1)),
    )


# --- a match ------------------------------------------------------------------------------


def other_achievements(report: ev.MatchRecorded) -> list[tuple[str, str]]:
    """Those of ``OTHER_ACHIEVEMENTS`` that someone had in ``report`` (field, name)."""
    done = [p for sheet in report.sheets() for p in sheet.players]
    return [(f, name) for f, name in OTHER_ACHIEVEMENTS if any(getattr(p, f) for p in done)]


def opponents(league: League, games: list[PlayerGameLine]) -> dict[str, str]:
    """Each game's opposing team by name (every other team of a multi-team match), for a
    player's career: the match id alone says nothing to a reader."""
    names = league.team_names()
    sides = league.queries.sides(sorted({game.match_id for game in games}))
    found: dict[str, str] = {}
    for game in games:
        if game.match_id in sides:
            others = [t for t in sides[game.match_id] if t != game.team_id]
            found[game.match_id] = ", ".join(names.get(t, t) for t in others)
    return found


def match_row(league: League, match: str) -> MatchRow:
    row = league.view.get(MatchRow, league.row.league_id, match)
    if row is None:
        raise UnknownMatch(f"no match '{match}' in league {league.slug}")
    return row


def recorded_match(ledger: LeagueLedger, league: League, seq: int) -> ev.MatchRecorded | None:
    """The match report recorded as event ``seq``, as recorded (a correction of it is
    listed beside it), or None when it is a fault the read models pass over."""
    if any(f.seq == seq for f in ledger.faults(league.slug)):
        return None
    found = ledger.recorder.select_events(league_id(league.slug), gt=seq - 1, lte=seq, limit=1)
    if not found:
        return None
    event = ledger.mapper.to_domain_event(found[0])
    return event if isinstance(event, ev.MatchRecorded) else None


def report_as_held(
    ledger: LeagueLedger, league: League, row: MatchRow, history: list[EventRef]
) -> tuple[ev.MatchRecorded | None, int | None]:
    """The recorded report as the fold reads it, its latest amendment applied (as ``ledger
    match show`` shows it: the game lines beside it are the amended game's), and the event
    that amended it; None for a report the read models pass over as a fault."""
    seq = row.recorded_seq
    if seq is None or recorded_match(ledger, league, seq) is None:
        return None, None
    corrections = corrections_of(history, {seq})
    amendments = [c.seq for c in corrections if c.target == seq]
    report = read_report(ledger, league.queries, seq, corrections)
    amended = amendments and report is not None and row.status == "played"  # not a void
    return report, amendments[-1] if amended else None


@dataclass(frozen=True)
class Game:
    """The game a report is entered for: a scheduled fixture, or one the coaches played
    without one (a friendly, or a league game the commissioner did not schedule)."""

    match: str
    home: str
    away: str
    kind: str = "league"
    season: int | None = None
    round: int | None = None
    fixture: bool = True
    stage: str = "regular"
    """A play-off's stage (``final``): its rounds count from 1 again, so it names it."""
    others: tuple[str, ...] = ()
    """The third and later teams of a game of more than two (a Dungeon Bowl final)."""

    def sides(self) -> list[tuple[str, str]]:
        """Each team's side of the form, by its key: ``home``, ``away``, then ``other1``,
        ``other2``... (the report's ``others``, in order)."""
        others = [(f"other{n}", team) for n, team in enumerate(self.others, start=1)]
        return [("home", self.home), ("away", self.away), *others]


def match_title(row: MatchRow, names: Mapping[str, str]) -> str:
    """A match as its pages name it: its teams, each by name (``Reavers v Rats``; a
    Dungeon Bowl final's three or four)."""
    return " v ".join(names.get(t, t) for t in (row.home, row.away, *row.others))


def game_of(fixture: MatchRow) -> Game:
    return Game(
        fixture.match_id,
        fixture.home,
        fixture.away,
        fixture.kind,
        fixture.season,
        fixture.round,
        stage=fixture.stage,
        others=fixture.others,
    )


SCORES = {"win": (1, 0), "draw": (0, 0), "loss": (0, 1)}
"""The results a report form's dice are asked for, as the home side's, by score."""


def asked_dice(
    league: League, game: Game
) -> dict[tuple[str, str | None], tuple[DiceNeed, set[str]]]:
    """Each roll the ruleset asks of this game when played, with the results it is asked
    after, as its subject's team saw them (``win``, ``draw``, ``loss``)."""
    asked: dict[tuple[str, str | None], tuple[DiceNeed, set[str]]] = {}
    for home_result, (home_score, away_score) in SCORES.items():
        # Asked about, never recorded: built unchecked, so that a match id the books
        # cannot hold is named beside its field by the command, with the form kept.
        played = ev.MatchRecorded.model_construct(
            match=game.match,
            season=game.season,
            round=game.round,
            kind=cast(ev.MatchKind, game.kind),  # a fixture's, or one the form checked
            home=TeamSheet(team=game.home, touchdowns=home_score),
            away=TeamSheet(team=game.away, touchdowns=away_score),
            others=tuple(TeamSheet(team=team, touchdowns=0) for team in game.others),
        )
        rows = match_rows(league.view, league.row.league_id, played, league.ruleset)
        for need in league.ruleset.dice_needed(Report(played, rows)):
            result = AWAY_RESULT[home_result] if need.subject == game.away else home_result
            asked.setdefault((need.purpose, need.subject), (need, set()))[1].add(result)
    return asked


AWAY_RESULT = {"win": "loss", "draw": "draw", "loss": "win"}


def report_dice(league: League, game: Game) -> list[DiceNeed]:
    """The rolls the ruleset asks of this game when played, whatever its result: the
    report form offers a field for each."""
    return [need for need, _ in asked_dice(league, game).values()]


def dice_when(league: League, game: Game) -> dict[str, str]:
    """When a roll of the form is asked, by its field (``dice-SUBJECT-PURPOSE``), where
    not after every result: ``after a win or a loss`` (BB2025's Dedicated Fans roll, not
    made after a draw)."""
    when = {}
    for (purpose, subject), (_, results) in asked_dice(league, game).items():
        if len(results) < len(SCORES):
            said = " or ".join(f"a {r}" for r in SCORES if r in results)
            when[f"dice-{subject or 'match'}-{purpose}"] = f"after {said}"
    return when


# --- the audit trail ----------------------------------------------------------------------


@dataclass(frozen=True)
class AuditLine:
    """One stored event: what it did, who caused it (account and role), when and why."""

    seq: int
    event_type: str
    recorded_by: str
    account: str | None
    role: str | None
    via: str | None
    recorded_at: str
    reason: str | None
    summary: str = ""
    voided: bool = False


@dataclass(frozen=True)
class Audit:
    chain: ChainReport
    faults: list[FaultLine]
    lines: list[AuditLine]
    corrections: list[EventLine]
    older: int | None = None
    """Where the next (older) page starts, when there is one."""


def audit_lines(ledger: LeagueLedger, league: League, before: int | None) -> list[AuditLine]:
    """A page of the log, newest first, read from the stored rows themselves (so the
    envelope shows even for an event the read models could not apply)."""
    stored = ledger.recorder.select_events(
        league_id(league.slug), lte=before, desc=True, limit=AUDIT_PAGE
    )
    lines = [audit_line(s.originator_version, s.topic, s.state) for s in stored]
    refs = summaries(league, [line.seq for line in lines])
    return [
        replace(line, summary=refs[line.seq].summary, voided=refs[line.seq].voided)
        if line.seq in refs
        else line
        for line in lines
    ]


def audit_line(seq: int, topic: str, raw: bytes) -> AuditLine:
    try:
        state = orjson.loads(raw)
    except orjson.JSONDecodeError:
        state = {}
    if not isinstance(state, dict):
        state = {}
    return AuditLine(
        seq=seq,
        event_type=topic.rpartition(":")[2],
        recorded_by=str(state.get("recorded_by", "?")),
        account=state.get("account"),
        role=state.get("acting_as"),
        via=state.get("via"),
        recorded_at=str(state.get("timestamp", "")),
        reason=state.get("reason"),
    )


def just_done(line: EventFacts | None, me: Principal | None) -> EventFacts | None:
    """The event a form just recorded, to say on the page it lands on: ``line``, the
    newest of the page's events, when it is the caller's own (a form lands with a flag,
    never with words a link could forge; someone else's event since is not said)."""
    mine = line is not None and me is not None and line.account == me.account
    return line if mine else None


def newest_line(league: League) -> EventLine | None:
    """The league's newest event's line of history."""
    return summaries(league, [league.row.version]).get(league.row.version)


def summaries(league: League, seqs: list[int]) -> dict[int, EventLine]:
    if not seqs:
        return {}
    table = table_of(EventLine)
    lines: list[EventLine] = league.queries.rows(EventLine, table.c.seq.in_(seqs))
    return {line.seq: line for line in lines}


def corrections(league: League) -> list[EventLine]:
    table = table_of(EventLine)
    lines: list[EventLine] = league.queries.rows(EventLine, table.c.event_type == "EventCorrected")
    return sorted(lines, key=lambda line: line.seq, reverse=True)


def audit(ledger: LeagueLedger, league: League, before: int | None) -> Audit:
    lines = audit_lines(ledger, league, before)
    oldest = lines[-1].seq if lines else 1
    return Audit(
        chain=verify_chain(ledger.recorder, league_id(league.slug), league.slug),
        faults=ledger.faults(league.slug),
        lines=lines,
        corrections=corrections(league),
        older=oldest - 1 if oldest > 1 and len(lines) == AUDIT_PAGE else None,
    )


# --- the season report --------------------------------------------------------------------

MEDIA = {
    "html": "text/html; charset=utf-8",
    "md": "text/markdown; charset=utf-8",
    "json": "application/json",
    "csv": "application/zip",
}


@dataclass(frozen=True)
class Download:
    content: bytes
    media_type: str
    filename: str


def season_report(
    ledger: LeagueLedger, league: League, fmt: Format, season: int | None = None
) -> Download:
    """The report of ``season`` (the latest if None) in ``fmt``, as ``ledger report``
    writes it, made from the read models as they stand (CSV: its tables in one zip)."""
    lid = league_id(league.slug)
    chain = verify_chain(ledger.recorder, lid, league.slug)
    checkpoint = latest_checkpoint(ledger.read_models.engine, lid)
    report = build_report(league.queries, season, chain, None, checkpoint)
    content = render(report, fmt)
    name = f"{league.slug}-season-{report.season.number}"
    if isinstance(content, dict):
        return Download(zipped(content), MEDIA["csv"], f"{name}-csv.zip")
    return Download(content.encode("utf-8"), MEDIA[fmt], f"{name}.{fmt}")


def zipped(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text.encode("utf-8-sig"))  # as 'ledger report' writes CSV
    return buffer.getvalue()
