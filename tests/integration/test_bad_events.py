"""Nothing is stored that the ledger cannot apply, and one bad stored event never makes a
ledger unusable (issue 11, problems 1 and 4; DESIGN.md decision 9)."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from eventsourcing.persistence import StoredEvent

from ledger.application.audit import verify_chain
from ledger.application.commands import AdjustTreasury, Buy, Correct
from ledger.application.service import LeagueLedger
from ledger.application.transfer import export_lines
from ledger.bootstrap import Settings
from ledger.domain.events import GENESIS_HASH, TreasuryAdjusted, content_hash
from ledger.domain.log import league_id
from ledger.domain.state import FaultLine, PlayerRow, TeamRow
from ledger.errors import EventDoesNotApply, ImportRefused, LedgerError
from ledger.projections import appliers
from tests.integration.test_audit_and_transfer import played_league

Rows = list[dict[str, Any]]


def exported_rows(ledger: LeagueLedger, slug: str) -> tuple[dict[str, Any], Rows]:
    header, *rows = (orjson.loads(line) for line in export_lines(ledger.recorder, slug))
    return header, rows


def rehashed(header: dict[str, Any], rows: Rows) -> bytes:
    """The file a forger would write: every hash recomputed, so the chain holds."""
    previous = GENESIS_HASH
    for row in rows:
        row["event"]["prev_hash"] = previous
        row["event"]["hash"] = previous = content_hash(row["topic"], row["event"])
    header = {**header, "events": len(rows), "last_hash": previous}
    return b"\n".join(orjson.dumps(line) for line in [header, *rows])


def seq_of(rows: Rows, topic_end: str) -> int:
    return next(r["seq"] for r in rows if r["topic"].endswith(topic_end))


def forge_unregistered_team(rows: Rows) -> None:
    rows[seq_of(rows, "PlayerHired") - 1]["event"]["team"] = "never-registered"


def forge_price_as_text(rows: Rows) -> None:
    rows[seq_of(rows, "PlayerHired") - 1]["event"]["price"] = "50000"


def forge_negative_price(rows: Rows) -> None:
    rows[seq_of(rows, "PlayerHired") - 1]["event"]["price"] = -50_000


def forge_extra_field(rows: Rows) -> None:
    rows[seq_of(rows, "PlayerHired") - 1]["event"]["bonus"] = 1


def forge_unknown_ruleset(rows: Rows) -> None:
    rows[0]["event"]["ruleset"] = "calvinball"


def forge_foreign_topic(rows: Rows) -> None:
    rows[seq_of(rows, "PlayerHired") - 1]["topic"] = "this:s"


def forge_no_author(rows: Rows) -> None:
    del rows[seq_of(rows, "PlayerHired") - 1]["event"]["recorded_by"]


def forge_no_time(rows: Rows) -> None:
    del rows[seq_of(rows, "PlayerHired") - 1]["event"]["timestamp"]


FORGERIES = [
    forge_unregistered_team,
    forge_price_as_text,
    forge_negative_price,
    forge_extra_field,
    forge_unknown_ruleset,
    forge_foreign_topic,
    forge_no_author,
    forge_no_time,
]


@pytest.mark.parametrize("forge", FORGERIES, ids=lambda f: f.__name__)
def test_a_rehashed_import_with_wrong_content_is_refused_and_nothing_is_stored(
    forge: Callable[[Rows], None],
    ledger: LeagueLedger,
    settings: Settings,
    tmp_path: Path,
    open_ledgers: Callable[[Settings], LeagueLedger],
    capsys: pytest.CaptureFixture[str],
) -> None:
    slug = played_league(ledger)
    header, rows = exported_rows(ledger, slug)
    forge(rows)
    fresh = open_ledgers(Settings(sqlite_path=tmp_path / "restored.db"))
    with pytest.raises(ImportRefused, match=r"^event \d+ .*nothing imported$"):
        fresh.import_log(io.BytesIO(rehashed(header, rows)))
    assert fresh.source.head() == 0
    assert "Zen of Python" not in capsys.readouterr().out  # a topic never imports a module
    assert fresh.leagues() == []


def appended(rows: Rows, at: int, topic: str, content: dict[str, Any]) -> None:
    """Insert an event at index ``at`` with the envelope of the one before it, and number
    every event after it again (``rehashed`` then re-chains them)."""
    envelope = {k: rows[at - 1]["event"][k] for k in ("originator_id", "timestamp", "recorded_by")}
    rows.insert(at, {"seq": 0, "topic": topic, "event": {**envelope, **content}})
    for seq, row in enumerate(rows, start=1):
        row["seq"] = row["event"]["originator_version"] = seq


def copied(rows: Rows, topic_end: str) -> None:
    """The first event of a type recorded a second time, just after it."""
    index = seq_of(rows, topic_end) - 1
    content = {k: v for k, v in rows[index]["event"].items() if k not in ("hash", "prev_hash")}
    appended(rows, index + 1, rows[index]["topic"], content)


def forge_treasury_below_zero(rows: Rows) -> None:
    fine = {"team": "reavers", "amount": -5_000_000, "reason": "a fine no command allows"}
    appended(rows, len(rows), "ledger.domain.events:TreasuryAdjusted", fine)


def forge_a_hire_away(rows: Rows) -> None:
    """The hire of a player who then played taken out of the log: the report names him."""
    report = rows[seq_of(rows, "MatchRecorded") - 1]["event"]
    player = report["home"]["players"][0]["player"]
    hire = next(r for r in rows if r["event"].get("player") == player and "Hired" in r["topic"])
    rows.remove(hire)
    for seq, row in enumerate(rows, start=1):
        row["seq"] = row["event"]["originator_version"] = seq


def forge_spp_overspent(rows: Rows) -> None:
    unplayed = rows[seq_of(rows, "PlayerHired") - 1 + 10]["event"]  # the reavers' last hire
    advance = {"team": "reavers", "player": unplayed["player"], "kind": "chosen_primary"}
    appended(rows, len(rows), "ledger.domain.events:PlayerAdvanced", {**advance, "skill": "Block"})


IMPOSSIBLE_BOOKS = {
    forge_treasury_below_zero: r"reavers' treasury would fall to -\d",
    forge_spp_overspent: r"SPP would fall to -\d",
    (lambda rows: copied(rows, "LeagueCreated")): "the league was already created",
    (lambda rows: copied(rows, "TeamRegistered")): "the league already has a team 'reavers'",
    (lambda rows: copied(rows, "PlayerHired")): "player id .* is already taken",
    (lambda rows: copied(rows, "MatchRecorded")): r"match g1 .* was already recorded",
    forge_a_hire_away: "names p\\d+, who is neither a player of the books nor a hireling",
}


def forged_import(
    ledger: LeagueLedger, forge: Callable[[Rows], None], fresh: LeagueLedger
) -> tuple[str, LeagueLedger]:
    """The played league exported, ``forge``d, re-hashed so its chain holds, and imported
    into ``fresh``: the one-line refusal (and the ledger, for what it holds after)."""
    header, rows = exported_rows(ledger, played_league(ledger))
    forge(rows)
    with pytest.raises(ImportRefused) as refused:
        fresh.import_log(io.BytesIO(rehashed(header, rows)))
    message = str(refused.value)
    assert "\n" not in message
    return message, fresh


@pytest.mark.parametrize(
    "forge",
    IMPOSSIBLE_BOOKS,
    ids=["treasury", "spp", "league", "team", "player", "match", "unhired"],
)
def test_a_rehashed_import_of_books_no_command_could_write_is_refused(
    forge: Callable[[Rows], None],
    ledger: LeagueLedger,
    tmp_path: Path,
    open_ledgers: Callable[[Settings], LeagueLedger],
) -> None:
    message, fresh = forged_import(
        ledger, forge, open_ledgers(Settings(sqlite_path=tmp_path / "restored.db"))
    )
    assert re.fullmatch(
        rf"event \d+ \(\w+\) does not apply to the league's books: .*{IMPOSSIBLE_BOOKS[forge]}"
        r".*; nothing imported",
        message,
    ), message
    assert fresh.source.head() == 0
    assert fresh.leagues() == []


def forge_a_namesake(rows: Rows) -> None:
    """The reavers' second hire given the first one's name: the books add up, but the hire
    could not have been recorded (a team-mate wears the name)."""
    first, second, *_ = (r for r in rows if r["topic"].endswith("PlayerHired"))
    second["event"]["name"] = first["event"]["name"]


def forge_a_skill_out_of_category(rows: Rows) -> None:
    """reavers 1 (7 SPP after g1) takes Claws, a Mutation no Human may learn, as a primary:
    his SPP pay for it, the Advancement rules do not (seed 001, 'Advancement')."""
    report = rows[seq_of(rows, "MatchRecorded") - 1]["event"]
    scorer = report["home"]["players"][0]["player"]
    advance = {"team": "reavers", "player": scorer, "kind": "chosen_primary", "skill": "Claws"}
    appended(rows, len(rows), "ledger.domain.events:PlayerAdvanced", advance)


RULE_BREAKING = {
    forge_a_namesake: r"event \d+ \(PlayerHired\) could not have been recorded: .*reavers 1",
    forge_a_skill_out_of_category: r"event 30 \(PlayerAdvanced\) could not have been recorded:"
    r" .*Claws",
}


@pytest.mark.parametrize("forge", RULE_BREAKING, ids=["namesake", "skill"])
def test_a_rehashed_import_of_events_their_commands_refuse_is_refused(
    forge: Callable[[Rows], None],
    ledger: LeagueLedger,
    tmp_path: Path,
    open_ledgers: Callable[[Settings], LeagueLedger],
) -> None:
    """Books that add up are not enough: an event a command decides is planned again by it
    where it stands (application/amendments.py), as a correction's is."""
    message, fresh = forged_import(
        ledger, forge, open_ledgers(Settings(sqlite_path=tmp_path / "restored.db"))
    )
    assert re.fullmatch(rf"{RULE_BREAKING[forge]}.*; nothing imported", message), message
    assert fresh.source.head() == 0
    assert fresh.leagues() == []


