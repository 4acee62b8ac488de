"""The pages in a real browser: headless Chromium (Debian's ``chromium``) driven by
Playwright, against a real uvicorn server on 127.0.0.1 serving a copy of the demo league.

A coach signs in and submits a match report through the form, the opposing coach
confirms it, and the league's standings count it; another coach gets a 403 page on the
first coach's hire form; under gold4 a coach hires an ally from the hire form's allied
lists. Screenshots of the league home, a team page and the report form (and of the
submission, the match, the audit, the what-if and the gold4 hire pages), at 1280 px and
at a 390 px phone's width, are saved as test artifacts in ``$LEDGER_ARTIFACTS/pages``
(default: artifacts/pages/ at the repository root), and no page may scroll sideways on
the phone; at 1280 px the report form's tables fit and the what-if's rulesets are whole.

Without Chromium the tests skip and say why; with ``LEDGER_REQUIRE_BROWSER=1`` (CI) they
fail instead, so a missing browser cannot pass unnoticed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright

from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.web.app import create_app
from ledger.web.demo import demo_accounts
from tests.browsers import artifacts, chromium
from tests.cli.inprocess import ledger_from_script
from tests.conftest import free_port
from tests.service.conftest import CHEAP, LEAGUE, World, password_of

pytestmark = pytest.mark.browser

FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
WIDTHS = {"desktop": 1280, "phone": 390}
HOME = f"/leagues/{LEAGUE}"


def serving(db: Path) -> Iterator[str]:
    """The service on ``db`` under uvicorn in a background thread; its base URL."""
    port = free_port()
    app = create_app(Settings(sqlite_path=db), hasher=CHEAP)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", workers=1)
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def server(world: World) -> Iterator[str]:
    yield from serving(world.db)


@pytest.fixture
def browser() -> Iterator[Browser]:
    executable = chromium("the pages were")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, args=FLAGS)
        yield launched
        launched.close()


def signed_in(
    browser: Browser, base: str, account: str, width: int = 1280, home: str = HOME
) -> Page:
    """A fresh browser context (its own cookies) signed in through the login form."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{base}/login?next={home}")
    page.get_by_label("Account", exact=True).fill(account)
    page.get_by_label("Password", exact=True).fill(password_of(account))
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}{home}")
    return page


def standing_of(page: Page, team: str) -> list[str]:
    """The cells of ``team``'s line in the standings, as shown."""
    row = page.locator("table.standings tbody tr", has_text=team)
    return [cell.strip() for cell in row.locator("td").all_inner_texts()]


def snap(page: Page, name: str) -> None:
    """Screenshots at both widths, and no sideways scrolling on the phone."""
    for label, width in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(artifacts("pages") / f"{name}-{label}.png"), full_page=True)
        if label == "phone":
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{name} scrolls sideways by {overflow}px at {width}px"
    page.set_viewport_size({"width": 1280, "height": 900})


def fits_the_width(page: Page, name: str) -> None:
    """At the page's present width, neither the page nor any of its scroll boxes (a wide
    table's) scrolls sideways: everything shows without scrolling."""
    wide = page.evaluate(
        """() => [document.documentElement, ...document.querySelectorAll('.scroll')]
            .filter(e => e.scrollWidth > e.clientWidth)
            .map(e => [e.getAttribute('aria-label') || 'the page',
                       e.scrollWidth - e.clientWidth])"""
    )
    assert not wide, f"{name} scrolls sideways at {page.viewport_size}: {wide}"


