"""The commissioner runs a season from the pages (ledger/web/pages_seasons.py): the league's
home names the next step, each step's page shows what its command would do and runs it as
the account; a refusal is the form again, as filled, with the command's sentence; a coach
gets a 403 page; a closed season looks closed and offers none of its fixtures to report.

The demo league's season 1 has played its round robin and plays off its top two."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from ledger.application.commands import (
    ApproveReport,
    CloseMatch,
    CloseSeason,
    Command,
    RecordMatch,
    SchedulePlayoffs,
    ScheduleSeason,
    StartSeason,
)
from ledger.application.reports import MatchReport
from ledger.domain.log import league_id
from ledger.domain.state import MatchRow, SeasonRow
from ledger.domain.values import Division, validation_problems
from tests.service.conftest import LEAGUE, event_count, ledger_of, sign_in
from tests.service.test_pages import HOME, csrf_in, error_beside, last_event, page_text, post

SEASON = f"{HOME}/season"
REAVERS, RATS = "reikland-reavers", "skavenblight-scramblers"
TEAMS = ("gouged-eye", "grudgebearers", REAVERS, RATS)


def handled(client: TestClient, command: Command[Any], reason: str | None = None) -> Any:
    """Run ``command`` on the served ledger as the commissioner, as the CLI would: the
    games a test needs played, quickly."""
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.writing:
        return service.ledger.handle(command, by="commissioner", reason=reason)


def recorded(client: TestClient, match: MatchRow) -> None:
    """The fixture won 1-0 at home."""
    report = MatchReport.model_validate(
        {
            "match": match.match_id,
            "kind": "playoff" if match.stage != "regular" else "league",
            "home": {"team": match.home, "touchdowns": 1, "players": []},
            "away": {"team": match.away, "players": []},
        }
    )
    handled(client, RecordMatch(LEAGUE, report, roll_missing=True))


def played(client: TestClient, match: MatchRow) -> None:
    """The fixture won 1-0 at home, and both post-game sequences closed."""
    recorded(client, match)
    teams = [match.home, match.away]
    handled(client, CloseMatch(LEAGUE, match.match_id, teams, dice={}, roll_missing=True))


def waiting(client: TestClient) -> list[MatchRow]:
    view = ledger_of(client).view()
    return list(view.select(MatchRow, league_id=str(league_id(LEAGUE)), status="scheduled"))


def season_row(client: TestClient, number: int) -> SeasonRow:
    found = ledger_of(client).view().get(SeasonRow, str(league_id(LEAGUE)), number)
    assert found is not None
    return found


def team_name(client: TestClient, team: str) -> str:
    return ledger_of(client).context(LEAGUE).team(team).name


def steps(client: TestClient) -> list[str]:
    """The season's steps the league's home offers (its links' labels)."""
    found = re.search(r'<p class="actions season-steps">(.*?)</p>', client.get(HOME).text, re.S)
    shown = found.group(1) if found else ""
    return re.findall(r'class="button[^"]*" href="[^"]+">([^<]+)</a>', shown)


def masthead(client: TestClient) -> str:
    found = re.search(r'<header class="masthead">(.*?)</header>', client.get(HOME).text, re.S)
    assert found
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", found.group(1)))


def sent(client: TestClient, step: str, **fields: str) -> Any:
    """The step's form, as its page gives it, sent with ``fields``."""
    shown = client.get(f"{SEASON}/{step}")
    assert shown.status_code == 200, shown.text[-800:]
    return post(client, f"{SEASON}/{step}", {"csrf": csrf_in(shown.text), **fields})


STEPS = {
    "SeasonStarted": ("started", "The season has started"),
    "SeasonClosed": ("closed", "The season is closed"),
}


def done(client: TestClient, reply: Any, topic: str) -> None:
    """Taken: back to the league's home saying so, the event recorded as the account, from
    the web."""
    assert reply.status_code == 303, reply.text[-800:]
    step, said = STEPS.get(topic, ("", ""))
    location = reply.headers["location"]
    assert location.startswith(f"{HOME}?done={step}"), location
    shown = client.get(location).text
    assert re.search(r'<p class="ok" role="status">' + re.escape(said), shown), shown[:3000]
    event = last_event(client)
    assert event["topic"].endswith(topic)
    by = (event["account"], event["acting_as"], event["via"])
    assert by == ("commissioner", "commissioner", "web")


def test_the_commissioner_runs_a_season_from_start_to_close_through_the_pages(
    client: TestClient,
) -> None:
    sign_in(client, "commissioner")
    assert steps(client) == ["Start the play-offs", "Close the season"]

    before = event_count(client)
    owed = sent(client, "close")
    assert owed.status_code == 409
    assert "plays off its top 2 and its final is not played" in error_beside(owed.text, "form")
    assert event_count(client) == before
    closed = sent(client, "close", without_playoffs="1", reason="no time for a final")
    done(client, closed, "SeasonClosed")
    first = season_row(client, 1)
    assert first.trophy_holder
    said = page_text(client.get(closed.headers["location"]).text)
    # the prizes the close paid, as the treasuries record them: the champion's first
    assert f"Prizes paid: {team_name(client, first.trophy_holder)} 100,000 (1st place" in said
    assert "Prizes paid" not in page_text(client.get(HOME).text)  # said on the close's landing
    assert f"season 1 (closed) · champion: {team_name(client, first.trophy_holder)}" in (
        masthead(client)
    )
    assert steps(client) == ["Start a season"]

    form = client.get(f"{SEASON}/start").text
    assert 'name="division-1" maxlength="100" value="Old World"' in form  # as last season
    started = sent(
        client,
        "start",
        name="Second",
        playoff_teams="4",
        **{"division-1": "New World"},
        **{f"team-{t}": "1" for t in TEAMS},
    )
    done(client, started, "SeasonStarted")
    second = season_row(client, 2)
    assert (second.name, second.playoff_teams) == ("Second", 4)
    assert [(d.name, set(d.teams)) for d in second.divisions] == [("New World", set(TEAMS))]
    assert "season 2 ·" in masthead(client)
    assert steps(client) == ["Make the schedule"]
    # teams that have not played are level on nothing yet: no tie-break said of them
    assert "level on every tie-breaker" not in client.get(f"/leagues/{LEAGUE}").text

    schedule = client.get(f"{SEASON}/schedule").text
    assert re.search(r'<td class="n">3</td><td class="n">6</td>', schedule)  # rounds, games
    scheduled = sent(client, "schedule", legs="1")
    done(client, scheduled, "FixturesScheduled")
    assert scheduled.headers["location"] == f"{HOME}?done=scheduled"
    assert len(waiting(client)) == 6
    assert steps(client) == []  # the games are to be played first

    for match in waiting(client):
        played(client, match)
    assert steps(client) == ["Start the play-offs", "Close the season"]
    draw = client.get(f"{SEASON}/playoffs").text
    assert draw.count("semi-final</span></li>") == 2
    assert 'name="dungeon_bowl"' in draw  # four qualifiers: a Dungeon Bowl final may be asked
    done(client, sent(client, "playoffs"), "FixturesScheduled")
    assert "The play-offs are drawn" in client.get(f"{HOME}?done=playoffs").text
    semis = waiting(client)
    assert [m.stage for m in semis] == ["semi-final", "semi-final"]
    for match in semis:
        played(client, match)
    assert steps(client) == ["Draw the final", "Close the season"]
    done(client, sent(client, "playoffs"), "FixturesScheduled")
    last = {m.stage: m for m in waiting(client)}
    assert sorted(last) == ["final", "third-place"]
    for match in last.values():
        played(client, match)
    assert steps(client) == ["Close the season"]

    done(client, sent(client, "close"), "SeasonClosed")
    champion = team_name(client, last["final"].home)
    assert f"season 2 (closed) · champion: {champion}" in masthead(client)


def test_the_close_is_named_with_the_commands_sentence_while_a_post_game_is_open(
    client: TestClient,
) -> None:
    """The final is played but its post-game sequences are not closed: the league's home
    says why the season cannot close yet, instead of offering it."""
    handled(client, SchedulePlayoffs(LEAGUE))
    [final] = waiting(client)
    recorded(client, final)
    sign_in(client, "commissioner")
    assert steps(client) == []
    said = re.sub(r"\s+", " ", client.get(HOME).text)
    assert "Close the season: not yet, close these post-game sequences first" in said
    by_names = (
        rf"final one\): [A-Z][^(;]* after the final, [A-Z][^(;]* v [A-Z][^(;]* \({final.match_id}\)"
    )
    assert re.search(by_names, said), "by team names, the game by its stage and teams"


def test_three_qualifiers_make_no_knock_out_so_the_page_draws_a_dungeon_bowl_final(
    client: TestClient,
) -> None:
    """A knock-out halves to a final of two: three play-off places are drawn as one Dungeon
    Bowl final of all three, which the page says and offers alone."""
    handled(client, CloseSeason(LEAGUE, without_playoffs=True))
    handled(client, StartSeason(LEAGUE, [Division(name="A", teams=TEAMS)], playoff_teams=3))
    handled(client, ScheduleSeason(LEAGUE))
    for match in waiting(client):
        played(client, match)
    sign_in(client, "commissioner")
    assert steps(client) == ["Draw the Dungeon Bowl final", "Close the season"]
    page = html.unescape(client.get(f"{SEASON}/playoffs").text)
    assert "No knock-out can be drawn: season 2's 3 play-off places make no knock-out" in page
    assert "The final is one Dungeon Bowl match of all 3 qualifiers" in page
    done(client, sent(client, "playoffs", dungeon_bowl="1"), "FixturesScheduled")
    [final] = waiting(client)
    assert (final.stage, len(final.others)) == ("final", 1)


COACHES = {REAVERS: "jay", RATS: "rob", "gouged-eye": "dan", "grudgebearers": "steve"}


def test_a_dungeon_bowl_final_of_three_teams_is_reported_from_the_form(
    client: TestClient,
) -> None:
    """Its third team's coach has the report's button too; the form has a side for each of
    the three and asks the winner (the game-winning touchdown decides, not the most
    touchdowns: seed 003, 'Winning the Game'), and no shoot-out; the commissioner approves
    it (no one opponent confirms for the others) and the match reads as won by it."""
    handled(client, CloseSeason(LEAGUE, without_playoffs=True))
    handled(client, StartSeason(LEAGUE, [Division(name="A", teams=TEAMS)], playoff_teams=3))
    handled(client, ScheduleSeason(LEAGUE))
    for match in waiting(client):
        played(client, match)
    handled(client, SchedulePlayoffs(LEAGUE, dungeon_bowl=True))
    [final] = waiting(client)
    third = final.others[0]
    sign_in(client, COACHES[third])
    form_path = f"{HOME}/matches/{final.match_id}/report"
    assert f'href="{form_path}"' in client.get(HOME).text
    form = client.get(form_path).text
    names = [team_name(client, t) for t in (final.home, final.away, third)]
    assert f"<h1>Report: {' v '.join(html.escape(n) for n in names)}</h1>" in form
    assert 'name="other1-touchdowns"' in form
    assert 'name="winner"' in form
    assert 'name="shootout-home"' not in form
    fields = {
        "csrf": csrf_in(form),
        "home-touchdowns": "1",
        "away-touchdowns": "0",
        "other1-touchdowns": "1",
        "roll_missing": "1",
    }
    before = event_count(client)
    refused = post(client, form_path, fields)
    assert refused.status_code == 422
    assert "choose the team that won the game" in error_beside(refused.text, "winner")
    assert 'value="1"' in refused.text  # the form as filled
    assert event_count(client) == before
    sent_report = post(client, form_path, {**fields, "winner": third})
    assert sent_report.status_code == 303, sent_report.text[-1500:]
    waiting_page = html.unescape(client.get(sent_report.headers["location"]).text)
    assert f"Won by {names[2]}" in waiting_page
    handled(client, ApproveReport(LEAGUE, "s1"))
    shown = page_text(client.get(f"{HOME}/fixtures?season=2").text)
    assert f"{' v '.join(names)} won by {names[2]}" in shown
    match_page = html.unescape(client.get(f"{HOME}/matches/{final.match_id}").text)
    assert f"Won by {names[2]}" in match_page


def test_a_coach_gets_a_403_page_on_each_season_page_and_is_offered_no_step(
    client: TestClient,
) -> None:
    csrf = sign_in(client, "jay")
    before = event_count(client)
    for step in ("start", "schedule", "playoffs", "close"):
        shown = client.get(f"{SEASON}/{step}")
        assert shown.status_code == 403, step
        assert "text/html" in shown.headers["content-type"]
        refused = post(client, f"{SEASON}/{step}", {"csrf": csrf, "without_playoffs": "1"})
        assert refused.status_code == 403, step
    assert event_count(client) == before
    assert "season-steps" not in client.get(HOME).text


def test_a_season_form_without_its_csrf_token_is_refused_and_writes_nothing(
    client: TestClient,
) -> None:
    sign_in(client, "commissioner")
    before = event_count(client)
    for data in ({}, {"csrf": "forged"}):
        reply = post(client, f"{SEASON}/close", {**data, "without_playoffs": "1"})
        assert reply.status_code == 403, reply.text[-500:]
        assert "csrf" in reply.text
    assert event_count(client) == before
    assert season_row(client, 1).status == "open"


def test_starting_a_season_while_one_is_open_says_why_instead_of_the_form(
    client: TestClient,
) -> None:
    csrf = sign_in(client, "commissioner")
    shown = client.get(f"{SEASON}/start")
    assert shown.status_code == 200
    assert "Not now: season 1 is still open: close it first" in shown.text
    assert 'name="division-1"' not in shown.text
    before = event_count(client)
    fields = {"csrf": csrf, "division-1": "A", **{f"team-{t}": "1" for t in TEAMS}}
    refused = post(client, f"{SEASON}/start", fields)
    assert refused.status_code == 409
    assert "season 1 is still open: close it first" in error_beside(refused.text, "form")
    assert event_count(client) == before


def test_a_division_the_rules_refuse_is_the_form_again_as_filled_with_the_sentence(
    client: TestClient,
) -> None:
    """BB2025 'Divisions': each should contain at least four teams."""
    handled(client, CloseSeason(LEAGUE, without_playoffs=True))
    csrf = sign_in(client, "commissioner")
    before = event_count(client)
    one = {f"team-{t}": "" for t in TEAMS} | {"team-reikland-reavers": "1"}
    refused = post(client, f"{SEASON}/start", {"csrf": csrf, "division-1": "Solo", **one})
    assert refused.status_code == 422
    said = error_beside(refused.text, "divisions")
    assert (
        "division Solo has one team, who would play no one: a division plays a round robin" in said
    )
    assert said.endswith(" division-size")
    assert 'name="division-1" maxlength="100" value="Solo"' in refused.text
    assert '<option value="1" selected>Division 1: Solo</option>' in chosen(refused, REAVERS)
    assert '<option value="" selected>Not this season</option>' in chosen(refused, RATS)
    places = post(
        client,
        f"{SEASON}/start",
        {"csrf": csrf, "playoff_teams": "5", **{f"team-{t}": "1" for t in TEAMS}},
    )
    assert places.status_code == 422
    assert "5 play-off places but only 4 teams" in error_beside(places.text, "playoff_teams")
    assert event_count(client) == before


def chosen(reply: Any, team: str) -> str:
    """The pick-list of ``team``'s division on the start form."""
    found = re.search(rf'<select id="team-{team}".*?</select>', reply.text, re.S)
    assert found
    return found.group(0)


def test_a_team_or_division_the_start_form_does_not_offer_is_refused_not_ignored(
    client: TestClient,
) -> None:
    handled(client, CloseSeason(LEAGUE, without_playoffs=True))
    csrf = sign_in(client, "commissioner")
    before = event_count(client)
    everyone = {f"team-{t}": "1" for t in TEAMS}
    for edited, field in (
        ({"team-nobody": "1"}, "divisions"),
        ({"division-9": "Far"}, "divisions"),
        ({"team-gouged-eye": "7"}, "team-gouged-eye"),
    ):
        refused = post(client, f"{SEASON}/start", {"csrf": csrf, **everyone, **edited})
        assert refused.status_code == 422, edited
        assert "the form offers" in error_beside(refused.text, field)
    assert event_count(client) == before


def test_a_step_the_command_would_refuse_shows_its_sentence_not_its_form(
    client: TestClient,
) -> None:
    sign_in(client, "commissioner")
    schedule = client.get(f"{SEASON}/schedule")
    assert "Not now: season 1 is already scheduled" in schedule.text
    assert 'name="legs"' not in schedule.text
    handled(client, CloseSeason(LEAGUE, without_playoffs=True))
    playoffs = client.get(f"{SEASON}/playoffs").text
    assert "Not now: season 1 is closed: its prizes are given" in playoffs
    assert "Not now: season 1 is already closed" in client.get(f"{SEASON}/close").text


def test_a_closed_season_says_so_to_its_coaches_who_may_still_report_a_friendly(
    client: TestClient,
) -> None:
    """Closing wants every fixture recorded, and no correction may leave one unrecorded
    after it: a closed season has no fixture to report. The report button stays, for the
    games the ledger still takes (a friendly, an exhibition)."""
    sign_in(client, "commissioner")
    done(client, sent(client, "close", without_playoffs="1"), "SeasonClosed")
    sign_in(client, "jay")
    page = client.get(HOME).text
    assert "season 1 (closed) · champion: " in masthead(client)
    assert "Submit the report</a>" not in page
    assert "No fixture waiting to be played." in page
    assert f'href="{HOME}/report">Submit a match report</a>' in page
    assert "season-steps" not in page


def test_a_division_name_with_a_control_character_is_refused_beside_it(
    client: TestClient,
) -> None:
    """It made fixture ids and a table heading of it ('s2-n-orth-r1-1', 'N\\u0007orth')."""
    handled(client, CloseSeason(LEAGUE, without_playoffs=True))
    csrf = sign_in(client, "commissioner")
    before = event_count(client)
    everyone = {f"team-{t}": "1" for t in TEAMS}
    refused = post(client, f"{SEASON}/start", {"csrf": csrf, "division-1": "N\x07orth", **everyone})
    assert refused.status_code == 422
    assert error_beside(refused.text, "division-1").startswith(
        "division 1's name is one line of printable text: no control character"
    )
    assert event_count(client) == before
    with pytest.raises(ValidationError) as raised:  # an import or the API, in the same words
        Division(name="N\x07orth", teams=("a", "b"))
    assert "name: must be one line of printable text" in validation_problems(raised.value)


def test_a_past_season_s_report_stays_downloadable_once_the_next_has_started(
    client: TestClient,
) -> None:
    """Before, the links gave the latest season's only, and ``?season=1`` was not read."""
    handled(client, CloseSeason(LEAGUE, without_playoffs=True))
    handled(client, StartSeason(LEAGUE, [Division(name="", teams=TEAMS)]))
    sign_in(client, "rob")
    home = page_text(client.get(HOME).text)
    assert "Season report Season 2 HTML" in home
    assert "Season 1 HTML" in home
    assert f'href="{HOME}/season-report.md?season=1"' in client.get(HOME).text
    past = client.get(f"{HOME}/season-report.md", params={"season": 1})
    assert past.status_code == 200
    assert f"{LEAGUE}-season-1.md" in past.headers["content-disposition"]
    latest = client.get(f"{HOME}/season-report.md")
    assert f"{LEAGUE}-season-2.md" in latest.headers["content-disposition"]
    assert client.get(f"{HOME}/season-report.md", params={"season": 9}).status_code == 404
    assert client.get(f"{HOME}/season-report.md", params={"season": "one"}).status_code == 422
