"""Fuzzing the edges: match reports, import files and command lines made hostile.

Hypothesis mutates a valid match report, a valid export and valid command lines with
what people and scripts get wrong or try on purpose: numbers past any bound (2^63,
10^20), ``true`` and ``"5"`` for numbers, floats, NaN, odd and endless unicode, deep
nesting, keys missing and extra, re-hashed forged events, undecodable arguments. For
each input the ledger must answer without a traceback (an exception escaping
``cli.main.main`` fails the test), exit 0, 1 or 2, and when it refuses, print one
``error[...]`` line (or click's usage error) and store nothing. When it accepts, the
ledger must still open and answer.

Bounded for CI (well under two minutes on two cores): the examples are derandomized under
CI, so a run is reproducible; ``LEDGER_FUZZ_EXAMPLES=500`` runs longer campaigns locally.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.domain.events import content_hash
from tests.cli.test_bad_input import LEAGUE_SCRIPT, Outcome, run_ledger, stored_events

SCALE = int(os.environ.get("LEDGER_FUZZ_EXAMPLES", "0")) or None


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=SCALE or examples,
        deadline=None,
        derandomize=bool(os.environ.get("CI")),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# --- the ledger the fuzzing starts from -------------------------------------------------

FIXTURE_REPORT: dict[str, Any] = {
    "match": "g1",
    "played_on": "2026-11-16",
    "weather": "nice",
    "home": {
        "team": "reavers",
        "touchdowns": 1,
        "players": [{"player": "Human 1", "td": 1, "mvp": 1}, {"player": "#2", "comp": 1}],
        "dice": {"fan_factor": 2, "dedicated_fans": 4},
    },
    "away": {
        "team": "rats",
        "players": [{"player": "Skweek", "mvp": 1}],
        "dice": {"fan_factor": 1, "dedicated_fans": 3},
    },
    "casualties": [{"victim": "Human 3", "by": "Skweek", "roll": 9}],
}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz")
    script = folder / "setup.ledger"
    script.write_text(LEAGUE_SCRIPT)
    db = folder / "owl.db"
    assert run_ledger(db, "run", str(script)).code == 0
    report = folder / "g0.json"
    report.write_text(json.dumps({**FIXTURE_REPORT, "match": "g0", "casualties": []}))
    done = run_ledger(db, "match", "record", str(report))
    assert done.code == 0, done.err  # the fixture report is valid as it stands
    assert run_ledger(db, "match", "close", "g0", "--roll").code == 0
    return db


@pytest.fixture(scope="module")
def backup(template: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The template league exported, one parsed line per element."""
    out = tmp_path_factory.mktemp("backup") / "owl.jsonl"
    assert run_ledger(template, "export", "--out", str(out)).code == 0
    return [json.loads(line) for line in out.read_text().splitlines()]


@contextlib.contextmanager
def fresh_copy(template: Path) -> Iterator[Path]:
    """A copy of the template ledger in a folder of its own, which is also the working
    directory (so a fuzzed relative path lands there and nowhere else)."""
    with tempfile.TemporaryDirectory(prefix="ledger-fuzz-") as folder:
        db = Path(folder) / "owl.db"
        db.write_bytes(template.read_bytes())
        with contextlib.chdir(folder):
            yield db


def answered_properly(db: Path, done: Outcome, before: int) -> None:
    """The contract at the edge: an allowed exit code; a refusal is one error line (a
    usage error too) and writes nothing; an acceptance leaves a working ledger."""
    assert done.code in (0, 1, 2), (done.code, done.err)
    assert "Traceback" not in done.err
    if done.code == 0:
        if stored_events(db) > 0:
            still = run_ledger(db, "standings")
            assert still.code == 0 or still.error_line.startswith("error["), still.err
        return
    assert stored_events(db) == before, "a refused input wrote events"
    lines = done.err.strip().splitlines()
    assert len(lines) == 1, done.err
    assert lines[0].startswith("error["), lines[0]


