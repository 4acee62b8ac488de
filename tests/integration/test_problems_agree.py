"""A command and a what-if replay answer the same decision with the same rule.

Each case is a league log written under one edition whose last decision (a hire, a
purchase, staff let go, a fine, a bounty, a season, a match) the target edition may not
allow. It is replayed under the target: the replay's divergence for that decision names a
problem code. The same decision, in the target's terms, is then asked of the command
(``plan_hire``, ``plan_buy``, ``plan_release``, ``plan_adjust``, ``plan_bounty``,
``plan_start``, ``plan_record``) on the replay's own state just before it: the command
refuses with the same code, or both let it through. A rule
changed in one of them and not the other fails here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from ledger.application.commands import (
    AdjustTreasury,
    Buy,
    HirePlayer,
    PostBounty,
    RecordMatch,
    Release,
    StartSeason,
)
from ledger.application.context import Context
from ledger.application.matches import plan_record
from ledger.application.reports import MatchReport
from ledger.application.seasons import plan_start
from ledger.application.teams import (
    plan_adjust,
    plan_bounty,
    plan_buy,
    plan_hire,
    plan_release,
)
from ledger.domain import events as ev
from ledger.domain.state import LeagueRow
from ledger.domain.values import Concession, Division, Performance, Purchase
from ledger.errors import LedgerError
from ledger.rules import find_ruleset
from ledger.rules.protocol import Ruleset
from ledger.whatif.replay import replay, translate
from tests.support import Book, report, sheet


@dataclass
class Case:
    source: str
    target: str
    roster: str
    positions: list[str]
    decision: Callable[[Book], ev.LedgerEvent]
    treasury: int = 0
    """Gold left in the source's treasury after the players are hired."""
    played: bool = field(default=False)
    """Whether a first game was played before the decision (the draft is over)."""
    options: dict[str, object] | None = None
    """The target's options (another edition's, or the same edition's with other options)."""

    def ruleset(self) -> Ruleset:
        return find_ruleset(self.target, self.options)


def hire(position: str, star: str | None = None) -> Callable[[Book], ev.LedgerEvent]:
    def record(book: Book) -> ev.LedgerEvent:
        kind = {"kind": "star", "star": star} if star else {}
        player = f"p{book.players + 1}"
        fields = {"team": "t", "player": player, "name": "New", "position": position}
        return book.record(ev.PlayerHired, **fields, **kind, price=0)  # the replay prices it

    return record


def buy(item: str, count: int) -> Callable[[Book], ev.LedgerEvent]:
    def record(book: Book) -> ev.LedgerEvent:
        bought = Purchase(item=item, count=count, price=0)
        return book.record(ev.SidelinePurchased, team="t", purchases=(bought,))

    return record


def release(item: str, held: int, count: int) -> Callable[[Book], ev.LedgerEvent]:
    """Buy ``held`` of an item (at its source price), then let ``count`` of them go."""

    def record(book: Book) -> ev.LedgerEvent:
        bought = Purchase(item=item, count=held, price=held * 60_000)
        book.record(ev.SidelinePurchased, team="t", purchases=(bought,))
        return book.record(ev.SidelineReleased, team="t", item=item, count=count)

    return record


def fine(amount: int) -> Callable[[Book], ev.LedgerEvent]:
    def record(book: Book) -> ev.LedgerEvent:
        return book.record(ev.TreasuryAdjusted, team="t", amount=-amount)

    return record


def bounty(amount: int) -> Callable[[Book], ev.LedgerEvent]:
    """ZAL 21: gold on the head of a player of another team."""

    def record(book: Book) -> ev.LedgerEvent:
        [target, *_] = book.team("u", "human", ["lineman"] * 11)
        return book.record(ev.BountyPosted, team="t", player=target, amount=amount)

    return record


def season() -> Callable[[Book], ev.LedgerEvent]:
    """A second season of one division holding both teams."""

    def record(book: Book) -> ev.LedgerEvent:
        teams = Division(name="Only", teams=("t", "u"))
        return book.record(ev.SeasonStarted, season=2, divisions=(teams,))

    return record