def test_an_import_plans_a_voided_event_not_and_an_amended_one_as_amended(
    ledger: LeagueLedger, tmp_path: Path, open_ledgers: Callable[[Settings], LeagueLedger]
) -> None:
    """A rule-breaking event its league voided imports: the correction is the league's
    answer to it, and the fold reads the log as corrected."""
    slug = played_league(ledger)
    header, rows = exported_rows(ledger, slug)
    forge_a_namesake(rows)
    namesake = [r["seq"] for r in rows if r["topic"].endswith("PlayerHired")][1]
    void = {"target": namesake, "action": "void", "reason": "a namesake", "amendment": {}}
    appended(rows, len(rows), "ledger.domain.events:EventCorrected", void)
    fresh = open_ledgers(Settings(sqlite_path=tmp_path / "restored.db"))
    assert fresh.import_log(io.BytesIO(rehashed(header, rows))) == (slug, len(rows))


def test_an_honest_rehash_still_imports(
    ledger: LeagueLedger, tmp_path: Path, open_ledgers: Callable[[Settings], LeagueLedger]
) -> None:
    slug = played_league(ledger)
    header, rows = exported_rows(ledger, slug)
    fresh = open_ledgers(Settings(sqlite_path=tmp_path / "restored.db"))
    assert fresh.import_log(io.BytesIO(rehashed(header, rows))) == (slug, len(rows))


