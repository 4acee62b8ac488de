"""A coach fires a player, temporarily retires one, or lets bought staff go from the pages
(ledger/web/pages_roster.py), as ``ledger team fire|retire|release`` do: recorded under the
coach's account; another coach may not; refused with the command's sentence and nothing
written; "Temporarily retire" only where the edition has it (BB2025), never under gold4 or
LRB6."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import LEAGUE, event_count, scripted, sign_in
from tests.service.test_pages import csrf_in, error_beside, form_of, last_event, page_text, post
from tests.service.test_pages_advance import last_event_of, roster

HOME = f"/leagues/{LEAGUE}"
REAVERS, SKAVEN = "reikland-reavers", "skavenblight-scramblers"


def player_id(client: TestClient, team: str, name: str, league: str = LEAGUE) -> str:
    found = client.get(f"/api/leagues/{league}/teams/{team}").json()
    players = [*found["players"], *found.get("former", [])]
    return str(next(p["player_id"] for p in players if p["name"] == name))


def move_path(client: TestClient, team: str, name: str, move: str, league: str = LEAGUE) -> str:
    return f"/leagues/{league}/teams/{team}/players/{player_id(client, team, name, league)}/{move}"


def player_page(client: TestClient, team: str, name: str, league: str = LEAGUE) -> str:
    return f"/leagues/{league}/players/{player_id(client, team, name, league)}"


def roster_table(html: str) -> str:
    """The team page's roster table (former players are listed after it)."""
    found = re.search(r'<table class="roster">(.*?)</table>', html, re.DOTALL)
    assert found, html[-1500:]
    return found.group(1)


def refused_here(html: str) -> str:
    """The command's sentence a confirmation page shows in place of its button."""
    found = re.search(r'<p class="problem" id="form-refused">(.*?)</p>', html, re.DOTALL)
    assert found, html[-1500:]
    return found.group(1).replace("&#39;", "'")


# --- firing ------------------------------------------------------------------------------------


