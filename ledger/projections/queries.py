"""Read-only questions answered from the read-model tables (never by refolding the log).

Every answer is a plain pydantic model, so the CLI can print it as a table or as JSON and
the season report can reuse it. The questions read the tables through a ``RowStore``
(ledger/projections/rowstore.py) with the SQL their record classes' shapes build: the
same answers whether its rows come through SQLAlchemy's engine or through a plain
``sqlite3`` connection (ledger/projections/lean.py, a read command's quick start).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from ledger.domain.catalogue import event_classes
from ledger.domain.events import MatchRecorded
from ledger.domain.state import (
    GAME_COUNTS,
    EventLine,
    EventRef,
    LeagueRow,
    LeagueView,
    Line,
    MatchRow,
    PlayerGameLine,
    PlayerRow,
    R,
    RefLine,
    SeasonRow,
    StandingRow,
    TeamGameLine,
    TeamRow,
    TreasuryLine,
    games_of,
)
from ledger.errors import UnknownPlayer, UnknownSeason, UnknownTeam
from ledger.projections.rowstore import Row, RowStore
from ledger.projections.shapes import (
    MARKS,
    equal,
    json_text,
    quoted,
    select_from,
    shape_of,
    within,
)
from ledger.rules.protocol import Ruleset

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


class Answer(BaseModel):
    model_config = ConfigDict(frozen=True)


class Roster(Answer):
    league: str
    ruleset: str
    team: TeamRow
    value_labels: dict[str, str]
    players: list[PlayerRow]
    former: list[PlayerRow]
    """Dead, fired and departed players: the cemetery and the exits."""


class TableRow(Answer):
    rank: int
    team_id: str
    name: str
    division: str
    row: StandingRow
    separated_by: str | None = None
    values: dict[str, int] = {}
    """The team's figures now, by the edition's keys (``tr``; ``tv`` and ``ctv``)."""


class Standings(Answer):
    league: str
    season: int
    bonus_mode: str
    divisions: dict[str, list[TableRow]]
    value_labels: dict[str, str] = {}
    """How the edition names the teams' figures: ``{"tr": "TR"}``, ``{"tv": "TV", ...}``."""


class Leader(Answer):
    rank: int
    player_id: str
    name: str
    team_id: str
    value: int
    status: str


LeaderStat = Literal[
    "touchdowns", "casualties", "spp", "mvps", "completions", "interceptions", "kills", "games"
]
STAT_COLUMNS: dict[str, str] = {
    "touchdowns": "touchdowns",
    "casualties": "casualties",
    "spp": "spp_earned",
    "mvps": "mvps",
    "completions": "completions",
    "interceptions": "interceptions",
    "kills": "kills",
    "games": "games",
}


def plays(match: MatchRow, team: str | None) -> bool:
    return team is None or team in (match.home, match.away, *match.others)


SIDES = ("match_id", "home", "away", "others")
"""A match's narrow row: its id and its teams (``others`` is JSON)."""


def newest_played(rows: RowStore, league_id: str, limit: int, team: str | None) -> list[str]:
    """The ids of the last ``limit`` matches recorded (of ``team``, when named), newest
    first: from the newest back, a page of narrow rows at a time."""
    newest = (
        f"{select_from(MatchRow, SIDES)} WHERE {equal(('league_id', 'status'), rows.dialect)}"
        f" ORDER BY {quoted('recorded_seq')} DESC"
    )

    def wanted(row: Row) -> bool:
        return team is None or team in (row[1], row[2], *(rows.json_value(row[3]) or ()))

    return [row[0] for row in rows.scan(newest, (league_id, "played"), wanted, limit)]


def engine_rows(engine: Engine) -> RowStore:
    """The read models' rows through SQLAlchemy's ``engine``. ``ledger.projections.sql``
    loads only here, once an engine is given: a read over a plain sqlite3 connection
    (ledger/projections/lean.py) never imports SQLAlchemy."""
    from ledger.projections.sql import SqlStore

    return SqlStore(engine)


