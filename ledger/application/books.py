"""Whether a league's books add up: no treasury below zero, no advancement paid with SPP
the player does not have.

No command can leave a league so (buying, hiring and fining check the treasury; an
advancement checks the SPP), but two paths reach a league that no command built: a
correction, which refolds the history with an earlier event voided or amended (voided
winnings that paid for a player), and an import, whose file anyone can edit and re-hash.
Both fold the league through ``fold_books`` and refuse what ``overdrawn`` finds, each in
its own sentence (corrections.py ``rehearse``, transfer.py ``check_content``).

Worked example: a league whose Reavers start with 50,000 and are fined 60,000 folds to
``Overdrawn(seq=5, account="reavers' treasury", balance=-10_000)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ledger.domain import events as ev
from ledger.domain.state import TreasuryLine
from ledger.projections.faults import Folded, Watch, fold_league
from ledger.projections.fold import Fold
from ledger.rules.protocol import Ruleset
from ledger.words import possessive


@dataclass(frozen=True)
class Overdrawn:
    """The first event after which an account of the league stands below zero."""

    seq: int
    account: str
    """Whose what: "gouged-eye's treasury", "Ugluk's SPP"."""
    balance: int
    spent_on: str = ""
    """What the event spent it on, where the account does not say it ("an advancement")."""

    @property
    def falls(self) -> str:
        return f"{self.account} would fall to {self.balance:,}"


def fold_books(
    events: Sequence[ev.LedgerEvent],
    league_id: str,
    corrections: Mapping[int, ev.EventCorrected],
    ruleset: Ruleset | None = None,
    also: Watch | None = None,
) -> tuple[Folded, Overdrawn | None]:
    """Fold the league in memory (``fold_league``) and find the first account it leaves
    below zero, if any; ``also`` watches the fold too."""
    overspent = Overspent()

    def watch(fold: Fold, event: ev.LedgerEvent) -> None:
        overspent(fold, event)
        if also is not None:
            also(fold, event)

    folded = fold_league(events, league_id, corrections, ruleset, watch)
    return folded, overdrawn(folded, overspent)


def overdrawn(folded: Folded, overspent: Overspent) -> Overdrawn | None:
    lines = folded.store.lines[TreasuryLine]
    negative = [line for line in lines if isinstance(line, TreasuryLine) and line.balance < 0]
    found = [
        Overdrawn(line.seq, f"{possessive(line.team_id)} treasury", line.balance)
        for line in negative[:1]
    ]
    if overspent.found:
        seq = min(overspent.found)
        name, spp = overspent.found[seq]
        found.append(Overdrawn(seq, f"{possessive(name)} SPP", spp, "an advancement"))
    return min(found, key=lambda o: o.seq, default=None)  # the first, whichever account


class Overspent:
    """The advancements that would spend SPP a player no longer has, by event number: with
    the SPP that paid for them voided (a match's), the books no longer add up, as with a
    treasury below zero."""

    def __init__(self) -> None:
        self.found: dict[int, tuple[str, int]] = {}

    def __call__(self, fold: Fold, event: ev.LedgerEvent) -> None:
        if not isinstance(event, ev.PlayerAdvanced):
            return
        correction = fold.corrections.get(event.seq)
        if correction is not None and correction.action == "void":
            return  # a voided advancement spent nothing
        player = fold.player(event.player)
        if player is not None and player.spp < 0:
            self.found[event.seq] = (player.name, player.spp)
        else:  # a fold that starts again (past a fault) may find otherwise
            self.found.pop(event.seq, None)
