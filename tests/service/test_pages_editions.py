"""The pages of a league under each of this session's editions (bb2020, lrb6, gold4), as
a new commissioner builds one: two teams, a few hires, a game without a fixture in which
a hireling played and scored. What the pages must show is the edition's own: its
position and team list names rather than ids, and a game line, with its SPP, for every
hireling who played.

A hireling's SPP (seed 001 'Hiring, Firing and Temporarily Retiring' step 5: "A hired
Journeyman ... will retain any SPP gained during the game ... Any Journeymen not hired are
permanently lost"; seed 000 rules 3k and 8a; seed 004 'Freebooters': "any SPPs are
kept"): he earns them like anyone, they are his, and they join the roster only if the
team signs him. The fold keeps them on the match's row; the page reads them there.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
import yaml
from fastapi.testclient import TestClient

from ledger.application.commands import CorrectMatch
from ledger.application.reports import MatchReport
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.log import league_id
from ledger.domain.state import MatchRow
from ledger.rules import find_ruleset
from ledger.web.app import create_app
from ledger.web.demo import demo_accounts
from tests.cli.inprocess import ledger_from_script
from tests.service.conftest import CHEAP, password_of, sign_in
from tests.service.test_pages_whatif import filled

LEAGUE = "owl"
HOME = f"/leagues/{LEAGUE}"
MATCH = "owl-1"


@dataclass(frozen=True)
class Edition:
    """One edition's small league and what its pages must say of it."""

    hireling: dict[str, object]
    shown_as: str
    """The hireling's tag on the match page: his kind, then his position's printed name."""
    spp: int
    """1 touchdown and 1 completion under the edition's SPP table."""
    source: str
    lineman: str
    """The Human Lineman's printed name."""
    signing: int
    """What the edition asks to sign the hireling after the game."""


EDITIONS = {
    "bb2020": Edition(
        {"id": "h1", "name": "Jo Journey", "kind": "journeyman", "position": "lineman"},
        "journeyman: Human Lineman",
        3 + 1,
        "Blood Bowl 2020 League Play, &#39;Hiring, Firing and Temporarily Retiring&#39;, step 5",
        "Human Lineman",
        50_000,  # his Hiring Fee, no Value Increase (seed 001 step 5)
    ),
    "lrb6": Edition(
        {"id": "h1", "name": "Jo Journey", "kind": "journeyman", "position": "lineman"},
        "journeyman: Lineman",
        3 + 1,
        "LRB6 as ZAL Season 5 rules 3k and 8a state it",
        "Lineman",
        50_000,  # the Lineman's list price
    ),
    "gold4": Edition(
        {
            "id": "h1",
            "name": "Max Merc",
            "kind": "mercenary",
            "position": "blitzer",
            "price": 90000,
        },
        "mercenary: Blitzer",
        3 + 1,
        "3rd edition freebooters, as OBERWALD &#39;Freebooters&#39; rules them",
        "Lineman",
        90_000,  # the Blitzer's full list price: the freeboot fee is lost (seed 004)
    ),
}


def script(ruleset: str) -> str:
    return (
        f"""league create {LEAGUE} --name "Old World League" --ruleset {ruleset}
team register reavers --name "Reikland Reavers" --coach Jay --roster human
team register grudge --name "The Gouged Eye" --coach Steve --roster orc
team hire reavers lineman "Otto Brandt" --number 1
team hire reavers blitzer "Griff Junior" --number 2
team hire grudge lineman "Thorin Oakbeard" --number 1
match record {MATCH}.yaml --roll
"""
        + (f"match close {MATCH} --roll\n" if find_ruleset(ruleset).post_game_closes else "")
        + (
            # The close rolls BB2020's Expensive Mistakes, whose Catastrophe can leave 20,000:
            # prize money keeps the signing below from hanging on that roll.
            'team adjust reavers 200000 --reason "league prize"\n'
        )
    )


def report(edition: Edition) -> dict[str, object]:
    """A game without a fixture: the hireling scores and completes a pass."""
    return {
        "match": MATCH,
        "home": {
            "team": "reavers",
            "hirelings": [edition.hireling],
            "players": [
                {"player": "h1", "td": 1, "comp": 1},
                {"player": "Griff Junior", "mvp": 1},
            ],
        },
        "away": {"team": "grudge", "players": [{"player": "Thorin Oakbeard", "mvp": 1}]},
    }


