"""What a ZAL match report must respect before it is recorded (seed 000: ZAL 8e, 9, the
Handicap Table and LRB6 p.26 'Most Valuable Player').

Each team names one MVP; the team with the lower Team Rating adds the Handicap Table's bonus
MVPs (ZAL 8e lets them be worked out before kick-off). A forfeit is forced (ZAL 9a: played
out as usual) or voluntary (ZAL 9b: the opponent wins 3:0, or by the score reached if it
had scored more than 3; the forfeiting team names no MVP of its own and the winner one
extra).

Worked example: TR 96 v TR 120 is a difference of 24: the first team may name 1 + 1 MVPs.
If the other team gives up at 1-1, the report reads 3-0 and the first team names 3.
"""

from __future__ import annotations

from ledger.domain.events import MatchRecorded
from ledger.rules.lrb6_zal.postgame import Side, voluntary_forfeit
from ledger.rules.lrb6_zal.rating import handicap
from ledger.rules.lrb6_zal.tables import Tables

FORFEITS = ("forfeit_forced", "forfeit_voluntary")


def mvp_allowance(t: Tables, match: MatchRecorded, side: Side, other: Side) -> int:
    if match.kind == "unplayed":
        return 0
    bonus = handicap(t, side.rating, other.rating).mvps
    forfeiter = voluntary_forfeit(match)
    if forfeiter == side.team_id:
        return bonus  # 'no MVP'; bonus MVPs may already have been given before kick-off
    return t.mvps_per_team + bonus + (t.forfeit.extra_mvp if forfeiter else 0)


def forfeit_problems(t: Tables, match: MatchRecorded) -> list[str]:
    concession = match.concession
    if concession is None:
        return []
    if concession.kind not in FORFEITS:
        return [
            f"ZAL forfeits are forfeit_forced (ZAL 9a) or forfeit_voluntary (ZAL 9b),"
            f" not {concession.kind}"
        ]
    if concession.kind == "forfeit_forced":
        return []
    lost = next(s.touchdowns for s in match.sheets() if s.team == concession.team)
    won = max(s.touchdowns for s in match.sheets() if s.team != concession.team)
    if (won, lost) == (t.forfeit.score, 0) or (won > t.forfeit.score and won > lost):
        return []
    return [
        f"{concession.team} gave up: the opponent wins {t.forfeit.score}:0, or by the score"
        f" reached if it had scored more than {t.forfeit.score} (ZAL 9b), not {won}:{lost}"
    ]