def plant(ledger: LeagueLedger, slug: str, topic: str, content: dict[str, Any]) -> int:
    """Append an event as an older version or a hand in the database might have: chained
    and hashed, but content the ledger cannot apply."""
    head = ledger.load_log(slug)
    seq = head.version + 1
    state = {
        "originator_id": str(league_id(slug)),
        "originator_version": seq,
        "timestamp": "2026-11-01T10:00:00+00:00",
        "recorded_by": "someone",
        "prev_hash": head.last_hash,
        **content,
    }
    state["hash"] = content_hash(topic, state)
    event = StoredEvent(league_id(slug), seq, topic, orjson.dumps(state))
    ledger.recorder.insert_events([event])
    return seq


BAD_EVENTS = {
    "team never registered": (
        "ledger.domain.events:TreasuryAdjusted",
        {"team": "ghosts", "amount": 10_000},
    ),
    "content that does not validate": (
        "ledger.domain.events:TreasuryAdjusted",
        {"team": "reavers", "amount": "a lot"},
    ),
    "a topic naming another module": ("this:s", {"team": "reavers"}),
}


@pytest.mark.parametrize("bad", BAD_EVENTS, ids=str)
def test_a_bad_stored_event_is_reported_and_the_league_goes_on(
    bad: str, ledger: LeagueLedger, capsys: pytest.CaptureFixture[str]
) -> None:
    slug = played_league(ledger)
    league = str(league_id(slug))
    treasury = ledger.view().get(TeamRow, league, "reavers")
    assert treasury is not None
    topic, content = BAD_EVENTS[bad]
    seq = plant(ledger, slug, topic, content)
    ledger.catch_up()
    faults = ledger.view().select(FaultLine, league_id=league)
    assert [f.seq for f in faults] == [seq]
    assert faults[0].problem
    assert "Zen of Python" not in capsys.readouterr().out
    # every command still works, and the next one chains after the bad event
    assert verify_chain(ledger.recorder, league_id(slug), slug).ok
    ledger.handle(AdjustTreasury(slug, "reavers", 5_000), by="tester", reason="prize")
    after = ledger.view().get(TeamRow, league, "reavers")
    assert after is not None
    assert after.treasury == treasury.treasury + 5_000
    # a rebuild agrees with the incremental read models, fault included
    before = snapshot(ledger, league)
    ledger.read_models.rebuild(ledger.source)
    assert snapshot(ledger, league) == before
    # a correction elsewhere is not refused because of the fault it did not cause
    adjusted = ledger.load_log(slug).version
    ledger.handle(Correct(slug, adjusted, "void"), by="tester", reason="no prize after all")
    assert [f.seq for f in ledger.view().select(FaultLine, league_id=league)] == [seq]
    # and voiding the bad event heals the league
    ledger.handle(Correct(slug, seq, "void"), by="tester", reason="not ours")
    assert ledger.view().select(FaultLine, league_id=league) == []


