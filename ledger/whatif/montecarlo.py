"""Monte Carlo what-ifs: the same replay with many seeds, and the distributions it gives.

Each sample is one replay (``ledger.whatif.replay``) with its own seed, so every roll the
log does not hold is drawn afresh while every recorded roll stays as rolled. The log is
translated once, the steps before the first drawn roll are folded once
(``ledger.whatif.shared``), and the samples run from clones of that state in worker
processes (two by default: the machine's cores) forked after it was made; a sample's
result depends on its seed alone, and the results are summed in seed order, so the same
command gives the same figures, to the last digit, however the work was shared out.

Per team: the probability of each place in its division, of a play-off place (the season's
own play-off rule applied to the sample's table), of finishing first in the whole league,
and the mean and spread (population standard deviation) of its rating (TV/TR) and
treasury at the end.

Worked example: with 1,000 samples a team first in 620 of them, second in 380, has places
``[0.62, 0.38, 0.0, 0.0]``; a league table resting on recorded results only gives each
team one place with probability 1 - the spread is then all in gold and ratings.
"""

from __future__ import annotations

import gc
import math
import multiprocessing
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from ledger.application.context import Context
from ledger.application.seasons import division_tables, ranking_key
from ledger.domain.events import (
    LeagueCreated,
    LedgerEvent,
    MatchRecorded,
    SeasonStarted,
    TeamRegistered,
)
from ledger.domain.state import MatchRow, SeasonRow, StandingRow, TeamRow
from ledger.errors import UnknownSeason
from ledger.projections.queries import Queries
from ledger.rules import find_ruleset, playoffs
from ledger.rules.base import remembering_reports
from ledger.rules.protocol import Ruleset
from ledger.whatif.compare import Edition, edition
from ledger.whatif.replay import Outcome, league_row, translate
from ledger.whatif.shared import Start, start
from ledger.whatif.translate import Step

WORKERS = 2
"""Worker processes (the project's machines have two cores)."""
Progress = Callable[[int], None]

TeamResult = tuple[str, str, int, int | None, bool, int, int]
"""(team, division, place in division, place in the league, play-off place, rating,
treasury) in one sample."""


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Spread(Frozen):
    mean: float
    sd: float


class TeamDistribution(Frozen):
    team_id: str
    name: str
    division: str
    places: list[float]
    """Probability of each place in the division, first place first."""
    playoffs: float
    champion: float
    """Probability of finishing first in the whole league's table; a first place k teams
    share on every tie-breaker counts 1/k to each, as a draw among them would decide it, so
    the teams' chances add up to 1."""
    rating: Spread
    treasury: Spread


class Distributions(Frozen):
    league: str
    season: int | None
    """The season whose table is counted (None: the league has played none yet)."""
    samples: int
    first_seed: int
    whatif: Edition
    teams: list[TeamDistribution]


@dataclass(frozen=True)
class Work:
    """What every sample needs, made once: forked workers inherit it; spawned ones (where
    there is no fork) receive it and fold the shared start themselves."""

    events: list[LedgerEvent]
    steps: list[Step]
    ruleset: str
    options: dict[str, object]
    season: int | None


@dataclass(frozen=True)
class Sampler:
    """Draws samples in one process: the target, the state every sample starts from, and
    the season whose table is counted."""

    target: Ruleset
    start: Start
    season: int | None

    @classmethod
    def of(cls, work: Work) -> Sampler:
        # every sample folds the same reports: what they alone decide is worked out once
        target = remembering_reports(find_ruleset(work.ruleset, work.options))
        return cls(target, start(work.events, target, work.steps), work.season)

    def __call__(self, seed: int) -> list[TeamResult]:
        """One replay with ``seed``: each team's place, play-off place, rating, treasury."""
        return results(self.start.sample(seed), self.target, self.season)


