"""The season report as data: what a league publishes at the end of a season.

The model is built from the read models only (``ledger.reports.build``) and every format
renders it: HTML and Markdown through templates, CSV as one file per table, JSON as the
model's own dump, whose JSON Schema ``ledger schema report`` prints. Amounts are in gold
pieces; ``event`` fields are event numbers in the league's log (``ledger history``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION: Literal[1] = 1

MoveKind = Literal["hired", "fired", "retired", "dead", "left"]


class Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- the league and the season -------------------------------------------------------


class LeagueInfo(Part):
    slug: str
    name: str
    ruleset: str = Field(description="The ruleset id, e.g. bb2025.")
    ruleset_name: str
    options: dict[str, Any] = Field(description="The ruleset options the league was created with.")
    value_labels: dict[str, str] = Field(description="Team figures by key, e.g. tv -> TV.")
    rating_key: str = Field(description="The headline team figure (tv for BB2025, tr before).")
    rating_label: str
    rating_in_gold: bool = Field(
        default=True, description="The headline figure is gold (TV), not points (TR)."
    )
    characteristic_targets: bool = Field(
        description="AG, PA and AV are targets (3+) rather than plain numbers."
    )
    spends_spp: bool = Field(
        default=True,
        description="Advancements spend SPP (BB2025, BB2020): a player's spp is what he has"
        " left to spend; else SPP levels give rolls and spp is all he earned.",
    )


class PointsRules(Part):
    win: int
    draw: int
    loss: int
    bonus: list[str]
    bonus_mode: str = Field(description="added (to the points), tiebreak, or none.")
    tiebreakers: list[str] = Field(description="In the order they are applied.")


class SeasonInfo(Part):
    number: int = Field(
        description="The season reported; before the league's first season (started false),"
        " 1, the season to come."
    )
    name: str = Field(description="The season's name; Pre-season before the first season.")
    status: Literal["open", "closed"]
    started: bool = Field(
        default=True,
        description="The season has begun: started (ledger season start), or a league game"
        " recorded in it. False before the league's first season: the report then has the"
        " teams as they stand and any friendlies, and no standings.",
    )
    seasons: list[int] = Field(
        description="Every season of the league, for navigation; empty before the first."
    )
    divisions: list[str]
    playoff_teams: int
    rounds: list[int]
    matches_played: int = Field(description="Games played in the season, friendlies included.")
    league_games_played: int = Field(
        default=0,
        description="League and play-off games played: those the standings count (0: nothing"
        " to rank or chart yet).",
    )
    matches_scheduled: int = Field(description="Fixtures of the season not yet played.")
    notice: str = Field(
        default="",
        description="What the report says first while the season has no league game yet"
        " ('Season 1: no games played yet.'); empty once it has one.",
    )
    champion_id: str | None = Field(description="The trophy holder or the final's winner.")
    champion: str | None
    first_event: int = Field(description="The season's first event in the log.")
    last_event: int = Field(description="The season's last event so far.")
    as_of: str = Field(description="When the last event of the report was recorded.")
    roster_note: str = Field(description="What the rosters show for a past season.")


# --- tables and results ------------------------------------------------------------


class StandingLine(Part):
    rank: int
    team_id: str
    team: str
    coach: str
    played: int
    won: int
    drawn: int
    lost: int
    td_for: int
    td_against: int
    td_difference: int
    cas_for: int
    cas_against: int
    bonus: int
    points: int
    separated_by: str | None = Field(
        description="The tie-breaker that put this team above the next on equal points."
    )
    qualified: bool = Field(description="Plays in the season's play-offs.")


class DivisionTable(Part):
    division: str = Field(description="Empty for a league without divisions.")
    rows: list[StandingLine]


class MatchResult(Part):
    match_id: str
    round: int | None
    division: str
    stage: str = Field(description="regular, or a play-off stage such as semi-final.")
    kind: str = Field(description="league, playoff, friendly, exhibition or unplayed.")
    status: str = Field(description="played, scheduled or voided.")
    home_id: str
    home: str
    away_id: str
    away: str
    home_score: int
    away_score: int
    home_casualties: int
    away_casualties: int
    winner_id: str | None
    conceded_by: str | None
    event: int | None = Field(description="The event that recorded the result.")


class RoundResults(Part):
    round: int | None
    label: str
    matches: list[MatchResult]


class PlayoffStage(Part):
    stage: str
    label: str
    matches: list[MatchResult]


class Prize(Part):
    event: int
    team_id: str
    team: str
    amount: int
    note: str


class PositionSeries(Part):
    team_id: str
    team: str
    positions: list[int | None] = Field(
        description="League position after each round; null before the team's first game."
    )


class PositionChart(Part):
    division: str
    rounds: list[str]
    series: list[PositionSeries]


# --- team pages ----------------------------------------------------------------------


class SeasonStats(Part):
    games: int = 0
    touchdowns: int = 0
    completions: int = 0
    interceptions: int = 0
    casualties: int = 0
    mvps: int = 0
    spp: int = 0


class PlayerLine(Part):
    player_id: str
    number: int | None
    name: str
    position: str
    kind: str
    ma: int
    st: int
    ag: int
    pa: int | None
    av: int
    skills: list[str]
    gained: list[str] = Field(description="Skills gained by advancement.")
    niggling: int
    miss_next_game: bool
    spp: int = Field(description="SPP available to spend.")
    spp_earned: int = Field(description="SPP earned over the player's career.")
    value: int
    status: str
    season: SeasonStats
    career_games: int
    career_touchdowns: int
    career_casualties: int
    kills: int
    mvps: int


class HistoryPoint(Part):
    event: int
    round: int | None
    match_id: str | None
    match: str | None = Field(default=None, description="The game by name, as in the records.")
    rating: int
    values: dict[str, int]
    treasury: int
    fans: int


class TreasuryEntry(Part):
    event: int
    kind: str
    note: str
    amount: int
    balance: int


class KindTotal(Part):
    kind: str
    amount: int


class TreasuryStatement(Part):
    opening: int
    income: int
    spending: int
    closing: int
    by_kind: list[KindTotal]
    entries: list[TreasuryEntry]


class PlayerMove(Part):
    event: int
    move: MoveKind
    player_id: str
    name: str
    position: str
    detail: str
    recorded_by: str
    reason: str | None


class Obituary(Part):
    player_id: str
    name: str
    position: str
    team_id: str
    team: str
    event: int | None
    match_id: str | None
    match: str | None = Field(default=None, description="The game he died in, by name.")
    round: int | None
    games: int
    touchdowns: int
    casualties: int
    spp_earned: int
    skills: list[str]


class TeamPage(Part):
    team_id: str
    name: str
    coach: str
    roster: str
    status: str
    division: str
    rank: int | None
    figures: dict[str, int] = Field(
        description="The ruleset's team figures (TV, CTV or TR) at the season's close."
    )
    rating: int
    treasury: int = Field(description="The treasury at the season's close.")
    fans: int = Field(description="The fans at the season's close.")
    rerolls: int
    trophy: bool = Field(
        default=False,
        description="Held the League Trophy at the season's close: one more team re-roll,"
        " counted in TV (BB2025).",
    )
    staff: dict[str, int]
    games: int
    players: list[PlayerLine]
    former: list[PlayerLine] = Field(description="Dead, fired and departed players.")
    history: list[HistoryPoint]
    statement: TreasuryStatement
    moves: list[PlayerMove]
    cemetery: list[Obituary]


# --- leaderboards, records, audit, what-if ----------------------------------------------


class LeaderEntry(Part):
    rank: int
    player_id: str
    name: str
    team_id: str
    team: str
    value: int


class Leaderboard(Part):
    stat: str
    label: str
    column: str = Field(description="The short column heading, e.g. TD.")
    entries: list[LeaderEntry]
    more: int = Field(
        default=0, description="Players level with the last one listed who are not listed."
    )


class RecordEntry(Part):
    record: str
    title: str
    value: int
    holder: str
    detail: str
    team_id: str | None
    player_id: str | None
    match_id: str | None
    match: str | None = Field(
        default=None, description="The game by name: teams, score and round (or stage)."
    )


class Correction(Part):
    event: int
    recorded_by: str
    recorded_at: str
    reason: str | None
    summary: str
    target: int | None
    target_summary: str


class PublishedCheckpoint(Part):
    """The league's latest signed checkpoint (docs/audit.md), printed for the league to keep."""

    events: int = Field(description="Events the checkpoint signs: the log's first N.")
    head_hash: str = Field(description="Hash of event N when the checkpoint was made.")
    made_at: str
    key_id: str = Field(description="First 16 hex digits of SHA-256 of the raw public key.")
    public_key: str = Field(description="The signing key's public half, ed25519:BASE64.")
    signature: str = Field(description="The ed25519 signature, base64.")
    document: str = Field(description="The signed checkpoint as JSON, to save to a file.")
    verify_command: str


