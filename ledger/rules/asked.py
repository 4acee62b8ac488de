"""What a caller asks a ruleset about: one small typed value per question.

The seam (``protocol.py``) has one question per kind of answer - ``problems``,
``dice_needed``, ``outcomes``, ``price``, ``value`` - and the thing asked about says which
rule answers: ``ruleset.problems(Firing(team, players, player))`` is BB2025's "never below
11 players", ``ruleset.outcomes(Report(match, rows), dice)`` the post-game sequence of a
match. ``BaseRuleset`` looks the rule up by the value's type in one table per question
(``hooks.py``), each row naming the hook an edition overrides; mypy checks that a value
carries what its hook reads, and a test that every value here has its row.

Worked example: ``BB2025().price(Sideline(team, "reroll", 1))`` of a team that has played
is 2 x its list's re-roll cost (re-rolls cost double after the draft); the same team
asked about ``Releasing(team, "reroll")`` gets ``[Problem(NotAllowed, ...)]``: re-rolls
stay on the roster once drafted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ledger.domain.events import (
    CardPlayed,
    MatchRecorded,
    PlayerAdvanced,
    PlayerHired,
    PostGameClosed,
    SeasonClosed,
    TeamRedrafted,
)
from ledger.domain.immutable import immutable
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import Casualty, DiceRoll, Division
from ledger.rules.rows import HireRows, MatchRows, RedraftRows, SeasonRows, TeamRows

# --- building a team ---------------------------------------------------------------------


@immutable
class Hiring:
    """A hire (the event it would record) and what it meets: its problems, its price."""

    event: PlayerHired
    rows: HireRows


@immutable
class Firing:
    team: TeamRow
    players: Sequence[PlayerRow]
    player: PlayerRow


@immutable
class Buying:
    """A purchase of ``count`` of a sideline item; ``players`` the team's roster, which an
    edition's purchase rules may read (gold4: no free re-roll with allies)."""

    team: TeamRow
    players: Sequence[PlayerRow]
    item: str
    count: int


@immutable
class Sideline:
    """The price of ``count`` of a sideline item for the team as it stands."""

    team: TeamRow
    item: str
    count: int


@immutable
class Releasing:
    team: TeamRow
    item: str
    count: int = 1


@immutable
class Advancing:
    player: PlayerRow
    team: TeamRow
    event: PlayerAdvanced


# --- matches and the post-game sequence ----------------------------------------------------


@immutable
class Report:
    """A match report (recorded, or the draft of one) and the rows it meets: its problems,
    the dice its post-game sequence needs, its outcomes."""

    match: MatchRecorded
    rows: MatchRows


@immutable
class Card:
    """A special play card played (ZAL) and the rows it meets: its dice, its outcomes."""

    event: CardPlayed
    rows: MatchRows


@immutable
class Closing:
    """A team about to close its post-game sequence (whether it may: BB2025 spends its
    SPP first)."""

    team: TeamRow
    players: Sequence[PlayerRow]


@immutable
class CloseRolls:
    """The dice a team's close needs, given the rolls known so far (a roll may call for
    another: a D6, then the D3)."""

    team: TeamRow
    rolls: tuple[DiceRoll, ...]


@immutable
class Closed:
    event: PostGameClosed
    team: TeamRow


@immutable
class Appearance:
    """A player's appearance fee for one game (gold4)."""

    player: PlayerRow


@immutable
class Inducing:
    """Inducements a team asks for before a fixture, by item and count (each within the
    edition's offer): the rules that hold across items (BB2025: at most two Star Players)."""

    team: TeamRow
    wanted: Mapping[str, int]


@immutable
class Lineup:
    """A team as it goes into a game: its game value (CTV with the Journeymen it must
    take in BB2025), which inducements are bought by."""

    team: TeamRow
    players: Sequence[PlayerRow]


# --- re-drafts and seasons -------------------------------------------------------------------


@immutable
class Redrafting:
    """A team about to re-draft: the dice its re-draft needs."""

    team: TeamRow
    players: Sequence[PlayerRow]


@immutable
class Rehiring:
    """A player kept through a re-draft for ``season``: what re-hiring him costs."""

    player: PlayerRow
    season: int


@immutable
class Redrafted:
    event: TeamRedrafted
    rows: RedraftRows


@immutable
class SeasonPlan:
    """A season about to start: its divisions and play-off places, and its teams as the
    command finds them (none in a what-if replay: its teams started under the league's own
    edition, which let them)."""

    divisions: Sequence[Division]
    playoff_teams: int
    teams: Sequence[TeamRows] = ()


@immutable
class SeasonEnded:
    event: SeasonClosed
    rows: SeasonRows


Decision = (
    Hiring
    | Firing
    | Buying
    | Releasing
    | Advancing
    | Report
    | Casualty
    | Closing
    | Inducing
    | SeasonPlan
)
"""What ``Ruleset.problems`` judges; a casualty is asked about as it is reported."""

Rolled = Report | Card | CloseRolls | Redrafting
"""What ``Ruleset.dice_needed`` answers for."""

Happened = Report | Card | Closed | Redrafted | SeasonEnded
"""What ``Ruleset.outcomes`` turns into effects."""

Priced = Hiring | Sideline | Rehiring | Appearance
"""What ``Ruleset.price`` prices."""

Valued = PlayerRow | Lineup
"""What ``Ruleset.value`` values: a player on the roster, a team going into a game."""
