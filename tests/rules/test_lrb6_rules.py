"""lrb6: the Living Rulebook 6 league rules, written as data: given these events, under
lrb6 (and, where ZAL changes the rule, lrb6-zal beside it), expect these numbers.

Source: the Blood Bowl Living Rulebook 6 (Competition Rules 2010), cited by page as seed
000 cites it: p.17 staff, p.18 the fans and FAME, p.25 the Casualty Table, p.26 SPP and
Star Player Rolls, p.27 the Value Modifiers Table, p.28 winnings, Fan Factor and
spiralling expenses, p.29 conceding, pp.70-71 inducements. Readings: docs/rulesets/lrb6.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from ledger.domain import events as ev
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import Casualty, Concession, DiceRoll, Performance, Purchase, TeamSheet
from ledger.projections.gather import hire_rows, match_rows
from ledger.rules import find_ruleset
from ledger.rules.lrb6 import LRB6
from ledger.rules.lrb6.postgame import fame
from ledger.rules.lrb6.tables import tables
from tests.rules.seam import checked, dice_for, said
from tests.rules.test_lrb6_zal_book import gold_lines
from tests.support import Book, roll

HUMANS = ["blitzer", "blitzer", "thrower", "catcher", *["lineman"] * 7]  # 670,000
ORCS = [*["blitzer"] * 4, *["black_orc_blocker"] * 4, *["lineman"] * 3]  # 790,000
# 1,170,000 of players; 8 re-rolls, Fan Factor 9, an apothecary, 4 cheerleaders: 1,750,000.
RICH_HUMANS = [*["blitzer"] * 4, *["catcher"] * 4, "thrower", "thrower", "ogre", *["lineman"] * 5]
RICH_SIDELINE = {"reroll": 8, "fan_factor": 9, "apothecary": 1, "cheerleader": 4}


class League:
    """An lrb6 (or lrb6-zal) league written by hand: teams drafted at list price with
    their sideline, matches carrying the dice each edition's sequence asks."""

    def __init__(self, ruleset: str = "lrb6") -> None:
        self.book = Book(ruleset)
        self.ruleset = self.book.ruleset
        self.matches = 0
        self.ids: dict[str, list[str]] = {}

    def team(
        self, team_id: str, roster: str, positions: Sequence[str], **sideline: int
    ) -> list[str]:
        items = self.ruleset.sideline_items(self.placeholder(roster))
        bought = tuple(
            Purchase(item=item, count=count, price=items[item].price * count)
            for item, count in sideline.items()
        )
        ids = self.book.team(team_id, roster, positions, treasury=sum(p.price for p in bought))
        if bought:
            self.book.record(ev.SidelinePurchased, team=team_id, purchases=bought)
        self.ids[team_id] = ids
        return ids

    def placeholder(self, roster: str) -> TeamRow:
        return TeamRow(league_id="x", team_id="x", name="x", coach="x", roster=roster)

    def match(
        self,
        home: TeamSheet,
        away: TeamSheet,
        casualties: Sequence[Casualty] = (),
        concession: Concession | None = None,
    ) -> str:
        self.matches += 1
        match_id = f"m{self.matches}"
        fields: dict[str, Any] = {
            "match": match_id,
            "season": 1,
            "home": home,
            "away": away,
            "casualties": tuple(casualties),
            "concession": concession,
        }
        match = ev.MatchRecorded.model_construct(**fields, kind="league", dice=(), others=())
        rows = match_rows(self.book.fold(), self.book.league_id, match, self.ruleset, checking=True)
        problems = said(self.ruleset.check_match(match, rows))
        assert problems == [], problems
        self.book.record(ev.MatchRecorded, **fields)
        return match_id

    def team_row(self, team_id: str) -> TeamRow:
        return self.book.team_row(team_id)

    def player(self, player_id: str) -> PlayerRow:
        return self.book.player_row(player_id)


def side(
    team: str,
    touchdowns: int = 0,
    players: Sequence[Performance] = (),
    *,
    gate: tuple[int, int] = (3, 3),
    winnings: int = 3,
    fan: Sequence[int] | None = (3, 3),
    extra: Sequence[DiceRoll] = (),
) -> TeamSheet:
    """A sheet with the LRB6 dice: the gate's 2D6, the winnings D6, the Fan Factor roll
    (3D6 for a winner: give three values)."""
    dice = [
        roll("gate", "2D6", *gate, subject=team),
        roll("winnings", "D6", winnings, subject=team),
    ]
    if fan is not None:
        dice.append(roll("fan_factor", f"{len(fan)}D6", *fan, subject=team))
    return TeamSheet(team=team, touchdowns=touchdowns, players=tuple(players), dice=(*dice, *extra))


