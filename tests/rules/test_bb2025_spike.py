"""Spike! Almanac 2021 options of ``bb2025`` (seed 003), as data."""

from __future__ import annotations

import pytest

from ledger.application.commands import (
    BuyInducements,
    ClosePostGame,
    CloseSeason,
    FirePlayer,
    OrderStarDraft,
    RecordMatch,
    SchedulePlayoffs,
    ScheduleSeason,
    SignStar,
    StartSeason,
)
from ledger.application.inducements import inducement_terms
from ledger.application.service import LeagueLedger
from ledger.domain import events as ev
from ledger.domain.state import MatchRow, PlayerRow, TeamRow
from ledger.domain.values import Casualty, Division, Hireling, Performance, TeamSheet
from ledger.errors import NotAllowed, StarContracted
from ledger.rules.bb2025 import postgame
from ledger.rules.bb2025.contracts import draft_order
from ledger.rules.bb2025.ruleset import BB2025
from tests.rules.seam import checked
from tests.support import (
    Book,
    create_league,
    draft_team,
    event_count,
    final_of_many,
    report,
    roll,
    sheet,
)


def test_the_draft_order_of_a_later_season_the_worked_example() -> None:
    """'Subsequent Seasons': new coaches first as drawn, then from the bottom up."""
    last = ["Jay", "Gavin", "Shane", "Xavier", "Keith", "James", "Louise", "Steve", "Dan", "Rob"]
    assert draft_order(["Sam", "Nic", "Luke"], last) == [
        "Sam",
        "Nic",
        "Luke",
        "Rob",
        "Dan",
        "Steve",
        "Louise",
        "James",
        "Keith",
        "Xavier",
        "Shane",
        "Gavin",
        "Jay",
    ]


def contracted_book() -> tuple[Book, list[str], list[str]]:
    book = Book(options={"star_player_contracts": True})
    jay = book.team("jay", "human", ["lineman"] * 11)
    dan = book.team("dan", "skaven", ["clanrat"] * 11)
    book.record(ev.SeasonStarted, season=1, divisions=(Division(name="", teams=("jay", "dan")),))
    book.record(ev.StarSigned, season=1, team="jay", star="morg_n_thorg", player="morg")
    return book, jay, dan


def test_a_signed_star_is_free_and_counts_in_tv() -> None:
    """'Team Value': "they will still contribute to a team's Team Value"."""
    book, _, _ = contracted_book()
    state = book.fold()
    morg = book.player_row("morg", state)
    assert (morg.kind, morg.value, book.team_row("jay", state).treasury) == ("star", 340_000, 0)
    assert book.team_row("jay", state).values["tv"] == 11 * 50_000 + 340_000


def test_a_star_earns_no_spp_and_shrugs_off_serious_injuries() -> None:
    """'Injuries' and 'Star Player Points' of the contract rules."""
    book, _jay, dan = contracted_book()
    book.record(
        ev.MatchRecorded,
        match="g1",
        season=1,
        home=sheet(
            "jay",
            2,
            players=[Performance(player="morg", touchdowns=2)],
            dice=[
                roll("fan_factor", "D3", 1, subject="jay"),
                roll("dedicated_fans", "D6", 1, subject="jay"),
            ],
        ),
        away=sheet(
            "dan",
            0,
            players=[Performance(player=dan[0])],
            dice=[
                roll("fan_factor", "D3", 1, subject="dan"),
                roll("dedicated_fans", "D6", 6, subject="dan"),
            ],
        ),
        casualties=(
            Casualty(
                victim="morg", inflicted_by=dan[0], cause="block", outcome="dead", effects=("dead",)
            ),
        ),
    )
    state = book.fold()
    morg = book.player_row("morg", state)
    assert (morg.spp, morg.status, morg.miss_next_game) == (0, "active", True)
    assert book.player_row(dan[0], state).spp == 2  # the casualty still earns its SPP


def test_contracts_expire_at_the_end_of_the_season_and_a_familiar_face_loses_loner() -> None:
    book, _, _ = contracted_book()
    book.record(ev.SeasonClosed, season=1)
    assert book.player_row("morg").status == "left"
    book.record(ev.SeasonStarted, season=2, divisions=(Division(name="", teams=("jay", "dan")),))
    book.record(ev.StarSigned, season=2, team="jay", star="morg_n_thorg", player="morg2")
    again = book.player_row("morg2")
    assert not any(s.startswith("Loner") for s in again.skills)
    assert any(s.startswith("Loner") for s in book.player_row("morg").skills)


