"""A coach closes the team's post-game sequence from the match page (ledger/web/
pages_close.py): the dice the rules ask, what each is for, refused without them, rolled by
the ledger when asked, recorded under the coach's account; another coach may not."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from ledger.domain.log import league_id
from ledger.domain.state import MatchRow
from ledger.web.pages_reads import round_name
from tests.service.conftest import LEAGUE, World, event_count, ledger_of, sign_in
from tests.service.test_api_team_writes import FINAL, L, allowed
from tests.service.test_pages import csrf_in, error_beside, last_event, page_text, post

MATCH = f"/leagues/{LEAGUE}/matches/s1-final-1"
CLOSE = f"{MATCH}/teams/reikland-reavers/close"


def scheduled_final(client: TestClient, world: World) -> None:
    """The final of the demo's season 1, which plays off its top two."""
    allowed(client, world, "commissioner", f"{L}/season/playoffs", {})


def played_final(client: TestClient, world: World) -> None:
    scheduled_final(client, world)
    recorded_final(client, world)


def recorded_final(client: TestClient, world: World) -> None:
    for team in ("reikland-reavers", "skavenblight-scramblers"):
        allowed(
            client, world, "commissioner", f"{L}/teams/{team}/inducements", {"match": "s1-final-1"}
        )
    allowed(client, world, "commissioner", f"{L}/matches", FINAL, roll_missing=True)


def test_the_league_home_names_a_play_off_round_by_its_stage(
    client: TestClient, world: World
) -> None:
    home = f"/leagues/{LEAGUE}"
    scheduled_final(client, world)
    sign_in(client, "jay")
    assert '<h2 id="fixtures">This round (final)</h2>' in client.get(home).text
    recorded_final(client, world)
    results = client.get(home).text.split('id="results"')[1]
    assert '<span class="muted">final</span>' in results  # not "round 1"


def test_the_final_is_named_by_its_stage_on_its_page_and_its_report_form(
    client: TestClient, world: World
) -> None:
    """Play-off rounds count from 1 again: the final read "Season 1, round 1"."""
    scheduled_final(client, world)
    sign_in(client, "jay")
    match = client.get(f"/leagues/{LEAGUE}/matches/s1-final-1").text
    assert "Season 1 · playoff game (final)" in " ".join(match.split())
    assert "round 1" not in match
    form = client.get(f"/leagues/{LEAGUE}/matches/s1-final-1/report").text
    assert "Fixture s1-final-1, the final." in form
    assert "round 1" not in form


def fixture(stage: str, round_: int | None = 1) -> MatchRow:
    return MatchRow(
        league_id="l", match_id=f"m-{stage}", home="a", away="b", stage=stage, round=round_
    )


@pytest.mark.parametrize(
    ("stages", "name"),
    [
        (["regular", "regular"], "1"),
        (["final", "third-place"], "final and third-place"),  # played side by side
        (["semi-final", "semi-final"], "semi-final"),
        ([], ""),
    ],
)
def test_a_round_is_named_by_its_play_off_stages_or_its_number(
    stages: list[str], name: str
) -> None:
    assert round_name([fixture(stage) for stage in stages]) == name


