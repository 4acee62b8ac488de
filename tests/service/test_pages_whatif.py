"""The what-if page (TestClient): the form with the registry's rulesets and their typed
options, who may ask, a refused option beside its field, the job's page refreshing while
it runs, then the comparison ``ledger whatif`` prints and, with samples, the
distributions. The demo league is BB2025, four teams in one division (conftest.py)."""

from __future__ import annotations

import re
import time
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

import sqlalchemy as sa
from fastapi.testclient import TestClient

from ledger.rules import RULESETS, find_ruleset
from ledger.web.jobs import JOBS, Jobs, Question, WhatIf
from ledger.whatif.spec import target_ruleset
from tests.service.conftest import LEAGUE, event_count, ledger_of, sign_in
from tests.service.test_pages import csrf_in, error_beside, no_server_error

FORM = f"/leagues/{LEAGUE}/whatif"
REFRESH = re.compile(r'<meta http-equiv="refresh" content="\d+">')


def ask(client: TestClient, data: dict[str, Any]) -> Any:
    csrf = csrf_in(client.get(FORM).text)
    return client.post(FORM, data={"csrf": csrf, **data}, follow_redirects=False)


class PostedForm(HTMLParser):
    """What a browser sends for the page's POST form as it stands: hidden and text inputs,
    ticked boxes, each pick-list's selected option (else its first)."""

    def __init__(self, action: str = FORM) -> None:
        super().__init__()
        self.action = action
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("method") == "post" and a.get("action") == self.action
        elif self.inside and tag == "input" and "name" in a:
            if a.get("type") != "checkbox" or "checked" in a:
                self.fields.append((a["name"], a.get("value", "")))
        elif self.inside and tag == "select":
            self.select, self.options = a["name"], []
        elif self.select and tag == "option":
            self.options.append((a.get("value", ""), "selected" in a))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select" and self.select:
            chosen = next((v for v, on in self.options if on), self.options[0][0])
            self.fields.append((self.select, chosen))
            self.select = None


def filled(html: str, action: str = FORM, **changes: str) -> list[tuple[str, str]]:
    parser = PostedForm(action)
    parser.feed(html)
    return [(k, changes.get(k, v)) for k, v in parser.fields]


