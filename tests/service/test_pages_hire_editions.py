"""The hire form offers what the league's books let a team hire, as the catalogue answers
it, and sends the choice to ``HirePlayer``: 4th edition allies and secret weapons (seed 002
MIXED RACE TEAMS, SECRET WEAPONS), star players hired for good (dz3: seed 004 'Star
Players'; lrb6-zal: ZAL 3f, from the second match), none of these under BB2025."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import event_count
from tests.service.test_api_hire_editions import LEAGUE, roster, served
from tests.service.test_pages import page_text

FORM = f"/leagues/{LEAGUE}/teams/orcs/hire"


@pytest.fixture(params=["gold4", "dz3", "lrb6-zal", "bb2025"])
def edition(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    yield from served(tmp_path, request.param)


def league(ruleset: str) -> Any:
    return pytest.mark.parametrize("edition", [ruleset], indirect=True)


def send(client: TestClient, csrf: str, **fields: str) -> Any:
    return client.post(FORM, data={"csrf": csrf, **fields}, follow_redirects=False)


def options(html: str) -> dict[str, str]:
    """The pick-list's options: value -> label."""
    found = re.findall(r'<option value="([^"]*)"[^>]*>\s*([^<]*?)\s*</option>', html)
    return dict(found)


@league("gold4")
def test_gold4_offers_allied_positions_by_list_and_hires_one(
    edition: tuple[TestClient, str],
) -> None:
    client, csrf = edition
    html = client.get(FORM).text
    assert '<optgroup label="Allies: Goblin (at most 1)">' in html
    assert "Allies: Human" not in html  # not on the Orc row of the Allied Teams Table
    troll = options(html)["ally:goblin:troll"]
    assert troll == "Troll (Goblin ally) &mdash; 100,000 gp, 1 more allowed"
    done = send(client, csrf, position="ally:goblin:troll", name="Grub")
    assert done.status_code == 303, done.text[-800:]
    grub = roster(client)["Grub"]
    assert (grub["roster"], grub["position"]) == ("goblin", "troll")
    page = client.get(FORM).text
    again = options(page)
    assert again["ally:goblin:goblin"].endswith("not now")  # one ally from each race
    refused = re.search(r'<ul class="hint" id="position-refused">(.*?)</ul>', page, re.S)
    assert refused is not None
    said = refused.group(1)  # with the command's sentence
    assert "Goblin (Goblin ally)" in said
    assert "already have a goblin ally (Grub): one ally from each allowed race" in said


@league("gold4")
def test_gold4_sells_a_secret_weapon_with_the_player(edition: tuple[TestClient, str]) -> None:
    client, csrf = edition
    html = client.get(FORM).text
    assert options(html)["chainsaw"] == "Chainsaw &mdash; 60,000 gp"
    done = send(client, csrf, position="lineman", name="Sawbones", equipment="chainsaw")
    assert done.status_code == 303, done.text[-800:]
    assert "Chainsaw" in roster(client)["Sawbones"]["skills"]


@league("gold4")
def test_a_second_armed_player_is_refused_beside_the_weapon_and_nothing_is_written(
    edition: tuple[TestClient, str],
) -> None:
    client, csrf = edition
    assert send(client, csrf, position="lineman", name="Saw", equipment="chainsaw").is_redirect
    before = event_count(client)
    shown = send(client, csrf, position="lineman", name="Saw Two", equipment="chainsaw")
    assert shown.status_code == 409
    assert re.search(
        r'id="equipment-error"[^>]*>[^<]*<code class="code"[^>]*>secret-weapon<', shown.text
    )
    assert 'value="chainsaw" selected' in shown.text  # the form as filled
    assert event_count(client) == before


@league("gold4")
def test_an_ally_of_a_list_the_team_may_not_draw_on_is_refused_beside_the_position(
    edition: tuple[TestClient, str],
) -> None:
    client, csrf = edition
    before = event_count(client)
    shown = send(client, csrf, position="ally:human:blitzer", name="Al")
    assert shown.status_code == 409
    assert re.search(r'id="position-error"[^>]*>[^<]*<code class="code"[^>]*>ally<', shown.text)
    assert "may not take human allies" in shown.text
    assert event_count(client) == before


@league("dz3")
def test_dz3_offers_the_stars_who_play_for_the_team_and_hires_one_for_good(
    edition: tuple[TestClient, str],
) -> None:
    client, csrf = edition
    html = client.get(FORM).text
    assert '<optgroup label="Star Players, hired for good">' in html
    offered = options(html)
    assert "star:morg_n_thorg" in offered  # plays for any team
    assert "star:griff_oberwald" not in offered  # Humans only
    done = send(client, csrf, position="star:morg_n_thorg", name="Morg")
    assert done.status_code == 303, done.text[-800:]
    stars = [p for p in roster(client).values() if p["kind"] == "star"]
    assert [(p["position"], p["name"]) for p in stars] == [("morg_n_thorg", "Morg")]


@league("dz3")
def test_a_star_hired_with_no_name_joins_under_his_own(edition: tuple[TestClient, str]) -> None:
    """The form says "A star player joins under his own name when this is left empty": the
    roster, the log and the treasury name him so, and none shows his id."""
    client, csrf = edition
    done = send(client, csrf, position="star:morg_n_thorg", name="")
    assert done.status_code == 303, done.text[-800:]
    assert roster(client)["Morg 'n' Thorg"]["kind"] == "star"
    history = page_text(client.get(done.headers["location"].split("?")[0]).text)
    assert "hired Morg 'n' Thorg (star) for" in history
    assert "morg_n_thorg" not in history


@league("lrb6-zal")
def test_zal_shows_its_stars_but_not_before_the_second_match_and_refuses_one_sent(
    edition: tuple[TestClient, str],
) -> None:
    client, csrf = edition
    html = client.get(FORM).text
    assert "Morg &#39;n&#39; Thorg &mdash;" in html or "Morg 'n' Thorg &mdash;" in html
    assert re.search(r'value="star:morg_n_thorg"[^>]* disabled', html)
    assert "second match onwards (ZAL 3f)" in html
    before = event_count(client)
    shown = send(client, csrf, position="star:morg_n_thorg", name="Morg")
    assert shown.status_code == 409
    assert re.search(
        r'id="position-error"[^>]*>[^<]*<code class="code"[^>]*>star-hire<', shown.text
    )
    assert event_count(client) == before


@league("bb2025")
def test_the_bb2025_form_offers_its_own_list_only(edition: tuple[TestClient, str]) -> None:
    client, _ = edition
    html = client.get(FORM).text
    assert "<optgroup" not in html
    assert not [v for v in options(html) if v.startswith(("ally:", "star:"))]
    assert 'name="equipment"' not in html
    assert options(html)["lineman"].startswith("Orc Lineman &mdash; 50,000 gp")