class Queries:
    def __init__(
        self,
        engine: Engine | RowStore | None,
        league: LeagueRow,
        ruleset: Ruleset,
        store: LeagueView | None = None,
    ) -> None:
        """Questions about ``league`` from its SQL read models (``engine``: SQLAlchemy's
        engine, or a store of their rows), or from any other store of its records
        (``store``: a what-if replay's ``MemoryStore``)."""
        self.engine = None if engine is None or isinstance(engine, RowStore) else engine
        self.tables = (
            engine if engine is None or isinstance(engine, RowStore) else engine_rows(engine)
        )
        """Where the SQL questions go (None: the records are in ``store`` alone)."""
        if store is None:
            if self.tables is None:
                raise ValueError("Queries needs the read models' engine or a store")
            store = self.tables
        self.league = league
        self.ruleset = ruleset
        self.store: LeagueView = store

    @classmethod
    def over(cls, store: LeagueView, league: LeagueRow, ruleset: Ruleset) -> Queries:
        """The questions answered from ``store`` alone (leaders and lines need SQL)."""
        return cls(None, league, ruleset, store)

    def sql(self) -> Engine:
        """The read models' SQLAlchemy engine (the season report's whole-table reads)."""
        if self.engine is None:
            raise ValueError("this question is answered from the SQL read models only")
        return self.engine

    def sql_tables(self) -> RowStore:
        if self.tables is None:
            raise ValueError("this question is answered from the SQL read models only")
        return self.tables

    @property
    def league_id(self) -> str:
        return self.league.league_id

    def team(self, team_id: str) -> TeamRow:
        team = self.store.get(TeamRow, self.league_id, team_id)
        if team is None:
            known = ", ".join(t.team_id for t in self.teams())
            raise UnknownTeam(
                f"no team '{team_id}' in league {self.league.slug} (teams: {known})",
                given=team_id,
                known=(t.team_id for t in self.teams()),
            )
        return team

    def teams(self) -> list[TeamRow]:
        return list(self.store.select(TeamRow, league_id=self.league_id))

    def roster(self, team_id: str) -> Roster:
        team = self.team(team_id)
        players = self.store.select(PlayerRow, league_id=self.league_id, team_id=team_id)
        order = sorted(players, key=lambda p: (p.number or 99, p.hired_seq))
        return Roster(
            league=self.league.slug,
            ruleset=self.ruleset.id,
            team=team,
            value_labels=dict(self.ruleset.value_labels),
            players=[p for p in order if p.status in ("active", "retired")],
            former=[p for p in order if p.status not in ("active", "retired")],
        )

    def seasons(self) -> list[int]:
        if self.tables is None:
            found = [r.season for r in self.store.select(StandingRow, league_id=self.league_id)]
        else:
            distinct = select_from(StandingRow, ("season",), distinct=True)
            where = equal(("league_id",), self.tables.dialect)
            found = [
                row[0] for row in self.tables.query(f"{distinct} WHERE {where}", (self.league_id,))
            ]
        return sorted(
            {*found, *([self.league.current_season] if self.league.current_season else [])}
        )

    def standings(self, season: int | None = None) -> Standings:
        seasons = self.seasons()
        chosen = season if season is not None else (max(seasons) if seasons else 1)
        if season is not None and season not in seasons:
            raise UnknownSeason(
                f"league {self.league.slug} has no season {season}"
                f" (seasons: {', '.join(map(str, seasons)) or 'none yet'})"
            )
        rows = self.store.select(StandingRow, league_id=self.league_id, season=chosen)
        scheme = self.ruleset.points_scheme(self.league.points)
        results = self.results(chosen)
        teams = {t.team_id: t for t in self.teams()}
        names = {team_id: t.name for team_id, t in teams.items()}
        divisions: dict[str, list[TableRow]] = {}
        for division in sorted({r.division for r in rows}):
            members = [r for r in rows if r.division == division]
            divisions[division] = [
                TableRow(
                    rank=r.rank,
                    team_id=r.team_id,
                    name=names.get(r.team_id, r.team_id),
                    division=division,
                    row=r.row,
                    separated_by=r.separated_by,
                    values=teams[r.team_id].values if r.team_id in teams else {},
                )
                for r in self.ruleset.rank(members, results, scheme)
            ]
        return Standings(
            league=self.league.slug,
            season=chosen,
            bonus_mode=scheme.bonus_mode if scheme.bonus else "none",
            divisions=divisions,
            value_labels=dict(self.ruleset.value_labels),
        )

    def results(self, season: int) -> list[tuple[str, str, int, int]]:
        if self.tables is None:  # a what-if's state in memory
            return [
                (m.home, m.away, m.home_score, m.away_score)
                for m in self.matches(season)
                if m.status == "played" and m.kind == "league"
            ]
        # The scores only, not whole match rows: a season of a big league has thousands.
        scores = select_from(MatchRow, ("home", "away", "home_score", "away_score"))
        where = equal(("league_id", "season", "status", "kind"), self.tables.dialect)
        found = self.tables.query(
            f"{scores} WHERE {where}", (self.league_id, season, "played", "league")
        )
        return [(home, away, hs, aws) for home, away, hs, aws in found]

    def matches(self, season: int | None = None) -> list[MatchRow]:
        where: dict[str, Any] = {"league_id": self.league_id}
        if season is not None:
            where["season"] = season
        found = self.store.select(MatchRow, **where)
        return sorted(found, key=fixture_order)

    def fixtures(self, season: int) -> list[MatchRow]:
        """The season's matches still to play, in fixture order."""
        found = self.store.select(
            MatchRow, league_id=self.league_id, season=season, status="scheduled"
        )
        return sorted(found, key=fixture_order)

    def latest_played(self, limit: int, team: str | None = None) -> list[MatchRow]:
        """The last ``limit`` matches recorded (of ``team``, when named), newest first."""
        if self.tables is None:  # a what-if's state in memory
            played = [m for m in self.matches() if m.status == "played" and plays(m, team)]
            return sorted(played, key=lambda m: m.recorded_seq or 0, reverse=True)[:limit]
        # The ids first, newest first and in narrow rows (only the teams' columns), then
        # the few full rows shown: decoding whole matches, their JSON columns and models, to
        # keep a page of results was most of a league page's time after each write.
        ids = newest_played(self.tables, self.league_id, limit, team)
        by_id = {m.match_id: m for m in self.full_rows(MatchRow, "match_id", ids)}
        return [by_id[i] for i in ids if i in by_id]

    def sides(self, match_ids: list[str]) -> dict[str, tuple[str, ...]]:
        """The teams of each match named (home, away, then any others), in one query of
        their columns: a player's career names the opponents of every game he played."""
        if self.tables is None:  # a what-if's state in memory
            wanted = set(match_ids)
            return {
                m.match_id: (m.home, m.away, *m.others)
                for m in self.matches()
                if m.match_id in wanted
            }
        rows, dialect = self.tables, self.tables.dialect
        query = (
            f"{select_from(MatchRow, SIDES)} WHERE {equal(('league_id',), dialect)}"
            f" AND {within('match_id', len(match_ids), dialect)}"
        )
        return {
            match: (home, away, *(rows.json_value(others) or ()))
            for match, home, away, others in rows.query(query, (self.league_id, *match_ids))
        }

    def season_row(self, season: int) -> SeasonRow | None:
        return self.store.get(SeasonRow, self.league_id, season)

    def leaders(self, stat: str, limit: int = 10) -> list[Leader]:
        column = STAT_COLUMNS[stat]
        rows = self.sql_tables()
        mark = MARKS[rows.dialect]
        query = (
            f"{select_from(PlayerRow, ('player_id', 'name', 'team_id', 'status', column))}"
            f" WHERE {equal(('league_id',), rows.dialect)} AND {quoted(column)} > 0"
            f" ORDER BY {quoted(column)} DESC, {quoted('player_id')} LIMIT {mark}"
        )
        found = rows.query(query, (self.league_id, limit))
        values = [value for *_, value in found]
        return [
            Leader(
                # players level on the stat share a place, and the next counts them: 1, 1, 3
                rank=values.index(value) + 1,
                player_id=player_id,
                name=name,
                team_id=team_id,
                value=value,
                status=status,
            )
            for player_id, name, team_id, status, value in found
        ]

    def treasury(self, team_id: str) -> list[TreasuryLine]:
        self.team(team_id)
        lines = self.lines(TreasuryLine, team_id=team_id)
        return sorted(lines, key=lambda line: (line.seq, line.line))

    def player(self, ref: str) -> PlayerRow:
        player = self.store.get(PlayerRow, self.league_id, ref)
        if player is None:
            named = [
                p
                for p in self.store.select(PlayerRow, league_id=self.league_id)
                if p.name.casefold() == ref.casefold()
            ]
            if len(named) > 1:  # former players of two teams may share a name
                ids = ", ".join(f"{p.player_id} of {p.team_id}" for p in named)
                raise UnknownPlayer(
                    f"{len(named)} players are called '{ref}' in league {self.league.slug}:"
                    f" name one by id ({ids})"
                )
            if not named:
                everyone = self.store.select(PlayerRow, league_id=self.league_id)
                raise UnknownPlayer(
                    f"no player '{ref}' in league {self.league.slug}",
                    given=ref,
                    known=(name for p in everyone for name in (p.name, p.player_id)),
                )
            player = named[0]
        return player

    def player_games(self, player_id: str) -> list[PlayerGameLine]:
        """The player's game lines, oldest first: read from his team's sides of games since
        his hiring (a player never changes teams: ``TeamGameLine``)."""
        player = self.store.get(PlayerRow, self.league_id, player_id)
        if player is None:
            return []
        rows = self.sql_tables()
        named = f"{json_text(player_id)}:"  # his key in a side's JSON, as the fold writes it
        values = (self.league_id, player.team_id, player.hired_seq, named)
        found = rows.query(player_games_statement(rows.dialect), values)
        sides = (rows.read(TeamGameLine, row) for row in found)
        games = [game for side in sides if (game := side.game_of(player_id)) is not None]
        if len(games) < player.games:  # one he played as a hireling is no line of his team's
            games = self.game_before_signing(player) + games
        return games

    def game_before_signing(self, player: PlayerRow) -> list[PlayerGameLine]:
        """The game a hireling played before he was signed (seed 001 'Hiring, Firing and
        Temporarily Retiring' step 5), from the match's row: his line there is kept under
        the report's hireling id, with the player he became (``appliers.signed_hireling``)
        and what he did (``match_applier.hireling_plays``)."""
        rows = self.sql_tables()
        signed = f'"signed":{json_text(player.player_id)}'
        found = rows.query(signed_statement(rows.dialect), (self.league_id, signed))
        return [
            signed_line(player, match, hired)
            for match in (rows.read(MatchRow, row) for row in found)
            for hired in match.hirelings.values()
            if hired.get("signed") == player.player_id
        ]

    def match_games(self, match: MatchRecorded) -> list[PlayerGameLine]:
        """The game lines of the match ``match`` reports (as the fold read it: amended),
        by team then player: each team's side found by its key, the team and the report's
        number (``TeamGameLine``)."""
        teams = sorted({sheet.team for sheet in match.sheets()})
        sides = self.full_rows(TeamGameLine, "team_id", teams, seq=match.seq)
        return sorted(games_of(sides), key=lambda line: (line.team_id, line.player_id))

    def history(self, ref: str) -> list[EventRef]:
        """Every event that touched a team, player or match, and the corrections of them
        (a player's games come from his game lines)."""
        refs = [ref]
        games: list[PlayerGameLine] = []
        if ref.startswith("player:"):
            games = self.player_games(ref.removeprefix("player:"))
            refs += [f"match:{game.match_id}" for game in games]
        direct = self.referring(refs)
        if games:
            direct = self.his_side(direct, games[0].team_id)
        corrections = self.referring(sorted({f"event:{line.seq}" for line in direct}))
        everything = {line.seq: line for line in (*direct, *corrections)}
        return [everything[seq] for seq in sorted(everything)]

    def his_side(self, lines: list[EventRef], team_id: str) -> list[EventRef]:
        """A player's history without the other teams' own acts of his games (their
        post-game closes, inducements, fees, cards): those found by a match that are a
        team's act (``team_acts``) stay only when the act is his team's."""
        acts = [
            line.seq
            for line in lines
            if line.ref.startswith("match:") and line.event_type in team_acts()
        ]
        if not acts:
            return lines
        rows = self.sql_tables()
        statement = naming_statement(len(acts), rows.dialect)
        his = {row[0] for row in rows.query(statement, (self.league_id, f"team:{team_id}", *acts))}
        return [line for line in lines if line.seq in his or line.seq not in set(acts)]

    def referring(self, refs: Sequence[str]) -> list[EventRef]:
        """The league's events with a reference to one of ``refs``, each with the
        reference it was found by."""
        if not refs:
            return []
        rows = self.sql_tables()
        found = rows.query(referring_statement(len(refs), rows.dialect), (self.league_id, *refs))
        return [
            EventRef.build(**vars(rows.read(EventLine, row[:-1])), ref=row[-1]) for row in found
        ]

    def rows(self, kind: type[Line], *clauses: Any) -> list[Any]:
        """The league's ``kind`` rows that SQLAlchemy's ``clauses`` (on ``table_of(kind)``)
        choose: the match sheet's and the web pages' own questions, asked with an engine.
        SQLAlchemy loads here, not with this module (see ``engine_rows``)."""
        import sqlalchemy as sa

        from ledger.projections.sql import read_connection, table_of

        table = table_of(kind)
        with read_connection(self.sql()) as conn:
            found = (
                conn.execute(sa.select(table).where(table.c.league_id == self.league_id, *clauses))
                .mappings()
                .all()
            )
        return [kind.model_validate(dict(r)) for r in found]

    def full_rows(self, kind: type[R], field: str, values: Sequence[Any], **where: Any) -> list[R]:
        """The league's ``kind`` rows whose ``field`` is one of ``values`` (and whose
        fields ``where`` names hold its values)."""
        rows = self.sql_tables()
        chosen = (
            f"{equal(('league_id', *where), rows.dialect)}"
            f" AND {within(field, len(values), rows.dialect)}"
        )
        found = rows.query(
            f"{select_from(kind)} WHERE {chosen}", (self.league_id, *where.values(), *values)
        )
        return [rows.read(kind, row) for row in found]

    def lines(self, kind: type[R], **where: Any) -> list[R]:
        rows = self.sql_tables()
        fields = ("league_id", *where)
        found = rows.query(
            f"{select_from(kind)} WHERE {equal(fields, rows.dialect)}",
            (self.league_id, *where.values()),
        )
        return [rows.read(kind, row) for row in found]


