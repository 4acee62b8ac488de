"""The Spike! long-term contracts' star draft over the API (seed 003, 'Long Term Contracts':
'Signing Star Players'): the commissioner sets the order, each team's coach signs a star
in the team's turn, and anyone who reads the league sees where the draft stands, with the
stars still unsigned ('Unsigned Star Players': "the League Commissioner should have a list
of these Star Players that is easily accessible to all coaches"). Every refusal writes
nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import event_count, scripted, sign_in

LEAGUE = "spike"
DRAFT = f"/api/leagues/{LEAGUE}/season/star-draft"
CONTRACTS = " -o star_player_contracts=true"
SCRIPT = f"""league create {LEAGUE} --name "Spike League" --ruleset bb2025{CONTRACTS}
team register orcs --name "The Gouged Eye" --coach Dan --roster orc
team register dwarfs --name "Dwarf Grudgebearers" --coach Steve --roster dwarf
team register humans --name "Reikland Reavers" --coach Jay --roster human
team register elves --name "Elfheim Eagles" --coach Ann --roster elven_union
season start --division "One=orcs,dwarfs,humans,elves"
"""


@pytest.fixture
def spike(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    """The league's first season started, its commissioner signed in."""
    with scripted(tmp_path, LEAGUE, SCRIPT, "commissioner") as signed_in:
        yield signed_in


def post(client: TestClient, csrf: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    reply = client.post(path, json=body, headers={"X-CSRF-Token": csrf})
    return {"status": reply.status_code, **reply.json()}


def sign(client: TestClient, csrf: str, team: str, star: str) -> dict[str, Any]:
    return post(client, csrf, f"/api/leagues/{LEAGUE}/teams/{team}/star", {"star": star})


def test_the_draft_runs_in_the_hat_draws_order(spike: tuple[TestClient, str]) -> None:
    client, csrf = spike
    before = client.get(DRAFT).json()
    assert (before["order"], before["next"], before["signable"]) == ([], None, [])
    assert "morg_n_thorg" in before["unsigned"]
    done = post(client, csrf, DRAFT, {"drawn": ["dwarfs", "orcs", "humans", "elves"]})
    assert (done["status"], done["order"]) == (201, ["dwarfs", "orcs", "humans", "elves"]), done
    draft = client.get(DRAFT).json()
    assert draft["next"] == "dwarfs"
    assert "grim_ironjaw" in draft["signable"]  # plays for dwarf teams
    assert "morg_n_thorg" in draft["signable"]  # plays for any team
    assert "varag_ghoul_chewer" not in draft["signable"]  # Badlands Brawl only

    client.cookies.clear()
    steve = sign_in(client, "steve")
    assert sign(client, steve, "dwarfs", "grim_ironjaw")["status"] == 201
    after = client.get(DRAFT).json()
    assert after["signed"] == {"dwarfs": "grim_ironjaw"}
    assert after["next"] == "orcs"
    assert "grim_ironjaw" not in after["unsigned"] + after["signable"]


def test_a_coach_signs_only_for_their_team_and_in_its_turn(spike: tuple[TestClient, str]) -> None:
    client, csrf = spike
    post(client, csrf, DRAFT, {"drawn": ["dwarfs", "orcs", "humans", "elves"]})
    client.cookies.clear()
    dan = sign_in(client, "dan")
    before = event_count(client)
    not_theirs = sign(client, dan, "dwarfs", "grim_ironjaw")
    assert not_theirs["status"] == 403, not_theirs
    not_yet = sign(client, dan, "orcs", "morg_n_thorg")
    assert (not_yet["status"], not_yet["code"]) == (409, "not-allowed"), not_yet
    assert "it is Dwarf Grudgebearers' turn to sign a star" in not_yet["detail"]
    ordering = post(client, dan, DRAFT, {})
    assert ordering["status"] == 403, ordering
    assert event_count(client) == before


@pytest.mark.parametrize(
    ("body", "status", "code", "words"),
    [
        ({"drawn": ["orcs", "humans"]}, 422, "invalid-input", "Elfheim Eagles is missing"),
        (
            {"drawn": ["orcs", "humans", "elves", "ogres"]},
            422,
            "invalid-input",
            "Dwarf Grudgebearers is missing; 'ogres' is not a team to draw",
        ),
        ({"drawn": "orcs"}, 422, None, None),
        ({"drawn": ["orcs", "dwarfs", "humans", "elves"], "reason": ""}, 422, None, None),
    ],
)
def test_a_bad_hat_draw_is_refused(
    spike: tuple[TestClient, str], body: dict[str, Any], status: int, code: str, words: str
) -> None:
    client, csrf = spike
    before = event_count(client)
    done = post(client, csrf, DRAFT, body)
    assert done["status"] == status, done
    if code:
        assert done["code"] == code, done
        assert words in done["detail"]
    assert event_count(client) == before


def test_the_order_is_set_once_and_the_ledger_may_draw_it(spike: tuple[TestClient, str]) -> None:
    client, csrf = spike
    drawn = post(client, csrf, DRAFT, {})
    assert drawn["status"] == 201, drawn
    assert sorted(drawn["order"]) == ["dwarfs", "elves", "humans", "orcs"]
    again = post(client, csrf, DRAFT, {})
    assert (again["status"], again["code"]) == (409, "season-state"), again


def test_an_unknown_or_taken_star_is_refused(spike: tuple[TestClient, str]) -> None:
    client, csrf = spike
    post(client, csrf, DRAFT, {"drawn": ["dwarfs", "orcs", "humans", "elves"]})
    before = event_count(client)
    unknown = sign(client, csrf, "dwarfs", "no_such_star")
    assert unknown["status"] == 404, unknown
    assert "no_such_star" in unknown["detail"]
    assert sign(client, csrf, "dwarfs", "morg_n_thorg")["status"] == 201
    taken = sign(client, csrf, "orcs", "morg_n_thorg")
    assert (taken["status"], taken["code"]) == (409, "not-allowed"), taken
    assert taken["detail"] == "Morg 'n' Thorg is signed to Dwarf Grudgebearers this season"
    assert event_count(client) == before + 1


def test_a_league_without_contracts_has_no_star_draft(tmp_path: Path) -> None:
    script = SCRIPT.replace(CONTRACTS, "")
    with scripted(tmp_path, LEAGUE, script, "commissioner") as (client, csrf):
        read = client.get(DRAFT)
        assert read.status_code == 409
        assert "long-term star contracts" in read.json()["detail"]
        before = event_count(client)
        assert post(client, csrf, DRAFT, {})["status"] == 409
        assert sign(client, csrf, "orcs", "morg_n_thorg")["status"] == 409
        assert event_count(client) == before
