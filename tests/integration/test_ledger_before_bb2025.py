"""A ledger recorded before the ``bb2020`` ruleset was renamed ``bb2025`` still opens.

``data/demo-before-bb2025.db`` is the demo league as the code of commit 0c15d47 built it
(``ledger --db FILE demo``): its ``LeagueCreated`` says ``"ruleset":"bb2020"`` and its
read models were folded by that code. ``data/demo-before-bb2025.json`` is what that code
printed for it (``--json`` of the commands named as its keys), captured by
``data/capture_demo_figures.py`` from a worktree of that commit. Opened by today's code
the league must say ``bb2025`` and every figure must be the same; the stored event is not
rewritten, so the hash chain still verifies (docs/events.md, 'Versions').
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any
from uuid import uuid4

import orjson
import pytest
from click.testing import CliRunner
from eventsourcing.persistence import JSONTranscoder, StoredEvent
from eventsourcing.utils import get_topic

from cli.main import cli
from ledger.domain.events import LeagueCreated
from ledger.errors import UnknownRuleset
from ledger.persistence.mapper import LedgerMapper
from ledger.rules import RULESETS, ruleset_class
from ledger.web.jobs import upcast_asked

DATA = Path(__file__).parent / "data"
FIGURES: dict[str, Any] = json.loads((DATA / "demo-before-bb2025.json").read_text())
RULESETS_KNOWN = {cls.id for cls in RULESETS}


@pytest.fixture
def old_ledger(tmp_path: Path) -> Path:
    db = tmp_path / "demo.db"
    shutil.copyfile(DATA / "demo-before-bb2025.db", db)
    return db


def ledger(db: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert result.exit_code == 0, result.output
    return result.output


ADDED_SINCE = {"next_submission": 1, "members_version": 0, "advancements_by_ledger": False}
"""Fields of the league's row added since, at what a league without them holds."""


ITEM_NAMES = {
    item_id: item.name
    for item_id, item in ruleset_class("bb2025")(None).sideline_offer("human").items()
}
"""Treasury notes now name sideline items as the edition does (``3 x Team Re-roll``,
not the books' ``3 x reroll``) and positions in words (48th session); the figures beside
them are the old code's."""


BB2025 = ruleset_class("bb2025")(None)
ROSTERS = {
    "reikland-reavers": "human",
    "gouged-eye": "orc",
    "grudgebearers": "dwarf",
    "skavenblight-scramblers": "skaven",
}
"""The demo's teams' lists: a hire's note names his position as the list does (55th
session: ``Ugluk (Orc Blitzer)``, not ``Ugluk (blitzer, regular)``)."""


def reworded(note: str, team: str | None) -> str:
    note = re.sub(r"(\d+) x (\w+)", lambda m: f"{m[1]} x {ITEM_NAMES.get(m[2], m[2])}", note)
    hired = re.fullmatch(r"(.+) \((\w+), regular\)", note)
    if hired and team in ROSTERS:
        position = BB2025.catalogue.team_list(ROSTERS[team]).position(hired[2])
        return f"{hired[1]} ({position.name})"
    return note.replace("_", " ")


SEASON_ONE_ROSTER = ("active", "dead")
"""A player on his team's roster at its games of season 1 took part in it (49th session:
before, only a player a report named did): every player of the demo's rosters, the dead
included (each was on it at a game before he died)."""


ADVANCEMENT_ADDED = {"lost": []}
"""An advancement names the traits it removed (50th session); none of the demo's did."""


PLAYER_ADDED = {"rolled": {}}
"""A player's row holds the ledger's roll waiting for his next advancement (54th
session); none of the demo's players had one."""


def renamed(value: Any) -> Any:
    """What the old code printed, with the ruleset's id as it is now named (and the
    league's row with the fields added since, and its treasury notes in words)."""
    if isinstance(value, dict):
        added = ADDED_SINCE if "next_match" in value else {}
        if "seasons" in value and value.get("status") in SEASON_ONE_ROSTER:
            added = {"seasons": [1]}
        if "characteristic" in value and "seq" in value:
            added = ADVANCEMENT_ADDED
        if "player_id" in value and "spp_earned" in value:
            added = {**added, **PLAYER_ADDED}
        return {
            **{
                k: "bb2025"
                if k == "ruleset" and v == "bb2020"
                else reworded(v, value.get("team_id"))
                if k == "note" and isinstance(v, str)
                else renamed(v)
                for k, v in value.items()
            },
            **added,
        }
    if isinstance(value, list):
        return [renamed(v) for v in value]
    return value


def stored_league_created(db: Path) -> dict[str, Any]:
    with sqlite3.connect(db) as con:
        (state,) = con.execute(
            "SELECT state FROM stored_events WHERE originator_version = 1 AND topic = ?",
            (get_topic(LeagueCreated),),
        ).fetchone()
    return dict(orjson.loads(state))


def test_the_fixture_was_recorded_as_bb2020(old_ledger: Path) -> None:
    """The file really is an old one: event 1 and the stored read model say bb2020."""
    assert stored_league_created(old_ledger)["ruleset"] == "bb2020"
    assert "class_version" not in stored_league_created(old_ledger)
    with sqlite3.connect(old_ledger) as con:
        assert con.execute("SELECT ruleset FROM rm_leagues").fetchall() == [("bb2020",)]
    assert FIGURES["league show"]["league"]["ruleset"] == "bb2020"
    assert FIGURES["roster gouged-eye"]["ruleset"] == "bb2020"