SAMPLE_YOUNG = 10_000
"""Allocations between two young passes of a pool worker's collector (CPython's: 700). A
sample's objects are freed by reference counting when it ends (it leaves a handful of
cycles, if any), yet at 700 a young pass ran twice per sample, walking the clone's state
in the making: 0.4 ms of a 22 ms gold4 sample; at 10,000 one runs every few samples (as in
a serving process, ledger/web/heap.py)."""

_sampler: Sampler | None = None
"""A pool worker's own, set once by ``start_worker``."""


def start_worker(work: Work, made: Sampler | None) -> None:
    global _sampler
    _sampler = made or Sampler.of(work)
    # What the worker holds now (the log, the shared start, the rulesets' tables) lives as
    # long as it does: the cyclic collector need not walk it again after every sample.
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(SAMPLE_YOUNG, older, oldest)


def sample(seed: int) -> list[TeamResult]:
    assert _sampler is not None  # start_worker ran in this process
    return _sampler(seed)


def results(outcome: Outcome, ruleset: Ruleset, season: int | None) -> list[TeamResult]:
    league = league_row(outcome)
    table = Queries.over(outcome.store, league, ruleset).standings(season)
    placed = {row.team_id: row for rows in table.divisions.values() for row in rows}
    overall = league_places(outcome, ruleset, season)
    qualified = playoff_places(outcome, ruleset, season)
    teams = outcome.store.select(TeamRow, league_id=outcome.league_id)
    return [
        (
            t.team_id,
            placed[t.team_id].division,
            placed[t.team_id].rank,
            overall.get(t.team_id),
            t.team_id in qualified,
            t.rating,
            t.treasury,
        )
        for t in sorted(teams, key=lambda t: t.team_id)
        if t.team_id in placed
    ]


def playoff_places(outcome: Outcome, ruleset: Ruleset, season: int | None) -> set[str]:
    row = outcome.store.get(SeasonRow, outcome.league_id, season)
    if season is None or row is None or not row.playoff_teams:
        return set()
    context = Context(view=outcome.store, league=league_row(outcome), ruleset=ruleset)
    tables = division_tables(context, row)
    found = playoffs.qualifiers(tables, row.playoff_teams, ranking_key(context, season))
    return {team for team, _, _ in found}


def league_places(outcome: Outcome, ruleset: Ruleset, season: int | None) -> dict[str, int]:
    store, league_id = outcome.store, outcome.league_id
    rows = store.select(StandingRow, league_id=league_id, season=season)
    matches = store.select(MatchRow, league_id=league_id, season=season)
    played = [
        (m.home, m.away, m.home_score, m.away_score)
        for m in matches
        if m.status == "played" and m.kind == "league"
    ]
    scheme = ruleset.points_scheme(league_row(outcome).points)
    return {r.team_id: r.rank for r in ruleset.rank(rows, played, scheme)}


def seasons_of(events: Sequence[LedgerEvent]) -> set[int]:
    found = {e.season for e in events if isinstance(e, SeasonStarted)}
    return found | {e.season for e in events if isinstance(e, MatchRecorded) and e.season}


def no_season(league: str, season: int, known: set[int]) -> UnknownSeason:
    """The refusal of a season the league does not have (a season started, or one a
    recorded match names)."""
    listed = ", ".join(map(str, sorted(known))) or "none yet"
    return UnknownSeason(f"league {league} has no season {season} (seasons: {listed})")


def season_of(events: Sequence[LedgerEvent], season: int | None) -> int | None:
    """The season asked for (refused if the league has none such), else the latest played."""
    known = seasons_of(events)
    if season is not None and season not in known:
        raise no_season(league_slug(events), season, known)
    played = {e.season for e in events if isinstance(e, MatchRecorded) and e.season}
    return season or max(played, default=None) or max(known, default=None)


