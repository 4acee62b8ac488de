"""Back after a form was sent shows a fresh, empty form: the pages are never stored by the
browser (``Cache-Control: no-store``, for a shared computer's sake), so Back fetches the
form again with a new key (``once``), and a browser that refilled it as it was sent would
make "Back, then Buy" a second purchase. Every form that writes is ``autocomplete="off"``,
which HTML's session history does not restore (found in the browser: an Assistant Coach
bought twice)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import sign_in

TEMPLATES = Path(__file__).parents[2] / "ledger" / "web" / "templates"
REMEMBERED = {"login.html.j2"}
"""Forms a browser may refill: signing in (its password manager fills it anyway)."""


def writing_forms() -> list[tuple[str, str]]:
    return [
        (path.name, tag)
        for path in sorted(TEMPLATES.glob("*.j2"))
        if path.name not in REMEMBERED
        for tag in re.findall(r"<form\b[^>]*>", path.read_text())
        if 'method="post"' in tag and "/logout" not in tag
    ]


@pytest.mark.parametrize(("template", "tag"), writing_forms())
def test_every_form_that_writes_is_not_refilled_by_back(template: str, tag: str) -> None:
    assert 'autocomplete="off"' in tag, f"{template}: {tag}"


def test_the_buy_page_is_never_stored_by_the_browser(client: TestClient) -> None:
    sign_in(client, "jay")
    page = client.get("/leagues/demo/teams/reikland-reavers/buy")
    assert page.status_code == 200
    assert page.headers["cache-control"] == "no-store"
    assert '<form method="post" autocomplete="off"' in page.text
