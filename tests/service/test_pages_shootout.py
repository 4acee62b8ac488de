"""A drawn play-off reported from the form: a play-off fixture's form asks the penalties
of the shoot-out after extra time, which decides who goes through (seed 001, Play-offs:
"every Play-off game will be played using the Extra Time and Penalties (if required)
rules"). A level play-off without them, or a shoot-out after a game that was not level,
is refused beside the penalties (ledger/rules/playoffs.py, ``shootout_problems``); a
friendly's form does not ask them."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ledger.domain.log import league_id
from ledger.domain.state import MatchRow
from tests.service.conftest import LEAGUE, World, event_count, ledger_of, sign_in
from tests.service.test_api_team_writes import L, allowed
from tests.service.test_pages import (
    GOUGED,
    HOME,
    REAVERS,
    csrf_in,
    error_beside,
    last_event,
    player_ids,
    post,
)
from tests.service.test_pages_close import scheduled_final

FORM = f"/leagues/{LEAGUE}/matches/s1-final-1/report"


def final_ready(client: TestClient, world: World) -> None:
    """The season's final drawn, each side's inducements settled."""
    scheduled_final(client, world)
    for team in ("reikland-reavers", "skavenblight-scramblers"):
        path = f"{L}/teams/{team}/inducements"
        allowed(client, world, "commissioner", path, {"match": "s1-final-1"})


def final_of(client: TestClient) -> MatchRow:
    view = ledger_of(client).view()
    return view.get(MatchRow, str(league_id(LEAGUE)), "s1-final-1")


def reported(client: TestClient, **fields: str) -> Any:
    csrf = csrf_in(client.get(FORM).text)
    base = {"csrf": csrf, "home-touchdowns": "0", "away-touchdowns": "0", "roll_missing": "1"}
    return post(client, FORM, {**base, **fields})


def test_a_play_off_form_asks_the_shoot_out_and_a_friendlys_does_not(
    client: TestClient, world: World
) -> None:
    final_ready(client, world)
    sign_in(client, "jay")
    assert "Extra time and penalties" in client.get(FORM).text
    friendly = client.get(f"{HOME}/report", params={"home": REAVERS, "away": GOUGED})
    assert "Extra time and penalties" not in friendly.text


def test_a_drawn_final_is_reported_with_its_shoot_out(client: TestClient, world: World) -> None:
    final_ready(client, world)
    sign_in(client, "jay")
    before = event_count(client)
    reply = reported(client, **{"shootout-home": "3", "shootout-away": "2"})
    assert reply.status_code == 303, reply.text[-1500:]
    assert event_count(client) == before + 1
    sent = last_event(client)["report"]
    assert (sent["shootout"]["penalties_home"], sent["shootout"]["penalties_away"]) == (3, 2)
    waiting = reply.headers["location"]
    assert waiting.startswith(f"/leagues/{LEAGUE}/submissions/")
    final = final_of(client)
    home, away = ("Reikland Reavers", "Skavenblight Scramblers")[
        :: 1 if final.home == REAVERS else -1
    ]
    penalties = f"penalties {home} 3-2 {away}"
    assert penalties in client.get(waiting).text.replace("<strong>", "")
    sign_in(client, "rob")  # the Scramblers' coach confirms it: the final is recorded
    csrf = csrf_in(client.get(waiting).text)
    assert post(client, f"{waiting}/confirm", {"csrf": csrf}).status_code == 303
    shown = client.get(f"/leagues/{LEAGUE}/matches/s1-final-1").text
    assert penalties in shown.replace("<strong>", "")
    winner = final.home
    league_page = client.get(f"/leagues/{LEAGUE}").text
    assert f'champion: <a href="/leagues/{LEAGUE}/teams/{winner}"' in league_page
    results = league_page.split('id="results"')[1]  # the level score says who went through
    assert f"{home} <strong>0&ndash;0</strong> {away}</a> <strong>won by {home}</strong>" in results


def test_a_drawn_final_without_its_shoot_out_is_refused_beside_the_penalties(
    client: TestClient, world: World
) -> None:
    final_ready(client, world)
    sign_in(client, "jay")
    before = event_count(client)
    reply = reported(client)
    assert reply.status_code == 422, reply.text[-1500:]
    assert "a play-off needs a winner" in error_beside(reply.text, "shootout")
    assert event_count(client) == before


def test_a_shoot_out_after_a_game_that_was_not_level_is_refused(
    client: TestClient, world: World
) -> None:
    final_ready(client, world)
    sign_in(client, "jay")
    before = event_count(client)
    side = "home" if final_of(client).home == REAVERS else "away"
    scored = {
        f"{side}-touchdowns": "1",
        f"{side}-0-player": player_ids(client, "Griff Junior")["Griff Junior"],
        f"{side}-0-td": "1",
    }
    reply = reported(client, **scored, **{"shootout-home": "1", "shootout-away": "0"})
    assert reply.status_code == 422, reply.text[-1500:]
    score = "1-0" if side == "home" else "0-1"
    said = error_beside(reply.text, "shootout")
    assert f"ended {score}: a shoot-out follows only a draw" in said
    assert event_count(client) == before


def test_penalties_that_are_not_a_number_are_refused_beside_their_field(
    client: TestClient, world: World
) -> None:
    final_ready(client, world)
    sign_in(client, "jay")
    reply = reported(client, **{"shootout-home": "three", "shootout-away": "2"})
    assert reply.status_code == 422
    assert "not 'three'" in error_beside(reply.text, "shootout-home")
