"""Round robins, play-off qualification and knock-out brackets, as pure functions.

From seed 001, 'Regular Season' (each team plays each other team in its division once),
'Qualifying for the Play-offs' (qualifiers taken equally from all divisions, the best
third-placed teams when needed: "if there are three Divisions and eight teams qualify,
then the top two teams from each Division, plus the two best third-placed teams") and
'Play-offs' (no first-round pairing of two teams from the same division; semi-final
losers play for third place; "it is important to always have a winner in each round and
so every Play-off game will be played using the Extra Time and Penalties (if required)
rules", so only a play-off has a shoot-out, and only after a draw).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence

from ledger.domain.events import MatchRecorded
from ledger.domain.state import MatchRow
from ledger.domain.values import Division, Fixture
from ledger.errors import InvalidInput
from ledger.rules.problems import Problem

STAGES = {2: "final", 4: "semi-final", 8: "quarter-final", 16: "round-of-16", 32: "round-of-32"}


def slug(name: str) -> str:
    """A division's part of its fixtures' ids, which are ASCII (``Süd`` -> ``sud``): any
    other letter was kept, and the fixture's id refused inside the schedule."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    cleaned = "".join(ch if ch.isalnum() else "-" for ch in plain.lower()).strip("-")
    return cleaned or "league"


