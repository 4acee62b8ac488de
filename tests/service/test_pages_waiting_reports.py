"""A report waiting for an answer, as the pages show it: the fixture links the report
(not a form the ledger would refuse, ``submissions.check_nothing_waiting``), each reader
told who it waits for from their side; and the choice of a game without a fixture, which
asks for both teams.

The league is the played demo league (conftest.py): jay coaches the Reikland Reavers, rob
the Skavenblight Scramblers, dan The Gouged Eye; the final of season 1 plays off the
Scramblers and the Reavers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import LEAGUE, World, event_count, scripted, sign_in
from tests.service.test_api_team_writes import FINAL, L, allowed
from tests.service.test_pages import (
    HOME,
    error_beside,
    form_of,
    page_text,
    player_ids,
    post,
    submit_friendly,
)
from tests.service.test_pages_close import MATCH, scheduled_final

FIXTURE_FORM = f"{MATCH}/report"
SUBMISSION = f"{HOME}/submissions/s1"


def sent_by_jay(client: TestClient, world: World) -> None:
    """The final scheduled, jay (the Reavers) submits its report: it waits for the
    Scramblers' coach."""
    scheduled_final(client, world)
    report_sent(client, world)


def report_sent(client: TestClient, world: World) -> None:
    for team in ("reikland-reavers", "skavenblight-scramblers"):
        allowed(
            client, world, "commissioner", f"{L}/teams/{team}/inducements", {"match": "s1-final-1"}
        )
    reply = client.post(
        f"{L}/reports", json=FINAL, params={"roll_missing": True}, headers=world.auth("jay")
    )
    assert reply.status_code == 201, reply.text
    assert reply.json()["submission"] == "s1"


def this_round(html: str) -> str:
    return html.split('id="fixtures"')[1].split('id="results"')[0]


def test_a_fixture_whose_report_waits_links_it_instead_of_the_form(
    client: TestClient, world: World
) -> None:
    scheduled_final(client, world)
    sign_in(client, "jay")
    assert f'href="{FIXTURE_FORM}"' in this_round(client.get(HOME).text)  # nothing sent yet
    report_sent(client, world)
    fixtures = this_round(client.get(HOME).text)
    assert f'href="{FIXTURE_FORM}"' not in fixtures
    assert f'href="{SUBMISSION}"' in fixtures
    assert "Report sent, waiting for Skavenblight Scramblers&#39; answer" in fixtures
    match_page = client.get(MATCH).text
    assert "Submit the report" not in match_page
    assert f'href="{SUBMISSION}">Report sent, waiting for Skavenblight Scramblers&#39; answer' in (
        match_page
    )


def test_the_fixtures_form_opened_while_its_report_waits_goes_to_that_report(
    client: TestClient, world: World
) -> None:
    """Filled in, it would only have been refused: a second report waits until the first
    is answered."""
    sent_by_jay(client, world)
    sign_in(client, "jay")
    opened = client.get(FIXTURE_FORM, follow_redirects=False)
    assert opened.status_code == 303
    assert opened.headers["location"] == SUBMISSION


def test_the_coach_who_answers_is_told_the_report_waits_for_them(
    client: TestClient, world: World
) -> None:
    sent_by_jay(client, world)
    sign_in(client, "rob")
    said = "Report sent by Reikland Reavers, waiting for your answer"
    assert said in this_round(client.get(HOME).text)
    assert f'href="{SUBMISSION}">{said}' in client.get(MATCH).text
    choose = client.get(f"{HOME}/report").text
    assert f'href="{SUBMISSION}">{said}' in choose
    assert f'href="{FIXTURE_FORM}"' not in choose


def test_a_disputed_report_waits_for_the_commissioner(client: TestClient, world: World) -> None:
    sent_by_jay(client, world)
    reply = client.post(
        f"{L}/reports/s1/dispute", json={"reason": "we scored"}, headers=world.auth("rob")
    )
    assert reply.status_code == 201, reply.text
    sign_in(client, "jay")
    fixtures = this_round(client.get(HOME).text)
    assert "Report disputed, waiting for the commissioner&#39;s decision" in fixtures
    assert f'href="{FIXTURE_FORM}"' not in fixtures
    assert "disputed: waits for the commissioner" in client.get(HOME).text


