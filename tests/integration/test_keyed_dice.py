"""The ledger's dice for a player's advancement (ledger/application/keyed_dice.py): the
same however often they are asked, so asking again cannot be used to roll again; sent
back by a coach who let the ledger roll, recorded as the ledger's (a roll leaving a
choice first, ``advance_rolls``); any other values as the table's."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa

from ledger.application.advance_rolls import choice_of
from ledger.application.commands import AdvancePlayer, RecordMatch
from ledger.application.keyed_dice import KEYS, KeyedDice, dice_key
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.log import league_id
from ledger.domain.values import DiceRoll
from ledger.errors import InvalidAdvancement
from tests.support import reavers_rats, report, two_team_league

GRIFF = "reavers 1"
"""Scores twice and is MVP in ``reavers_rats``: SPP enough for a random primary skill."""


KNOWN_KEY = bytes(32)
"""A store's key is random; this one is set so that the ledger's rolls for Griff's first
advancement (5,6 and 6,2), and those rolls with their first die moved on by one, each
give two General skills he lacks: the refusal always offers a choice."""


@pytest.fixture
def slug(ledger: LeagueLedger) -> str:
    engine = ledger.read_models.engine
    KEYS.metadata.create_all(engine)
    with engine.begin() as conn:
        conn.execute(KEYS.insert().values(id=1, secret=KNOWN_KEY.hex()))
    slug = two_team_league(ledger)
    ledger.handle(RecordMatch(slug, report(reavers_rats())), by="tester")
    assert ledger.context(slug).player(GRIFF, "reavers").player_id == "p1"
    return slug


def ledger_dice(ledger: LeagueLedger, slug: str) -> KeyedDice:
    c = ledger.context(slug)
    dice = c.advancement_dice(c.player(GRIFF, "reavers"))
    assert dice is not None
    return dice


def skill_rolls(dice: KeyedDice) -> tuple[DiceRoll, DiceRoll]:
    first, second = (dice.roll("random_skill", "2D6", None, nth) for nth in (0, 1))
    return first, second


def as_typed(rolls: tuple[DiceRoll, ...]) -> tuple[DiceRoll, ...]:
    """The rolls as a form or ``--die`` sends them: values only, no provenance."""
    return tuple(DiceRoll(purpose=r.purpose, dice=r.dice, values=r.values) for r in rolls)


def advanced(
    ledger: LeagueLedger, slug: str, rolls: tuple[DiceRoll, ...], roll_missing: bool
) -> ev.PlayerAdvanced:
    """A random primary skill taken with ``rolls``, sent without a skill, then with the
    first of the two they offer: the ledger's roll is recorded before the choice
    (``advance_rolls``), the table's dice are refused naming the two."""
    asked = AdvancePlayer(
        slug, "reavers", GRIFF, "random_primary", category="G", dice=rolls,
        roll_missing=roll_missing,
    )  # fmt: skip
    refused, answer = "", None
    try:
        answer = ledger.handle(asked, by="coach")
    except InvalidAdvancement as refusal:
        refused = refusal.message
    if isinstance(answer, ev.AdvancementRolled):
        c = ledger.context(slug)
        griff = c.player(GRIFF, "reavers")
        first = choice_of(c, c.team("reavers"), griff, ev_of(answer)).skills[0]
    else:
        offered = re.search(r"the rolls give (.+?) or ", refused)
        assert offered, refused
        first = offered[1]
    taken = ledger.handle(replace(asked, skill=first), by="coach")
    assert isinstance(taken, ev.PlayerAdvanced)
    return taken


def ev_of(roll: ev.AdvancementRolled) -> ev.PlayerAdvanced:
    return ev.PlayerAdvanced(
        team=roll.team, player=roll.player, kind=roll.kind, category=roll.category, dice=roll.dice
    )


def test_the_ledgers_roll_is_the_same_however_often_it_is_asked(
    ledger: LeagueLedger, slug: str
) -> None:
    first = skill_rolls(ledger_dice(ledger, slug))
    assert skill_rolls(ledger_dice(ledger, slug)) == first
    assert all(r.source == "ledger" and r.dice == "2D6" for r in first)
    key = ledger.read_dice_key()
    ledger.read_models.rebuild(ledger.source)  # a rebuild keeps the key: not a read model
    assert dice_key(ledger.read_models.engine) == key
    assert len(key) == 32


def test_sent_back_by_a_coach_who_let_the_ledger_roll_they_are_recorded_as_its_own(
    ledger: LeagueLedger, slug: str
) -> None:
    before = ledger_dice(ledger, slug)
    taken = advanced(ledger, slug, as_typed(skill_rolls(before)), roll_missing=True)
    assert taken.dice == skill_rolls(before)
    assert [r.source for r in taken.dice] == ["ledger", "ledger"]
    assert ledger_dice(ledger, slug).occasion != before.occasion  # his next advancement


def test_other_values_or_the_same_typed_without_asking_the_ledger_are_the_tables(
    ledger: LeagueLedger, slug: str
) -> None:
    own = skill_rolls(ledger_dice(ledger, slug))
    other = tuple(
        DiceRoll(purpose=r.purpose, dice=r.dice, values=(r.values[0] % 6 + 1, r.values[1]))
        for r in own
    )
    taken = advanced(ledger, slug, other, roll_missing=True)
    assert [r.source for r in taken.dice] == ["table", "table"]
    events = list(ledger.source.league_events(str(league_id(slug))))
    assert isinstance(events[-1], ev.PlayerAdvanced)


def test_without_roll_missing_the_ledgers_values_typed_in_are_the_tables(
    ledger: LeagueLedger, slug: str
) -> None:
    """Only a coach who let the ledger roll sends its roll back; values typed otherwise
    are the dice rolled at the table, whatever they show."""
    taken = advanced(ledger, slug, as_typed(skill_rolls(ledger_dice(ledger, slug))), False)
    assert [r.source for r in taken.dice] == ["table", "table"]


def test_a_store_makes_its_own_key_once(tmp_path: Path) -> None:
    """Made by the first to ask, kept; another store's is another."""
    first, other = (sa.create_engine(f"sqlite:///{tmp_path / name}") for name in ("a.db", "b.db"))
    key = dice_key(first)
    assert dice_key(first) == key
    assert dice_key(other) != key
    with first.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(KEYS)).scalar() == 1
