"""The commissioner corrects a recorded match's report whole, from the report form filled
with the report as it stands (ledger/web/pages_correct_report.py): sent unchanged it
amends nothing; one fact changed, that fact alone is amended, with the reason, and the
match page shows the corrected game. A coach may not; a refusal is the form again with
the sentence, nothing written."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import World, event_count, sign_in
from tests.service.test_api_team_writes import L, allowed
from tests.service.test_pages import HOME, csrf_in, error_beside, last_event, page_text, post
from tests.service.test_pages_close import scheduled_final
from tests.service.test_pages_whatif import filled

MATCHES = (
    "r1-reavers-gouged-eye",
    "r1-scramblers-grudgebearers",
    "r2-reavers-scramblers",
    "r2-gouged-eye-grudgebearers",
    "r3-reavers-grudgebearers",
    "r3-gouged-eye-scramblers",
)


def path_of(match: str) -> str:
    return f"{HOME}/matches/{match}/correct"


def sent(client: TestClient, match: str, **changes: str) -> Any:
    """The correction form as the page fills it, ``changes`` made, sent as a browser does."""
    page = client.get(path_of(match))
    assert page.status_code == 200, page.text[-800:]
    fields = filled(page.text, path_of(match), **changes)
    named = {k for k, _ in fields}
    fields += [(k, v) for k, v in changes.items() if k not in named]  # the reason's textarea
    form = {"content-type": "application/x-www-form-urlencoded"}
    return client.post(
        path_of(match), content=urlencode(fields), headers=form, follow_redirects=False
    )


@pytest.mark.parametrize("match", MATCHES)
def test_a_report_sent_back_unchanged_amends_nothing(client: TestClient, match: str) -> None:
    """Every demo game's form, filled from its report, records it as it stands: the dead
    and the injured of that game are offered, each die is as recorded."""
    sign_in(client, "commissioner")
    before = event_count(client)
    reply = sent(client, match, reason="checking")
    assert reply.status_code == 422, reply.text[-1500:]
    assert "nothing to amend" in page_text(reply.text)
    assert event_count(client) == before


def test_one_fact_changed_is_amended_alone_with_the_reason(client: TestClient) -> None:
    sign_in(client, "commissioner")
    match = "r1-reavers-gouged-eye"
    html = client.get(path_of(match)).text
    assert "<h1>Correct the report:" in html
    assert 'name="roll_missing"' not in html
    reply = sent(client, match, **{"cas-0-cause": "foul", "reason": "the sheet said a foul"})
    assert reply.status_code == 303, reply.text[-1500:]
    assert reply.headers["location"] == f"{HOME}/matches/{match}?corrected=1"
    shown = client.get(reply.headers["location"]).text
    assert "The correction is recorded" in shown
    event = last_event(client)
    assert event["topic"].endswith("EventCorrected")
    assert (event["action"], event["reason"]) == ("amend", "the sheet said a foul")
    assert set(event["amendment"]) == {"casualties"}
    assert event["amendment"]["casualties"][0]["cause"] == "foul"


@pytest.mark.parametrize(
    ("changes", "field", "sentence"),
    [
        ({"reason": ""}, "reason", "a correction needs a reason"),
        ({"reason": "r", "home-touchdowns": "x"}, "home-touchdowns", "a whole number"),
    ],
)
def test_a_refused_correction_is_the_form_again_and_writes_nothing(
    client: TestClient, changes: dict[str, str], field: str, sentence: str
) -> None:
    sign_in(client, "commissioner")
    before = event_count(client)
    reply = sent(client, "r1-reavers-gouged-eye", **changes)
    assert reply.status_code == 422, reply.text[-800:]
    assert sentence in error_beside(reply.text, field)
    assert event_count(client) == before


def test_a_coach_may_not_and_an_unplayed_match_has_no_report_to_correct(
    client: TestClient, world: World
) -> None:
    sign_in(client, "jay")
    assert client.get(path_of(MATCHES[0])).status_code == 403
    assert f'href="{path_of(MATCHES[0])}"' not in client.get(f"{HOME}/matches/{MATCHES[0]}").text
    before = event_count(client)
    assert post(client, path_of(MATCHES[0]), {"reason": "mine"}).status_code == 403
    assert event_count(client) == before
    client.cookies.clear()
    sign_in(client, "commissioner")
    assert f'href="{path_of(MATCHES[0])}"' in client.get(f"{HOME}/matches/{MATCHES[0]}").text
    scheduled_final(client, world)
    unplayed = client.get(path_of("s1-final-1"))
    assert unplayed.status_code == 409
    assert "only a played match's report is corrected" in page_text(unplayed.text)
    assert client.get(path_of("no-such-match")).status_code == 404


def test_more_rows_is_the_correction_form_again_longer_and_writes_nothing(
    client: TestClient,
) -> None:
    sign_in(client, "commissioner")
    before = event_count(client)
    reply = sent(client, MATCHES[0], more="rows", **{"cas-0-cause": "foul"})
    assert reply.status_code == 200, reply.text[-800:]
    assert "<h1>Correct the report:" in reply.text
    assert 'id="cas-5-victim"' in reply.text  # four casualty rows before, more now
    assert '<option value="foul" selected>' in reply.text  # as filled
    assert event_count(client) == before


def test_the_events_correction_page_of_a_report_leads_to_its_whole_correction(
    client: TestClient,
) -> None:
    sign_in(client, "commissioner")
    report = client.get(f"{HOME}/events/64/correct").text
    assert f'href="{path_of(MATCHES[0])}"' in report
    other = client.get(f"{HOME}/events/3/correct").text  # a team's registration
    assert 'id="whole-report"' not in other


def test_a_casualty_added_without_its_roll_asks_for_the_roll_alone(client: TestClient) -> None:
    """The correction form has no box for the ledger to roll: the refusal does not offer it."""
    sign_in(client, "commissioner")
    html = client.get(path_of(MATCHES[4])).text  # r3: no casualty recorded
    victim = re.search(r'<option value="(p\d+)"', html.split('id="cas-0-victim"')[1])
    assert victim
    reply = sent(client, MATCHES[4], reason="missed one", **{"cas-0-victim": victim[1]})
    assert reply.status_code == 422, reply.text[-800:]
    said = page_text(reply.text)
    assert "enter the roll under “Casualty (D16)”" in said
    assert "Let the ledger roll" not in said


def test_a_game_of_a_closed_season_is_corrected_with_a_warning(
    client: TestClient, world: World
) -> None:
    allowed(client, world, "commissioner", f"{L}/season/close", {"without_playoffs": True})
    sign_in(client, "commissioner")
    html = client.get(path_of(MATCHES[0])).text
    assert 'id="closed-season"' in html
    assert "its champion and the prizes paid at its close follow" in page_text(html)


def test_a_game_of_an_open_season_has_no_such_warning(client: TestClient) -> None:
    sign_in(client, "commissioner")
    assert 'id="closed-season"' not in client.get(path_of(MATCHES[0])).text


def test_a_field_amended_on_the_events_page_lands_on_the_audit_saying_so(
    client: TestClient,
) -> None:
    sign_in(client, "commissioner")
    path = f"{HOME}/events/64/correct"
    csrf = csrf_in(client.get(path).text)
    fields = {"csrf": csrf, "action": "amend", "amendment": "weather=blizzard", "reason": "snow"}
    done = post(client, path, fields)
    assert done.status_code == 303, done.text[-800:]
    assert done.headers["location"] == f"{HOME}/audit?corrected=64#event-64"
    landed = page_text(client.get(done.headers["location"]).text)
    assert "The correction of event 64 is recorded" in landed