def fan_dice(ours: int, theirs: int) -> tuple[int, ...]:
    """A Fan Factor roll that changes nothing much: 3D6 for a winner, 2D6 otherwise."""
    return (1, 1, 1) if ours > theirs else (3, 3)


def two_teams(ruleset: str = "lrb6", *, home_fans: int = 3, away_fans: int = 1) -> League:
    league = League(ruleset)
    league.team("humans", "human", HUMANS, fan_factor=home_fans)
    league.team("orcs", "orc", ORCS, fan_factor=away_fans)
    return league


# --- p.18 'The Fans': FAME ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ours", "theirs", "expected"),
    [
        (11_000, 5_000, 2),  # 'twice as many or more': +2
        (10_000, 5_000, 2),
        (9_000, 5_000, 1),  # more: +1
        (5_000, 5_000, 0),  # equal or fewer: 0
        (4_000, 5_000, 0),
    ],
)
def test_fame_from_the_fans_of_both_teams(ours: int, theirs: int, expected: int) -> None:
    assert fame(tables(), ours, theirs) == expected


# --- p.28 'Match Winnings' and 'Spiralling Expenses' -------------------------------------------


@pytest.mark.parametrize(
    ("score", "home_gold", "away_gold"),
    [
        # Humans FF 3 roll 4+4: 11,000 fans; Orcs FF 1 roll 2+2: 5,000. FAME +2 and 0.
        ((2, 1), 70_000, 20_000),  # (4 + 2 + 1) and (2 + 0)
        ((1, 1), 70_000, 30_000),  # 'won or tied': both +1
        ((0, 1), 60_000, 30_000),
    ],
)
def test_winnings_are_a_d6_plus_fame_plus_one_for_a_win_or_a_tie(
    score: tuple[int, int], home_gold: int, away_gold: int
) -> None:
    league = two_teams()
    league.match(
        side("humans", score[0], gate=(4, 4), winnings=4, fan=fan_dice(*score)),
        side("orcs", score[1], gate=(2, 2), winnings=2, fan=fan_dice(score[1], score[0])),
    )
    state = league.book.fold()
    assert gold_lines(state, "humans", "winnings") == [home_gold]
    assert gold_lines(state, "orcs", "winnings") == [away_gold]


@pytest.mark.parametrize(
    ("team_value", "expenses"),
    [
        (1_740_000, 0),
        (1_750_000, 10_000),  # 1,750,000 - 1,890,000: 10,000
        (1_890_000, 10_000),
        (1_900_000, 20_000),  # each further 150,000: 10,000 more
        (2_040_000, 20_000),
        (2_050_000, 30_000),
        (2_200_000, 40_000),
    ],
)
def test_spiralling_expenses_by_team_value(team_value: int, expenses: int) -> None:
    assert tables().spiralling_expenses.due(team_value) == expenses


@pytest.mark.parametrize(
    ("ruleset", "d6", "gold"),
    [
        ("lrb6", 4, 60_000),  # TV 1,750,000: (4 + 2 FAME + 1 won) x 10,000 - 10,000
        ("lrb6", 1, 30_000),
        # ZAL 18 'not using spiralling costs': D6 4 + the table's 0 (28,000 fans, TR 175)
        # + 1 for the win
        ("lrb6-zal", 4, 50_000),
    ],
)
def test_a_rich_team_pays_spiralling_expenses_out_of_its_winnings(
    ruleset: str, d6: int, gold: int
) -> None:
    league = League(ruleset)
    league.team("humans", "human", RICH_HUMANS, **RICH_SIDELINE)
    league.team("orcs", "orc", ORCS, fan_factor=1)
    rich = LRB6().team_values(league.team_row("humans"), players(league, "humans"))
    assert rich == {"tv": 1_750_000}
    home = side("humans", 1, gate=(4, 4), winnings=d6, fan=(1, 1, 1))
    away = side("orcs", 0, gate=(1, 1), winnings=1, fan=(3, 3))
    if ruleset == "lrb6-zal":  # ZAL's gate is one D6 per Fan Factor, its Fan Factor roll a D6
        home = zal_sheet(home, [3] * 9, 4)
        away = zal_sheet(away, [1], 1)
    league.match(home, away)
    assert gold_lines(league.book.fold(), "humans", "winnings") == [gold]


