"""The report form shows a few lines of each kind, and *More rows* brings it back longer
with what was entered, nothing written: a game with six casualties (four rows before) is
reported from the form (ledger/web/pages_report_form.py, ``Rows``)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from ledger.web.pages_report_form import Rows
from tests.service.conftest import World, event_count
from tests.service.test_pages import (
    GOUGED,
    HOME,
    REAVERS,
    csrf_in,
    error_beside,
    last_event,
    page_text,
    player_ids,
    post,
    sign_in,
)
from tests.service.test_pages_close import played_final

FORM = f"{HOME}/report"
GAME = {"home": REAVERS, "away": GOUGED, "kind": "friendly"}
HURT = ["Ugluk", "Lurtz", "Grishnak", "Gorbag", "Shagrat", "Muzgash"]


def rows_shown(html: str, kind: str) -> int:
    names = {"casualties": r"cas-(\d+)-victim", "players": r"home-(\d+)-player"}
    return len(set(re.findall(rf'name="{names[kind]}"', html)))


def test_the_form_starts_with_four_casualty_rows_and_more_rows_adds_four_keeping_entries(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    form = client.get(FORM, params=GAME).text
    assert (rows_shown(form, "casualties"), rows_shown(form, "players")) == (4, 8)
    ugluk = player_ids(client, "Ugluk")["Ugluk"]
    before = event_count(client)
    fields = {"csrf": csrf_in(form), **GAME, "match": "six-down", "cas-0-victim": ugluk}
    longer = post(client, FORM, {**fields, **Rows().fields(), "more": "rows"})
    assert longer.status_code == 200, longer.text[-800:]
    assert (rows_shown(longer.text, "casualties"), rows_shown(longer.text, "players")) == (8, 12)
    assert re.search(rf'<option value="{ugluk}" selected>', longer.text)  # kept as entered
    assert 'value="six-down"' in longer.text
    assert event_count(client) == before  # nothing submitted
    # each time back at the first casualty line it adds, not at the page's top
    assert more_lands_on(form) == "cas-4-victim"
    assert more_lands_on(longer.text) == "cas-8-victim"
    assert 'id="cas-4-victim"' in longer.text


def more_lands_on(html: str) -> str:
    found = re.search(r'id="more-rows" formaction="[^"#]*#([^"]+)"', html)
    assert found is not None
    return found.group(1)


def test_a_game_with_six_casualties_is_reported_from_the_longer_form(client: TestClient) -> None:
    sign_in(client, "jay")
    ids = player_ids(client, *HURT)
    before = event_count(client)
    longer = post(
        client,
        FORM,
        {"csrf": csrf_in(client.get(FORM, params=GAME).text), **GAME, "more": "rows"},
    )
    hurt = {f"cas-{i}-victim": ids[name] for i, name in enumerate(HURT)}
    sent = {"csrf": csrf_in(longer.text), **GAME, "match": "six-down", "roll_missing": "1"}
    reply = post(client, FORM, {**sent, **Rows().more().fields(), **hurt})
    assert reply.status_code == 303, reply.text[-1500:]
    assert event_count(client) == before + 1
    report = last_event(client)["report"]
    assert [c["victim"] for c in report["casualties"]] == [ids[name] for name in HURT]


@pytest.mark.parametrize(
    ("sent", "casualties"),
    [({}, 4), ({"rows-casualties": "12"}, 12), ({"rows-casualties": "2"}, 4),
     ({"rows-casualties": "9999"}, 50), ({"rows-casualties": "\uff18"}, 4)],
)  # fmt: skip
def test_the_rows_shown_are_read_from_the_form_within_bounds(
    sent: dict[str, str], casualties: int
) -> None:
    assert Rows.of(sent).casualties == casualties


def test_a_report_shown_again_gets_a_row_for_each_of_its_lines() -> None:
    report = {"home": {"players": [{}] * 10}, "away": {}, "casualties": [{}] * 5}
    assert Rows.fitting(report) == Rows(players=10, hirelings=2, casualties=5)


def test_two_mvps_for_one_side_are_refused_beside_the_player_lines(client: TestClient) -> None:
    """BB2025 gives each team one MVP: a second is refused beside the lines that award
    them, in that side's part of the form (it was shown after the last side), nothing
    written."""
    sign_in(client, "jay")
    league_game = {**GAME, "kind": "league"}  # a friendly awards no MVP the rules count
    form = client.get(FORM, params=league_game).text
    ids = player_ids(client, "Griff Junior", "Dieter Hammer")
    lines = {
        "home-0-player": ids["Griff Junior"],
        "home-0-mvp": "1",
        "home-1-player": ids["Dieter Hammer"],
        "home-1-mvp": "1",
    }
    before = event_count(client)
    sent = {"csrf": csrf_in(form), **league_game, "match": "two-mvps", "roll_missing": "1"}
    sent.update(lines)
    refused = post(client, FORM, {**sent, **Rows().fields()})
    assert refused.status_code == 409, refused.text[-800:]  # a rule of the edition
    said = error_beside(refused.text, "home-players")  # inside the side that awarded them
    assert "awarded 2 MVPs where BB2025 allows 1 (its 'Most Valuable Player')" in said
    side = refused.text.split('<fieldset class="side">')[1].split("</fieldset>")[0]
    assert 'id="home-players-error"' in side
    assert event_count(client) == before


def test_a_league_game_without_a_fixture_says_it_counts_in_the_standings(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    league_game = page_text(client.get(FORM, params={**GAME, "kind": "league"}).text)
    assert "once recorded it counts in the season's standings as a fixture does" in league_game
    friendly = page_text(client.get(FORM, params=GAME).text)
    assert "counts in the season's standings" not in friendly


def test_the_form_says_before_it_is_filled_which_post_game_sequence_is_still_open(
    client: TestClient, world: World
) -> None:
    """BB2025: a team closes its last game before it plays the next. The report of a team
    whose last game is open was refused only once filled in; the form now says so first,
    linking the close form for the team its caller may close."""
    sign_in(client, "jay")
    assert 'id="unclosed"' not in client.get(FORM, params=GAME).text
    played_final(client, world)  # the Reavers' and the Scramblers' sequences left open
    shown = client.get(FORM, params=GAME).text
    notice = page_text(shown.split('id="unclosed"')[1].split("</div>")[0])
    final = "Skavenblight Scramblers v Reikland Reavers"
    assert f"The post-game sequence of {final} is not closed for Reikland Reavers" in notice
    assert f'href="{HOME}/matches/s1-final-1/teams/{REAVERS}/close"' in shown