def test_a_coach_closes_the_post_game_from_the_match_page(client: TestClient, world: World) -> None:
    played_final(client, world)
    sign_in(client, "jay")
    match_page = client.get(MATCH).text
    assert f'href="{CLOSE}"' in match_page
    assert "skavenblight-scramblers/close" not in match_page  # not his team
    form = client.get(CLOSE)
    assert form.status_code == 200
    assert 'name="die-' in form.text  # the rules ask dice of the Reavers' close
    before = event_count(client)
    refused = post(client, CLOSE, {"csrf": csrf_in(form.text)})
    assert refused.status_code == 422
    assert "for Reikland Reavers (reikland-reavers) needs" in error_beside(refused.text, "dice")
    assert "--die" not in refused.text  # a web page's sentence, not the command line's
    assert event_count(client) == before
    done = post(client, CLOSE, {"csrf": csrf_in(form.text), "roll_missing": "1"})
    assert done.status_code == 303, done.text[-800:]
    closed = last_event(client)
    assert (closed["account"], closed["acting_as"], closed["via"]) == ("jay", "coach", "web")
    row = ledger_of(client).view().get(MatchRow, str(league_id(LEAGUE)), "s1-final-1")
    assert row is not None
    assert row.closed == ("reikland-reavers",)
    assert done.headers["location"] == f"{MATCH}?closed=reikland-reavers"
    landed = page_text(client.get(done.headers["location"]).text)
    assert re.search(r"The post-game sequence of Reikland Reavers is closed \(event \d+\)", landed)
    assert "what it moved is under Reikland Reavers' sheet below" in landed
    assert f'href="{CLOSE}"' not in client.get(MATCH).text
    for other in ("skavenblight-scramblers", "nobody"):  # not closed, or not of the game
        assert "The post-game sequence of" not in client.get(f"{MATCH}?closed={other}").text


def test_another_coach_gets_a_403_page_on_the_close_form(client: TestClient, world: World) -> None:
    played_final(client, world)
    sign_in(client, "rob")
    refused = client.get(CLOSE)
    assert refused.status_code == 403
    assert "text/html" in refused.headers["content-type"]


def test_the_close_form_of_a_team_that_did_not_play_is_not_found(
    client: TestClient, world: World
) -> None:
    """It was shown whole, dice and all, and refused only once sent."""
    played_final(client, world)
    sign_in(client, "commissioner")
    shown = client.get(CLOSE.replace("reikland-reavers", "grudgebearers"))
    assert shown.status_code == 404
    said = page_text(shown.text)
    assert "Dwarf Grudgebearers did not play Skavenblight Scramblers v Reikland Reavers" in said
    assert 'name="die-' not in shown.text


def test_a_die_that_calls_for_another_asks_for_it_and_keeps_what_was_typed(
    client: TestClient, world: World
) -> None:
    """BB2025 Expensive Mistakes: a 1 on the D6 with 205,000 in the treasury calls for the
    amount's die; entered with the wrong count of dice, the form comes back with both
    fields as typed and the sentence beside the dice, nothing stored."""
    played_final(client, world)
    sign_in(client, "jay")
    csrf = csrf_in(client.get(CLOSE).text)
    before = event_count(client)
    asked = post(client, CLOSE, {"csrf": csrf, "die-expensive_mistakes": "1"})
    assert asked.status_code == 200  # the next question, as the first die is asked
    assert 'name="die-expensive_mistakes_amount"' in asked.text
    wrong = post(
        client,
        CLOSE,
        {"csrf": csrf, "die-expensive_mistakes_amount": "3 4 5", "die-expensive_mistakes": "1"},
    )
    assert wrong.status_code == 422
    assert (
        'name="die-expensive_mistakes_amount" inputmode="numeric" maxlength="40" value="3 4 5"'
        in wrong.text
    )
    assert "a D3 roll is 1 die, not 3" in error_beside(wrong.text, "dice")
    assert "value(s)" not in wrong.text
    assert event_count(client) == before


@pytest.mark.parametrize("entered", ["0", "7"])
def test_a_roll_off_the_die_is_refused_as_such_not_taken_for_one_missing(
    client: TestClient, world: World, entered: str
) -> None:
    """A 0 typed on a D6 is a wrong roll, said as a 7 is; it once read as no roll at all
    ("the roll is missing"), since a 0 counts as nothing entered."""
    played_final(client, world)
    sign_in(client, "jay")
    csrf = csrf_in(client.get(CLOSE).text)
    before = event_count(client)
    reply = post(client, CLOSE, {"csrf": csrf, "die-expensive_mistakes": entered})
    assert reply.status_code == 422
    said = error_beside(reply.text, "dice")
    assert said.startswith("expensive_mistakes")
    assert said.endswith(" invalid-dice")
    assert "missing" not in said
    assert event_count(client) == before
