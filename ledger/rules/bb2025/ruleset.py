"""Blood Bowl 2025 (Third Season Edition), ruleset id ``bb2025``.

The seed's League Play chapter is the 2025 rulebook's (ledger/rules/bb2025/data/README.md);
this ruleset was registered as ``bb2020`` until the rename, and ledgers recorded then are
read as ``bb2025`` (``LeagueCreated.upcast_v1_v2``).

Source: shared/seeds/001_df046463b98a88b8.txt, the League Play chapter (sections cited
on each rule), with the Spike! Almanac 2021 options of shared/seeds/003 as named
options. Team lists, sideline staff prices and the casualty tables come from the core
rulebook and are marked as such in data/. Readings of ambiguous rules: docs/rulesets.md.

Worked example ('Record Outcome and Collect Winnings'): Jay's Fan Factor 4 and Dan's 3
give a Fan Attendance of 7; Jay scored 2 and did not stall: (7 / 2 + 2 + 1) x 10,000 =
65,000 gold pieces.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cache, cached_property
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, StrictBool

from ledger.domain.events import (
    AdvancementKind,
    MatchRecorded,
    PlayerAdvanced,
    PlayerHired,
    PostGameClosed,
    SeasonClosed,
    TeamRedrafted,
)
from ledger.domain.state import ON_ROSTER, MatchRow, PlayerRow, TeamRow
from ledger.domain.values import Casualty, DiceRoll, Division, Effect, PointsScheme, TeamSheet
from ledger.errors import (
    AdvancementDue,
    CasualtyDice,
    ConcessionRefused,
    DieWanted,
    DivisionSize,
    FansKept,
    HirelingRefused,
    InvalidAdvancement,
    InvalidInput,
    MvpRefused,
    RefereeRefused,
    RerollsKept,
    StarContracted,
    StarRefused,
    TooFewPlayers,
)
from ledger.rules.base import BaseRuleset, checked_effects, eligible
from ledger.rules.bb2025 import (
    advancement,
    contracts,
    exhibitions,
    postgame,
    pregame,
    redraft,
    season,
    stars,
)
from ledger.rules.bb2025.tables import Tables, band, tables
from ledger.rules.dice import DiceBox
from ledger.rules.effects import Effects, Spp
from ledger.rules.problems import Problem, found
from ledger.rules.protocol import (
    AdvancementResult,
    Budget,
    DiceNeed,
    Feature,
    SidelineItem,
    ValueReads,
)
from ledger.rules.rows import HireRows, MatchRows, RedraftRows, SeasonRows
from ledger.rules.schema import Position, TeamList
from ledger.words import plural


class BB2025Options(BaseModel):
    """Named options of a BB2025 league (and of a BB2020 one: the Spike! Almanac 2021
    options apply to both), recorded in its creation event. A yes-or-no option takes
    ``true`` or ``false`` only: "yes" or 1 is refused, not read as true."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    bonus_points: Literal["none", "added", "tiebreak"] = "none"
    """'League Scoring': the optional bonus points (3+ TDs, no TDs conceded, 3+ SPP
    casualties), added to the total or used as the first tie-breaker."""
    redraft_cap: StrictBool = True
    """'Raise Funds': the recommended 1,300,000 cap on a re-draft budget."""
    star_player_contracts: StrictBool = False
    """Spike! Almanac 2021 'Long Term Contracts': each team signs one Star Player a
    season, for free, in the star draft order; he counts in TV and earns no SPP."""
    referees: StrictBool = False
    """Spike! Almanac 2021 'Red Cards & Rulekeepers': reports name the match's referee
    (generic, Elnos Lawkeeper, Redkur Forgebeard); their rules are played at the table."""


