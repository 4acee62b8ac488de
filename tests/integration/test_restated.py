"""A recorded match restated as its report file (ledger/application/restated.py) records
it exactly as it stands: sent back as a correction, there is nothing to amend. Over every
match of the demo (reports that name players by name and #number, dice of the table) and
of a generated league under each edition (the ledger's dice, hirelings, concessions);
and a correction that changes one fact amends that fact alone, the ledger's dice staying
the ledger's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.application.commands import CorrectMatch, RecordMatch
from ledger.application.reports import MatchReport
from ledger.application.restated import by_name, plain_names, report_of_match
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.demo import build_demo
from ledger.domain import events as ev
from ledger.domain.log import league_id
from ledger.domain.state import PlayerRow
from ledger.errors import InvalidInput
from ledger.generate import Spec, generate
from ledger.rules import REGISTRY
from tests.support import reavers_rats, report, two_team_league


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[LeagueLedger]:
    opened = open_ledger(Settings(sqlite_path=tmp_path / "ledger.db"))
    try:
        yield opened
    finally:
        close_ledger(opened)


def matches(ledger: LeagueLedger, slug: str) -> list[ev.MatchRecorded]:
    events = ledger.source.league_events(str(league_id(slug)))
    return [e for e in events if isinstance(e, ev.MatchRecorded)]


def restated(match: ev.MatchRecorded, names: dict[str, str] | None = None) -> MatchReport:
    report = report_of_match(match)
    return MatchReport.model_validate(by_name(report, names) if names else report)


def assert_nothing_to_amend(ledger: LeagueLedger, slug: str, named: bool = False) -> int:
    found = matches(ledger, slug)
    names = league_names(ledger, slug) if named else None
    for match in found:
        with pytest.raises(InvalidInput, match="nothing to amend"):
            ledger.handle(CorrectMatch(slug, match.seq, restated(match, names)), by="t", reason="r")
    return len(found)


def league_names(ledger: LeagueLedger, slug: str) -> dict[str, str]:
    everyone = list(ledger.view().select(PlayerRow, league_id=str(league_id(slug))))
    return plain_names(everyone, (p.player_id for p in everyone))


def test_every_demo_match_restated_records_it_as_it_stands(ledger: LeagueLedger) -> None:
    slug = build_demo(ledger)
    assert assert_nothing_to_amend(ledger, slug) >= 6


def test_every_demo_match_restated_by_name_records_it_as_it_stands(ledger: LeagueLedger) -> None:
    """As ``ledger match show --report`` prints it: players named, who died since too."""
    slug = build_demo(ledger)
    names = league_names(ledger, slug)
    assert {"Griff Junior", "Ugluk"} <= set(names.values())
    assert assert_nothing_to_amend(ledger, slug, named=True) >= 6


def test_a_name_two_players_share_or_that_reads_as_another_thing_stays_an_id() -> None:
    rows = [
        PlayerRow(
            league_id="l",
            team_id=team,
            player_id=pid,
            name=name,
            roster="human",
            position="lineman",
            ma=6,
            st=3,
            ag=3,
            av=9,
        )
        for team, pid, name in (
            ("a", "p1", "Griff"),
            ("b", "p2", "griff"),  # the same name on the other side: a casualty is ambiguous
            ("a", "p3", "#4"),
            ("a", "p4", "p9"),
            ("a", "p5", "Hans"),
        )
    ]
    assert plain_names(rows, ("p1", "p2", "p3", "p4", "p5", "p9")) == {"p5": "Hans"}


@pytest.mark.parametrize("ruleset", sorted(REGISTRY))
def test_every_generated_match_restated_records_it_as_it_stands(
    ledger: LeagueLedger, ruleset: str
) -> None:
    spec = Spec(teams=4, seasons=1, seed=5, ruleset=ruleset, division_size=4)
    generate(ledger, spec)
    assert assert_nothing_to_amend(ledger, spec.slug) >= 6
    assert assert_nothing_to_amend(ledger, spec.slug, named=True) >= 6


def test_a_restated_report_with_one_fact_changed_amends_that_fact_alone(
    sqlite_ledger: LeagueLedger,
) -> None:
    """The rats' post-game dice and the casualty's roll left to the ledger: restated, then
    the cause changed, only the casualty is amended and every die stays the ledger's."""
    slug = two_team_league(sqlite_ledger)
    game = reavers_rats()
    del game["away"]["dice"], game["casualties"][0]["roll"]
    sqlite_ledger.handle(RecordMatch(slug, report(game), roll_missing=True), by="t")
    match = matches(sqlite_ledger, slug)[-1]
    rolled = [*match.away.dice, *match.casualties[0].dice]
    assert rolled
    assert {d.source for d in rolled} == {"ledger"}
    restated_report = report_of_match(match)
    restated_report["casualties"][0]["cause"] = "foul"
    corrected = CorrectMatch(slug, match.seq, MatchReport.model_validate(restated_report))
    sqlite_ledger.handle(corrected, by="t", reason="the sheet said a foul")
    *_, correction = sqlite_ledger.source.league_events(str(league_id(slug)))
    assert isinstance(correction, ev.EventCorrected)
    assert set(correction.amendment) == {"casualties"}
    amended = correction.amendment["casualties"][0]
    assert amended["cause"] == "foul"
    assert amended["dice"] == [d.model_dump(mode="json") for d in match.casualties[0].dice]
