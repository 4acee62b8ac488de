"""A coach takes back the report their team submitted while it waits (a mistake seen after
sending it): the report's page offers *Withdraw this report* to its team's coach only;
withdrawn, it says so, nothing of it is recorded, and the form to correct and send it
again opens as for a rejected one. The API does the same (``POST .../withdraw``)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ledger.domain.values import MAX_TEXT
from tests.service.conftest import LEAGUE, World, event_count, sign_in
from tests.service.test_pages import csrf_in, error_beside, last_event, post, submit_friendly

WITHDRAW = "Withdraw this report"


def waiting_report(client: TestClient) -> str:
    """jay's friendly, submitted: its page."""
    sent = submit_friendly(client)
    assert sent.status_code == 303, sent.text[-800:]
    return str(sent.headers["location"])


def test_the_submitting_coach_withdraws_the_report_and_may_send_it_again(
    client: TestClient,
) -> None:
    page = waiting_report(client)
    shown = client.get(page).text
    assert WITHDRAW in shown
    before = event_count(client)
    why = {"reason": "  Griff's touchdown was Otto's  "}
    done = post(client, f"{page}/withdraw", {"csrf": csrf_in(shown), **why})
    assert done.status_code == 303, done.text[-800:]
    assert event_count(client) == before + 1
    event = last_event(client)
    assert event["topic"].endswith("ReportWithdrawn")
    assert (event["team"], event["account"]) == ("reikland-reavers", "jay")
    assert event["reason"] == "Griff's touchdown was Otto's"
    after = client.get(page).text.replace("&#39;", "'")
    assert "Withdrawn by Reikland Reavers: Griff's touchdown was Otto's" in after
    assert WITHDRAW not in after
    assert f"{page}/again" in after
    assert client.get(f"{page}/again").status_code == 200


def test_the_opposing_coach_is_not_offered_it_and_is_refused(client: TestClient) -> None:
    page = waiting_report(client)
    client.cookies.clear()
    sign_in(client, "dan")  # the Gouged Eye's coach: answers it, does not withdraw it
    shown = client.get(page).text
    assert WITHDRAW not in shown
    before = event_count(client)
    refused = post(client, f"{page}/withdraw", {"csrf": csrf_in(shown)})
    assert refused.status_code == 403
    assert event_count(client) == before


def test_a_report_answered_already_is_not_withdrawn(client: TestClient) -> None:
    page = waiting_report(client)
    form = client.get(page).text
    client.cookies.clear()
    sign_in(client, "dan")
    assert (
        post(client, f"{page}/confirm", {"csrf": csrf_in(client.get(page).text)}).status_code == 303
    )
    client.cookies.clear()
    csrf = sign_in(client, "jay")
    assert WITHDRAW not in client.get(page).text
    refused = post(client, f"{page}/withdraw", {"csrf": csrf})
    assert refused.status_code == 409
    assert "was already confirmed" in error_beside(refused.text, "withdraw")
    assert form  # the page as jay saw it before the answer


def test_the_api_withdraws_a_report_for_its_teams_coach_only(
    client: TestClient, world: World
) -> None:
    page = waiting_report(client)
    submission = page.rsplit("/", 1)[1]
    path = f"/api/leagues/{LEAGUE}/reports/{submission}/withdraw"
    assert client.post(path, headers=world.auth("dan")).status_code == 403
    done = client.post(path, json={"reason": "a wrong scorer"}, headers=world.auth("jay"))
    assert done.status_code == 201, done.text
    row = client.get(f"/api/leagues/{LEAGUE}/reports/{submission}", headers=world.auth("jay"))
    assert (row.json()["status"], row.json()["rejection"]) == ("withdrawn", "a wrong scorer")
    listed = client.get(
        f"/api/leagues/{LEAGUE}/reports", params={"status": "withdrawn"}, headers=world.auth("jay")
    )
    assert [r["submission"] for r in listed.json()["items"]] == [submission]
    again = client.post(path, headers=world.auth("jay"))
    assert again.status_code == 409
    assert "was withdrawn" in again.json()["detail"]


def test_a_withdrawal_reason_past_the_bound_is_refused_beside_the_form(
    client: TestClient,
) -> None:
    page = waiting_report(client)
    before = event_count(client)
    long = {"csrf": csrf_in(client.get(page).text), "reason": "x" * (MAX_TEXT + 1)}
    refused = post(client, f"{page}/withdraw", long)
    assert refused.status_code == 422
    assert "a withdrawal's reason is" in error_beside(refused.text, "withdraw")
    assert event_count(client) == before