class BB2025(BaseRuleset[BB2025Options]):
    id = "bb2025"
    name = "Blood Bowl 2025, Third Season"
    hireling_spp_source = (
        "Blood Bowl 2025 League Play, 'Hiring, Firing and Temporarily Retiring', step 5"
    )
    book: ClassVar[str] = "BB2025"
    """How a refusal names the edition whose rule it is (a variant names its own)."""
    game_value_label = "CTV"
    source = "Blood Bowl 2025 rulebook, League Play chapter; Spike! Almanac 2021 (options)"
    """The books, as ``ledger rulesets`` names them (the module docstrings cite the seed
    files: seed 001 and seed 003)."""
    aliases = ("bb25", "blood-bowl-2025", "2025")
    data_dir = Path(__file__).parent / "data"
    value_labels = {"tv": "TV", "ctv": "CTV"}
    rating_key = "tv"
    casualty_dice = {"casualty": "D16", "lasting_injury": "D6"}
    advancement_dice = {"characteristic": "D8"}
    star_roll_sets: ClassVar[tuple[tuple[str, ...], ...]] = ()
    journeyman_lines: ClassVar[tuple[int, ...]] = (16,)
    """The QTYs of the Lineman lines Journeymen are taken from ('Take on Journeymen')."""
    spends_spp: ClassVar[bool] = True
    advancement_kinds: ClassVar[tuple[AdvancementKind, ...]] = (
        "random_primary",
        "chosen_primary",
        "chosen_secondary",
        "characteristic",
    )
    advancement_reads: ClassVar[Mapping[str, Mapping[str, int | None]]] = {
        "random_primary": {"random_skill": None},
        "chosen_primary": {},
        "chosen_secondary": {},
        "characteristic": {"characteristic": 1},
    }
    features = frozenset(
        {Feature.INDUCEMENTS, Feature.REDRAFT, Feature.STAR_CONTRACTS, Feature.TEMPORARY_RETIREMENT}
    )
    characteristic_targets = True
    post_game_closes = True
    example_option_sets: ClassVar[tuple[dict[str, Any], ...]] = (
        {},
        {"bonus_points": "added"},
        {"bonus_points": "tiebreak", "redraft_cap": False},
        {"star_player_contracts": True, "referees": True},
    )
    """Option sets the contract suite (tests/rules/test_contract.py) runs a league under."""

    @classmethod
    def tables(cls) -> Tables:
        """The edition's league tables; a variant (bb2020) reads its own file."""
        return tables()

    def spp_table(self) -> Mapping[str, int]:
        return self.tables().spp

    # --- team building -------------------------------------------------------------------

    def starting_treasury(self) -> int:
        return self.tables().starting_treasury

    def starting_fans(self) -> int:
        return self.tables().dedicated_fans.start

    def sideline_offer(self, roster: str) -> Mapping[str, SidelineItem]:
        return sideline_of(self.tables, self.catalogue.team_list(roster))

    def check_hire(self, event: PlayerHired, rows: HireRows) -> list[Problem]:
        """'Hire any new players to your Team Draft List' (Hiring, Firing and Temporarily
        Retiring, step 2) hires from the team's own list: a Star Player plays one game as
        an inducement (bought before the game, fielded in the report: ``stars.py``), or
        joins for seasons only through the Spike! contracts' star draft (``StarSigned``,
        seed 003), never through a hire."""
        if event.kind != "star":
            return []
        sentence = (
            f"{self.book} Star Players are induced for one game (a match's inducements)"
            " or signed at the star draft, never hired"
        )
        return [Problem(StarRefused, sentence)]

    def check_fire(
        self, team: TeamRow, players: Sequence[PlayerRow], player: PlayerRow
    ) -> list[Problem]:
        """'Players may not be fired if it would take the number of players eligible for
        the next game below 11' (Hiring, Firing and Temporarily Retiring)."""
        if player.kind == "star":
            sentence = (
                f"{player.name} is under contract for the season and may never be fired"
                " (Spike! 2021 'Signing Star Players')"
            )
            return [Problem(StarContracted, sentence)]
        fit = eligible(players)
        if player in fit and len(fit) - 1 < 11:
            sentence = (
                f"firing {player.name} would leave {team.name} with"
                f" {len(fit) - 1} players eligible for the next game (at least 11)"
            )
            return [Problem(TooFewPlayers, sentence, have=len(fit) - 1, limit=11)]
        return []

    def check_release(self, team: TeamRow, item: str, count: int = 1) -> list[Problem]:
        """Once drafted, a team fires Sideline Staff only ('Hiring, Firing and Temporarily
        Retiring', step 4: "Hire and fire any Sideline Staff ... they may not remove [Team
        Re-rolls]"): its re-rolls stay, and its Dedicated Fans, which are not staff, change
        only with the post-game roll ('Update Dedicated Fans', never below 1). While drafting,
        the Dedicated Fans it starts with stay too: "This can never go below 1"."""
        if item == "dedicated_fans" and team.drafting:
            return self.fans_kept(team, count)
        if team.drafting or item not in ("reroll", "dedicated_fans"):
            return []
        if item == "reroll":
            sentence = f"{self.book} team re-rolls cannot be removed from the roster once drafted"
            return [Problem(RerollsKept, sentence)]
        sentence = (
            f"{self.book} Dedicated Fans cannot be let go once drafted: they change only with"
            " the post-game roll"
        )
        return [Problem(FansKept, sentence)]

    def fans_kept(self, team: TeamRow, count: int) -> list[Problem]:
        start = self.starting_fans()
        if team.fans - count >= start:
            return []
        spare = max(team.fans - start, 0)
        sentence = (
            f"a team keeps the {plural(start, 'Dedicated Fan')} it starts with ('never below"
            f" 1'): {team.name} have {team.fans}, so {f'at most {spare}' if spare else 'none'}"
            " may go"
        )
        return [Problem(FansKept, sentence)]

    def star_draft_order(self, drawn: Sequence[str], last_table: Sequence[str]) -> list[str]:
        return contracts.draft_order(drawn, last_table)

    def may_sign_star(self, star_id: str, team: TeamRow, signed: set[str]) -> bool:
        stars = self.catalogue.stars()
        return contracts.may_sign(
            stars[star_id], self.catalogue.team_list(team.roster), stars.values(), signed
        )

    # --- values -----------------------------------------------------------------------------

    def team_values(self, team: TeamRow, players: Sequence[PlayerRow]) -> dict[str, int]:
        """'Prepare for Next Fixture': CTV leaves out players missing the next game and
        Temporarily Retiring players ('Temporarily Retiring')."""
        on_roster = absent = 0
        for p in players:  # one loop, as in roster_totals: asked after every change it reads
            if p.status in ON_ROSTER:
                on_roster += p.value
                if p.status == "retired" or p.miss_next_game:
                    absent += p.value
        tv = on_roster + self.sideline_value(team)  # as BaseRuleset.team_values counts it
        return {"tv": tv, "ctv": tv - absent}

    def value_reads(self) -> ValueReads:
        reads = super().value_reads()
        return ValueReads(team=reads.team, players=reads.players | {"miss_next_game"})

    def changed_characteristic(self, player: PlayerRow, stat: str, better: bool) -> int | None:
        """AG and PA are target numbers: improving 4+ gives 3+ ('Characteristic
        Improvements'); injuries move them the other way."""
        value = getattr(player, stat)
        if value is None:
            return None
        step = 1 if better else -1
        if stat in ("ag", "pa"):
            return int(min(6, max(1, value - step)))
        floor = 3 if stat == "av" else 1
        return int(max(floor, value + step))

    # --- matches ----------------------------------------------------------------------------

    def check_casualty(self, casualty: Casualty) -> list[Problem]:
        """A recorded D16 (and Lasting Injury D6) must agree with the outcome entered; the
        D6 is rolled only for a Lasting Injury (core rules Casualty Table: 13-14)."""
        roll = next((d for d in casualty.dice if d.purpose == "casualty"), None)
        lasting = next((d for d in casualty.dice if d.purpose == "lasting_injury"), None)
        if roll is not None and (wrong := self.casualty_roll_problems(casualty, roll)):
            return wrong
        if lasting is None:
            return []
        if casualty.outcome != "lasting_injury":
            outcome = (casualty.outcome or "").replace("_", " ")
            sentence = (
                f"a casualty that is {outcome} takes no Lasting Injury roll (only a Lasting"
                f" Injury does): leave out its lasting injury roll of {lasting.values[0]}"
            )
            return [Problem(CasualtyDice, sentence)]
        effect = band(self.tables().lasting_injury_table, lasting.values[0]).effects[0]
        if roll is not None and effect not in casualty.effects:
            sentence = f"a lasting injury roll of {lasting.values[0]} is {effect}"
            return [Problem(CasualtyDice, sentence)]
        return []

    def casualty_roll_problems(self, casualty: Casualty, roll: DiceRoll) -> list[Problem]:
        """The D16 is the edition's Casualty Table die, and its result is the outcome."""
        if roll.dice != "D16":
            return [
                Problem(CasualtyDice, f"the {self.book} Casualty Table is a D16, not a {roll.dice}")
            ]
        expected = band(self.tables().casualty_table, roll.values[0])
        if casualty.outcome != expected.outcome:
            sentence = (
                f"a casualty roll of {roll.values[0]} is {expected.outcome}, not {casualty.outcome}"
            )
            return [Problem(CasualtyDice, sentence)]
        return []

    def casualty_from_report(
        self, outcome: str | None, effects: tuple[str, ...], dice: Sequence[DiceRoll]
    ) -> tuple[str, tuple[Effect, ...]]:
        """From the D16 (and D6) when given, else the outcome named: lasting injuries
        then need the characteristic lost among the effects."""
        from_dice = self.outcome_from_dice(dice)
        if from_dice is not None:
            return from_dice
        roll = next((d for d in dice if d.purpose == "casualty" and d.dice == "D16"), None)
        if roll is not None and outcome is None:
            raise DieWanted(
                f"a casualty roll of {roll.values[0]} is a lasting_injury:"
                " give its Lasting Injury D6 too (lasting: N)",
                "lasting_injury",
            )
        if outcome is None:
            raise DieWanted("give the casualty's D16 roll (roll: N) or its outcome", "casualty")
        named = next((b for b in self.tables().casualty_table if b.outcome == outcome), None)
        if named is None:
            known = ", ".join(b.outcome for b in self.tables().casualty_table)
            raise InvalidInput(f"'{outcome}' is not a {self.book} casualty outcome ({known})")
        chosen = checked_effects(effects)
        return outcome, (*named.effects, *self.lasting_loss(outcome, named.effects, chosen))

    def lasting_loss(
        self, outcome: str, named: Sequence[Effect], chosen: Sequence[Effect]
    ) -> tuple[Effect, ...]:
        """What a casualty named by its outcome adds to the Casualty Table's effects: a
        Lasting Injury's one characteristic lost, nothing else (a 'dead' given beside a
        Serious Injury had killed the player)."""
        lasting = outcome == "lasting_injury"
        losses = tuple(e for e in chosen if e.startswith("-") and lasting)
        extra = [e for e in chosen if e not in named and e not in losses]
        if extra:
            words = outcome.replace("_", " ")
            raise InvalidInput(
                f"a {words} does not cause {', '.join(extra)} ({self.book} Casualty Table)"
            )
        if lasting and len(losses) != 1:
            raise InvalidInput(
                "a lasting injury needs its D6 roll or the one characteristic lost"
                " (effects: -ma, -st, -ag, -pa or -av)"
            )
        return losses

    def outcome_from_dice(self, rolls: Sequence[DiceRoll]) -> tuple[str, tuple[Effect, ...]] | None:
        """The outcome and effects a D16 (and D6) casualty roll gives, for entry by dice."""
        t = self.tables()
        roll = next((d for d in rolls if d.purpose == "casualty" and d.dice == "D16"), None)
        if roll is None:
            return None
        found = band(t.casualty_table, roll.values[0])
        effects = tuple(found.effects)
        if found.outcome == "lasting_injury":
            lasting = next((d for d in rolls if d.purpose == "lasting_injury"), None)
            if lasting is None:
                return None
            effects += band(t.lasting_injury_table, lasting.values[0]).effects
        return found.outcome, effects

    def check_match(self, match: MatchRecorded, rows: MatchRows) -> list[Problem]:
        problems = []
        if match.concession and match.concession.kind not in self.concession_kinds:
            sentence = f"{self.book} has no forfeits: a team concedes, with or without penalty"
            problems.append(Problem(ConcessionRefused, sentence))
        if self.options.referees and (wrong := exhibitions.referee_problem(match.referee)):
            problems.append(Problem(RefereeRefused, wrong))
        if match.kind == "exhibition":
            all_stars = exhibitions.all_star_problems(match, self.catalogue.stars(), self.book)
            return problems + found(HirelingRefused, all_stars)
        for sheet in match.sheets():
            problems += found(HirelingRefused, self.journeymen_problems(sheet, rows))
        if match.kind == "friendly":
            return problems
        for sheet in match.sheets():
            problems += self.mvp_problems(match, sheet, rows)
            problems += found(HirelingRefused, self.star_problems(match, sheet, rows))
        return problems

    def star_problems(self, match: MatchRecorded, sheet: TeamSheet, rows: MatchRows) -> list[str]:
        """Stars are Inducements: one a report fields was bought for the fixture
        (``stars.py``)."""
        team = rows.team(sheet.team)
        if team is None or not any(h.kind == "star" for h in sheet.hirelings):
            return []
        team_list = self.catalogue.team_list(team.roster)
        bought = stars.bought(rows.fixture, sheet.team)
        once = stars.bought_any(rows.fixture, sheet.team)
        return stars.report_problems(
            match.match, sheet, team_list, bought, self.catalogue.stars(), once
        )

    @property
    def referees(self) -> tuple[str, ...]:
        """Spike! 2021 'Red Cards & Rulekeepers', with the league's ``referees`` option."""
        return tuple(exhibitions.REFEREES.values()) if self.options.referees else ()

    @property
    def concession_kinds(self) -> tuple[str, ...]:
        """'Conceding', and Conceding Without Penalty for an unplayed fixture ('Seasons')."""
        return ("conceded", "without_penalty")

    @property
    def reads_stalling(self) -> bool:
        """Seed 001 'Record Outcome and Collect Winnings': an additional 1 if no player of
        the team was deemed Stalling (BB2025); BB2020 Season 2's winnings have none."""
        return self.tables().winnings.no_stalling_bonus > 0

    def report_stars(self, fixture: MatchRow, team: TeamRow) -> tuple[str, ...] | None:
        """In a league or play-off game, the stars the team induced for the fixture who
        play for its list (``star_problems``' own reading; a friendly takes any star)."""
        if fixture.kind not in ("league", "playoff"):
            return None
        catalogue, team_list = self.catalogue.stars(), self.catalogue.team_list(team.roster)
        induced = stars.induced(stars.bought(fixture, team.team_id), catalogue)
        return tuple(sorted(s for s in induced if contracts.eligible(catalogue[s], team_list)))

    def mvp_problems(
        self, match: MatchRecorded, sheet: TeamSheet, rows: MatchRows
    ) -> list[Problem]:
        problems = []
        awarded = sum(p.mvps for p in sheet.players)
        allowed = self.mvp_allowance(match, sheet.team)
        if awarded > allowed:
            sentence = (
                f"{rows.team_name(sheet.team)} awarded {plural(awarded, 'MVP')} where"
                f" {self.book} allows {allowed} (its {mvp_rule(match)})"
            )
            problems.append(
                Problem(MvpRefused, sentence, have=awarded, limit=allowed, team=sheet.team)
            )
        starring = {h.id for h in sheet.hirelings if h.kind == "star"} | contracted(match, rows)
        if any(p.mvps for p in sheet.players if p.player in starring):
            problems.append(
                Problem(MvpRefused, "star players cannot be given the MVP award", team=sheet.team)
            )
        return problems

    def mvp_allowance(self, match: MatchRecorded, team: str) -> int:
        """One MVP each; none for a team that conceded, two for its opponent; unplayed
        fixtures award none unless conceded by agreement ('League Fixtures')."""
        if match.concession is None:
            return 0 if match.kind == "unplayed" else 1
        if match.concession.team == team:
            return (
                1 if match.concession.kind == "without_penalty" and match.kind != "unplayed" else 0
            )
        agreed = match.kind == "unplayed"
        return 2 if match.concession.kind == "conceded" or agreed else 1

    def match_dice(self, match: MatchRecorded, rows: MatchRows) -> list[DiceNeed]:
        return postgame.match_dice(self.tables(), match, rows)

    def match_outcomes(self, match: MatchRecorded, rows: MatchRows, dice: DiceBox) -> Effects:
        effects = postgame.match_outcomes(self.tables(), match, rows, dice)
        if match.kind in ("friendly", "exhibition"):
            return effects  # 'Friendlies': no SPP, casualties count as Badly Hurt
        stars = contracted(match, rows)
        for sheet in match.sheets():
            if not postgame.conceded(match, sheet.team):
                effects += [
                    e
                    for e in self.spp_outcomes(match, sheet)
                    if not (isinstance(e, Spp) and e.player in stars)
                ]
        if not stars:  # most games: the casualties as reported
            return effects + self.casualty_outcomes(match)
        return effects + self.casualty_outcomes(  # a copy made here: nothing to keep
            match.model_copy(
                update={
                    "casualties": tuple(
                        star_casualty(c) if c.victim in stars else c for c in match.casualties
                    )
                }
            )
        )

    def close_dice(self, team: TeamRow, rolls: tuple[DiceRoll, ...]) -> list[DiceNeed]:
        return postgame.close_dice(self.tables(), team, rolls)

    def close_outcomes(self, event: PostGameClosed, team: TeamRow, dice: DiceBox) -> Effects:
        return postgame.close_outcomes(self.tables(), event, team, dice)

    def check_close(self, team: TeamRow, players: Sequence[PlayerRow]) -> list[Problem]:
        return found(AdvancementDue, postgame.must_advance(self.tables(), players))

    # --- advancement -------------------------------------------------------------------------

    def advancement(self, player: PlayerRow, event: PlayerAdvanced) -> AdvancementResult:
        position = self.position_of(player)
        return advancement.result(self.tables(), player, position, event)

    def check_advancement(
        self, player: PlayerRow, team: TeamRow, event: PlayerAdvanced
    ) -> list[Problem]:
        problems = advancement.problems(self.tables(), player, self.position_of(player), event)
        return found(InvalidAdvancement, problems)

    def position_of(self, player: PlayerRow) -> Position:
        return self.catalogue.position(player.roster, player.position)

    # --- before a game ('Pre-game Sequence') -------------------------------------------

    def game_value(self, team: TeamRow, players: Sequence[PlayerRow]) -> int:
        """CTV with the Journeymen the team must take ('Take on Journeymen')."""
        needed = pregame.journeymen_needed(players)
        lineman = self.journeyman_position(self.catalogue.team_list(team.roster))
        extra = needed * lineman.cost if lineman is not None else 0
        return self.team_values(team, players)["ctv"] + extra

    def journeyman_position(self, team_list: TeamList) -> Position | None:
        """The first line Journeymen are taken from (``journeyman_lines``)."""
        return next(iter(self.journeyman_positions(team_list)), None)

    def journeyman_positions(self, team_list: TeamList) -> list[Position]:
        """The Lineman lines Journeymen may be taken from: the coach chooses among them."""
        return pregame.journeyman_positions(team_list, self.journeyman_lines)

    def journeymen_problems(self, sheet: TeamSheet, rows: MatchRows) -> list[str]:
        team = rows.team(sheet.team)
        if team is None or not any(h.kind == "journeyman" for h in sheet.hirelings):
            return []
        lines = self.journeyman_positions(self.catalogue.team_list(team.roster))
        return pregame.journeymen_problems(sheet, team.name, rows.players(sheet.team), lines)

    def inducement_offer(
        self, team: TeamRow, contracted: Collection[str] = ()
    ) -> Mapping[str, SidelineItem]:
        """The list 'on page 142' (seed 001 'Inducements'): its common lines, then the
        Star Players who play for the team (``stars.py``) and are signed to no team's
        roster (seed 003 'Unsigned Star Players')."""
        team_list = self.catalogue.team_list(team.roster)
        common = pregame.offer(pregame.inducements(self.data_dir).values(), team_list)
        return common | stars.offer(self.catalogue.stars(), team_list, contracted)

    def check_inducements(self, team: TeamRow, wanted: Mapping[str, int]) -> list[Problem]:
        problems = stars.purchase_problems(team.name, wanted, self.catalogue.stars())
        return found(HirelingRefused, problems)

    def inducement_budget(
        self, value: int, other_value: int, other_spent: int, treasury: int
    ) -> Budget:
        if value == other_value:
            return Budget(petty_cash=0, treasury=0, why="equal CTVs: neither team spends gold")
        if value > other_value:
            return Budget(petty_cash=0, treasury=treasury, why="higher CTV: treasury first")
        cash = pregame.petty_cash(value, other_value, other_spent)
        return Budget(
            petty_cash=cash,
            treasury=min(pregame.TOP_UP_LIMIT, treasury),
            why=f"petty cash {other_value - value:,} difference + {other_spent:,}"
            " spent by the opponent",
        )

    # --- the off-season ('Off-season and Re-drafting') ---------------------------------

    def positions_of(self, players: Sequence[PlayerRow]) -> dict[str, Position]:
        return {p.player_id: self.position_of(p) for p in players if p.kind == "regular"}

    def redraft_dice(self, team: TeamRow, players: Sequence[PlayerRow]) -> list[DiceNeed]:
        return redraft.dice_needed(players, self.positions_of(players))

    def redraft_budget(self, rows: RedraftRows, season: int) -> tuple[int, str]:
        return redraft.budget(self.tables(), rows, season, self.options.redraft_cap)

    def rehire_price(self, player: PlayerRow, season: int) -> int:
        return redraft.rehire_price(self.tables(), player, season)

    def redraft_outcomes(self, event: TeamRedrafted, rows: RedraftRows, dice: DiceBox) -> Effects:
        team, players = rows.team, rows.side.players
        funds = self.redraft_budget(rows, event.season)
        return redraft.outcomes(
            self.tables(),
            event,
            team,
            players,
            self.positions_of(players),
            funds,
            dice,
            self.redraft_fans(team),
        )

    def redraft_fans(self, team: TeamRow) -> int:
        """The Dedicated Fans a re-drafted team starts with (a variant may carry them over)."""
        return self.starting_fans()

    # --- seasons ---------------------------------------------------------------------------

    def check_season(self, divisions: Sequence[Division], playoff_teams: int) -> list[Problem]:
        """'Divisions': "each Division should contain at least four teams"."""
        problems = super().check_season(divisions, playoff_teams)
        return problems + found(
            DivisionSize,
            [
                f"division {d.name or '(unnamed)'} has {plural(len(d.teams), 'team')}:"
                f" {self.book} divisions hold at least four ('Divisions')"
                for d in divisions
                if 1 < len(d.teams) < 4
            ],
        )

    def season_outcomes(self, event: SeasonClosed, rows: SeasonRows) -> Effects:
        scheme = self.points_scheme(rows.points)
        results = [
            (m.home, m.away, m.home_score, m.away_score)
            for m in rows.matches
            if m.status == "played" and m.kind == "league"
        ]
        table = self.rank(season.whole_league(rows.standings), results, scheme)
        return season.outcomes(
            self.tables(), event, rows, table, self.options.star_player_contracts
        )

    # --- the league table -----------------------------------------------------------------------

    def points_scheme(self, recorded: Mapping[str, Any] | None) -> PointsScheme:
        if recorded:
            return PointsScheme.model_validate(recorded)
        return self.optioned_points

    @cached_property
    def optioned_points(self) -> PointsScheme:
        """The scheme of a league that recorded none, from the options: made once (every
        report asks for it), and shared, as a scheme is never changed."""
        if self.options.bonus_points == "none":
            return PointsScheme()
        return PointsScheme(
            bonus=("three_touchdowns", "clean_sheet", "three_casualties"),
            bonus_mode=self.options.bonus_points,
        )


