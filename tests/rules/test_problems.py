"""Each rule of ledger/rules/problems.py returns its problem, with its code.

Given this team and these players, under this edition, a rule returns these problems
(code and sentence) or none. The sentences are the ones ``ledger team hire`` and ``ledger
team buy`` print after ``error[code]:``; the numbers are what a what-if replay decides by.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from ledger.domain import events as ev
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import Casualty, DiceRoll, Division
from ledger.errors import (
    InsufficientTreasury,
    InvalidInput,
    NameTaken,
    NotAllowed,
    PositionLimitReached,
)
from ledger.rules import find_ruleset
from ledger.rules.asked import Advancing, Buying, Closing, Firing, Hiring, Releasing, SeasonPlan
from ledger.rules.problems import (
    Problem,
    gold_enough,
    has_feature,
    held,
    item_room,
    let_go,
    not_below_nothing,
    not_past_the_bound,
    position_room,
    refuse,
    roster_room,
    sold,
    unique_identity,
    while_drafting,
)
from ledger.rules.protocol import Feature
from ledger.rules.rows import HireRows, TeamRows
from tests.support import roll

BB2025, GOLD4, LRB6 = find_ruleset("bb2025"), find_ruleset("gold4"), find_ruleset("lrb6")
REAVERS = TeamRow(
    league_id="l", team_id="reavers", name="Reavers", coach="c", roster="human", treasury=15_000
)
PLAYED = REAVERS.model_copy(update={"drafting": False, "rerolls": 7, "staff": {"apothecary": 1}})


def players(*positions: str, roster: str = "human") -> list[PlayerRow]:
    """One player per position, named after it and numbered from 1."""
    return [
        PlayerRow(
            league_id="l",
            player_id=f"p{n}",
            team_id="reavers",
            name=f"{position.title()} {n}",
            number=n,
            roster=roster,
            position=position,
            ma=6,
            st=3,
            ag=3,
            av=9,
        )
        for n, position in enumerate(positions, start=1)
    ]


def hired(position: str, star: str | None = None) -> ev.PlayerHired:
    """The hire a command is about to record (as ``plan_hire`` drafts it)."""
    kind: ev.HireKind = "star" if star else "regular"
    return ev.PlayerHired(
        team="reavers", player="p99", name="New", position=position, kind=kind, star=star, price=0
    )


def advanced(skill: str) -> ev.PlayerAdvanced:
    return ev.PlayerAdvanced(team="reavers", player="p1", kind="chosen_primary", skill=skill)


BLITZER = BB2025.catalogue.position("human", "blitzer")
LINEMAN = BB2025.catalogue.position("human", "lineman")
ITEMS = BB2025.sideline_items(PLAYED)
STAR = players("star")[0].model_copy(update={"kind": "star"})
GUTTER = players("gutter_runner", roster="skaven")[0].model_copy(update={"spp": 14})


def casualty(*dice: DiceRoll) -> Casualty:
    return Casualty(victim="p1", cause="block", outcome="dead", dice=dice)


Rule = Callable[[], list[Problem]]
CASES: list[tuple[str, Rule, Sequence[tuple[str, str]]]] = [
    (
        "BB2025 leagues post no bounties (a ZAL mechanic)",
        lambda: has_feature(BB2025, Feature.BOUNTIES, "bounties"),
        [("not-allowed", "Blood Bowl 2025, Third Season leagues have no bounties")],
    ),
    ("BB2025 leagues re-draft", lambda: has_feature(BB2025, Feature.REDRAFT, "re-drafts"), []),
    (
        "a sixteenth player fits",
        lambda: roster_room(
            REAVERS, players(*["lineman"] * 15), BB2025.catalogue.team_list("human")
        ),
        [],
    ),
    (
        "a seventeenth does not",
        lambda: roster_room(
            REAVERS, players(*["lineman"] * 16), BB2025.catalogue.team_list("human")
        ),
        [("roster-full", "Reavers already have 16 players on the roster (at most 16)")],
    ),
    (
        "a second Blitzer fits",
        lambda: position_room(REAVERS, players("blitzer"), BLITZER, "human"),
        [],
    ),
    (
        "a third Blitzer does not",
        lambda: position_room(REAVERS, players("blitzer", "blitzer"), BLITZER, "human"),
        [("position-limit", "Reavers already have 2 x Human Blitzer (at most 2)")],
    ),
    (
        "players of another list do not count against the team's own",
        lambda: position_room(
            REAVERS, players("blitzer", "blitzer", roster="ally"), BLITZER, "human"
        ),
        [],
    ),
    (
        "a name is unique whatever its case, and so is a number",
        lambda: unique_identity(REAVERS, players("lineman"), "LINEMAN 1", 1),
        [
            ("name-taken", "Reavers already have a player called LINEMAN 1"),
            ("number-taken", "Reavers already have a player wearing #1"),
        ],
    ),
    (
        "a new name and no number",
        lambda: unique_identity(REAVERS, players("lineman"), "Griff", None),
        [],
    ),
    (
        "LRB6 stars are induced, never hired (pp.70-71)",
        lambda: LRB6.problems(
            Hiring(hired("mighty_zug", star="mighty_zug"), HireRows(TeamRows(REAVERS, ())))
        ),
        [
            (
                "star-hire",
                "LRB6 Star Players are induced for one game (a report's hirelings), never hired",
            )
        ],
    ),
    (
        "BB2025 stars are induced or signed at the star draft, never hired (Hiring, step 2)",
        lambda: BB2025.problems(
            Hiring(hired("mighty_zug", star="mighty_zug"), HireRows(TeamRows(REAVERS, ())))
        ),
        [
            (
                "star-hire",
                "BB2025 Star Players are induced for one game (a match's inducements)"
                " or signed at the star draft, never hired",
            )
        ],
    ),
    (
        "a BB2025 lineman is the edition's to allow",
        lambda: BB2025.problems(Hiring(hired("lineman"), HireRows(TeamRows(REAVERS, ())))),
        [],
    ),
    (
        "a Blitzer the treasury cannot pay",
        lambda: gold_enough(REAVERS, BLITZER.cost, "a Human Blitzer"),
        [
            (
                "insufficient-treasury",
                "a Human Blitzer costs 85,000 but Reavers have 15,000 in the treasury",
            )
        ],
    ),
    (
        "what is left of the treasury, when it is not yet the team's",
        lambda: gold_enough(REAVERS, 10_000, "1 x Cheerleader", treasury=5_000),
        [
            (
                "insufficient-treasury",
                "1 x Cheerleader costs 10,000 but Reavers have 5,000 in the treasury",
            )
        ],
    ),
    ("the whole treasury may be spent", lambda: gold_enough(REAVERS, 15_000, "a thing"), []),
    (
        "a fine never leaves the treasury negative",
        lambda: not_below_nothing(REAVERS, -20_000),
        [
            (
                "insufficient-treasury",
                "Reavers have 15,000; an adjustment of -20,000 would leave the treasury negative",
            )
        ],
    ),
    ("a fine may empty it", lambda: not_below_nothing(REAVERS, -15_000), []),
    (
        "an award never takes the treasury past the books' bound of gold",
        lambda: not_past_the_bound(REAVERS, 99_990_000),
        [
            (
                "not-allowed",
                "Reavers have 15,000; an award of 99,990,000 would take the treasury past"
                " 100,000,000, more gold than any league's books hold",
            )
        ],
    ),
    ("an award may fill it to the bound", lambda: not_past_the_bound(REAVERS, 99_985_000), []),
    (
        "BB2025 sells no wizard from the sideline",
        lambda: sold(BB2025, ITEMS, "wizard"),
        [
            (
                "unknown-item",
                "Blood Bowl 2025, Third Season teams cannot buy 'wizard' (items: apothecary,"
                " assistant_coach, cheerleader, dedicated_fans, reroll)",
            )
        ],
    ),
    (
        "a misspelt item is named with the one meant",
        lambda: sold(BB2025, ITEMS, "rerol"),
        [
            (
                "unknown-item",
                "Blood Bowl 2025, Third Season teams cannot buy 'rerol' (items: apothecary,"
                " assistant_coach, cheerleader, dedicated_fans, reroll); did you mean 'reroll'?",
            )
        ],
    ),
    ("it sells re-rolls", lambda: sold(BB2025, ITEMS, "reroll"), []),
    (
        "Dedicated Fans only while drafting",
        lambda: while_drafting(PLAYED, ITEMS["dedicated_fans"]),
        [("not-allowed", "Dedicated Fans can only be bought while drafting the team")],
    ),
    (
        "Dedicated Fans while drafting",
        lambda: while_drafting(REAVERS, ITEMS["dedicated_fans"]),
        [],
    ),
    (
        "an eighth re-roll fits",
        lambda: item_room(PLAYED, ITEMS["reroll"], held(PLAYED, "reroll", "reroll"), 1),
        [],
    ),
    (
        "a ninth does not",
        lambda: item_room(PLAYED, ITEMS["reroll"], held(PLAYED, "reroll", "reroll"), 2),
        [("staff-limit", "Reavers have 7 x Team Re-roll: 2 more would make 9; at most 8")],
    ),
    (
        "a second Apothecary does not",
        lambda: item_room(PLAYED, ITEMS["apothecary"], held(PLAYED, "apothecary", "staff"), 1),
        [("staff-limit", "Reavers have 1 x Apothecary: 1 more would make 2; at most 1")],
    ),
    (
        "gold4's free re-roll is not for a team with allies (BUYING RE-ROLLS & FAN FACTORS)",
        lambda: GOLD4.problems(Buying(REAVERS, players("ogre", roster="ogre"), "free_reroll", 1)),
        [
            (
                "free-reroll",
                "Reavers have allies (Ogre 1): the free re-roll 'does not apply to mixed race"
                " teams' (BUYING RE-ROLLS & FAN FACTORS)",
            )
        ],
    ),
    (
        "gold4's free re-roll for a single-list team",
        lambda: GOLD4.problems(Buying(REAVERS, players("lineman"), "free_reroll", 1)),
        [],
    ),
    (
        "BB2025: never below 11 players eligible for the next game",
        lambda: BB2025.problems(Firing(REAVERS, players(*["lineman"] * 11), players("lineman")[0])),
        [
            (
                "too-few-players",
                "firing Lineman 1 would leave Reavers with 10 players eligible for the next game"
                " (at least 11)",
            )
        ],
    ),
    (
        "a twelfth player may go",
        lambda: BB2025.problems(Firing(REAVERS, players(*["lineman"] * 12), players("lineman")[0])),
        [],
    ),
    (
        "no more re-rolls let go than the team holds",
        lambda: let_go(PLAYED, "reroll", 7, 8),
        [("invalid-input", "Reavers have 7 x reroll; cannot let 8 go")],
    ),
    (
        "nor none at all",
        lambda: let_go(PLAYED, "reroll", 7, 0),
        [("invalid-input", "Reavers have 7 x reroll; cannot let 0 go")],
    ),
    ("all of them", lambda: let_go(PLAYED, "reroll", 7, 7), []),
    (
        "BB2025 re-rolls stay once drafted",
        lambda: BB2025.problems(Releasing(PLAYED, "reroll")),
        [("rerolls-kept", "BB2025 team re-rolls cannot be removed from the roster once drafted")],
    ),
    ("while drafting they may go", lambda: BB2025.problems(Releasing(REAVERS, "reroll")), []),
    (
        # seed 001 'Hiring, Firing and Temporarily Retiring' step 4 fires Sideline Staff only;
        # 'Update Dedicated Fans' alone changes the fans (never below 1)
        "BB2025 Dedicated Fans stay once drafted",
        lambda: BB2025.problems(Releasing(PLAYED, "dedicated_fans")),
        [
            (
                "fans-kept",
                "BB2025 Dedicated Fans cannot be let go once drafted: they change only with the"
                " post-game roll",
            )
        ],
    ),
    ("staff may go", lambda: BB2025.problems(Releasing(PLAYED, "apothecary")), []),
    # seed 001 'Update Dedicated Fans': "This can never go below 1"; a team starts with 1
    (
        "a drafting team keeps the Dedicated Fan it starts with",
        lambda: BB2025.problems(
            Releasing(REAVERS.model_copy(update={"fans": 1}), "dedicated_fans")
        ),
        [
            (
                "fans-kept",
                "a team keeps the 1 Dedicated Fan it starts with ('never below 1'): Reavers have"
                " 1, so none may go",
            )
        ],
    ),
    (
        "those bought beyond it may go, and no more",
        lambda: BB2025.problems(
            Releasing(REAVERS.model_copy(update={"fans": 3}), "dedicated_fans", 3)
        ),
        [
            (
                "fans-kept",
                "a team keeps the 1 Dedicated Fan it starts with ('never below 1'): Reavers have"
                " 3, so at most 2 may go",
            )
        ],
    ),
    (
        "two of three bought may go",
        lambda: BB2025.problems(
            Releasing(REAVERS.model_copy(update={"fans": 3}), "dedicated_fans", 2)
        ),
        [],
    ),
    (
        "a chosen primary skill costs 6 SPP as a first advancement (BB2025)",
        lambda: BB2025.problems(Advancing(players("lineman")[0], PLAYED, advanced("block"))),
        [("invalid-advancement", "Lineman 1 has 0 SPP; chosen primary costs 6 as advancement 1")],
    ),
    (
        "with 6 SPP he may",
        lambda: BB2025.problems(
            Advancing(
                players("lineman")[0].model_copy(update={"spp": 6}), PLAYED, advanced("block")
            )
        ),
        [],
    ),
    # An advancement gives one thing, in every edition (problems.one_result): seed 001
    # 'Characteristic Improvement Table': a characteristic, "or ... a Primary or Secondary
    # Skill instead"; the skill columns of the Advancement Table improve none; older
    # editions' Star Player Rolls give a skill or a characteristic.
    *(
        (
            f"{name}: {kind} with {given}",
            lambda ruleset=ruleset, kind=kind, given=given: ruleset.problems(
                Advancing(
                    players("lineman")[0].model_copy(update={"spp": 60}),
                    PLAYED,
                    ev.PlayerAdvanced(team="reavers", player="p1", kind=kind, **given),
                )
            ),
            [("invalid-advancement", sentence)],
        )
        for name, ruleset in (("bb2025", BB2025), ("gold4", GOLD4), ("lrb6", LRB6))
        for kind, given, sentence in (
            (
                "chosen_primary",
                {"skill": "Block", "characteristic": "ma"},
                "an advancement gives a skill or a characteristic, not both: leave one out",
            ),
            (
                "characteristic",
                {"skill": "Block", "characteristic": "ma"},
                "an advancement gives a skill or a characteristic, not both: leave one out",
            ),
            (
                "star_roll",
                {"skill": "Block", "characteristic": "st"},
                "an advancement gives a skill or a characteristic, not both: leave one out",
            ),
            (
                "chosen_primary",
                {"characteristic": "ma"},
                "a chosen primary skill improves no characteristic: leave the characteristic out",
            ),
            (
                "random_secondary",
                {"characteristic": "ag"},
                "a random secondary skill improves no characteristic: leave the characteristic out",
            ),
        )
    ),
    # An edition's own rules answer problems with the code of the rule each names, in
    # the order its book gives them.
    (
        "a star under contract is never fired (BB2025, Spike! 2021)",
        lambda: BB2025.problems(Firing(REAVERS, players(*["lineman"] * 12), STAR)),
        [
            (
                "star-contract",
                "Star 1 is under contract for the season and may never be fired"
                " (Spike! 2021 'Signing Star Players')",
            )
        ],
    ),
    (
        "more play-off places than teams, then BB2025's four teams a division",
        lambda: BB2025.problems(SeasonPlan([Division(name="North", teams=("a", "b"))], 4)),
        [
            ("playoff-places", "4 play-off places but only 2 teams"),
            (
                "division-size",
                "division North has 2 teams: BB2025 divisions hold at least four ('Divisions')",
            ),
        ],
    ),
    (
        "an empty division (LRB6 has no least size)",
        lambda: LRB6.problems(
            SeasonPlan(
                [Division(name="North", teams=("a", "b")), Division(name="South", teams=())], 0
            )
        ),
        [("empty-division", "division South has no teams")],
    ),
    (
        "a division of one team, in any edition (its round robin has no game)",
        lambda: LRB6.problems(
            SeasonPlan(
                [Division(name="North", teams=("a", "b")), Division(name="South", teams=("c",))], 0
            )
        ),
        [
            (
                "division-size",
                "division South has one team, who would play no one: a division plays a round"
                " robin",
            )
        ],
    ),
    (
        "a BB2025 casualty roll is a D16",
        lambda: BB2025.problems(casualty(roll("casualty", "D6", 3))),
        [("casualty-dice", "the BB2025 Casualty Table is a D16, not a D6")],
    ),
    (
        "an LRB6 casualty roll is a D68",
        lambda: LRB6.problems(casualty(roll("casualty", "D6", 3))),
        [("casualty-dice", "3 is not a D68 roll")],
    ),
    (
        "BB2025: an advancement due is taken before the post-game closes",
        lambda: BB2025.problems(Closing(REAVERS, [GUTTER])),
        [
            (
                "advancement-due",
                "Gutter_Runner 1 has 14 SPP, enough for a characteristic improvement (14):"
                " he must take an advancement first",
            )
        ],
    ),
]


@pytest.mark.parametrize(("rule", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_rule_returns_its_problem_with_its_code(
    rule: Rule, expected: Sequence[tuple[str, str]]
) -> None:
    assert [(p.code, p.sentence) for p in rule()] == list(expected)


def test_a_problem_carries_the_numbers_a_replay_decides_by() -> None:
    [full] = position_room(REAVERS, players("blitzer", "blitzer"), BLITZER, "human")
    assert (full.error, full.have, full.limit) == (PositionLimitReached, 2, 2)
    [short] = gold_enough(REAVERS, LINEMAN.cost, "a Human Lineman")
    assert (short.error, short.have, short.price) == (InsufficientTreasury, 15_000, 50_000)


def test_a_command_raises_the_first_problem_as_its_error() -> None:
    """The first as the rule lists them, its sentence alone: the others wait for the
    commissioner's next try (a what-if replay turns each into a divergence)."""
    problems = [
        Problem(NotAllowed, "first reason"),
        Problem(InvalidInput, "another kind"),
        Problem(NotAllowed, "second reason"),
    ]
    with pytest.raises(NotAllowed) as raised:
        refuse(problems)
    assert (raised.value.code, raised.value.message) == ("not-allowed", "first reason")
    with pytest.raises(NameTaken, match=r"^only$"):
        refuse([Problem(NameTaken, "only")])
    refuse([])  # no problem, nothing raised
