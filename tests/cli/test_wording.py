"""What the command line says, in words a commissioner would write: singular and plural
counted (``1 division``, ``1 event``), possessives of names ending in s (``Griffons'``),
the books' names in ``ledger rulesets``, a standings tie explained, leaders who are level
sharing a place (1, 1, 3), and progress bars on a terminal only."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import orjson
import pytest

from ledger.domain import events as ev
from ledger.domain.values import Fixture
from ledger.projections.describe import DESCRIBERS, NoNames, Say
from ledger.rules import REGISTRY
from ledger.words import article, plural, possessive
from tests.cli.inprocess import run_ledger
from tests.support import drain

LEDGER = str(Path(sys.executable).parent / "ledger")
IDS = Say(NoNames())

SETUP = """\
league create owl --name "Old World League" --ruleset bb2025
team register griffons --name "Griffons" --coach Jay --roster human
team register rats --name Scramblers --coach Rob --roster skaven
team register orcs --name "Orc Town" --coach Al --roster orc
team register dwarfs --name "Dwarf Hold" --coach Bo --roster dwarf
team hire griffons lineman Hans --number 1
"""


@pytest.fixture
def league(tmp_path: Path) -> Path:
    script = tmp_path / "setup.ledger"
    script.write_text(SETUP)
    db = tmp_path / "owl.db"
    run_ledger(db, "run", str(script), check=True)
    return db


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wording")
    done = subprocess.run(
        [LEDGER, "demo", "--dir", str(folder)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return folder / "demo.db"


def test_the_indefinite_article_goes_by_the_sound() -> None:
    assert article("Ogre") == "an Ogre"
    assert article("orc") == "an orc"
    assert article("Lineman") == "a Lineman"
    assert article("Unicorn") == "a Unicorn"


def test_counts_and_possessives_in_words() -> None:
    assert plural(1, "division") == "1 division"
    assert plural(0, "event") == "0 events"
    assert plural(2, "casualty", "casualties") == "2 casualties"
    assert plural(1200, "event") == "1,200 events"
    assert possessive("Griffons") == "Griffons'"
    assert possessive("Reikland Reavers") == "Reikland Reavers'"
    assert possessive("Skweek") == "Skweek's"


def test_one_division_and_one_event_are_singular(league: Path) -> None:
    started = run_ledger(league, "season", "start", "--division", "Main=griffons,rats,orcs,dwarfs")
    assert started.code == 0, started.err
    assert "with 1 division." in started.out
    assert "division(s)" not in started.out
    said = DESCRIBERS[ev.SeasonStarted](SimpleNamespace(season=1, divisions=["Main"]), IDS)
    assert said == "season 1 started (1 division)"
    regular = Fixture(id="r1", round=1, division="Main", home="griffons", away="rats")
    fixtures = DESCRIBERS[ev.FixturesScheduled](SimpleNamespace(season=1, fixtures=[regular]), IDS)
    assert fixtures == "1 fixture scheduled for season 1"


def test_play_offs_drawn_are_said_by_their_stage_and_a_final_by_its_teams() -> None:
    def drawn(*stages: str) -> str:
        games = [
            Fixture(id=f"p{n}", round=9, division="Main", home="griffons", away="rats", stage=s)
            for n, s in enumerate(stages)
        ]
        return DESCRIBERS[ev.FixturesScheduled](SimpleNamespace(season=2, fixtures=games), IDS)

    assert drawn("final") == "play-offs of season 2 drawn: the final, griffons v rats"
    bowl = Fixture(
        id="db", round=9, division="Main", home="a", away="b", stage="final", teams=("a", "b", "c")
    )
    said = DESCRIBERS[ev.FixturesScheduled](SimpleNamespace(season=2, fixtures=[bowl]), IDS)
    assert said == "play-offs of season 2 drawn: the final, a v b v c"  # a Dungeon Bowl final
    said = drawn("semi-final", "semi-final")
    assert said == "play-offs of season 2 drawn: 2 games (semi-final)"
    assert (
        drawn("final", "third-place") == "play-offs of season 2 drawn: 2 games (final, third-place)"
    )


def test_the_league_and_the_audit_count_events_in_words(tmp_path: Path) -> None:
    db = tmp_path / "one.db"
    run_ledger(db, "league", "create", "one", "--name", "One", "--ruleset", "bb2025", check=True)
    assert "Blood Bowl 2025, Third Season [bb2025], 1 event" in run_ledger(db, "league", "show").out
    assert "one: 1 event, chain intact" in run_ledger(db, "audit", "verify").out


def test_a_name_ending_in_s_owns_with_an_apostrophe_only(league: Path, tmp_path: Path) -> None:
    report = tmp_path / "game.yaml"
    report.write_text(
        "match: g1\nhome: {team: griffons, touchdowns: 0, players: "
        "[{player: Hans, td: 1}, {player: Hans, mvp: 1}]}\n"
        "away: {team: rats, touchdowns: 0}\n"
    )
    line = run_ledger(league, "match", "record", str(report), "--roll").error_line
    assert "Griffons' report" in line
    assert "Griffons's" not in line


def test_rulesets_name_their_books_not_seed_files() -> None:
    out = run_ledger(Path("unused.db"), "rulesets").out
    assert "seed 0" not in out
    assert "source: Blood Bowl 2025 rulebook, League Play chapter" in out
    assert "OBERWALD Crazy Coaches Edition" in out


def test_league_create_offers_every_registered_ruleset(tmp_path: Path) -> None:
    """The --ruleset help is the registry's ids, so an edition added (bb2020, lrb6) is
    offered where a commissioner looks first."""
    shown = " ".join(run_ledger(tmp_path / "none.db", "league", "create", "--help").out.split())
    offered = shown.split("Ruleset id or alias: ")[1].split(" (see")[0]
    assert offered.split(", ") == list(REGISTRY)


def test_leaders_level_on_the_stat_share_a_place(demo: Path) -> None:
    found = orjson.loads(run_ledger(demo, "leaders", "--stat", "touchdowns", "--json").out)
    ranks = [(row["rank"], row["value"]) for row in found]
    assert ranks[:4] == [(1, 4), (1, 4), (3, 2), (3, 2)]
    shown = run_ledger(demo, "leaders", "--stat", "touchdowns", check=True).out.splitlines()
    assert [line.split()[0] for line in shown[2:5]] == ["1", "1", "3"]


def test_standings_explain_what_separated_a_tie(demo: Path) -> None:
    out = run_ledger(demo, "standings", check=True).out
    assert "touchdown difference" in out
    assert "separated by: the tie-breaker that put a team above the next one" in out
    assert "team order" not in out


def test_level_teams_share_a_place_and_say_so(league: Path) -> None:
    run_ledger(
        league, "season", "start", "--division", "Main=griffons,rats,orcs,dwarfs", check=True
    )
    out = run_ledger(league, "standings", check=True).out.splitlines()
    rows = [line for line in out if line.startswith("1 ")]
    assert len(rows) == 4  # no game yet: level on everything, all first
    assert "level on all" in rows[0]


def with_terminal_stderr(db: Path, *args: str) -> tuple[str, str]:
    """Run ``ledger`` with a pseudo-terminal as stderr: (stdout, what the terminal got)."""
    main, child = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {"TERM": "xterm"}
    done = subprocess.run(
        [LEDGER, "--db", str(db), *args],
        stdout=subprocess.PIPE,
        stderr=child,
        env=env,
        timeout=300,
        text=True,
    )
    os.close(child)
    printed = drain(main)
    assert done.returncode == 0
    return done.stdout, printed.decode(errors="replace")


def test_a_progress_bar_on_a_terminal_only(demo: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    copy.write_bytes(demo.read_bytes())
    out, terminal = with_terminal_stderr(copy, "rebuild")
    assert "Rebuilding read models" in terminal
    assert "Rebuilt the read models from" in out
    piped = subprocess.run(
        [LEDGER, "--db", str(copy), "rebuild"], capture_output=True, text=True, timeout=300
    )
    assert piped.returncode == 0
    assert piped.stderr == ""
    assert "Rebuilding" not in piped.stdout


def test_no_progress_bar_for_json_samples(demo: Path) -> None:
    args = ("whatif", "--ruleset", "lrb6-zal", "--samples", "2", "--json")
    out, terminal = with_terminal_stderr(demo, *args)
    assert "Replaying" not in terminal
    orjson.loads(out)
    _, shown = with_terminal_stderr(demo, *args[:-1])
    assert "Replaying 2 times" in shown


def match_ids(db: Path) -> list[str]:
    found = orjson.loads(run_ledger(db, "match", "list", "--json").out)
    return [m["match_id"] for m in found]  # type: ignore[index, union-attr]


def test_match_list_keeps_round_and_fixture_order_once_played(league: Path, tmp_path: Path) -> None:
    run_ledger(
        league, "season", "start", "--division", "Main=griffons,rats,orcs,dwarfs", check=True
    )
    run_ledger(league, "season", "schedule", check=True)
    before = match_ids(league)
    assert len(before) == 6
    rounds = [m["round"] for m in orjson.loads(run_ledger(league, "match", "list", "--json").out)]
    assert rounds == sorted(rounds)
    first = before[0]  # recorded first, it must not move behind the round's other games
    fixture = next(
        m
        for m in orjson.loads(run_ledger(league, "match", "list", "--json").out)
        if m["match_id"] == first
    )
    report = tmp_path / "late.yaml"
    report.write_text(
        f"match: {first}\nhome: {{team: {fixture['home']}, touchdowns: 0}}\n"
        f"away: {{team: {fixture['away']}, touchdowns: 0}}\n"
    )
    recorded = run_ledger(league, "match", "record", str(report), "--roll")
    assert recorded.code == 0, recorded.err
    assert match_ids(league) == before


def test_an_amendment_names_its_fields_in_words() -> None:
    amended = SimpleNamespace(target=64, action="amend", amendment={"home": {}, "played_on": "x"})
    said = DESCRIBERS[ev.EventCorrected](amended, IDS)
    assert said == "event 64 amended (home side, played on)"
