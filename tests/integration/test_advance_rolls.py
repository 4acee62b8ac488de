"""The ledger's roll for an advancement is recorded before the choice, and the advancement
is taken from it (ledger/application/advance_rolls.py; seed 001, 'New Skills' and
'Characteristic Improvements': the column, or the SPP, are fixed before the dice)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ledger.application.advance_rolls import after_the_roll, choice_of, waiting
from ledger.application.commands import AdvancePlayer, Correct, RecordMatch, SetAdvancementDice
from ledger.application.keyed_dice import KEYS
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.values import DiceRoll
from ledger.errors import InvalidAdvancement, InvalidInput, LedgerError, NotAllowed
from tests.integration.test_keyed_dice import ledger_dice
from tests.support import event_count, reavers_rats, report, two_team_league

GRIFF = "reavers 1"
"""Scores four times and is MVP in the fixture's game: 16 SPP, a characteristic's 14."""


@pytest.fixture
def slug(ledger: LeagueLedger) -> str:
    engine = ledger.read_models.engine
    KEYS.metadata.create_all(engine)
    with engine.begin() as conn:  # the key of tests/integration/test_keyed_dice.py
        conn.execute(KEYS.insert().values(id=1, secret=bytes(32).hex()))
    slug = two_team_league(ledger)
    ledger.handle(RecordMatch(slug, report(reavers_rats(touchdowns=4))), by="tester")
    return slug


def as_sent(rolls: tuple[DiceRoll, ...]) -> tuple[DiceRoll, ...]:
    """The ledger's rolls as the CLI and the form send them: values, no provenance."""
    return tuple(DiceRoll(purpose=r.purpose, dice=r.dice, values=r.values) for r in rolls)


def random_skill(ledger: LeagueLedger, slug: str, **chosen: str) -> AdvancePlayer:
    dice = ledger_dice(ledger, slug)
    rolls = tuple(dice.roll("random_skill", "2D6", None, nth) for nth in (0, 1))
    return AdvancePlayer(
        slug, "reavers", GRIFF, "random_primary", category="G", dice=as_sent(rolls),
        roll_missing=True, **chosen,
    )  # fmt: skip


def characteristic(ledger: LeagueLedger, slug: str) -> AdvancePlayer:
    d8 = ledger_dice(ledger, slug).roll("characteristic", "D8", "p1")
    return AdvancePlayer(
        slug, "reavers", GRIFF, "characteristic", dice=as_sent((d8,)), roll_missing=True
    )


def griff_roll(ledger: LeagueLedger, slug: str) -> dict[str, object]:
    return dict(ledger.context(slug).player(GRIFF, "reavers").rolled)


def test_a_characteristic_roll_is_recorded_and_a_skill_taken_instead_spends_its_spp(
    ledger: LeagueLedger, slug: str
) -> None:
    """'Should a player not wish to take the Characteristic Improvement they have rolled,
    they can choose to select a Primary or Secondary Skill instead; however, the SPP
    spent for making a Characteristic Improvement roll is still spent.'"""
    asked = characteristic(ledger, slug)
    rolled = ledger.handle(asked, by="coach")
    assert isinstance(rolled, ev.AdvancementRolled)
    assert (rolled.kind, rolled.dice[0].source) == ("characteristic", "ledger")
    c = ledger.context(slug)
    griff = c.player(GRIFF, "reavers")
    said = waiting(griff)
    assert said is not None
    assert said.dice == rolled.dice
    bare = ev.PlayerAdvanced(team="reavers", player="p1", kind="characteristic", dice=rolled.dice)
    choice = choice_of(c, c.team("reavers"), griff, bare)
    assert choice.stats  # every face of the D8 raises one at least
    instead = next(s for s in choice.skills if s not in griff.skills)
    taken = ledger.handle(replace(asked, dice=(), skill=instead), by="coach")
    assert isinstance(taken, ev.PlayerAdvanced)
    assert (taken.skill, taken.dice) == (instead, rolled.dice)
    griff = ledger.context(slug).player(GRIFF, "reavers")
    assert griff.spp == 16 - 14  # the characteristic's price, though a skill was taken
    assert griff.rolled == {}


