"""The match report file a commissioner writes (YAML or JSON), checked for shape.

Players are named the way people name them: by name, by ``#number`` or by ledger id.
Dice are a mapping from purpose to value(s); any roll the league's ruleset needs and the
file leaves out is either rolled by the ledger (and recorded as such) or refused, as the
commissioner chooses. docs/match-report.md documents the format with examples.

The file is held to the domain's bounds before anything else looks at it: at most
1 MiB, UTF-8, numbers strictly numbers and within their bounds, names and free text of
bounded length, and ``played_on`` an ISO date. Every problem is one ``MalformedReport``
line naming the place.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
)

from ledger.domain.values import (
    MAX_COUNT,
    CasualtyCause,
    Concession,
    Count,
    Die,
    Hireling,
    IsoDate,
    MatchId,
    Name,
    Number,
    Ref,
    Shootout,
    Text,
    validation_problems,
)
from ledger.errors import MalformedReport, did_you_mean

MAX_REPORT_BYTES = 1024 * 1024

Dice = Die | Annotated[list[Die], Field(max_length=99)]
DiceEntry = Dice | dict[Name, Dice]


class Input(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class PlayerLine(Input):
    player: Name
    touchdowns: Count = Field(default=0, alias="td")
    completions: Count = Field(default=0, alias="comp")
    interceptions: Count = Field(default=0, alias="int")
    deflections: Count = 0
    superb_throws: Count = 0
    throws: Count = 0
    landings: Count = 0
    mvps: Count = Field(default=0, alias="mvp")
    sent_off: StrictBool = False
    stalling: StrictBool = False


class SideReport(Input):
    team: Ref
    touchdowns: Count | None = None
    stalled: StrictBool = False
    """Shorthand: some player of the team was deemed stalling."""
    players: tuple[PlayerLine, ...] = Field(default=(), max_length=MAX_COUNT)
    hirelings: tuple[Hireling, ...] = Field(default=(), max_length=MAX_COUNT)
    dice: dict[Ref, DiceEntry] = Field(default={}, max_length=MAX_COUNT)


class CasualtyLine(Input):
    victim: Name
    by: Name | None = None
    cause: CasualtyCause = "block"
    roll: Die | None = None
    """The casualty roll (BB2025: the D16)."""
    lasting: Die | None = None
    """The lasting injury roll (BB2025: the D6)."""
    dice: dict[Ref, Dice] = Field(default={}, max_length=MAX_COUNT)
    outcome: Ref | None = None
    effects: tuple[Ref, ...] = Field(default=(), max_length=MAX_COUNT)
    recovered: StrictBool = False


class MatchReport(Input):
    match: MatchId | None = None
    season: Number | None = None
    round: Number | None = None
    kind: Literal["league", "playoff", "friendly", "exhibition", "unplayed"] = "league"
    played_on: IsoDate | None = None
    weather: Text | None = None
    referee: Text | None = None
    home: SideReport
    away: SideReport
    others: tuple[SideReport, ...] = Field(default=(), max_length=MAX_COUNT)
    winner: Ref | None = None
    casualties: tuple[CasualtyLine, ...] = Field(default=(), max_length=2 * MAX_COUNT)
    concession: Concession | None = None
    shootout: Shootout | None = None
    dice: dict[Ref, DiceEntry] = Field(default={}, max_length=MAX_COUNT)


class ReportLoader(yaml.SafeLoader):
    """YAML as a report needs it: dates stay text, so ``played_on: 2026-11-16`` is read
    like ``"2026-11-16"`` and an impossible date (2026-02-30) is refused by the model
    with the place named, rather than failing inside the YAML parser."""


def mapping_once(loader: ReportLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    """A mapping whose keys are each given once: a second ``match:`` would silently win
    over the first (YAML's own loader keeps the last)."""
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        try:
            given = key in seen
        except TypeError:  # unhashable: YAML's own check below refuses it
            continue
        if given:
            raise yaml.constructor.ConstructorError(
                None, None, f"'{key}' is given twice", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node)


ReportLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping_once)
ReportLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def read_report(path: Path) -> MatchReport:
    """Load and check a report file; any problem is one ``MalformedReport`` line."""
    return parse_report(report_text(path), str(path))


