"""What a gold4 team may hire beyond its own list (seed 002): allies and secret weapons.

"MIXED RACE TEAMS": "A team can draw allied players from any allied race", "one ally from
each allowed race", the races by team on the ALLIED TEAMS TABLE. "SECRET WEAPONS" / "BUYING
SECRET WEAPONS": weapons are bought "for the 'ordinary players' in your team when it is
created, or when a new player is added", "Allied players may only use weapons allowed in
the team they are allied to", at the costs of the SECRET WEAPONS TABLE.

Worked example: an Orc team may take one player from each of the Chaos, Chaos Dwarf,
Goblin, Norse and Ogre lists; a Goblin Troll allied to it may carry the weapons an Orc team
may use (a Chainsaw, 60,000), a Goblin Fanatic none (his Ball & Chain is his own).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ledger.rules.catalogue import Catalogue, CatalogueSources, Equipment
from ledger.rules.gold4 import rosters
from ledger.rules.gold4.league_tables import gold_rules
from ledger.rules.gold4.tables import load_gold4_tables
from ledger.rules.schema import Position


class Gold4Catalogue(Catalogue):
    """classic3's lists with seed 002's additions, allies and, when the league uses them,
    secret weapons (``secret_weapons``, the league's option)."""

    def __init__(self, sources: CatalogueSources, secret_weapons: bool) -> None:
        super().__init__(*sources)
        self.secret_weapons = secret_weapons
        self.allied: dict[str, Mapping[str, int]] = {}
        """``allies`` by team list, as far as asked: every hire's check asks it."""

    def allies(self, roster: str) -> Mapping[str, int]:
        """ALLIED TEAMS TABLE: the team's row (or ANY OTHER), one ally from each race."""
        found = self.allied.get(roster)
        if found is None:
            most = load_gold4_tables().tables.allied_teams.max_allies_per_allowed_race
            lists = self.team_lists()
            allowed = rosters.allies_of(gold_rules(), roster) - {roster}
            # read-only: one answer is shared by every team of the list
            found = MappingProxyType({ally: most for ally in sorted(allowed) if ally in lists})
            self.allied[roster] = found
        return found

    def equipment(self, roster: str, position: Position) -> tuple[Equipment, ...]:
        """SECRET WEAPONS TABLE: the weapons a team of ``roster`` may use, for a player who
        does not come armed (a Fanatic, a Death Roller); none without the rules."""
        if not self.secret_weapons or rosters.comes_armed(position):
            return ()
        weapons = load_gold4_tables().tables.secret_weapons.weapons
        return tuple(
            Equipment(w.id, w.called, w.cost) for w in weapons if roster in rosters.weapon_users(w)
        )