def test_another_kind_or_other_dice_are_refused_while_a_roll_waits(
    ledger: LeagueLedger, slug: str
) -> None:
    rolled = ledger.handle(random_skill(ledger, slug), by="coach")
    assert isinstance(rolled, ev.AdvancementRolled)
    before = event_count(ledger)
    chosen = AdvancePlayer(slug, "reavers", GRIFF, "chosen_primary", skill="Frenzy")
    with pytest.raises(NotAllowed, match="taken from the ledger's roll for a random primary"):
        ledger.handle(chosen, by="coach")
    other = replace(random_skill(ledger, slug), category="S")
    with pytest.raises(NotAllowed, match="in category G"):
        ledger.handle(other, by="coach")
    typed = AdvancePlayer(
        slug, "reavers", GRIFF, "random_primary", category="G", skill="Frenzy",
        dice=(DiceRoll(purpose="random_skill", dice="2D6", values=(6, 6)),) * 2,
    )  # fmt: skip
    with pytest.raises(NotAllowed, match="rolled already"):
        ledger.handle(typed, by="coach")
    with pytest.raises(InvalidAdvancement, match="choose what he takes"):
        ledger.handle(replace(random_skill(ledger, slug), dice=()), by="coach")
    assert event_count(ledger) == before


def test_a_voided_roll_frees_the_player_and_a_voided_advancement_leaves_its_roll_waiting(
    ledger: LeagueLedger, slug: str
) -> None:
    """The commissioner voids a roll made in error; an advancement voided gives its roll
    back, to be taken again (its dice were rolled)."""
    rolled = ledger.handle(random_skill(ledger, slug), by="coach")
    roll_seq = event_count(ledger)
    waits = griff_roll(ledger, slug)
    assert waits["seq"] == roll_seq
    ledger.handle(Correct(slug, roll_seq, "void"), by="commish", reason="wrong column")
    assert griff_roll(ledger, slug) == {}
    rolled = ledger.handle(random_skill(ledger, slug), by="coach")  # the same dice again
    assert isinstance(rolled, ev.AdvancementRolled)
    assert griff_roll(ledger, slug)["dice"] == waits["dice"]
    c = ledger.context(slug)
    griff = c.player(GRIFF, "reavers")
    bare = ev.PlayerAdvanced(
        team="reavers", player="p1", kind="random_primary", category="G", dice=rolled.dice
    )
    first = choice_of(c, c.team("reavers"), griff, bare).skills[0]
    ledger.handle(random_skill(ledger, slug, skill=first), by="coach")
    assert griff_roll(ledger, slug) == {}
    ledger.handle(Correct(slug, event_count(ledger), "void"), by="commish", reason="mistake")
    assert griff_roll(ledger, slug)["seq"] == event_count(ledger) - 2
    live = griff_roll(ledger, slug)
    ledger.read_models.rebuild(ledger.source)
    assert griff_roll(ledger, slug) == live  # the rebuild agrees with the catch-up


def test_a_roll_he_cannot_pay_for_records_nothing(ledger: LeagueLedger, slug: str) -> None:
    ledger.handle(random_skill(ledger, slug), by="coach")
    ledger.handle(Correct(slug, event_count(ledger), "void"), by="commish", reason="test")
    spent = AdvancePlayer(slug, "reavers", GRIFF, "chosen_primary", skill="Frenzy")
    ledger.handle(spent, by="coach")  # 6 of his 16 SPP: a characteristic costs 14 next
    before = event_count(ledger)
    with pytest.raises(InvalidAdvancement, match="SPP"):
        ledger.handle(characteristic(ledger, slug), by="coach")
    assert event_count(ledger) == before


