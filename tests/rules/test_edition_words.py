"""A refusal names the edition the league plays: bb2020 shares bb2025's rules, not its name."""

from __future__ import annotations

import re
from typing import get_args

import pytest

from ledger.domain.events import AdvancementKind, PlayerAdvanced
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import DiceRoll
from ledger.errors import InvalidAdvancement, InvalidInput
from ledger.rules import REGISTRY, find_ruleset
from ledger.rules.asked import Advancing
from ledger.rules.protocol import Ruleset
from tests.rules.seam import said


@pytest.mark.parametrize(("ruleset", "book"), [("bb2025", "BB2025"), ("bb2020", "BB2020")])
def test_a_refusal_names_the_league_s_own_edition(ruleset: str, book: str) -> None:
    rules = find_ruleset(ruleset)
    team = TeamRow(league_id="l", team_id="t", name="T", coach="c", roster="human", drafting=False)
    assert said(rules.check_release(team, "reroll")) == [
        f"{book} team re-rolls cannot be removed from the roster once drafted"
    ]
    with pytest.raises(InvalidInput, match=f"'broken' is not a {book} casualty outcome"):
        rules.casualty_from_report("broken", (), ())


@pytest.mark.parametrize(
    ("ruleset", "ways"),
    [
        ("lrb6", "a Star Player Roll (star_roll)"),
        ("lrb6-zal", "a Star Player Roll (star_roll)"),
        ("gold4", "a Star Player Roll (star_roll)"),
        (
            "bb2025",
            "a random primary skill (random_primary), a chosen primary skill (chosen_primary),"
            " a chosen secondary skill (chosen_secondary) or a characteristic improvement"
            " (characteristic)",
        ),
    ],
)
def test_a_kind_the_edition_lacks_is_refused_in_one_sentence_naming_its_kinds(
    ruleset: str, ways: str
) -> None:
    """One wording for every edition (there were four), from ``advancement_kinds``."""
    rules = find_ruleset(ruleset)
    player, team = human_lineman(rules)
    lacked = "random_secondary"
    asked = advancement(lacked, skill="Block")
    assert said(rules.problems(Advancing(player, team, asked))) == [
        f"no random secondary skill in {rules.name}: a player advances by {ways}"
    ]


def human_lineman(rules: Ruleset) -> tuple[PlayerRow, TeamRow]:
    """A lineman with SPP for any advancement, on a team past its draft."""
    lineman = rules.catalogue.position("human", "lineman")
    stats = lineman.model_dump(include={"ma", "st", "ag", "pa", "av"})
    player = PlayerRow(
        league_id="l",
        player_id="p",
        team_id="t",
        name="Hans",
        roster="human",
        position="lineman",
        **stats,
        spp=60,
        spp_earned=60,
    )
    team = TeamRow(league_id="l", team_id="t", name="T", coach="c", roster="human", drafting=False)
    return player, team


def advancement(kind: str, skill: str | None = None) -> PlayerAdvanced:
    """``kind`` with a 2D6 Star Player Roll of 3 and 4 (a skill in every edition that rolls)."""
    roll = DiceRoll(purpose="star_roll", dice="2D6", values=(3, 4))
    return PlayerAdvanced.model_construct(
        team="t",
        player="p",
        kind=kind,
        skill=skill,
        characteristic=None,
        category=None,
        dice=(roll,),
    )


@pytest.mark.parametrize("ruleset", sorted(REGISTRY))
@pytest.mark.parametrize("kind", get_args(AdvancementKind))
def test_a_kind_of_advancement_the_edition_lacks_is_refused_in_words(
    ruleset: str, kind: str
) -> None:
    """BB2025 has no Star Player Rolls: asked for one it raised an AttributeError. The kind
    is refused before the edition's own check, which must not fail on it either."""
    rules = find_ruleset(ruleset)
    if kind in rules.advancement_kinds:
        return
    player, team = human_lineman(rules)
    asked = advancement(kind, skill="Block")
    assert said(rules.problems(Advancing(player, team, asked)))
    rules.check_advancement(player, team, asked)


