"""A coach spends a player's SPP from a page (ledger/web/pages_advance.py), as ``ledger team
advance`` does: the kinds the edition prices, the skills the player may take, the dice
rolled at the table or by the ledger; recorded under the coach's account; refused beside
the field with the command's sentence; another coach may not. Under gold4 and LRB6 the
advancement is a Star Player Roll: its 2D6 decide what may be taken."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml
from fastapi.testclient import TestClient

from ledger.application.advance_rolls import choice_of, missing_rolls
from ledger.domain.events import PlayerAdvanced
from ledger.domain.log import league_id
from ledger.domain.state import TeamRow
from ledger.domain.values import DiceRoll
from ledger.rules import find_ruleset
from ledger.rules.asked import Advancing
from ledger.web import pages_reads as reads
from ledger.web.pages_advance_offers import Asking, dice_choice
from tests.rules.test_bb2020_s2_rules import blitzer as human_blitzer
from tests.service.conftest import (
    LEAGUE,
    World,
    event_count,
    ledger_of,
    scripted,
    sign_in,
)
from tests.service.test_api_team_writes import FINAL, L, allowed
from tests.service.test_pages import csrf_in, error_beside, form_of, last_event, page_text, post
from tests.service.test_pages_close import scheduled_final

HOME = f"/leagues/{LEAGUE}"
REAVERS = "reikland-reavers"


def roster(client: TestClient, team: str, league: str = LEAGUE) -> dict[str, dict[str, Any]]:
    found = client.get(f"/api/leagues/{league}/teams/{team}").json()
    return {p["name"]: p for p in found["players"]}


def advance_path(client: TestClient, team: str, name: str, league: str = LEAGUE) -> str:
    player = roster(client, team, league)[name]["player_id"]
    return f"/leagues/{league}/teams/{team}/players/{player}/advance"


def options(html: str, select: str) -> dict[str, str]:
    """A pick-list's options: value -> label (whitespace folded)."""
    body = re.search(rf'<select id="{select}"[^>]*>(.*?)</select>', html, re.DOTALL)
    assert body, f"no {select} pick-list"
    found = re.findall(r'<option value="([^"]*)"([^>]*)>(.*?)</option>', body.group(1), re.DOTALL)
    return {
        value: " ".join(label.split()) + (" [disabled]" if "disabled" in attrs else "")
        for value, attrs, label in found
    }


def group_of(html: str, skill: str) -> str:
    """The optgroup a skill is offered under."""
    for label, body in re.findall(r'<optgroup label="([^"]*)">(.*?)</optgroup>', html, re.DOTALL):
        if f'<option value="{skill}"' in body:
            return label
    return ""


# --- BB2025: the demo league ----------------------------------------------------------------


