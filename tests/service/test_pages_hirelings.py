"""Hirelings on the pages of the demo league (BB2025): a submitted report names each
hireling's position and star as the edition prints them, not by their ids; a fixture's
form offers each side the stars its team induced for it."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from ledger.domain.log import league_id
from ledger.domain.state import MatchRow
from tests.service.conftest import LEAGUE, World, ledger_of, sign_in
from tests.service.test_api_team_writes import L, allowed
from tests.service.test_pages import one_short_of_eleven, submit_friendly
from tests.service.test_pages_close import scheduled_final


def test_a_submitted_report_names_the_hirelings_position_and_star(client: TestClient) -> None:
    one_short_of_eleven(client)
    reply = submit_friendly(
        client,
        **{
            "home-h1-name": "Jo Journey",
            "home-h1-kind": "journeyman",
            "home-h1-position": "lineman",
            "home-h2-name": "Griff",
            "home-h2-kind": "star",
            "home-h2-star": "griff_oberwald",
            "home-1-player": "home-h1",
            "home-1-td": "1",
            "home-0-td": "1",
        },
    )
    assert reply.status_code == 303, reply.text[-1500:]
    shown = html.unescape(client.get(reply.headers["location"]).text)
    assert "Jo Journey (journeyman: Human Lineman)" in shown
    assert "Griff (star: Griff Oberwald" in shown
    assert "griff_oberwald" not in shown


def star_options(page: str, side: str) -> list[str]:
    """The stars a side's first hireling row offers (none: the form asks no star)."""
    found = re.search(rf'<select class="star" name="{side}-h1-star".*?</select>', page, re.S)
    return re.findall(r'<option value="([a-z_]+)"', found.group(0)) if found else []


def test_a_fixtures_form_offers_the_stars_each_team_induced_for_it(
    client: TestClient, world: World
) -> None:
    """BB2025 Star Players are Inducements (seed 001, 'Inducements'): the fixture's form
    offers a side the stars its team bought for it, no other (``Ruleset.report_stars``)."""
    scheduled_final(client, world)
    sign_in(client, "commissioner")
    form = f"/leagues/{LEAGUE}/matches/s1-final-1/report"
    page = client.get(form).text
    assert star_options(page, "home") == star_options(page, "away") == []
    assert 'name="home-h1-kind"' in page  # journeymen and mercenaries are still asked
    bought = {"match": "s1-final-1", "items": {"cindy_piewhistle": 1}}
    allowed(client, world, "commissioner", f"{L}/teams/reikland-reavers/inducements", bought)
    page = client.get(form).text
    final = ledger_of(client).view().get(MatchRow, str(league_id(LEAGUE)), "s1-final-1")
    assert final is not None
    reavers = "home" if final.home == "reikland-reavers" else "away"
    rats = "away" if reavers == "home" else "home"
    assert star_options(page, reavers) == ["cindy_piewhistle"]
    assert star_options(page, rats) == []