NAMES = {"sqlite": "instr({}, ?) > 0", "postgresql": "strpos({}::text, %s) > 0"}
"""Whether a JSON column's text holds the text given (PostgreSQL's ``json`` keeps the text
it was given)."""


@cache
def player_games_statement(dialect: str) -> str:
    """A team's sides of games from an event on (by the key, in its order) whose text names
    a player: only the sides he played in are read into records. The players hired in a
    league's first games, at 10^5 events: 0.61 ms a player (medians of 20), against 1.4-2.0
    ms reading every side of his team since, and 0.22 ms when each game was a row of its
    own (docs/performance-journal.md, thirty-second session)."""
    return (
        f"{select_from(TeamGameLine)} WHERE {equal(('league_id', 'team_id'), dialect)}"
        f" AND {quoted('seq')} >= {MARKS[dialect]}"
        f" AND {NAMES[dialect].format(quoted('players'))} ORDER BY {quoted('seq')}"
    )


@cache
def signed_statement(dialect: str) -> str:
    """The match whose hireling became a player (its row's text names him as ``signed``):
    asked of a player's page, not of the fold."""
    return (
        f"{select_from(MatchRow)} WHERE {equal(('league_id',), dialect)}"
        f" AND {NAMES[dialect].format(quoted('hirelings'))}"
    )


