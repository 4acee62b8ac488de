"""Build a ``SeasonReport`` from the read models (never by refolding the log).

``build_report`` reads the sources once and asks each section's builder for its part:
results.py (tables, games, play-offs, prizes), positions.py (position by round),
teams.py (team pages), stats.py (leaderboards and records), audit.py (the appendix) and,
when given a comparison, whatif.py.
"""

from __future__ import annotations

from ledger.application.audit import ChainReport
from ledger.application.checkpoints import Published
from ledger.domain.events import SEASON_KINDS
from ledger.projections.queries import Queries
from ledger.reports import results
from ledger.reports.audit import appendix
from ledger.reports.model import LeagueInfo, PointsRules, SeasonInfo, SeasonReport
from ledger.reports.positions import position_charts
from ledger.reports.sources import Sources, is_playoff, read_sources
from ledger.reports.stats import leaderboards, records
from ledger.reports.teams import team_pages
from ledger.reports.whatif import Comparison, whatif_section
from ledger.words import plural


def league_info(queries: Queries) -> LeagueInfo:
    ruleset, league = queries.ruleset, queries.league
    labels = dict(ruleset.value_labels)
    return LeagueInfo(
        slug=league.slug,
        name=league.name,
        ruleset=ruleset.id,
        ruleset_name=ruleset.name,
        options=dict(league.options),
        value_labels=labels,
        rating_key=ruleset.rating_key,
        rating_label=labels.get(ruleset.rating_key, ruleset.rating_key.upper()),
        characteristic_targets=ruleset.characteristic_targets,
        spends_spp=ruleset.spends_spp,
        rating_in_gold=ruleset.rating_in_gold,
    )


def points_rules(queries: Queries) -> PointsRules:
    scheme = queries.ruleset.points_scheme(queries.league.points)
    return PointsRules(
        win=scheme.win,
        draw=scheme.draw,
        loss=scheme.loss,
        bonus=list(scheme.bonus),
        bonus_mode=scheme.bonus_mode if scheme.bonus else "none",
        tiebreakers=list(scheme.tiebreakers),
    )


def season_info(sources: Sources) -> SeasonInfo:
    row = sources.season_row
    champion = results.champion(sources)
    inside = [e for e in sources.events if e.seq in sources.window]
    latest = sources.season == max(sources.seasons)
    later = bool(sources.events) and sources.events[-1].seq >= sources.window.end
    played = [m for m in sources.matches if m.status == "played"]
    league_games = sum(1 for m in played if m.kind in SEASON_KINDS)
    started = row is not None or league_games > 0
    scheduled = sum(1 for m in sources.matches if m.status == "scheduled")
    name = row.name if row and row.name else f"Season {sources.season}"
    return SeasonInfo(
        number=sources.season,
        name=name if started else PRE_SEASON,
        status=row.status if row else "open",
        started=started,
        seasons=sources.seasons if started else [s for s in sources.seasons if s < sources.season],
        divisions=[d for d in sources.standings.divisions if d],
        playoff_teams=row.playoff_teams if row else 0,
        rounds=sorted(
            {m.round for m in sources.matches if m.round is not None and not is_playoff(m)}
        ),
        matches_played=len(played),
        league_games_played=league_games,
        matches_scheduled=scheduled,
        notice=notice(
            name if started else None,
            [m.kind for m in played if m.kind not in SEASON_KINDS],
            league_games,
            scheduled,
        ),
        champion_id=champion,
        champion=sources.team_name(champion) if champion else None,
        first_event=inside[0].seq if inside else 0,
        last_event=inside[-1].seq if inside else 0,
        as_of=sources.events[-1].recorded_at if sources.events else "",
        roster_note=roster_note(max(sources.seasons), latest) if later else "",
    )


PRE_SEASON = "Pre-season"
"""The name of what a league reports before its first season starts."""


def notice(season: str | None, others: list[str], league_games: int, scheduled: int) -> str:
    """What a report says first while ``season`` (None: none has started) has no league
    game, only the games of kinds ``others`` (friendlies...): that nothing has been played
    yet, rather than an empty season's tables."""
    if league_games:
        return ""
    to_play = f", {scheduled} to play" if scheduled else ""
    if season is not None:
        if not others:
            return f"{season}: no games played yet{to_play}."
        return f"{season}: no league games played yet{to_play}; {outside(others)}."
    if others:
        return f"No season has started yet: {outside(others)}."
    return (
        "Nothing has been played yet: no season has started and no game has been recorded."
        " The teams are shown as they stand."
    )


def outside(kinds: list[str]) -> str:
    """``2 friendlies played, which count in no standings``."""
    count = len(kinds)
    if set(kinds) == {"friendly"}:
        games = plural(count, "friendly", "friendlies")
    else:
        games = plural(count, "game outside the league", "games outside the league")
    return f"{games} played, which {'counts' if count == 1 else 'count'} in no standings"


def roster_note(last: int, latest: bool) -> str:
    """What a report says when the log goes on after its season (the next season, or the
    off-season of the latest): its players are read as they stand now."""
    now = "in the off-season that follows it" if latest else f"after season {last}"
    return (
        f"Rosters show the players as they stand now, {now} (re-rolls, staff and games"
        " played too); the season columns count this season's games only, and TV,"
        " treasury and fans are this season's closing figures."
    )


def build_report(
    queries: Queries,
    season: int | None,
    chain: ChainReport,
    comparison: Comparison | None = None,
    checkpoint: Published | None = None,
) -> SeasonReport:
    """The report of ``season`` (default: the latest) of the league ``queries`` reads."""
    sources = read_sources(queries, season)
    scheme = queries.ruleset.points_scheme(queries.league.points)
    return SeasonReport(
        league=league_info(queries),
        season=season_info(sources),
        points=points_rules(queries),
        standings=results.standings_tables(sources),
        positions=position_charts(
            sources.standings, sources.matches, queries.ruleset, scheme, queries.league_id
        ),
        playoffs=results.playoff_stages(sources),
        prizes=results.prizes(sources),
        rounds=results.results_by_round(sources),
        teams=team_pages(sources),
        leaders=leaderboards(sources),
        records=records(sources),
        audit=appendix(sources, chain, checkpoint),
        whatif=whatif_section(sources.standings, comparison) if comparison else None,
    )
