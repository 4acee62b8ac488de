"""A coach takes the team through the season's turn and a match's pre-game from the pages
(ledger/web/pages_redraft.py, pages_inducements.py): the re-draft once the season is
closed (seed 001 'Off-season and Re-drafting') and the inducements before a fixture
('Inducements'), each the command the CLI and the API run, recorded under the coach's
account; another coach may not; a refusal is shown beside its field and writes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import LEAGUE, World, event_count, scripted, sign_in
from tests.service.test_api_team_writes import L, allowed
from tests.service.test_pages import csrf_in, error_beside, last_event, post
from tests.service.test_pages_close import played_final, scheduled_final

TEAM = f"/leagues/{LEAGUE}/teams/reikland-reavers"
REDRAFT = f"{TEAM}/redraft"
MATCH = f"/leagues/{LEAGUE}/matches/s1-final-1"
INDUCE = f"{MATCH}/teams/reikland-reavers/inducements"
AGENT_FEE = 20_000
"""Seed 001 'Re-draft Team': Current Value + 20,000 for each previous season."""


def closed_season(client: TestClient, world: World) -> None:
    """The demo's season 1 played to its end: the final, both post-games, the close."""
    played_final(client, world)
    allowed(client, world, "commissioner", f"{L}/matches/s1-final-1/close", {"roll_missing": True})
    allowed(client, world, "commissioner", f"{L}/season/close", None)


def value_of(client: TestClient, world: World, player: str) -> int:
    roster = client.get(f"{L}/teams/reikland-reavers", headers=world.auth("jay")).json()
    value: int = next(p["value"] for p in roster["players"] if p["name"] == player)
    return value


def player_row(page: str, name: str) -> str:
    rows = re.findall(r"<tr>(.*?)</tr>", page, re.DOTALL)
    found = next((r for r in rows if re.search(rf"<label [^>]*>{name}\b", r)), None)
    assert found is not None, f"no row for {name}"
    return found


def keep_field(page: str, name: str) -> str:
    found = re.search(r'name="(keep-[^"]+)"', player_row(page, name))
    assert found
    return found.group(1)


# --- the re-draft ------------------------------------------------------------------------------


def test_a_coach_redrafts_the_team_once_the_season_is_closed(
    client: TestClient, world: World
) -> None:
    closed_season(client, world)
    sign_in(client, "jay")
    assert f'href="{REDRAFT}"' in client.get(TEAM).text
    form = client.get(REDRAFT)
    assert form.status_code == 200, form.text[-800:]
    assert "Re-draft Reikland Reavers for season 2" in form.text
    price = value_of(client, world, "Griff Junior") + AGENT_FEE  # he played season 1
    assert f'-price">{price:,}</td>' in player_row(form.text, "Griff Junior")
    keep = {keep_field(form.text, name): "1" for name in ("Griff Junior", "Hans Arm")}
    before = event_count(client)
    done = post(client, REDRAFT, {"csrf": csrf_in(form.text), **keep, "carry-reroll": "2"})
    assert done.status_code == 303, done.text[-800:]
    assert done.headers["location"] == TEAM
    redrafted = last_event(client)
    assert redrafted["topic"].endswith("TeamRedrafted")
    who = (redrafted["account"], redrafted["acting_as"], redrafted["via"])
    assert who == ("jay", "coach", "web")
    assert {p["item"] for p in redrafted["players"]} == {k.removeprefix("keep-") for k in keep}
    assert [(s["item"], s["count"]) for s in redrafted["kept"]] == [("reroll", 2)]
    assert event_count(client) == before + 1
    team = client.get(TEAM).text
    assert f'href="{REDRAFT}"' not in team  # once a season
    assert "Otto Brandt" not in team.split('id="roster"')[1].split("Former players")[0]


def test_the_rest_and_relaxation_rolls_are_asked_and_taken_as_rolled(
    client: TestClient, world: World
) -> None:
    """Bram of the Grudgebearers has a Niggling Injury: its recovery roll (a D6, 4+) is
    asked; without it, or the ledger's roll, the re-draft is refused beside the dice."""
    closed_season(client, world)
    sign_in(client, "steve")
    path = f"/leagues/{LEAGUE}/teams/grudgebearers/redraft"
    form = client.get(path).text
    field = re.search(r'name="(die-niggling_recovery-[^"]+)"', form)
    assert field, "the niggling recovery roll is not asked"
    assert "Bram: each niggling, 4+" in form
    before = event_count(client)
    anew = {"csrf": csrf_in(form), "rehire-none": "1"}
    refused = post(client, path, anew)
    assert refused.status_code == 422
    assert "niggling_recovery (1D6)" in error_beside(refused.text, "dice")
    assert "--roll" not in refused.text
    assert event_count(client) == before
    done = post(client, path, {**anew, field.group(1): "5"})
    assert done.status_code == 303, done.text[-800:]
    [roll] = last_event(client)["dice"]
    assert (roll["purpose"], roll["values"]) == ("niggling_recovery", [5])


