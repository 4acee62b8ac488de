"""The data of the TV and treasury charts: each team's figure at each step of the season.

The step of a round holds the figures recorded with each team's game of that round (the
team's history line at that game), so a team's line starts at its first game, after the
draft, rather than at its creation (TV 0, the starting treasury). The last step is the
end of the season: the team page's closing figures (teams.py ``closing``), so the chart
ends where the page's figures stand. The HTML draws these values; the Markdown gives them
as tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ledger.reports.model import MatchResult, SeasonReport, TeamPage


@dataclass(frozen=True)
class Step:
    """A point of the season on the TV and treasury charts: a round (or the play-offs),
    whose games are ``games``, ending with the event ``last``; or the season's end."""

    label: str
    name: str
    games: frozenset[str]
    last: int


END = 2**62


def season_steps(report: SeasonReport) -> list[Step]:
    """The rounds with a game played, the play-offs, then the end of the season; none
    before the season's first league game (friendlies alone are no season to follow)."""
    if not report.season.league_games_played:
        return []
    steps = [
        round_step(
            str(r.round) if r.round else r.label,
            f"round {r.round}" if r.round else r.label.lower(),
            r.matches,
        )
        for r in report.rounds
    ]
    steps.append(
        round_step("Play-offs", "play-offs", [m for s in report.playoffs for m in s.matches])
    )
    found = sorted((s for s in steps if s is not None), key=lambda s: s.last)
    return [*found, Step("End", "end of the season", frozenset(), END)] if found else []


def round_step(label: str, name: str, matches: Sequence[MatchResult]) -> Step | None:
    played = [m for m in matches if m.event is not None and m.status == "played"]
    if not played:
        return None
    last = max(m.event for m in played if m.event is not None)
    return Step(label, name, frozenset(m.match_id for m in played), last)


def figure_steps(team: TeamPage, figure: str, steps: Sequence[Step]) -> list[int | None]:
    """A team's ``figure`` ("rating" or "treasury") at each step: as recorded with its game
    of that round (so the first point is its first game, after the draft), else, once it
    has played, as it stood at the end of the step (a bye, the play-offs); at the season's
    end, the page's closing figure; nothing before its first game."""
    values: list[int | None] = []
    for step in steps:
        game = [getattr(h, figure) for h in team.history if h.match_id in step.games]
        played = any(v is not None for v in values)
        before = [getattr(h, figure) for h in team.history if h.event <= step.last]
        if step.last == END:
            values.append(getattr(team, figure) if played else None)
        else:
            values.append(game[0] if game else before[-1] if played and before else None)
    return values


def figure_table(report: SeasonReport, figure: str) -> list[tuple[str, list[int | None]]]:
    """(team, its ``figure`` at each of ``season_steps``) for every team of the season."""
    steps = season_steps(report)
    return [(t.name, figure_steps(t, figure, steps)) for t in report.teams]
