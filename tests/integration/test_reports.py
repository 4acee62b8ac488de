"""The season report's model, built from the demo league's read models.

The demo league (ledger/demo) is one season, four teams, a round robin: its figures are
known (tests/integration/test_demo.py checks them by hand), so the report is checked
against the standings, rosters and treasuries the other queries give.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from ledger.application.audit import verify_chain
from ledger.application.commands import (
    AdjustTreasury,
    ClosePostGame,
    Correct,
    FirePlayer,
    HirePlayer,
    RecordMatch,
)
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.demo import build_demo
from ledger.domain.log import league_id
from ledger.domain.state import MatchRow, PlayerRow, TeamRow
from ledger.errors import UnknownRuleset, UnknownSeason
from ledger.reports import results, stats
from ledger.reports.match_sheet import corrections_of
from ledger.reports.model import SeasonReport
from ledger.reports.positions import RunningTable
from ledger.reports.seasons import END, Window, season_windows
from ledger.reports.service import make_report, queries_of
from ledger.reports.sources import read_sources
from ledger.reports.to_html import figure_charts
from ledger.reports.whatif import Comparison, comparison_for

DEMO = "demo"
DIVISION = "Old World"
"""The demo season's one division (ledger/demo/league.yaml)."""


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo league, built once for the session; tests work on copies."""
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    ledger = open_ledger(Settings(sqlite_path=path, user="demo"))
    try:
        build_demo(ledger)
    finally:
        close_ledger(ledger)
    return path


@pytest.fixture
def demo(demo_db: Path, tmp_path: Path) -> Iterator[LeagueLedger]:
    """A ledger on a private copy of the demo league."""
    for suffix in ("", "-wal", "-shm"):
        source = demo_db.with_name(demo_db.name + suffix)
        if source.exists():
            shutil.copy(source, tmp_path / source.name)
    ledger = open_ledger(Settings(sqlite_path=tmp_path / demo_db.name, user="tester"))
    yield ledger
    close_ledger(ledger)


@pytest.fixture
def demo_report(demo: LeagueLedger) -> SeasonReport:
    return make_report(demo, DEMO)


def test_the_table_is_the_standings_with_their_tie_breakers(
    demo: LeagueLedger, demo_report: SeasonReport
) -> None:
    standings = queries_of(demo, DEMO).standings()
    [table] = demo_report.standings
    assert [(r.team_id, r.rank, r.points) for r in table.rows] == [
        (r.team_id, r.rank, r.row.points) for r in standings.divisions[DIVISION]
    ]
    # The Gouged Eye and the Grudgebearers finish on 3 points, split on TD difference.
    assert [r.separated_by for r in table.rows] == [None, None, "touchdown difference", None]
    assert table.division == DIVISION
    assert demo_report.season.divisions == [DIVISION]


def test_position_by_round_ends_where_the_table_ends(demo_report: SeasonReport) -> None:
    [chart] = demo_report.positions
    assert chart.rounds == ["1", "2", "3"]
    final = {r.team_id: r.rank for r in demo_report.standings[0].rows}
    assert {s.team_id: s.positions[-1] for s in chart.series} == final
    # Round 1: the Reavers and the Scramblers both won 2-1; the Reavers' casualty counts.
    # Their losers, 1-2 each with a casualty each, are level on every tie-breaker: both 3rd.
    assert {s.team_id: s.positions[0] for s in chart.series} == {
        "reikland-reavers": 1,
        "skavenblight-scramblers": 2,
        "gouged-eye": 3,
        "grudgebearers": 3,
    }


def test_the_running_table_scores_games_as_the_fold_does(demo: LeagueLedger) -> None:
    """Counting every game of the season again gives the official rows and ranks."""
    queries = queries_of(demo, DEMO)
    sources = read_sources(queries, None)
    scheme = queries.ruleset.points_scheme(queries.league.points)
    official = sources.standings.divisions[DIVISION]
    running = RunningTable(queries.league_id, 1, [r.team_id for r in official])
    for match in sources.matches:
        running.count(match, scheme)
    assert running.positions(queries.ruleset, scheme) == {r.team_id: r.rank for r in official}
    counted = {t: row.model_copy(update={"division": DIVISION}) for t, row in running.rows.items()}
    assert counted == {r.team_id: r.row for r in official}


def test_every_result_is_listed_by_round_and_there_is_no_bracket(demo_report: SeasonReport) -> None:
    assert [r.label for r in demo_report.rounds] == ["Round 1", "Round 2", "Round 3"]
    first = demo_report.rounds[0].matches[0]
    assert (first.home, first.home_score, first.away_score, first.away) == (
        "Reikland Reavers",
        2,
        1,
        "The Gouged Eye",
    )
    assert first.winner_id == "reikland-reavers"
    assert first.event is not None
    assert demo_report.playoffs == []
    assert demo_report.prizes == []
    assert demo_report.season.champion is None


def test_team_pages_show_the_roster_the_cemetery_and_the_statement(
    demo: LeagueLedger, demo_report: SeasonReport
) -> None:
    reavers = next(t for t in demo_report.teams if t.team_id == "reikland-reavers")
    row = demo.view().get(TeamRow, demo.league_row(DEMO).league_id, "reikland-reavers")
    assert row is not None
    assert (reavers.rank, reavers.treasury, reavers.rating) == (2, row.treasury, row.rating)
    assert [o.name for o in reavers.cemetery] == ["Karl Vogt"]
    assert reavers.cemetery[0].round == 2
    assert "Karl Vogt" not in [p.name for p in reavers.players]
    assert [m.name for m in reavers.moves if m.move == "hired"][-1] == "Wilhelm Adler"
    statement = reavers.statement
    assert statement.opening == 0
    assert statement.closing == row.treasury
    assert statement.opening + statement.income - statement.spending == statement.closing
    assert statement.entries[-1].balance == row.treasury


def test_a_players_season_columns_sum_his_games(demo_report: SeasonReport) -> None:
    scramblers = next(t for t in demo_report.teams if t.team_id == "skavenblight-scramblers")
    skweek = next(p for p in scramblers.players if p.name == "Skweek")
    assert (skweek.season.games, skweek.season.touchdowns) == (3, 4)
    assert skweek.season.spp == skweek.spp_earned  # his first and only season
    assert "Sprint" in skweek.gained


def test_leaderboards_and_records_come_from_the_seasons_games(demo_report: SeasonReport) -> None:
    touchdowns = next(b for b in demo_report.leaders if b.stat == "touchdowns")
    assert [(e.name, e.rank, e.value) for e in touchdowns.entries[:2]] == [
        ("Skweek", 1, 4),
        ("Ugluk", 1, 4),
    ]
    records = {r.record: r for r in demo_report.records}
    assert records["biggest_win"].value == 3
    assert records["biggest_win"].holder == "The Gouged Eye"
    assert records["deadliest_player"].holder == "Spike"


def test_tied_players_share_their_rank_on_every_leaderboard(demo_report: SeasonReport) -> None:
    boards = {b.stat: b for b in demo_report.leaders}
    assert [e.rank for e in boards["touchdowns"].entries] == [1, 1, 3, 3, 5, 5, 5, 5]
    assert [e.rank for e in boards["spp"].entries] == [1, 2, 3, 4, 4]
    for board in demo_report.leaders:
        values = [e.value for e in board.entries]
        assert [e.rank for e in board.entries] == [1 + values.index(v) for v in values]


def test_a_shared_record_names_every_holder(demo: LeagueLedger) -> None:
    sources = read_sources(queries_of(demo, DEMO), None)
    names = {p.player_id: p.name for p in sources.players}
    # Give Grishnak a kill in his first game: he now shares the record with Spike.
    grishnak = next(g for g in sources.games if names[g.player_id] == "Grishnak")
    games = [g.model_copy(update={"kills": 1}) if g is grishnak else g for g in sources.games]
    tied = stats.records(replace(sources, games=games))
    deadliest = [(r.holder, r.value) for r in tied if r.record == "deadliest_player"]
    assert deadliest == [("Grishnak", 1), ("Spike", 1)]
    # Two games share the most casualties when a second game has as many as the first.
    bloodiest = [r for r in tied if r.record == "bloodiest_game"]
    assert len(bloodiest) == 1
    best = max(sources.matches, key=lambda m: m.home_casualties + m.away_casualties)
    other = next(m for m in sources.matches if m.match_id != best.match_id)
    matches = [
        m.model_copy(
            update={
                "home_casualties": best.home_casualties,
                "away_casualties": best.away_casualties,
            }
        )
        if m is other
        else m
        for m in sources.matches
    ]
    shared = stats.records(replace(sources, matches=matches))
    bloodiest = [r for r in shared if r.record == "bloodiest_game"]
    assert {r.match_id for r in bloodiest} == {best.match_id, other.match_id}


def test_records_name_their_games_by_teams_round_and_score(demo_report: SeasonReport) -> None:
    records = {r.record: r for r in demo_report.records}
    best = [r for r in demo_report.records if r.record == "best_game"]  # Skweek and Ugluk tie
    assert [(r.holder, r.value, r.match) for r in best] == [
        ("Skweek", 10, "Skavenblight Scramblers 2\u20131 Dwarf Grudgebearers, round 1"),
        ("Ugluk", 10, "The Gouged Eye 3\u20130 Dwarf Grudgebearers, round 2"),
    ]
    assert best[0].detail == f"for Skavenblight Scramblers in {best[0].match}"
    assert records["biggest_win"].match == "The Gouged Eye 3\u20130 Dwarf Grudgebearers, round 2"
    assert records["deadliest_player"].detail == "Skavenblight Scramblers; 1 kill this season"
    for record in demo_report.records:
        assert record.match_id is None or record.match_id not in record.detail, record
    karl = next(o for t in demo_report.teams for o in t.cemetery)
    assert karl.match
    assert karl.match_id
    assert karl.match_id not in karl.match
    assert all(h.match for t in demo_report.teams for h in t.history if h.match_id)


def test_the_audit_appendix_matches_audit_verify(
    demo: LeagueLedger, demo_report: SeasonReport
) -> None:
    chain = verify_chain(demo.recorder, league_id(DEMO), DEMO)
    audit = demo_report.audit
    assert (audit.events, audit.last_hash, audit.chain_ok) == (86, chain.last_hash, True)
    assert audit.corrections == []
    assert audit.verify_command == "ledger --league demo audit verify"


def test_corrections_fired_players_are_reported_with_who_and_why(demo: LeagueLedger) -> None:
    demo.handle(AdjustTreasury(DEMO, "gouged-eye", 10_000), by="Dan", reason="fair play award")
    target = demo.league_row(DEMO).version
    demo.handle(Correct(DEMO, target, "void"), by="the commissioner", reason="entered twice")
    demo.handle(
        FirePlayer(DEMO, "reikland-reavers", "Emil Kraus"), by="Jay", reason="asked to leave"
    )
    made = make_report(demo, DEMO)
    [correction] = made.audit.corrections
    assert (correction.recorded_by, correction.reason, correction.target) == (
        "the commissioner",
        "entered twice",
        target,
    )
    assert "treasury adjusted" in correction.target_summary
    reavers = next(t for t in made.teams if t.team_id == "reikland-reavers")
    fired = next(m for m in reavers.moves if m.move == "fired")
    assert (fired.name, fired.reason, fired.recorded_by) == ("Emil Kraus", "asked to leave", "Jay")
    assert "Emil Kraus" in [p.name for p in reavers.former]
    eye = next(t for t in made.teams if t.team_id == "gouged-eye")
    assert all(e.kind != "adjustment" for e in eye.statement.entries)  # voided
    assert made.audit.events == 89


def test_a_void_of_a_match_report_is_reported_against_the_report_not_its_closes(
    sqlite_ledger: LeagueLedger,
) -> None:
    """A void of a match report voids its closes with it and refers to them too: the
    audit appendix and the match sheet name the report it corrected, event 100, not a
    close (101 and 102 follow it; as text, 'event:101' sorts after 'event:100')."""
    from tests.support import event_count, report, two_team_league

    two_team_league(sqlite_ledger)
    while event_count(sqlite_ledger) < 99:
        sqlite_ledger.handle(AdjustTreasury("test", "reavers", 1_000), by="t", reason="fill")
    game = {"match": "m", "home": {"team": "reavers", "touchdowns": 1}, "away": {"team": "rats"}}
    sqlite_ledger.handle(RecordMatch("test", report(game), roll_missing=True), by="t")
    for team in ("reavers", "rats"):
        sqlite_ledger.handle(ClosePostGame("test", "m", team, roll_missing=True), by="t")
    assert event_count(sqlite_ledger) == 102
    sqlite_ledger.handle(Correct("test", 100, "void"), by="t", reason="wrong game")
    [made] = make_report(sqlite_ledger, "test").audit.corrections
    assert (made.event, made.target) == (103, 100)
    assert made.target_summary.startswith("league match m")
    history = queries_of(sqlite_ledger, "test").history("match:m")
    assert [(c.seq, c.target) for c in corrections_of(history, {100})] == [(103, 100)]


def test_an_unknown_season_is_refused(demo: LeagueLedger) -> None:
    with pytest.raises(UnknownSeason, match=r"no season 4 \(seasons: 1\)"):
        make_report(demo, DEMO, season=4)


def test_play_offs_form_a_bracket_and_the_final_names_the_champion(demo: LeagueLedger) -> None:
    queries = queries_of(demo, DEMO)
    sources = read_sources(queries, None)

    def tie(match: str, stage: str, home: str, away: str, h: int, a: int) -> MatchRow:
        return MatchRow(
            league_id=queries.league_id,
            match_id=match,
            season=1,
            round=4 + (stage == "final"),
            stage=stage,
            kind="playoff",
            home=home,
            away=away,
            status="played",
            home_score=h,
            away_score=a,
            winner=home if h > a else away,
            recorded_seq=90,
        )

    playoffs = [
        tie("f", "final", "skavenblight-scramblers", "gouged-eye", 2, 1),
        tie("s1", "semi-final", "skavenblight-scramblers", "grudgebearers", 1, 0),
        tie("s2", "semi-final", "reikland-reavers", "gouged-eye", 0, 1),
    ]
    with_playoffs = replace(sources, matches=[*sources.matches, *playoffs])
    stages = results.playoff_stages(with_playoffs)
    assert [(s.label, len(s.matches)) for s in stages] == [("Semi final", 2), ("Final", 1)]
    assert results.champion(with_playoffs) == "skavenblight-scramblers"
    assert len(results.results_by_round(with_playoffs)) == 3  # play-offs are not a round


def test_the_what_if_engine_gives_the_table_under_another_ruleset(demo: LeagueLedger) -> None:
    comparison = comparison_for(demo, DEMO, None, "lrb6")
    assert (comparison.ruleset, comparison.id) == ("lrb6", "lrb6")
    assert sorted(r.team_id for rows in comparison.standings.divisions.values() for r in rows) == [
        "gouged-eye",
        "grudgebearers",
        "reikland-reavers",
        "skavenblight-scramblers",
    ]
    assert comparison.simulated_rolls
    with pytest.raises(UnknownRuleset, match="unknown ruleset 'nowhere'"):
        comparison_for(demo, DEMO, None, "nowhere")


def test_a_what_if_comparison_becomes_a_section(demo: LeagueLedger) -> None:
    """The seam the what-if engine will use: a table under another ruleset."""
    actual = queries_of(demo, DEMO).standings()
    rows = actual.divisions[DIVISION]
    swapped = [
        rows[1].model_copy(update={"rank": 1}),
        rows[0].model_copy(update={"rank": 2}),
        *rows[2:],
    ]
    other = actual.model_copy(update={"divisions": {"": swapped}})
    comparison = Comparison(
        id="w1",
        ruleset="lrb6",
        ruleset_name="LRB6",
        standings=other,
        divergences=["Skweek's Sprint deferred"],
    )
    made = make_report(demo, DEMO, comparison=comparison)
    assert made.whatif is not None
    assert [(r.team_id, r.whatif_rank, r.movement) for r in made.whatif.rows[:2]] == [
        ("skavenblight-scramblers", 2, -1),
        ("reikland-reavers", 1, 1),
    ]


def test_seasons_partition_the_log() -> None:
    def played(season: int, seq: int) -> MatchRow:
        return MatchRow(
            league_id="l",
            match_id=f"m{seq}",
            season=season,
            home="a",
            away="b",
            status="played",
            recorded_seq=seq,
        )

    matches = [played(1, 10), played(1, 20), played(2, 40), played(3, 70)]
    # Season 2 starts at its SeasonStarted event (35); season 3 has none recorded.
    assert season_windows([1, 2, 3], matches, starts=[35]) == {
        1: Window(0, 35),
        2: Window(35, 41),
        3: Window(41, END),
    }
    assert 35 in Window(35, 41)
    assert 41 not in Window(35, 41)


def test_a_league_without_games_still_reports_its_teams(sqlite_ledger: LeagueLedger) -> None:
    from tests.support import HUMAN_ELEVEN, create_league, draft_team

    create_league(sqlite_ledger, "fresh")
    draft_team(sqlite_ledger, "fresh", "reavers", "human", HUMAN_ELEVEN)
    made = make_report(sqlite_ledger, "fresh")
    assert made.season.number == 1
    assert made.rounds == []
    assert made.positions == []
    assert [t.team_id for t in made.teams] == ["reavers"]
    league = sqlite_ledger.league_row("fresh").league_id
    players = sqlite_ledger.view().select(PlayerRow, league_id=league)
    assert len(made.teams[0].players) == len(players) == 11


def test_a_past_season_closes_where_the_next_one_opens(sqlite_ledger: LeagueLedger) -> None:
    from tests.support import report, two_team_league

    two_team_league(sqlite_ledger)
    for season, match in ((1, "a"), (2, "b")):
        sqlite_ledger.handle(
            RecordMatch(
                "test",
                report(
                    {
                        "match": match,
                        "season": season,
                        "round": 1,
                        "home": {"team": "reavers", "touchdowns": 1},
                        "away": {"team": "rats"},
                    }
                ),
                roll_missing=True,
            ),
            by="t",
        )
        for team in ("reavers", "rats"):
            sqlite_ledger.handle(ClosePostGame("test", match, team, roll_missing=True), by="t")
        if season == 1:
            sqlite_ledger.handle(HirePlayer("test", "reavers", "lineman", "Late Signing"), by="t")
    first, second = make_report(sqlite_ledger, "test", 1), make_report(sqlite_ledger, "test")
    assert second.season.number == 2
    assert first.season.roster_note
    assert not second.season.roster_note
    opening = {t.team_id: t.statement.opening for t in second.teams}
    assert {t.team_id: t.statement.closing for t in first.teams} == opening
    assert {t.team_id: t.treasury for t in first.teams} == opening
    # Without SeasonStarted events, what follows a season's last game is the next season's.
    reavers = [t for t in (first.teams + second.teams) if t.team_id == "reavers"]
    assert [m.name for m in reavers[1].moves] == ["Late Signing"]
    assert "Late Signing" not in [p.name for p in reavers[0].players]
    assert "Late Signing" in [p.name for p in reavers[1].players]
    assert first.season.last_event < second.season.first_event


@pytest.mark.parametrize(("in_gold", "axis"), [(True, "TV (gold pieces)"), (False, "TR (points)")])
def test_the_rating_chart_says_whether_its_figure_is_gold_or_points(
    demo_report: SeasonReport, in_gold: bool, axis: str
) -> None:
    """A Team Rating (gold4, dz3, lrb6-zal) is points, not gold (the ruleset says which)."""
    league = demo_report.league.model_copy(
        update={"rating_in_gold": in_gold, "rating_label": axis.split()[0]}
    )
    charts = figure_charts(demo_report.model_copy(update={"league": league}))
    drawn = str(charts[0])
    assert axis in drawn
    assert ("gold pieces" in drawn) == in_gold
