"""The HTML report in a real browser: headless Chromium (Debian's ``chromium``) driven
by Playwright.

Chromium renders the demo's report at a desktop's width (1280 px) and at a phone's
(390 px); a probe, evaluated in the page by Playwright (the report itself has no script),
measures what was drawn: the standings, each chart's drawing, its series (their painted
length and box), axis labels and the names at the lines' ends, and whether any table or
chart passes the right edge of the screen without being inside a box of its own that
scrolls. Full-page screenshots at both widths are saved as test artifacts in
``$LEDGER_ARTIFACTS`` (default: artifacts/ at the repository root): ``report-desktop.png``
and ``report-phone.png``, and the standings and charts on their own
(``report-phone-charts.png``...).

Without Chromium the tests skip and say why; with ``LEDGER_REQUIRE_BROWSER=1`` (CI) they
fail instead, so a missing browser cannot pass unnoticed.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, sync_playwright

from ledger.reports.model import SeasonReport
from ledger.reports.service import write_report
from tests.browsers import artifacts, chromium
from tests.integration.test_reports import demo, demo_db, demo_report

__all__ = ["demo", "demo_db", "demo_report"]  # fixtures shared with test_reports.py

pytestmark = pytest.mark.browser

FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--hide-scrollbars",
]


PROBE = """
() => {
  var width = window.innerWidth;
  function shown(node) { return node.getBoundingClientRect().width > 0; }
  function scroller(node) {
    for (var up = node.parentElement; up; up = up.parentElement) {
      var overflow = getComputedStyle(up).overflowX;
      if (overflow === "auto" || overflow === "scroll") return up;
    }
    return null;
  }
  function right(node) { return node.getBoundingClientRect().right; }
  /* A table or chart that passes the viewport's right edge, and is not inside a box that
     scrolls and itself fits. */
  var overflowing = Array.from(document.querySelectorAll("table, figure.chart .plot > svg"))
    .filter(shown).filter(function (node) {
      if (right(node) <= width + 0.5) return false;
      var box = scroller(node);
      return !(box && right(box) <= width + 0.5);
    }).map(function (node) {
      return (node.className.baseVal || node.className || node.tagName) + " " + right(node);
    });
  var charts = Array.from(document.querySelectorAll("figure.chart")).map(function (figure) {
    var svg = Array.from(figure.querySelectorAll(".plot > svg")).find(shown);
    var series = Array.from(svg.querySelectorAll("g.series")).map(function (g) {
      var path = g.querySelector("path"), box = g.getBBox();
      return {key: g.dataset.series, length: path.getTotalLength(),
              width: box.width, height: box.height, right: right(g)};
    });
    var labels = Array.from(svg.querySelectorAll("g.axis text")).map(function (text) {
      var box = text.getBoundingClientRect();
      return {text: text.textContent, right: box.right,
              height: text.hasAttribute("transform") ? box.width : box.height};
    });
    var names = Array.from(svg.querySelectorAll("g.labels text")).map(function (text) {
      var box = text.getBoundingClientRect();
      return {text: text.textContent, top: box.top, bottom: box.bottom, right: box.right};
    });
    var box = svg.getBoundingClientRect();
    return {id: figure.dataset.chart, canvas: svg.dataset.canvas, series: series,
            labels: labels, names: names, width: box.width, height: box.height,
            right: box.right};
  });
  var standings = Array.from(document.querySelectorAll("table.standings")).map(function (table) {
    var heads = Array.from(table.querySelectorAll("thead th")).filter(shown);
    return {right: right(table), heads: heads.map(function (th) {
      return {text: th.textContent, right: right(th)}; })};
  });
  var rows = Array.from(document.querySelectorAll("table.standings tbody tr"))
    .filter(function (tr) { return tr.getBoundingClientRect().height > 0; }).length;
  return {charts: charts, standingsRows: rows, standings: standings,
    overflowing: overflowing, mainWidth: document.querySelector("main").clientWidth,
    scrollWidth: document.documentElement.scrollWidth, innerWidth: width};
}
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    executable = chromium("the HTML report was")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, args=FLAGS)
        yield launched
        launched.close()