@pytest.fixture(params=sorted(EDITIONS))
def edition(request: pytest.FixtureRequest) -> tuple[str, Edition]:
    return request.param, EDITIONS[request.param]


@pytest.fixture
def client(edition: tuple[str, Edition], tmp_path: Path) -> Iterator[TestClient]:
    """The league under the edition, served, with jay (the Reavers' coach) signed in."""
    ruleset, chosen = edition
    (tmp_path / f"{MATCH}.yaml").write_text(yaml.safe_dump(report(chosen)))
    db = ledger_from_script(tmp_path, script(ruleset))
    ledger = open_ledger(Settings(sqlite_path=db))
    try:
        demo_accounts(ledger, LEAGUE, hasher=CHEAP, password=password_of)
    finally:
        close_ledger(ledger)
    app = create_app(Settings(sqlite_path=db), hasher=CHEAP)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        sign_in(test_client, "jay")
        yield test_client


def page(client: TestClient, path: str) -> str:
    reply = client.get(path)
    assert reply.status_code == 200, reply.text[-800:]
    return reply.text


def hireling_row(text: str, name: str) -> list[str]:
    """The cells of the hireling's game line on the match page, as text."""
    rows = re.findall(r'<tr class="hireling">(.*?)</tr>', text, re.DOTALL)
    row = next((r for r in rows if name in r), None)
    assert row is not None, f"no game line for {name}"
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)
    return [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in cells]


def test_a_hireling_who_played_has_a_game_line_with_his_spp(
    client: TestClient, edition: tuple[str, Edition]
) -> None:
    _, chosen = edition
    text = page(client, f"{HOME}/matches/{MATCH}")
    name = str(chosen.hireling["name"])
    cells = hireling_row(text, name)
    assert cells[0] == f"{name} {chosen.shown_as} Sign him"  # jay coaches his team
    # TD, completions, interceptions, casualties, MVP, SPP
    assert cells[1:] == ["1", "1", "0", "0", "0", str(chosen.spp)]
    assert "keeps them; not signed, he leaves with them" in text
    assert chosen.source in text


def test_positions_and_team_lists_are_named_as_the_books_print_them(
    client: TestClient, edition: tuple[str, Edition]
) -> None:
    _, chosen = edition
    team = page(client, f"{HOME}/teams/reavers")
    assert f"<td>{chosen.lineman}</td>" in team
    assert "<td>lineman</td>" not in team
    home = page(client, HOME)
    assert '<td class="wide">Human</td>' in home
    assert '<td class="wide">human</td>' not in home
    player = page(client, f"{HOME}/players/Griff Junior")
    assert re.search(r"<p>(Human )?Blitzer of ", player)


def test_the_hire_form_allows_no_more_of_a_position_than_the_roster_has_places(
    client: TestClient, edition: tuple[str, Edition]
) -> None:
    """Two players hired: 14 places left of 16, though the Lineman limit leaves 15 (BB2020,
    LRB6) or 11 (gold4's 0-12, which binds first)."""
    ruleset, chosen = edition
    form = html.unescape(page(client, f"{HOME}/teams/reavers/hire"))
    left = 11 if ruleset == "gold4" else 14
    assert re.search(rf"{chosen.lineman} — 50,000 gp, {left} more allowed", form), form[-2000:]


# --- the report form ---------------------------------------------------------------------------

CASUALTY_DICE = {
    "bb2020": (["Casualty (D16)", "Lasting injury (D6)"], {"casualty": "3"}),
    "lrb6": (["Casualty (D68)", "Casualty d6 (D6)", "Casualty d8 (D8)"], {"casualty": "1 2"}),
    "gold4": (
        ["Injury (2D6)", "Specific injury (D6)", "Serious injury (D66)"],
        {"injury": "5 5", "specific_injury": "1"},
    ),
}
"""The casualty rolls each edition reads (its ``casualty_dice``) as the form's columns, and
the rolls of a Badly Hurt entered in them: BB2020 D16 3, LRB6 D68 12, gold4 2D6 10 ('An
Injury'; under 10 is refused as "stunned") then the specific injury D6 1."""


