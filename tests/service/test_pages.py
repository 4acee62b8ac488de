"""The web pages through the application (TestClient): each page for the roles that read
it, the forms as a browser fills them, and what they refuse.

The league is the played demo league with its accounts (conftest.py): jay coaches the
Reikland Reavers, dan The Gouged Eye, rob the Skavenblight Scramblers, steve the
Grudgebearers; ``commissioner`` runs it; ``outsider`` has no role in it.
"""

from __future__ import annotations

import html
import re
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from ledger.application.commands import ClosePostGame, RecordMatch, SchedulePlayoffs
from ledger.domain.log import league_id
from ledger.domain.state import EventLine, MatchRow, PlayerRow, SubmissionRow
from ledger.domain.values import MAX_TEXT
from tests.service.conftest import LEAGUE, event_count, ledger_of, sign_in
from tests.support import report

REAVERS, GOUGED = "reikland-reavers", "gouged-eye"
HOME = f"/leagues/{LEAGUE}"


def csrf_in(html: str) -> str:
    """The CSRF token a page's forms carry."""
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "the page has no form with a CSRF token"
    return found.group(1)


def form_of(client: TestClient, path: str) -> str:
    reply = client.get(path)
    assert reply.status_code == 200, reply.text[-600:]
    return csrf_in(reply.text)


def post(client: TestClient, path: str, data: dict[str, Any]) -> Any:
    return client.post(path, data=data, follow_redirects=False)


def last_event(client: TestClient) -> dict[str, Any]:
    """The newest stored event of the demo league, as stored (envelope included)."""
    ledger = ledger_of(client)
    stored = ledger.recorder.select_events(league_id(LEAGUE), desc=True, limit=1)[0]
    state: dict[str, Any] = orjson.loads(stored.state)
    state["topic"] = stored.topic
    return state


def error_beside(html: str, field: str) -> str:
    """The error sentence shown beside ``field`` (its ``<p id="FIELD-error">``)."""
    found = re.search(rf'<p class="problem" id="{field}-error"[^>]*>(.*?)</p>', html, re.DOTALL)
    assert found, f"no error beside {field}: " + html[-1500:]
    return re.sub(r"<[^>]+>", "", found.group(1)).replace("&#39;", "'")


