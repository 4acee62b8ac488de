"""Checks on a gold4 match report: the concession and the MVPs.

Seed 002, CONCEDING THE MATCH: "the winner gains all of the losers money and his MVPs" - the
conceding team awards none, its opponent awards its own and the loser's. Death Zone (data/
deathzone.yaml): one MVP per team, no player more than one, and the Handicap Table's bonus
MVPs for the team with the lower team rating. Fanatics and Death Rollers "may not earn SPPs"
(ADDITIONS TO THE EXISTING TEAM LISTS), so they cannot be given the MVP either.

Worked example: TR 100 against TR 131 is a difference of 31: the weaker team may award 1 + 1
MVPs. If the stronger team concedes, the weaker awards 1 + 1 + 1 = 3 and the stronger none.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.domain.events import MatchRecorded
from ledger.domain.values import TeamSheet
from ledger.errors import MvpRefused
from ledger.rules.gold4 import postgame, rosters
from ledger.rules.gold4.league_tables import deathzone, gold_rules
from ledger.rules.problems import Problem, found
from ledger.rules.rows import MatchRows
from ledger.words import plural

NO_SPP = "no_spp"


@dataclass(frozen=True)
class MatchChecks:
    match: MatchRecorded
    rows: MatchRows
    handicap: bool

    def concession_problems(self) -> list[str]:
        concession = self.match.concession
        if concession is None or concession.kind == "conceded":
            return []
        return [
            f"a gold4 team simply concedes ('conceded'), not '{concession.kind}'"
            f" ({gold_rules().concession.section})"
        ]

    # --- MVPs ----------------------------------------------------------------------------------

    def mvp_problems(self) -> list[Problem]:
        """Each side's, about that side (a form shows them beside its lines)."""
        if self.match.kind == "exhibition":
            return []
        problems: list[Problem] = []
        for sheet in self.match.sheets():
            problems += found(MvpRefused, self.team_mvp_problems(sheet), sheet.team)
        return problems

    def team_mvp_problems(self, sheet: TeamSheet) -> list[str]:
        awarded, allowed = sum(p.mvps for p in sheet.players), self.allowance(sheet.team)
        problems = []
        if awarded > allowed:
            team = self.rows.team_name(sheet.team)
            problems.append(f"{team} awarded {plural(awarded, 'MVP')} where gold4 allows {allowed}")
        most = deathzone().mvp.max_per_player
        problems += [
            f"{self.rows.player_name(p.player)} was given {p.mvps} MVPs: no player may receive"
            f" more than {most}"
            for p in sheet.players
            if p.mvps > most
        ]
        problems += [
            f"{self.rows.player_name(p.player)} may not earn SPPs, so cannot be the MVP"
            for p in sheet.players
            if p.mvps and self.earns_no_spp(p.player, sheet)
        ]
        return problems

    def allowance(self, team: str) -> int:
        loser = postgame.conceded_by(self.match)
        if loser == team:
            return 0
        if loser is not None:
            return self.own_mvps(team) + self.own_mvps(loser)
        return self.own_mvps(team)

    def own_mvps(self, team: str) -> int:
        if self.match.kind == "unplayed":
            return 0  # nobody took part (Death Zone: only players in the match are eligible)
        return deathzone().mvp.per_team + self.bonus_mvps(team)

    def bonus_mvps(self, team: str) -> int:
        if not self.handicap:
            return 0
        ours = self.rating(team)
        theirs = max(
            (self.rating(s.team) for s in self.match.sheets() if s.team != team), default=0
        )
        return deathzone().handicap.bonus_mvps(theirs - ours) if ours < theirs else 0

    def rating(self, team: str) -> int:
        row = self.rows.team(team)
        return row.values.get("tr", row.rating) if row else 0

    # --- who may earn SPP -------------------------------------------------------------------------

    def earns_no_spp(self, player_id: str, sheet: TeamSheet) -> bool:
        row = self.rows.player(player_id)
        if row is not None:
            return rosters.has_keyword(row, NO_SPP)
        hireling = next((h for h in sheet.hirelings if h.id == player_id), None)
        team = self.rows.team(sheet.team)
        if hireling is None or hireling.position is None or team is None:
            return False
        team_list = rosters.team_lists().get(team.roster)
        position = team_list.position(hireling.position) if team_list else None
        return position is not None and NO_SPP in position.keywords