def drafted_league(ledger: LeagueLedger, order: list[str]) -> str:
    """A contracts league of four teams in a started season, its star draft ordered as
    ``order`` (the hat draw of a first season: every team)."""
    create_league(ledger, options={"star_player_contracts": True})
    teams = {"jay": "human", "dan": "skaven", "rob": "orc", "ann": "dwarf"}
    for team, roster in teams.items():
        draft_team(
            ledger, "test", team, roster, ["lineman" if roster != "skaven" else "clanrat"] * 11
        )
    ledger.handle(StartSeason("test", [Division(name="", teams=tuple(teams))]), by="t")
    drafted = ledger.handle(OrderStarDraft("test", drawn=order), by="t")
    assert drafted == order
    return ledger.league_row("test").league_id


def test_signing_in_draw_order_through_the_ledger(sqlite_ledger: LeagueLedger) -> None:
    ledger = sqlite_ledger
    drafted_league(ledger, ["rob", "jay", "ann", "dan"])
    with pytest.raises(NotAllowed, match="Rob's turn"):
        ledger.handle(SignStar("test", "jay", "griff_oberwald"), by="t")
    ledger.handle(SignStar("test", "rob", "morg_n_thorg"), by="t")
    with pytest.raises(NotAllowed, match="Morg 'n' Thorg is signed to Rob this season"):
        ledger.handle(SignStar("test", "jay", "morg_n_thorg"), by="t")
    ledger.handle(SignStar("test", "jay", "griff_oberwald"), by="t")
    league_id = ledger.league_row("test").league_id
    griff = next(
        p
        for p in ledger.view().select(PlayerRow, league_id=league_id, team_id="jay")
        if p.kind == "star"
    )
    with pytest.raises(StarContracted, match="may never be fired"):
        ledger.handle(FirePlayer("test", "jay", griff.player_id), by="t")
    team = ledger.view().get(TeamRow, league_id, "jay")
    assert team is not None
    assert team.treasury == 1_000_000 - 11 * 50_000


def stars_of(ledger: LeagueLedger, league_id: str, team: str) -> dict[str, PlayerRow]:
    found = ledger.view().select(PlayerRow, league_id=league_id, team_id=team)
    return {p.position: p for p in found if p.kind == "star"}


def test_a_pair_is_signed_together(sqlite_ledger: LeagueLedger) -> None:
    """Grak & Crumbleberry are one inducement (seed 001, the Star Players' list prints
    Crumbleberry at 0 beside Grak): signed, both join, at Grak's 250,000; the partner is
    never signed alone, nor by another team once his partner is."""
    ledger = sqlite_ledger
    league_id = drafted_league(ledger, ["jay", "dan", "rob", "ann"])
    with pytest.raises(NotAllowed, match="Crumbleberry comes with Grak: sign Grak and both join"):
        ledger.handle(SignStar("test", "jay", "crumbleberry"), by="t")
    ledger.handle(SignStar("test", "jay", "grak"), by="t")
    pair = stars_of(ledger, league_id, "jay")
    assert sorted(pair) == ["crumbleberry", "grak"]
    assert (pair["grak"].value, pair["crumbleberry"].value) == (250_000, 0)
    assert len({pair["grak"].player_id, pair["crumbleberry"].player_id}) == 2
    with pytest.raises(NotAllowed, match="Crumbleberry comes with Grak"):
        ledger.handle(SignStar("test", "dan", "crumbleberry"), by="t")
    ledger.handle(SignStar("test", "dan", "morg_n_thorg"), by="t")  # the next id is free
    assert list(stars_of(ledger, league_id, "dan")) == ["morg_n_thorg"]