def zal_sheet(sheet: TeamSheet, gate: list[int], fan: int) -> TeamSheet:
    team = sheet.team
    d6 = next(r for r in sheet.dice if r.purpose == "winnings")
    dice = (
        roll("gate", f"{len(gate)}D6" if len(gate) > 1 else "D6", *gate, subject=team),
        d6,
        roll("fan_factor", "D6", fan, subject=team),
    )
    return sheet.model_copy(update={"dice": dice})


def players(league: League, team: str) -> list[PlayerRow]:
    state = league.book.fold()
    return list(state.select(PlayerRow, league_id=league.book.league_id, team_id=team))


# --- p.28 'Fan Factor' ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "fan", "change"),
    [
        ((1, 0), (3, 3, 3), 1),  # won: 3D6 9 beats Fan Factor 3
        ((1, 0), (1, 1, 1), 0),  # won: 3 does not beat 3
        ((1, 1), (5, 5), 1),  # tied: 2D6 10 beats 3
        ((1, 1), (1, 1), -1),  # tied: 2 is below 3
        ((1, 1), (2, 1), 0),
        ((0, 1), (1, 1), -1),  # lost: 2 is below 3
        ((0, 1), (6, 6), 0),  # a loser never gains
    ],
)
def test_fan_factor_roll(score: tuple[int, int], fan: tuple[int, ...], change: int) -> None:
    league = two_teams()
    away_fan = (3, 3, 3) if score[1] > score[0] else (3, 3)
    league.match(side("humans", score[0], fan=fan), side("orcs", score[1], fan=away_fan))
    assert league.team_row("humans").fans == 3 + change


def test_the_fan_factor_roll_asks_3d6_of_a_winner_and_2d6_of_the_others() -> None:
    league = two_teams()
    draft = ev.MatchRecorded.model_construct(
        match="d",
        kind="league",
        home=side("humans", 2),
        away=side("orcs", 1),
        casualties=(),
        concession=None,
        dice=(),
        others=(),
    )
    needs = dice_for(league.ruleset, league.book.fold(), league.book.league_id, draft)
    fan_dice = {n.subject: n.dice for n in needs if n.purpose == "fan_factor"}
    assert fan_dice == {"humans": "3D6", "orcs": "2D6"}


# --- p.29 'Conceding' ----------------------------------------------------------------------------


def test_a_conceding_team_hands_its_winnings_over_and_loses_a_fan_factor() -> None:
    league = two_teams()
    league.match(
        side("humans", 1, gate=(4, 4), winnings=4, fan=None),
        side("orcs", 0, gate=(2, 2), winnings=2, fan=(1, 1, 1)),
        concession=Concession(team="humans", kind="conceded"),
    )
    state = league.book.fold()
    assert gold_lines(state, "humans", "winnings") == []
    # the Orcs won: (2 + 0 + 1) = 30,000, and the Humans' (4 + 2 + 0) = 60,000
    assert sorted(gold_lines(state, "orcs", "winnings")) == [30_000, 60_000]
    assert league.team_row("humans").fans == 2  # -1, no roll


@pytest.mark.parametrize(
    ("ruleset", "kind", "refused"),
    [
        ("lrb6", "conceded", False),
        ("lrb6", "without_penalty", False),
        ("lrb6", "forfeit_voluntary", True),  # ZAL 9's kinds are ZAL's
        ("lrb6-zal", "forfeit_voluntary", False),
        ("lrb6-zal", "conceded", True),
    ],
)
def test_which_concessions_each_edition_takes(ruleset: str, kind: str, refused: bool) -> None:
    league = two_teams(ruleset)
    draft = ev.MatchRecorded.model_construct(
        match="d",
        kind="league",
        home=side("humans", 0),
        away=side("orcs", 3),
        casualties=(),
        concession=Concession.model_validate({"team": "humans", "kind": kind}),
        dice=(),
        others=(),
    )
    problems = checked(league.ruleset, league.book.fold(), league.book.league_id, draft)
    assert any("conce" in p or "forfeit" in p for p in problems) == refused


