"""What an edition has on offer: its team lists and their positions, its star players, its
skills. A ruleset exposes one ``Catalogue`` (``ruleset.catalogue``); the questions about
what exists are asked of it, the questions about what happens of the ruleset.

Besides the lists, what a team may hire beyond its own list, as a hire form offers it:
the lists it may take allies from (``allies``), the stars who may join it for good
(``stars_joining``) and what a position may be bought with (``equipment``). This base
answers "nothing" to each; an edition whose books allow more answers through a subclass
(``JoiningStars`` here, ``gold4.catalogue``). Whether one hire is allowed now (a second
ally, a fourth star, a team short of games) stays the ruleset's ``problems(Hiring)``.

Worked example: ``BB2025().catalogue.position("human", "blitzer")`` is the Human list's
Blitzer (0-2, 85,000); ``.position("human", "troll")`` raises ``UnknownPosition`` naming
the list's positions, as a command shows it. ``BB2025().catalogue.stars_joining("orc")``
is empty (its stars are induced for one game), ``LRB6ZAL().catalogue.stars_joining("orc")``
holds Morg 'n' Thorg.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ledger.errors import UnknownPosition, UnknownTeam
from ledger.rules.schema import Position, Skill, StarPlayer, TeamList

CatalogueSources = tuple[
    str,
    Callable[[], Mapping[str, TeamList]],
    Callable[[], Mapping[str, StarPlayer]],
    Callable[[], Sequence[Skill]],
]
"""An edition's name and the readers of its lists, stars and skills."""


@dataclass(frozen=True)
class Equipment:
    """Something a player is bought with, its cost added to his (a 4th edition secret
    weapon)."""

    id: str
    name: str
    cost: int


class Catalogue:
    """An edition's lists, stars and skills, read from its data files when first asked."""

    def __init__(
        self,
        edition: str,
        lists: Callable[[], Mapping[str, TeamList]],
        stars: Callable[[], Mapping[str, StarPlayer]],
        skills: Callable[[], Sequence[Skill]],
    ) -> None:
        self.edition = edition
        self._load_lists, self._stars, self._skills = lists, stars, skills
        self._lists: Mapping[str, TeamList] | None = None

    def team_lists(self) -> Mapping[str, TeamList]:
        if self._lists is None:
            self._lists = self._load_lists()
        return self._lists

    def team_list(self, roster: str) -> TeamList:
        lists = self._lists if self._lists is not None else self.team_lists()
        try:
            return lists[roster]
        except KeyError:
            known = ", ".join(sorted(lists))
            raise UnknownTeam(
                f"{self.edition} has no team list '{roster}' (known: {known})",
                given=roster,
                known=lists,
            ) from None

    def position(self, roster: str, position: str) -> Position:
        team_list = self.team_list(roster)
        found = team_list.position(position)
        if found is None:
            names = ", ".join(p.id for p in team_list.positions)
            raise UnknownPosition(
                f"the {team_list.name} list has no position '{position}' (positions: {names})",
                given=position,
                known=(p.id for p in team_list.positions),
            )
        return found

    def stars(self) -> Mapping[str, StarPlayer]:
        return self._stars()

    def star(self, star_id: str) -> StarPlayer:
        stars = self.stars()
        if star_id not in stars:
            raise UnknownPosition(
                f"{self.edition} has no star player '{star_id}'", given=star_id, known=stars
            )
        return stars[star_id]

    def skills(self) -> Sequence[Skill]:
        """The skills (and traits) of the edition's tables, in the order printed."""
        return self._skills()

    def skill_named(self, given: str) -> str:
        """The skill ``given`` names as the edition's tables spell it (``guard``, ``  sURE
        fEET `` are Guard and Sure Feet), so the books keep one spelling of each; a name
        the tables do not hold is left as given, for the edition's rules to judge."""
        wanted = " ".join(given.split()).casefold()
        return next((s.name for s in self.skills() if s.name.casefold() == wanted), given)

    # --- beyond the team's own list ------------------------------------------------------

    def allies(self, roster: str) -> Mapping[str, int]:
        """The other team lists a team of ``roster`` may hire from, each with how many of
        its players the team may have at once. None unless the edition has allies."""
        return {}

    def stars_joining(self, roster: str) -> tuple[StarPlayer, ...]:
        """The star players who may join a team of ``roster`` for good (a hire, not an
        inducement for one game), by name. None unless the edition hires stars."""
        return ()

    def equipment(self, roster: str, position: Position) -> tuple[Equipment, ...]:
        """What a player of ``position`` may be bought with by a team of ``roster`` (an
        ally's team, for an ally). Nothing unless the edition sells such things."""
        return ()


class JoiningStars(Catalogue):
    """An edition whose Star Players may be hired onto a roster for good: those who play
    for the team's list (or for any team). How many, and from which match, are the
    ruleset's checks of the hire (ZAL 3f-3h, OBERWALD 'Star Players')."""

    def stars_joining(self, roster: str) -> tuple[StarPlayer, ...]:
        playing = (s for s in self.stars().values() if self.plays_for(s, roster))
        return tuple(sorted(playing, key=lambda s: s.name))

    def plays_for(self, star: StarPlayer, roster: str) -> bool:
        """Whether the star may join a team of ``roster`` (an edition may narrow it)."""
        return star.plays_for_list(roster)