def signed_line(player: PlayerRow, match: MatchRow, hired: Mapping[str, Any]) -> PlayerGameLine:
    plays = hired.get("plays", {})
    return PlayerGameLine.build(
        league_id=player.league_id,
        player_id=player.player_id,
        team_id=player.team_id,
        match_id=match.match_id,
        seq=match.recorded_seq or 0,
        season=match.season,
        round=match.round,
        **{count: plays[count] for count in GAME_COUNTS if count in plays},
        spp=int(hired.get("spp", 0)),
    )


@cache
def team_acts() -> frozenset[str]:
    """The events that are one team's act in a match (a close, inducements, appearance
    fees, a card): not a report's steps, which are the game's, whoever takes them."""
    return frozenset(
        kind.__name__
        for kind in event_classes()
        if {"team", "match"} <= set(kind.model_fields) and "submission" not in kind.model_fields
    )


@cache
def naming_statement(count: int, dialect: str) -> str:
    """Which of ``count`` given events name one reference, by ``rm_event_refs``' key."""
    mark = MARKS[dialect]
    return (
        f"SELECT {quoted('seq')} FROM {quoted(RefLine.table)}"
        f" WHERE {quoted('league_id')} = {mark} AND {quoted('ref')} = {mark}"
        f" AND {within('seq', count, dialect)}"
    )


