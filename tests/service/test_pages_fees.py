"""Appearance fees from the web (4th edition, seed 002 'APPEARANCE FEES': "When a player
reaches 51 or more SPPs, he starts demanding an appearance fee in order to play"): the
fees page of a game to come, linked from the report form of a game without a fixture and
from a fixture's page, and the API's ``.../appearance-fees``; each the command ``ledger
match fees``, so a coach can field his star player without the command line.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.service.conftest import ledger_of, scripted
from tests.service.test_pages import csrf_in, error_beside, page_text, post

LEAGUE = "owl"
FEES = f"/leagues/{LEAGUE}/matches/m2/teams/reavers/fees"
FRIENDLY = "?home=reavers&away=grudge&kind=friendly"

SCRIPT = f"""league create {LEAGUE} --name "Old World League" --ruleset gold4
team register reavers --name "Reikland Reavers" --coach Jay --roster human
team register grudge --name "The Gouged Eye" --coach Steve --roster orc
team hire reavers lineman "Otto Brandt" --number 1
team hire reavers blitzer "Griff Junior" --number 2
team hire grudge lineman "Thorin Oakbeard" --number 1
match record f1.yaml --roll
"""

GRIFF_SCORES_17 = {
    "match": "f1",
    "kind": "friendly",
    "home": {"team": "reavers", "players": [{"player": "Griff Junior", "td": 17}]},
    "away": {"team": "grudge", "players": []},
}
"""17 touchdowns, 3 SPP each (seed 002): Griff has 51 SPP and asks a fee of 25,000 in a
Balanced league (the fee bands' first)."""


@pytest.fixture
def jay(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    """The gold4 league served, with jay (the Reavers' coach) signed in."""
    (tmp_path / "f1.yaml").write_text(yaml.safe_dump(GRIFF_SCORES_17))
    with scripted(tmp_path, LEAGUE, SCRIPT, "jay") as signed_in:
        yield signed_in


def treasury(client: TestClient) -> int:
    team = ledger_of(client).context(LEAGUE).team("reavers")
    return team.treasury


def test_the_report_form_links_the_fees_page_of_the_game_it_proposes(
    jay: tuple[TestClient, str],
) -> None:
    client, _ = jay
    form = client.get(f"/leagues/{LEAGUE}/report{FRIENDLY}")
    assert form.status_code == 200
    assert "pay the fees of Reikland Reavers" in page_text(form.text)
    assert f'href="{FEES}{FRIENDLY}"'.replace("&", "&amp;") in form.text
    # the page leads back to the report form of the same game, its id kept
    fees = client.get(FEES + FRIENDLY)
    assert fees.status_code == 200
    back = f"/leagues/{LEAGUE}/report{FRIENDLY}&match=m2".replace("&", "&amp;")
    assert f'href="{back}"' in fees.text
    assert client.get(f"/leagues/{LEAGUE}/report{FRIENDLY}&match=m2").status_code == 200


def test_a_coach_pays_his_star_player_s_fee_and_it_leaves_the_treasury(
    jay: tuple[TestClient, str],
) -> None:
    client, _ = jay
    shown = client.get(FEES)
    text = page_text(shown.text)
    assert "#2 Griff Junior 51 25,000" in text
    assert "Otto Brandt" not in text  # 0 SPP: he asks nothing
    before = treasury(client)
    griff = ledger_of(client).context(LEAGUE).player("Griff Junior", "reavers").player_id
    reply = post(client, FEES, {"csrf": csrf_in(shown.text), f"pay-{griff}": "1"})
    assert reply.status_code == 303, reply.text[-600:]
    assert treasury(client) == before - 25_000
    again = client.get(reply.headers["location"])
    assert "#2 Griff Junior 51 25,000 paid" in page_text(again.text)


def test_a_fee_paid_twice_or_nothing_ticked_is_refused_and_nothing_is_written(
    jay: tuple[TestClient, str],
) -> None:
    client, _ = jay
    csrf = csrf_in(client.get(FEES).text)
    before = treasury(client)
    nothing = post(client, FEES, {"csrf": csrf})
    assert nothing.status_code == 422
    assert "tick a player or name a freebooted star" in error_beside(nothing.text, "form")
    edited = post(client, FEES, {"csrf": csrf, "pay-p99": "1"})
    assert edited.status_code == 422
    assert "'p99' is not a player the form offers" in error_beside(edited.text, "form")
    half = post(client, FEES, {"csrf": csrf, "star-1": "home-h1"})
    assert "give home-h1's cost" in error_beside(half.text, "star-1-cost")
    assert treasury(client) == before


def test_a_freebooted_star_s_fee_is_reckoned_from_his_cost(jay: tuple[TestClient, str]) -> None:
    """4th edition Q&A: freebooted stars charge a fee; Zug's 120,000 counts as 120 SPP."""
    client, _ = jay
    csrf = csrf_in(client.get(FEES).text)
    before = treasury(client)
    reply = post(client, FEES, {"csrf": csrf, "star-1": "home-h1", "star-1-cost": "120000"})
    assert reply.status_code == 303, reply.text[-600:]
    assert treasury(client) == before - 50_000
    assert "Paid for this game: home-h1 50,000." in page_text(client.get(FEES).text)


def test_only_the_team_s_coach_pays_its_fees(tmp_path: Path) -> None:
    (tmp_path / "f1.yaml").write_text(yaml.safe_dump(GRIFF_SCORES_17))
    with scripted(tmp_path, LEAGUE, SCRIPT, "steve") as (client, csrf):
        assert client.get(FEES).status_code == 403
        assert post(client, FEES, {"csrf": csrf, "star-1": "x"}).status_code == 403
        form = client.get(f"/leagues/{LEAGUE}/report{FRIENDLY}")
        assert "pay the fees of The Gouged Eye" in page_text(form.text)
        assert "pay the fees of Reikland Reavers" not in page_text(form.text)


def test_a_recorded_match_takes_no_fees(jay: tuple[TestClient, str]) -> None:
    client, _ = jay
    reply = client.get(f"/leagues/{LEAGUE}/matches/f1/teams/reavers/fees")
    assert reply.status_code == 409
    assert "match f1 was recorded" in page_text(reply.text)


def test_the_api_pays_fees_as_the_command_does(jay: tuple[TestClient, str]) -> None:
    client, csrf = jay
    before = treasury(client)
    path = f"/api/leagues/{LEAGUE}/teams/reavers/appearance-fees"
    headers = {"X-CSRF-Token": csrf}
    paid = client.post(path, json={"match": "m2", "players": ["Griff Junior"]}, headers=headers)
    assert paid.status_code == 201, paid.text
    assert treasury(client) == before - 25_000
    twice = client.post(path, json={"match": "m2", "players": ["Griff Junior"]}, headers=headers)
    assert twice.status_code == 422
    assert "paid already" in twice.json()["detail"]
    empty = client.post(path, json={"match": "m2", "players": []}, headers=headers)
    assert empty.status_code == 422


def test_an_edition_without_fees_offers_no_fees_page(tmp_path: Path) -> None:
    script = SCRIPT.replace("gold4", "bb2020").replace("match record f1.yaml --roll\n", "")
    with scripted(tmp_path, LEAGUE, script, "jay") as (client, _):
        reply = client.get(FEES)
        assert reply.status_code == 409
        assert "appearance fees" in page_text(reply.text)
        form = client.get(f"/leagues/{LEAGUE}/report{FRIENDLY}")
        assert "pay the fees of" not in page_text(form.text)
