"""What ``ledger match show`` prints and ``--json`` gives: one match as the books hold it
(built by ledger/reports/match_sheet.py)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

OTHER_ACHIEVEMENTS = (
    ("deflections", "deflection"),
    ("superb_throws", "superb throw"),
    ("throws", "throw"),
    ("landings", "landing"),
)
"""A report's achievements beside a game line's counts (field, name), listed as "other" by
``ledger match show`` and the match page: BB2025 pays SPP for superb throws and landings,
BB2020 for deflections."""


class Sheet(BaseModel):
    model_config = ConfigDict(frozen=True)


class Die(Sheet):
    purpose: str
    dice: str
    values: tuple[int, ...]
    subject: str | None = None
    """The team or player the roll is for, by id (None: the match's)."""
    subject_name: str | None = None
    """The same by name, as the sheet shows it."""
    source: str
    """``table``: rolled at the table and entered; ``ledger``: rolled by the ledger."""
    step: str
    """``report`` (the match report's dice), ``casualty`` or ``close`` (a post-game close)."""


class PlayerSheet(Sheet):
    player_id: str
    name: str
    team: str
    touchdowns: int = 0
    completions: int = 0
    interceptions: int = 0
    deflections: int = 0
    superb_throws: int = 0
    throws: int = 0
    landings: int = 0
    casualties: int = 0
    """Casualties that earned SPP, as the ruleset counts them."""
    mvps: int = 0
    sent_off: bool = False
    spp: int | None = None
    """SPP the ruleset awarded for the game (None: the report is voided)."""
    injury: str = ""
    hireling: str | None = None
    """``journeyman``, ``mercenary`` or ``star`` for a one-game player of the report (None: a
    player of the roster). His SPP are the fold's for him on the match's row: they stay
    with him, and join the roster only if the team signs him after the game."""
    position: str = ""
    """A hireling's position (or star) by the name the edition's books print."""


class CasualtySheet(Sheet):
    victim: str
    victim_name: str
    by: str | None = None
    by_name: str | None = None
    cause: str
    outcome: str
    effects: tuple[str, ...] = ()
    recovered: bool = False
    dice: list[Die] = []


class Money(Sheet):
    seq: int
    kind: str
    amount: int
    note: str = ""


class SideSheet(Sheet):
    team_id: str
    name: str
    touchdowns: int
    gold: list[Money] = []
    """Treasury movements of the report and of the team's post-game close."""
    fans_before: int | None = None
    """None when it cannot be read (bought fans since the team's last milestone)."""
    fans_after: int | None = None
    closed_seq: int | None = None


class CorrectionSheet(Sheet):
    seq: int
    target: int | None = None
    """The event it voids or amends: the report, or one of its closes."""
    summary: str
    by: str
    at: str
    reason: str | None = None


class MatchSheet(Sheet):
    match_id: str
    status: str
    """``played``, ``voided`` (its report voided and not recorded again) or ``scheduled``."""
    kind: str
    season: int | None = None
    round: int | None = None
    stage: str = ""
    recorded_seq: int | None = None
    recorded_by: str | None = None
    recorded_at: str | None = None
    played_on: str | None = None
    weather: str | None = None
    referee: str | None = None
    winner: str | None = None
    conceded_by: str | None = None
    closes: bool = True
    """Whether the edition has each team close the game's post-game sequence (its sides'
    ``closed_seq``); gold4, LRB6 and 3rd edition teams close nothing."""
    sides: list[SideSheet] = []
    players: list[PlayerSheet] = []
    casualties: list[CasualtySheet] = []
    dice: list[Die] = []
    """Every die of the report and of its closes, entered or rolled by the ledger."""
    corrections: list[CorrectionSheet] = []

    @property
    def rolled(self) -> list[Die]:
        """The dice the ledger rolled (``--roll``)."""
        return [d for d in self.dice if d.source == "ledger"]
