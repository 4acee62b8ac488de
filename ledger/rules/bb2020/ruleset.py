"""Blood Bowl 2020, Second Season, ruleset id ``bb2020``: a variant of ``bb2025``.

Source: the Blood Bowl 2020 rulebook (Second Season Edition) with its FAQ, as the community
rules site BBBase transcribes it (BBBase-EHeresy-PPPub/BBBase, docs/bb2020/: core_rules,
teams, starplayers; the passages used are kept in tests/rules/data/bb2020_s2 with their
commits). The Spike! Almanac 2021 options of seed 003, written for Season 2, apply as in
bb2025. Readings: docs/rulesets/bb2020.md.

Everything Season 2 shares with the 2025 chapter is inherited (the python-chess way: a
variant one level deep). What differs is data (tables.yaml, teams/, stars.yaml,
skills.yaml, inducements.yaml) and three rules in code: spending SPP (advancement.py:
random Secondary skills, one random roll, the D16 characteristic table, values by chosen
or rolled), Deflections earning SPP, and Journeymen taken from a 0-12 Lineman line too.

Worked example ('Winnings'): Fan Factors 4 and 3 give a Fan Attendance of 7; a team that
scored 2 wins 7 / 2 + 2 = 5.5, so 55,000 gold pieces (2025 adds 10,000 for not stalling).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from ledger.domain.events import AdvancementKind, PlayerAdvanced
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import Performance
from ledger.errors import InvalidAdvancement
from ledger.rules.bb2020 import advancement
from ledger.rules.bb2020.tables import Tables, tables
from ledger.rules.bb2025 import BB2025
from ledger.rules.problems import Problem, found
from ledger.rules.protocol import AdvancementResult

JOURNEYMAN_LINES = (12, 16)
"""'All teams will have a player type that they are permitted to take 0-12 or 0-16 of ...
this Player type is the team's Lineman positional' (Rules and Regulations)."""


class BB2020(BB2025):
    id = "bb2020"
    name = "Blood Bowl 2020, Second Season"
    hireling_spp_source = (
        "Blood Bowl 2020 League Play, 'Hiring, Firing and Temporarily Retiring', step 5"
    )
    book = "BB2020"
    source = (
        "Blood Bowl 2020 rulebook (Second Season Edition) and FAQ, as transcribed by BBBase;"
        " Spike! Almanac 2021 (options)"
    )
    aliases = ("bb20", "blood-bowl-2020", "2020")
    data_dir = Path(__file__).parent / "data"
    advancement_dice = {"characteristic": "D16"}
    journeyman_lines = JOURNEYMAN_LINES
    """'Take on Journeymen': from the team's Lineman line, 0-12 or 0-16 (2025 takes only
    a 0-16 line with the Lineman keyword)."""
    advancement_kinds: ClassVar[tuple[AdvancementKind, ...]] = (
        "random_primary",
        "chosen_primary",
        "random_secondary",
        "chosen_secondary",
        "characteristic",
    )
    advancement_reads: ClassVar[Mapping[str, Mapping[str, int | None]]] = {
        **BB2025.advancement_reads,
        "random_secondary": {"random_skill": None},
    }

    @classmethod
    def tables(cls) -> Tables:
        return tables()

    def spp_for(self, performance: Performance, caused: int) -> int:
        """'Passing Interference': "A Deflection earns the player 1 SPP" (2025 pays none)."""
        earned = super().spp_for(performance, caused)
        if performance.deflections:
            earned += performance.deflections * self.spp_table().get("deflection", 0)
        return earned

    def advancement(self, player: PlayerRow, event: PlayerAdvanced) -> AdvancementResult:
        return advancement.result(self.tables(), player, event)

    def check_advancement(
        self, player: PlayerRow, team: TeamRow, event: PlayerAdvanced
    ) -> list[Problem]:
        problems = advancement.problems(self.tables(), player, self.position_of(player), event)
        return found(InvalidAdvancement, problems)

    def redraft_fans(self, team: TeamRow) -> int:
        """'Re-drafting' (FAQ): "A team's Dedicated Fans value will carry over onto the new
        Team Draft list. Teams do not have to pay for these" (2025 starts again from 1)."""
        return team.fans