def test_a_reader_of_a_public_league_sees_the_fixture_without_the_waiting_report(
    client: TestClient, world: World
) -> None:
    sent_by_jay(client, world)
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.writing:
        service.accounts.set_visibility(LEAGUE, True, by="commissioner")
    fixtures = this_round(client.get(HOME).text)
    assert "Skavenblight Scramblers v Reikland Reavers" in fixtures
    assert "/submissions/" not in fixtures  # pending reports are the members'


@pytest.mark.parametrize(
    ("account", "tag"),
    [
        ("dan", "waits for your answer"),
        ("jay", "waits for The Gouged Eye&#39;s coach"),
        ("commissioner", "waits for The Gouged Eye&#39;s coach"),
        ("rob", "waits for The Gouged Eye&#39;s coach"),
    ],
)
def test_the_pending_list_says_who_a_report_waits_for_from_the_readers_side(
    client: TestClient, account: str, tag: str
) -> None:
    assert submit_friendly(client).status_code == 303  # jay's, of a game v the Gouged Eye
    client.cookies.clear()
    sign_in(client, account)
    pending = client.get(HOME).text.split('id="pending"')[1]
    assert f'<span class="tag">{tag}</span>' in pending
    assert "waits for the opponent" not in pending


def test_a_teams_page_lists_the_reports_waiting_on_its_games(
    client: TestClient, world: World
) -> None:
    """The Scramblers' coach, on his team's page, finds the final's report waiting for
    his answer; a team not in that game lists none."""
    sent_by_jay(client, world)
    client.cookies.clear()
    sign_in(client, "rob")
    page = client.get(f"{HOME}/teams/skavenblight-scramblers").text
    waiting = page.split('id="waiting"')[1].split("</section>")[0]
    assert f'href="{SUBMISSION}"' in waiting
    assert '<span class="tag">waits for your answer</span>' in waiting
    assert 'id="waiting"' not in client.get(f"{HOME}/teams/gouged-eye").text


# --- which game? ---------------------------------------------------------------------------


def home_select(html: str) -> str:
    found = re.search(r'<select id="home".*?</select>', html, re.DOTALL)
    assert found, html[-1500:]
    return found.group(0)


def test_the_home_team_is_chosen_not_taken_for_the_first_of_the_list(
    client: TestClient,
) -> None:
    sign_in(client, "commissioner")  # may report any team's game: none is proposed
    home = home_select(client.get(f"{HOME}/report").text)
    assert re.search(r'<select[^>]*>\s*<option value="">Choose the home team</option>', home)
    assert "selected" not in home
    client.cookies.clear()
    sign_in(client, "jay")  # coaches one team: his is proposed
    assert 'value="reikland-reavers" selected' in home_select(client.get(f"{HOME}/report").text)


@pytest.mark.parametrize(
    ("home", "away", "missing"),
    [("", "gouged-eye", "home"), ("reikland-reavers", "", "away")],
)
def test_a_choice_sent_without_a_team_is_refused_beside_its_pick_list(
    client: TestClient, home: str, away: str, missing: str
) -> None:
    sign_in(client, "commissioner")
    reply = client.get(f"{HOME}/report", params={"home": home, "away": away, "kind": "friendly"})
    assert reply.status_code == 422
    assert error_beside(reply.text, missing).startswith(f"choose the {missing} team")
    assert "Match report" not in reply.text  # the choice again, not the report form


def test_the_first_visit_asks_for_the_game_without_a_refusal(client: TestClient) -> None:
    sign_in(client, "commissioner")
    reply = client.get(f"{HOME}/report")
    assert reply.status_code == 200
    assert 'class="problem"' not in reply.text


