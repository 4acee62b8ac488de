"""docs/commissioners-guide.md's first hour, run as written: the commands of its ``sh``
block, one after the other in an empty folder, with the report of its ``yaml`` block. A
command that fails, or a doc that no longer shows what the commands print, fails here.

And docs/match-report.md names every die purpose the editions ask for.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from ledger.rules import RULESETS
from tests.cli.inprocess import Outcome, run_argv

DOCS = Path(__file__).parents[2] / "docs"
WALK = "## The first hour"


def walk() -> tuple[list[list[str]], str, str]:
    """The walk's command lines, and its report file's name and text."""
    guide = (DOCS / "commissioners-guide.md").read_text(encoding="utf-8")
    start = guide.index(WALK)
    section = guide[start : guide.index("\n## ", start + len(WALK))]
    (commands,) = re.findall(r"```sh\n(.*?)```", section, re.S)
    (report,) = re.findall(r"```yaml\n(.*?)```", section, re.S)
    lines = [shlex.split(line, comments=True) for line in commands.splitlines()]
    name = report.splitlines()[0].removeprefix("#").strip()
    return [line for line in lines if line], name, report


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """What each command of the walk printed, by its command line (run in order)."""
    folder = tmp_path_factory.mktemp("first-hour")
    lines, name, report = walk()
    (folder / name).write_text(report, encoding="utf-8")
    done: dict[str, Outcome] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        for argv in lines:
            assert argv[0] == "ledger", argv
            if argv[1:3] == ["match", "close"]:  # as the guide says, first without its dice
                done["match close without dice"] = run_argv(argv[:4])
            outcome = run_argv(argv)
            assert outcome.code == 0, f"{shlex.join(argv)} failed:\n{outcome.err}"
            done[shlex.join(argv[1:])] = outcome
    assert (folder / "ledger.db").is_file()
    return done


def printed(outputs: dict[str, Outcome], command: str) -> str:
    return outputs[command].out


def test_the_walk_goes_from_an_empty_ledger_to_a_closed_match(
    outputs: dict[str, Outcome],
) -> None:
    commands = [c.split()[0] + " " + c.split()[1] for c in outputs if len(c.split()) > 1]
    for step in ("league create", "team register", "rules team", "team hire", "season schedule",
                 "match record", "match show", "match close"):  # fmt: skip
        assert step in commands, step
    closed = printed(outputs, "match close s1-old-r1-1 --die expensive_mistakes=5")
    assert "Closed the post-game sequence of s1-old-r1-1 for reavers." in closed
    assert "Closed the post-game sequence of s1-old-r1-1 for grudge." in closed


def test_the_team_list_shows_the_position_ids_and_prices_the_walk_hires(
    outputs: dict[str, Outcome],
) -> None:
    human = printed(outputs, "rules team human")
    blitzer = next(line for line in human.splitlines() if line.startswith("blitzer "))
    assert "85,000" in blitzer
    assert "0-2" in blitzer
    dwarf = printed(outputs, "rules team dwarf")
    assert next(line for line in dwarf.splitlines() if line.startswith("troll_slayer "))


def test_the_recorded_match_shows_score_spp_casualty_and_winnings(
    outputs: dict[str, Outcome],
) -> None:
    shown = printed(outputs, "match show s1-old-r1-1")
    assert "Match s1-old-r1-1: Reikland Reavers 1-0 Grudgebearers" in shown
    griff = next(line for line in shown.splitlines() if "Griff Junior" in line)
    assert griff.split()[-1] == "7"  # TD 3 + MVP 4, as the guide says
    assert "casualty D16 13; lasting_injury D6 1" in shown
    assert "Reikland Reavers: fans 1 -> 2 (+1)" in shown
    recorded = printed(outputs, "match record s1-old-r1-1.yaml")
    assert recorded.startswith("Recorded match s1-old-r1-1.\n")
    assert "Match s1-old-r1-1: Reikland Reavers 1-0 Grudgebearers" in recorded


def test_the_injured_players_history_names_his_injury(outputs: dict[str, Outcome]) -> None:
    history = printed(outputs, "history 'Otto Brandt'")
    assert "lasting injury (misses the next game, -1 AV)" in history


def documented_purposes() -> set[str]:
    """The purposes docs/match-report.md lists under 'Every die, by purpose'."""
    text = (DOCS / "match-report.md").read_text(encoding="utf-8")
    section = text[text.index("### Every die, by purpose") :]
    first_cells = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    return {name for cell in first_cells for name in re.findall(r"`([^`]+)`", cell)}


def test_every_die_purpose_of_the_editions_is_documented() -> None:
    documented = documented_purposes()
    for cls in RULESETS:
        for purpose in cls.casualty_dice:
            assert purpose in documented, (cls.id, purpose)
    for purpose in ("fan_factor", "dedicated_fans", "concession_fans", "expensive_mistakes",
                    "expensive_mistakes_amount", "gate", "winnings", "walkout", "star_roll",
                    "characteristic", "niggling_recovery"):  # fmt: skip
        assert purpose in documented, purpose


def test_every_edition_has_its_dice_in_the_match_report_guide() -> None:
    """A league of each registered edition finds its own dice table (bb2020 and lrb6 were
    added without one)."""
    text = (DOCS / "match-report.md").read_text(encoding="utf-8")
    section = text[text.index("### Every die, by purpose") :]
    headed = set(re.findall(r"^\*\*([a-z0-9-]+)\*\*$", section, flags=re.MULTILINE))
    assert headed == {cls.id for cls in RULESETS}


def test_the_advance_help_gives_dice_under_purposes_the_rules_read() -> None:
    """Its examples are purposes of the guide's dice tables ('skill=3,5' was read by no
    rule: a random skill's rolls are 'random_skill')."""
    shown = " ".join(run_argv(["ledger", "team", "advance", "--help"]).out.split())
    examples = re.findall(r"\b([a-z_]+)=\d", shown.split("--die PURPOSE=VALUES")[1])
    assert examples
    assert set(examples) <= documented_purposes(), examples


def test_a_close_without_its_dice_names_them_all(outputs: dict[str, Outcome]) -> None:
    line = outputs["match close without dice"].error_line
    assert line.startswith(
        "error[invalid-dice]: closing s1-old-r1-1 for Reikland Reavers (reavers) needs"
        " expensive_mistakes (D6): "
    )
    assert "; and for Grudgebearers (grudge) needs expensive_mistakes (D6): " in line