def page_text(page: str) -> str:
    """A page's words as a reader sees them: no tags, entities read, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def no_server_error(reply: Any) -> None:
    assert reply.status_code < 500, reply.text[-800:]


# --- reading -----------------------------------------------------------------------------------

PAGES = {
    "league": (HOME, "Standings"),
    "team": (f"{HOME}/teams/{REAVERS}", "Treasury"),
    "player": (f"{HOME}/players/Skweek", "Career, match by match"),
    "match": (f"{HOME}/matches/r1-reavers-gouged-eye", "Casualties"),
    "audit": (f"{HOME}/audit", "Intact:"),
}


@pytest.mark.parametrize("account", ["jay", "commissioner", "admin"])
@pytest.mark.parametrize("name", sorted(PAGES))
def test_each_page_renders_for_the_leagues_members_and_the_admin(
    client: TestClient, account: str, name: str
) -> None:
    sign_in(client, account)
    path, expected = PAGES[name]
    reply = client.get(path)
    assert reply.status_code == 200, reply.text[-800:]
    assert expected in reply.text
    assert reply.headers["content-type"].startswith("text/html")


def test_the_site_icon_is_linked_and_served_where_browsers_look(client: TestClient) -> None:
    assert '<link rel="icon" href="/static/favicon.svg"' in client.get("/").text
    for path in ("/static/favicon.svg", "/favicon.ico"):
        reply = client.get(path)
        assert reply.status_code == 200, path
        assert reply.headers["content-type"].startswith("image/svg+xml")
        assert reply.text.startswith("<svg")


def test_the_site_home_lists_the_leagues_the_account_may_read(client: TestClient) -> None:
    sign_in(client, "jay")
    listed = page_text(client.get("/").text)
    assert "Old World Demo League Blood Bowl 2025, Third Season, season 1" in listed  # by name
    assert "bb2025" not in listed
    client.cookies.clear()
    sign_in(client, "outsider")
    assert "Old World Demo League" not in client.get("/").text


def test_a_members_only_league_sends_a_reader_to_sign_in_and_an_outsider_gets_a_403_page(
    client: TestClient,
) -> None:
    reply = client.get(HOME, follow_redirects=False)
    assert reply.status_code == 303
    assert reply.headers["location"] == f"/login?next={HOME}"
    sign_in(client, "outsider")
    refused = client.get(HOME)
    assert refused.status_code == 403
    assert "outsider has no role in league demo" in refused.text
    assert refused.headers["content-type"].startswith("text/html")


def test_a_public_league_reads_without_an_account_but_shows_no_pending_reports_or_forms(
    client: TestClient,
) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.writing:
        service.accounts.set_visibility(LEAGUE, True, by="commissioner")
    for name in sorted(PAGES):
        path, expected = PAGES[name]
        reply = client.get(path)
        assert reply.status_code == 200, (name, reply.text[-500:])
        assert expected in reply.text
    html = client.get(HOME).text
    assert "Pending reports" not in html
    assert "Submit a match report" not in html
    assert "/hire" not in client.get(f"{HOME}/teams/{REAVERS}").text
    assert client.get(f"{HOME}/teams/{REAVERS}/hire", follow_redirects=False).status_code == 303


def test_the_league_home_shows_standings_with_tie_breakers_results_and_the_report_button(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    html = client.get(HOME).text
    assert 'class="standings"' in html
    assert "Tie-break" in html
    assert "ahead on touchdown difference" in html  # the Gouged Eye over the Grudgebearers
    assert "Latest results" in html
    assert "Your team: Reikland Reavers" in html
    assert f'href="{HOME}/report"' in html
    assert "Pending reports" in html  # members see them


def test_the_team_page_names_the_editions_figures_and_shows_the_statement(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    html = client.get(f"{HOME}/teams/{REAVERS}").text
    assert "<dt>TV</dt>" in html
    assert "<dt>CTV</dt>" in html
    assert "Griff Junior" in html
    assert f'href="{HOME}/teams/{REAVERS}/hire"' in html
    other = client.get(f"{HOME}/teams/{GOUGED}").text
    assert "/hire" not in other  # not jay's team: no hire button


@pytest.mark.parametrize(
    ("fmt", "media", "start"),
    [
        ("html", "text/html", b"<!doctype html>"),
        ("md", "text/markdown", b"# "),
        ("json", "application/json", b"{"),
        ("csv", "application/zip", b"PK"),
    ],
)
def test_the_season_report_downloads_in_each_format(
    client: TestClient, fmt: str, media: str, start: bytes
) -> None:
    sign_in(client, "rob")
    assert f'href="{HOME}/season-report.{fmt}"' in client.get(HOME).text
    reply = client.get(f"{HOME}/season-report.{fmt}")
    assert reply.status_code == 200, reply.text[-500:]
    assert reply.headers["content-type"].startswith(media)
    assert "attachment" in reply.headers["content-disposition"]
    assert reply.content.lstrip().lower().startswith(start.lower())
    assert client.get(f"{HOME}/season-report.pdf").status_code == 422


def test_the_match_page_shows_the_report_dice_spp_and_winnings(client: TestClient) -> None:
    sign_in(client, "dan")
    html = client.get(f"{HOME}/matches/r1-reavers-gouged-eye").text
    assert "The report" in html
    assert "Winnings:" in html
    assert "fan factor" in html  # the dice, by purpose
    assert "SPP" in html


def test_the_audit_page_shows_who_with_account_and_role_and_the_chains_status(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    csrf = form_of(client, f"{HOME}/teams/{REAVERS}/hire")
    hired = post(
        client, f"{HOME}/teams/{REAVERS}/hire", {"csrf": csrf, "position": "lineman", "name": "Aud"}
    )
    assert hired.status_code == 303
    client.cookies.clear()
    sign_in(client, "commissioner")
    html = client.get(f"{HOME}/audit").text
    assert "Intact:" in html
    newest = re.search(r'<tr id="event-\d+">(.*?)</tr>', html, re.DOTALL)
    assert newest is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", newest.group(1), re.DOTALL)
    assert "hired Aud" in cells[2]
    assert cells[3:7] == ["Jay", "jay", "coach", "web"]  # who, account, role, via
    assert "correct</a>" in html  # the commissioner may correct events


# --- hiring ------------------------------------------------------------------------------------


def test_the_hire_form_lists_positions_with_price_and_how_many_more(client: TestClient) -> None:
    sign_in(client, "jay")
    html = client.get(f"{HOME}/teams/{REAVERS}/hire").text
    assert re.search(r"Blitzer &mdash; 85,000 gp, 0 more allowed", html)
    assert re.search(r"Lineman &mdash; 50,000 gp, \d+ more allowed", html)


def test_a_coach_hires_through_the_form_and_the_event_records_the_account(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    csrf = form_of(client, f"{HOME}/teams/{REAVERS}/hire")
    reply = post(
        client,
        f"{HOME}/teams/{REAVERS}/hire",
        {"csrf": csrf, "position": "lineman", "name": "Hugo Web", "number": "15"},
    )
    assert reply.status_code == 303, reply.text[-800:]
    assert reply.headers["location"].startswith(f"{HOME}/players/p")
    hired = last_event(client)
    assert hired["topic"].endswith("PlayerHired")
    assert (hired["account"], hired["acting_as"], hired["via"]) == ("jay", "coach", "web")
    assert "Hugo Web" in client.get(reply.headers["location"]).text


def test_another_coach_gets_a_403_page_on_the_hire_form_and_writes_nothing(
    client: TestClient,
) -> None:
    sign_in(client, "dan")
    shown = client.get(f"{HOME}/teams/{REAVERS}/hire")
    assert shown.status_code == 403
    assert "dan coaches The Gouged Eye, not Reikland Reavers" in shown.text
    before = event_count(client)
    csrf = form_of(client, f"{HOME}/teams/{GOUGED}/hire")
    refused = post(
        client, f"{HOME}/teams/{REAVERS}/hire", {"csrf": csrf, "position": "lineman", "name": "X"}
    )
    assert refused.status_code == 403
    assert event_count(client) == before


def test_a_form_without_its_csrf_token_is_refused_with_403_and_writes_nothing(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    before = event_count(client)
    for data in ({}, {"csrf": "forged"}):
        reply = post(
            client, f"{HOME}/teams/{REAVERS}/hire", {**data, "position": "lineman", "name": "Y"}
        )
        assert reply.status_code == 403, reply.text[-500:]
        assert "csrf" in reply.text
    assert event_count(client) == before


def test_a_hire_the_rules_refuse_shows_the_clis_sentence_beside_the_field(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    csrf = form_of(client, f"{HOME}/teams/{REAVERS}/hire")
    before = event_count(client)
    taken = post(
        client,
        f"{HOME}/teams/{REAVERS}/hire",
        {"csrf": csrf, "position": "lineman", "name": "Griff Junior"},
    )
    assert taken.status_code == 409
    assert "already have a player called Griff Junior" in error_beside(taken.text, "name")
    assert 'value="Griff Junior"' in taken.text  # what was typed is kept
    full = post(
        client, f"{HOME}/teams/{REAVERS}/hire", {"csrf": csrf, "position": "blitzer", "name": "Z"}
    )
    assert "Blitzer (at most 2)" in error_beside(full.text, "position")
    bad = post(
        client,
        f"{HOME}/teams/{REAVERS}/hire",
        {"csrf": csrf, "position": "lineman", "name": "Z", "number": "ten"},
    )
    assert bad.status_code == 422
    assert "whole number" in error_beside(bad.text, "number")
    worn = post(
        client,
        f"{HOME}/teams/{REAVERS}/hire",
        {"csrf": csrf, "position": "lineman", "name": "Z", "number": "1"},
    )
    assert worn.status_code == 409
    assert error_beside(worn.text, "number").endswith(" number-taken")
    assert event_count(client) == before


def test_a_coach_buys_a_reroll_through_the_form(client: TestClient) -> None:
    sign_in(client, "dan")
    csrf = form_of(client, f"{HOME}/teams/{GOUGED}/buy")
    reply = post(
        client, f"{HOME}/teams/{GOUGED}/buy", {"csrf": csrf, "item": "reroll", "count": "1"}
    )
    no_server_error(reply)
    assert reply.status_code in (303, 409), reply.text[-600:]
    if reply.status_code == 409:  # the treasury may not stretch to it: said beside the item
        assert '<code class="code"' in reply.text
    else:
        assert last_event(client)["account"] == "dan"


def test_a_purchase_lands_on_the_team_saying_what_was_bought(client: TestClient) -> None:
    """The hire form lands on the player hired; the buy form landed on the team page
    saying nothing of what it did."""
    sign_in(client, "jay")
    path = f"{HOME}/teams/{REAVERS}/buy"
    reply = post(client, path, {"csrf": form_of(client, path), "item": "cheerleader", "count": "1"})
    assert reply.status_code == 303, reply.text[-600:]
    assert reply.headers["location"] == f"{HOME}/teams/{REAVERS}?bought=1"
    shown = page_text(client.get(reply.headers["location"]).text)
    assert re.search(r"Bought 1 x Cheerleader for 10,000; the treasury holds [\d,]+\.", shown)
    client.cookies.clear()
    sign_in(client, "dan")  # another coach reading the same address is told nothing
    assert "Bought" not in page_text(client.get(reply.headers["location"]).text)


def once_in(html: str) -> str:
    """The key a form carries that makes sending it twice record it once."""
    found = re.search(r'name="once" value="([^"]+)"', html)
    assert found, "the form has no key"
    return found.group(1)


def test_a_form_sent_twice_buys_once_and_both_go_to_the_team(client: TestClient) -> None:
    """A double click, or Back and Send again: the same form is the same purchase."""
    sign_in(client, "jay")
    path = f"{HOME}/teams/{REAVERS}/buy"
    html = client.get(path).text
    fields = {"csrf": csrf_in(html), "once": once_in(html), "item": "cheerleader", "count": "1"}
    before = event_count(client)
    first, second = post(client, path, fields), post(client, path, fields)
    assert first.status_code == second.status_code == 303, second.text[-600:]
    landing = f"{HOME}/teams/{REAVERS}?bought=1"
    assert first.headers["location"] == second.headers["location"] == landing
    assert event_count(client) == before + 1
    changed = post(client, path, {**fields, "count": "2"})  # the old form, changed: refused
    assert changed.status_code == 422
    assert "this form was sent already: open the page again" in changed.text
    again = client.get(path).text  # the form shown again is another purchase
    assert once_in(again) != fields["once"]
    assert post(client, path, {**fields, "once": once_in(again)}).status_code == 303
    assert event_count(client) == before + 2


def test_a_cleared_count_on_the_buy_form_is_refused_not_taken_for_one(client: TestClient) -> None:
    sign_in(client, "jay")
    path = f"{HOME}/teams/{REAVERS}/buy"
    before = event_count(client)
    reply = post(client, path, {"csrf": form_of(client, path), "item": "cheerleader", "count": ""})
    assert reply.status_code == 422, reply.text[-600:]
    assert "how many is a whole number from 1 to 16, not ''" in error_beside(reply.text, "count")
    # the bound the CLI's --count and the API's count keep (MOST_BOUGHT)
    many = post(client, path, {"csrf": form_of(client, path), "item": "cheerleader", "count": "17"})
    assert "from 1 to 16, not '17'" in error_beside(many.text, "count")
    assert event_count(client) == before


def test_the_buy_form_shows_an_item_held_to_its_limit_but_does_not_offer_it(
    client: TestClient,
) -> None:
    sign_in(client, "jay")
    html = client.get(f"{HOME}/teams/{REAVERS}/buy").text
    apothecary = re.search(r'<option value="apothecary"([^>]*)>\s*([^<]*)', html)
    assert apothecary, html[-1500:]
    assert "disabled" in apothecary.group(1)
    assert "1 of 1 held, the most allowed" in apothecary.group(2)
    cheerleader = re.search(r'<option value="cheerleader"([^>]*)>', html)
    assert cheerleader
    assert "disabled" not in cheerleader.group(1)


# --- the match report workflow -----------------------------------------------------------------


def report_fields(csrf: str, **extra: str) -> dict[str, str]:
    """A 2-1 win of the Reavers over the Gouged Eye, as jay fills the form."""
    return {
        "csrf": csrf,
        "home": REAVERS,
        "away": GOUGED,
        "kind": "friendly",
        "match": "web-friendly-1",
        "home-0-player": "Griff Junior",
        "home-0-td": "2",
        "home-0-mvp": "1",
        "away-0-player": "Ugluk",
        "away-0-td": "1",
        "away-1-player": "Lurtz",
        "away-1-mvp": "1",
        "roll_missing": "1",
        **extra,
    }


def player_ids(client: TestClient, *names: str) -> dict[str, str]:
    ledger = ledger_of(client)
    lid = str(league_id(LEAGUE))
    return {
        p.name: p.player_id
        for p in ledger.view().select(PlayerRow, league_id=lid)
        if p.name in names
    }


def submit_friendly(client: TestClient, **extra: str) -> Any:
    sign_in(client, "jay")
    form = client.get(
        f"{HOME}/report", params={"home": REAVERS, "away": GOUGED, "kind": "friendly"}
    )
    assert form.status_code == 200, form.text[-600:]
    assert "Griff Junior" in form.text
    assert "Ugluk" in form.text
    ids = player_ids(client, "Griff Junior", "Ugluk", "Lurtz")
    fields = report_fields(csrf_in(form.text), **extra)
    for key, value in list(fields.items()):
        if key.endswith("-player"):
            fields[key] = ids.get(value, value)  # a hireling row stays as it is
    return post(client, f"{HOME}/report", fields)


def test_a_submitted_line_says_each_figure_or_that_he_played_for_nothing(
    client: TestClient,
) -> None:
    """A line of a player picked with no figure read "Dieter Hammer:" and nothing after."""
    ids = player_ids(client, "Dieter Hammer")
    reply = submit_friendly(client, **{"home-1-player": ids["Dieter Hammer"]})
    assert reply.status_code == 303, reply.text[-1500:]
    sent = page_text(client.get(reply.headers["location"]).text)
    assert "Dieter Hammer: played, nothing that earns SPP" in sent


def test_a_coach_submits_a_report_and_the_opponent_confirms_it(client: TestClient) -> None:
    reply = submit_friendly(client)
    assert reply.status_code == 303, reply.text[-1500:]
    page = reply.headers["location"]
    assert page == f"{HOME}/submissions/s1"
    assert last_event(client)["account"] == "jay"
    sent = page_text(client.get(page).text)
    waits = "it waits for The Gouged Eye's coach to confirm it (or dispute it), or for the"
    assert f"Sent, nothing recorded yet: {waits} commissioner to approve it." in sent
    assert "Griff Junior: 2 TD, 1 MVP" in sent
    assert "Ugluk: 1 TD" in sent
    client.cookies.clear()
    sign_in(client, "dan")
    shown = client.get(page).text
    assert "Confirm: record this match" in shown
    confirmed = post(client, f"{page}/confirm", {"csrf": csrf_in(shown)})
    assert confirmed.status_code == 303, confirmed.text[-800:]
    ledger = ledger_of(client)
    row = ledger.view().get(MatchRow, str(league_id(LEAGUE)), "web-friendly-1")
    assert row is not None
    assert (row.status, row.home_score, row.away_score) == ("played", 2, 1)
    assert f'href="{HOME}/matches/web-friendly-1"' in client.get(page).text  # recorded now
    assert "Sent, nothing recorded yet" not in client.get(page).text


def confirmed_by_dan(client: TestClient, reply: Any) -> dict[str, Any]:
    """Dan confirms the report just submitted; the recorded match's event, as stored."""
    assert reply.status_code == 303, reply.text[-1500:]
    page = reply.headers["location"]
    client.cookies.clear()
    sign_in(client, "dan")
    done = post(client, f"{page}/confirm", {"csrf": form_of(client, page)})
    assert done.status_code == 303, done.text[-800:]
    return last_event(client)


