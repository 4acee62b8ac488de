"""A match report's records of play: what each player of the books did in the game, as
his counters add it up (games, touchdowns, casualties...) and as his side's game line
holds it (``TeamGameLine``). Facts of the game, in no edition's terms, but for two the
fold asks its edition: the SPP each player earned, and which casualties earn SPP.

The fold counts them as it applies the report (``count_games``, ledger/projections/
match_applier.py), except in a serial rebuild whose lines a process of their own writes
(ledger/projections/parallel.py, ``LineProcess``; ``Store.plays_apart``): there the fold
sends those two facts with its note of the report (``Play``, ledger/projections/
history.py), and that process counts the play on the other core (``Totals``) and writes
each player's counters into his row at the end. No rule reads them (a player's seasons,
which a re-draft reads, stay with the fold), so nothing the fold decides waits for them.
Not where a ledger's leagues fold in shares: there the line process shares the other
core with a worker, and counting the play held both up (docs/performance-journal.md,
thirty-fifth session). Both ways the counting is done by the functions here, so the rows
are the same (tests/projections/test_history_apart.py rebuilds both ways and compares).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from ledger.domain.events import MatchRecorded, PlayerHired
from ledger.domain.state import PlayerRow, game_counts
from ledger.domain.values import Casualty, Performance
from ledger.projections.shapes import LineRow, equal, json_text, quoted, shape_of


class Caused(NamedTuple):
    """The casualties a player caused in one game."""

    earning_spp: int
    kills: int
    all: int


NONE_CAUSED = Caused(0, 0, 0)

Play = tuple[dict[str, int], tuple[bool, ...], frozenset[str]]
"""What the fold tells of a report it applied, for its records of play: the SPP each
player earned in it, whether each of its casualties earns its causer SPP (the edition's
say; False for one nobody caused), and the ids it names that no player of the books holds
(``MatchRows.strangers``: hirelings of the game, who have no counters)."""


def counted(match: MatchRecorded) -> bool:
    """Whether the game counts in its players' records (an exhibition, or a fixture left
    unplayed, does not: it still has its game lines)."""
    return match.kind not in ("exhibition", "unplayed")


def earning(
    casualties: Iterable[Casualty], earns_spp: Callable[[Casualty], bool]
) -> tuple[bool, ...]:
    """Whether each casualty earns its causer SPP, by ``earns_spp`` (the edition's
    ``casualty_earns_spp``), asked only of those somebody caused."""
    return tuple(c.inflicted_by is not None and earns_spp(c) for c in casualties)


def casualty_facts(
    casualties: Sequence[Casualty], earns: Sequence[bool]
) -> tuple[dict[str, Caused], dict[str, str]]:
    """What a game's ``casualties`` count for each player: those he caused (``earns``
    says which earn SPP: ``earning``), and his injury, the first casualty he suffered."""
    caused: dict[str, Caused] = {}
    injuries: dict[str, str] = {}
    for casualty, earned in zip(casualties, earns, strict=True):
        causer = casualty.inflicted_by
        if causer is not None:
            before = caused.get(causer, NONE_CAUSED)
            caused[causer] = Caused(
                before.earning_spp + earned, before.kills + casualty.killed, before.all + 1
            )
        injuries.setdefault(casualty.victim, casualty.outcome)
    return caused, injuries


def played(
    player: PlayerRow | Counters, performance: Performance, season: int | None, caused: Caused
) -> dict[str, Any]:
    """What one more game counts in ``player``: only the counters it adds to (most players
    of a game only play it, and a change of fewer fields costs less: a rebuild counts
    every player of every game)."""
    counts: dict[str, Any] = {"games": player.games + 1}
    if season and season not in player.seasons:
        counts["seasons"] = tuple(sorted({*player.seasons, season}))
    if performance.touchdowns or performance.completions or performance.interceptions:
        counts["touchdowns"] = player.touchdowns + performance.touchdowns
        counts["completions"] = player.completions + performance.completions
        counts["interceptions"] = player.interceptions + performance.interceptions
    if performance.mvps:
        counts["mvps"] = player.mvps + performance.mvps
    if caused is not NONE_CAUSED:
        counts["casualties"] = player.casualties + caused.earning_spp
        counts["casualties_all"] = player.casualties_all + caused.all
        counts["kills"] = player.kills + caused.kills
    return counts


def game_line(performance: Performance, caused: Caused, spp: int, injury: str) -> list[int | str]:
    """A player's game as his side's game line holds it (``GAME_COUNTS``)."""
    return game_counts(
        (
            performance.touchdowns,
            performance.completions,
            performance.interceptions,
            caused.earning_spp,
            caused.kills,
            performance.mvps,
            spp,
            injury,
        )
    )


def side_rows(
    league_id: str, match: MatchRecorded, sides: Mapping[str, dict[str, list[int | str]]]
) -> list[LineRow]:
    """Each side's game line, as its row (``TeamGameLine``'s fields in order: ``history_rows``
    says why); a side with no player of the books has none."""
    return [
        (league_id, team_id, match.seq, match.match, match.season, match.round, json_text(players))
        for team_id, players in sides.items()
        if players
    ]


@dataclass(slots=True)
class Counters:
    """One player's counters of play, as ``played`` reads and changes them (those of his
    ``PlayerRow``: tests/projections/test_plays.py checks their names and defaults)."""

    seasons: tuple[int, ...] = ()
    """Kept by the fold, not here (a re-draft reads them): ``played`` is given no season."""
    games: int = 0
    touchdowns: int = 0
    completions: int = 0
    interceptions: int = 0
    mvps: int = 0
    casualties: int = 0
    casualties_all: int = 0
    kills: int = 0


COUNTERS = tuple(field.name for field in fields(Counters) if field.name != "seasons")
"""A player's counters of play (``played`` adds to them): those a rebuild's line process
keeps, and writes into his row at the end."""


class Totals:
    """A rebuild's records of play, counted apart from the fold (the line process's side):
    each player's counters, added up game by game from the fold's notes, then written into
    his row, which the fold wrote with none."""

    def __init__(self) -> None:
        self.players: dict[tuple[str, str], Counters] = {}
        self.hirelings: dict[tuple[str, str, str], Counters] = {}
        """What each one-game player did, by league, match and hireling id: his counters
        if he is signed after it (``signed``)."""

    def count(self, league_id: str, match: MatchRecorded, play: Play) -> list[LineRow]:
        """Count the game of a report the fold applied, told by ``play``; its game lines'
        rows."""
        earned, earns, strangers = play
        caused, injuries = casualty_facts(match.casualties, earns)
        counts = counted(match)
        sides: dict[str, dict[str, list[int | str]]] = {}
        for sheet in match.sheets():
            side = sides.setdefault(sheet.team, {})  # one side a team, were it named twice
            for performance in sheet.players:
                player_id = performance.player
                made = caused.get(player_id, NONE_CAUSED)
                if player_id in strangers:  # a hireling of the game's: kept, were he signed
                    if counts:
                        key = (league_id, match.match, player_id)
                        self.hirelings[key] = one_game(performance, made)
                    continue
                if counts:
                    totals = self.players.get((league_id, player_id))
                    if totals is None:
                        totals = self.players[(league_id, player_id)] = Counters()
                    for name, value in played(totals, performance, None, made).items():
                        setattr(totals, name, value)
                side[player_id] = game_line(
                    performance, made, earned.get(player_id, 0), injuries.get(player_id, "")
                )
        return side_rows(league_id, match, sides)

    def signed(self, league_id: str, hired: PlayerHired) -> None:
        """A hireling signed after his game joins with what he did in it, as the fold's
        ``signed_hireling`` has him (one game, its counts)."""
        if hired.hireling is None or hired.from_match is None:
            return
        game = self.hirelings.pop((league_id, hired.from_match, hired.hireling), None)
        if game is not None:
            self.players[(league_id, hired.player)] = game

    def written(self) -> tuple[str, list[tuple[object, ...]]]:
        """The statement that writes every player's counters into his row, with its rows."""
        rows = [
            (*(getattr(totals, name) for name in COUNTERS), *key)
            for key, totals in self.players.items()
        ]
        return counters_statement(), rows


def one_game(performance: Performance, caused: Caused) -> Counters:
    """A player's counters after one game (a hireling signed after it starts with them)."""
    counters = Counters()
    for name, value in played(counters, performance, None, caused).items():
        setattr(counters, name, value)
    return counters


def counters_statement() -> str:
    """An ``UPDATE`` of a player's ``COUNTERS`` by his key (SQLite's placeholders)."""
    shape = shape_of(PlayerRow)
    columns = ", ".join(f"{quoted(name)} = ?" for name in COUNTERS)
    return f"UPDATE {quoted(shape.table)} SET {columns} WHERE {equal(PlayerRow.key, 'sqlite')}"
