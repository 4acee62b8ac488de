"""Seasons: start one with its divisions, schedule it, run its play-offs, close it."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ledger.application.commands import (
    CloseSeason,
    OrderStarDraft,
    SchedulePlayoffs,
    ScheduleSeason,
    SignStar,
    StartSeason,
)
from ledger.application.context import Context, Drafts
from ledger.domain import events as ev
from ledger.domain.state import MatchRow, SeasonRow, StandingRow, TeamRow
from ledger.domain.values import Division, Fixture
from ledger.errors import InvalidInput, NotAllowed, SeasonState, UnknownSeason
from ledger.projections.appliers import closed_before, still_open
from ledger.projections.gather import team_rows
from ledger.rules import playoffs
from ledger.rules.asked import SeasonPlan
from ledger.rules.problems import has_feature, refuse
from ledger.rules.protocol import Feature
from ledger.rules.schema import StarPlayer
from ledger.words import possessive


def current_season(c: Context) -> SeasonRow:
    season = c.view.get(SeasonRow, c.league_id, c.league.current_season)
    if season is None:
        raise UnknownSeason(f"league {c.league.slug} has not started a season: start one first")
    return season


def plan_start(c: Context, command: StartSeason) -> Drafts:
    divisions, playoff_teams, name = command.divisions, command.playoff_teams, command.name
    number = c.league.current_season + 1
    closed_before(c.view.get(SeasonRow, c.league_id, c.league.current_season))
    placed = [team for division in divisions for team in division.teams]
    if not placed:
        raise InvalidInput("a season needs divisions with teams")
    check_divisions(divisions)
    teams = [c.team(team_id) for team_id in placed]
    for team in teams:
        if team.status != "active":
            raise NotAllowed(f"{team.name} has withdrawn from the league")
    starting = [team_rows(c.view, c.league_id, team, everyone=False) for team in teams]
    refuse(c.ruleset.problems(SeasonPlan(divisions, playoff_teams, starting)))
    return [
        ev.SeasonStarted(
            season=number, name=name, divisions=tuple(divisions), playoff_teams=playoff_teams
        )
    ]


def as_they_stand(c: Context, divisions: Sequence[Division]) -> list[str]:
    """The teams of the next season's ``divisions`` that played before and did not
    re-draft for it, in an edition with re-drafts. Seed 001 'Off-season and Re-drafting':
    a coach who wishes to re-draft does so in the off-season, so none has to; the
    commissioner is told who did not, since a team cannot re-draft once the season has
    started. Read before the season starts (the start moves the league on)."""
    number = c.league.current_season + 1
    if number < 2 or Feature.REDRAFT not in c.ruleset.features:
        return []
    teams = [c.view.get(TeamRow, c.league_id, t) for d in divisions for t in d.teams]
    return sorted(t.team_id for t in teams if t is not None and t.games and t.season != number)


def check_divisions(divisions: Sequence[Division]) -> None:
    """Each division named apart (its name makes its fixtures' ids and its table), each
    team in one division, once. A league of one division may leave it unnamed."""
    if len(divisions) > 1 and any(not d.name.strip() for d in divisions):
        raise InvalidInput(
            "a division needs a name beside another: its fixtures and its table are named by it"
        )
    # 'North' and 'north' would name the same fixtures (s1-north-r1-1): apart by their slug
    slugs = [playoffs.slug(d.name) for d in divisions]
    clash = list(
        dict.fromkeys(d.name for d, n in zip(divisions, slugs, strict=True) if slugs.count(n) > 1)
    )
    if clash:
        called = (
            f"are called '{clash[0]}'"
            if len(clash) == 1
            else f"'{clash[0]}' and '{clash[1]}' would name the same fixtures"
        )
        raise InvalidInput(f"two divisions {called}: give each its own name")
    for division in divisions:
        twice = sorted({t for t in division.teams if division.teams.count(t) > 1})
        if twice:
            raise InvalidInput(f"division {division.name or '(unnamed)'} names {twice[0]} twice")
    placed = [team for division in divisions for team in division.teams]
    twice = sorted({t for t in placed if placed.count(t) > 1})
    if twice:
        raise InvalidInput(f"teams in more than one division: {', '.join(twice)}")


def fixtures_of(c: Context, season: int) -> list[MatchRow]:
    return list(c.view.select(MatchRow, league_id=c.league_id, season=season))


def plan_schedule(c: Context, command: ScheduleSeason) -> Drafts:
    legs = command.legs
    season = current_season(c)
    if season.status != "open":
        raise SeasonState(f"season {season.season} is closed")
    if any(m.stage == "regular" for m in fixtures_of(c, season.season)):
        raise SeasonState(f"season {season.season} is already scheduled")
    fixtures = [f for d in season.divisions for f in playoffs.round_robin(season.season, d, legs)]
    return [ev.FixturesScheduled(season=season.season, fixtures=tuple(fixtures))]


def ranking_key(c: Context, season: int) -> Callable[[str], tuple[int, ...]]:
    """Points then the league's tie-breakers, as one comparable key per team."""
    rows = {r.team_id: r for r in c.view.select(StandingRow, league_id=c.league_id, season=season)}
    scheme = c.ruleset.points_scheme(c.league.points)

    def key(team_id: str) -> tuple[int, ...]:
        row = rows[team_id]
        return (
            row.points,
            row.bonus if scheme.bonus_mode == "tiebreak" else 0,
            row.td_for - row.td_against,
            row.td_for,
            row.cas_for,
        )

    return key


def division_tables(c: Context, season: SeasonRow) -> dict[str, list[str]]:
    rows = list(c.view.select(StandingRow, league_id=c.league_id, season=season.season))
    results = [
        (m.home, m.away, m.home_score, m.away_score)
        for m in fixtures_of(c, season.season)
        if m.status == "played" and m.kind == "league"
    ]
    scheme = c.ruleset.points_scheme(c.league.points)
    return {
        d.name: [
            r.team_id
            for r in c.ruleset.rank(
                [row for row in rows if row.division == d.name], results, scheme
            )
        ]
        for d in season.divisions
    }


def plan_playoffs(c: Context, command: SchedulePlayoffs) -> Drafts:
    dungeon_bowl = command.dungeon_bowl
    season = current_season(c)
    if season.status != "open":  # its prizes are given: a final now would change nothing
        raise SeasonState(
            f"season {season.season} is closed: its prizes are given, so its play-offs"
            " can no longer be scheduled"
        )
    matches = fixtures_of(c, season.season)
    regular = [m for m in matches if m.stage == "regular"]
    if not regular:
        raise SeasonState(f"season {season.season} has no regular season scheduled")
    waiting = [m.match_id for m in regular if m.status != "played"]
    if waiting:
        raise SeasonState(
            f"{len(waiting)} league fixtures are not recorded yet"
            f" (e.g. {waiting[0]}); record unplayed ones as kind: unplayed"
        )
    knockout = [m for m in matches if m.stage != "regular"]
    if not knockout:
        return first_playoff_round(c, season, dungeon_bowl)
    return next_playoff_round(c, season, knockout)


def first_playoff_round(c: Context, season: SeasonRow, dungeon_bowl: bool) -> Drafts:
    if season.playoff_teams < 2:
        raise SeasonState(f"season {season.season} has no play-offs (started with 0 qualifiers)")
    better = ranking_key(c, season.season)
    chosen = playoffs.qualifiers(division_tables(c, season), season.playoff_teams, better)
    if dungeon_bowl:
        teams = tuple(q[0] for q in chosen)
        final = Fixture(
            id=f"s{season.season}-dungeon-bowl-final",
            round=1,
            division="",
            home=teams[0],
            away=teams[1],
            stage="final",
            teams=teams,
        )
        fixtures = [final]
    else:
        check_bracket(season)
        fixtures = playoffs.first_round(season.season, chosen, better)
    return [ev.FixturesScheduled(season=season.season, fixtures=tuple(fixtures))]


def check_bracket(season: SeasonRow) -> None:
    """Asked when the play-offs are drawn, since the season's start does not say whether
    they are a knock-out or a Dungeon Bowl final (``playoffs.halves_to_a_final``)."""
    if not playoffs.halves_to_a_final(season.playoff_teams):
        raise SeasonState(
            f"season {season.season}'s {season.playoff_teams} play-off places make no"
            " knock-out bracket, which halves to a final of two: play them as one Dungeon"
            " Bowl final, or correct the season's start to 2, 4, 8 or 16 places"
        )


def next_playoff_round(c: Context, season: SeasonRow, knockout: list[MatchRow]) -> Drafts:
    last_round = max(m.round or 1 for m in knockout)
    current = sorted(
        (m for m in knockout if (m.round or 1) == last_round), key=lambda m: m.match_id
    )
    if any(m.stage in ("final", "third-place") for m in current):
        raise SeasonState("the final has been scheduled: close the season when it is played")
    unplayed = [m.match_id for m in current if m.status != "played"]
    if unplayed:
        raise SeasonState(
            f"this play-off round is still to be played: {', '.join(unplayed)};"
            " the next is drawn from its winners"
        )
    level = [m.match_id for m in current if m.winner is None]
    if level:  # recorded before a shoot-out was required of a level play-off
        raise SeasonState(
            f"play-off ties without a winner yet: {', '.join(level)}"
            " (record extra time and penalties in the report's shootout)"
        )
    played = [
        Fixture(
            id=m.match_id, round=last_round, division="", home=m.home, away=m.away, stage=m.stage
        )
        for m in current
    ]
    winners = {m.match_id: str(m.winner) for m in current}
    fixtures = playoffs.next_round(season.season, played, winners, last_round + 1)
    return [ev.FixturesScheduled(season=season.season, fixtures=tuple(fixtures))]


def plan_close(c: Context, command: CloseSeason) -> Drafts:
    season = current_season(c)
    still_open(season)
    matches = fixtures_of(c, season.season)
    waiting = [c.game_named(m.match_id) for m in matches if m.status == "scheduled"]
    if waiting:
        raise SeasonState(
            f"fixtures still to record: {'; '.join(waiting[:5])}{'...' if len(waiting) > 5 else ''}"
        )
    if owes_playoffs(season, matches) and not command.without_playoffs:
        raise SeasonState(
            f"season {season.season} plays off its top {season.playoff_teams} and its final"
            " is not played: schedule and record the play-offs first, or close the season"
            " without them"
        )
    if c.ruleset.post_game_closes:
        open_games = [f"{t.name} after {c.game_named(m)}" for t in c.teams() for m in t.open_games]
        if open_games:
            raise SeasonState(
                "close these post-game sequences first (prizes come after the"
                f" final one): {'; '.join(open_games[:4])}"
            )
    return [ev.SeasonClosed(season=season.season)]


def owes_playoffs(season: SeasonRow, matches: Sequence[MatchRow]) -> bool:
    """Whether a season that was started with play-offs ends before their final. The
    season's own format says its final decides its champion (the season report's, and
    BB2025's places: prizes "after the final games have been played", seed 001,
    'Glittering Prizes')."""
    return season.playoff_teams >= 2 and playoffs.played_final(matches) is None


# --- Spike! 2021 long-term star contracts --------------------------------------------------


def require_contracts(c: Context) -> SeasonRow:
    refuse(has_feature(c.ruleset, Feature.STAR_CONTRACTS, "long-term star contracts"))
    if not c.league.options.get("star_player_contracts"):
        raise NotAllowed(
            "this league does not use long-term star contracts"
            f" ({c.ruleset.id} option star_player_contracts=true)"
        )
    season = current_season(c)
    if season.status != "open":
        raise SeasonState(f"season {season.season} is closed")
    return season


def plan_star_draft(c: Context, command: OrderStarDraft) -> Drafts:
    """The signing order; ``drawn`` is the hat draw of the teams that are drawn (all teams
    in a first season, the new teams afterwards), or None to let the ledger draw."""
    drawn = command.drawn
    season = require_contracts(c)
    if season.star_draft:
        raise SeasonState(f"season {season.season}'s star draft order is already set")
    ranked, new = draft_pools(c, season)
    if drawn is None:
        drawn = list(new)
        random.SystemRandom().shuffle(drawn)
    if sorted(drawn) != sorted(new):
        raise InvalidInput(hat_draw_problem(c, drawn, new))
    order = c.ruleset.star_draft_order(drawn, ranked)
    return [ev.StarDraftOrdered(season=season.season, order=tuple(order), drawn=tuple(drawn))]


def hat_draw_problem(c: Context, drawn: Sequence[str], new: Sequence[str]) -> str:
    """Why a hat draw is not the new teams, each once: which is named twice, missing, or
    not one to draw."""

    def name(team: str) -> str:
        found = c.view.get(TeamRow, c.league_id, team)
        return found.name if found is not None else repr(team[:64])

    twice = sorted({t for t in drawn if drawn.count(t) > 1})
    missing = [t for t in new if t not in drawn]
    strangers = sorted({t for t in drawn if t not in new})
    said = [f"{name(t)} is drawn twice" for t in twice]
    said += [f"{name(t)} is missing" for t in missing]
    said += [f"{name(t)} is not a team to draw" for t in strangers]
    teams = ", ".join(name(t) for t in new)
    return f"the hat draw names each of {teams} once: {'; '.join(said)}"


def draft_pools(c: Context, season: SeasonRow) -> tuple[list[str], list[str]]:
    """The season's teams that played the last one, as they finished it, and the new ones,
    which are drawn from a hat (seed 003, 'Subsequent Seasons')."""
    teams = [t for d in season.divisions for t in d.teams]
    last = last_table(c, season.season - 1)
    return [t for t in last if t in teams], [t for t in teams if t not in last]


def last_table(c: Context, season: int) -> list[str]:
    """Last season's teams ranked 'as if they had all been part of the same division'."""
    rows = [
        r.model_copy(update={"division": ""})
        for r in c.view.select(StandingRow, league_id=c.league_id, season=season)
    ]
    results = [
        (m.home, m.away, m.home_score, m.away_score)
        for m in fixtures_of(c, season)
        if m.status == "played" and m.kind == "league"
    ]
    scheme = c.ruleset.points_scheme(c.league.points)
    return [r.team_id for r in c.ruleset.rank(rows, results, scheme)]


@dataclass(frozen=True)
class StarDraft:
    """Where a season's star draft stands: its order (empty until set), the star each
    team has signed, by team, and every star signed (a pair's partner with his star)."""

    season: int
    order: tuple[str, ...]
    signed: Mapping[str, str]
    taken: frozenset[str]

    @property
    def turn(self) -> str | None:
        """The team that signs next (None before the order is set and once all have)."""
        return next((t for t in self.order if t not in self.signed), None)


def star_draft(c: Context) -> StarDraft:
    """The current season's star draft; refused where the league has no contracts."""
    season = require_contracts(c)
    stars = c.ruleset.catalogue.stars()
    contracted = [
        p
        for t in season.star_draft
        for p in c.players(t)
        if p.kind == "star" and season.season in p.seasons
    ]
    signed = {p.team_id: p.position for p in contracted if not partner_only(stars, p.position)}
    taken = frozenset(p.position for p in contracted)
    return StarDraft(season.season, season.star_draft, signed, taken)


def partner_only(stars: Mapping[str, StarPlayer], star_id: str) -> bool:
    """Whether ``star_id`` is the half of a pair who comes with the other (his team's star
    is the other)."""
    found = stars.get(star_id)
    return found is not None and found.partner_only


def plan_sign(c: Context, command: SignStar) -> Drafts:
    team_id, star_id = command.team, command.star
    draft = star_draft(c)
    if not draft.order:
        raise SeasonState("set the star draft order first")
    turn = draft.turn
    if turn != team_id:
        raise NotAllowed(
            f"it is {possessive(c.team(turn).name)} turn to sign a star"
            if turn
            else "every team has signed its star this season"
        )
    star = c.ruleset.catalogue.star(star_id)
    team = c.team(team_id)
    if not c.ruleset.may_sign_star(star_id, team, set(draft.taken)):
        raise NotAllowed(unsignable(c, draft, star, team))
    player = c.league.next_player
    return [
        ev.StarSigned(
            season=draft.season,
            team=team_id,
            star=star_id,
            player=f"p{player}",
            partner=f"p{player + 1}" if star.pair_with else None,
        )
    ]


def unsignable(c: Context, draft: StarDraft, star: StarPlayer, team: TeamRow) -> str:
    """Why the team may not sign the star now (seed 003, 'Signing Star Players')."""
    stars = c.ruleset.catalogue.stars()
    partner = stars.get(star.pair_with or "")
    if star.partner_only and partner is not None:
        return f"{star.name} comes with {partner.name}: sign {partner.name} and both join"
    for holder, signed in draft.signed.items():
        if signed in (star.id, star.pair_with):
            return f"{star.name} is signed to {c.team(holder).name} this season"
    return (
        f"{star.name} does not play for {team.name}, and stars who do are still unsigned:"
        " any star may be chosen only once all of those are signed"
    )


def unsigned_stars(c: Context, draft: StarDraft) -> list[StarPlayer]:
    """The edition's stars no team has signed this season, by name (a pair under its
    priced star): any team may still induce them for one game (seed 003, 'Unsigned Star
    Players')."""
    stars = c.ruleset.catalogue.stars().values()
    unsigned = (s for s in stars if s.id not in draft.taken and not s.partner_only)
    return sorted(unsigned, key=lambda s: s.name)


def signable_stars(c: Context, draft: StarDraft) -> list[StarPlayer]:
    """The stars the team whose turn it is may sign now, by name (the command's own
    check, ``may_sign_star``); none when it is no team's turn."""
    if draft.turn is None:
        return []
    team, taken = c.team(draft.turn), set(draft.taken)
    return [s for s in unsigned_stars(c, draft) if c.ruleset.may_sign_star(s.id, team, taken)]