def one_short_of_eleven(client: TestClient) -> None:
    """Two Reavers Seriously Hurt in the season's final miss the next game: ten Reavers are
    able to play, so one Journeyman may (seed 001 'Take on Journeymen': "may not take the
    number of players able to play the game over 11")."""
    ledger = ledger_of(client)
    final = ledger.handle(SchedulePlayoffs(LEAGUE), by="commissioner")
    assert final == 1
    [fixture] = [
        m
        for m in ledger.view().select(MatchRow, league_id=str(league_id(LEAGUE)))
        if m.stage != "regular"
    ]
    hurt = [{"victim": name, "roll": 9} for name in ("Otto Brandt", "Fritz Berger")]
    game = {
        "match": fixture.match_id,
        "kind": "playoff",
        "home": {"team": fixture.home, "touchdowns": int(fixture.home == REAVERS)},
        "away": {"team": fixture.away, "touchdowns": int(fixture.away == REAVERS)},
        "casualties": hurt,
    }
    ledger.handle(RecordMatch(LEAGUE, report(game), roll_missing=True), by="commissioner")
    for team in (fixture.home, fixture.away):
        close = ClosePostGame(LEAGUE, fixture.match_id, team, roll_missing=True)
        ledger.handle(close, by="commissioner")


def test_a_report_names_its_journeyman_and_his_touchdown(client: TestClient) -> None:
    """BB2025 journeymen play one game: the form's hireling row, picked in a player line by
    its row, reaches the report as a hireling with the touchdown."""
    one_short_of_eleven(client)
    reply = submit_friendly(
        client,
        **{
            "home-h1-name": "Jo Journey",
            "home-h1-kind": "journeyman",
            "home-h1-position": "lineman",
            "home-1-player": "home-h1",
            "home-1-td": "1",
            "home-0-td": "1",
        },
    )
    recorded = confirmed_by_dan(client, reply)
    home = recorded["home"]
    assert home["touchdowns"] == 2
    [hireling] = home["hirelings"]
    assert (hireling["name"], hireling["kind"], hireling["position"]) == (
        "Jo Journey",
        "journeyman",
        "lineman",
    )
    assert {"player": "home-h1", "touchdowns": 1}.items() <= next(
        line for line in home["players"] if line["player"] == "home-h1"
    ).items()