def probe(browser: Browser, html: Path, width: int, shot: str | None = None) -> dict[str, Any]:
    """What Chromium drew at ``width`` px, measured by the probe; with ``shot``, a
    full-page screenshot of that name is saved in the artifacts folder too."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.goto(html.as_uri())
        data: dict[str, Any] = page.evaluate(PROBE)
        if shot:
            path = artifacts() / shot
            path.unlink(missing_ok=True)
            page.screenshot(path=str(path), full_page=True)
            assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            assert path.stat().st_size > 20_000, "the screenshot looks blank"
            for section in ("standings", "charts"):  # the parts a reader looks at first
                page.locator(f"#{section}").screenshot(
                    path=str(path.with_name(f"{path.stem}-{section}.png"))
                )
    finally:
        context.close()
    return data


@pytest.fixture
def report_html(demo_report: SeasonReport, tmp_path: Path) -> Path:
    return write_report(demo_report, "html", tmp_path / "report.html")


def test_the_report_renders_its_table_and_charts_in_chromium(
    browser: Browser, report_html: Path, demo_report: SeasonReport
) -> None:
    drawn = probe(browser, report_html, 1280, "report-desktop.png")
    teams = len(demo_report.teams)
    assert drawn["standingsRows"] == teams
    assert drawn["overflowing"] == []
    charts = {c["id"]: c for c in drawn["charts"]}
    assert set(charts) == {"positions-0", "rating", "treasury"}
    for chart in charts.values():
        assert chart["canvas"] == "wide"
        # The full width of the page's column, not a fixed 640 px.
        assert chart["width"] >= drawn["mainWidth"] - 1, chart["id"]
        assert chart["height"] > 200
        assert len(chart["series"]) == teams, chart["id"]
        for series in chart["series"]:
            assert series["length"] > 0, (chart["id"], series["key"])
            assert series["width"] > 0, (chart["id"], series["key"])
        assert all(13 <= label["height"] <= 24 for label in chart["labels"]), chart["labels"]
        # Each line is named at its end, inside the drawing, no name over another.
        names = sorted(chart["names"], key=lambda name: name["top"])
        assert len(names) == teams, chart["id"]
        assert all(n["right"] <= chart["right"] + 0.5 for n in names), names
        assert all(b["top"] >= a["bottom"] - 0.5 for a, b in itertools.pairwise(names)), names


def test_the_report_fits_a_phone_with_its_standings_and_charts_whole(
    browser: Browser, report_html: Path
) -> None:
    drawn = probe(browser, report_html, 390, "report-phone.png")
    assert drawn["innerWidth"] == 390
    assert drawn["scrollWidth"] <= drawn["innerWidth"], "the page scrolls sideways on a phone"
    assert drawn["overflowing"] == [], "a table or chart passes the edge of a phone's screen"
    # The standings fit whole, without scrolling: the casualties and the points show.
    [table] = drawn["standings"]
    assert table["right"] <= 390
    heads = [h["text"] for h in table["heads"]]
    assert heads[-2:] == ["CAS", "Pts"]
    assert all(h["right"] <= 390 for h in table["heads"])
    # The charts are the phone's drawing, whole: the last round's label shows, text is legible.
    for chart in drawn["charts"]:
        assert chart["canvas"] == "narrow", chart["id"]
        assert chart["right"] <= 390, chart["id"]
        assert all(label["right"] <= 390 for label in chart["labels"]), chart["id"]
        assert all(11 <= label["height"] <= 20 for label in chart["labels"]), chart["labels"]
        assert all(0 < s["right"] <= 390 for s in chart["series"]), chart["id"]
        assert chart["names"] == [], chart["id"]  # no room: the legend names the lines
    texts = {c["id"]: [label["text"] for label in c["labels"]] for c in drawn["charts"]}
    assert "3" in texts["positions-0"]
    assert "End" in texts["rating"]
