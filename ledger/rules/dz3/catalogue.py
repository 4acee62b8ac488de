"""Which dz3 Star Players may join a team for good (seed 004, 'Star Players').

The Handbook and Death Zone stars are hired onto a roster like any player; the league's
variant may take them away: "Alt (c) Star players are not permitted, except those with
secret weapons", "Alt (d) Star players are not permitted". How many a team holds (Alt (b)
"only 2") and duplicates (Alt (b), (c)) are checks of each hire (``stars``).

Worked example: under the books (``star_players=any``) an Orc team may hire Morg 'n' Thorg
("any" team) and Nobbla Blackwart (Goblin, Orc and Chaos Dwarf teams); under Alt (c) only
Nobbla, who carries a secret weapon; under Alt (d) no one.
"""

from __future__ import annotations

from ledger.rules.catalogue import CatalogueSources, JoiningStars
from ledger.rules.dz3 import stars
from ledger.rules.dz3.options import Options
from ledger.rules.dz3.tables import stars as star_list
from ledger.rules.dz3.tables import tables
from ledger.rules.schema import StarPlayer


class DZ3Catalogue(JoiningStars):
    def __init__(self, sources: CatalogueSources, options: Options) -> None:
        super().__init__(*sources)
        self.options = options

    def plays_for(self, star: StarPlayer, roster: str) -> bool:
        """He plays for the team, and the league's variant permits him at all."""
        dz_star = star_list()[star.id]
        permitted = not stars.count_problems(tables(), self.options, dz_star, ())
        return super().plays_for(star, roster) and permitted