# --- hostile values -----------------------------------------------------------------------

DEEP = "<<deep>>"
"""Stands for a nesting thousands of levels deep, written into the text after dumping
(a YAML or JSON library would itself recurse too deep to write it)."""

big_numbers = st.sampled_from(
    [2**63, 2**63 - 1, -(2**63) - 1, 2**64, 10**20, -(10**20), 51, 100_000_001, -1, 0]
)
odd_text = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", " ", "\t", "\u200b", "\u202e", "#", "*", "&a", "null", "~", "yes"]),
    st.builds(lambda c, n: c * n, st.characters(), st.sampled_from([65, 101, 1001, 5000])),
)
hostile = st.one_of(
    st.integers(-100, 100),
    big_numbers,
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True, allow_infinity=True),
    odd_text,
    st.just(DEEP),
    st.lists(st.integers(-3, 20), max_size=4),
    st.dictionaries(st.text(max_size=6), st.integers(0, 9), max_size=3),
)


def places(data: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside ``data`` (the root is the empty path)."""
    yield here
    children = (
        data.items()
        if isinstance(data, dict)
        else enumerate(data)
        if isinstance(data, list)
        else ()
    )
    for key, value in children:
        yield from places(value, (*here, key))


def container_at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


@st.composite
def mutated(draw: st.DrawFn, original: Any) -> Any:
    """``original`` with one to three values replaced, removed or added."""
    data = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(places(data))))
        action = draw(st.sampled_from(["replace", "remove", "add"]))
        if not path:
            action = "add"
        if action == "add":
            target = container_at(data, path)
            if isinstance(target, dict):
                target[draw(st.one_of(st.text(max_size=8), st.sampled_from(["td", "extra"])))] = (
                    draw(hostile)
                )
            elif isinstance(target, list):
                target.append(draw(hostile))
            continue
        parent = container_at(data, path[:-1])
        if action == "remove":
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(hostile)
    return data


# --- match reports ------------------------------------------------------------------------


def as_text(data: Any, form: str) -> str:
    if form == "yaml":
        try:
            text = yaml.safe_dump(data, allow_unicode=True, default_flow_style=None)
        except yaml.YAMLError:
            form = "json"
    if form == "json":
        text = json.dumps(data, ensure_ascii=False, allow_nan=True)
    return text.replace(f'"{DEEP}"', "[" * 3000 + "]" * 3000).replace(DEEP, "[" * 3000 + "]" * 3000)


@st.composite
def report_files(draw: st.DrawFn) -> bytes:
    data = draw(mutated(FIXTURE_REPORT))
    text = as_text(data, draw(st.sampled_from(["yaml", "json"])))
    raw = text.encode("utf-8", errors="surrogateescape")
    damage = draw(st.sampled_from(["none", "none", "truncate", "bytes"]))
    if damage == "truncate":
        raw = raw[: draw(st.integers(0, len(raw)))]
    elif damage == "bytes":
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.binary(min_size=1, max_size=8)) + raw[at:]
    return raw


@fuzz(120)
@given(raw=report_files(), roll=st.booleans())
def test_a_fuzzed_match_report_is_recorded_or_refused_in_one_line(
    template: Path, raw: bytes, roll: bool
) -> None:
    with fresh_copy(template) as db:
        report = db.parent / "game.yaml"
        report.write_bytes(raw)
        before = stored_events(db)
        done = run_ledger(db, "match", "record", str(report), *(["--roll"] if roll else []))
        answered_properly(db, done, before)


# --- import files -------------------------------------------------------------------------


def rehashed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chain made whole again over edited events, as a forger would: only the
    content check stands between such a file and the store."""
    previous = "0" * 64
    for row in rows:
        event = row.get("event")
        if not isinstance(event, dict):
            continue
        event["prev_hash"] = previous
        try:
            event["hash"] = content_hash(str(row.get("topic")), event)
        except TypeError:  # orjson cannot write it: left as it is, the chain breaks there
            continue
        previous = event["hash"]
    return rows


@st.composite
def import_files(draw: st.DrawFn, lines: list[dict[str, Any]]) -> bytes:
    header, rows = copy.deepcopy(lines[0]), copy.deepcopy(lines[1:])
    change = draw(st.sampled_from(["event", "event", "topic", "order", "header"]))
    if change == "event":
        at = draw(st.integers(0, len(rows) - 1))
        rows[at] = {**rows[at], "event": draw(mutated(rows[at]["event"]))}
    elif change == "topic":
        at = draw(st.integers(0, len(rows) - 1))
        rows[at]["topic"] = draw(
            st.one_of(
                odd_text,
                st.sampled_from(["this:s", "os:system", "ledger.domain.events:LedgerEvent"]),
            )
        )
    elif change == "order":
        at = draw(st.integers(0, len(rows) - 1))
        rows.insert(
            draw(st.integers(0, len(rows))), rows.pop(at) if draw(st.booleans()) else rows[at]
        )
    else:
        header = draw(mutated(header))
    if draw(st.booleans()):
        rows = rehashed(rows)
        if isinstance(header, dict):
            header.update(events=len(rows), last_hash=rows[-1].get("event", {}).get("hash", ""))
    body = [json.dumps(line, ensure_ascii=False, allow_nan=True) for line in (header, *rows)]
    return (
        "\n".join(body)
        .replace(json.dumps(DEEP), "[" * 3000 + "]" * 3000)
        .encode("utf-8", errors="surrogateescape")
    )


def test_the_unmutated_backup_imports(backup: list[dict[str, Any]], tmp_path: Path) -> None:
    """The fuzzing below starts from a file that imports as it stands."""
    file = tmp_path / "owl.jsonl"
    file.write_text("\n".join(json.dumps(line) for line in backup) + "\n")
    done = run_ledger(tmp_path / "restored.db", "import", str(file))
    assert done.code == 0, done.err


@fuzz(60)
@given(data=st.data())
def test_a_fuzzed_import_file_is_restored_or_refused_whole(
    backup: list[dict[str, Any]], data: st.DataObject
) -> None:
    raw = data.draw(import_files(backup))
    with tempfile.TemporaryDirectory(prefix="ledger-fuzz-") as folder:
        file, db = Path(folder) / "owl.jsonl", Path(folder) / "restored.db"
        file.write_bytes(raw)
        done = run_ledger(db, "import", str(file))
        answered_properly(db, done, 0)
        if done.code != 0:
            assert not db.exists(), "a refused import left a ledger file"
            return
        for command in (("audit", "verify"), ("standings",), ("roster", "reavers")):
            after = run_ledger(db, *command)
            assert after.code == 0, (command, after.err)


# --- command lines ------------------------------------------------------------------------

arg_text = st.one_of(
    st.text(st.characters(blacklist_characters="\x00"), max_size=16),
    st.sampled_from(["", " ", "-", "--json", "reavers", "rats", "Human 1", "Skweek", "\udcff"]),
    st.builds(lambda n: "x" * n, st.sampled_from([65, 101, 1001, 100_000])),
)
arg_number = st.one_of(
    st.integers(-5, 100).map(str),
    big_numbers.map(str),
    st.sampled_from(["1.5", "true", "1e3", "0x10"]),
)
arg_path = st.one_of(
    st.text(st.characters(whitelist_categories=["Ll", "Nd"]), min_size=1, max_size=12),
    st.sampled_from(
        [".", "", "missing/out.html", "r" * 300 + ".html", "out.csv", "out.zip", "o.md"]
    ),
)


def slot(
    plausible: list[str], hostile: st.SearchStrategy[str] = arg_text
) -> Callable[[st.DrawFn], str]:
    """An argument that is more often one a commissioner would type than a hostile one,
    so that commands get past their first check and reach the store."""
    typed = st.sampled_from(plausible)
    chosen = st.one_of(typed, typed, typed, hostile)  # three in four typed as meant
    return lambda draw: draw(chosen)


TEAM = slot(["reavers", "rats"])
PLAYER = slot(["Human 1", "#2", "Skweek", "p3"])
POSITION = slot(["lineman", "blitzer", "gutter_runner"])
ITEM = slot(["reroll", "apothecary", "assistant_coach", "cheerleader"])
NAME = slot(["Otto", "Grim Gutter", "Ælfric"])
REASON = slot(["a fine", "award"])
NUMBER = slot(["1", "2", "3", "6"], arg_number)
AMOUNT = slot(["10000", "-5000"], arg_number)
DIE = slot(["characteristic=5", "skill=3,5", "bankruptcy=4"])
PATH = slot(["out.html", "backup.jsonl", "out.csv"], arg_path)
T = slot(["x"])

COMMAND_LINES: list[tuple[Any, ...]] = [
    (
        "team",
        "register",
        slot(["elves"]),
        "--name",
        NAME,
        "--coach",
        NAME,
        "--roster",
        slot(["wood_elf"]),
    ),
    ("team", "hire", TEAM, POSITION, NAME, "--number", NUMBER),
    ("team", "adjust", TEAM, "--reason", REASON, "--", AMOUNT),
    ("team", "buy", TEAM, ITEM, "--count", NUMBER),
    ("team", "release", TEAM, ITEM, "--count", NUMBER),
    ("team", "fire", TEAM, PLAYER),
    ("team", "retire", TEAM, PLAYER),
    ("team", "advance", TEAM, PLAYER, "characteristic", "--die", DIE),
    ("team", "advance", TEAM, PLAYER, "chosen_primary", "--skill", slot(["Block", "Dodge"])),
    ("team", "redraft", TEAM, "--carry", slot(["reroll=1"]), "--die", DIE),
    ("team", "bounty", TEAM, PLAYER, AMOUNT),
    (
        "league",
        "create",
        slot(["cup"]),
        "--name",
        NAME,
        "--ruleset",
        slot(["bb2025", "gold4"]),
        "--points",
        slot(["3/1/0", "2/1/0"]),
        "--option",
        slot(["referees=true"]),
    ),
    (
        "season",
        "start",
        "--division",
        slot(["North=reavers,rats"]),
        "--playoffs",
        NUMBER,
        "--name",
        NAME,
    ),
    ("match", "inducements", slot(["g0"]), TEAM, "--buy", slot(["bribes=1"])),
    ("match", "card", TEAM, slot(["bankruptcy"]), "--die", DIE),
    ("match", "fees", slot(["g0"]), TEAM, PLAYER),
    ("match", "list", "--season", NUMBER),
    ("correct", NUMBER, "--void", "--reason", REASON),
    ("correct", NUMBER, "--set", slot(["price=70000", "name=Otto"]), "--reason", REASON),
    ("roster", TEAM),
    ("history", PLAYER),
    ("treasury", TEAM),
    ("standings", "--season", NUMBER),
    ("leaders", "--limit", NUMBER, "--stat", slot(["spp", "touchdowns"])),
    ("export", "--out", PATH),
    ("report", "--out", PATH, "--season", NUMBER),
]


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    template = draw(st.sampled_from(COMMAND_LINES))
    args = [part(draw) if callable(part) else part for part in template]
    if draw(st.integers(0, 9)) == 0 and args:
        del args[draw(st.integers(0, len(args) - 1))]
    if draw(st.integers(0, 9)) == 0:
        args.insert(draw(st.integers(0, len(args))), draw(arg_text))
    if draw(st.integers(0, 9)) == 0:
        args = [draw(st.sampled_from(["--league", "--as"])), draw(arg_text), *args]
    return args


@fuzz(150)
@given(args=command_lines())
def test_a_fuzzed_command_line_is_done_or_refused_in_one_line(
    template: Path, args: list[str]
) -> None:
    with fresh_copy(template) as db:
        before = stored_events(db)
        done = run_ledger(db, *args)
        answered_properly(db, done, before)