def test_a_conceded_game_is_reported_from_the_form(client: TestClient) -> None:
    reply = submit_friendly(client, **{"concession-team": "away", "concession-kind": "conceded"})
    recorded = confirmed_by_dan(client, reply)
    assert recorded["concession"] == {"team": GOUGED, "kind": "conceded"}


def test_a_conceding_side_the_form_does_not_offer_is_refused_not_ignored(
    client: TestClient,
) -> None:
    """An edited request: a concession by 'zzz' would otherwise be a game played out."""
    before = event_count(client)
    reply = submit_friendly(client, **{"concession-team": "zzz", "concession-kind": "conceded"})
    assert reply.status_code == 422, reply.text[-800:]
    said = error_beside(reply.text, "concession")
    assert "the conceding side is one of the game's, not 'zzz'" in said
    assert event_count(client) == before


def test_a_hireling_the_books_cannot_take_is_refused_beside_the_hirelings(
    client: TestClient,
) -> None:
    before = event_count(client)
    not_gold = submit_friendly(
        client,
        **{"home-h1-name": "Odd One", "home-h1-kind": "journeyman", "home-h1-price": "lots"},
    )
    assert not_gold.status_code == 422, not_gold.text[-800:]
    assert "hireling 1's price is gold" in error_beside(not_gold.text, "hirelings")
    no_such = submit_friendly(
        client,
        **{"home-h1-name": "Odd One", "home-h1-kind": "journeyman", "home-h1-position": "troll"},
    )
    assert no_such.status_code in (404, 409, 422), no_such.text[-800:]
    assert "troll" in no_such.text
    assert event_count(client) == before


