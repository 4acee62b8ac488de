"""What ``ledger team hire`` takes beyond a position of the team's own list, through the
API as a coach sends it: a 4th edition ally (``from_list``) and secret weapon
(``equipment``, seed 002 MIXED RACE TEAMS and SECRET WEAPONS); a star hired for good is
the edition's to allow, and BB2025 refuses it (League Play, 'Hiring, Firing and
Temporarily Retiring', step 2) with nothing written."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import event_count, scripted

LEAGUE = "owl"


def served(tmp_path: Path, ruleset: str) -> Iterator[tuple[TestClient, str]]:
    """A league of an orc team and a dwarf team under ``ruleset``, served, with the orcs'
    coach (dan) signed in; yields the client and the session's CSRF token."""
    script = f"""league create {LEAGUE} --name "Old World League" --ruleset {ruleset}
team register orcs --name "The Gouged Eye" --coach Dan --roster orc
team register dwarfs --name "Dwarf Grudgebearers" --coach Steve --roster dwarf
team adjust orcs 300000 --reason "sponsors"
"""
    with scripted(tmp_path, LEAGUE, script, "dan") as signed_in:
        yield signed_in


@pytest.fixture
def gold(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    yield from served(tmp_path, "gold4")


@pytest.fixture
def bb2025(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    yield from served(tmp_path, "bb2025")


def hire(client: TestClient, csrf: str, body: Mapping[str, object]) -> dict[str, Any]:
    reply = client.post(
        f"/api/leagues/{LEAGUE}/teams/orcs/players", json=body, headers={"X-CSRF-Token": csrf}
    )
    return {"status": reply.status_code, **reply.json()}


def roster(client: TestClient) -> dict[str, dict[str, Any]]:
    team = client.get(f"/api/leagues/{LEAGUE}/teams/orcs").json()
    return {p["name"]: p for p in team["players"]}


def test_a_coach_hires_an_ally_from_the_allied_list(gold: tuple[TestClient, str]) -> None:
    client, csrf = gold
    done = hire(client, csrf, {"position": "troll", "name": "Grub", "from_list": "goblin"})
    assert done["status"] == 201, done
    grub = roster(client)["Grub"]
    assert (grub["roster"], grub["position"]) == ("goblin", "troll")


def test_an_ally_from_a_list_the_team_may_not_draw_on_is_refused(
    gold: tuple[TestClient, str],
) -> None:
    client, csrf = gold
    before = event_count(client)
    done = hire(client, csrf, {"position": "blitzer", "name": "Al", "from_list": "human"})
    assert (done["status"], done["code"]) == (409, "ally"), done
    assert "may not take human allies" in str(done["detail"])
    assert event_count(client) == before


def test_a_secret_weapon_is_bought_with_the_player(gold: tuple[TestClient, str]) -> None:
    client, csrf = gold
    body = {"position": "lineman", "name": "Sawbones", "equipment": ["chainsaw"]}
    done = hire(client, csrf, body)
    assert done["status"] == 201, done
    assert "Chainsaw" in roster(client)["Sawbones"]["skills"]


def test_bb2025_refuses_a_star_hired_for_good_and_writes_nothing(
    bb2025: tuple[TestClient, str],
) -> None:
    client, csrf = bb2025
    before = event_count(client)
    done = hire(client, csrf, {"position": "morg_n_thorg", "name": "Morg", "star": True})
    assert (done["status"], done["code"]) == (409, "star-hire"), done
    assert "never hired" in str(done["detail"])
    assert event_count(client) == before


@pytest.mark.parametrize(
    ("ruleset", "ogre"), [("lrb6", "ogre"), ("bb2020", "blocker"), ("bb2025", "blocker")]
)
def test_an_edition_without_allies_or_weapons_refuses_both_and_writes_nothing(
    tmp_path: Path, ruleset: str, ogre: str
) -> None:
    """Only gold4 has allies and secret weapons (its Allied Teams Table and SECRET
    WEAPONS); elsewhere a ``from_list`` or an ``equipment`` in the body is refused by the
    command (``rules.problems.beyond_the_list``), not merely left off the hire form."""
    for client, csrf in served(tmp_path, ruleset):
        before = event_count(client)
        ally = hire(client, csrf, {"position": ogre, "name": "Big", "from_list": "ogre"})
        assert (ally["status"], ally["code"]) == (409, "ally"), ally
        assert "may not take ogre allies" in str(ally["detail"])
        bomb = hire(client, csrf, {"position": "lineman", "name": "Boom", "equipment": ["bomb"]})
        assert (bomb["status"], bomb["code"]) == (409, "secret-weapon"), bomb
        assert event_count(client) == before
