"""The star draft's page (ledger/web/pages_stars.py; seed 003, 'Long Term Contracts'): the
league's home names the step to the commissioner and the turn to its team's coach; the
commissioner sets the order, by the ledger's draw or the table's; the coach whose turn it
is signs from the stars the command would take; every reader sees the order and the
unsigned stars. A refusal is the page again with the command's sentence beside its field,
nothing written."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from ledger.domain.log import league_id
from tests.service.conftest import event_count, ledger_of, scripted, sign_in
from tests.service.test_api_star_draft import LEAGUE, SCRIPT
from tests.service.test_pages import csrf_in, error_beside, page_text, post

HOME = f"/leagues/{LEAGUE}"
PAGE = f"{HOME}/season/star-draft"


@pytest.fixture
def spike(tmp_path: Path) -> Iterator[TestClient]:
    """The league's first season started, its commissioner signed in."""
    with scripted(tmp_path, LEAGUE, SCRIPT, "commissioner") as (client, _):
        yield client


def last_event(client: TestClient) -> dict[str, Any]:
    """The newest stored event of the league."""
    stored = ledger_of(client).recorder.select_events(league_id(LEAGUE), desc=True, limit=1)[0]
    state: dict[str, Any] = orjson.loads(stored.state)
    return state


def as_account(client: TestClient, account: str) -> None:
    client.cookies.clear()
    sign_in(client, account)


def order_set(client: TestClient, drawn: list[str]) -> None:
    form = client.get(PAGE).text
    data = {"csrf": csrf_in(form), "draw": "table"}
    data.update({f"drawn-{n}": team for n, team in enumerate(drawn, start=1)})
    reply = post(client, PAGE, data)
    assert reply.status_code == 303, page_text(reply.text)[-600:]


def test_the_commissioner_sets_the_order_as_drawn_at_the_table(spike: TestClient) -> None:
    home = page_text(spike.get(HOME).text)
    assert "Set the star draft order" in home
    assert "Star draft" in home
    order_set(spike, ["elves", "orcs", "dwarfs", "humans"])
    stored = last_event(spike)
    assert stored["order"] == ["elves", "orcs", "dwarfs", "humans"]
    shown = page_text(spike.get(PAGE).text)
    assert "1 Elfheim Eagles signs now 2 The Gouged Eye waits" in shown
    assert "Set the star draft order" not in page_text(spike.get(HOME).text)


def test_the_ledger_draws_when_asked(spike: TestClient) -> None:
    form = spike.get(PAGE).text
    reply = post(spike, PAGE, {"csrf": csrf_in(form), "draw": "ledger", "reason": "at the pub"})
    assert reply.status_code == 303
    stored = last_event(spike)
    assert sorted(stored["order"]) == ["dwarfs", "elves", "humans", "orcs"]
    assert stored["reason"] == "at the pub"


@pytest.mark.parametrize(
    ("drawn", "sentence"),
    [
        (["elves", "orcs", "dwarfs", ""], "name the team drawn 4th"),
        (["elves", "orcs", "dwarfs", "dwarfs"], "Dwarf Grudgebearers is drawn twice"),
    ],
)
def test_a_bad_draw_is_said_beside_it(spike: TestClient, drawn: list[str], sentence: str) -> None:
    form = spike.get(PAGE).text
    data = {"csrf": csrf_in(form), "draw": "table"}
    data.update({f"drawn-{n}": team for n, team in enumerate(drawn, start=1)})
    before = event_count(spike)
    reply = post(spike, PAGE, data)
    assert reply.status_code in (409, 422)
    assert sentence in error_beside(reply.text, "drawn")
    assert 'value="dwarfs" selected' in reply.text  # the form as filled
    assert event_count(spike) == before


def test_the_coach_whose_turn_it_is_signs_from_the_stars_offered(spike: TestClient) -> None:
    order_set(spike, ["dwarfs", "orcs", "elves", "humans"])
    as_account(spike, "dan")  # the orcs' coach: not his turn yet
    assert "Sign a star for" not in spike.get(HOME).text
    assert 'name="star"' not in spike.get(PAGE).text
    as_account(spike, "steve")  # the dwarfs'
    assert "Sign a star for Dwarf Grudgebearers" in page_text(spike.get(HOME).text)
    page = spike.get(PAGE).text
    offered = re.findall(r'<option value="([a-z_]+)"', page)
    assert "grim_ironjaw" in offered
    assert "varag_ghoul_chewer" not in offered  # plays in the Badlands Brawl only
    data = {"csrf": csrf_in(page), "star": "grim_ironjaw"}
    reply = post(spike, f"{PAGE}/dwarfs", data)
    assert reply.status_code == 303
    assert reply.headers["location"] == PAGE
    assert (last_event(spike)["team"], last_event(spike)["star"]) == ("dwarfs", "grim_ironjaw")
    shown = page_text(spike.get(PAGE).text)
    assert "1 Dwarf Grudgebearers Grim Ironjaw" in shown
    assert "2 The Gouged Eye signs now" in shown
    unsigned = shown[shown.index("Unsigned Star Players") :]
    assert "Grim Ironjaw" not in unsigned
    assert "Morg 'n' Thorg" in unsigned


def test_a_refused_signing_is_said_beside_the_star(spike: TestClient) -> None:
    order_set(spike, ["dwarfs", "orcs", "elves", "humans"])
    page = spike.get(PAGE).text
    before = event_count(spike)
    for star, sentence in (("", "choose the star to sign"), ("no_such", "no_such")):
        reply = post(spike, f"{PAGE}/dwarfs", {"csrf": csrf_in(page), "star": star})
        assert reply.status_code in (404, 422)
        assert sentence in error_beside(reply.text, "star")
    assert event_count(spike) == before


def test_another_coach_may_not_sign_or_order(spike: TestClient) -> None:
    order_set(spike, ["dwarfs", "orcs", "elves", "humans"])
    as_account(spike, "dan")
    page = spike.get(PAGE).text
    before = event_count(spike)
    reply = post(spike, f"{PAGE}/dwarfs", {"csrf": csrf_in(page), "star": "grim_ironjaw"})
    assert reply.status_code == 403
    reply = post(spike, PAGE, {"csrf": csrf_in(page), "draw": "ledger"})
    assert reply.status_code == 403
    turn = post(spike, f"{PAGE}/orcs", {"csrf": csrf_in(page), "star": "morg_n_thorg"})
    assert turn.status_code == 409
    assert "it is Dwarf Grudgebearers' turn" in error_beside(turn.text, "star")
    assert event_count(spike) == before


def test_a_league_without_contracts_says_so(tmp_path: Path) -> None:
    script = SCRIPT.replace(" -o star_player_contracts=true", "")
    with scripted(tmp_path, LEAGUE, script, "commissioner") as (client, _):
        assert "Star draft" not in client.get(HOME).text
        shown = page_text(client.get(PAGE).text)
        assert "Not now: this league does not use long-term star contracts" in shown
