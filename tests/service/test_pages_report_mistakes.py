"""The match report form shows every mistake of a report at once, each beside its field in
the form's words, and lets the ledger roll a casualty's die left empty when asked
(ledger/web/pages_report_mistakes.py); the close form asks the die another calls for as
the next question, not as an error (ledger/web/pages_close.py).

A tester found each of these: a gold4 casualty's Specific Injury left empty with "let the
ledger roll" ticked was refused asking for "dice: {specific_injury: N}" or an "outcome"
the form has no field for, of "p6"; a form with a wrong score and two wrong dice took
three submissions, each revealing the next; a BB2025 catastrophe's 2D6 was a red error.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import World, event_count, scripted, sign_in
from tests.service.test_api_team_writes import REAVERS as TEAM
from tests.service.test_api_team_writes import L
from tests.service.test_pages import (
    GOUGED,
    HOME,
    REAVERS,
    csrf_in,
    error_beside,
    last_event,
    player_ids,
    post,
)
from tests.service.test_pages_close import CLOSE, played_final, scheduled_final
from tests.service.test_pages_waiting_reports import FIXTURE_FORM

GOLD = "owl"
GOLD_LEAGUE = f"""league create {GOLD} --name "Old World League" --ruleset gold4
team register reavers --name "Reikland Reavers" --coach Jay --roster human
team register grudge --name "The Gouged Eye" --coach Steve --roster orc
team hire reavers lineman "Otto Brandt" --number 1
team hire reavers blitzer "Griff Junior" --number 2
team hire grudge lineman "Thorin Oakbeard" --number 1
"""


@pytest.fixture
def gold(tmp_path: Path) -> Iterator[TestClient]:
    """A gold4 league served, with jay (the Reavers' coach) signed in."""
    with scripted(tmp_path, GOLD, GOLD_LEAGUE, "jay") as (client, _):
        yield client


def gold_form(client: TestClient) -> str:
    reply = client.get(
        f"/leagues/{GOLD}/report", params={"home": "reavers", "away": "grudge", "kind": "friendly"}
    )
    assert reply.status_code == 200, reply.text[-800:]
    return reply.text


def thorin_hurt(client: TestClient, **fields: str) -> Any:
    """Griff Junior scores in a friendly and hurts Thorin Oakbeard (the form's first
    casualty row), with these fields."""
    form = gold_form(client)
    ids = {
        name: pid for pid, name in re.findall(r'<option value="(p\d+)"[^>]*>#\d+ ([^<]+)<', form)
    }
    return post(
        client,
        f"/leagues/{GOLD}/report",
        {
            "csrf": csrf_in(form),
            "home": "reavers",
            "away": "grudge",
            "kind": "friendly",
            "match": "owl-friendly-1",
            "home-0-player": ids["Griff Junior"],
            "home-0-td": "1",
            "cas-0-victim": ids["Thorin Oakbeard"],
            "cas-0-by": ids["Griff Junior"],
            **fields,
        },
    )


def summary(page: str) -> list[tuple[str, str]]:
    """The refusals listed atop the form: (the field linked, the sentence)."""
    box = re.search(r'<div class="error-summary".*?</ul>', page, re.DOTALL)
    assert box, "no list of refusals: " + page[-1500:]
    items = re.findall(r'<li><a href="#([^"]+)">(.*?)</a></li>', box.group(0), re.DOTALL)
    return [(field, html.unescape(said)) for field, said in items]


def marked(page: str, field: str) -> bool:
    return bool(re.search(rf'name="{field}"[^>]*aria-invalid="true"', page))


# --- gold4: a casualty's die left empty ----------------------------------------------------


def test_a_casualty_die_left_empty_is_rolled_by_the_ledger_when_the_box_is_ticked(
    gold: TestClient,
) -> None:
    reply = thorin_hurt(gold, **{"cas-0-die-injury": "4 6", "roll_missing": "1"})
    assert reply.status_code == 303, summary(reply.text)
    assert reply.headers["location"] == f"/leagues/{GOLD}/submissions/s1"


def test_without_the_box_the_die_is_asked_for_beside_its_cell_in_the_forms_words(
    gold: TestClient,
) -> None:
    before = event_count(gold)
    reply = thorin_hurt(gold, **{"cas-0-die-injury": "4 6"})
    assert reply.status_code == 422
    [(field, said)] = summary(reply.text)
    assert field == "cas-0-die-specific_injury"
    assert said == (
        "casualty of Thorin Oakbeard: enter the roll under “Specific injury (D6)”, or tick"
        " “Let the ledger roll the dice left empty”"
    )
    assert marked(reply.text, "cas-0-die-specific_injury")
    assert "dice: {" not in html.unescape(reply.text)
    assert "outcome" not in said
    assert event_count(gold) == before


def test_a_die_with_too_few_values_names_the_player_not_his_id(gold: TestClient) -> None:
    reply = thorin_hurt(gold, **{"cas-0-die-injury": "4", "roll_missing": "1"})
    assert reply.status_code == 422
    [(field, said)] = summary(reply.text)
    assert (field, said) == (
        "cas-0-die-injury",
        "injury for Thorin Oakbeard: a 2D6 roll is 2 dice, not 1",
    )
    assert not re.search(r"\bp\d+\b", said)


def test_the_casualty_dice_say_to_separate_several_dice_with_spaces(gold: TestClient) -> None:
    form = html.unescape(gold_form(gold))
    hint = re.search(r'<p class="hint" id="casualty-dice-hint">(.*?)</p>', form, re.DOTALL)
    assert hint, form[-2000:]
    assert "separate them with spaces" in hint.group(1)
    assert re.search(r'name="cas-0-die-injury"[^>]*aria-describedby="casualty-dice-hint"', form)


# --- BB2025: every mistake at once ---------------------------------------------------------


def test_every_mistake_of_the_report_is_shown_at_once_each_beside_its_field(
    client: TestClient,
) -> None:
    """A score of 3 where the players' touchdowns add up to 2, a D16 of 17 and a D16 that
    is no number: one submission names the three, nothing is written."""
    sign_in(client, "jay")
    form = client.get(
        f"{HOME}/report", params={"home": REAVERS, "away": GOUGED, "kind": "friendly"}
    )
    ids = player_ids(client, "Griff Junior", "Ugluk", "Lurtz")
    before = event_count(client)
    reply = post(
        client,
        f"{HOME}/report",
        {
            "csrf": csrf_in(form.text),
            "home": REAVERS,
            "away": GOUGED,
            "kind": "friendly",
            "match": "web-friendly-1",
            "home-touchdowns": "3",
            "home-0-player": ids["Griff Junior"],
            "home-0-td": "2",
            "cas-0-victim": ids["Ugluk"],
            "cas-0-by": ids["Griff Junior"],
            "cas-0-die-casualty": "17",
            "cas-2-victim": ids["Lurtz"],
            "cas-2-die-casualty": "six",
            "roll_missing": "1",
        },
    )
    assert reply.status_code == 422
    shown = dict(summary(reply.text))
    assert shown == {
        "cas-2-die-casualty": "casualty 3: the casualty roll takes whole numbers, not 'six'",
        "cas-0-die-casualty": "casualty for Ugluk: a D16 shows 1 to 16 on each die, not 17",
        "home-touchdowns-error": (
            "Reikland Reavers scored 3 but the touchdowns of their players add up to 2"
        ),
    }
    assert "Reikland Reavers scored 3" in error_beside(reply.text, "home-touchdowns")
    assert marked(reply.text, "cas-0-die-casualty")
    assert marked(reply.text, "cas-2-die-casualty")
    assert event_count(client) == before


def friendly(client: TestClient, **fields: str) -> Any:
    """A friendly of the Reavers and the Gouged Eye, sent by jay with ``fields``."""
    sign_in(client, "jay")
    params = {"home": REAVERS, "away": GOUGED, "kind": "friendly"}
    csrf = csrf_in(client.get(f"{HOME}/report", params=params).text)
    sent = {"csrf": csrf, **params, "match": "web-friendly-1", **fields}
    return post(client, f"{HOME}/report", sent)


@pytest.mark.parametrize(
    "typed",
    [{"cas-1-by": "Griff Junior"}, {"cas-1-die-casualty": "12"}],
    ids=["caused-by", "roll"],
)
def test_a_casualty_row_without_its_victim_is_refused_not_dropped(
    client: TestClient, typed: dict[str, str]
) -> None:
    """A casualty half entered (who caused it, or its roll, but no victim) was left out of
    the report without a word: the match recorded one casualty short."""
    ids = player_ids(client, "Griff Junior")
    before = event_count(client)
    reply = friendly(client, **{key: ids.get(value, value) for key, value in typed.items()})
    assert reply.status_code == 422, reply.text[-800:]
    assert dict(summary(reply.text)) == {"cas-1-victim": "casualty 2 names no victim: choose one"}
    assert marked(reply.text, "cas-1-victim")
    assert event_count(client) == before


def test_a_casualty_row_left_empty_but_for_its_default_cause_is_no_casualty(
    client: TestClient,
) -> None:
    before = event_count(client)
    reply = friendly(client, **{"cas-1-cause": "foul"})
    assert reply.status_code == 303, reply.text[-800:]
    assert event_count(client) == before + 1


def test_a_player_line_refused_is_marked_on_its_pick_list(client: TestClient) -> None:
    """The line's pick-list has an id the list of refusals links to."""
    sign_in(client, "jay")
    form = client.get(
        f"{HOME}/report", params={"home": REAVERS, "away": GOUGED, "kind": "friendly"}
    )
    ids = player_ids(client, "Griff Junior", "Ugluk")
    reply = post(
        client,
        f"{HOME}/report",
        {
            "csrf": csrf_in(form.text),
            "home": REAVERS,
            "away": GOUGED,
            "kind": "friendly",
            "match": "web-friendly-1",
            "home-2-player": ids["Ugluk"],
            "home-2-td": "1",
            "roll_missing": "1",
        },
    )
    assert reply.status_code in (404, 409, 422)
    [(field, said)] = summary(reply.text)
    assert field == "home-2-player"
    assert 'id="home-2-player"' in reply.text
    assert marked(reply.text, "home-2-player")
    assert "Ugluk" in said


# --- BB2025 close: the die a roll calls for is the next question ---------------------------


def test_a_catastrophe_asks_for_its_2d6_as_the_next_question_not_as_an_error(
    client: TestClient, world: World
) -> None:
    """The docs: a roll not yet given may call for the next die (BB2025 Expensive
    Mistakes: the amount, D3 or 2D6, by the D6's result); the page asks it as it asks the
    first die, with 200 and no error. With 550,000 in the treasury a 1 is a catastrophe."""
    played_final(client, world)
    left = client.get(TEAM, headers=world.auth("jay")).json()["team"]["treasury"]
    prize = {"team": "reikland-reavers", "amount": 550_000 - left, "reason": "a prize"}
    adjusted = client.post(
        f"{L}/treasury-adjustments", json=prize, headers=world.auth("commissioner")
    )
    assert adjusted.status_code == 201, adjusted.text
    sign_in(client, "jay")
    csrf = csrf_in(client.get(CLOSE).text)
    before = event_count(client)
    asked = post(client, CLOSE, {"csrf": csrf, "die-expensive_mistakes": "1"})
    assert asked.status_code == 200
    page = html.unescape(asked.text)
    assert 'class="problem"' not in page
    assert "invalid-dice" not in page
    question = re.search(
        r'<p class="hint" id="die-expensive_mistakes_amount-ask"[^>]*>(.*?)</p>', page
    )
    assert question, page[-2000:]
    assert re.sub(r"<[^>]+>", "", question.group(1)).startswith(
        "Catastrophe incident! Roll 2D6 for the expensive mistakes amount"
    )
    assert re.search(r'name="die-expensive_mistakes_amount"[^>]*autofocus', page)
    assert 'value="1"' in page  # the D6 as entered
    assert event_count(client) == before


def test_a_die_the_form_asked_left_empty_is_still_an_error(
    client: TestClient, world: World
) -> None:
    played_final(client, world)
    sign_in(client, "jay")
    csrf = csrf_in(client.get(CLOSE).text)
    reply = post(client, CLOSE, {"csrf": csrf, "die-expensive_mistakes": ""})
    assert reply.status_code == 422
    assert "needs expensive_mistakes" in error_beside(reply.text, "dice")


def test_a_casualty_ticked_recovered_reaches_the_report_as_recovered(client: TestClient) -> None:
    """An apothecary or regeneration healed it: the SPP count, the injury does not
    (docs/match-report.md 'recovered'); the form had no way to say it."""
    ids = player_ids(client, "Ugluk", "Griff Junior")
    before = event_count(client)
    hurt = {"cas-0-victim": ids["Ugluk"], "cas-0-by": ids["Griff Junior"], "roll_missing": "1"}
    reply = friendly(client, **hurt, **{"cas-0-recovered": "1"})
    assert reply.status_code == 303, reply.text[-800:]
    assert event_count(client) == before + 1
    [casualty] = last_event(client)["report"]["casualties"]
    assert casualty["recovered"] is True


def test_a_casualty_row_ticked_recovered_alone_is_half_entered(client: TestClient) -> None:
    reply = friendly(client, **{"cas-2-recovered": "1"})
    assert dict(summary(reply.text)) == {"cas-2-victim": "casualty 3 names no victim: choose one"}


def test_a_die_that_is_not_a_number_is_named_beside_its_field_whichever_it_is(
    client: TestClient, world: World
) -> None:
    """The form's first die written "two" was a 500 (its value read before it was set);
    every die of the form is said beside its own field, and nothing is written."""
    scheduled_final(client, world)
    sign_in(client, "jay")
    form = client.get(FIXTURE_FORM).text
    dice = re.findall(r'name="(dice-[^"]+)"', form)
    assert len(dice) >= 2, "the form asks each side's dice"
    before = event_count(client)
    for field in dice:
        fields = {"csrf": csrf_in(form), "roll_missing": "1", field: "two"}
        reply = post(client, FIXTURE_FORM, fields)
        assert reply.status_code == 422, (field, reply.text[-800:])
        assert "two" in error_beside(reply.text, field)
    assert event_count(client) == before