def test_it_says_bb2025(old_ledger: Path) -> None:
    assert "Blood Bowl 2025, Third Season [bb2025], 85 events" in ledger(
        old_ledger, "league", "show"
    )
    [row] = json.loads(ledger(old_ledger, "league", "list", "--json"))
    assert row["ruleset"] == "bb2025"
    with sqlite3.connect(old_ledger) as con:  # the read model was refolded, not patched
        assert con.execute("SELECT ruleset FROM rm_leagues").fetchall() == [("bb2025",)]


@pytest.mark.parametrize("command", sorted(FIGURES))
def test_every_figure_is_the_one_the_old_code_printed(old_ledger: Path, command: str) -> None:
    """Standings, leaders, every roster (players' SPP and values, TV, CTV) and every
    treasury movement, as printed before the rename."""
    now = json.loads(ledger(old_ledger, *command.split(), "--json"))
    assert now == renamed(FIGURES[command])


def test_the_stored_event_is_unchanged_and_the_chain_verifies(old_ledger: Path) -> None:
    before = stored_league_created(old_ledger)
    ledger(old_ledger, "standings")  # opening refolds the read models
    assert stored_league_created(old_ledger) == before
    out = ledger(old_ledger, "audit", "verify")
    assert "85 events, chain intact" in out
    assert FIGURES["league show"]["league"]["last_hash"] in out


def test_export_keeps_the_recorded_id_and_import_reads_it_as_bb2025(
    old_ledger: Path, tmp_path: Path
) -> None:
    backup = tmp_path / "demo.jsonl"
    ledger(old_ledger, "export", "--out", str(backup))
    first_event = orjson.loads(backup.read_bytes().splitlines()[1])
    assert first_event["event"]["ruleset"] == "bb2020"  # exactly as stored
    restored = tmp_path / "restored.db"
    ledger(restored, "import", str(backup))
    assert "[bb2025], 85 events" in ledger(restored, "league", "show")
    assert "chain intact" in ledger(restored, "audit", "verify")
    assert json.loads(ledger(restored, "standings", "--json")) == renamed(FIGURES["standings"])


def test_a_new_league_records_the_new_id_with_its_class_version(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    ledger(db, "league", "create", "new", "--name", "New", "--ruleset", "bb25")
    stored = stored_league_created(db)
    assert (stored["ruleset"], stored["class_version"]) == ("bb2025", 2)


@pytest.mark.parametrize("name", ["bb2020", "bb20", "blood-bowl-2020", "2020"])
def test_the_old_names_never_create_a_bb2025_league(tmp_path: Path, name: str) -> None:
    """They name Blood Bowl 2020 (Season 2): until that ruleset is registered they are
    unknown, with the usual error and nothing written; once it is, they create a bb2020
    league. Never, silently, a 2025 one."""
    db = tmp_path / "new.db"
    args = ["--db", str(db), "league", "create", "new", "--name", "New", "--ruleset", name]
    result = CliRunner().invoke(cli, args)
    if "bb2020" not in RULESETS_KNOWN:
        assert isinstance(result.exception, UnknownRuleset)
        assert str(result.exception).startswith(f"unknown ruleset '{name}' (known: bb2025")
        assert not db.exists()  # nothing written
    else:
        assert result.exit_code == 0, result.output
        assert stored_league_created(db)["ruleset"] == "bb2020"


@pytest.mark.parametrize(
    ("state", "read_as"),
    [
        ({"ruleset": "bb2020"}, "bb2025"),  # version 1: recorded before the rename
        ({"ruleset": "bb2020", "class_version": 2}, "bb2020"),  # version 2: Season 2
        ({"ruleset": "bb2025", "class_version": 2}, "bb2025"),
        ({"ruleset": "lrb6-zal"}, "lrb6-zal"),
    ],
)
def test_only_a_version_1_bb2020_is_upcast(state: dict[str, Any], read_as: str) -> None:
    created = stored_league_created_state(state)
    event = LedgerMapper(transcoder=JSONTranscoder()).to_domain_event(created)
    assert isinstance(event, LeagueCreated)
    assert event.ruleset == read_as


def stored_league_created_state(fields: dict[str, Any]) -> StoredEvent:
    league = uuid4()
    state = {
        "originator_id": str(league),
        "originator_version": 1,
        "originator_topic": "ledger.domain.log:LeagueLog",
        "timestamp": "2026-01-01T00:00:00+00:00",
        "recorded_by": "commish",
        "slug": "owl",
        "name": "Old World League",
        "hash": "0" * 64,
        **fields,
    }
    return StoredEvent(
        originator_id=league,
        originator_version=1,
        topic=get_topic(LeagueCreated),
        state=orjson.dumps(state),
    )


@pytest.mark.parametrize(
    ("stored", "read_as"),
    [
        ({"ruleset": "bb2020", "seed": 0}, {"ruleset": "bb2025", "seed": 0, "ids": 2}),
        ({"ruleset": "bb2020", "ids": 2}, {"ruleset": "bb2020", "ids": 2}),
        ({"ruleset": "dz3", "seed": 0}, {"ruleset": "dz3", "seed": 0}),
    ],
)
def test_a_what_if_job_stored_before_the_rename_reads_in_todays_ids(
    stored: dict[str, Any], read_as: dict[str, Any]
) -> None:
    """The service keeps what-if jobs in a table; a job asked before the rename names the
    2025 ruleset ``bb2020``, one asked since names its ids' version."""
    assert upcast_asked(stored) == read_as