def run_samples(
    events: list[LedgerEvent],
    target: Ruleset,
    samples: int,
    first_seed: int = 1,
    season: int | None = None,
    workers: int = WORKERS,
    progress: Progress | None = None,
) -> Distributions:
    chosen = season_of(events, season)
    steps = translate(events, target)
    work = Work(events, steps, target.id, target.options.model_dump(mode="json"), chosen)
    seeds = range(first_seed, first_seed + samples)
    if workers <= 1 or samples < 2 * workers:
        found = in_process(Sampler.of(work), seeds, progress)
    else:
        found = in_pool(work, seeds, workers, progress)
    names = {e.team: e.name for e in events if isinstance(e, TeamRegistered)}
    return Distributions(
        league=league_slug(events),
        season=chosen,
        samples=len(found),
        first_seed=first_seed,
        whatif=edition(target),
        teams=summary(found, names),
    )


def in_process(made: Sampler, seeds: range, progress: Progress | None) -> list[list[TeamResult]]:
    found = []
    for seed in seeds:
        found.append(made(seed))
        if progress:
            progress(1)
    return found


def in_pool(
    work: Work, seeds: range, workers: int, progress: Progress | None
) -> list[list[TeamResult]]:
    """The samples shared out among ``workers`` processes, in seed order. Forked workers
    inherit the start folded here; spawned ones (where there is no fork) fold their own."""
    fork = os.name == "posix"
    made = Sampler.of(work) if fork else None
    context = multiprocessing.get_context("fork" if fork else "spawn")
    # Small chunks: the last ones keep both workers busy to the end.
    chunk = max(1, min(4, len(seeds) // (workers * 8)))
    found = []
    with context.Pool(workers, initializer=start_worker, initargs=(work, made)) as pool:
        for result in pool.imap(sample, seeds, chunksize=chunk):
            found.append(result)
            if progress:
                progress(1)
    return found


def league_slug(events: Sequence[LedgerEvent]) -> str:
    created = events[0]
    return created.slug if isinstance(created, LeagueCreated) else ""


def summary(found: Sequence[list[TeamResult]], names: dict[str, str]) -> list[TeamDistribution]:
    by_team: dict[str, list[TeamResult]] = {}
    for result in found:
        for entry in result:
            by_team.setdefault(entry[0], []).append(entry)
    size: dict[str, int] = {}
    for entries in by_team.values():
        division = entries[0][1]
        size[division] = size.get(division, 0) + 1
    firsts = champion_shares(found)
    return [
        distribution(team_id, names.get(team_id, team_id), entries, size, firsts.get(team_id, 0))
        for team_id, entries in sorted(by_team.items())
    ]


def champion_shares(found: Sequence[list[TeamResult]]) -> dict[str, float]:
    """Each team's first places in the league's table over the samples, a first place
    shared by k teams counting 1/k to each."""
    shares: dict[str, float] = {}
    for result in found:
        first = [entry[0] for entry in result if entry[3] == 1]
        for team_id in first:
            shares[team_id] = shares.get(team_id, 0.0) + 1 / len(first)
    return shares


def distribution(
    team_id: str, name: str, entries: list[TeamResult], size: dict[str, int], firsts: float
) -> TeamDistribution:
    n, division = len(entries), entries[0][1]
    places = [0] * size.get(division, 0)
    for entry in entries:
        if 1 <= entry[2] <= len(places):
            places[entry[2] - 1] += 1
    return TeamDistribution(
        team_id=team_id,
        name=name,
        division=division,
        places=[round(count / n, 4) for count in places],
        playoffs=round(sum(1 for e in entries if e[4]) / n, 4),
        champion=round(firsts / n, 4),
        rating=spread([e[5] for e in entries], 2),
        treasury=spread([e[6] for e in entries], 0),
    )


def spread(values: list[int], digits: int) -> Spread:
    mean = math.fsum(values) / len(values)
    variance = math.fsum((v - mean) ** 2 for v in values) / len(values)
    return Spread(mean=round(mean, digits), sd=round(math.sqrt(variance), digits))