def test_a_coach_fires_his_own_player_and_the_event_records_his_account(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    path = move_path(client, REAVERS, "Otto Brandt", "fire")
    assert f'href="{path}"' in client.get(player_page(client, REAVERS, "Otto Brandt")).text
    form = client.get(path).text
    assert "no gold comes back for him (the treasury stays 145,000)" in form
    assert "TV: 975,000 &rarr; <strong>925,000</strong>" in form  # his 50,000 off, as BB2025 counts
    done = post(client, path, {"csrf": csrf_in(form), "reason": "cut for a blitzer"})
    assert done.status_code == 303, done.text[-800:]
    assert done.headers["location"] == f"{HOME}/teams/{REAVERS}?done=1"
    fired = last_event(client)
    assert fired["topic"].endswith("PlayerFired")
    assert (fired["account"], fired["acting_as"], fired["via"]) == ("jay", "coach", "web")
    assert fired["reason"] == "cut for a blitzer"
    team_page = client.get(done.headers["location"]).text
    said = f"Recorded: Reikland Reavers fired Otto Brandt (event {fired['originator_version']})."
    assert said in page_text(team_page)  # what the form did, said where it lands
    sign_in(client, "dan")  # said to the account that did it only
    assert "Recorded:" not in client.get(done.headers["location"]).text
    sign_in(client, "jay")
    assert "Otto Brandt" not in roster_table(team_page)
    assert re.search(r"Otto Brandt</a> \([^)]*, fired\)", team_page)  # among the former
    assert "Otto Brandt" not in roster(client, REAVERS)


@pytest.mark.parametrize("account", ["commissioner", "admin"])
def test_the_commissioner_and_the_admin_may_fire_for_any_team(
    client: TestClient, account: str
) -> None:
    sign_in(client, account)
    path = move_path(client, "gouged-eye", "Gorgut", "fire")
    shown = client.get(player_page(client, "gouged-eye", "Gorgut")).text
    assert f'href="{path}"' in shown
    done = post(client, path, {"csrf": csrf_in(shown)})
    assert done.status_code == 303, done.text[-800:]
    assert (last_event(client)["account"], last_event(client)["acting_as"]) == (account, account)


def test_another_coach_gets_a_403_page_and_nothing_is_written(client: TestClient) -> None:
    sign_in(client, "dan")
    path = move_path(client, REAVERS, "Otto Brandt", "fire")
    assert "/fire" not in client.get(player_page(client, REAVERS, "Otto Brandt")).text
    shown = client.get(path)
    assert shown.status_code == 403
    assert "dan coaches The Gouged Eye, not Reikland Reavers" in shown.text
    csrf = form_of(client, move_path(client, "gouged-eye", "Ugluk", "fire"))
    before = event_count(client)
    for move in ("fire", "retire"):
        refused = post(client, path.replace("/fire", f"/{move}"), {"csrf": csrf})
        assert refused.status_code == 403, refused.text[-500:]
    assert post(client, f"{HOME}/teams/{REAVERS}/release", {"csrf": csrf}).status_code == 403
    assert event_count(client) == before


def test_a_move_page_for_another_teams_player_is_not_found(client: TestClient) -> None:
    """The path names the commissioner's team and a player of another: not a form the
    command would refuse once sent."""
    sign_in(client, "commissioner")
    ugluk = player_id(client, "gouged-eye", "Ugluk")
    for move in ("fire", "retire"):
        shown = client.get(f"{HOME}/teams/{REAVERS}/players/{ugluk}/{move}")
        assert shown.status_code == 404
        said = shown.text.replace("&#39;", "'")
        assert "Ugluk is a player of The Gouged Eye, not of Reikland Reavers" in said


def test_a_form_without_its_csrf_token_is_refused_and_nothing_is_written(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    path = move_path(client, REAVERS, "Otto Brandt", "fire")
    before = event_count(client)
    for data in ({}, {"csrf": "forged"}):
        for target in (path, f"{HOME}/teams/{REAVERS}/release"):
            reply = post(client, target, {**data, "release_item": "apothecary"})
            assert reply.status_code == 403, reply.text[-500:]
            assert "csrf" in reply.text
    assert event_count(client) == before


def test_the_commands_refusal_is_shown_on_the_page_and_nothing_is_written(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    dead = move_path(client, REAVERS, "Karl Vogt", "fire")
    assert "Roster changes" not in client.get(player_page(client, REAVERS, "Karl Vogt")).text
    csrf = form_of(client, move_path(client, REAVERS, "Otto Brandt", "fire"))
    before = event_count(client)
    gone = post(client, dead, {"csrf": csrf})
    assert gone.status_code == 409
    assert "Karl Vogt is no longer on the roster (dead)" in error_beside(gone.text, "form")
    ugluk = player_id(client, "gouged-eye", "Ugluk")
    theirs = post(client, f"{HOME}/teams/{REAVERS}/players/{ugluk}/fire", {"csrf": csrf})
    assert theirs.status_code == 404  # the form's page is no page of his
    assert "Ugluk is a player of The Gouged Eye" in theirs.text.replace("&#39;", "'")
    long = post(
        client,
        move_path(client, REAVERS, "Otto Brandt", "fire"),
        {"csrf": csrf, "reason": "x" * 1001},
    )
    assert long.status_code == 422
    assert "reason is 1,001 characters; at most 1,000" in error_beside(long.text, "reason")
    assert event_count(client) == before


def test_bb2025_never_leaves_fewer_than_11_to_play_and_the_pages_say_so_first(
    client: TestClient,
) -> None:
    """The Scramblers have 11 fit players (Skweek misses the next game): BB2025 'Hiring,
    Firing and Temporarily Retiring' refuses to fire any of them."""
    sign_in(client, "rob")
    path = move_path(client, SKAVEN, "Snikch", "fire")
    shown = client.get(player_page(client, SKAVEN, "Snikch")).text
    assert (
        "Fire: not now &mdash; firing Snikch would leave Skavenblight Scramblers with 10" in shown
    )
    assert f'href="{path}"' not in shown
    form = client.get(path).text
    assert "players eligible for the next game (at least 11)" in refused_here(form)
    assert '<button type="submit" class="danger">' not in form
    before = event_count(client)
    refused = post(client, path, {"csrf": csrf_in(form)})
    assert refused.status_code == 409
    assert error_beside(refused.text, "form").endswith(" too-few-players")
    assert event_count(client) == before


# --- temporarily retiring ----------------------------------------------------------------------


def test_bb2025_offers_to_retire_a_player_with_a_lasting_injury_and_records_it(
    client: TestClient,
) -> None:
    sign_in(client, "rob")
    path = move_path(client, SKAVEN, "Twitch", "retire")
    assert f'href="{path}"' in client.get(player_page(client, SKAVEN, "Twitch")).text
    form = client.get(path).text
    assert "TV: 1,000,000 &rarr; <strong>1,000,000</strong> (unchanged)" in form
    assert "CTV: 895,000 &rarr; <strong>845,000</strong>" in form  # out of CTV, not of TV
    done = post(client, path, {"csrf": csrf_in(form), "reason": "rests his knee"})
    assert done.status_code == 303, done.text[-800:]
    retired = last_event(client)
    assert retired["topic"].endswith("PlayerTemporarilyRetired")
    assert (retired["account"], retired["reason"]) == ("rob", "rests his knee")
    assert roster(client, SKAVEN)["Twitch"]["status"] == "retired"


def test_a_player_with_no_lasting_injury_is_shown_the_reason_not_the_button(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    path = move_path(client, REAVERS, "Otto Brandt", "retire")
    shown = client.get(player_page(client, REAVERS, "Otto Brandt")).text
    assert "Temporarily retire: not now &mdash; Otto Brandt has no Lasting Injury" in shown
    before = event_count(client)
    refused = post(client, path, {"csrf": csrf_in(shown)})
    assert refused.status_code == 409
    assert "only a player who suffered one may temporarily retire" in error_beside(
        refused.text, "form"
    )
    assert event_count(client) == before


OWL = "owl"


FIGURES = {"gold4": "TR", "lrb6": "TV"}


@pytest.fixture(params=sorted(FIGURES))
def older(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    """An orc team of an edition with no Temporarily Retiring, its coach (dan) signed in;
    yields the client and the edition's headline figure."""
    lines = [
        f'league create {OWL} --name "Old World League" --ruleset {request.param}',
        'team register orcs --name "The Gouged Eye" --coach Dan --roster orc',
        "team hire orcs blitzer Ugluk",
        *(f'team hire orcs lineman "Orc {n}"' for n in range(1, 11)),
    ]
    with scripted(tmp_path, OWL, "\n".join(lines) + "\n", "dan") as (client, _):
        yield client, FIGURES[request.param]


def test_an_edition_without_temporary_retirement_offers_firing_only(
    older: tuple[TestClient, str],
) -> None:
    client, figure = older
    shown = client.get(player_page(client, "orcs", "Orc 1", OWL)).text
    assert f'href="{move_path(client, "orcs", "Orc 1", "fire", OWL)}"' in shown
    assert "retire" not in shown.lower()
    retire = move_path(client, "orcs", "Orc 1", "retire", OWL)
    form = client.get(retire).text
    assert "leagues have no temporary retirement" in refused_here(form)
    before = event_count(client)
    assert post(client, retire, {"csrf": csrf_in(form)}).status_code == 409
    assert event_count(client) == before
    fire = move_path(client, "orcs", "Orc 1", "fire", OWL)
    assert f"{figure}: " in client.get(fire).text  # the edition's own figure
    assert post(client, fire, {"csrf": csrf_in(form)}).status_code == 303
    assert last_event_of(client, OWL)["account"] == "dan"


# --- letting staff go --------------------------------------------------------------------------


def release_options(html: str) -> dict[str, str]:
    body = re.search(r'<select id="release_item"[^>]*>(.*?)</select>', html, re.DOTALL)
    assert body, html[-1500:]
    found = re.findall(r'<option value="([^"]+)"([^>]*)>(.*?)</option>', body.group(1), re.DOTALL)
    return {
        v: " ".join(t.split()) + (" [disabled]" if "disabled" in a else "") for v, a, t in found
    }


def test_a_coach_lets_staff_go_from_the_buy_page(client: TestClient) -> None:
    sign_in(client, "jay")
    buy = f"{HOME}/teams/{REAVERS}/buy"
    form = client.get(buy).text
    held = release_options(form)
    assert held["apothecary"] == "Apothecary &mdash; 1 held"
    assert held["reroll"] == "Team Re-roll &mdash; 3 held, kept [disabled]"
    assert "team re-rolls cannot be removed from the roster once drafted" in form
    data = {"csrf": csrf_in(form), "release_item": "apothecary", "release_count": "1"}
    done = post(client, f"{HOME}/teams/{REAVERS}/release", {**data, "release_reason": "budget"})
    assert done.status_code == 303, done.text[-800:]
    released = last_event(client)
    assert released["topic"].endswith("SidelineReleased")
    assert (released["item"], released.get("count", 1)) == ("apothecary", 1)  # stored sparse
    assert released["account"] == "jay"
    assert released["reason"] == "budget"
    assert "apothecary" not in release_options(client.get(buy).text)


def test_letting_go_more_than_the_team_holds_is_refused_beside_the_count(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    csrf = form_of(client, f"{HOME}/teams/{REAVERS}/buy")
    before = event_count(client)
    data: dict[str, Any] = {"csrf": csrf, "release_item": "apothecary", "release_count": "2"}
    over = post(client, f"{HOME}/teams/{REAVERS}/release", data)
    assert over.status_code == 422, over.text[-800:]
    said = error_beside(over.text, "release_count")
    assert "Reikland Reavers have 1 x apothecary; cannot let 2 go" in said
    assert 'value="2"' in over.text  # the form as filled
    kept = post(client, f"{HOME}/teams/{REAVERS}/release", {**data, "release_item": "reroll"})
    assert kept.status_code == 409
    assert error_beside(kept.text, "release_item").endswith(" rerolls-kept")
    assert event_count(client) == before