# A skill misspelt is answered with the one meant, in each edition's own words (skills.yaml
# and seed 002's Skills and Trait Table); lrb6's traits are not learnt, so not suggested.
MISSPELT = [
    ("bb2025", "chosen_primary", "Blok", "'Blok' is not a BB2025 skill; did you mean 'Block'?"),
    ("bb2020", "chosen_primary", "sure feat", "did you mean 'Sure Feet'?"),
    ("lrb6", "star_roll", "Dauntles", "LRB6; did you mean 'Dauntless'?"),
    ("lrb6-zal", "star_roll", "Dauntles", "did you mean 'Dauntless'?"),
    ("gold4", "star_roll", "Blok", "Skills and Trait Table; did you mean 'Block'?"),
    ("dz3", "star_roll", "Blok", "'Blok' is not a 3rd edition skill; did you mean 'Block'?"),
]


@pytest.mark.parametrize(("ruleset", "kind", "given", "ending"), MISSPELT)
def test_a_misspelt_skill_is_answered_with_the_one_meant(
    ruleset: str, kind: str, given: str, ending: str
) -> None:
    rules = find_ruleset(ruleset)
    player, team = human_lineman(rules)
    event = advancement(kind, skill=given)
    if ruleset == "lrb6-zal":  # ZAL's Star Player Roll is followed by its Ageing Roll
        ageing = DiceRoll(purpose="ageing", dice="2D6", values=(5, 5))
        event = event.model_copy(update={"dice": (*event.dice, ageing)})
    [sentence] = said(rules.check_advancement(player, team, event))
    assert sentence.endswith(ending)


def test_a_skill_nothing_like_any_is_refused_without_a_guess() -> None:
    rules = find_ruleset("bb2025")
    player, team = human_lineman(rules)
    event = advancement("chosen_primary", skill="Xyzzy")
    assert said(rules.check_advancement(player, team, event)) == ["'Xyzzy' is not a BB2025 skill"]


def test_an_advancement_bb2025_lacks_is_a_fault_in_words_when_folded() -> None:
    """An imported or translated event the table cannot read: said as the command says it
    (it was "'AdvancementCosts' object has no attribute 'star_roll'")."""
    rules = find_ruleset("bb2025")
    player, _ = human_lineman(rules)
    with pytest.raises(
        InvalidAdvancement, match="BB2025's Advancement Table has no Star Player Roll"
    ):
        rules.advancement(player, advancement("star_roll", skill="Block"))


# A casualty named by its outcome (no dice) takes the Casualty Table's effects, and a
# Lasting Injury its one characteristic lost; effects beyond them were recorded (a 'dead'
# beside a Serious Injury killed the player) and one given five times was read once.
# BB2025 and BB2020 'Casualty Table', gold4's and dz3's Death Zone Serious Injury Table;
# LRB6 p.25 already refused the effects beyond.
NAMED_CASUALTIES = [
    (
        "bb2025",
        "serious_injury",
        ("dead", "miss_next_game"),
        "a serious injury does not cause dead",
    ),
    ("bb2020", "serious_injury", ("dead",), "a serious injury does not cause dead"),
    ("bb2025", "lasting_injury", ("-st", "-ag"), "the one characteristic lost"),
    ("bb2025", "lasting_injury", ("-st",) * 5, "the casualty effect -st is given twice"),
    ("lrb6", "dead", ("dead", "dead"), "the casualty effect dead is given twice"),
    ("gold4", "seriously_injured", ("dead",), "a serious injury does not cause dead (Death Zone)"),
    ("dz3", "serious_injury", ("dead", "-st"), "a serious injury does not cause dead"),
    ("gold4", "seriously_injured", ("-st",), None),
    ("dz3", "serious_injury", ("niggling",), None),
    ("bb2025", "lasting_injury", ("-st",), None),
    ("bb2025", "seriously_hurt", ("miss_next_game",), None),
]


@pytest.mark.parametrize(("ruleset", "outcome", "effects", "refusal"), NAMED_CASUALTIES)
def test_a_casualty_named_by_its_outcome_has_its_effects_and_no_other(
    ruleset: str, outcome: str, effects: tuple[str, ...], refusal: str | None
) -> None:
    rules = find_ruleset(ruleset)
    if refusal is None:
        named, found = rules.casualty_from_report(outcome, effects, ())
        assert named == outcome
        assert set(effects) <= set(found)
        return
    with pytest.raises(InvalidInput, match=re.escape(refusal)):
        rules.casualty_from_report(outcome, effects, ())