class AuditAppendix(Part):
    events: int = Field(description="Events in the league's log when the report was made.")
    last_hash: str = Field(description="Hash of the last event: compare with ledger audit verify.")
    chain_ok: bool
    breaks: int
    verify_command: str
    corrections: list[Correction]
    checkpoint: PublishedCheckpoint | None = Field(
        default=None, description="The latest signed checkpoint; none when none was made."
    )


class WhatIfRow(Part):
    team_id: str
    team: str
    division: str
    actual_rank: int
    actual_points: int
    whatif_rank: int | None
    whatif_points: int | None
    movement: int | None = Field(description="Places gained (+) or lost (-) under the other rules.")


class WhatIfSection(Part):
    id: str
    ruleset: str
    ruleset_name: str
    rows: list[WhatIfRow]
    divergences: list[str]
    recorded_rolls: int | None
    simulated_rolls: int | None
    notes: list[str]


class SeasonReport(Part):
    """A season of a league, as published."""

    schema_version: Literal[1] = SCHEMA_VERSION
    league: LeagueInfo
    season: SeasonInfo
    points: PointsRules
    standings: list[DivisionTable]
    positions: list[PositionChart]
    playoffs: list[PlayoffStage] = Field(description="Empty when the season has no play-offs.")
    prizes: list[Prize] = Field(description="Prize money paid during the season, if any.")
    rounds: list[RoundResults]
    teams: list[TeamPage]
    leaders: list[Leaderboard]
    records: list[RecordEntry]
    audit: AuditAppendix
    whatif: WhatIfSection | None = None


def report_schema() -> dict[str, Any]:
    """The JSON Schema of a report's JSON (``ledger schema report``)."""
    schema = SeasonReport.model_json_schema(mode="serialization")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:bb-league-ledger:season-report:v{SCHEMA_VERSION}",
        **schema,
    }
