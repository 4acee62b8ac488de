"""What a dz3 match report must respect before it is recorded (the command side).

- Forfeits (seed 004 3.7): none in the books; Var (b)/(c) a forced forfeit (fewer than 3
  players for a kick-off) without penalty; Var (d) also a voluntary one, penalised. A forfeit
  is recorded with the forfeiting team behind on the scoreboard, so the table and the
  post-match sequence agree on who won.
- MVPs ('Most Valuable Player' passage of seed 004): one per team plus the handicap's bonus
  MVPs for the weaker team (3.8, by TR difference or ratio); "No player may receive more
  than 1 MVP per match [DZ p16]"; "Players who have taken no part in the match do not receive
  MVPs"; a star, who earns no SPP, is not eligible ("Roll again if an ineligible player
  receives an MVP"). A team that forfeited with players to spare gets none (3.7 (d)).
- Freebooters ('Freebooters'): "You may only freeboot players or coaches who would normally
  play for your team" - a position of the team's list, within its limit counting the
  roster; a star as the league's star player options allow. Their fees must be affordable.

Worked example: TR 100 against TR 121 is a difference of 21: the weaker team may name two
MVPs (its own and 1 bonus), each to a different player who took part.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.domain.state import PlayerRow, on_roster
from ledger.domain.values import Hireling, TeamSheet
from ledger.errors import ConcessionRefused, HirelingRefused, MatchSidesRefused, MvpRefused
from ledger.rules.base import opponent, unaffordable_hirelings
from ledger.rules.dz3 import stars
from ledger.rules.dz3.game import Game
from ledger.rules.dz3.rating import handicap
from ledger.rules.dz3.tables import stars as star_table
from ledger.rules.problems import Problem, count_of, found
from ledger.rules.schema import TeamList
from ledger.words import plural

FORFEIT_KINDS = {
    "none": (),
    "b": ("forfeit_forced",),
    "c": ("forfeit_forced",),
    "d": ("forfeit_forced", "forfeit_voluntary"),
}


def match_problems(g: Game, team_lists: dict[str, TeamList]) -> list[Problem]:
    """The forfeit first, then each side's MVPs, freebooters and rostered stars."""
    if g.match.others:
        return [Problem(MatchSidesRefused, "3rd edition matches are between two teams")]
    problems = found(ConcessionRefused, forfeit_problems(g))
    if g.match.kind in ("friendly", "exhibition"):
        return problems
    for sheet in g.sides():
        team = g.team(sheet.team)
        problems += found(MvpRefused, mvp_problems(g, sheet), sheet.team)
        if team is not None:
            freebooters = freebooter_problems(g, sheet, team_lists[team.roster], team.treasury)
            problems += found(HirelingRefused, freebooters)
            problems += found(HirelingRefused, roster_star_problems(g, sheet))
    return problems


# --- forfeits ---------------------------------------------------------------------------------


def forfeit_problems(g: Game) -> list[str]:
    concession = g.match.concession
    if concession is None:
        return []
    allowed = FORFEIT_KINDS[g.opts.forfeits]
    if concession.kind not in allowed:
        return [
            f"a '{concession.kind}' is not allowed: OBERWALD 3.7 forfeits in this league"
            f" ({g.opts.forfeits}) allow {', '.join(allowed) or 'none'}"
        ]
    forfeiter = next(s for s in g.sides() if s.team == concession.team)
    if forfeiter.touchdowns >= opponent(g.match, forfeiter).touchdowns:
        return [
            f"{concession.team} forfeited: record the match with {concession.team} behind"
            " on touchdowns (the forfeit is a loss)"
        ]
    return []


# --- MVPs ---------------------------------------------------------------------------------------


def mvp_allowance(g: Game, sheet: TeamSheet) -> int:
    if g.match.kind == "unplayed" or "spp" in g.penalties(sheet.team):
        return 0
    ours, theirs = g.rating(sheet.team), g.rating(opponent(g.match, sheet).team)
    return g.t.mvps_per_team + handicap(g.t, g.opts.handicap, ours, theirs).mvps


