"""dz3 star players and freebooters (seed 004 'Star Players' Alts, 'Freebooters').

Star Players: how many - the books (any), Alt (b) "only 2", Alt (c) "not permitted, except
those with secret weapons", Alt (d) "not permitted"; duplicates - Alt (a) permitted, Alt (b)
"not permitted on a team", Alt (c) "not permitted in a league (first to hire Morg will get
him)"; positions - Alt (a) stars "do not take up the standard positions", Alt (b) "Griff
takes up one Blitzer position on the Human team". "Players with 26 SPPs are still considered
position players; they do not count against any stars you may hire" [GWUK].

Freebooters: "You may only freeboot players or coaches who would normally play for your
team" [JJ]; "After a match, a coach may hire a player he freebooted for the player's full
list price. The original 'freeboot fee' is lost but any SPPs are kept."
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.application.commands import HirePlayer
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.values import Hireling, Performance
from ledger.errors import NotAllowed
from ledger.projections.gather import hire_rows
from ledger.rules.dz3.tables import stars
from tests.rules.seam import said
from tests.rules.test_dz3_book import (
    drafted,
    dz3,
    play,
    problems,
    rolls,
    roster,
    side,
    tr,
    two_teams,
    unrecorded,
)
from tests.support import Book, create_league, draft_team, event_count


def sign_star(book: Book, team: str, star: str, player: str) -> None:
    """A star hired onto a roster, as the command would record it after check_hire."""
    book.record(
        ev.PlayerHired,
        team=team,
        player=player,
        name=stars()[star].name,
        position=star,
        kind="star",
        star=star,
        price=stars()[star].cost,
    )


def hire_problems(book: Book, team: str, **fields: Any) -> list[str]:
    draft = unrecorded(ev.PlayerHired, team=team, player="new", name="New", price=0, **fields)
    team_row, players = roster(book, team)
    state = book.fold()
    rows = hire_rows(state, book.league_id, team_row, draft, players, checking=book.ruleset)
    return said(book.ruleset.check_hire(draft, rows))


def star_hire(book: Book, team: str, star: str) -> list[str]:
    return hire_problems(book, team, position=star, kind="star", star=star, from_list=None)


def rich_humans(**options: Any) -> Book:
    book = dz3(**options)
    drafted(book, "reavers", "human", ["lineman"] * 11, budget=3_000_000)
    return book


def rich_teams(**options: Any) -> Book:
    book = rich_humans(**options)
    drafted(book, "orcs", "orc", ["lineman"] * 11, budget=3_000_000)
    return book


# --- how many stars --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "held", "wanted", "allowed"),
    [
        ("any", ["griff_oberwald", "morg_n_thorg"], "griff_oberwald", True),
        ("two", ["griff_oberwald"], "morg_n_thorg", True),
        ("two", ["griff_oberwald", "morg_n_thorg"], "griff_oberwald", False),
        ("none", [], "griff_oberwald", False),
        ("secret_weapons", [], "morg_n_thorg", False),
    ],
)
def test_how_many_stars_a_team_may_hire(
    option: str, held: list[str], wanted: str, allowed: bool
) -> None:
    book = rich_humans(star_players=option)
    for n, star in enumerate(held):
        sign_star(book, "reavers", star, f"s{n}")
    assert (star_hire(book, "reavers", wanted) == []) is allowed


def test_only_secret_weapon_stars_under_alt_c() -> None:
    book = dz3(star_players="secret_weapons")
    drafted(book, "gobbos", "goblin", ["goblin"] * 11)
    assert star_hire(book, "gobbos", "nobbla_blackwart") == []
    assert star_hire(book, "gobbos", "morg_n_thorg") == [
        "only star players with secret weapons are permitted (Alt (c)); Morg 'n' Thorg has none"
    ]


def test_a_26_spp_player_is_not_a_star() -> None:
    """[GWUK]: 26 SPP players 'do not count against any stars you may hire'."""
    book = rich_humans(star_players="two")
    sign_star(book, "reavers", "griff_oberwald", "s1")
    team, players = roster(book, "reavers")
    veteran = players[0].model_copy(update={"spp_earned": 26, "spp": 26})
    draft = unrecorded(
        ev.PlayerHired,
        team="reavers",
        player="new",
        name="Morg",
        position="morg_n_thorg",
        kind="star",
        star="morg_n_thorg",
        price=0,
        from_list=None,
    )
    assert (
        said(
            book.ruleset.check_hire(
                draft,
                hire_rows(
                    book.fold(), book.league_id, team, draft, [veteran, *players[1:]], book.ruleset
                ),
            )
        )
        == []
    )


def test_a_star_plays_only_for_his_teams() -> None:
    book = dz3()
    drafted(book, "orcs", "orc", ["lineman"] * 11)
    assert star_hire(book, "orcs", "griff_oberwald") == [
        "Griff Oberwald does not play for Orc teams"
    ]


# --- duplicates ------------------------------------------------------------------------------


@pytest.mark.parametrize(("option", "allowed"), [("allowed", True), ("not_in_team", False)])
def test_a_second_copy_on_one_team(option: str, allowed: bool) -> None:
    book = rich_humans(star_duplicates=option)
    sign_star(book, "reavers", "morg_n_thorg", "s1")
    assert (star_hire(book, "reavers", "morg_n_thorg") == []) is allowed


def freebooted_morg() -> Hireling:
    return Hireling(id="h1", name="Morg", kind="star", star="morg_n_thorg", price=0)


@pytest.mark.parametrize(("option", "allowed"), [("not_in_team", True), ("not_in_league", False)])
def test_first_to_hire_morg_gets_him(option: str, allowed: bool) -> None:
    """Alt (c): the Orcs hired Morg first; the Reavers may not freeboot him."""
    book = rich_teams(star_duplicates=option)
    sign_star(book, "orcs", "morg_n_thorg", "s1")
    found = problems(book, side("reavers", hirelings=[freebooted_morg()]), side("orcs"))
    assert (found == []) is allowed, found


@pytest.mark.parametrize(
    ("option", "found"),
    [
        ("allowed", []),
        ("not_in_team", []),
        ("not_in_league", ["Morg 'n' Thorg plays for orcs: no duplicates in the league (Alt (c))"]),
    ],
)
def test_first_to_hire_morg_gets_him_for_good(option: str, found: list[str]) -> None:
    """Alt (c) at hiring time: "Duplicates are not permitted in a league (first to hire Morg
    will get him)". The Orcs signed Morg; the Reavers may not sign him too."""
    book = rich_teams(star_duplicates=option)
    sign_star(book, "orcs", "morg_n_thorg", "s1")
    assert star_hire(book, "reavers", "morg_n_thorg") == found