# --- p.26 SPP ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "cause", "spp"),
    [
        ("lrb6", "block", 2),
        ("lrb6", "foul", 0),  # p.26: casualties from blocks only
        ("lrb6-zal", "foul", 2),  # ZAL 16b: 'or committed a foul'
        ("lrb6", "crowd", 0),
    ],
)
def test_casualty_spp_by_cause(ruleset: str, cause: str, spp: int) -> None:
    league = two_teams(ruleset)
    ours, theirs = league.ids["humans"], league.ids["orcs"]
    hurt = Casualty.model_validate(
        {"victim": theirs[0], "inflicted_by": ours[0], "cause": cause, "outcome": "badly_hurt"}
    )
    home, away = side("humans", 0, [Performance(player=ours[0])]), side("orcs", 0)
    if ruleset == "lrb6-zal":
        home, away = zal_sheet(home, [3] * 3, 3), zal_sheet(away, [3], 3)
    league.match(home, away, casualties=[hurt])
    assert league.player(ours[0]).spp_earned == spp


# --- p.26 Star Player Rolls, p.27 VALUE MODIFIERS TABLE -----------------------------------------


def star_roll(league: League, player: str, dice: tuple[int, int], **choice: Any) -> list[str]:
    fields: dict[str, Any] = {
        "team": league.player(player).team_id,
        "player": player,
        "kind": "star_roll",
        "dice": (roll("star_roll", "2D6", *dice),),
        "skill": None,
        "characteristic": None,
        **choice,
    }
    row = league.player(player)
    event = ev.PlayerAdvanced.model_construct(**fields)
    problems = said(league.ruleset.check_advancement(row, league.team_row(row.team_id), event))
    if not problems:
        league.book.record(ev.PlayerAdvanced, **fields)
    return problems


@pytest.mark.parametrize(
    ("dice", "choice", "value_after"),
    [
        ((2, 5), {"skill": "Block"}, 70_000),  # a Normal (G) skill: +20,000
        ((3, 3), {"skill": "Dodge"}, 80_000),  # a double opens Double access (A): +30,000
        ((2, 5), {"skill": "Dodge"}, None),  # not on a normal roll
        ((3, 3), {"skill": "Claws"}, None),  # no Mutation access, even on a double
        ((4, 6), {"characteristic": "ma"}, 80_000),  # 10: +MA +30,000
        ((4, 6), {"characteristic": "av"}, 80_000),  # 10: +AV +30,000
        ((5, 6), {"characteristic": "ag"}, 90_000),  # 11: +AG +40,000
        ((6, 6), {"characteristic": "st"}, 100_000),  # 12: +ST +50,000
        ((4, 5), {"characteristic": "ma"}, None),  # 9: a skill only
    ],
)
def test_a_star_player_roll_and_the_value_it_adds(
    dice: tuple[int, int], choice: dict[str, Any], value_after: int | None
) -> None:
    league = two_teams()
    lineman = league.ids["humans"][4]
    scorer = Performance(player=lineman, touchdowns=2)  # 6 SPP: Experienced
    league.match(side("humans", 2, [scorer], fan=(1, 1, 1)), side("orcs", 0))
    problems = star_roll(league, lineman, dice, **choice)
    if value_after is None:
        assert problems
        return
    assert problems == []
    assert league.player(lineman).value == value_after


def test_no_roll_before_six_spp() -> None:
    league = two_teams()
    lineman = league.ids["humans"][4]
    refused = star_roll(league, lineman, (2, 5), skill="Block")[0]
    assert "has taken 0 Star Player Rolls: none is due" in refused


# --- p.17 staff; pp.70-71 inducements -----------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "roster", "item", "price"),
    [
        ("lrb6", "human", "apothecary", 50_000),
        ("lrb6", "human", "wizard", None),  # a wizard is an inducement in LRB6 ...
        ("lrb6-zal", "human", "wizard", 150_000),  # ... and staff in ZAL (3e)
        ("lrb6", "undead", "apothecary", None),
        ("lrb6", "human", "fan_factor", 10_000),
    ],
)
def test_sideline_prices(ruleset: str, roster: str, item: str, price: int | None) -> None:
    chosen = find_ruleset(ruleset)
    team = TeamRow(league_id="x", team_id="x", name="x", coach="x", roster=roster)
    found = chosen.sideline_items(team).get(item)
    assert (found.price if found else None) == price


