"""A player line on the report form asks every figure the league's edition pays SPP for:
besides touchdowns, completions, interceptions and MVP awards, BB2025's superb throws and
landings (seed 001's SPP table), BB2020's superb throws and deflections, ZAL's team-mate
throws; a coach could not record them from the form before (ledger/web/pages_report_form.py,
``line_stats``)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ledger.rules import find_ruleset
from ledger.web.pages_report_form import line_stats
from tests.service.conftest import event_count
from tests.service.test_pages import GOUGED, HOME, REAVERS, last_event, sign_in, submit_friendly

ASKED = {
    "bb2025": ["td", "comp", "int", "superb_throws", "landings", "mvp"],
    "bb2020": ["td", "comp", "int", "superb_throws", "deflections", "mvp"],
    "lrb6": ["td", "comp", "int", "mvp"],
    "lrb6-zal": ["td", "comp", "int", "throws", "mvp"],
    "gold4": ["td", "comp", "int", "mvp"],
    "dz3": ["td", "comp", "int", "mvp"],
}


@pytest.mark.parametrize("edition", sorted(ASKED))
def test_the_form_asks_the_figures_the_editions_spp_table_pays_for(edition: str) -> None:
    assert [s.key for s in line_stats(find_ruleset(edition))] == ASKED[edition]


def test_a_bb2025_form_has_columns_for_superb_throws_and_landings(client: TestClient) -> None:
    sign_in(client, "jay")
    form = client.get(f"{HOME}/report", params={"home": REAVERS, "away": GOUGED}).text
    assert 'name="home-0-superb_throws"' in form
    assert 'name="away-7-landings"' in form
    assert 'name="home-0-deflections"' not in form  # BB2020's, not paid in BB2025


def test_a_landing_and_a_superb_throw_reach_the_report(client: TestClient) -> None:
    before = event_count(client)
    reply = submit_friendly(client, **{"home-0-superb_throws": "1", "away-0-landings": "2"})
    assert reply.status_code == 303, reply.text[-1500:]
    assert event_count(client) == before + 1
    report = last_event(client)["report"]
    [griff] = report["home"]["players"]
    ugluk = report["away"]["players"][0]
    assert griff["superb_throws"] == 1
    assert ugluk["landings"] == 2


def test_a_figure_that_is_not_a_number_is_named_in_words_beside_its_cell(
    client: TestClient,
) -> None:
    reply = submit_friendly(client, **{"home-0-landings": "x"})
    assert reply.status_code == 422
    said = reply.text.replace("&#39;", "'")
    assert "home player line 1's landings is a whole number from 0 to 50, not 'x'" in said
    assert 'name="home-0-landings"' in said


@pytest.mark.parametrize(
    ("edition", "reads"),
    [("bb2025", True), ("bb2020", False), ("lrb6", False), ("gold4", False), ("dz3", False)],
)
def test_stalling_is_asked_only_where_the_edition_reads_it(edition: str, reads: bool) -> None:
    """Seed 001 'Record Outcome and Collect Winnings' adds 1 for not Stalling (BB2025);
    no other edition's winnings read it, so their form does not ask it."""
    assert find_ruleset(edition).reads_stalling is reads


def test_the_bb2025_form_asks_whether_a_team_stalled(client: TestClient) -> None:
    sign_in(client, "jay")
    form = client.get(f"{HOME}/report", params={"home": REAVERS, "away": GOUGED}).text
    assert 'name="home-stalled"' in form
