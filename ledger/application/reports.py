"""The match report file a commissioner writes (YAML or JSON), checked for shape.

Players are named the way people name them: by name, by ``#number`` or by ledger id.
Dice are a mapping from purpose to value(s); any roll the league's ruleset needs and the
file leaves out is either rolled by the ledger (and recorded as such) or refused, as the
commissioner chooses. docs/match-report.md documents the format with examples.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ledger.domain.values import CasualtyCause, Concession, Hireling, Shootout
from ledger.errors import MalformedReport

DiceEntry = int | list[int] | dict[str, int | list[int]]


class Input(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class PlayerLine(Input):
    player: str
    touchdowns: int = Field(default=0, ge=0, alias="td")
    completions: int = Field(default=0, ge=0, alias="comp")
    interceptions: int = Field(default=0, ge=0, alias="int")
    deflections: int = Field(default=0, ge=0)
    superb_throws: int = Field(default=0, ge=0)
    throws: int = Field(default=0, ge=0)
    landings: int = Field(default=0, ge=0)
    mvps: int = Field(default=0, ge=0, alias="mvp")
    sent_off: bool = False
    stalling: bool = False


class SideReport(Input):
    team: str
    touchdowns: int | None = Field(default=None, ge=0)
    stalled: bool = False
    """Shorthand: some player of the team was deemed stalling."""
    players: tuple[PlayerLine, ...] = ()
    hirelings: tuple[Hireling, ...] = ()
    dice: dict[str, DiceEntry] = {}


class CasualtyLine(Input):
    victim: str
    by: str | None = None
    cause: CasualtyCause = "block"
    roll: int | None = None
    """The casualty roll (BB2020: the D16)."""
    lasting: int | None = None
    """The lasting injury roll (BB2020: the D6)."""
    dice: dict[str, int | list[int]] = {}
    outcome: str | None = None
    effects: tuple[str, ...] = ()
    recovered: bool = False


class MatchReport(Input):
    match: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.:-]+$")
    season: int | None = Field(default=None, ge=1)
    round: int | None = Field(default=None, ge=1)
    kind: Literal["league", "playoff", "friendly", "exhibition", "unplayed"] = "league"
    played_on: str | None = None
    weather: str | None = None
    referee: str | None = None
    home: SideReport
    away: SideReport
    others: tuple[SideReport, ...] = ()
    winner: str | None = None
    casualties: tuple[CasualtyLine, ...] = ()
    concession: Concession | None = None
    shootout: Shootout | None = None
    dice: dict[str, DiceEntry] = {}


def read_report(path: Path) -> MatchReport:
    """Load and check a report file; any problem is one ``MalformedReport`` line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise MalformedReport(f"cannot read {path}: {error.strerror}") from None
    return parse_report(text, str(path))


def parse_report(text: str, where: str = "report") -> MatchReport:
    try:
        data: Any = json.loads(text) if text.lstrip().startswith("{") else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as error:
        first = str(error).splitlines()[0]
        raise MalformedReport(f"{where} is not valid YAML or JSON: {first}") from None
    if not isinstance(data, dict):
        raise MalformedReport(f"{where} must be a mapping with 'home' and 'away' teams")
    try:
        return MatchReport.model_validate(data)
    except ValidationError as error:
        problem = error.errors()[0]
        place = ".".join(str(p) for p in problem["loc"])
        raise MalformedReport(f"{where}: {place}: {problem['msg']}") from None