def test_the_one_skill_two_rolls_give_is_taken_when_none_is_named(
    ledger: LeagueLedger, slug: str
) -> None:
    """'If you roll the same Skill both times, you must choose that one.'"""
    c = ledger.context(slug)
    griff = c.player(GRIFF, "reavers")
    twice = DiceRoll(purpose="random_skill", dice="2D6", values=(4, 3), source="ledger")
    asked = ev.PlayerAdvanced(
        team="reavers", player="p1", kind="random_primary", category="G", dice=(twice, twice)
    )
    instead = after_the_roll(c, c.team("reavers"), griff, asked)
    assert isinstance(instead, ev.PlayerAdvanced)
    assert instead.skill == choice_of(c, c.team("reavers"), griff, asked).skills[0]
    table = asked.model_copy(update={"dice": (twice.model_copy(update={"source": "table"}),) * 2})
    assert after_the_roll(c, c.team("reavers"), griff, table) is None  # the table's: refused


def test_the_ledgers_roll_is_voided_never_amended(ledger: LeagueLedger, slug: str) -> None:
    ledger.handle(random_skill(ledger, slug), by="coach")
    seq, before = event_count(ledger), griff_roll(ledger, slug)
    amend = Correct(slug, seq, "amend", amendment={"category": "S"})
    with pytest.raises(InvalidInput, match="cannot be amended: its dice are the ledger's"):
        ledger.handle(amend, by="commish", reason="the other column")
    assert (event_count(ledger), griff_roll(ledger, slug)) == (seq, before)


def test_the_command_rolls_the_dice_left_out_as_the_cli_and_the_form_would(
    ledger: LeagueLedger, slug: str
) -> None:
    """The API's ``roll_missing``: the same keyed dice as those sent back by a form."""
    sent = random_skill(ledger, slug)
    rolled = ledger.handle(replace(sent, dice=()), by="coach")
    assert isinstance(rolled, ev.AdvancementRolled)
    assert [(d.values, d.source) for d in rolled.dice] == [(d.values, "ledger") for d in sent.dice]


def test_a_league_whose_advancements_the_ledger_rolls_refuses_dice_typed_in(
    ledger: LeagueLedger, slug: str
) -> None:
    """``AdvancementDiceSet``: the ledger rolls without being asked, dice typed in are
    refused (the ledger's own values, sent back by the form, stand); set twice, refused."""
    ledger.handle(SetAdvancementDice(slug, True), by="commish", reason="rolls witnessed")
    assert ledger.context(slug).league.advancements_by_ledger
    with pytest.raises(LedgerError, match="already rolled by the ledger only"):
        ledger.handle(SetAdvancementDice(slug, True), by="commish")
    before = event_count(ledger)
    typed = replace(characteristic(ledger, slug), roll_missing=False)
    d8 = typed.dice[0].values[0] % 8 + 1  # not the ledger's
    other = replace(typed, dice=(DiceRoll(purpose="characteristic", dice="D8", values=(d8,)),))
    with pytest.raises(NotAllowed, match=f"rolled by the ledger: leave out characteristic {d8}"):
        ledger.handle(other, by="coach")
    assert event_count(ledger) == before
    rolled = ledger.handle(replace(typed, dice=()), by="coach")  # no --roll: it rolls
    assert isinstance(rolled, ev.AdvancementRolled)
    assert [(d.values, d.source) for d in rolled.dice] == [(typed.dice[0].values, "ledger")]
    chosen = AdvancePlayer(slug, "reavers", GRIFF, "chosen_primary", skill="Frenzy")
    ledger.handle(Correct(slug, event_count(ledger), "void"), by="commish", reason="test")
    ledger.handle(chosen, by="coach")  # a chosen skill rolls nothing: taken as ever
    ledger.handle(SetAdvancementDice(slug, False), by="commish")
    assert not ledger.context(slug).league.advancements_by_ledger
    with pytest.raises(LedgerError, match="already take dice rolled at the table as well"):
        ledger.handle(SetAdvancementDice(slug, False), by="commish")
