"""A roll an advancement does not read is refused by the command, not stored unread
(``problems.unread_rolls``, over each edition's ``advancement_reads``).

Each row: the edition, the kind of advancement, the rolls given (purpose, how many), and
the refusal (None: every roll given is one the kind reads). The sources say which rolls
each kind takes.
"""

from __future__ import annotations

import pytest

from ledger.domain import events as ev
from ledger.domain.values import DiceRoll
from ledger.rules import find_ruleset
from ledger.rules.problems import unread_rolls

CHOSEN = "a chosen primary advancement reads no roll: leave out characteristic"

ROWS = [
    # seed 001 'Advancement Table': a chosen skill is taken, nothing rolled
    ("bb2025", "chosen_primary", {}, None),
    ("bb2025", "chosen_primary", {"characteristic": 1}, CHOSEN),
    (
        "bb2025",
        "chosen_secondary",
        {"characteristic": 1, "star_roll": 1},
        "a chosen secondary advancement reads no roll: leave out characteristic and star_roll",
    ),
    # seed 001 'Characteristic Improvements': "roll a D8", once
    ("bb2025", "characteristic", {"characteristic": 1}, None),
    (
        "bb2025",
        "characteristic",
        {"characteristic": 2},
        "a characteristic advancement reads one characteristic roll, not 2",
    ),
    (
        "bb2025",
        "characteristic",
        {"characteristic": 1, "random_skill": 2},
        "a characteristic advancement reads only characteristic: leave out random_skill",
    ),
    # seed 001 'New Skills': "roll two D6", and "simply roll again" for a skill he has
    ("bb2025", "random_primary", {"random_skill": 3}, None),
    (
        "bb2025",
        "random_primary",
        {"random_skill": 2, "characteristic": 1},
        "a random primary advancement reads only random_skill: leave out characteristic",
    ),
    # BB2020 adds the random secondary skill to the same table (its D16 characteristic die
    # is checked by the edition: the purpose is the same)
    ("bb2020", "random_secondary", {"random_skill": 2}, None),
    ("bb2020", "chosen_primary", {"characteristic": 1}, CHOSEN),
    # LRB6 p.26, 4th and 3rd editions: one Star Player Roll of 2D6 a level
    ("lrb6", "star_roll", {"star_roll": 1}, None),
    (
        "lrb6",
        "star_roll",
        {"star_roll": 2},
        "a star roll advancement reads one star_roll roll, not 2",
    ),
    (
        "gold4",
        "star_roll",
        {"star_roll": 1, "ageing": 1},
        "a star roll advancement reads only star_roll: leave out ageing",
    ),
    ("dz3", "star_roll", {"star_roll": 1}, None),
    # seed 000 ZAL 19: the Ageing Roll follows each Star Player Roll, and its effect roll a
    # failed one
    ("lrb6-zal", "star_roll", {"star_roll": 1, "ageing": 1, "ageing_effect": 1}, None),
    (
        "lrb6-zal",
        "star_roll",
        {"star_roll": 1, "ageing": 2},
        "a star roll advancement reads one ageing roll, not 2",
    ),
    # a kind the edition does not know is its own check's to refuse, not this one's
    ("lrb6", "chosen_primary", {"characteristic": 1}, None),
]


def rolled(purposes: dict[str, int]) -> tuple[DiceRoll, ...]:
    return tuple(
        DiceRoll(purpose=purpose, dice="2D6", values=(3, 4))
        for purpose, count in purposes.items()
        for _ in range(count)
    )


@pytest.mark.parametrize(("edition", "kind", "given", "refusal"), ROWS)
def test_an_advancement_keeps_only_the_rolls_its_kind_reads(
    edition: str, kind: ev.AdvancementKind, given: dict[str, int], refusal: str | None
) -> None:
    event = ev.PlayerAdvanced(team="t", player="p1", kind=kind, dice=rolled(given))
    problems = unread_rolls(find_ruleset(edition), event)
    assert [(p.error.code, p.sentence) for p in problems] == (
        [("invalid-dice", refusal)] if refusal else []
    )


@pytest.mark.parametrize("edition", ["bb2025", "bb2020", "lrb6", "lrb6-zal", "gold4", "dz3"])
def test_every_kind_an_edition_offers_says_which_rolls_it_reads(edition: str) -> None:
    ruleset = find_ruleset(edition)
    assert set(ruleset.advancement_kinds) <= set(ruleset.advancement_reads)
