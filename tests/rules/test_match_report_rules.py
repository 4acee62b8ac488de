"""Rules a match report meets before it becomes an event, as data (seed 001 sections named).

Given a casualty, a game's casualties or a game's score and shoot-out, a rule returns its
problem (the sentence ``ledger match record`` prints after ``error[code]:``) or none.
"""

from __future__ import annotations

import pytest

from ledger.domain import events as ev
from ledger.domain.values import Casualty, Shootout, TeamSheet
from ledger.errors import CasualtyDice, InvalidInput
from ledger.rules import find_ruleset
from ledger.rules.playoffs import shootout_problems
from ledger.rules.problems import casualties_once
from tests.support import roll

BB2025 = find_ruleset("bb2025")


@pytest.mark.parametrize(
    ("outcome", "d16", "d6", "problem"),
    [
        ("badly_hurt", 3, 2, "a casualty that is badly hurt takes no Lasting"),
        ("seriously_hurt", 8, 5, "a casualty that is seriously hurt takes no Lasting"),
        ("dead", 16, 1, "a casualty that is dead takes no Lasting"),
        ("badly_hurt", None, 2, "a casualty that is badly hurt takes no Lasting"),
        ("lasting_injury", 13, 1, None),
        ("badly_hurt", 3, None, None),
    ],
)
def test_a_lasting_injury_die_is_rolled_only_for_a_lasting_injury(
    outcome: str, d16: int | None, d6: int | None, problem: str | None
) -> None:
    """Core rules Casualty Table (the D16 of seed 001's casualties): only 13-14, a Lasting
    Injury, takes the Lasting Injury D6."""
    dice = (*([roll("casualty", "D16", d16)] if d16 else []),)
    dice += (*([roll("lasting_injury", "D6", d6)] if d6 else []),)
    effects = ("miss_next_game", "-av") if outcome == "lasting_injury" else ()
    hurt = Casualty(victim="p1", cause="block", outcome=outcome, effects=effects, dice=dice)
    found = BB2025.problems(hurt)
    assert [p.error for p in found] == ([CasualtyDice] if problem else [])
    assert all(p.sentence.startswith(str(problem)) for p in found)


def test_a_d16_roll_of_a_lasting_injury_without_its_d6_asks_for_the_d6() -> None:
    with pytest.raises(InvalidInput, match="roll of 13 is a lasting_injury: give its Lasting"):
        BB2025.casualty_from_report(None, (), (roll("casualty", "D16", 13),))


def hurt(victim: str, recovered: bool = False) -> Casualty:
    return Casualty(victim=victim, cause="block", outcome="badly_hurt", recovered=recovered)


@pytest.mark.parametrize(
    ("casualties", "twice"),
    [
        ([hurt("p1"), hurt("p2")], None),
        ([hurt("p1", recovered=True), hurt("p1")], None),
        ([hurt("p1"), hurt("p1", recovered=True)], None),
        ([hurt("p1"), hurt("p2"), hurt("p1")], "Griff"),
        ([hurt("p1", recovered=True), hurt("p1"), hurt("p1")], "Griff"),
    ],
)
def test_a_player_is_a_casualty_again_only_after_a_recovered_one(
    casualties: list[Casualty], twice: str | None
) -> None:
    """Seed 001 'Earning Star Player Points', Casualty: a casualty may be "recovered by
    any means - such as an Apothecary or the Regeneration Trait"; one that is not leaves
    the game, so at most one casualty of a player stands."""
    names = ["Griff" if c.victim == "p1" else "Rudi" for c in casualties]
    found = casualties_once(casualties, names)
    assert [p.sentence.split(" is ")[0] for p in found] == ([twice] if twice else [])
    assert all(p.error is InvalidInput for p in found)


def match(
    kind: str, home: int, away: int, penalties: tuple[int, int] | None = None
) -> ev.MatchRecorded:
    shootout = (
        Shootout(penalties_home=penalties[0], penalties_away=penalties[1]) if penalties else None
    )
    return ev.MatchRecorded.model_construct(
        match="s1-final-1",
        kind=kind,
        home=TeamSheet(team="aa", touchdowns=home),
        away=TeamSheet(team="bb", touchdowns=away),
        shootout=shootout,
        others=(),
        winner=None,
    )


@pytest.mark.parametrize(
    ("played", "problem"),
    [
        (match("playoff", 2, 1), None),
        (match("playoff", 1, 1, (3, 2)), None),
        (match("league", 1, 1), None),
        (match("playoff", 1, 1), "a play-off needs a winner, and s1-final-1 ended 1-1"),
        (match("playoff", 1, 1, (2, 2)), "a play-off needs a winner, and the shoot-out"),
        (match("playoff", 1, 0, (3, 2)), "s1-final-1 ended 1-0: a shoot-out follows only a draw"),
        (match("league", 1, 0, (3, 2)), "only a play-off goes to extra time and penalties"),
        (match("league", 1, 1, (3, 2)), "only a play-off goes to extra time and penalties"),
    ],
)
def test_a_playoff_has_a_winner_and_only_a_drawn_playoff_a_shootout(
    played: ev.MatchRecorded, problem: str | None
) -> None:
    """Seed 001 'Play-offs': "it is important to always have a winner in each round and so
    every Play-off game will be played using the Extra Time and Penalties (if required)"."""
    found = shootout_problems(played)
    assert len(found) == (1 if problem else 0)
    if problem:
        assert found[0].sentence.startswith(problem)