def report_text(path: Path) -> str:
    """The file's text, read at most one byte past the limit: a device or a huge file
    is refused without being read whole."""
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_REPORT_BYTES + 1)
    except OSError as error:
        raise MalformedReport(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_REPORT_BYTES:
        raise MalformedReport(f"{path} is larger than 1 MiB: a match report is a few KiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MalformedReport(
            f"{path} is not UTF-8 text (byte {data[error.start]:#04x} at {error.start})"
        ) from None


def parse_report(text: str, where: str = "report") -> MatchReport:
    if len(text.encode("utf-8", errors="replace")) > MAX_REPORT_BYTES:
        raise MalformedReport(f"{where} is larger than 1 MiB: a match report is a few KiB")
    data = loaded(text, where)
    if not isinstance(data, dict):
        raise MalformedReport(f"{where} must be a mapping with 'home' and 'away' teams")
    try:
        return MatchReport.model_validate(data)
    except ValidationError as error:
        said = validation_problems(error, lambda problem: closest_field(problem, MatchReport))
        raise MalformedReport(f"{where}: {said}") from None
    except RecursionError:
        raise MalformedReport(f"{where} is nested too deeply to be a match report") from None


def closest_field(problem: Mapping[str, Any], root: type[BaseModel]) -> str:
    """For a field no report has (``playedon``, ``TD``): the one meant, as the file
    writes it (``played_on``, ``td``), when one is close; else the fields there are."""
    if problem["type"] != "extra_forbidden":
        return ""
    *path, given = problem["loc"]
    model = model_at(root, path)
    if model is None:
        return ""
    known = [info.alias or name for name, info in model.model_fields.items()]
    closest = did_you_mean(str(given), known)
    return f" (did you mean '{closest}'?)" if closest else f" (fields: {', '.join(known)})"


def model_at(root: type[BaseModel], path: Sequence[int | str]) -> type[BaseModel] | None:
    """The model a validation error's place is in: each field's type followed, a list's
    index or a mapping's key stepping into its items."""
    current: Any = root
    for part in path:
        current = unwrapped(current)
        if isinstance(current, type) and issubclass(current, BaseModel):
            fields = current.model_fields
            name = (
                part
                if part in fields
                else next((n for n, info in fields.items() if info.alias == part), None)
            )
            if not isinstance(name, str):
                return None
            current = fields[name].annotation
        elif get_origin(current) in (list, tuple, dict):
            current = get_args(current)[-1 if get_origin(current) is dict else 0]
        else:
            return None
    current = unwrapped(current)
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def unwrapped(kind: Any) -> Any:
    """``Annotated[X, ...]`` and ``X | None`` as ``X`` (a union's model, if it has one)."""
    while True:
        origin = get_origin(kind)
        if origin is Annotated:
            kind = get_args(kind)[0]
        elif origin in (Union, UnionType):
            members = [a for a in get_args(kind) if a is not type(None)]
            models = [a for a in members if isinstance(a, type) and issubclass(a, BaseModel)]
            kind = (models or members)[0]
        else:
            return kind


def syntax(error: json.JSONDecodeError | yaml.YAMLError) -> str:
    """What is wrong, and where: YAML's own first line ('while parsing a block mapping')
    names neither the line nor what it found there."""
    mark = getattr(error, "problem_mark", None)
    problem = getattr(error, "problem", None)
    if mark is not None and problem:
        return f"line {mark.line + 1}, column {mark.column + 1}: {problem}"
    return str(error).splitlines()[0]


def loaded(text: str, where: str) -> Any:
    try:
        if text.lstrip().startswith("{"):
            return json.loads(text)
        return yaml.load(text, Loader=ReportLoader)  # a SafeLoader
    except (json.JSONDecodeError, yaml.YAMLError) as error:
        raise MalformedReport(f"{where} is not valid YAML or JSON: {syntax(error)}") from None
    except RecursionError:
        raise MalformedReport(f"{where} is nested too deeply to be a match report") from None
