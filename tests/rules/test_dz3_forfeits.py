"""dz3 forfeits (seed 004 3.7 Forfeits) and the league option that picks the variant.

"The rules do not include the option of forfeiting a match" (the books, ``forfeits=none``).
Var (b): "A team unable to field 3 players at a kickoff may forfeit the game without
penalty." Var (c): "... must forfeit the game without penalty." Var (d): "A team may forfeit
but if it still has more than 3 players able to take the field it is penalised by some or
all of the following - The forfeiting team gains no income, nor MVPs nor SPPs from the match.
The forfeiting team loses 2 fan factor. Pitch invasion - an injury roll for every player not
already injured."

A forced forfeit (3 players or fewer) is ``forfeit_forced``; one with players to spare is
``forfeit_voluntary``. The forfeiting team is recorded behind on touchdowns.
"""

from __future__ import annotations

import pytest

from ledger.domain import events as ev
from ledger.domain.values import Concession, Performance
from ledger.rules import find_ruleset
from tests.rules.seam import dice_for
from tests.rules.test_dz3_book import dz3, play, problems, rolls, side, two_teams, unrecorded


def forfeit(kind: str) -> Concession:
    return Concession.model_validate({"team": "orcs", "kind": kind})


@pytest.mark.parametrize(
    ("variant", "kind", "allowed"),
    [
        ("none", "forfeit_forced", False),
        ("none", "forfeit_voluntary", False),
        ("b", "forfeit_forced", True),
        ("b", "forfeit_voluntary", False),
        ("c", "forfeit_forced", True),
        ("c", "forfeit_voluntary", False),
        ("d", "forfeit_forced", True),
        ("d", "forfeit_voluntary", True),
        ("d", "conceded", False),  # BB2025's word: not a 3rd edition forfeit
    ],
)
def test_which_forfeits_each_variant_allows(variant: str, kind: str, allowed: bool) -> None:
    book = dz3(forfeits=variant)
    two_teams(book)
    found = problems(book, side("reavers", 1), side("orcs", 0), concession=forfeit(kind))
    assert (found == []) is allowed, found


def test_a_forfeiting_team_is_recorded_behind() -> None:
    book = dz3(forfeits="b")
    two_teams(book)
    found = problems(
        book, side("reavers", 0), side("orcs", 0), concession=forfeit("forfeit_forced")
    )
    assert found == [
        "orcs forfeited: record the match with orcs behind on touchdowns (the forfeit is a loss)"
    ]


@pytest.mark.parametrize("variant", ["b", "c", "d"])
def test_a_forced_forfeit_costs_nothing_more(variant: str) -> None:
    """(b), (c) and (d) alike: a team unable to field 3 players forfeits without penalty -
    its winnings, SPP and fan factor roll are those of any lost match."""
    book = dz3(forfeits=variant)
    _, orcs = two_teams(book, orcs_fans=3)
    scorer = Performance(player=orcs[0], touchdowns=1, mvps=1)
    away = side("orcs", 1, [scorer], rolls("orcs", gate=(2, 2, 2), winnings=4, fans=6))
    play(book, side("reavers", 2, [], rolls("reavers")), away, concession=forfeit("forfeit_forced"))
    orc_team = book.team_row("orcs")
    # gate 6,000: +0 at TR 100; D6 4 -> 40,000; fan factor 6 - 1 (lost) = 5: kept
    assert (orc_team.treasury, orc_team.fans) == (280_000 + 40_000, 3)
    assert book.player_row(orcs[0]).spp == 8


def test_a_voluntary_forfeit_pays_every_penalty_by_default() -> None:
    """(d): no income, no MVP nor SPP, -2 fan factor (and no fan factor roll)."""
    book = dz3(forfeits="d")
    humans, orcs = two_teams(book, orcs_fans=3)
    away = side(
        "orcs", 1, [Performance(player=orcs[0], touchdowns=1)], rolls("orcs", gate=(6, 6, 6))
    )
    home = side("reavers", 2, [Performance(player=humans[0], mvps=1)], rolls("reavers", winnings=2))
    play(book, home, away, concession=forfeit("forfeit_voluntary"))
    orc_team = book.team_row("orcs")
    assert (orc_team.treasury, orc_team.fans) == (280_000, 1)
    assert book.player_row(orcs[0]).spp == 0
    # the Reavers win as usual: gate 18,000 -> +1 at TR 100; 2 + 1 + 1 (won) = 40,000
    assert book.team_row("reavers").treasury == 350_000 + 40_000
    assert book.player_row(humans[0]).spp == 5


def test_a_voluntary_forfeit_gives_no_mvp() -> None:
    book = dz3(forfeits="d")
    _, orcs = two_teams(book)
    away = side("orcs", 0, [Performance(player=orcs[0], mvps=1)])
    found = problems(book, side("reavers", 1), away, concession=forfeit("forfeit_voluntary"))
    assert found == [
        "Orcs awarded 1 MVP where it may award 0 (one per team + the handicap's bonus MVPs,"
        " difference)"
    ]


def test_a_league_may_choose_some_of_the_penalties() -> None:
    """(d) 'penalised by some or all of the following': here only the lost income."""
    book = dz3(forfeits="d", forfeit_penalties=["income"])
    _, orcs = two_teams(book, orcs_fans=3)
    away = side(
        "orcs",
        1,
        [Performance(player=orcs[0], touchdowns=1)],
        rolls("orcs", gate=(6, 6, 6), fans=6),
    )
    play(
        book,
        side("reavers", 2, [], rolls("reavers")),
        away,
        concession=forfeit("forfeit_voluntary"),
    )
    orc_team = book.team_row("orcs")
    assert (orc_team.treasury, orc_team.fans) == (280_000, 3)  # no income; roll 6 - 1 = 5
    assert book.player_row(orcs[0]).spp == 3


def test_a_voluntary_forfeit_needs_no_winnings_or_fan_factor_dice() -> None:
    book = dz3(forfeits="d")
    two_teams(book, orcs_fans=2)
    draft = unrecorded(
        ev.MatchRecorded,
        match="m",
        kind="league",
        home=side("reavers", 1),
        away=side("orcs", 0),
        casualties=(),
        concession=forfeit("forfeit_voluntary"),
    )
    needs = dice_for(book.ruleset, book.fold(), book.league_id, draft)
    assert {(n.purpose, n.subject) for n in needs} == {
        ("winnings", "reavers"),
        ("fan_factor", "reavers"),
        ("gate", "orcs"),
    }


@pytest.mark.parametrize(
    ("forfeits", "kinds"),
    [
        ("none", ()),
        ("b", ("forfeit_forced",)),
        ("c", ("forfeit_forced",)),
        ("d", ("forfeit_forced", "forfeit_voluntary")),
    ],
)
def test_the_concessions_offered_are_the_leagues_forfeit_variant(
    forfeits: str, kinds: tuple[str, ...]
) -> None:
    """OBERWALD 3.7: no forfeit in the books; Var (b)/(c) a forced one, Var (d) both. The
    report form offers these kinds only (none: no concession section)."""
    assert find_ruleset("dz3", {"forfeits": forfeits}).concession_kinds == kinds