def test_a_figure_that_is_not_a_number_is_named_by_its_side_and_line(client: TestClient) -> None:
    before = event_count(client)
    reply = submit_friendly(client, **{"away-1-td": "x"})
    assert reply.status_code == 422, reply.text[-800:]
    assert "away player line 2's TD is a whole number" in reply.text.replace("&#39;", "'")
    assert event_count(client) == before


def test_a_figure_beyond_the_reports_bound_is_marked_on_its_field(client: TestClient) -> None:
    """A TD of 99 passed the form and was refused by the report's model, at the top only
    and in its API path ('the report: home.players.0.td: must be at most 50')."""
    before = event_count(client)
    reply = submit_friendly(client, **{"home-0-td": "99"})
    assert reply.status_code == 422, reply.text[-800:]
    text = reply.text.replace("&#39;", "'")
    assert "home player line 1's TD is a whole number from 0 to 50, not '99'" in text
    assert 'id="home-0-td" name="home-0-td"' in text
    assert re.search(r'name="home-0-td"[^>]*aria-invalid="true"', text, re.S)
    assert "home.players.0.td" not in text
    assert event_count(client) == before


def test_a_line_left_out_for_its_figure_leaves_the_games_dice_unjudged(
    client: TestClient,
) -> None:
    """Griff's TD of -1 leaves his line out: the game left would be a 0-0 draw, after which
    no Dedicated Fans are rolled, so the dice entered for the 2-0 win were refused too ('not
    part of this match's sequence'), beside fields filled in right."""
    dice = {
        f"dice-{team}-{purpose}": value
        for team in (REAVERS, GOUGED)
        for purpose, value in (("fan_factor", "2"), ("dedicated_fans", "4"))
    }
    before = event_count(client)
    reply = submit_friendly(
        client, kind="league", roll_missing="", **{"home-0-td": "-1", "away-0-td": "0"}, **dice
    )
    assert reply.status_code == 422, reply.text[-800:]
    text = reply.text.replace("&#39;", "'")
    assert "home player line 1's TD is a whole number from 0 to 50, not '-1'" in text
    assert "not part of this match's sequence" not in text
    assert not re.search(r'name="dice-[^"]*"[^>]*aria-invalid="true"', text)
    assert event_count(client) == before


@pytest.mark.parametrize("match", ["m" * 200, "no spaces please"], ids=["too long", "spaces"])
def test_a_match_id_the_books_cannot_hold_is_named_on_the_form_kept_as_filled(
    client: TestClient, match: str
) -> None:
    before = event_count(client)
    reply = submit_friendly(client, match=match)
    assert reply.status_code == 422, reply.text[-800:]
    assert reply.headers["content-type"].startswith("text/html")
    assert 'name="home-0-player"' in reply.text  # the form again, as the coach filled it
    assert re.search(r"the match id: \S.*<code class=\"code\"[^>]*>malformed-report<", reply.text)
    assert event_count(client) == before


def proposed_match(client: TestClient, away: str = GOUGED) -> str:
    form = client.get(f"{HOME}/report", params={"home": REAVERS, "away": away, "kind": "friendly"})
    found = re.search(r'<input id="match" name="match"[^>]*value="([^"]*)"', form.text)
    assert found, form.text[-800:]
    return found.group(1)


def test_the_form_proposes_a_match_id_no_match_or_waiting_report_holds(
    client: TestClient,
) -> None:
    """Reports may name their own ids, the ledger's next ones among them: the form proposes
    the first id from the ledger's next that no recorded match and no waiting report holds
    (it proposed one already taken, and every report under it was refused)."""
    sign_in(client, "jay")
    number = int(proposed_match(client).removeprefix("m"))
    waiting = submit_friendly(client, match=f"m{number + 2}")
    assert waiting.status_code == 303, waiting.text[-800:]
    game = {"match": f"m{number + 1}", "kind": "friendly", "home": {"team": REAVERS}}
    recorded = RecordMatch(LEAGUE, report({**game, "away": {"team": GOUGED}}), roll_missing=True)
    ledger_of(client).handle(recorded, by="commissioner")  # his own record of another game
    # The ledger's next is m{number + 1} now (a match recorded without a fixture took a
    # number), which the commissioner's record gave itself; m{number + 2} waits for an answer.
    # (the form of another game: this one's goes to the report that waits)
    assert proposed_match(client, away="skavenblight-scramblers") == f"m{number + 3}"


def test_the_submitter_cannot_confirm_their_own_report(client: TestClient) -> None:
    page = submit_friendly(client).headers["location"]
    html = client.get(page).text
    assert "Confirm: record this match" not in html
    before = event_count(client)
    refused = post(client, f"{page}/confirm", {"csrf": csrf_in(html)})
    assert refused.status_code in (403, 409)
    assert event_count(client) == before


@pytest.mark.parametrize("step", ["confirm", "dispute"])
@pytest.mark.parametrize(
    ("account", "why"),
    [("jay", "coaches Reikland Reavers, not The Gouged Eye"), ("steve", "not The Gouged Eye")],
    ids=["the submitter", "a coach not in the game"],
)
def test_a_refused_answer_shows_the_reason_on_the_reports_page(
    client: TestClient, account: str, why: str, step: str
) -> None:
    page = submit_friendly(client).headers["location"]
    client.cookies.clear()
    sign_in(client, account)
    before = event_count(client)
    refused = post(client, f"{page}/{step}", {"csrf": form_of(client, page), "reason": "no"})
    assert refused.status_code == 403
    assert why in error_beside(refused.text, "answer")
    assert event_count(client) == before


