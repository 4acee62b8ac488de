"""The leaderboards page (``/leagues/{league}/leaders``, linked from the league home): each
board the API and ``ledger leaders`` read, ranked as they rank it, for whoever may read
the league (ledger/web/pages_leaders.py)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from ledger.projections.queries import STAT_COLUMNS
from ledger.web.pages_leaders import BOARDS
from tests.service.conftest import LEAGUE, World, sign_in

PAGE = f"/leagues/{LEAGUE}/leaders"


def rows_of(html: str) -> list[tuple[int, str, int]]:
    """Each board row as (place, player id, value)."""
    return [
        (int(rank), player, int(value))
        for rank, player, value in re.findall(
            r'<tr><td class="n">(\d+)</td>\s*<td><a href="/leagues/[^/]+/players/([^"]+)">'
            r'.*?<td class="n"><strong>(\d+)</strong>',
            html,
            re.S,
        )
    ]


def test_the_page_names_every_board_the_queries_rank() -> None:
    assert set(BOARDS) == set(STAT_COLUMNS)


@pytest.mark.parametrize("stat", sorted(STAT_COLUMNS))
def test_each_board_shows_the_players_the_api_ranks(
    client: TestClient, world: World, stat: str
) -> None:
    sign_in(client, "jay")
    shown = client.get(PAGE, params={"stat": stat})
    assert shown.status_code == 200, shown.text[-800:]
    api = client.get(
        f"/api/leagues/{LEAGUE}/leaders", params={"stat": stat}, headers=world.auth("jay")
    )
    expected = [(r["rank"], r["player_id"], r["value"]) for r in api.json()]
    assert rows_of(shown.text) == expected
    assert f'href="?stat={stat}" aria-current="page"' in shown.text


def test_the_spp_board_is_the_default_and_has_players_after_the_demo_season(
    client: TestClient,
) -> None:
    sign_in(client, "dan")
    rows = rows_of(client.get(PAGE).text)
    assert rows, "the demo league's matches earned SPP"
    assert [value for _, _, value in rows] == sorted((v for _, _, v in rows), reverse=True)
    assert rows[0][0] == 1


def test_the_league_home_links_the_leaders(client: TestClient) -> None:
    sign_in(client, "jay")
    assert f'href="{PAGE}"' in client.get(f"/leagues/{LEAGUE}").text


def test_an_unknown_board_or_limit_is_a_4xx_page_not_a_500(client: TestClient) -> None:
    sign_in(client, "jay")
    for params in ({"stat": "sacks"}, {"limit": "0"}, {"limit": "501"}):
        reply = client.get(PAGE, params=params)
        assert reply.status_code == 422, (params, reply.status_code)
        assert reply.headers["content-type"].startswith("text/html")


def test_a_members_only_leagues_leaders_ask_a_reader_to_sign_in(client: TestClient) -> None:
    reply = client.get(PAGE, follow_redirects=False)
    assert reply.status_code == 303
    assert reply.headers["location"] == f"/login?next={PAGE}"
    sign_in(client, "outsider")
    assert client.get(PAGE).status_code == 403