def report_form(client: TestClient) -> str:
    reply = client.get(f"{HOME}/report", params={"home": "reavers", "away": "grudge"})
    assert reply.status_code == 200, reply.text[-800:]
    return reply.text


def inside(form: str, pattern: str) -> str:
    """What ``pattern``'s group holds in the form (which must have it)."""
    found = re.search(pattern, form, re.S)
    assert found is not None, form[-800:]
    return found.group(1)


def post_report(client: TestClient, form: str, rolls: dict[str, str]) -> Any:
    """Griff Junior scores in a friendly and hurts Thorin Oakbeard, with these rolls."""
    options = re.findall(r'<option value="(p\d+)"[^>]*>(?:#\d+ )?([^<]+)</option>', form)
    ids = {name: pid for pid, name in options}
    return client.post(
        f"{HOME}/report",
        data={
            "csrf": re.findall(r'name="csrf" value="([^"]+)"', form)[0],
            "home": "reavers",
            "away": "grudge",
            "kind": "friendly",
            "match": "owl-friendly-2",
            "home-0-player": ids["Griff Junior"],
            "home-0-td": "1",
            "cas-0-victim": ids["Thorin Oakbeard"],
            "cas-0-by": ids["Griff Junior"],
            "roll_missing": "1",
            **rolls,
        },
        follow_redirects=False,
    )


STAR_HINT = {
    "bb2020": ", a star player as one of those listed;",
    "lrb6": ", a star player as one of those listed;",
    "gold4": ", a freebooted star player by his name and the price paid;",
}
"""How the form says a star hireling is entered: picked from the edition's stars, or (gold4,
which keeps no star list: OBERWALD 'Freebooters') named and priced."""


def test_the_report_form_says_how_a_star_hireling_is_entered(
    client: TestClient, edition: tuple[str, Edition]
) -> None:
    ruleset, _ = edition
    hint = inside(report_form(client), r'<p class="hint" id="home-hirelings-hint">(.*?)</p>')
    assert STAR_HINT[ruleset] in " ".join(hint.split())