def test_the_form_prices_each_kind_and_offers_the_skills_the_player_may_take(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    html = client.get(advance_path(client, REAVERS, "Griff Junior")).text
    assert "<strong>9 SPP</strong> to spend" in html
    kinds = options(html, "kind")
    assert kinds["chosen_primary"] == "Chosen primary skill &mdash; 6 SPP"
    assert kinds["random_primary"] == "Random primary skill &mdash; 3 SPP"
    assert kinds["chosen_secondary"] == "Chosen secondary skill &mdash; 10 SPP, not now [disabled]"
    assert "random_secondary" not in kinds  # not on BB2025's Advancement Table
    assert "Griff Junior has 9 SPP; chosen secondary costs 10 as advancement 1" in html
    skills = options(html, "skill")
    assert skills["Dauntless"] == "Dauntless &mdash; +20,000 value"
    assert group_of(html, "Dauntless") == "Chosen primary skill (6 SPP)"
    assert group_of(html, "Dodge") == "Chosen secondary skill (10 SPP)"
    assert "Block" not in skills  # he has it
    assert 'name="die-characteristic"' in html
    assert "Characteristic roll (D8)" in html


def test_a_coach_advances_his_own_player_and_the_event_records_his_account(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    path = advance_path(client, REAVERS, "Griff Junior")
    csrf = form_of(client, path)
    reply = post(client, path, {"csrf": csrf, "kind": "chosen_primary", "skill": "Dauntless"})
    assert reply.status_code == 303, reply.text[-800:]
    taken = last_event(client)
    assert taken["topic"].endswith("PlayerAdvanced")
    assert (taken["kind"], taken["skill"]) == ("chosen_primary", "Dauntless")
    assert (taken["account"], taken["acting_as"], taken["via"]) == ("jay", "coach", "web")
    griff = roster(client, REAVERS)["Griff Junior"]
    assert griff["spp"] == 3  # 9 less the 6 a chosen primary skill costs, as the CLI spends
    assert "Dauntless" in griff["skills"]
    assert "Dauntless" in client.get(reply.headers["location"]).text


def test_the_player_page_links_the_form_for_those_who_may_advance_him(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    path = advance_path(client, REAVERS, "Griff Junior")
    player_page = path.replace(f"/teams/{REAVERS}", "").removesuffix("/advance")
    assert f'href="{path}"' in client.get(player_page).text
    sign_in(client, "dan")
    assert "/advance" not in client.get(player_page).text


def test_another_coach_gets_a_403_page_and_nothing_is_written(client: TestClient) -> None:
    sign_in(client, "dan")
    path = advance_path(client, REAVERS, "Griff Junior")
    shown = client.get(path)
    assert shown.status_code == 403
    assert "dan coaches The Gouged Eye, not Reikland Reavers" in shown.text
    csrf = form_of(client, advance_path(client, "gouged-eye", "Ugluk"))
    before = event_count(client)
    refused = post(client, path, {"csrf": csrf, "kind": "chosen_primary", "skill": "Dauntless"})
    assert refused.status_code == 403
    assert event_count(client) == before


def test_a_team_the_league_does_not_hold_is_not_found_not_refused(
    client: TestClient, world: World
) -> None:
    """A coach asking a team ``nope`` was told he coaches another (403): the address names
    nothing, so it is a 404, on the pages and in the API; a team that exists and is not
    his is still a 403."""
    sign_in(client, "jay")
    for path in ("/leagues/demo/teams/nope/hire", "/leagues/demo/teams/nope/players/p1/advance"):
        shown = client.get(path)
        assert shown.status_code == 404, path
        assert "no team &#39;nope&#39; in league Old World Demo League" in shown.text
        assert 'href="/leagues/demo">Back to Old World Demo League</a>' in shown.text
    api = client.post(
        "/api/leagues/demo/teams/nope/players",
        json={"position": "lineman", "name": "Joe"},
        headers=world.auth("jay"),
    )
    assert (api.status_code, api.json()["type"].rsplit("/", 1)[1]) == (404, "unknown-team")
    assert client.get("/leagues/demo/teams/gouged-eye/hire").status_code == 403


def test_a_form_without_its_csrf_token_is_refused_and_nothing_is_written(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    path = advance_path(client, REAVERS, "Griff Junior")
    before = event_count(client)
    for data in ({}, {"csrf": "forged"}):
        reply = post(client, path, {**data, "kind": "chosen_primary", "skill": "Dauntless"})
        assert reply.status_code == 403, reply.text[-500:]
        assert "csrf" in reply.text
    assert event_count(client) == before


def test_a_skill_he_may_not_take_or_cannot_pay_for_is_refused_beside_its_field(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    path = advance_path(client, REAVERS, "Griff Junior")
    csrf = form_of(client, path)
    before = event_count(client)
    agility = post(client, path, {"csrf": csrf, "kind": "chosen_primary", "skill": "Dodge"})
    assert agility.status_code == 409
    assert "Dodge (A) is not a primary skill for a Human Blitzer" in error_beside(
        agility.text, "skill"
    )
    assert 'value="Dodge" selected' in agility.text  # the form as filled
    dear = post(client, path, {"csrf": csrf, "kind": "chosen_secondary", "skill": "Dodge"})
    assert dear.status_code == 409
    assert "has 9 SPP; chosen secondary costs 10" in error_beside(dear.text, "kind")
    # said once, beside the choice, not again in the list of the kinds shown, not offered
    assert "<li>Chosen secondary skill: " not in dear.text
    assert "<li>Characteristic improvement: Griff Junior has 9 SPP" in dear.text
    bad_die = post(
        client,
        path,
        {"csrf": csrf, "kind": "characteristic", "characteristic": "ma", "die-characteristic": "9"},
    )
    assert bad_die.status_code == 422
    assert "D8" in error_beside(bad_die.text, "dice")
    assert event_count(client) == before


def test_a_random_skill_without_its_column_is_refused_beside_the_column(
    client: TestClient,
) -> None:
    """The sentence sat at the foot of the dice, four fields below the column it is
    about; the dice's own mistakes stay beside the dice."""
    sign_in(client, "jay")
    path = advance_path(client, REAVERS, "Griff Junior")
    csrf = form_of(client, path)
    before = event_count(client)
    unnamed = post(client, path, {"csrf": csrf, "kind": "random_primary", "roll_missing": "1"})
    assert "name its category" in error_beside(unnamed.text, "category")
    not_his = post(client, path, {"csrf": csrf, "kind": "random_primary", "category": "A"})
    assert "is rolled on G (General) or S (Strength), not on A" in error_beside(
        not_his.text, "category"
    )
    one_roll = {"kind": "random_primary", "category": "G", "die-random_skill-1": "1 2"}
    undiced = post(client, path, {"csrf": csrf, **one_roll})
    assert "Skill Table rolls" in error_beside(undiced.text, "dice")
    assert event_count(client) == before


def test_a_random_skill_offers_what_the_rolls_give_and_takes_the_same_dice_again(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    path = advance_path(client, REAVERS, "Griff Junior")
    csrf = form_of(client, path)
    rolls = {"kind": "random_primary", "category": "G", "die-random_skill-1": "1 2"}
    before = event_count(client)
    asked = post(client, path, {"csrf": csrf, **rolls, "die-random_skill-2": "1 3"})
    assert asked.status_code == 200  # the next step: no refusal, a choice
    assert "The dice give Dauntless or Fend: choose which Griff Junior takes" in asked.text
    assert 'class="problem"' not in asked.text
    assert skill_options(asked.text) == ["Dauntless", "Fend"]  # the list narrowed to them
    assert 'value="1 3"' in asked.text
    assert event_count(client) == before
    wrong = post(
        client, path, {"csrf": csrf, **rolls, "die-random_skill-2": "1 3", "skill": "Kick"}
    )
    assert wrong.status_code == 409
    assert "the rolls give Dauntless or Fend, not Kick" in error_beside(wrong.text, "skill")
    assert skill_options(wrong.text) == ["Dauntless", "Fend"]
    done = post(client, path, {"csrf": csrf, **rolls, "die-random_skill-2": "1 3", "skill": "Fend"})
    assert done.status_code == 303, done.text[-800:]
    taken = last_event(client)
    assert (taken["kind"], taken["skill"]) == ("random_primary", "Fend")
    assert [d["values"] for d in taken["dice"]] == [[1, 2], [1, 3]]
    assert {d.get("source", "table") for d in taken["dice"]} == {"table"}  # typed in
    assert roster(client, REAVERS)["Griff Junior"]["spp"] == 6  # a random primary: 3 SPP


def rolled_page(client: TestClient, path: str, data: dict[str, str]) -> str:
    """The form after the ledger's roll: it lands back on the form, at the roll."""
    sent = post(client, path, data)
    assert sent.status_code == 303, sent.text[-800:]
    assert sent.headers["location"] == f"{path}#rolled"
    return client.get(path).text


def test_the_ledger_rolls_the_dice_left_empty_and_records_the_roll_before_the_choice(
    client: TestClient,
) -> None:
    """Seen, the roll is recorded: the category cannot be changed for another whose
    skills the same dice would give (``advance_rolls``)."""
    ledger_of(client).dice_key = bytes(32)  # a known key: Griff's rolls offer a choice
    sign_in(client, "jay")
    path = advance_path(client, REAVERS, "Griff Junior")
    csrf = form_of(client, path)
    before = event_count(client)
    data = {"csrf": csrf, "kind": "random_primary", "category": "G", "roll_missing": "1"}
    shown = rolled_page(client, path, data)
    assert event_count(client) == before + 1
    roll = last_event(client)
    assert (roll["kind"], roll["category"], roll["account"]) == ("random_primary", "G", "jay")
    assert len(roll["dice"]) == 2
    assert {d["source"] for d in roll["dice"]} == {"ledger"}
    said = page_text(shown)
    rolled = "The ledger rolled for Griff Junior's random primary skill in category G (General):"
    assert rolled in said
    assert re.search(r"\(event \d+\)\. It gives \w", said)
    assert 'name="die-random_skill-1"' not in shown  # its dice stand: none to enter
    assert 'id="kind"' not in shown  # nor another kind to choose
    assert 'type="hidden" name="kind" value="random_primary"' in shown


def test_a_recorded_roll_is_taken_as_rolled_and_nothing_else_is(client: TestClient) -> None:
    """Asked again, the ledger's dice are the same (ledger/application/keyed_dice.py);
    once recorded, the roll is what the advancement is taken from: another column, or
    dice typed in, are refused and nothing is written."""
    ledger_of(client).dice_key = bytes(32)  # a known key: Griff's rolls offer a choice
    sign_in(client, "jay")
    path = advance_path(client, REAVERS, "Griff Junior")
    csrf = form_of(client, path)
    data = {"csrf": csrf, "kind": "random_primary", "category": "G", "roll_missing": "1"}
    shown = rolled_page(client, path, data)
    assert "random_skill 2,4 and 6,3" in page_text(shown)
    player = page_text(client.get(f"{HOME}/players/p1").text)
    assert "The ledger's roll for his next advancement waits to be taken (event" in player
    assert "random primary skill in category G (General)). Take the advancement rolled" in player
    offered = skill_options(shown)
    assert len(offered) == 2
    before = event_count(client)
    other = post(client, path, {"csrf": csrf, "kind": "random_primary", "category": "S"})
    assert other.status_code == 409, other.text[-800:]
    assert "taken from the ledger's roll" in page_text(other.text)
    typed = {"die-random_skill-1": "6 6", "die-random_skill-2": "6 5", "skill": offered[0]}
    retyped = post(client, path, {"csrf": csrf, "kind": "random_primary", "category": "G", **typed})
    assert retyped.status_code == 409
    assert "rolled already" in page_text(retyped.text)
    assert event_count(client) == before
    done = post(client, path, {"csrf": csrf, "kind": "random_primary", "category": "G",
                               "skill": offered[0]})  # fmt: skip
    assert done.status_code == 303, done.text[-800:]
    taken = last_event(client)
    assert taken["skill"] == offered[0]
    assert [(d["values"], d["source"]) for d in taken["dice"]] == [
        ([2, 4], "ledger"),
        ([6, 3], "ledger"),
    ]
    assert 'id="rolled"' not in client.get(path).text  # taken: no roll waits


def test_a_refusal_shows_no_die_the_ledger_rolled(client: TestClient) -> None:
    """Griff cannot pay for a characteristic improvement: shown with the refusal, the
    ledger's D8 would be known before his next advancement is chosen."""
    sign_in(client, "jay")
    path = advance_path(client, REAVERS, "Griff Junior")
    data = {"csrf": form_of(client, path), "kind": "characteristic", "roll_missing": "1"}
    before = event_count(client)
    refused = post(client, path, data)
    assert refused.status_code == 409, refused.text[-800:]
    assert re.search(r'name="die-characteristic" [^>]*value=""', refused.text)
    assert "The ledger rolled" not in refused.text
    assert event_count(client) == before


def test_the_ledger_rolls_again_past_a_skill_he_has_and_never_leaves_him_without_a_choice(
    client: TestClient,
) -> None:
    """With this key Griff's first two Skill Table rolls (4 4, 6 4) give Tackle, which he
    has: as at the table, the ledger rolls again (2 6: Pro, 1 4: Frenzy), and the page
    offers the first two he lacks (seed 001, 'Advancement Table')."""
    ledger_of(client).dice_key = bytes([2] * 32)
    sign_in(client, "jay")
    path = advance_path(client, REAVERS, "Griff Junior")
    csrf = form_of(client, path)
    data = {"csrf": csrf, "kind": "random_primary", "category": "G", "roll_missing": "1"}
    shown = rolled_page(client, path, data)
    assert "random_skill 4,4 and 6,4 and 2,6 and 1,4" in page_text(shown)
    assert "It gives Frenzy or Pro" in page_text(shown)  # the edition's skills in its order
    assert skill_options(shown) == ["Frenzy", "Pro"]
    done = post(client, path, {"csrf": csrf, "kind": "random_primary", "category": "G",
                               "skill": "Frenzy"})  # fmt: skip
    assert done.status_code == 303, done.text[-800:]
    assert done.headers["location"].endswith("/players/p1?advanced=1")
    said = page_text(client.get(done.headers["location"]).text)
    assert "Griff Junior took Frenzy" in said
    assert "SPP left to spend" in said
    taken = last_event(client)
    assert taken["skill"] == "Frenzy"
    assert [(d["values"], d["source"]) for d in taken["dice"]] == [
        ([4, 4], "ledger"),
        ([6, 4], "ledger"),
        ([2, 6], "ledger"),
        ([1, 4], "ledger"),
    ]


@pytest.mark.parametrize(
    ("ruleset", "rolls", "given"),
    [
        # BB2020 'New Skills': the first roll giving a skill he lacks (Block, G 1-3/1, he
        # has: rolled again), no choice; BB2025: one of the first two that give one
        ("bb2020", [(2, 1), (5, 5)], ("Tackle",)),
        ("bb2020", [(2, 1)], ()),
        ("bb2025", [(1, 2), (1, 3)], ("Dauntless", "Fend")),
        ("bb2025", [(1, 2)], ()),  # one roll: no choice yet
    ],
)
def test_what_the_dice_give_is_the_edition_s_answer(
    ruleset: str, rolls: list[tuple[int, int]], given: tuple[str, ...]
) -> None:
    edition = find_ruleset(ruleset)
    team = TeamRow(league_id="l", team_id="men", name="Men", coach="c", roster="human")
    asking = Asking(edition, human_blitzer(edition), team)
    dice = tuple(DiceRoll(purpose="random_skill", dice="2D6", values=r) for r in rolls)
    offered = dice_choice(asking, "random_primary", dice, "G")
    assert tuple(offer.name for offer in offered) == given
    assert dice_choice(asking, "chosen_primary", dice, "G") == ()


def skill_options(html: str) -> list[str]:
    """The skills the form's list offers (its first option, none chosen, aside)."""
    found = re.search(r'<select id="skill".*?</select>', html, re.S)
    assert found
    return re.findall(r'<option value="([^"]+)"', found.group(0))


def spike_scores_in_the_final(client: TestClient, world: World) -> None:
    scheduled_final(client, world)
    for team in (REAVERS, "skavenblight-scramblers"):
        allowed(
            client, world, "commissioner", f"{L}/teams/{team}/inducements", {"match": "s1-final-1"}
        )
    report = {**FINAL, "home": {**FINAL["home"], "players": [{"player": "Spike", "td": 1}]}}
    allowed(client, world, "commissioner", f"{L}/matches", report, roll_missing=True)


def test_the_close_page_links_the_players_who_must_advance_first(
    client: TestClient, world: World
) -> None:
    spike_scores_in_the_final(client, world)
    sign_in(client, "rob")
    close = f"{HOME}/matches/s1-final-1/teams/skavenblight-scramblers/close"
    path = advance_path(client, "skavenblight-scramblers", "Spike")
    page = client.get(close).text
    assert "An advancement must be taken first" in page
    assert f'href="{path}"' in page
    form = client.get(path).text
    primary = next(
        value for value in options(form, "skill") if group_of(form, value).startswith("Chosen p")
    )
    done = post(client, path, {"csrf": csrf_in(form), "kind": "chosen_primary", "skill": primary})
    assert done.status_code == 303, done.text[-800:]
    # his advancement no longer holds the close (his 10 SPP left may still be spent there)
    assert "An advancement must be taken first" not in client.get(close).text


# --- Star Player Rolls: gold4 and LRB6 ------------------------------------------------------

OWL = "owl"


@pytest.fixture(params=[("gold4", "longbeard"), ("lrb6", "blocker")], ids=["gold4", "lrb6"])
def rolled(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    """An orc blitzer, Ugluk, who scored twice in a friendly (6 SPP: a roll due), with
    the orcs' coach (dan) signed in; yields the client and the session's CSRF token."""
    ruleset, dwarf = request.param
    report = {
        "match": "f1",
        "kind": "friendly",
        "home": {"team": "orcs", "players": [{"player": "Ugluk", "td": 2}]},
        "away": {"team": "dwarfs"},
    }
    (tmp_path / "f1.yaml").write_text(yaml.safe_dump(report))
    lines = [*orcs_and_dwarfs(ruleset, dwarf), f"match record {tmp_path / 'f1.yaml'}"]
    with scripted(tmp_path, OWL, "\n".join(lines) + "\n", "dan") as signed_in:
        yield signed_in


def orcs_and_dwarfs(ruleset: str, dwarf: str) -> list[str]:
    """The script of a league of orcs (Ugluk, a blitzer, and ten linemen) and dwarfs
    (eleven of position ``dwarf``, paid for by sponsors)."""
    return [
        f'league create {OWL} --name "Old World League" --ruleset {ruleset}',
        'team register orcs --name "The Gouged Eye" --coach Dan --roster orc',
        'team register dwarfs --name "Dwarf Grudgebearers" --coach Steve --roster dwarf',
        'team adjust dwarfs 300000 --reason "sponsors"',
        "team hire orcs blitzer Ugluk",
        *(f'team hire orcs lineman "Orc {n}"' for n in range(1, 11)),
        *(f'team hire dwarfs {dwarf} "Dwarf {n}"' for n in range(1, 12)),
    ]


def last_event_of(client: TestClient, league: str) -> dict[str, Any]:
    stored = ledger_of(client).recorder.select_events(league_id(league), desc=True, limit=1)[0]
    state: dict[str, Any] = orjson.loads(stored.state)
    return state


def first_in(html: str, ending: str) -> str:
    """The first skill of the optgroup whose label ends so."""
    return next(v for v in options(html, "skill") if v and group_of(html, v).endswith(ending))


def test_a_star_player_roll_is_taken_with_its_2d6_and_a_skill_they_open(
    rolled: tuple[TestClient, str],
) -> None:
    client, csrf = rolled
    path = advance_path(client, "orcs", "Ugluk", OWL)
    form = client.get(path).text
    assert options(form, "kind") == {"star_roll": "Star Player Roll &mdash; no SPP spent"}
    assert 'name="die-star_roll"' in form
    normal, double = first_in(form, "gives a skill"), first_in(form, "on a double only")
    roll = {"csrf": csrf, "kind": "star_roll", "die-star_roll": "3 5"}
    before = event_count(client)
    closed = post(client, path, {**roll, "skill": double})
    assert closed.status_code == 409
    assert double in error_beside(closed.text, "skill")  # a roll of 8 is no double
    assert 'value="3 5"' in closed.text
    assert event_count(client) == before
    done = post(client, path, {**roll, "skill": normal})
    assert done.status_code == 303, done.text[-800:]
    taken = last_event_of(client, OWL)
    assert (taken["kind"], taken["skill"], taken["account"]) == ("star_roll", normal, "dan")
    assert normal in roster(client, "orcs", OWL)["Ugluk"]["skills"]
    again = post(client, path, {**roll, "skill": double})
    assert again.status_code == 409  # one roll for the one level reached
    assert "Ugluk" in error_beside(again.text, "kind")


def test_the_ledger_rolls_a_star_player_roll_left_empty_and_the_choice_takes_its_dice(
    rolled: tuple[TestClient, str],
) -> None:
    """The command rolls it (``advance_rolls.star_rolls``), the same dice on every try: sent
    without a choice, it is refused beside the skill, naming the dice and what they give;
    sent again with one, those dice are recorded as the ledger's."""
    client, csrf = rolled
    path = advance_path(client, "orcs", "Ugluk", OWL)
    asked = {"csrf": csrf, "kind": "star_roll", "roll_missing": "1"}
    before = event_count(client)
    refused = post(client, path, asked)
    assert refused.status_code == 409, refused.text[-800:]
    said = error_beside(refused.text, "skill")
    assert "the ledger's Star Player Roll for Ugluk (star_roll " in said
    assert event_count(client) == before
    assert error_beside(post(client, path, asked).text, "skill") == said  # the same dice again
    first, second = re.findall(r"star_roll (\d),(\d)", said)[0]
    c = ledger_of(client).context(OWL)
    ugluk, orcs = c.player("Ugluk", "orcs"), c.team("orcs")
    keyed = c.advancement_dice(ugluk)
    assert keyed is not None
    bare = PlayerAdvanced(team="orcs", player=ugluk.player_id, kind="star_roll")
    rolled = bare.model_copy(update={"dice": missing_rolls(c, orcs, ugluk, bare, keyed)})
    gives = choice_of(c, orcs, ugluk, rolled)
    assert f"gives {gives.said()}: name what he takes" in said
    chosen = {"characteristic": gives.stats[0]} if gives.stats else {"skill": gives.skills[0]}
    done = post(client, path, {**asked, **chosen})
    assert done.status_code == 303, done.text[-800:]
    taken = last_event_of(client, OWL)
    assert taken["dice"] == [
        {
            "purpose": "star_roll",
            "dice": "2D6",
            "values": [int(first), int(second)],
            "subject": taken["player"],
            "source": "ledger",
        }
    ]


@pytest.fixture
def improved(tmp_path: Path) -> Iterator[TestClient]:
    """A BB2025 orc blitzer, Ugluk, who scored five times in a league game (15 SPP) and
    bought +1 MA with 14 of them; the orcs' coach (dan) signed in."""
    report = {
        "match": "f1",
        "home": {"team": "orcs", "players": [{"player": "Ugluk", "td": 5}]},
        "away": {"team": "dwarfs"},
    }
    (tmp_path / "f1.yaml").write_text(yaml.safe_dump(report))
    lines = [
        *orcs_and_dwarfs("bb2025", "lineman"),
        f"match record {tmp_path / 'f1.yaml'} --roll",
        "team advance orcs Ugluk characteristic --characteristic ma --die characteristic=8",
    ]
    with scripted(tmp_path, OWL, "\n".join(lines) + "\n", "dan") as (client, _):
        yield client


def test_a_characteristic_bought_shows_among_the_advancements_not_the_injuries(
    improved: TestClient,
) -> None:
    """A player's ``changes`` count improvements and injuries alike, +1 always better: the
    page lists under Injuries only what he lost for good."""
    player = roster(improved, "orcs", OWL)["Ugluk"]
    assert player["ma"] == 7  # an orc blitzer's 6, and the 1 he bought
    html = improved.get(f"/leagues/{OWL}/players/{player['player_id']}").text
    injuries = re.search(r'<h2 id="injuries">Injuries</h2>(.*?)</section>', html, re.DOTALL)
    assert injuries is not None
    assert "for good" not in injuries.group(1)
    assert '<p class="muted">None.</p>' in injuries.group(1)
    advancements = page_text(html.split('<h2 id="injuries">')[0])
    assert "+MA (characteristic, 14 SPP)" in advancements  # its cost beside it


@pytest.fixture
def scorer(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    """A BB2025 orc blitzer, Ugluk, who scored five times in a league game (15 SPP: a
    characteristic improvement's 14), no advancement taken; dan, the orcs' coach, signed
    in."""
    report = {
        "match": "f1",
        "home": {"team": "orcs", "players": [{"player": "Ugluk", "td": 5}]},
        "away": {"team": "dwarfs"},
    }
    (tmp_path / "f1.yaml").write_text(yaml.safe_dump(report))
    lines = [*orcs_and_dwarfs("bb2025", "lineman"), f"match record {tmp_path / 'f1.yaml'} --roll"]
    with scripted(tmp_path, OWL, "\n".join(lines) + "\n", "dan") as signed_in:
        yield signed_in


def test_a_characteristic_roll_offers_what_it_allows_or_a_skill_instead(
    scorer: tuple[TestClient, str],
) -> None:
    """Seed 001, 'Characteristic Improvements': the D8 rolled, he takes a characteristic
    it allows, or a skill instead, the characteristic's SPP spent all the same."""
    client, csrf = scorer
    ugluk = roster(client, "orcs", OWL)["Ugluk"]["player_id"]
    path = f"/leagues/{OWL}/teams/orcs/players/{ugluk}/advance"
    sent = post(client, path, {"csrf": csrf, "kind": "characteristic", "roll_missing": "1"})
    assert sent.status_code == 303, sent.text[-800:]
    roll = last_event_of(client, OWL)
    assert roll["kind"] == "characteristic"
    [d8] = roll["dice"]
    shown = client.get(path).text
    said = page_text(shown)
    assert f"characteristic improvement: characteristic {d8['values'][0]} (event" in said
    stats = re.findall(r'<option value="(ma|st|ag|pa|av)"', shown)
    assert stats  # those the D8 allows, as the edition reads it
    assert "Or a skill instead" in shown
    instead = skill_options(shown)[0]
    done = post(client, path, {"csrf": csrf, "kind": "characteristic", "skill": instead})
    assert done.status_code == 303, done.text[-800:]
    taken = last_event_of(client, OWL)
    assert (taken["kind"], taken["skill"], taken["dice"]) == ("characteristic", instead, [d8])
    assert roster(client, "orcs", OWL)["Ugluk"]["spp"] == 15 - 14


def test_a_characteristic_lost_for_good_shows_among_the_injuries(client: TestClient) -> None:
    """Twitch lost MA to a Lasting Injury in the demo season."""
    sign_in(client, "rob")
    player = roster(client, "skavenblight-scramblers")["Twitch"]
    html = client.get(f"{HOME}/players/{player['player_id']}").text
    injuries = re.search(r'<h2 id="injuries">Injuries</h2>(.*?)</section>', html, re.DOTALL)
    assert injuries is not None
    assert "<li>MA \u22121 for good</li>" in injuries.group(1)  # a minus sign


# --- gold4: traits apart from skills, no PA ---------------------------------------------------

TRAITS_ON_A_DOUBLE = "Star Player Roll: on a double only: traits, which must always be used"


@pytest.fixture
def blitzer(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    """A gold4 Human Blitzer (General and Strength skills), Rolf, who scored twice in a
    friendly (6 SPP: a roll due), with the humans' coach (dan) signed in."""
    report = {
        "match": "f1",
        "kind": "friendly",
        "home": {"team": "humans", "players": [{"player": "Rolf", "td": 2}]},
        "away": {"team": "dwarfs"},
    }
    (tmp_path / "f1.yaml").write_text(yaml.safe_dump(report))
    lines = [
        f'league create {OWL} --name "Old World League" --ruleset gold4',
        'team register humans --name "Altdorf Arrows" --coach Dan --roster human',
        'team register dwarfs --name "Dwarf Grudgebearers" --coach Steve --roster dwarf',
        'team adjust dwarfs 300000 --reason "sponsors"',
        "team hire humans blitzer Rolf",
        *(f'team hire humans lineman "Human {n}"' for n in range(1, 11)),
        *(f'team hire dwarfs longbeard "Dwarf {n}"' for n in range(1, 12)),
        f"match record {tmp_path / 'f1.yaml'}",
    ]
    with scripted(tmp_path, OWL, "\n".join(lines) + "\n", "dan") as signed_in:
        yield signed_in


def refusals(client: TestClient, name: str, dice: tuple[int, int], **choice: Any) -> list[str]:
    """What the gold4 rules say to Rolf's Star Player Roll of ``dice`` taken as ``choice``."""
    found = reads.open_league(ledger_of(client), OWL)
    player = roster(client, "humans", OWL)[name]["player_id"]
    event = PlayerAdvanced(
        team="humans",
        player=player,
        kind="star_roll",
        dice=(DiceRoll(purpose="star_roll", dice="2D6", values=dice),),
        **choice,
    )
    asked = Advancing(found.queries.player(player), found.queries.team("humans"), event)
    return [p.sentence for p in found.ruleset.problems(asked)]


def test_gold4_offers_a_double_s_traits_apart_and_only_those_the_rules_accept(
    blitzer: tuple[TestClient, str],
) -> None:
    """Seed 002, SKILLS AND TRAITS / Acquiring Traits: on a double a trait of his own
    categories (a Human Blitzer: General and Strength), never Physical (he cannot mutate),
    Daemonic or Regeneration. Negative traits are not excluded, so they are offered - but
    as traits, which "a player must follow" (Traits), not among the skills."""
    client, _ = blitzer
    html = client.get(advance_path(client, "humans", "Rolf", OWL)).text
    assert "<strong>6 SPP</strong> earned" in html  # no SPP are spent in gold4: none "to spend"
    assert "to spend" not in html
    offered = [s for s in options(html, "skill") if s]
    for trait in ("Stupid", "Wild Animal", "Take Root", "Always Hungry", "Off For A Bite"):
        assert group_of(html, trait).startswith(TRAITS_ON_A_DOUBLE), trait
    assert group_of(html, "Stand Firm").startswith(TRAITS_ON_A_DOUBLE)  # a Strength trait
    assert group_of(html, "Dodge") == "Star Player Roll: on a double only"  # Agility skill
    for refused in ("Bone-Head", "Stunty", "Regeneration", "Daemonic Aura", "Strong Arm"):
        assert refused not in offered
    for skill in offered:
        dice = (1, 2) if group_of(html, skill).endswith("gives a skill") else (1, 1)
        assert refusals(client, "Rolf", dice, skill=skill) == [], skill


def test_gold4_offers_no_pa_and_refuses_it_beside_the_characteristic(
    blitzer: tuple[TestClient, str],
) -> None:
    """Gold4 players have no PA (3rd edition profiles: MA ST AG AV); the Star Player table
    raises MA, AG or ST (10, 11, 12), and a Big Guy's double ST or AV."""
    client, csrf = blitzer
    path = advance_path(client, "humans", "Rolf", OWL)
    stats = options(client.get(path).text, "characteristic")
    assert [s for s in stats if s] == ["ma", "st", "ag"]  # a Blitzer's double gives none
    sent = {"csrf": csrf, "kind": "star_roll", "die-star_roll": "6 6", "characteristic": "pa"}
    before = event_count(client)
    reply = post(client, path, sent)
    assert reply.status_code == 409
    assert "gives ST, not +1 PA" in error_beside(reply.text, "characteristic")
    assert event_count(client) == before


def test_gold4_records_a_negative_trait_taken_on_a_double(
    blitzer: tuple[TestClient, str],
) -> None:
    """Acquiring Traits: "you may choose to let the player acquire a trait rather than
    picking 'any skill'"; Stupid is a General trait in the Skills and Trait Table."""
    client, csrf = blitzer
    path = advance_path(client, "humans", "Rolf", OWL)
    sent = {"csrf": csrf, "kind": "star_roll", "die-star_roll": "3 3", "skill": "Stupid"}
    assert post(client, path, sent).status_code == 303
    assert "Stupid" in roster(client, "humans", OWL)["Rolf"]["skills"]


def test_an_advancement_sent_without_its_kind_is_asked_for_it_in_words(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    path = advance_path(client, REAVERS, "Griff Junior")
    reply = post(client, path, {"csrf": form_of(client, path), "kind": ""})
    assert reply.status_code == 422
    said = error_beside(reply.text, "kind")
    assert said.startswith("choose the kind of advancement (Random primary skill, Chosen primary")
    assert "random_primary" not in said
    assert "not ''" not in said