def test_a_coach_submits_a_report_the_opponent_confirms_and_the_standings_count_it(
    server: str, browser: Browser
) -> None:
    jay = signed_in(browser, server, "jay")
    before = standing_of(jay, "Reikland Reavers")
    snap(jay, "league-home")
    jay.goto(f"{server}{HOME}/teams/reikland-reavers")
    snap(jay, "team")
    jay.goto(f"{server}{HOME}")
    jay.get_by_role("link", name="Submit a match report").click()
    jay.get_by_label("Home team").select_option(label="Reikland Reavers")
    jay.get_by_label("Away team").select_option(label="The Gouged Eye")
    jay.get_by_label("The game counts as").select_option("league")
    jay.get_by_role("button", name="Continue to the report").click()
    jay.get_by_label("Reikland Reavers player 1", exact=True).select_option(label="#1 Griff Junior")
    jay.get_by_label("touchdowns of Reikland Reavers player 1").fill("2")
    jay.get_by_label("MVP awards of Reikland Reavers player 1").fill("1")
    jay.get_by_label("The Gouged Eye player 1", exact=True).select_option(label="#1 Ugluk")
    jay.get_by_label("MVP awards of The Gouged Eye player 1").fill("1")
    jay.get_by_label("Let the ledger roll the dice left empty").check()
    snap(jay, "report-form")
    fits_the_width(jay, "the report form")  # its hirelings' tables too, at 1280 px
    jay.get_by_role("button", name="Submit the report").click()
    jay.wait_for_url(f"{server}{HOME}/submissions/*")
    submission = jay.url
    assert "submitted" in jay.locator("main").inner_text()

    dan = signed_in(browser, server, "dan")
    dan.locator("a[href$='/submissions/s1']").first.click()  # the report waiting for him
    assert dan.url == submission
    dan.get_by_role("button", name="Confirm: record this match").click()
    dan.wait_for_load_state()
    assert "confirmed" in dan.locator("main").inner_text()
    snap(dan, "submission")
    dan.get_by_role("link", name="the game's page").click()  # the recorded match
    assert "Casualties" in dan.locator("main").inner_text()
    snap(dan, "match")
    dan.goto(f"{server}{HOME}/audit")
    snap(dan, "audit")

    dan.goto(f"{server}{HOME}")
    after = standing_of(dan, "Reikland Reavers")
    header = dan.locator("table.standings thead th").all_inner_texts()
    column = [h.strip() for h in header].index("P")
    won = column + 1
    assert int(after[column]) == int(before[column]) + 1
    assert int(after[won]) == int(before[won]) + 1


def test_another_coach_gets_a_403_page_on_the_first_coachs_hire_form(
    server: str, browser: Browser
) -> None:
    rob = signed_in(browser, server, "rob", width=390)
    reply = rob.goto(f"{server}{HOME}/teams/reikland-reavers/hire")
    assert reply.status == 403
    text = rob.locator("main").inner_text()
    assert "Not allowed" in text
    assert "rob coaches Skavenblight Scramblers, not Reikland Reavers" in text
    rob.screenshot(path=str(artifacts("pages") / "forbidden-phone.png"), full_page=True)


def test_the_what_if_ruleset_pick_list_shows_each_ruleset_whole_at_1280_px(
    server: str, browser: Browser
) -> None:
    """The closed pick-list shows the ruleset chosen: each one's name is read whole."""
    jay = signed_in(browser, server, "jay")
    jay.goto(f"{server}{HOME}/whatif")
    rulesets = jay.locator("select#ruleset")
    for value in rulesets.locator("option").evaluate_all("os => os.map(o => o.value)"):
        rulesets.select_option(value)
        needed, shown = rulesets.evaluate("s => [s.scrollWidth, s.clientWidth]")
        assert needed <= shown, f"the ruleset {value} is cut: {needed}px in {shown}px"
    snap(jay, "whatif-form")


@pytest.fixture
def gold_server(tmp_path: Path) -> Iterator[str]:
    """A gold4 league (``owl``: an Orc and a Dwarf team, dan coaching the Orcs), served."""
    db = ledger_from_script(tmp_path, GOLD_SCRIPT)
    ledger = open_ledger(Settings(sqlite_path=db))
    try:
        demo_accounts(ledger, "owl", hasher=CHEAP, password=password_of)
    finally:
        close_ledger(ledger)
    yield from serving(db)


GOLD_SCRIPT = """league create owl --name "Old World League" --ruleset gold4
team register orcs --name "The Gouged Eye" --coach Dan --roster orc
team register dwarfs --name "Dwarf Grudgebearers" --coach Steve --roster dwarf
"""


def test_a_gold4_coach_hires_an_allied_troll_from_the_hire_form(
    gold_server: str, browser: Browser
) -> None:
    dan = signed_in(browser, gold_server, "dan", home="/leagues/owl")
    dan.goto(f"{gold_server}/leagues/owl/teams/orcs/hire")
    position = dan.get_by_label("Position")
    groups = position.locator("optgroup").evaluate_all("gs => gs.map(g => g.label)")
    assert "Allies: Goblin (at most 1)" in groups
    position.select_option("ally:goblin:troll")
    dan.get_by_label("Name").fill("Grub")
    snap(dan, "hire-gold4")
    dan.get_by_role("button", name="Hire").click()
    dan.wait_for_url(f"{gold_server}/leagues/owl/players/*")
    text = dan.locator("main").inner_text()
    assert "Grub" in text
    assert "Troll" in text