def snapshot(ledger: LeagueLedger, league: str) -> tuple[Any, ...]:
    view = ledger.view()
    return (
        view.select(FaultLine, league_id=league),
        view.select(TeamRow, league_id=league),
        view.select(PlayerRow, league_id=league),
    )


@pytest.fixture
def broken_applier(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in the fold: every TreasuryAdjusted fails to apply."""

    def broken(fold: Any, event: Any) -> None:
        raise KeyError("a bug in the fold")

    monkeypatch.setitem(appliers.APPLIERS, TreasuryAdjusted, broken)


@pytest.mark.usefixtures("broken_applier")
def test_a_command_whose_event_would_not_apply_is_refused_with_nothing_written(
    ledger: LeagueLedger,
) -> None:
    slug = played_league(ledger)
    head = ledger.source.head()

    with pytest.raises(EventDoesNotApply, match=r"a bug in the fold.*nothing was recorded"):
        ledger.handle(AdjustTreasury(slug, "reavers", 5_000), by="tester", reason="prize")
    assert ledger.source.head() == head


def test_a_unit_of_work_is_all_or_nothing(ledger: LeagueLedger) -> None:
    slug = played_league(ledger)
    head = ledger.source.head()
    league = str(league_id(slug))
    before = ledger.view().get(TeamRow, league, "reavers")
    assert before is not None
    seen: list[int] = []

    def two_commands() -> None:
        with ledger.atomic() as unit:
            ledger.handle(AdjustTreasury(slug, "reavers", 5_000), by="tester", reason="prize")
            reavers = unit.store.get(TeamRow, league, "reavers")
            seen.append(reavers.treasury if reavers else 0)
            ledger.handle(AdjustTreasury(slug, "nobody", 5_000), by="tester", reason="prize")

    with pytest.raises(LedgerError, match="nobody"):
        two_commands()
    assert seen == [before.treasury + 5_000]  # the unit saw its own first command
    assert ledger.source.head() == head
    assert ledger.view().get(TeamRow, league, "reavers") == before


def test_a_unit_of_work_stores_its_commands_together(ledger: LeagueLedger) -> None:
    slug = played_league(ledger)
    head = ledger.source.head()
    with ledger.atomic():
        ledger.handle(AdjustTreasury(slug, "reavers", 5_000), by="tester", reason="prize")
        ledger.handle(AdjustTreasury(slug, "rats", 7_000), by="tester", reason="prize")
        assert ledger.source.head() == head  # nothing stored until the unit ends
    assert ledger.source.head() == head + 2
    rebuilt_from = snapshot(ledger, str(league_id(slug)))
    ledger.read_models.rebuild(ledger.source)
    assert snapshot(ledger, str(league_id(slug))) == rebuilt_from


@pytest.mark.usefixtures("broken_applier")
def test_a_unit_whose_command_failed_half_way_is_never_stored(ledger: LeagueLedger) -> None:
    slug = played_league(ledger)
    head = ledger.source.head()

    def careless_caller() -> None:
        with ledger.atomic():
            ledger.handle(Buy(slug, "reavers", "reroll", 1), by="tester")
            with contextlib.suppress(EventDoesNotApply):  # goes on regardless
                ledger.handle(AdjustTreasury(slug, "reavers", 5_000), by="tester", reason="prize")

    with pytest.raises(EventDoesNotApply, match="failed half-way"):
        careless_caller()
    assert ledger.source.head() == head
