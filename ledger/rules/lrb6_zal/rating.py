"""Team Rating and the Handicap Table (seed 000: ZAL 8, 8a, 8e and the HANDICAP TABLE).

ZAL 8a counts 'the values (including earned Star Player Points)' of the players, so the
Team Rating is the 3rd edition one the Handicap and Winnings tables were made for: the
team's value in gold / 10,000 plus its players' SPP / 5, each rounded down. For a match,
players who may not play because of injury are left out and the journeymen (and, by
option, mercenaries and freebooters) are added at their list value.

Worked example: eleven Human players worth 640,000 with 37 SPP between them, 3 re-rolls
(150,000), 5 Fan Factor (50,000) and an apothecary (50,000) make 890,000 gold and 37 SPP:
TR 89 + 7 = 96. A rival of TR 120 is 24 points above, so the Humans gain 1 bonus card and
1 bonus MVP (Handicap Table, 21-30).
"""

from __future__ import annotations

from ledger.rules.lrb6_zal.tables import HandicapRow, Tables


def rating(t: Tables, gold: int, spp: int, counts_spp: bool) -> int:
    """Gold / 10,000 plus SPP / 5, each rounded down (3rd edition Team Rating)."""
    tr = t.team_rating
    return gold // tr.gold_per_point + (spp // tr.spp_per_point if counts_spp else 0)


def handicap(t: Tables, ours: int, theirs: int) -> HandicapRow:
    """What a team gains from the table: nothing unless its rating is the lower one."""
    if ours >= theirs:
        return HandicapRow.model_validate({"from": 0, "to": 0, "cards": 0, "mvps": 0})
    return next(row for row in t.handicap if row.holds(theirs - ours))