def round_robin(season: int, division: Division, legs: int = 1) -> list[Fixture]:
    """The circle method: every team meets every other once per leg, home and away
    swapped on the second leg (ZAL 6 plays a double round robin)."""
    teams: list[str | None] = list(division.teams)
    if len(teams) % 2:
        teams.append(None)  # a bye
    rounds = len(teams) - 1
    fixtures: list[Fixture] = []
    for leg in range(legs):
        order = list(teams)
        for r in range(rounds):
            number = leg * rounds + r + 1
            for i in range(len(order) // 2):
                home, away = order[i], order[-1 - i]
                if home is None or away is None:
                    continue
                if (r + leg) % 2:
                    home, away = away, home
                fixtures.append(
                    Fixture(
                        id=f"s{season}-{slug(division.name)}-r{number}-{len(fixtures) + 1}",
                        round=number,
                        division=division.name,
                        home=home,
                        away=away,
                    )
                )
            order = [order[0], order[-1], *order[1:-1]]
    return fixtures


def qualifiers(
    tables: dict[str, list[str]], places: int, better: Callable[[str], tuple[int, ...]]
) -> list[tuple[str, str, int]]:
    """(team, division, place in division) of the play-off teams.

    ``tables`` maps a division to its teams in finishing order; ``better`` gives a sort key
    (higher is better) used to pick the best of the next-placed teams across divisions.
    """
    per_division, extra = divmod(places, len(tables))
    chosen = [
        (team, name, place + 1)
        for name, order in tables.items()
        for place, team in enumerate(order[:per_division])
    ]
    next_placed = [
        (order[per_division], name, per_division + 1)
        for name, order in tables.items()
        if len(order) > per_division
    ]
    next_placed.sort(key=lambda entry: better(entry[0]), reverse=True)
    return chosen + next_placed[:extra]


def halves_to_a_final(teams: int) -> bool:
    """Whether a knock-out of ``teams`` halves each round to a final of two: a power of two
    (seed 001 'Qualifying for the Play-offs' recommends 4, 8 or 16; a Dungeon Bowl final
    takes any number). Three drew one tie and left the second seed out, then failed in
    the second round (an IndexError)."""
    return teams >= 2 and not teams & (teams - 1)


def first_round(
    season: int, seeded: Sequence[tuple[str, str, int]], better: Callable[[str], tuple[int, ...]]
) -> list[Fixture]:
    """Best against worst, with swaps so that no pairing is of one division.

    Seeding: division position first (division winners are kept apart for as long as
    possible, the rule's suggestion), then league points and tie-breakers.
    """
    order = sorted(seeded, key=lambda q: (q[2], tuple(-v for v in better(q[0]))))
    size = len(order)
    pairs = [[order[i], order[size - 1 - i]] for i in range(size // 2)]
    for i, pair in enumerate(pairs):
        if pair[0][1] != pair[1][1]:
            continue
        for other in pairs[i + 1 :] + pairs[:i]:
            if other[1][1] != pair[0][1] and other[0][1] != pair[1][1]:
                pair[1], other[1] = other[1], pair[1]
                break
    stage = STAGES.get(size, f"round-of-{size}")
    return [
        Fixture(
            id=f"s{season}-{stage}-{i + 1}",
            round=1,
            division="",
            home=home[0],
            away=away[0],
            stage=stage,
        )
        for i, (home, away) in enumerate(pairs)
    ]


def next_round(
    season: int, played: Sequence[Fixture], winners: dict[str, str], round_number: int
) -> list[Fixture]:
    """Winners of consecutive ties meet; after the semi-finals, the losers play for third."""
    size = len(played)
    stage = STAGES.get(size, f"round-of-{size}")
    fixtures = []
    for i in range(0, size, 2):
        first, second = played[i], played[i + 1]
        fixtures.append(
            Fixture(
                id=f"s{season}-{stage}-{i // 2 + 1}",
                round=round_number,
                division="",
                home=winners[first.id],
                away=winners[second.id],
                stage=stage,
            )
        )
    if size == 2:
        losers = [loser(f, winners[f.id]) for f in played]
        fixtures.append(
            Fixture(
                id=f"s{season}-third-place",
                round=round_number,
                division="",
                home=losers[0],
                away=losers[1],
                stage="third-place",
            )
        )
    return fixtures


def winner_sentence(match: MatchRecorded) -> str | None:
    """A report's ``winner`` is one of its teams. A game of more than two teams (a Dungeon
    Bowl final) names it, a play-off always; a game of two is won by its score, after its
    shoot-out, or by the side that did not concede, and a winner given must be that one
    (a stray ``winner`` was crowned over the score: its champion paid the prize)."""
    teams = [s.team for s in match.sheets()]
    if match.winner is not None and match.winner not in teams:
        return (
            f"the winner given for {match.match}, {match.winner}, did not play in it"
            f" (its teams: {', '.join(teams)})"
        )
    if match.others:
        if match.kind == "playoff" and match.winner is None:
            return f"{match.match} is a play-off of {len(teams)} teams: name its winner"
        return None
    if match.winner is None or match.winner == decided_winner(match):
        return None
    home, away = match.home, match.away
    return (
        f"{match.match} ended {home.team} {home.touchdowns}-{away.touchdowns} {away.team}:"
        f" its winner is the one its score, shoot-out or concession decides, not"
        f" {match.winner}; leave the winner out"
    )


def decided_winner(match: MatchRecorded) -> str | None:
    """The winner of a game of two: the side that did not concede, else the score's, else
    the shoot-out's; None for a draw."""
    home, away = match.home, match.away
    if match.concession is not None and match.concession.team in (home.team, away.team):
        return away.team if match.concession.team == home.team else home.team
    if home.touchdowns != away.touchdowns:
        return home.team if home.touchdowns > away.touchdowns else away.team
    shootout = match.shootout
    if shootout is not None and shootout.penalties_home != shootout.penalties_away:
        return home.team if shootout.penalties_home > shootout.penalties_away else away.team
    return None


def loser(fixture: Fixture, winner: str) -> str:
    return fixture.away if winner == fixture.home else fixture.home


def played_final(matches: Iterable[MatchRow]) -> MatchRow | None:
    """The season's final once it is played (the last, should a season hold two)."""
    finals = [m for m in matches if m.stage == "final" and m.status == "played"]
    return finals[-1] if finals else None


def shootout_problems(match: MatchRecorded) -> list[Problem]:
    """A play-off has a winner, after extra time and penalties when level; a shoot-out
    follows only a level play-off ('Play-offs'). Every edition's play-offs are knock-outs
    drawn by the ledger, so this holds in each. A multi-team match names its ``winner``."""
    sentence = shootout_sentence(match)
    return [Problem(InvalidInput, sentence)] if sentence else []


def shootout_sentence(match: MatchRecorded) -> str | None:
    if said := winner_sentence(match):
        return said
    home, away, shootout = match.home.touchdowns, match.away.touchdowns, match.shootout
    if shootout is not None and match.kind != "playoff":
        return (
            f"only a play-off goes to extra time and penalties: {match.match} is a"
            f" {match.kind} match; leave out its shootout"
        )
    if match.kind != "playoff" or match.others or match.winner is not None:
        return None
    if shootout is not None and home != away:
        return f"{match.match} ended {home}-{away}: a shoot-out follows only a draw"
    if home == away and shootout is None:
        return (
            f"a play-off needs a winner, and {match.match} ended {home}-{away}: give the"
            " penalties each side scored in the shoot-out after extra time"
        )
    if shootout is not None and shootout.penalties_home == shootout.penalties_away:
        return (
            f"a play-off needs a winner, and the shoot-out of {match.match} is level at"
            f" {shootout.penalties_home}-{shootout.penalties_away}: give the penalties until"
            " one side leads"
        )
    return None
