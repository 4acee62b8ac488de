"""The HTML report in a real browser: headless Chromium (Debian's ``chromium``).

Chromium renders the demo's report; a probe script, added to a copy of the page only (the
report itself has no script and its Content-Security-Policy forbids one), measures what
was drawn: the standings rows, each chart's series (their painted length and box), and
whether the page fits a phone's width without sideways scrolling. Screenshots of the
report itself, at desktop and phone widths, are saved as test artifacts in
``$LEDGER_ARTIFACTS`` (default: artifacts/ at the repository root).

Without Chromium the tests skip and say why; with ``LEDGER_REQUIRE_BROWSER=1`` (CI) they
fail instead, so a missing browser cannot pass unnoticed.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

from ledger.reports.model import SeasonReport
from ledger.reports.service import write_report
from tests.browsers import artifacts, chromium
from tests.integration.test_reports import demo, demo_db, demo_report

__all__ = ["demo", "demo_db", "demo_report"]  # fixtures shared with test_reports.py

pytestmark = pytest.mark.browser

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)

PROBE = """
<script>
(function () {
  var charts = Array.from(document.querySelectorAll("figure.chart")).map(function (figure) {
    var series = Array.from(figure.querySelectorAll("svg g.series")).map(function (g) {
      var path = g.querySelector("path"), box = g.getBBox();
      return {key: g.dataset.series, length: path.getTotalLength(),
              width: box.width, height: box.height};
    });
    var svg = figure.querySelector("svg").getBoundingClientRect();
    return {id: figure.dataset.chart, series: series, width: svg.width, height: svg.height};
  });
  var rows = Array.from(document.querySelectorAll("table.standings tbody tr"))
    .filter(function (tr) { return tr.getBoundingClientRect().height > 0; }).length;
  var probe = document.createElement("pre");
  probe.id = "probe";
  probe.textContent = JSON.stringify({charts: charts, standingsRows: rows,
    scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth});
  document.body.appendChild(probe);
})();
</script>
"""


def run_chromium(browser: str, page: Path, *options: str) -> str:
    with tempfile.TemporaryDirectory(prefix="ledger-chromium-") as profile:
        done = subprocess.run(
            [browser, *FLAGS, f"--user-data-dir={profile}", *options, page.as_uri()],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def probe(browser: str, html: Path, width: int) -> dict[str, Any]:
    """What Chromium drew, measured by the probe script in a copy of the page."""
    text = html.read_text("utf-8")
    text = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", text)
    probed = html.with_name(f"probed-{width}.html")
    probed.write_text(text.replace("</body>", PROBE + "</body>"), "utf-8")
    dom = run_chromium(browser, probed, f"--window-size={width},1200", "--dump-dom")
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, flags=re.DOTALL)
    assert found, "the probe did not run: " + dom[-500:]
    data: dict[str, Any] = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    return data


@pytest.fixture
def report_html(demo_report: SeasonReport, tmp_path: Path) -> Path:
    return write_report(demo_report, "html", tmp_path / "report.html")


def test_the_report_renders_its_table_and_charts_in_chromium(
    report_html: Path, demo_report: SeasonReport
) -> None:
    browser = chromium("the HTML report was")
    drawn = probe(browser, report_html, 1280)
    teams = len(demo_report.teams)
    assert drawn["standingsRows"] == teams
    charts = {c["id"]: c for c in drawn["charts"]}
    assert set(charts) == {"positions-0", "rating", "treasury"}
    for chart in charts.values():
        assert chart["width"] > 600
        assert chart["height"] > 150
        assert len(chart["series"]) == teams, chart["id"]
        for series in chart["series"]:
            assert series["length"] > 0, (chart["id"], series["key"])
            assert series["width"] > 0, (chart["id"], series["key"])


def test_the_report_fits_a_phone_and_is_saved_as_screenshots(report_html: Path) -> None:
    browser = chromium("the HTML report was")
    drawn = probe(browser, report_html, 390)
    assert drawn["scrollWidth"] <= drawn["innerWidth"], "the page scrolls sideways on a phone"
    folder = artifacts()
    for name, size in (("report-desktop.png", "1280,2400"), ("report-phone.png", "390,2400")):
        shot = folder / name
        shot.unlink(missing_ok=True)
        run_chromium(browser, report_html, f"--window-size={size}", f"--screenshot={shot}")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert shot.stat().st_size > 20_000, "the screenshot looks blank"
