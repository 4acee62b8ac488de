"""`ledger correct N --set`: the confirmation names the event amended and says only what
this amendment changed (it said "Event 3 amended (coach, name)", every field amended so
far, and not which event it was)."""

from __future__ import annotations

from pathlib import Path

from tests.cli.inprocess import run_ledger
from tests.cli.test_advance_cli import league  # noqa: F401  (the fixture: Owl, Men and Rats)


def test_a_set_says_the_event_and_what_changed(league: Path) -> None:  # noqa: F811
    coach = run_ledger(league, "correct", "2", "--set", "coach=Bob", "--reason", "typo")
    assert coach.code == 0, coach.err
    said = "Event 2 (Men (Human, coach Bob) registered with 1,000,000) amended: coach Jay -> Bob"
    assert coach.out.strip() == f"{said}: typo"
    name = run_ledger(league, "correct", "2", "--set", "name=Men II", "--reason", "renamed")
    assert name.out.strip().endswith("amended: name Men -> Men II: renamed")  # the coach unsaid
    price = run_ledger(league, "correct", "4", "--set", "price=40000", "--reason", "a discount")
    assert "amended: price 50,000 -> 40,000: a discount" in price.out