def test_a_disputed_report_waits_and_the_commissioner_rejects_it_with_a_reason(
    client: TestClient,
) -> None:
    page = submit_friendly(client).headers["location"]
    client.cookies.clear()
    sign_in(client, "dan")
    csrf = form_of(client, page)
    no_reason = post(client, f"{page}/dispute", {"csrf": csrf, "reason": ""})
    assert no_reason.status_code == 422
    said = error_beside(no_reason.text, "reason")
    assert "a dispute needs a reason" in said
    assert "--reason" not in said  # a web form has no command-line flags
    assert (
        post(client, f"{page}/dispute", {"csrf": csrf, "reason": "Ugluk scored twice"}).status_code
        == 303
    )
    client.cookies.clear()
    sign_in(client, "commissioner")
    html = client.get(HOME).text
    assert f'href="{HOME}/submissions/s1"' in html
    assert "report s1, from Reikland Reavers" in page_text(html)
    assert "disputed" in html
    shown = client.get(page).text
    assert "Ugluk scored twice" in shown
    assert f'maxlength="{MAX_TEXT}"' in shown  # the form's bound is the events' own
    nul = post(client, f"{page}/reject", {"csrf": csrf_in(shown), "reason": "replay\x00it"})
    assert nul.status_code == 422  # PostgreSQL's text holds no NUL: refused, not a 500
    assert "reason: must hold no control character" in error_beside(nul.text, "reject_reason")
    rejected = post(client, f"{page}/reject", {"csrf": csrf_in(shown), "reason": "replay it"})
    assert rejected.status_code == 303
    row = ledger_of(client).view().get(SubmissionRow, str(league_id(LEAGUE)), "s1")
    assert row is not None
    assert row.status == "rejected"
    client.cookies.clear()
    sign_in(client, "jay")  # the submitter reads why
    seen = client.get(page).text
    assert "Rejected by the commissioner: replay it" in seen
    # the game was never recorded: its id is named, not linked to a page that is not there
    assert f'href="{HOME}/matches/web-friendly-1"' not in seen
    assert client.get(f"{HOME}/matches/web-friendly-1").status_code == 404


def test_a_rejected_report_is_corrected_from_its_form_filled_as_sent(
    client: TestClient,
) -> None:
    """A rejected report left its coach no way on from its page: he entered the whole
    report anew (a helper's pass through the pages, forty-fourth session)."""
    page = submit_friendly(client, weather="drizzle").headers["location"]
    client.cookies.clear()
    sign_in(client, "commissioner")
    shown = client.get(page).text
    assert "Correct it and send it again" not in shown  # a report waiting is answered
    post(client, f"{page}/reject", {"csrf": csrf_in(shown), "reason": "Lurtz had no MVP"})
    client.cookies.clear()
    sign_in(client, "jay")
    again = client.get(page).text
    assert f'href="{page}/again"' in again
    form = client.get(f"{page}/again")
    assert form.status_code == 200, form.text[-800:]
    griff = player_ids(client, "Griff Junior")["Griff Junior"]
    assert re.search(rf'<option value="{griff}"[^>]*selected', form.text)
    assert 'value="drizzle"' in form.text
    assert re.search(r'name="home-0-td"[^>]*value="2"', form.text, re.S)
    fields = dict(re.findall(r'name="([^"]+-(?:td|mvp|player))"[^>]*value="([^"]*)"', form.text))
    assert fields.get("away-1-mvp") == "1"  # as sent: the coach corrects what was wrong
    before = event_count(client)
    corrected = {**report_fields(csrf_in(form.text)), "away-1-mvp": "", "away-0-mvp": "1"}
    corrected |= {
        k: player_ids(client, v).get(v, v) for k, v in corrected.items() if k.endswith("-player")
    }
    sent = post(client, f"{HOME}/report", {**corrected, "match": "web-friendly-1"})
    assert sent.status_code == 303, sent.text[-800:]
    assert event_count(client) == before + 1
    client.cookies.clear()
    sign_in(client, "dan")  # another coach may not fill his report
    assert client.get(f"{page}/again").status_code == 403


def test_a_report_with_a_missing_roll_shows_the_sentence_beside_the_dice(
    client: TestClient,
) -> None:
    before = event_count(client)
    reply = submit_friendly(client, kind="league", roll_missing="")
    assert reply.status_code == 422, reply.text[-800:]
    assert "the report lacks these rolls" in error_beside(reply.text, "dice")
    assert event_count(client) == before


def test_the_form_says_which_rolls_follow_only_some_results(client: TestClient) -> None:
    """BB2025 'Update Dedicated Fans' is rolled after a win or a loss, not a draw (seed
    001): its field says so, where the Fan Factor's, rolled after every game, does not."""
    sign_in(client, "jay")
    form = client.get(f"{HOME}/report", params={"home": REAVERS, "away": GOUGED}).text
    fans = f"dice-{REAVERS}-dedicated_fans"
    hint = re.search(rf'<p class="hint" id="{fans}-why">(.*?)</p>', form, re.S)
    assert hint is not None
    assert hint.group(1).endswith("only after a win or a loss, left empty otherwise")
    factor = re.search(rf'<p class="hint" id="dice-{REAVERS}-fan_factor-why">(.*?)</p>', form)
    assert factor is not None
    assert "only after" not in factor.group(1)


def test_another_coach_may_not_submit_a_report_of_a_game_they_did_not_play(
    client: TestClient,
) -> None:
    sign_in(client, "rob")
    reply = client.get(f"{HOME}/report", params={"home": REAVERS, "away": GOUGED})
    assert reply.status_code == 403
    assert "rob coaches Skavenblight Scramblers" in reply.text