def contracted(match: MatchRecorded, rows: MatchRows) -> set[str]:
    """Players of the match who are stars under contract (Spike! 2021). The stars among
    the rows come first: most games have none, and then the report's names are not read."""
    stars = {p.player_id for side in rows.teams.values() for p in side.players if p.kind == "star"}
    stars.update(player_id for player_id, p in rows.named.items() if p.kind == "star")
    return stars & match.named_players() if stars else stars


def star_casualty(casualty: Casualty) -> Casualty:
    """'Injuries': a star treats a Serious Injury, Lasting Injury or DEAD as Seriously
    Hurt: he misses the next game, nothing more."""
    if casualty.outcome not in contracts.SERIOUS:
        return casualty
    return casualty.model_copy(update={"outcome": "seriously_hurt", "effects": ("miss_next_game",)})


@cache
def sideline_of(
    edition_tables: Callable[[], Tables], team_list: TeamList
) -> Mapping[str, SidelineItem]:
    """The core rules' Sideline Staff and re-rolls a team list may buy, from the edition's
    own tables (asked on every value refresh, so built once per edition and list: the
    classmethod ``tables`` is the same key for every instance of an edition)."""
    t = edition_tables()
    items = {
        "reroll": SidelineItem(
            id="reroll",
            name="Team Re-roll",
            price=team_list.reroll_cost,
            max=t.max_rerolls,
            double_after_draft=True,
            counts_as="reroll",
        ),
        "dedicated_fans": SidelineItem(
            id="dedicated_fans",
            name="Dedicated Fans",
            price=t.dedicated_fans.price,
            max=t.dedicated_fans.draft_max,
            in_value=False,
            draft_only=True,
            counts_as="fans",
        ),
    }
    for item_id, staff in t.sideline.items():
        if item_id == "apothecary" and not team_list.apothecary:
            continue
        items[item_id] = SidelineItem(id=item_id, name=staff.name, price=staff.price, max=staff.max)
    return items


def mvp_rule(match: MatchRecorded) -> str:
    """The section that says how many MVPs the game awards (``mvp_allowance``)."""
    if match.concession is not None:
        return "'Conceding'"
    return "'League Fixtures'" if match.kind == "unplayed" else "'Most Valuable Player'"