@pytest.fixture
def no_season(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    """Two teams registered, no season started; dan (the orcs' coach) signed in."""
    script = """league create owl --name "Old World League" --ruleset bb2025
team register orcs --name "The Gouged Eye" --coach Dan --roster orc
team register dwarfs --name "Dwarf Grudgebearers" --coach Steve --roster dwarf
"""
    with scripted(tmp_path, "owl", script, "dan") as signed_in:
        yield signed_in


def test_a_friendly_is_reported_before_any_season_as_the_ledger_allows(
    no_season: tuple[TestClient, str],
) -> None:
    """The choice of a game is offered before the first season: the ledger records a game
    then (its report is checked as any other), so the page does not hide it."""
    client, _ = no_season
    assert 'href="/leagues/owl/report"' in client.get("/leagues/owl").text
    form = "/leagues/owl/report"
    params = {"home": "orcs", "away": "dwarfs", "kind": "friendly"}
    csrf = form_of(client, f"{form}?home=orcs&away=dwarfs&kind=friendly")
    before = event_count(client)
    fields = {"csrf": csrf, **params, "home-touchdowns": "1", "roll_missing": "1"}
    reply = post(client, form, fields)
    assert reply.status_code == 303, reply.text[-1500:]
    assert reply.headers["location"] == "/leagues/owl/submissions/s1"
    assert event_count(client) == before + 1


@pytest.mark.parametrize(
    ("account", "step", "said"),
    [
        ("commissioner", "approve", "Approved by the commissioner: the match is recorded"),
        ("rob", "confirm", "Confirmed by Skavenblight Scramblers: the match is recorded"),
    ],
)
def test_a_decided_report_says_the_match_is_recorded_and_links_it(
    client: TestClient, world: World, account: str, step: str, said: str
) -> None:
    """Before, the status word alone said so."""
    sent_by_jay(client, world)
    csrf = sign_in(client, account)
    sent = post(client, f"{SUBMISSION}/{step}", {"csrf": csrf})
    assert sent.status_code == 303, sent.text[-1500:]
    decided = client.get(sent.headers["location"])
    assert said in decided.text
    assert f'<a href="{MATCH}">its page</a>' in decided.text


def test_a_game_without_a_fixture_is_reported_once_though_the_form_is_sent_again(
    client: TestClient,
) -> None:
    """The form proposes a new match id each time it is opened: sent again after the
    browser's Back, it names another id for the same game. That report is refused beside
    the match, and the form opened again goes to the report that waits."""
    assert submit_friendly(client).status_code == 303
    count = event_count(client)
    again = submit_friendly(client, match="web-friendly-2")
    assert again.status_code == 409, again.text[-1500:]
    said = error_beside(again.text, "match")
    assert "the report of Reikland Reavers v The Gouged Eye (friendly)" in said
    assert "another report of the same teams' game waits until it is answered" in said
    assert event_count(client) == count
    opened = client.get(
        f"{HOME}/report",
        params={"home": "reikland-reavers", "away": "gouged-eye", "kind": "friendly"},
        follow_redirects=False,
    )
    assert opened.status_code == 303
    assert opened.headers["location"] == SUBMISSION


def test_the_coach_who_answers_reads_what_each_casualty_comes_to(client: TestClient) -> None:
    """'Ugluk by Griff Junior (block, casualty 8)' asked the coach to know BB2025's table;
    the report's plan, run without writing, says what it would record: seriously hurt. A
    casualty the ledger is to roll shows no outcome before it is rolled."""
    ids = player_ids(client, "Griff Junior", "Ugluk", "Lurtz")
    casualties = {
        "cas-0-victim": ids["Ugluk"],
        "cas-0-by": ids["Griff Junior"],
        "cas-0-die-casualty": "8",
        "cas-1-victim": ids["Lurtz"],
    }
    assert submit_friendly(client, **casualties).status_code == 303
    shown = page_text(client.get(SUBMISSION).text)
    assert (
        "Ugluk by Griff Junior (block, casualty 8): seriously hurt (misses the next game)" in shown
    )
    assert "Lurtz (block)" in shown
    assert "Lurtz (block):" not in shown