# --- corrections ---------------------------------------------------------------------------------


def test_the_commissioner_voids_an_event_with_a_reason_and_a_coach_may_not(
    client: TestClient,
) -> None:
    ledger = ledger_of(client)
    target = ledger.view().get(MatchRow, str(league_id(LEAGUE)), "r1-reavers-gouged-eye")
    assert target is not None
    assert target.recorded_seq
    path = f"{HOME}/events/{target.recorded_seq}/correct"
    sign_in(client, "jay")
    assert client.get(path).status_code == 403
    client.cookies.clear()
    sign_in(client, "commissioner")
    shown = client.get(path).text
    assert "(match recorded, by " in shown  # the type in words
    assert not re.search(r"name=\"action\" value=\"\w+\" checked", shown)  # none chosen for him
    assert 'name="set-weather"' in shown  # a field of one value: labelled, as it stands
    assert "Not amended here: the kind of match report" in page_text(shown)  # the command says why
    assert "Other fields: away, casualties" in page_text(shown)  # a side: typed, for experts
    csrf = form_of(client, path)
    before = event_count(client)
    unchosen = post(client, path, {"csrf": csrf, "reason": "typo"})  # a void undoes much
    assert unchosen.status_code == 422
    assert "choose to void or to amend the event" in error_beside(unchosen.text, "action")
    no_reason = post(client, path, {"csrf": csrf, "action": "void", "reason": ""})
    assert "needs a reason" in error_beside(no_reason.text, "reason")
    # an amendment typed with 'void' still chosen is not taken for a void
    typed = {"csrf": csrf, "action": "void", "reason": "r", "amendment": "kind=friendly"}
    void_amended = post(client, path, typed)
    assert void_amended.status_code == 422
    assert "a void changes no field" in error_beside(void_amended.text, "amendment")
    long = post(client, path, {**typed, "action": "amend", "amendment": "price=1" + " " * 4000})
    assert long.status_code == 422
    assert "an amendment is at most 4,000 characters" in error_beside(long.text, "amendment")
    assert event_count(client) == before
    done = post(
        client, path, {"csrf": csrf, "action": "void", "reason": "played on the wrong pitch"}
    )
    assert done.status_code in (303, 409), done.text[-800:]
    if done.status_code == 303:
        assert last_event(client)["reason"] == "played on the wrong pitch"
        assert last_event(client)["acting_as"] == "commissioner"
    else:  # the rules may refuse to void a game others built on: said on the form
        assert '<code class="code"' in done.text


def test_the_commissioner_amends_a_hire_by_its_labelled_fields(client: TestClient) -> None:
    """The form offered a box of ``field=value`` lines, as ``ledger correct --set`` takes
    them: it now offers each field labelled, filled as it stands, and amends only what was
    changed; a field that ties the hire to others is shown, not offered."""
    ledger = ledger_of(client)
    lines = ledger.view().select(EventLine, league_id=str(league_id(LEAGUE)))
    hire = next(
        line for line in lines if line.summary.startswith("Reikland Reavers hired Griff Junior")
    )
    path = f"{HOME}/events/{hire.seq}/correct"
    sign_in(client, "commissioner")
    shown = client.get(path).text
    assert re.search(r'name="set-name" value="Griff Junior"', shown)
    assert re.search(r'id="set-team" value="reikland-reavers" disabled', shown)
    csrf = form_of(client, path)
    base = {"csrf": csrf, "action": "amend", "reason": "his shirt", "set-name": "Griff Junior"}
    before = event_count(client)
    wrong = post(client, path, {**base, "set-number": "seven"})
    assert wrong.status_code == 422
    assert "number is a whole number, not 'seven'" in error_beside(wrong.text, "set-number")
    same = post(client, path, {**base, "set-number": number_of(shown)})
    assert "change a field to amend it" in error_beside(same.text, "amendment")
    assert event_count(client) == before
    done = post(client, path, {**base, "set-number": "42"})
    assert done.status_code == 303, done.text[-800:]
    corrected = last_event(client)
    assert (corrected["target"], corrected["amendment"]) == (hire.seq, {"number": 42})
    assert 'name="set-number" value="42"' in client.get(path).text  # as it now stands


def number_of(html: str) -> str:
    found = re.search(r'name="set-number" value="(\d*)"', html)
    assert found is not None
    return found.group(1)


def test_pages_never_answer_a_server_error(client: TestClient) -> None:
    sign_in(client, "commissioner")
    for path in (
        f"{HOME}/teams/nobody",
        f"{HOME}/players/nobody",
        f"{HOME}/matches/nothing",
        f"{HOME}/submissions/s99",
        f"{HOME}/events/99999/correct",
        f"{HOME}/audit?before=3",
        "/leagues/nowhere",
        "/static/../../etc/passwd",
    ):
        no_server_error(client.get(path))
    assert client.get(f"{HOME}/teams/nobody").status_code == 404
    assert 'href="/leagues/demo">Back to Old World Demo League</a>' in (
        client.get(f"{HOME}/teams/nobody").text  # back to the league it was asked of
    )
    assert "Back to Old World" not in client.get("/leagues/nowhere").text
    missing = client.get(f"{HOME}/events/99999/correct")  # not an empty form to fill in
    assert missing.status_code == 404
    assert "has no event 99999 to correct" in missing.text


def test_a_casualtys_effects_are_said_as_a_coach_reads_them(client: TestClient) -> None:
    """``-av`` is the books' id; the match page says ``-1 AV``."""
    sign_in(client, "jay")
    matches = ledger_of(client).view().select(MatchRow, league_id=str(league_id(LEAGUE)))
    pages = [page_text(client.get(f"{HOME}/matches/{m.match_id}").text) for m in matches]
    said = " ".join(pages)
    assert "misses the next game" in said or "-1 " in said, "the demo has lasting injuries"
    for effect_id in ("-ma", "-st", "-ag", "-pa", "-av", "miss next game", "miss_next_game"):
        assert effect_id not in said.replace("-1 ", "")