def settled(client: TestClient, path: str) -> str:
    """The job's page once it no longer reloads itself (the demo league: a few seconds)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        reply = client.get(path)
        assert reply.status_code == 200, reply.text[-800:]
        html: str = reply.text
        if not REFRESH.search(html):
            return html
        time.sleep(0.2)
    raise AssertionError(f"{path} still refreshing")


def jobs(client: TestClient) -> Jobs:
    """The jobs' table as the app's workers share it (a second ``Jobs`` on the same one)."""
    ledger = ledger_of(client)
    return Jobs(ledger.read_models.engine, ledger)


def job_ids(client: TestClient) -> list[str]:
    with jobs(client).engine.connect() as conn:
        return [row.id for row in conn.execute(sa.select(JOBS.c.id))]


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


def test_a_member_gets_the_form_with_the_rulesets_and_the_league_s_options(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    html = client.get(f"/leagues/{LEAGUE}").text
    assert f'href="{FORM}"' in html  # the league home links to it
    reply = client.get(FORM)
    assert reply.status_code == 200
    for cls in RULESETS:
        assert f'<option value="{cls.id}"' in reply.text
    # BB2025's options, typed: a pick-list and checkboxes, at the league's own values.
    assert '<select id="bonus_points" name="bonus_points"' in reply.text
    assert re.search(r'<option value="none" selected>', reply.text)
    assert re.search(r'id="redraft_cap" name="redraft_cap" value="true" checked', reply.text)
    assert 'name="samples"' in reply.text
    assert 'name="csrf"' in reply.text


def test_choosing_another_ruleset_shows_its_options_at_their_defaults(client: TestClient) -> None:
    sign_in(client, "dan")
    reply = client.get(FORM, params={"ruleset": "dz3"})
    assert reply.status_code == 200
    assert '<input type="hidden" name="ruleset" value="dz3">' in reply.text
    assert '<option value="difference" selected>' in reply.text  # handicap's default
    for penalty in ("income", "spp", "fans"):  # a set of choices: one box each, all ticked
        assert f'id="forfeit_penalties-{penalty}" name="forfeit_penalties"' in reply.text
    assert 'name="bonus_points"' not in reply.text


def test_an_unknown_ruleset_is_said_beside_the_ruleset_field(client: TestClient) -> None:
    sign_in(client, "dan")
    reply = client.get(FORM, params={"ruleset": "bb1987"})
    assert reply.status_code == 404
    assert "unknown ruleset 'bb1987'" in error_beside(reply.text, "ruleset")


def test_an_anonymous_reader_of_a_private_league_is_sent_to_sign_in(client: TestClient) -> None:
    reply = client.get(FORM, follow_redirects=False)
    assert reply.status_code == 303
    assert reply.headers["location"] == f"/login?next={FORM}"
    job_page = client.get(f"{FORM}/0123456789abcdef", follow_redirects=False)
    assert job_page.status_code == 303
    posted = client.post(FORM, data={"ruleset": "gold4"}, follow_redirects=False)
    assert posted.status_code == 401


def test_an_outsider_may_not_ask(client: TestClient) -> None:
    sign_in(client, "outsider")
    assert client.get(FORM).status_code == 403


def test_the_form_needs_its_csrf_token(client: TestClient) -> None:
    sign_in(client, "jay")
    reply = client.post(FORM, data={"ruleset": "gold4"}, follow_redirects=False)
    assert reply.status_code == 403
    assert "CSRF" in reply.text


def test_a_bad_option_is_said_beside_its_field_and_nothing_is_asked(client: TestClient) -> None:
    sign_in(client, "jay")
    before = event_count(client)
    reply = ask(client, {"ruleset": "gold4", "appearance_fees": "lavish", "samples": "1"})
    no_server_error(reply)
    assert reply.status_code == 422
    said = error_beside(reply.text, "appearance_fees")
    assert said.endswith(" invalid-option")
    assert "appearance_fees" in said
    # The form comes back as it was filled, under the ruleset asked.
    assert '<input type="hidden" name="ruleset" value="gold4">' in reply.text
    assert job_ids(client) == []
    assert event_count(client) == before


def test_a_bad_number_of_samples_is_said_beside_it(client: TestClient) -> None:
    sign_in(client, "jay")
    reply = ask(client, {"ruleset": "bb2025", "bonus_points": "added", "samples": "5000"})
    assert reply.status_code == 422
    assert "from 1 to 500" in error_beside(reply.text, "samples")
    assert '<option value="added" selected>' in reply.text


def test_an_unknown_season_is_said_beside_it_and_nothing_is_asked(client: TestClient) -> None:
    sign_in(client, "jay")
    reply = ask(client, {"ruleset": "bb2025", "samples": "1", "season": "7"})
    assert reply.status_code == 404, reply.text[-800:]
    assert "league demo has no season 7 (seasons: 1)" in error_beside(reply.text, "season")
    assert job_ids(client) == []


def test_the_seed_s_range_is_said_as_it_is_checked(client: TestClient) -> None:
    sign_in(client, "jay")
    reply = ask(client, {"ruleset": "bb2025", "samples": "1", "seed": "2147483648"})
    assert reply.status_code == 422
    assert "from 0 to 2147483647" in error_beside(reply.text, "seed")


def test_a_finished_job_shows_the_comparison_and_writes_nothing(client: TestClient) -> None:
    sign_in(client, "jay")
    before = event_count(client)
    reply = ask(client, {"ruleset": "lrb6-zal", "samples": "1", "seed": "0", "season": ""})
    assert reply.status_code == 303, reply.text[-800:]
    path = reply.headers["location"]
    assert re.fullmatch(rf"{FORM}/[0-9a-f]{{32}}", path)
    html = settled(client, path)
    shown = text_of(html)
    assert f"What if: {find_ruleset('lrb6-zal').name} ·" in shown  # no option changed
    assert "Standings, season 1" in shown
    for team in ("Reikland Reavers", "The Gouged Eye", "Grudgebearers"):
        assert team in shown
    for figure in ("TV", "TR"):  # each side's rating, with its own label
        assert f'<th scope="col" class="n">{figure}</th>' in html
    # the season's places and points, beside the teams' ratings as the log ends
    assert "Places and points are season 1's; TV and TR are each team's as the log ends" in shown
    assert "Treasury and fans" in shown
    assert re.search(r"Divergences \(\d+\)", shown)
    assert "recorded rolls reused" in shown
    assert "spread" not in path
    assert html.count('id="standings"') == 1
    # The same question from the API is the same job: cached by the question.
    job = path.rsplit("/", 1)[1]
    api = client.get(f"/api/jobs/{job}").json()
    assert api["state"] == "done"
    assert api["asked"]["ruleset"] == "lrb6-zal"
    assert event_count(client) == before


def test_with_samples_the_distributions_are_shown_beside_the_comparison(
    client: TestClient,
) -> None:
    sign_in(client, "dan")
    reply = ask(client, {"ruleset": "bb2025", "bonus_points": "added", "samples": "2"})
    assert reply.status_code == 303, reply.text[-800:]
    path = reply.headers["location"]
    assert "?spread=" in path
    html = settled(client, path)
    shown = text_of(html)
    assert "(bonus points: added;" in shown  # the options changed, in words
    assert "Standings, season 1" in shown
    assert "2 samples" in shown
    assert "dice seeds 1 to 2" in shown
    assert html.count('<svg class="bars"') == 4  # one small chart per team
    assert re.search(r'role="img" aria-label="1st: \d+%, 2nd: \d+%', html)


def test_the_form_as_a_browser_sends_it_asks_the_what_if_shown(client: TestClient) -> None:
    """Every field the form shows, at the values it starts from, is a question asked."""
    sign_in(client, "steve")
    html = client.get(FORM, params={"ruleset": "gold4"}).text
    sent = filled(html, appearance_fees="monty_haul")
    assert ("secret_weapons", "true") in sent
    reply = client.post(
        FORM,
        content=urlencode(sent),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        follow_redirects=False,
    )
    assert reply.status_code == 303, reply.text[-800:]
    shown = text_of(settled(client, reply.headers["location"])).replace("&#34;", '"')
    assert 'What if: Blood Bowl 4th edition "Gold" (appearance fees: monty haul)' in shown
    job = reply.headers["location"].rsplit("/", 1)[1]
    asked = client.get(f"/api/jobs/{job}").json()["asked"]
    assert asked["options"] == {
        "appearance_fees": "monty_haul",
        "secret_weapons": True,
        "handicap_mvps": True,
    }


def test_a_running_job_s_page_refreshes_itself_and_shows_its_progress(client: TestClient) -> None:
    sign_in(client, "jay")
    ledger = ledger_of(client)
    row = ledger.league_row(LEAGUE)
    body = WhatIf(ruleset="gold4", samples=7)
    question = Question(row, target_ruleset(row, "gold4", {}), body)
    waiting = jobs(client).create(question, question.key(), "jay")  # made, never started
    reply = client.get(f"{FORM}/{waiting.id}")
    assert reply.status_code == 200
    assert REFRESH.search(reply.text)
    assert '<progress max="7" value="0">' in reply.text
    assert "waiting for its turn" in text_of(reply.text)


def test_an_unknown_job_or_one_of_another_league_is_not_found(client: TestClient) -> None:
    sign_in(client, "jay")
    reply = client.get(f"{FORM}/{'0' * 32}")
    assert reply.status_code == 404
    assert "unknown-job" in reply.text
    row = ledger_of(client).league_row(LEAGUE)
    elsewhere = row.model_copy(update={"slug": "elsewhere"})
    question = Question(elsewhere, target_ruleset(row, "gold4", {}), WhatIf(ruleset="gold4"))
    theirs = jobs(client).create(question, question.key(), "jay")
    assert client.get(f"{FORM}/{theirs.id}").status_code == 404
    ours = Question(row, target_ruleset(row, "gold4", {}), WhatIf(ruleset="gold4"))
    mine = jobs(client).create(ours, ours.key(), "jay")
    assert client.get(f"{FORM}/{mine.id}").status_code == 200
    assert client.get(f"{FORM}/{mine.id}?spread={theirs.id}").status_code == 404


def test_a_job_of_samples_opened_alone_shows_its_distributions(client: TestClient) -> None:
    sign_in(client, "rob")
    reply = ask(client, {"ruleset": "bb2025", "samples": "3", "seed": "7"})
    assert reply.status_code == 303, reply.text[-800:]
    spread = reply.headers["location"].split("?spread=", 1)[1]
    html = settled(client, f"{FORM}/{spread}")
    assert "3 samples" in text_of(html)
    assert "dice seeds 8 to 10" in text_of(html)
    assert 'id="standings"' not in html


def test_the_what_if_between_2025_and_2020_names_the_edition_and_the_team_lists(
    client: TestClient,
) -> None:
    """The page's title and heading are the edition's name (its id and changed options in
    brackets, as ``ledger whatif`` names it), and each side's team lists are named as
    that side's edition prints them."""
    sign_in(client, "jay")
    reply = ask(client, {"ruleset": "bb2020", "samples": "1", "seed": "0", "season": ""})
    assert reply.status_code == 303, reply.text[-800:]
    html = settled(client, reply.headers["location"])
    assert "<title>What if: Blood Bowl 2020, Second Season" in html
    assert "What if: Blood Bowl 2020, Second Season ·" in text_of(html)
    treasury = html[html.index('id="treasury"') :]
    rows = re.findall(
        r"<tr><td class=\"team\">[^<]*</td>\s*<td>([^<]+)</td>.*?<td>([^<]+)</td>",
        treasury,
        re.DOTALL,
    )
    assert {real for real, _ in rows} == {"Human", "Orc", "Dwarf", "Skaven"}
    assert {whatif for _, whatif in rows} == {"Human", "Orc", "Dwarf", "Skaven"}
