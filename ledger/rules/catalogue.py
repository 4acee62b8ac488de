"""What an edition has on offer: its team lists and their positions, its star players, its
skills. A ruleset exposes one ``Catalogue`` (``ruleset.catalogue``); the questions about
what exists are asked of it, the questions about what happens of the ruleset.

Worked example: ``BB2025().catalogue.position("human", "blitzer")`` is the Human list's
Blitzer (0-2, 85,000); ``.position("human", "troll")`` raises ``UnknownPosition`` naming
the list's positions, as a command shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ledger.errors import UnknownPosition, UnknownTeam
from ledger.rules.schema import Position, Skill, StarPlayer, TeamList


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
            raise UnknownPosition(f"{self.edition} has no star player '{star_id}'")
        return stars[star_id]

    def skills(self) -> Sequence[Skill]:
        """The skills (and traits) of the edition's tables, in the order printed."""
        return self._skills()