def test_a_signed_star_is_induced_by_no_team(sqlite_ledger: LeagueLedger) -> None:
    """Seed 003 'Signing Star Players': "once they have signed for a team they can only
    play for that team during the course of the season"; 'Unsigned Star Players' "are still
    eligible to be hired by any team as Inducements": a signed one (or half of a signed
    pair) is not offered, and asking for him is refused, nothing written."""
    ledger = sqlite_ledger
    league_id = drafted_league(ledger, ["dan", "jay", "rob", "ann"])
    ledger.handle(SignStar("test", "dan", "grak"), by="t")
    ledger.handle(ScheduleSeason("test"), by="t")
    fixture = next(
        m
        for m in ledger.view().select(MatchRow, league_id=league_id)
        if {m.home, m.away} == {"jay", "dan"}
    )
    ledger.handle(BuyInducements("test", fixture.match_id, "dan", {}), by="t")  # CTV higher
    terms = inducement_terms(ledger.context("test"), fixture.match_id, "jay")
    assert "grak" not in terms.offer
    assert "crumbleberry" not in terms.offer
    assert "helmut_wulf" in terms.offer  # unsigned: induced as usual
    before = event_count(ledger)
    with pytest.raises(NotAllowed, match="cannot induce Grak: he is under contract to Dan"):
        ledger.handle(BuyInducements("test", fixture.match_id, "jay", {"grak": 1}), by="t")
    assert event_count(ledger) == before


def test_an_all_star_game_changes_nothing(sqlite_ledger: LeagueLedger) -> None:
    """'All-Star Games': an exhibition: no post-game sequence at all."""
    ledger = sqlite_ledger
    create_league(ledger)
    draft_team(ledger, "test", "jay", "human", ["lineman"] * 11)
    draft_team(ledger, "test", "dan", "skaven", ["clanrat"] * 11)
    before = [
        t.model_dump()
        for t in ledger.view().select(TeamRow, league_id=ledger.league_row("test").league_id)
    ]
    ledger.handle(
        RecordMatch(
            "test",
            report(
                {
                    "match": "all-stars",
                    "kind": "exhibition",
                    "home": {
                        "team": "jay",
                        "touchdowns": 3,
                        "hirelings": [
                            {
                                "id": "s1",
                                "name": "Griff Oberwald",
                                "kind": "star",
                                "star": "griff_oberwald",
                            }
                        ],
                        "players": [{"player": "s1", "td": 3}],
                    },
                    "away": {"team": "dan", "touchdowns": 1},
                }
            ),
        ),
        by="t",
    )
    after = [
        t.model_dump()
        for t in ledger.view().select(TeamRow, league_id=ledger.league_row("test").league_id)
    ]
    for old, new in zip(before, after, strict=True):
        assert {k: v for k, v in old.items() if k not in ("games", "drafting")} == {
            k: v for k, v in new.items() if k not in ("games", "drafting")
        }


def test_a_dungeon_bowl_final_names_one_winner_among_three(sqlite_ledger: LeagueLedger) -> None:
    """'Multi-player Dungeon Bowl' as the league final: the qualifiers meet in one match,
    the report names the winner, and he alone takes the 100,000 first prize and the Trophy
    ('Glittering Prizes'); no second or third place is played for."""
    ledger = sqlite_ledger
    create_league(ledger)
    teams = ["jay", "dan", "rob", "sam"]
    for team in teams:
        draft_team(ledger, "test", team, "human", ["lineman"] * 11)
    ledger.handle(
        StartSeason("test", [Division(name="", teams=tuple(teams))], playoff_teams=3), by="t"
    )
    ledger.handle(ScheduleSeason("test"), by="t")
    league_id = ledger.league_row("test").league_id

    def team_row(team: str) -> TeamRow:
        row = ledger.view().get(TeamRow, league_id, team)
        assert row is not None
        return row

    for match in ledger.view().select(MatchRow, league_id=league_id, season=1):
        played = report({"match": match.match_id, "home": {"team": match.home, "touchdowns": 1},
                         "away": {"team": match.away, "touchdowns": 0}})  # fmt: skip
        ledger.handle(RecordMatch("test", played, roll_missing=True), by="t")
        for team in (match.home, match.away):
            ledger.handle(ClosePostGame("test", match.match_id, team, roll_missing=True), by="t")
    assert ledger.handle(SchedulePlayoffs("test", dungeon_bowl=True), by="t") == 1
    final = ledger.view().get(MatchRow, league_id, "s1-dungeon-bowl-final")
    assert final is not None
    assert final.stage == "final"
    home, away, other = (final.home, final.away, *final.others)
    played = report({"match": final.match_id, "kind": "playoff", "winner": other,
                     "home": {"team": home}, "away": {"team": away},
                     "others": [{"team": other}]})  # fmt: skip
    ledger.handle(RecordMatch("test", played, roll_missing=True), by="t")
    # Every team of the game goes through 'Record Outcome and Collect Winnings': the Fan
    # Attendance is all three teams' Fan Factors (docs/rulesets.md, 'A Dungeon Bowl final')
    recorded = ledger.view().get(MatchRow, league_id, final.match_id)
    assert recorded is not None
    assert sorted(recorded.winnings) == sorted((home, away, other))
    for team in (home, away, other):
        ledger.handle(ClosePostGame("test", final.match_id, team, roll_missing=True), by="t")
    before = {t: team_row(t).treasury for t in teams}
    ledger.handle(CloseSeason("test"), by="t")
    gained = {t: team_row(t).treasury - before[t] for t in teams}
    assert gained == {t: 100_000 if t == other else 0 for t in teams}
    assert team_row(other).trophy