def test_a_redraft_keeping_no_one_must_say_so(client: TestClient, world: World) -> None:
    """One click with nothing ticked would let the whole roster go: refused beside the
    players, unless 'Re-hire none of them' is ticked (and not beside a ticked player)."""
    closed_season(client, world)
    sign_in(client, "jay")
    path = f"/leagues/{LEAGUE}/teams/reikland-reavers/redraft"
    form = client.get(path).text
    assert 'name="rehire-none"' in form
    first = re.search(r'name="(keep-[^"]+)"', form)
    assert first is not None
    before = event_count(client)
    for extra, sentence in (
        ({}, "tick the players to re-hire, or 'Re-hire none of them' to draft anew"),
        ({first.group(1): "1", "rehire-none": "1"}, "and 'Re-hire none of them' too"),
    ):
        refused = post(client, path, {"csrf": csrf_in(form), **extra})
        assert refused.status_code == 422
        assert sentence in error_beside(refused.text, "keep")
    assert event_count(client) == before


def test_another_coach_may_not_redraft_the_team(client: TestClient, world: World) -> None:
    closed_season(client, world)
    sign_in(client, "dan")
    assert f'href="{REDRAFT}"' not in client.get(TEAM).text
    shown = client.get(REDRAFT)
    assert shown.status_code == 403
    assert "dan coaches The Gouged Eye, not Reikland Reavers" in shown.text
    csrf = csrf_in(client.get(f"/leagues/{LEAGUE}/teams/gouged-eye/redraft").text)
    before = event_count(client)
    assert post(client, REDRAFT, {"csrf": csrf}).status_code == 403
    assert event_count(client) == before


def test_a_redraft_without_its_csrf_token_is_refused(client: TestClient, world: World) -> None:
    closed_season(client, world)
    sign_in(client, "jay")
    before = event_count(client)
    for data in ({}, {"csrf": "forged"}):
        reply = post(client, REDRAFT, data)
        assert reply.status_code == 403, reply.text[-500:]
        assert "csrf" in reply.text
    assert event_count(client) == before


def test_carrying_more_than_the_team_holds_is_refused_beside_the_count(
    client: TestClient, world: World
) -> None:
    closed_season(client, world)
    sign_in(client, "jay")
    form = client.get(REDRAFT).text
    keep = keep_field(form, "Griff Junior")
    before = event_count(client)
    refused = post(client, REDRAFT, {"csrf": csrf_in(form), keep: "1", "carry-reroll": "9"})
    assert refused.status_code == 422
    assert "Reikland Reavers have 3 x Team Re-roll, not 9" in error_beside(
        refused.text, "carry-reroll"
    )
    assert 'value="9"' in refused.text  # the form as filled
    assert re.search(rf'name="{keep}" value="1" checked', refused.text)
    assert event_count(client) == before


@pytest.mark.parametrize(
    ("field", "beside", "says"),
    [
        ("keep-p999", "keep", "&#39;p999&#39; is not a player to re-hire the form offers"),
        ("carry-bribe", "form", "&#39;bribe&#39; is not an item to carry the form offers"),
        ("die-bogus-p1", "dice", "&#39;bogus-p1&#39; is not a roll the form offers"),
    ],
    ids=["player", "item", "roll"],
)
def test_a_player_or_item_the_form_does_not_offer_is_refused_not_ignored(
    client: TestClient, world: World, field: str, beside: str, says: str
) -> None:
    """An edited request: a re-draft that kept the offered player and dropped the other
    would not be what was sent."""
    closed_season(client, world)
    sign_in(client, "jay")
    form = client.get(REDRAFT).text
    before = event_count(client)
    sent = {"csrf": csrf_in(form), keep_field(form, "Griff Junior"): "1", field: "1"}
    refused = post(client, REDRAFT, sent)
    assert refused.status_code == 422, refused.text[-500:]
    assert says.replace("&#39;", "'") in error_beside(refused.text, beside)
    assert event_count(client) == before


def test_the_redraft_is_not_offered_while_the_season_is_open(client: TestClient) -> None:
    sign_in(client, "jay")
    assert "/redraft" not in client.get(TEAM).text
    refused = client.get(REDRAFT)
    assert refused.status_code == 409
    assert "re-drafting happens in the off-season: season 1 is still open" in refused.text


