"""BB2025 with Spike! 2021 'Red Cards & Rulekeepers' (the ``referees`` option): the report
form asks the match's referee and who was sent off ("Players sent off are marked", docs/
rulesets.md, 'Referees'), the waiting report and the match page say them; a league without
the option is asked neither."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from fastapi.testclient import TestClient

from ledger.domain.log import league_id
from tests.service.conftest import ledger_of, scripted, sign_in
from tests.service.test_pages import csrf_in, error_beside, page_text, post

LEAGUE = "reds"
OPTION = " -o referees=true"
SCRIPT = f"""league create {LEAGUE} --name "Red Cards League" --ruleset bb2025{OPTION}
team register orcs --name "The Gouged Eye" --coach Dan --roster orc
team register dwarfs --name "Dwarf Grudgebearers" --coach Steve --roster dwarf
team hire orcs lineman Ugluk
team hire dwarfs lineman Bram
"""
FORM = f"/leagues/{LEAGUE}/report?home=orcs&away=dwarfs&kind=friendly"
GAME = {"home": "orcs", "away": "dwarfs", "kind": "friendly", "match": "f1", "roll_missing": "1"}


@pytest.fixture
def reds(tmp_path: Path) -> Iterator[TestClient]:
    with scripted(tmp_path, LEAGUE, SCRIPT, "dan") as (client, _):
        yield client


def stored_report(client: TestClient) -> dict[str, object]:
    stored = ledger_of(client).recorder.select_events(league_id(LEAGUE), desc=True, limit=1)[0]
    state = orjson.loads(stored.state)
    report: dict[str, object] = state["report"]
    return report


def test_the_referee_and_who_was_sent_off_are_reported_from_the_form(reds: TestClient) -> None:
    form = reds.get(FORM).text
    assert '<option value="Elnos Lawkeeper">' in form
    ugluk = re.search(r'<option value="(p\d+)">Ugluk</option>', form)
    assert ugluk is not None
    fields = {
        "csrf": csrf_in(form),
        **GAME,
        "home-0-player": ugluk.group(1),
        "home-0-sent_off": "1",
        "referee": "Elnos Lawkeeper",
    }
    sent = post(reds, f"/leagues/{LEAGUE}/report", fields)
    assert sent.status_code == 303, sent.text[-1500:]
    report = stored_report(reds)
    assert report["referee"] == "Elnos Lawkeeper"
    assert report["home"]["players"] == [{"player": ugluk.group(1), "sent_off": True}]  # type: ignore[index]
    shown = page_text(reds.get(sent.headers["location"]).text)
    assert "Referee: Elnos Lawkeeper." in shown
    assert "Ugluk: sent off" in shown


def test_a_referee_the_rules_do_not_know_is_refused_beside_it(reds: TestClient) -> None:
    form = reds.get(FORM).text
    fields = {"csrf": csrf_in(form), **GAME, "referee": "Nuffle"}
    refused = post(reds, f"/leagues/{LEAGUE}/report", fields)
    assert refused.status_code in (409, 422)
    assert "the referee is one of generic, Elnos Lawkeeper, Redkur Forgebeard" in html.unescape(
        error_beside(refused.text, "referee")
    )


def test_a_league_without_referees_is_asked_neither(tmp_path: Path) -> None:
    with scripted(tmp_path, LEAGUE, SCRIPT.replace(OPTION, ""), "dan") as (client, _):
        sign_in(client, "dan")
        form = client.get(FORM).text
        assert 'name="referee"' not in form
        assert "-sent_off" not in form