def match(kind: str | None = None, mvps: int = 0) -> Callable[[Book], ev.LedgerEvent]:
    """A match t won 2-0 against u (both touchdowns and ``mvps`` MVPs to t's first player),
    u giving up (``kind``) if it did."""

    def record(book: Book) -> ev.LedgerEvent:
        book.team("u", "human", ["lineman"] * 11)
        given_up = Concession.model_validate({"team": "u", "kind": kind}) if kind else None
        named = [Performance(player="p1", touchdowns=2, mvps=mvps)]
        return book.record(
            ev.MatchRecorded,
            match="m1",
            season=1,
            home=sheet("t", 2, named),
            away=sheet("u", 0),
            concession=given_up,
        )

    return record


CASES: dict[str, tuple[Case, str | None]] = {
    "a hire that fits both": (
        Case("bb2025", "dz3", "human", ["lineman"] * 11, hire("lineman"), 100_000),
        None,
    ),
    "a 13th dz3 lineman": (
        Case("bb2025", "dz3", "human", ["lineman"] * 12, hire("lineman"), 100_000),
        "position-limit",
    ),
    "a 3rd BB2025 orc blitzer (hired as a lineman by the replay)": (
        Case("lrb6-zal", "bb2025", "orc", ["blitzer"] * 2 + ["lineman"] * 7, hire("blitzer")),
        "position-limit",
    ),
    "a 17th player": (
        Case("lrb6-zal", "bb2025", "human", ["lineman"] * 16, hire("lineman"), 100_000),
        "roster-full",
    ),
    "a lineman dz3 prices beyond the treasury": (
        Case("bb2025", "dz3", "human", ["blitzer"] * 2 + ["lineman"] * 8, hire("lineman")),
        "insufficient-treasury",
    ),
    "a star LRB6 only induces": (
        Case(
            "bb2025",
            "lrb6",
            "orc",
            ["lineman"] * 11,
            hire("the_mighty_zug", "the_mighty_zug"),
            500_000,
        ),
        "star-hire",
    ),
    "re-rolls the treasury pays for": (
        Case("lrb6-zal", "dz3", "chaos", ["beastman"] * 11, buy("reroll", 2), 180_000),
        None,
    ),
    "a third re-roll dz3 prices beyond the treasury": (
        Case("lrb6-zal", "dz3", "chaos", ["beastman"] * 11, buy("reroll", 3), 180_000),
        "insufficient-treasury",
    ),
    "a second apothecary": (
        Case("lrb6-zal", "bb2025", "human", ["lineman"] * 11, buy("apothecary", 2), 200_000),
        "staff-limit",
    ),
    "an apothecary BB2025 Nurgle teams may not have": (
        Case("lrb6-zal", "bb2025", "nurgle", ["rotter"] * 11, buy("apothecary", 1), 100_000),
        "not-allowed",
    ),
    "Dedicated Fans after the draft": (
        Case(
            "lrb6",
            "bb2025",
            "human",
            ["lineman"] * 11,
            buy("fan_factor", 1),
            100_000,
            played=True,
        ),
        "not-allowed",
    ),
    "a re-roll let go while drafting": (
        Case("lrb6-zal", "bb2025", "chaos", ["beastman"] * 11, release("reroll", 2, 1), 120_000),
        None,
    ),
    "more re-rolls let go than the replay's team holds": (
        Case("lrb6-zal", "bb2025", "chaos", ["beastman"] * 11, release("reroll", 1, 2), 60_000),
        "invalid-input",
    ),
    "a BB2025 re-roll let go after the draft": (
        Case(
            "lrb6-zal",
            "bb2025",
            "chaos",
            ["beastman"] * 11,
            release("reroll", 1, 1),
            60_000,
            played=True,
        ),
        "rerolls-kept",
    ),
    "a fine the treasury covers": (
        Case("bb2025", "dz3", "human", ["lineman"] * 11, fine(20_000), 100_000),
        None,
    ),
    "a fine beyond the replay's treasury": (
        Case("bb2025", "dz3", "human", ["blitzer"] * 2 + ["lineman"] * 9, fine(100_000)),
        "insufficient-treasury",
    ),
    "a bounty the treasury covers": (
        Case(
            "lrb6-zal",
            "lrb6-zal",
            "human",
            ["lineman"] * 11,
            bounty(20_000),
            50_000,
            options={"fame_in_winnings": True},
        ),
        None,
    ),
    "a bounty beyond the treasury": (
        Case(
            "lrb6-zal",
            "lrb6-zal",
            "human",
            ["lineman"] * 11,
            bounty(60_000),
            50_000,
            options={"fame_in_winnings": True},
        ),
        "insufficient-treasury",
    ),
    "a bounty in an edition without bounties": (
        Case("lrb6-zal", "bb2025", "human", ["lineman"] * 11, bounty(20_000), 50_000),
        "not-allowed",
    ),
    # An edition's own check_* (check_season, check_match): the replay keeps the decision as
    # recorded and says why, with the code the command refuses it with.
    "a BB2025 division of two teams ('Divisions': at least four)": (
        Case("lrb6", "bb2025", "human", ["lineman"] * 11, season(), played=True),
        "division-size",
    ),
    "an LRB6 division of two teams (no least size)": (
        Case("bb2025", "lrb6", "human", ["lineman"] * 11, season(), played=True),
        None,
    ),
    "two MVPs where BB2025 awards one": (
        Case("lrb6-zal", "bb2025", "human", ["lineman"] * 11, match(mvps=2)),
        "mvp-award",
    ),
    "one MVP in BB2025": (
        Case("lrb6-zal", "bb2025", "human", ["lineman"] * 11, match(mvps=1)),
        None,
    ),
    "a concession LRB6 has": (
        Case("bb2025", "lrb6", "human", ["lineman"] * 11, match(kind="conceded")),
        None,
    ),
}


