"""A form's number is written in ASCII digits: Python's ``int`` also reads a fullwidth
3 or an Arabic-Indic 2 (a count of 3 or 2 bought), and ``str.isdigit`` passed a
superscript 2 that ``int`` then failed on (a 500). Each is refused beside its field
with the sentence 'abc' gets, and nothing is recorded (ledger/web/pages_forms.py,
``ascii_int``, the one reading of a form's whole number)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ledger.web.pages_forms import FieldInvalid, ascii_int, dice_values, whole
from tests.service.conftest import LEAGUE, World, event_count, sign_in
from tests.service.test_pages import csrf_in, error_beside, no_server_error, post
from tests.service.test_pages_close import CLOSE, played_final

TEAM = f"/leagues/{LEAGUE}/teams/reikland-reavers"
FULLWIDTH_3, FULLWIDTH_9, FULLWIDTH_12 = "\uff13", "\uff19", "\uff11\uff12"
ARABIC_INDIC_2, ARABIC_INDIC_4 = "\u0662", "\u0664"
SUPERSCRIPT_2 = "\u00b2"  # isdigit() says yes, int() refuses it
OTHER_DIGITS = [FULLWIDTH_3, FULLWIDTH_9, ARABIC_INDIC_2, SUPERSCRIPT_2, FULLWIDTH_12]


def nothing(client: TestClient, world: World) -> None:
    """The demo league as it is: no setup."""


Setup = Callable[[TestClient, World], None]
FORMS: dict[str, tuple[Setup, str, dict[str, str], str, str]] = {
    # form: (setup, path, the other fields, the number's field, where its error is shown)
    "buy": (nothing, f"{TEAM}/buy", {"item": "cheerleader"}, "count", "count"),
    "hire": (nothing, f"{TEAM}/hire", {"position": "lineman", "name": "Z"}, "number", "number"),
    "whatif": (nothing, f"/leagues/{LEAGUE}/whatif", {"ruleset": "bb2025"}, "samples", "samples"),
    "close": (played_final, CLOSE, {}, "die-expensive_mistakes", "dice"),
}


@pytest.mark.parametrize("typed", [*OTHER_DIGITS, "abc"])
@pytest.mark.parametrize("form", list(FORMS))
def test_a_number_in_digits_of_another_script_is_refused_beside_its_field_as_abc_is(
    client: TestClient, world: World, form: str, typed: str
) -> None:
    setup, path, fields, field, shown = FORMS[form]
    setup(client, world)
    sign_in(client, "jay")
    csrf = csrf_in(client.get(path).text)
    before = event_count(client)
    reply = post(client, path, {"csrf": csrf, **fields, field: typed})
    no_server_error(reply)
    assert reply.status_code == 422, reply.text[-800:]
    said = error_beside(reply.text, shown)
    assert f"not '{typed}'" in said
    assert said.endswith(" invalid-input")
    assert event_count(client) == before


def test_a_count_in_ascii_digits_still_buys(client: TestClient) -> None:
    sign_in(client, "jay")
    path = f"{TEAM}/buy"
    before = event_count(client)
    reply = post(
        client,
        path,
        {"csrf": csrf_in(client.get(path).text), "item": "cheerleader", "count": " 2 "},
    )
    assert reply.status_code == 303, reply.text[-800:]
    assert event_count(client) == before + 1


@pytest.mark.parametrize(
    ("text", "signed", "read"),
    [
        ("12", False, 12),
        ("007", False, 7),
        ("-3", True, -3),
        ("-3", False, None),
        ("-", True, None),
        ("+3", True, None),
        *((digits, False, None) for digits in OTHER_DIGITS),
        ("1\n", False, None),
        ("1 2", False, None),
        ("", False, None),
        ("9" * 19, False, None),  # beyond any form's bound (and int's 4,300-digit limit)
    ],
)
def test_only_ascii_digits_are_a_whole_number(text: str, signed: bool, read: int | None) -> None:
    assert ascii_int(text, signed=signed) == read


def test_a_minus_is_read_where_the_bounds_allow_a_negative_and_refused_elsewhere() -> None:
    assert whole("-2", "amount", "an amount", -5, 5) == -2
    with pytest.raises(FieldInvalid, match="an amount is a whole number from 0 to 5, not '-2'"):
        whole("-2", "amount", "an amount", 0, 5)


@pytest.mark.parametrize(("text", "read"), [("4", 4), ("3 4, 5", [3, 4, 5]), ("", None)])
def test_a_roll_is_read_in_ascii_digits(text: str, read: Any) -> None:
    assert dice_values(text, "expensive_mistakes") == read


@pytest.mark.parametrize("text", [FULLWIDTH_9, f"3 {ARABIC_INDIC_4}", f"1{SUPERSCRIPT_2}"])
def test_a_roll_in_other_digits_is_refused_as_numbers(text: str) -> None:
    with pytest.raises(
        FieldInvalid, match=f"the expensive mistakes roll takes whole numbers, not '{text}'"
    ):
        dice_values(text, "expensive_mistakes")


def test_a_bound_past_a_thousand_is_said_with_its_commas() -> None:
    with pytest.raises(FieldInvalid, match="a treasury is a whole number from 0 to 100,000,000"):
        whole("-5", "treasury", "a treasury", 0, 100_000_000)