def test_a_star_who_left_his_team_is_free_to_sign_again() -> None:
    """Alt (c) reads the rosters: once the Orcs' Morg is gone (here: fired), the first to
    hire him again gets him."""
    book = rich_teams(star_duplicates="not_in_league")
    sign_star(book, "orcs", "morg_n_thorg", "s1")
    book.record(ev.PlayerFired, team="orcs", player="s1")
    assert star_hire(book, "reavers", "morg_n_thorg") == []


def test_the_later_hirer_of_a_league_duplicate_may_not_field_him() -> None:
    """Alt (c) for rosters written before hiring checked the league (events recorded
    directly): the report of the later hirer's match is refused while the first hirer has
    him."""
    book = rich_teams(star_duplicates="not_in_league")
    sign_star(book, "orcs", "morg_n_thorg", "s1")
    sign_star(book, "reavers", "morg_n_thorg", "s2")
    found = problems(book, side("reavers", 0, [Performance(player="s2")]), side("orcs"))
    assert found == ["Morg 'n' Thorg plays for orcs: no duplicates in the league (Alt (c))"]


# --- positions -------------------------------------------------------------------------------


@pytest.mark.parametrize(("option", "allowed"), [("separate", True), ("counted", False)])
def test_griff_takes_up_a_blitzer_position(option: str, allowed: bool) -> None:
    book = dz3(star_positions=option)
    drafted(book, "reavers", "human", ["blitzer"] * 4 + ["lineman"] * 7, budget=2_000_000)
    assert (star_hire(book, "reavers", "griff_oberwald") == []) is allowed


def test_with_griff_a_fourth_blitzer_is_one_too_many() -> None:
    book = dz3(star_positions="counted")
    drafted(book, "reavers", "human", ["blitzer"] * 3 + ["lineman"] * 8, budget=2_000_000)
    sign_star(book, "reavers", "griff_oberwald", "s1")
    found = hire_problems(book, "reavers", position="blitzer", kind="regular", from_list=None)
    assert found == [
        "New would be a Blitzer beyond the limit of 4 (stars take up positions: Star Players"
        " Alt (b))"
    ]