@cache
def referring_statement(count: int, dialect: str) -> str:
    """The events with a reference among ``count`` given ones: each ``rm_events`` row
    (every column, in order) and the reference, found through ``rm_event_refs``' key."""
    columns = ", ".join(f"e.{quoted(name)}" for name in shape_of(EventLine).columns)
    same = " AND ".join(f"e.{quoted(name)} = r.{quoted(name)}" for name in ("league_id", "seq"))
    return (
        f"SELECT {columns}, r.{quoted('ref')} FROM {quoted(RefLine.table)} r"
        f" JOIN {quoted(EventLine.table)} e ON {same}"
        f" WHERE r.{quoted('league_id')} = {MARKS[dialect]} AND r.{within('ref', count, dialect)}"
    )


def fixture_order(match: MatchRow) -> tuple[bool, int, bool, int, int, int, int, str]:
    """Season, round, then the order the fixtures were scheduled in, the same before and
    after they are played; a match played without a fixture after the round's fixtures,
    in the order recorded. Games of no round (friendlies) come after their season's
    rounds, and of no season last, in the order recorded: one recorded later adds to the
    end of its season, not its start, so a list paged through does not shift under it."""
    scheduled = match.scheduled_seq is not None
    return (
        match.season is None,
        match.season or 0,
        match.round is None,
        match.round or 0,
        0 if scheduled else 1,
        (match.scheduled_seq or 0) if scheduled else (match.recorded_seq or 0),
        match.fixture or 0,
        match.match_id,
    )
