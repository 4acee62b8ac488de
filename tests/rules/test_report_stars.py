"""The stars a report form offers a team (``Ruleset.report_stars``) are exactly those the
edition's own check of a report lets it name, each on his own: BB2025 and BB2020 Star
Players are Inducements, bought for the fixture (seed 001, 'Inducements': the Star
Players of 'page 142', 0-2), who must play for the team's list (seed 001, 'Star Players':
each plays for the teams of the special rules he names), the partner of a pair coming
with him; a friendly takes any (its report is not checked for them). Editions that do
not narrow the list so answer None."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from ledger.domain.events import MatchRecorded
from ledger.domain.state import MatchRow, TeamRow
from ledger.domain.values import Hireling, TeamSheet
from ledger.rules import RULESETS, find_ruleset
from ledger.rules.bb2025.ruleset import BB2025
from ledger.rules.rows import MatchRows, TeamRows

ORCS = TeamRow.build(league_id="l", team_id="orcs", name="Orcs", coach="a", roster="orc")
HUMANS = TeamRow.build(league_id="l", team_id="men", name="Men", coach="b", roster="human")


def fixture(kind: str, purchases: Mapping[str, Mapping[str, int]]) -> MatchRow:
    row = MatchRow.build(league_id="l", match_id="m1", home="orcs", away="men", kind=kind)
    inducements = {team: {"purchases": dict(bought)} for team, bought in purchases.items()}
    return row.model_copy(update={"inducements": inducements})


def star_refused(edition: BB2025, row: MatchRow, team: TeamRow, star: str) -> bool:
    """Whether the edition's check refuses a report of ``row`` naming ``star`` alone as
    the team's star hireling (its price paid when induced: none on his line)."""
    line = Hireling(id="h1", name="Star", kind="star", star=star)
    sheet = TeamSheet(team=team.team_id, touchdowns=0, hirelings=(line,))
    other = TeamSheet(team="men" if team.team_id == "orcs" else "orcs", touchdowns=0)
    home, away = (sheet, other) if team.team_id == row.home else (other, sheet)
    match = MatchRecorded(match=row.match_id, kind=row.kind, home=home, away=away)
    rows = MatchRows(
        teams={t.team_id: TeamRows(team=t, players=()) for t in (ORCS, HUMANS)}, fixture=row
    )
    return bool(edition.star_problems(match, sheet, rows))


VARAG = ("varag_ghoul_chewer",)
CASES = [
    # (edition, kind, what each team bought, team, the stars offered)
    ("bb2025", "league", {}, ORCS, ()),
    ("bb2025", "league", {"orcs": {"morg_n_thorg": 1}}, ORCS, ("morg_n_thorg",)),
    ("bb2025", "league", {"orcs": {"morg_n_thorg": 1}}, HUMANS, ()),  # the other side's
    ("bb2025", "playoff", {"orcs": {"varag_ghoul_chewer": 1, "bribe": 2}}, ORCS, VARAG),
    ("bb2025", "league", {"men": {"grak": 1}}, HUMANS, ("crumbleberry", "grak")),  # a pair
    ("bb2025", "league", {"men": {"varag_ghoul_chewer": 1}}, HUMANS, ()),  # not a human's
    ("bb2025", "league", {"orcs": {"morg_n_thorg": 0}}, ORCS, ()),
    ("bb2020", "league", {"orcs": {"morg_n_thorg": 1}}, ORCS, ("morg_n_thorg",)),
]


@pytest.mark.parametrize(("edition", "kind", "bought", "team", "offered"), CASES)
def test_the_form_offers_the_stars_the_check_takes(
    edition: str,
    kind: str,
    bought: Mapping[str, Mapping[str, int]],
    team: TeamRow,
    offered: tuple[str, ...],
) -> None:
    ruleset = find_ruleset(edition)
    assert isinstance(ruleset, BB2025)
    row = fixture(kind, bought)
    assert ruleset.report_stars(row, team) == offered
    taken = {s for s in ruleset.catalogue.stars() if not star_refused(ruleset, row, team, s)}
    assert taken == set(offered)


def test_a_friendly_takes_any_star() -> None:
    assert find_ruleset("bb2025").report_stars(fixture("friendly", {}), ORCS) is None


@pytest.mark.parametrize(
    "edition", [c.id for c in RULESETS if not issubclass(c, BB2025)], ids=lambda e: e
)
def test_the_other_editions_do_not_narrow_the_list(edition: str) -> None:
    assert find_ruleset(edition).report_stars(fixture("league", {}), ORCS) is None