def league(case: Case) -> tuple[Book, ev.LedgerEvent]:
    book = Book(case.source)
    book.team("t", case.roster, case.positions, treasury=case.treasury)
    if case.played:
        book.team("u", case.roster, case.positions)
        book.record(ev.MatchRecorded, match="m1", season=1, home=sheet("t"), away=sheet("u"))
    return book, case.decision(book)


def replayed(book: Book, decision: ev.LedgerEvent, target: Ruleset) -> tuple[str | None, object]:
    """The code of the replay's first divergence about the decision, and the decision in
    the target's terms."""
    events = book.events()
    outcome = replay(events, target)
    codes = [d.code for d in outcome.divergences if d.seq == decision.seq and d.code]
    [step] = [s for s in translate(events, target) if s.original is decision]
    return (codes[0] if codes else None), step.event


def commanded(book: Book, decision: ev.LedgerEvent, ruleset: Ruleset) -> str | None:
    """The code the command refuses the decision with, on the replay's state before it."""
    before = replay(book.events()[:-1], ruleset)
    found = before.store.get(LeagueRow, before.league_id)
    assert found is not None
    c = Context(view=before.store, league=found, ruleset=ruleset, reason="a fine")
    slug = found.slug
    try:
        if isinstance(decision, ev.PlayerHired):
            plan_hire(
                c, HirePlayer(slug, "t", decision.position, decision.name, star=decision.star)
            )
        elif isinstance(decision, ev.SidelinePurchased):
            [wanted] = decision.purchases
            plan_buy(c, Buy(slug, "t", wanted.item, wanted.count))
        elif isinstance(decision, ev.SidelineReleased):
            plan_release(c, Release(slug, "t", decision.item, decision.count))
        elif isinstance(decision, ev.TreasuryAdjusted):
            plan_adjust(c, AdjustTreasury(slug, "t", decision.amount))
        elif isinstance(decision, ev.SeasonStarted):
            plan_start(c, StartSeason(slug, decision.divisions))
        elif isinstance(decision, ev.MatchRecorded):
            plan_record(c, RecordMatch(slug, match_report(decision), roll_missing=True))
        else:
            assert isinstance(decision, ev.BountyPosted)
            plan_bounty(c, PostBounty(slug, "t", decision.player, decision.amount))
    except LedgerError as refused:
        return refused.code
    return None


def match_report(match: ev.MatchRecorded) -> MatchReport:
    """The report a commissioner would give for the match: score, MVPs, concession."""
    given_up = {"concession": match.concession.model_dump()} if match.concession else {}
    sides = {
        where: {
            "team": side.team,
            "touchdowns": side.touchdowns,
            "players": [
                {"player": p.player, "touchdowns": p.touchdowns, "mvps": p.mvps}
                for p in side.players
            ],
        }
        for where, side in (("home", match.home), ("away", match.away))
    }
    return report({**sides, **given_up})


@pytest.mark.parametrize(("case", "code"), list(CASES.values()), ids=list(CASES))
def test_the_command_and_the_replay_report_the_same_problem(case: Case, code: str | None) -> None:
    book, decision = league(case)
    by_replay, translated = replayed(book, decision, case.ruleset())
    assert isinstance(translated, ev.LedgerEvent)
    by_command = commanded(book, translated, case.ruleset())
    assert (by_replay, by_command) == (code, code)
