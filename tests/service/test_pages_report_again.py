"""A rejected report sent again (``/leagues/{league}/submissions/{id}/again``): the form
comes back filled as the report was sent, and the "let the ledger roll" box as the
submission asked (the submission keeps it, beside its report: it is no field of a report).
"""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.service.conftest import sign_in
from tests.service.test_pages import csrf_in, post, submit_friendly

ROLL_BOX = re.compile(r'<input type="checkbox" id="roll_missing" [^>]*>')


def rejected(client: TestClient, **extra: str) -> str:
    """jay's friendly, submitted with ``extra`` and rejected by the commissioner; the
    form to correct it, as jay gets it."""
    sent = submit_friendly(client, **extra)
    assert sent.status_code == 303, sent.text[-800:]
    page = sent.headers["location"]
    client.cookies.clear()
    sign_in(client, "commissioner")
    shown = client.get(page).text
    answer = post(client, f"{page}/reject", {"csrf": csrf_in(shown), "reason": "replay it"})
    assert answer.status_code == 303, answer.text[-800:]
    client.cookies.clear()
    sign_in(client, "jay")
    form = client.get(f"{page}/again")
    assert form.status_code == 200, form.text[-800:]
    return form.text


def roll_box(html: str) -> str:
    found = ROLL_BOX.search(html)
    assert found, "the form has no 'let the ledger roll' box"
    return found.group(0)


def test_a_report_that_let_the_ledger_roll_comes_back_with_the_box_ticked(
    client: TestClient,
) -> None:
    """The tester's finding: sent again, the report no longer asked the ledger to roll
    the dice left empty, unless its coach noticed and ticked the box anew."""
    form = rejected(client, roll_missing="1")
    assert " checked" in roll_box(form)


def test_a_report_that_left_the_ledger_no_dice_to_roll_comes_back_with_the_box_clear(
    client: TestClient,
) -> None:
    form = rejected(client, roll_missing="")
    assert " checked" not in roll_box(form)