@pytest.fixture
def lrb6(tmp_path: Path) -> Iterator[TestClient]:
    """An LRB6 league (no re-drafts), with jay coaching the Reavers, signed in."""
    script = """league create owl --name "Old World League" --ruleset lrb6
team register reavers --name "Reikland Reavers" --coach Jay --roster human
team register grudge --name "The Gouged Eye" --coach Steve --roster orc
"""
    with scripted(tmp_path, "owl", script, "jay") as (client, _):
        yield client


def test_an_edition_without_redrafts_offers_none(lrb6: TestClient) -> None:
    team = lrb6.get("/leagues/owl/teams/reavers")
    assert team.status_code == 200
    assert "/redraft" not in team.text
    refused = lrb6.get("/leagues/owl/teams/reavers/redraft")
    assert refused.status_code == 409
    assert "leagues have no off-season re-drafts" in refused.text


# --- inducements -------------------------------------------------------------------------------


def test_a_coach_buys_inducements_from_the_match_page(client: TestClient, world: World) -> None:
    """The Reavers' CTV is the higher: they buy first, from the treasury; then the
    Scramblers' coach is offered the form, with their petty cash."""
    scheduled_final(client, world)
    sign_in(client, "jay")
    assert f'href="{INDUCE}"' in client.get(MATCH).text
    form = client.get(INDUCE)
    assert form.status_code == 200
    assert "Bribes" in form.text
    assert "higher CTV: treasury first" in form.text
    assert 'Griff Oberwald <span class="muted">(Star Player)</span>' in form.text
    before = event_count(client)
    done = post(client, INDUCE, {"csrf": csrf_in(form.text), "count-bribes": "1"})
    assert done.status_code == 303, done.text[-800:]
    assert done.headers["location"] == MATCH
    bought = last_event(client)
    assert bought["topic"].endswith("InducementsBought")
    assert (bought["account"], bought["acting_as"], bought["via"]) == ("jay", "coach", "web")
    assert [(p["item"], p.get("count", 1)) for p in bought["purchases"]] == [("bribes", 1)]
    assert event_count(client) == before + 1
    assert f'href="{INDUCE}"' not in client.get(MATCH).text  # bought once
    sign_in(client, "rob")
    rats = f"{MATCH}/teams/skavenblight-scramblers/inducements"
    assert f'href="{rats}"' in client.get(MATCH).text
    assert "petty cash" in client.get(rats).text


def test_the_side_that_buys_second_is_not_offered_the_form_first(
    client: TestClient, world: World
) -> None:
    scheduled_final(client, world)
    sign_in(client, "rob")
    assert "/inducements" not in client.get(MATCH).text
    refused = client.get(f"{MATCH}/teams/skavenblight-scramblers/inducements")
    assert refused.status_code == 409
    assert "buy their inducements first" in refused.text


def test_more_than_an_inducements_limit_or_one_not_offered_is_refused_beside_its_count(
    client: TestClient, world: World
) -> None:
    scheduled_final(client, world)
    sign_in(client, "jay")
    csrf = csrf_in(client.get(INDUCE).text)
    before = event_count(client)
    # an edited request: an item the form does not offer is refused, not ignored
    bogus = post(client, INDUCE, {"csrf": csrf, "count-bribes": "1", "count-bogus_item": "1"})
    assert bogus.status_code == 422
    said = error_beside(bogus.text, "form")
    assert said.startswith("'bogus_item' is not an inducement the form offers")
    refused = post(client, INDUCE, {"csrf": csrf, "count-bribes": "4"})
    assert refused.status_code == 422
    said = error_beside(refused.text, "count-bribes")
    assert said.endswith("4 x Bribes asked for; at most 3 invalid-input")
    over = post(client, INDUCE, {"csrf": csrf, "count-bribes": "3", "count-team_mascot": "1"})
    assert over.status_code == 409
    assert "may spend 0 petty cash and at most 145,000" in error_beside(over.text, "budget")
    assert event_count(client) == before


def test_another_coach_may_not_buy_the_teams_inducements(client: TestClient, world: World) -> None:
    scheduled_final(client, world)
    sign_in(client, "dan")
    assert client.get(INDUCE).status_code == 403
    before = event_count(client)
    csrf = csrf_in(client.get(f"/leagues/{LEAGUE}").text)
    assert post(client, INDUCE, {"csrf": csrf, "count-bribes": "1"}).status_code == 403
    assert event_count(client) == before


def test_a_played_match_offers_no_inducements(client: TestClient, world: World) -> None:
    played_final(client, world)
    sign_in(client, "jay")
    assert "/inducements" not in client.get(MATCH).text
    assert client.get(INDUCE).status_code == 404
