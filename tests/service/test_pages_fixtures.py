"""A season's fixtures and results (``/leagues/{league}/fixtures``, linked from the league
home): its table, then every match by round, played or to play, each linking its page;
an earlier season by ``?season=`` (ledger/web/pages_fixtures.py)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.service.conftest import LEAGUE, World, sign_in
from tests.service.test_pages_close import scheduled_final

PAGE = f"/leagues/{LEAGUE}/fixtures"


def test_every_match_of_the_season_is_listed_by_round_with_its_score(
    client: TestClient, world: World
) -> None:
    sign_in(client, "jay")
    shown = client.get(PAGE)
    assert shown.status_code == 200, shown.text[-800:]
    api = client.get(
        f"/api/leagues/{LEAGUE}/matches", params={"season": 1}, headers=world.auth("jay")
    )
    matches = api.json()["items"]
    links = re.findall(rf'href="/leagues/{LEAGUE}/matches/([^"/]+)"', shown.text)
    assert links == [m["match_id"] for m in matches]  # the demo's round robin, in order
    assert len(links) == 6
    assert re.findall(r"<h3>(.*?)</h3>", shown.text) == ["Round 1", "Round 2", "Round 3"]
    for m in matches:
        assert f"<strong>{m['home_score']}&ndash;{m['away_score']}</strong>" in shown.text
    assert "<caption>Season 1" in shown.text
    assert "to play" not in shown.text


def test_a_scheduled_final_is_listed_to_play_under_its_stage(
    client: TestClient, world: World
) -> None:
    scheduled_final(client, world)
    sign_in(client, "jay")
    shown = client.get(PAGE).text
    assert re.findall(r"<h3>(.*?)</h3>", shown)[-1] == "Final"
    final = shown.split("<h3>Final</h3>")[1]
    assert "to play" in final
    assert f'href="/leagues/{LEAGUE}/matches/s1-final-1"' in final


def test_the_league_home_links_the_page(client: TestClient) -> None:
    sign_in(client, "jay")
    assert f'href="{PAGE}"' in client.get(f"/leagues/{LEAGUE}").text


def test_a_season_the_league_has_not_had_is_a_404_page_and_a_bad_number_a_422(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    missing = client.get(PAGE, params={"season": 7})
    assert missing.status_code == 404
    assert "league demo has no season 7" in missing.text
    assert client.get(PAGE, params={"season": 0}).status_code == 422
    assert client.get(PAGE, params={"season": 1}).status_code == 200


def test_a_members_only_league_asks_a_reader_to_sign_in(client: TestClient) -> None:
    reply = client.get(PAGE, follow_redirects=False)
    assert reply.status_code == 303
    assert reply.headers["location"] == f"/login?next={PAGE}"