def star(star_id: str, hireling: str | None = None) -> dict[str, str]:
    return {"id": hireling or star_id, "name": star_id, "kind": "star", "star": star_id}


ALL_STARS = ["morg_n_thorg", "griff_oberwald", "deeproot_strongbranch", "akhorne_the_squirrel"]


@pytest.mark.parametrize(
    ("home", "away", "players", "refusal"),
    [
        ([*ALL_STARS[:2], "grak", "crumbleberry"], ALL_STARS[2:], [], None),
        ([f"s{i}" for i in range(17)], [], [], "at most 16"),
        (["grak"], ["crumbleberry"], [], "come as a pair"),
        (["griff_oberwald"], ["griff_oberwald"], [], "cannot play for both sides"),
        (["griff_oberwald"], [], ["jay 1"], "'jay 1' is not one of the side's Star Players"),
        (["no_such_star"], [], [], "no star player 'no_such_star'"),
    ],
)
def test_all_star_rosters_follow_the_draft_rules(
    home: list[str], away: list[str], players: list[str], refusal: str | None
) -> None:
    """'All-Star Rosters': at most 16 Star Players a side, each on one side only, pairs
    together, and no one from the coaches' own rosters."""
    book = Book()
    view = book.fold()
    side = {f"s{i}": "griff_oberwald" for i in range(17)}
    match = book.record(
        ev.MatchRecorded,
        match="all-stars",
        kind="exhibition",
        home=TeamSheet(
            team="jay",
            touchdowns=0,
            players=tuple(Performance(player=p) for p in players),
            hirelings=tuple(Hireling(**star(side.get(s, s), s)) for s in home),
        ),
        away=TeamSheet(
            team="dan", touchdowns=0, hirelings=tuple(Hireling(**star(s)) for s in away)
        ),
    )
    assert isinstance(match, ev.MatchRecorded)
    problems = checked(BB2025(), view, book.league_id, match)
    if refusal is None:
        assert problems == []
    else:
        assert any(refusal in p for p in problems), problems


def referee_problems(referee: str | None) -> list[str]:
    book = Book(options={"referees": True})
    view = book.fold()
    match = book.record(
        ev.MatchRecorded, match="g1", referee=referee, home=sheet("jay"), away=sheet("dan")
    )
    assert isinstance(match, ev.MatchRecorded)
    return checked(book.ruleset, view, book.league_id, match)


@pytest.mark.parametrize("referee", ["generic", "Elnos Lawkeeper", "redkur_forgebeard", None])
def test_the_referees_of_red_cards_and_rulekeepers(referee: str | None) -> None:
    """'Referee Rules': a generic Referee, Redkur Forgebeard or Elnos Lawkeeper."""
    assert referee_problems(referee) == []


def test_an_unknown_referee_is_refused_by_name() -> None:
    assert referee_problems("Ref Bob") == [
        "the referee is one of generic, Elnos Lawkeeper, Redkur Forgebeard, not 'Ref Bob'"
    ]


@pytest.mark.parametrize(
    ("team", "touchdowns", "outcome"),
    [("orcs", 0, "win"), ("men", 2, "loss"), ("rats", 1, "loss")],
)
def test_a_dungeon_bowl_final_is_won_by_its_winner_not_its_score(
    team: str, touchdowns: int, outcome: str
) -> None:
    """Seed 003 'Winning the Game': the team that scores the game-winning touchdown wins
    a multi-player Dungeon Bowl game, whatever the touchdowns of the others; in the
    post-game sequence ('Update Dedicated Fans') every other team lost it."""
    final = ev.MatchRecorded(**final_of_many("orcs", men=2, rats=1, orcs=0))
    sheet = next(s for s in final.sheets() if s.team == team)
    assert sheet.touchdowns == touchdowns
    assert postgame.result(final, sheet) == outcome
