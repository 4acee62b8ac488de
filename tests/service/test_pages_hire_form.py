"""The hire form as a commissioner drafting a team uses it: the shirt number is a number
within the event's own bounds (``PlayerHired.number``: 1 to 99), refused with a sentence
beyond them, never cut short; and a hire lands on the new player's page with a link to
hire the next one.

The league is the played demo league (conftest.py): jay coaches the Reikland Reavers, dan
The Gouged Eye.
"""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import event_count, sign_in
from tests.service.test_pages import HOME, REAVERS, error_beside, form_of, post

HIRE = f"{HOME}/teams/{REAVERS}/hire"


def number_field(html: str) -> str:
    found = re.search(r'<input id="number"[^>]*>', html)
    assert found, html[-1500:]
    return found.group(0)


def test_the_shirt_number_is_a_number_field_bounded_as_the_event_is(client: TestClient) -> None:
    sign_in(client, "jay")
    field = number_field(client.get(HIRE).text)
    assert 'type="number"' in field
    assert 'min="1"' in field
    assert 'max="99"' in field
    assert "maxlength" not in field  # "100" is not cut to "10"


@pytest.mark.parametrize("shirt", ["100", "0", "abc", "1e2"])
def test_a_shirt_number_out_of_bounds_is_refused_with_a_sentence_not_cut(
    client: TestClient, shirt: str
) -> None:
    sign_in(client, "jay")
    csrf = form_of(client, HIRE)
    before = event_count(client)
    fields = {"csrf": csrf, "position": "lineman", "name": "Hugo Web", "number": shirt}
    reply = post(client, HIRE, fields)
    assert reply.status_code == 422, reply.text[-800:]
    said = error_beside(reply.text, "number")
    assert said.startswith(f"a shirt number is a whole number from 1 to 99, not '{shirt}'")
    assert f'value="{shirt}"' in number_field(reply.text)  # kept as typed, to correct
    assert event_count(client) == before


def test_a_hire_lands_on_the_new_player_with_a_link_to_hire_another(client: TestClient) -> None:
    sign_in(client, "jay")
    csrf = form_of(client, HIRE)
    fields = {"csrf": csrf, "position": "lineman", "name": "Hugo Web", "number": "99"}
    reply = post(client, HIRE, fields)
    assert reply.status_code == 303, reply.text[-800:]
    landing = reply.headers["location"]
    assert re.fullmatch(rf"{HOME}/players/p\d+\?hired=1", landing)
    shown = client.get(landing).text
    assert "Hugo Web joined Reikland Reavers." in shown
    assert f'href="{HIRE}">Hire another player</a>' in shown
    assert "Hire another player" not in client.get(landing.split("?")[0]).text  # only after


def test_another_coach_following_the_landing_address_is_offered_no_hire(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    csrf = form_of(client, HIRE)
    reply = post(client, HIRE, {"csrf": csrf, "position": "lineman", "name": "Hugo Web"})
    landing = reply.headers["location"]
    client.cookies.clear()
    sign_in(client, "dan")
    shown = client.get(landing)
    assert shown.status_code == 200
    assert "Hire another player" not in shown.text