def mvp_problems(g: Game, sheet: TeamSheet) -> list[str]:
    found = [
        f"{g.rows.player_name(p.player)} was given {p.mvps} MVPs: no player may receive more"
        " than 1 per match"
        for p in sheet.players
        if p.mvps > 1
    ]
    awarded, allowed = sum(p.mvps for p in sheet.players), mvp_allowance(g, sheet)
    if awarded > allowed:
        found.append(
            f"{g.rows.team_name(sheet.team)} awarded {plural(awarded, 'MVP')} where it may"
            f" award {allowed}"
            f" (one per team + the handicap's bonus MVPs, {g.opts.handicap})"
        )
    return found + [
        problem for p in sheet.players if p.mvps if (problem := ineligible(g, sheet, p.player))
    ]


def ineligible(g: Game, sheet: TeamSheet, player_id: str) -> str:
    hireling = next((h for h in sheet.hirelings if h.id == player_id), None)
    row = g.player(player_id)
    if (hireling is not None and hireling.kind == "star") or (
        row is not None and row.kind == "star"
    ):
        return f"{player_id} is a star player and cannot be given the MVP"
    if row is not None and (row.miss_next_game or row.status != "active"):
        return f"{row.name} took no part in the match and cannot be given the MVP"
    return ""


# --- freebooters ------------------------------------------------------------------------------


def freebooter_problems(g: Game, sheet: TeamSheet, team_list: TeamList, treasury: int) -> list[str]:
    roster = on_roster(g.players(sheet.team))
    found: list[str] = []
    for hireling in sheet.hirelings:
        if hireling.kind == "star":
            found += star_hireling_problems(g, sheet, team_list, roster, hireling)
        else:
            found += position_hireling_problems(g, sheet, team_list, roster, hireling)
    if (fees := unaffordable_hirelings(sheet, treasury)) is not None:
        found.append(
            f"the freebooters of {sheet.team} cost {fees:,} but its treasury holds {treasury:,}"
        )
    return found


def position_hireling_problems(
    g: Game, sheet: TeamSheet, team_list: TeamList, roster: Sequence[PlayerRow], h: Hireling
) -> list[str]:
    position = team_list.position(h.position or "")
    if position is None:
        return [f"freebooter {h.name} must play a position of the {team_list.name} list"]
    taken = taken_at(g, sheet, team_list, roster, position.id)
    if taken > position.max:
        return [
            f"freebooter {h.name} would be {taken} x {position.name} (at most {position.max}):"
            " only players who would normally play for the team may be freebooted"
        ]
    return []


def taken_at(
    g: Game, sheet: TeamSheet, team_list: TeamList, roster: Sequence[PlayerRow], position: str
) -> int:
    """Roster players, freebooters and (Alt (b)) stars at a position in this match."""
    on_roster = count_of(roster, team_list.id, position)
    booted = sum(1 for h in sheet.hirelings if h.kind != "star" and h.position == position)
    all_stars = stars.roster_stars(roster) + [
        h.star or "" for h in sheet.hirelings if h.kind == "star"
    ]
    counted = g.opts.star_positions == "counted"
    return (
        on_roster
        + booted
        + (stars.stars_as(star_table(), all_stars, team_list, position) if counted else 0)
    )


def star_hireling_problems(
    g: Game, sheet: TeamSheet, team_list: TeamList, roster: Sequence[PlayerRow], h: Hireling
) -> list[str]:
    star = star_table().get(h.star or "")
    if star is None:
        return [f"freebooted star {h.name} needs a known star id (star: ...)"]
    others = [x.star or "" for x in sheet.hirelings if x.kind == "star" and x.id != h.id]
    held = stars.roster_stars(roster) + others
    found = stars.star_problems(g.t, g.opts, star, team_list, held)
    found += stars.league_problems(g.opts, star, sheet.team, league_holders(g))
    position = star.counts_as.get(team_list.id)
    if position is not None and g.opts.star_positions == "counted":
        taken = taken_at(g, sheet, team_list, roster, position)
        found += stars.position_problems(g.opts, team_list, position, taken - 1, star.name)
    return found


def league_holders(g: Game) -> dict[str, str]:
    return stars.holders(g.rows.league_stars)


def roster_star_problems(g: Game, sheet: TeamSheet) -> list[str]:
    """Alt (c) of duplicates, for stars hired onto rosters: the first to hire him plays."""
    holders, found = league_holders(g), []
    for performance in sheet.players:
        row = g.player(performance.player)
        star = star_table().get(row.position) if row is not None and row.kind == "star" else None
        if star is not None:
            found += stars.league_problems(g.opts, star, sheet.team, holders)
    return found
