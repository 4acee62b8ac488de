"""A name that is nearly right is answered with the one meant: commands, leagues, teams,
players, team lists, positions, rulesets and ruleset options ("did you mean ...?"); a name
that is nothing like any gets no guess."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.errors import UnknownPlayer, UnknownPosition, did_you_mean
from ledger.rules import find_ruleset
from tests.cli.inprocess import copy_of, ledger_from_script, run_ledger

SETUP = """\
league create owl --name "Old World League" --ruleset bb2025
team register reavers --name "Reikland Reavers" --coach Jay --roster human
team register rats --name Scramblers --coach Rob --roster skaven
team hire reavers lineman "Griff Junior" --number 1
team hire rats gutter_runner Skweek --number 1
"""


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ledger_from_script(tmp_path_factory.mktemp("suggest"), SETUP)


@pytest.fixture
def league(template: Path, tmp_path: Path) -> Path:
    return copy_of(template, tmp_path)


def test_a_misspelt_player_is_answered_with_the_one_meant(league: Path) -> None:
    line = run_ledger(league, "team", "fire", "reavers", "Griff Junoir").error_line
    assert line.startswith("error[unknown-player]: no player 'Griff Junoir' of reavers")
    assert line.endswith("; did you mean 'Griff Junior'?")


def test_a_misspelt_team_league_and_history_name(league: Path) -> None:
    assert run_ledger(league, "roster", "reaver").error_line.endswith("; did you mean 'reavers'?")
    assert run_ledger(league, "--league", "olw", "standings").error_line.endswith(
        "; did you mean 'owl'?"
    )
    assert run_ledger(league, "history", "Skweak").error_line.endswith("; did you mean 'Skweek'?")
    assert run_ledger(league, "history", "nothing-here").error_line == (
        "error[not-found]: no team, match or player 'nothing-here' in league owl"
    )


def test_a_misspelt_position_team_list_ruleset_and_option(league: Path) -> None:
    line = run_ledger(league, "team", "hire", "reavers", "lineman_", "Otto").error_line
    assert line.startswith("error[unknown-position]")
    assert line.endswith("; did you mean 'lineman'?")
    register = ("team", "register", "orcs", "--name", "Orcs", "--coach", "Al", "--roster")
    assert run_ledger(league, *register, "humna").error_line.endswith("; did you mean 'human'?")
    create = ("league", "create", "new", "--name", "New")
    assert run_ledger(league, *create, "--ruleset", "bb202").error_line.endswith(
        "; did you mean 'bb2025'?"
    )
    option = run_ledger(league, *create, "--ruleset", "bb2025", "--option", "bonus_point=none")
    assert option.error_line.endswith("; did you mean 'bonus_points'?")


def test_a_misspelt_item_or_star_is_a_name_not_held_as_a_misspelt_player_is(
    league: Path,
) -> None:
    """Before, an unknown item was 'invalid-input' (exit 2, no suggestion) where an unknown
    player was 'unknown-player' (exit 1): a name the books or the edition do not hold is
    exit 1, the same for every kind of name (docs/commissioners-guide.md, the exit table)."""
    item = run_ledger(league, "team", "buy", "reavers", "rerol")
    assert (item.code, item.error_line.split("]")[0]) == (1, "error[unknown-item")
    assert item.error_line.endswith("; did you mean 'reroll'?")
    player = run_ledger(league, "team", "fire", "reavers", "Griff Junoir")
    assert player.code == item.code
    with pytest.raises(UnknownPosition, match=r"; did you mean 'griff_oberwald'[?]$"):
        find_ruleset("bb2025").catalogue.star("griff_oberwal")


def test_a_misspelt_command_is_answered_with_the_one_meant(league: Path) -> None:
    done = run_ledger(league, "standing")
    assert done.code == 2
    assert "No such command 'standing'. Did you mean 'standings'?" in done.err
    sub = run_ledger(league, "team", "hier")
    assert "Did you mean 'hire'?" in sub.err


def test_a_name_like_nothing_gets_no_guess(league: Path) -> None:
    line = run_ledger(league, "team", "fire", "reavers", "Zzyzx Qwerty").error_line
    assert line.startswith("error[unknown-player]")
    assert "did you mean" not in line
    assert "Did you mean" not in run_ledger(league, "xyzzy").err


def test_the_one_helper_prefers_a_case_slip_and_never_suggests_the_name_itself() -> None:
    assert did_you_mean("SKWEEK", ["Skweek", "Skweak"]) == "Skweek"
    assert did_you_mean("rotter", ["bloater", "rotter_lineman", "pestigor"]) == "rotter_lineman"
    assert did_you_mean("Skweek", ["Skweek"]) is None
    assert did_you_mean("zz", []) is None
    error = UnknownPlayer("no player 'Grif'", given="Grif", known=["Griff", "Otto"])
    assert error.message == "no player 'Grif'; did you mean 'Griff'?"
    assert UnknownPlayer("no player 'x'").message == "no player 'x'"


def test_a_misspelt_option_is_answered_with_the_one_meant(league: Path) -> None:
    done = run_ledger(league, "standings", "--wdie")
    assert done.code == 2
    assert "No such option '--wdie'. Did you mean '--wide'?" in done.err