@pytest.mark.parametrize(
    ("roster", "item", "price"),
    [
        ("human", "bribes", 100_000),
        ("goblin", "bribes", 50_000),
        ("human", "halfling_master_chef", 300_000),
        ("halfling", "halfling_master_chef", 100_000),
        ("human", "wandering_apothecaries", 100_000),
        ("human", "igor", None),  # Igor only for teams without an apothecary
        ("undead", "igor", 100_000),
        ("undead", "wandering_apothecaries", None),
        ("human", "wizard", 150_000),
        ("human", "bloodweiser_babes", 50_000),
        ("human", "extra_team_training", 100_000),
    ],
)
def test_inducement_prices(roster: str, item: str, price: int | None) -> None:
    team = TeamRow(league_id="x", team_id="x", name="x", coach="x", roster=roster)
    found = LRB6().inducement_offer(team).get(item)
    assert (found.price if found else None) == price


@pytest.mark.parametrize(
    ("value", "other", "other_spent", "petty_cash"),
    [
        (1_000_000, 1_150_000, 0, 150_000),
        (1_000_000, 1_150_000, 50_000, 200_000),  # the other side's treasury gold counts too
        (1_150_000, 1_000_000, 0, 0),
        (1_000_000, 1_000_000, 0, 0),
    ],
)
def test_inducement_money_is_the_difference_in_team_value(
    value: int, other: int, other_spent: int, petty_cash: int
) -> None:
    assert LRB6().inducement_budget(value, other, other_spent, 30_000).petty_cash == petty_cash


def test_an_injured_player_leaves_the_value_for_inducements_and_a_journeyman_fills_in() -> None:
    league = two_teams()
    ours = league.ids["humans"]
    hurt = Casualty.model_validate(
        {
            "victim": ours[0],
            "inflicted_by": None,
            "cause": "crowd",
            "outcome": "broken_ribs",
            "effects": ["miss_next_game"],
        }
    )
    league.match(side("humans", 0, fan=(2, 1)), side("orcs", 0), casualties=[hurt])
    team, roster = league.team_row("humans"), players(league, "humans")
    # 670,000 of players + Fan Factor 3; the Blitzer (90,000) misses the match and a
    # journeyman Lineman (50,000) makes the team up to 11.
    assert league.ruleset.team_values(team, roster)["tv"] == 700_000
    assert league.ruleset.game_value(team, roster) == 700_000 - 90_000 + 50_000


# --- p.25 the Casualty Table, shared with lrb6-zal -----------------------------------------------


@pytest.mark.parametrize("ruleset", ["lrb6", "lrb6-zal"])
@pytest.mark.parametrize(
    ("d68", "outcome"),
    [((1, 8), "badly_hurt"), ((4, 7), "smashed_hand"), ((5, 7), "broken_neck"), ((6, 1), "dead")],
)
def test_the_casualty_table_is_lrb6s_in_both(
    ruleset: str, d68: tuple[int, int], outcome: str
) -> None:
    rolls = [roll("casualty_d6", "D6", d68[0]), roll("casualty_d8", "D8", d68[1])]
    assert find_ruleset(ruleset).casualty_from_report(None, (), rolls)[0] == outcome


# --- pp.70-71 Star Players: one game at a time ------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "refusal"),
    [
        ("lrb6", "induced for one game"),  # LRB6: only as inducements
        ("lrb6-zal", "second match onwards"),  # ZAL 3f: hired for good, from the second match
    ],
)
def test_hiring_a_star_player_for_good(ruleset: str, refusal: str) -> None:
    league = two_teams(ruleset)
    hired = ev.PlayerHired.model_construct(
        team="humans",
        player="s1",
        name="Griff",
        position="griff_oberwald",
        kind="star",
        star="griff_oberwald",
        price=320_000,
    )
    state = league.book.fold()
    team, squad = league.team_row("humans"), players(league, "humans")
    rows = hire_rows(state, league.book.league_id, team, hired, squad, checking=league.ruleset)
    problems = said(league.ruleset.check_hire(hired, rows))
    assert any(refusal in p for p in problems), problems