def test_the_report_forms_casualty_rolls_are_the_editions_own(
    client: TestClient, edition: tuple[str, Edition]
) -> None:
    ruleset, _ = edition
    columns, rolled = CASUALTY_DICE[ruleset]
    form = report_form(client)
    headers = re.search(r"<legend>Casualties</legend>.*?<thead>(.*?)</thead>", form, re.DOTALL)
    assert headers is not None
    shown = [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<th[^>]*>(.*?)</th>", headers[1])]
    assert shown[4:] == [*columns, "Healed"]  # the rolls, then whether it was healed
    reply = post_report(
        client, form, {f"cas-0-die-{purpose}": text for purpose, text in rolled.items()}
    )
    assert reply.status_code == 303, re.findall(r'class="problem"[^>]*>(.*?)</p>', reply.text)
    shown_report = page(client, reply.headers["location"])
    entered = ", ".join(f"{p.replace('_', ' ')} {text}" for p, text in rolled.items())
    assert f"Thorin Oakbeard by Griff Junior (block, {entered})" in shown_report


def test_the_report_form_asks_no_stalling_where_the_edition_pays_nothing_for_it(
    client: TestClient,
) -> None:
    """Only BB2025's winnings read Stalling (``Ruleset.reads_stalling``)."""
    assert "-stalled" not in report_form(client)


CONCESSIONS_OFFERED = {
    "bb2020": ["conceded", "without_penalty"],
    "lrb6": ["conceded", "without_penalty"],
    "gold4": ["conceded"],
}
"""gold4.md G11: "The only concession is ``kind: conceded``"; LRB6 p.29; BB2025 'Conceding'."""


def test_the_report_form_offers_only_the_editions_concessions(
    client: TestClient, edition: tuple[str, Edition]
) -> None:
    ruleset, _ = edition
    offered = inside(report_form(client), r'<select id="concession-kind"[^>]*>(.*?)</select>')
    assert re.findall(r'<option value="([^"]+)"', offered) == CONCESSIONS_OFFERED[ruleset]


def test_a_star_hireling_is_picked_from_the_editions_stars(
    client: TestClient, edition: tuple[str, Edition]
) -> None:
    """BB2020 and LRB6 keep a star list; gold4 freeboots a star by his cost, so its form
    has no star column."""
    ruleset, _ = edition
    form = html.unescape(report_form(client))
    if ruleset == "gold4":
        assert "Star player</th>" not in form
    else:
        assert "Star player</th>" in form
        assert re.search(r'<option value="griff_oberwald">Griff Oberwald \([\d,]+\)</option>', form)
    assert "Star player id" not in form


def test_a_casualty_roll_that_is_not_numbers_is_listed_with_a_link_to_its_cell(
    client: TestClient, edition: tuple[str, Edition]
) -> None:
    ruleset, _ = edition
    purpose = next(iter(CASUALTY_DICE[ruleset][1]))
    field = f"cas-0-die-{purpose}"
    reply = post_report(client, report_form(client), {field: "six"})
    assert reply.status_code == 422
    summary = html.unescape(reply.text)
    assert (
        f'<a href="#{field}">casualty 1: the {purpose.replace("_", " ")} roll takes whole numbers,'
        " not 'six'</a>" in summary
    )
    assert f'id="{field}" name="{field}"' in summary
    assert 'value="six" aria-label="Casualty 1' in summary


FANS = {"bb2020": "Dedicated Fans", "lrb6": "Fan Factor", "gold4": "Fan Factor"}
"""What each edition sells only while a team drafts (the command refuses it after)."""


def test_the_buy_form_does_not_offer_what_is_sold_only_while_drafting(
    client: TestClient, edition: tuple[str, Edition]
) -> None:
    ruleset, _ = edition
    form = html.unescape(page(client, f"{HOME}/teams/reavers/buy"))
    fans = re.search(rf"<option [^>]*>\s*{FANS[ruleset]} — ([^<]*)</option>", form)
    assert fans is not None, form[-2500:]
    assert "disabled" in fans.group(0)
    assert fans.group(1).startswith("only while drafting, ")
    reroll = re.search(r"<option [^>]*>\s*Team Re-roll — [\d,]+ gp", form)
    assert reroll is not None
    assert "disabled" not in reroll.group(0)


def test_a_players_career_names_each_games_opponent(client: TestClient) -> None:
    career = page(client, f"{HOME}/players/Griff Junior")
    section = career[career.index('id="career"') :]
    assert f'<a href="{HOME}/matches/{MATCH}">v The Gouged Eye</a>' in section


def test_a_coach_signs_the_hireling_who_keeps_his_spp(
    client: TestClient, edition: tuple[str, Edition]
) -> None:
    _, chosen = edition
    name = str(chosen.hireling["name"])
    match_page = page(client, f"{HOME}/matches/{MATCH}")
    path = f"{HOME}/teams/reavers/sign/{MATCH}/h1"
    assert f'<a class="sign" href="{path}" aria-label="Sign {name}">Sign him</a>' in match_page
    form = html.unescape(page(client, path))
    assert f"earned {chosen.spp} SPP" in " ".join(re.sub(r"<[^>]+>", "", form).split())
    assert f"the edition asks {chosen.signing:,} to sign him" in re.sub(r"<[^>]+>", "", form)
    csrf = re.findall(r'name="csrf" value="([^"]+)"', form)[0]
    reply = client.post(path, data={"csrf": csrf, "number": "7"}, follow_redirects=False)
    assert reply.status_code == 303, re.findall(r'class="problem"[^>]*>(.*?)</p>', reply.text)
    player = reply.headers["location"]
    shown = " ".join(re.sub(r"<[^>]+>", " ", page(client, player)).split())
    assert f"SPP earned {chosen.spp}" in shown
    ruleset, _ = edition  # SPP are spent only on BB2020's Advancement Table
    assert ("SPP (to spend)" in shown) == (ruleset == "bb2020")
    after = page(client, f"{HOME}/matches/{MATCH}")
    assert f'<a href="{player}">{name}</a>' in after
    assert hireling_row(after, name)[0].endswith(", signed")
    assert "Sign him" not in after
    again = html.unescape(page(client, path))  # signed: his player page, no form
    assert f'signed him after the game: he is <a href="{player}">on the roster</a>' in again
    assert 'name="number"' not in again
    second = client.post(path, data={"csrf": csrf, "number": "8"}, follow_redirects=False)
    assert second.status_code == 409
    assert "was already signed after it" in html.unescape(second.text)


def test_the_other_coach_may_not_sign_the_hireling(client: TestClient) -> None:
    client.cookies.clear()
    sign_in(client, "steve")
    assert "Sign him" not in page(client, f"{HOME}/matches/{MATCH}")
    refused = client.get(f"{HOME}/teams/reavers/sign/{MATCH}/h1")
    assert refused.status_code == 403


def test_an_amended_report_is_shown_as_amended_beside_its_game_lines(
    client: TestClient, edition: tuple[str, Edition]
) -> None:
    """The commissioner amends the game: the hireling passed twice and did not score. The
    report on the page is the amended one, as its SPP are (2 completions: 2 SPP)."""
    _, chosen = edition
    service = client.app.state.service  # type: ignore[attr-defined]
    ledger = service.ledger
    row = ledger.view().get(MatchRow, str(league_id(LEAGUE)), MATCH)
    assert row is not None
    assert row.recorded_seq is not None
    amended = report(chosen)
    amended["home"]["players"][0] = {"player": "h1", "comp": 2}  # type: ignore[index]
    with service.writing:
        ledger.handle(
            CorrectMatch(LEAGUE, row.recorded_seq, MatchReport.model_validate(amended)),
            by="commissioner",
            reason="he passed twice and did not score",
        )
    text = page(client, f"{HOME}/matches/{MATCH}")
    assert re.search(r"As amended by <a href=\"#corrections\">event \d+</a>", text)
    assert hireling_row(text, str(chosen.hireling["name"]))[1:] == ["0", "2", "0", "0", "0", "2"]
    assert "Reikland Reavers: 0 TD" in text


def test_a_close_is_offered_only_where_the_edition_has_one(
    client: TestClient, edition: tuple[str, Edition]
) -> None:
    """BB2020 teams close each game's post-game sequence; LRB6 and gold4 record it all with
    the report, so no close page is offered, and the command refuses one (it would change
    nothing)."""
    ruleset, _ = edition
    sign_in(client, "commissioner")
    shown = client.get(f"{HOME}/matches/{MATCH}/teams/reavers/close")
    if ruleset == "bb2020":
        assert shown.status_code == 200, shown.text[-800:]
    else:
        assert shown.status_code == 409
        assert "teams close no post-game sequence" in shown.text


def test_the_buy_form_shows_a_limit_only_where_the_edition_prints_one(
    client: TestClient, edition: tuple[str, Edition]
) -> None:
    """gold4 prints no most a team may buy of Fan Factor: the form says how many it holds,
    not 'of 99' (the ledger's stand-in); re-rolls keep their printed most."""
    ruleset, _ = edition
    form = " ".join(html.unescape(page(client, f"{HOME}/teams/reavers/buy")).split())
    assert "of 99" not in form
    assert re.search(r"Team Re-roll —[^<]* of \d+ held", form)
    fan = re.search(r"Fan Factor —[^<]*", form)
    if ruleset == "gold4":
        assert fan is not None, form[-1500:]
        assert re.search(r"\d+ held", fan.group(0))
        assert " of " not in fan.group(0)


def test_the_commissioners_correction_form_restates_the_game_as_it_stands(
    client: TestClient,
) -> None:
    """The edition's game, its hireling and its dice, filled into the report form to be
    corrected (pages_correct_report): sent back unchanged, nothing is amended."""
    client.cookies.clear()
    sign_in(client, "commissioner")
    path = f"{HOME}/matches/{MATCH}/correct"
    fields = filled(page(client, path), path, reason="checking")
    form = {"content-type": "application/x-www-form-urlencoded"}
    fields.append(("reason", "checking"))
    reply = client.post(path, content=urlencode(fields), headers=form, follow_redirects=False)
    assert reply.status_code == 422, reply.text[-1500:]
    assert "nothing to amend" in html.unescape(reply.text)