def test_a_played_fixture_offers_no_report_form(client: TestClient) -> None:
    """Its report is recorded: the form would only be refused when sent."""
    sign_in(client, "jay")
    reply = client.get(f"{HOME}/matches/r1-reavers-gouged-eye/report")
    assert reply.status_code == 409
    assert "was already recorded" in reply.text


def test_a_history_line_links_the_audit_page_that_holds_its_event(client: TestClient) -> None:
    """The audit page shows the latest 50 events; an older one is on a page of its own
    (``?before=``): a team's history links there, not to an anchor the page lacks."""
    sign_in(client, "commissioner")
    html = client.get(f"{HOME}/teams/{GOUGED}").text
    links = re.findall(rf'href="({HOME}/audit\?before=(\d+)#event-\d+)"', html)
    assert links, "the team page links no event"
    oldest, seq = min(links, key=lambda link: int(link[1]))
    assert f'id="event-{seq}"' in client.get(oldest.partition("#")[0]).text
    assert int(seq) < event_count(client) - 50  # the demo's first events: not on the latest page


HUGE = str(2**70)  # past SQLite's integers: it reached the store and failed there (a 500)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", f"{HOME}/audit?before={HUGE}"),
        ("GET", f"{HOME}/audit?before=0"),
        ("GET", f"{HOME}/events/{HUGE}/correct"),
        ("POST", f"{HOME}/events/{HUGE}/correct"),
    ],
)
def test_an_event_number_out_of_range_is_refused_on_a_page_naming_it(
    client: TestClient, method: str, path: str
) -> None:
    sign_in(client, "commissioner")
    token = form_of(client, f"{HOME}/events/2/correct")
    count = event_count(client)
    data = {"csrf": token, "action": "void", "reason": "typo"} if method == "POST" else None
    reply = client.request(method, path, data=data)
    assert reply.status_code == 422, reply.text[-800:]
    assert reply.headers["content-type"].startswith("text/html")
    assert re.search(r"(before|seq): must be at (most|least) [0-9,]+", reply.text)
    assert event_count(client) == count


def test_the_report_form_offers_only_the_players_who_may_play(client: TestClient) -> None:
    """Skweek must miss the demo's next game (a Lasting Injury): a report naming him is
    refused, so the pick-lists do not offer him; his team-mates are offered."""
    sign_in(client, "rob")
    reply = client.get(
        f"{HOME}/report",
        params={"home": "skavenblight-scramblers", "away": REAVERS, "kind": "friendly"},
    )
    assert reply.status_code == 200, reply.text[-600:]
    ledger = ledger_of(client)
    players = ledger.view().select(PlayerRow, league_id=str(league_id(LEAGUE)))
    skweek = next(p for p in players if p.name == "Skweek")
    assert skweek.miss_next_game
    assert f'value="{skweek.player_id}"' not in reply.text
    mates = [p for p in players if p.team_id == skweek.team_id and p.player_id != skweek.player_id]
    assert all(f'value="{p.player_id}"' in reply.text for p in mates if p.status == "active")


@pytest.mark.parametrize("path", ["/leagues/demo/nonsense/deeper", "/no-such-page"])
def test_an_address_no_page_serves_is_a_404_page_for_a_browser(
    client: TestClient, path: str
) -> None:
    sign_in(client, "jay")
    reply = client.get(path, headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert reply.status_code == 404
    assert reply.headers["content-type"].startswith("text/html")
    assert f"there is no page at {path}" in reply.text
    assert "jay" in reply.text  # the site's header, the account signed in


BROWSER = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


@pytest.mark.parametrize(
    ("path", "page"),
    [
        ("/leagues/demo/submissions/s1/confirm", "/leagues/demo/submissions/s1"),
        ("/leagues/demo/teams/reikland-reavers/players/p1/fire/x", "/"),
    ],
)
def test_a_forms_address_opened_in_the_browser_leads_to_its_page(
    client: TestClient, path: str, page: str
) -> None:
    """After a refusal the address bar keeps the form's address (``.../confirm``): opened
    again, it showed the API's 'Method not allowed' document."""
    submit_friendly(client)
    reply = client.get(path, headers=BROWSER, follow_redirects=False)
    if page == "/":  # no form's address: a page no route serves
        assert reply.status_code == 404
        return
    assert reply.status_code == 303
    assert reply.headers["location"] == page
    assert client.get(path, headers={"Accept": "application/json"}).status_code == 405


def test_a_head_request_is_answered_as_its_get(client: TestClient) -> None:
    """A link checker's HEAD: every page and read answered 405 before."""
    sign_in(client, "jay")
    for path in ("/leagues/demo", "/api/leagues/demo/standings"):
        reply, got = client.head(path), client.get(path)
        assert reply.status_code == 200, path
        assert reply.headers["content-type"] == got.headers["content-type"]


@pytest.mark.parametrize(
    ("path", "accept"),
    [("/api/leagues/demo/nonsense", "text/html"), ("/no-such-page", "application/json")],
)
def test_an_api_client_still_gets_a_problem_for_an_unknown_address(
    client: TestClient, path: str, accept: str
) -> None:
    reply = client.get(path, headers={"Accept": accept})
    assert reply.status_code == 404
    assert reply.headers["content-type"] == "application/problem+json"
    assert reply.json()["code"] == "not-found"


@pytest.mark.parametrize(
    ("path", "said"),
    [
        (f"{HOME}/audit?before=abc", "the address's before: must be a whole number"),
        (f"{HOME}/audit?before=0", "the address's before: must be at least 1"),
        (f"{HOME}/events/0/correct", "the address's seq: must be at least"),
    ],
)
def test_an_address_out_of_its_bounds_is_said_in_the_address_s_words(
    client: TestClient, path: str, said: str
) -> None:
    sign_in(client, "commissioner")
    reply = client.get(path)
    assert reply.status_code == 422
    assert said in page_text(reply.text)
    assert "query." not in reply.text
