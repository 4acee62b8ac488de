"""After the game, as the pages show it: a player's SPP add up from the match page's
columns (casualties, and what else the edition pays for); the close form links what comes
first; a closed post-game says what it did, as the read models hold it; a player's page
offers an advancement only when the edition would let him take one.

The league is the played demo league under BB2025 (conftest.py): jay coaches the Reikland
Reavers. BB2025 pays 3 SPP a touchdown, 2 a casualty, 1 a completion, a superb throw or a
landing, 4 an MVP.
"""

from __future__ import annotations

import re
from html import unescape

from fastapi.testclient import TestClient

from tests.service.conftest import World, sign_in
from tests.service.test_api_team_writes import FINAL, L, allowed
from tests.service.test_pages import HOME, csrf_in, player_ids, post
from tests.service.test_pages_close import CLOSE, MATCH, scheduled_final

REAVERS = f"{HOME}/teams/reikland-reavers"
MINUS = "\N{MINUS SIGN}"


def cells(html: str, player: str) -> list[str]:
    """The cells of ``player``'s row in the match page's tables, tags stripped."""
    row = re.search(rf"<tr><td><a [^>]*>{player}</a></td>(.*?)</tr>", html, re.DOTALL)
    assert row, f"no row for {player}"
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row[1])]


def test_the_match_page_shows_the_casualties_a_player_caused_so_his_spp_add_up(
    client: TestClient,
) -> None:
    sign_in(client, "dan")
    html = client.get(f"{HOME}/matches/r1-reavers-gouged-eye").text
    assert '<abbr title="casualties caused that earn SPP">Cas</abbr>' in html
    # TD, Cmp, Int, Cas, MVP, SPP: 1 touchdown (3) and 1 casualty (2) are 5 SPP
    assert cells(html, "Griff Junior") == ["1", "0", "0", "1", "0", "5"]
    assert cells(html, "Grishnak") == ["0", "0", "0", "1", "0", "2"]
    assert ">Other</th>" not in html  # nobody threw, landed or deflected


def recorded_final(client: TestClient, world: World) -> None:
    """The final, 1-0 to the Scramblers: Throt completes a superb throw, Twitch lands it
    and scores. Fan Factor D3 2 and Dedicated Fans D6 4 a side: Fan Attendance (2 + 2) +
    (3 + 2) = 9, the winners' Dedicated Fans up by one, the losers' kept."""
    scheduled_final(client, world)
    for team in ("reikland-reavers", "skavenblight-scramblers"):
        allowed(
            client, world, "commissioner", f"{L}/teams/{team}/inducements", {"match": "s1-final-1"}
        )
    players = [
        {"player": "Throt", "comp": 1, "superb_throws": 1},
        {"player": "Twitch", "td": 1, "landings": 1},
    ]
    dice = {"fan_factor": 2, "dedicated_fans": 4}
    final = {
        **FINAL,
        "home": {**FINAL["home"], "players": players, "dice": dice},
        "away": {**FINAL["away"], "dice": dice},
    }
    allowed(client, world, "commissioner", f"{L}/matches", final, roll_missing=True)


def test_what_else_the_edition_pays_spp_for_is_shown_beside_the_game_line(
    client: TestClient, world: World
) -> None:
    recorded_final(client, world)
    sign_in(client, "rob")
    html = client.get(MATCH).text
    assert ">Other</th>" in html
    # TD, Cmp, Int, Cas, MVP, other, SPP
    assert cells(html, "Throt") == ["0", "1", "0", "0", "0", "1 superb throw", "2"]
    assert cells(html, "Twitch") == ["1", "0", "0", "0", "0", "1 landing", "4"]


def test_the_close_form_links_hiring_buying_and_the_players_who_may_spend_spp(
    client: TestClient, world: World
) -> None:
    recorded_final(client, world)
    sign_in(client, "jay")
    html = client.get(CLOSE).text
    for path in ("hire", "buy", "players/p1/advance"):
        assert f'href="{REAVERS}/{path}"' in html  # p1: Griff Junior, 9 SPP
    assert "Advance Griff Junior (9 SPP)" in html
    assert "Dieter Hammer" not in html  # no SPP to spend
    assert f'href="{REAVERS}">Reikland Reavers&#39; page</a>' in html


def post_game(html: str, team: str) -> str:
    """The post-game list under ``team``'s side of the match page, tags stripped."""
    side = html.split(f"<h3>{team}: ")[1]
    found = re.search(r'<ul class="post-game">(.*?)</ul>', side, re.DOTALL)
    assert found, side[:2000]
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", found[1]))).strip()


def test_a_closed_post_game_says_what_it_did_on_the_match_page(
    client: TestClient, world: World
) -> None:
    """BB2025 Expensive Mistakes: a 1 with 200,000 in the Reavers' treasury is a minor
    incident, D3 x 10,000 (the ruleset's note, read from the treasury line)."""
    recorded_final(client, world)
    sign_in(client, "jay")
    before = post_game(client.get(MATCH).text, "Reikland Reavers")
    assert before == (
        "Winnings: +55,000 — attendance 9 / 2 + 0 TD + 1 no stalling"
        " Fans: 2 → 2 (no change) Post-game sequence not closed yet"
    )
    assert before.endswith("Post-game sequence not closed yet")
    csrf = csrf_in(client.get(CLOSE).text)
    dice = {"die-expensive_mistakes": "1", "die-expensive_mistakes_amount": "2"}
    done = post(client, CLOSE, {"csrf": csrf, **dice})
    assert done.status_code == 303, done.text[-800:]
    shown = post_game(client.get(MATCH).text, "Reikland Reavers")
    mishap = f"Expensive mistake: {MINUS}20,000 — minor incident (rolled 1 with 200,000"
    assert mishap in shown
    assert re.search(r"Fans: 2 → 2 \(no change\) Post-game sequence closed \(event \d+\)$", shown)
    scramblers = post_game(client.get(MATCH).text, "Skavenblight Scramblers")
    assert "Fans: 3 → 4 (+1)" in scramblers
    assert scramblers.endswith("not closed yet")


def test_a_player_is_offered_an_advancement_only_when_the_edition_allows_one(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    ids = player_ids(client, "Griff Junior", "Dieter Hammer")
    spend = "Spend SPP: take an advancement"
    assert spend in client.get(f"{HOME}/players/{ids['Griff Junior']}").text  # 9 SPP
    assert spend not in client.get(f"{HOME}/players/{ids['Dieter Hammer']}").text  # 0 SPP