# --- freebooters -----------------------------------------------------------------------------


def test_only_players_who_would_normally_play_may_be_freebooted() -> None:
    """A third Human Thrower, like 'a third High Elf Lion Warrior', won't normally play."""
    book = dz3()
    drafted(book, "reavers", "human", ["thrower", "thrower", *["lineman"] * 9])
    drafted(book, "orcs", "orc", ["lineman"] * 11)
    third = Hireling(id="h1", name="Arm", kind="mercenary", position="thrower")
    elf = Hireling(id="h2", name="Elf", kind="mercenary", position="wardancer")
    found = problems(book, side("reavers", hirelings=[third, elf]), side("orcs"))
    assert found == [
        "freebooter Arm would be 3 x Thrower (at most 2): only players who would normally"
        " play for the team may be freebooted",
        "freebooter Elf must play a position of the Human list",
    ]


def test_freebooter_fees_must_be_affordable() -> None:
    book = dz3()
    two_teams(book)
    dear = Hireling(id="h1", name="Dear", kind="mercenary", position="catcher", price=400_000)
    found = problems(book, side("reavers", hirelings=[dear]), side("orcs"))
    assert found == ["the freebooters of reavers cost 400,000 but its treasury holds 350,000"]


def test_a_freebooted_star_obeys_the_star_options() -> None:
    book = dz3(star_players="none")
    two_teams(book)
    found = problems(book, side("reavers", hirelings=[freebooted_morg()]), side("orcs"))
    assert found == ["star players are not permitted in this league (Star Players Alt (d))"]


def test_a_freebooted_star_earns_no_spp_and_no_mvp() -> None:
    book = dz3()
    two_teams(book)
    morg = Performance(player="h1", touchdowns=1, mvps=1)
    home = side("reavers", 1, [morg], rolls("reavers"), [freebooted_morg()])
    assert problems(book, home, side("orcs")) == ["h1 is a star player and cannot be given the MVP"]


def test_a_freebooter_signed_after_the_match_keeps_his_spp_at_full_list_price() -> None:
    book = dz3()
    two_teams(book)
    booted = Hireling(id="h1", name="Hans", kind="mercenary", position="catcher", price=30_000)
    home = side(
        "reavers", 1, [Performance(player="h1", touchdowns=1, mvps=1)], rolls("reavers"), [booted]
    )
    play(book, home, side("orcs", 0, [], rolls("orcs")))
    team, players = roster(book, "reavers")
    draft = unrecorded(
        ev.PlayerHired,
        team="reavers",
        player="p99",
        name="Hans",
        position="catcher",
        kind="journeyman",
        hireling="h1",
        from_match="m1",
        price=0,
    )
    price = book.ruleset.hire_price(
        draft, hire_rows(book.fold(), book.league_id, team, draft, players)
    )
    assert price == 70_000  # the catcher's list price; the 30,000 fee is lost
    before = tr(book, "reavers")
    book.record(
        ev.PlayerHired,
        team="reavers",
        player="p99",
        name="Hans",
        position="catcher",
        kind="journeyman",
        hireling="h1",
        from_match="m1",
        price=price,
    )
    assert book.player_row("p99").spp == 8
    assert tr(book, "reavers") == before + 8 // 5  # value unchanged (gold became a player)


def test_the_hire_command_refuses_a_star_another_team_holds(sqlite_ledger: LeagueLedger) -> None:
    """Alt (c) through the ``HirePlayer`` command (``ledger team hire ... --star``): the
    refusal names the holder and writes nothing."""
    ledger = sqlite_ledger
    create_league(ledger, "dz", "dz3", {"star_duplicates": "not_in_league"})
    draft_team(ledger, "dz", "orcs", "orc", ["lineman"] * 8)
    draft_team(ledger, "dz", "reavers", "human", ["lineman"] * 8)
    ledger.handle(
        HirePlayer("dz", "orcs", "morg_n_thorg", "Morg", star="morg_n_thorg"), by="tester"
    )
    before = event_count(ledger)
    with pytest.raises(NotAllowed, match="Morg 'n' Thorg plays for orcs"):
        ledger.handle(
            HirePlayer("dz", "reavers", "morg_n_thorg", "Morg", star="morg_n_thorg"), by="tester"
        )
    assert event_count(ledger) == before
