"""The Season 2 league tables against the source passages they were taken from.

The passages are kept in tests/rules/data/bb2020_s2/rules (BBBase docs/bb2020/core_rules;
repository, path and commit in SOURCES.yaml). Each test reads the printed table itself and
compares it with what the bb2020 ruleset loaded from ledger/rules/bb2020/data.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ledger.domain.state import TeamRow
from ledger.rules import find_ruleset
from ledger.rules.bb2020.ruleset import BB2020 as Season2
from ledger.rules.bb2020.tables import Tables, tables
from ledger.rules.bb2025 import pregame

SOURCE = Path(__file__).parent / "data" / "bb2020_s2" / "rules"
BB2020 = find_ruleset("bb2020")
STATS = ("ma", "st", "ag", "pa", "av")


def page(name: str) -> str:
    return (SOURCE / name).read_text(encoding="utf-8")


def rows(text: str, first_cell: str) -> list[list[str]]:
    """The cells of every table row whose first cell matches ``first_cell``."""
    found = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and re.fullmatch(first_cell, cells[0]):
            found.append(cells)
    return found


def gold(text: str) -> int:
    return int(re.sub(r"[^\d]", "", text))


# --- Spending Star Player Points --------------------------------------------------------


def test_the_advancements_table_is_the_printed_one() -> None:
    printed = [
        [int(c.split()[0]) for c in cells[1:]]
        for cells in rows(page("post-game_sequence.md"), r".*\((\w+) advancement\)")
    ]
    ours = [
        [row.random_primary, row.chosen_primary, row.chosen_secondary, row.characteristic]
        for row in tables().advancement_costs
    ]
    assert ours == printed
    assert len(printed) == 6


def test_a_random_secondary_skill_costs_what_a_chosen_primary_costs() -> None:
    """One column: 'Choose a Primary skill or randomly select a Secondary skill'."""
    assert all(row.random_secondary == row.chosen_primary for row in tables().advancement_costs)


def test_the_characteristic_improvement_table_is_the_printed_d16() -> None:
    printed: dict[int, set[str]] = {}
    for cells in rows(page("post-game_sequence.md"), r"\d+(\u2011\d+)?"):
        if not cells[1].startswith("Improve"):
            continue  # the Expensive Mistakes rows
        low, _, high = cells[0].partition("\u2011")
        named = {s for s in STATS if re.search(rf"\b{s.upper()}\b", cells[1])}
        for roll in range(int(low), int(high or low) + 1):
            printed[roll] = named or set(STATS)  # 16: 'a characteristic of your choice'
    assert {roll: set(stats) for roll, stats in tables().characteristic_improvement.items()} == (
        printed
    )
    assert sorted(printed) == list(range(1, 17))


def test_the_value_increase_table_is_the_printed_one() -> None:
    text = page("post-game_sequence.md")
    skills = {cells[0]: gold(cells[1]) for cells in rows(text, r".* skill")}
    stats = {cells[0]: gold(cells[1]) for cells in rows(text, r"\+1 .*")}
    increase = tables().value_increase
    assert skills == {
        "Randomly selected Primary skill": increase["random_primary"],
        "Chosen Primary skill": increase["chosen_primary"],
        "Randomly selected Secondary skill": increase["random_secondary"],
        "Chosen Secondary skill": increase["chosen_secondary"],
    }
    assert stats == {
        "+1 AV": increase["av"],
        "+1 MA or +1PA": increase["ma"],
        "+1 AG": increase["ag"],
        "+1 ST": increase["st"],
    }
    assert increase["pa"] == increase["ma"]


@pytest.mark.parametrize(
    ("passage", "achievement"),
    [
        (r"A Passing Completion earns the player (\d) SPP", "completion"),
        (r"A Throwing Completion earns the player (\d) SPP", "superb_throw"),
        (r"A Deflection earns the player (\d) SPP", "deflection"),
        (r"An Interception earns the player (\d) SPP", "interception"),
        (r"Causing a Casualty earns the player (\d) SPP", "casualty"),
        (r"When a player scores a touchdown, they earn (\d) SPP", "touchdown"),
        (r"Most Valuable Player award, earning (\d) SPP", "mvp"),
    ],
)
def test_each_achievement_earns_the_printed_spp(passage: str, achievement: str) -> None:
    found = re.search(passage, page("post-game_sequence.md"))
    assert found is not None
    assert BB2020.spp_table()[achievement] == int(found[1])


def test_no_spp_is_printed_for_a_thrown_player_landing() -> None:
    """Season 2 pays the thrower (Throwing Completion), never the thrown player."""
    assert "landing" not in BB2020.spp_table()


# --- Expensive Mistakes, winnings, fans, the draft ------------------------------------------


def test_the_expensive_mistakes_table_is_the_printed_one() -> None:
    words = {"Crisis Averted": "averted", "Minor Incident": "minor"}
    words |= {"Major Incident": "major", "Catastrophe": "catastrophe"}
    printed = [
        [words[c] for c in cells[1:]] for cells in rows(page("post-game_sequence.md"), r"\d")
    ]
    printed = [row for row in printed if len(row) == 6]
    assert [list(row) for row in tables().expensive_mistakes.table] == printed


def test_winnings_have_no_bonus_for_not_stalling() -> None:
    """'Winnings': half the Fan Attendance plus the touchdowns, times 10,000; nothing else."""
    text = page("post-game_sequence.md")
    assert "Multiply the total by 10,000" in text
    assert "stall" not in text.lower()
    assert tables().winnings.no_stalling_bonus == 0
    assert tables().winnings.per_point == 10_000


def test_dedicated_fans_start_at_one_and_are_bought_up_to_six_at_10000() -> None:
    text = page("rules_and_regulations.md")
    assert "Dedicated Fans characteristic of 1" in text
    assert "never fall below 1" in text
    assert "up to a maximum of 6, at a cost of 10,000 gold pieces" in text
    fans = tables().dedicated_fans
    assert (fans.start, fans.min, fans.draft_max, fans.price) == (1, 1, 6, 10_000)


def test_the_draft_budget_rerolls_and_staff_are_the_printed_ones() -> None:
    text = page("rules_and_regulations.md")
    assert "budget of 1,000,000 gold pieces" in text
    assert "0-8 team re-rolls" in text
    assert BB2020.starting_treasury() == 1_000_000
    assert tables().max_rerolls == 8
    staff = {k: (v.price, v.max) for k, v in tables().sideline.items()}
    assert staff == {
        "assistant_coach": (10_000, 6),
        "cheerleader": (10_000, 12),
        "apothecary": (50_000, 1),
    }


# --- Inducements -------------------------------------------------------------------------------


def printed_inducements() -> dict[str, tuple[int, int, str]]:
    """name -> (max, price, the rest of the line) from the Common Inducements list."""
    found = re.finditer(
        r"^\* \*\*0-(\d+) ([^*]+)\*\* - ([\d,]+) gold pieces(.*)$",
        page("inducements_in_detail.md"),
        re.M,
    )
    return {m[2]: (int(m[1]), gold(m[3]), m[4]) for m in found}


def test_the_common_inducements_are_the_printed_ones() -> None:
    ours = {i.name: i for i in pregame.inducements(BB2020.data_dir).values()}
    assert len(printed_inducements()) == 12
    for name, (most, price, rest) in printed_inducements().items():
        assert (ours[name].max, ours[name].cost) == (most, price), name
        for rule in re.findall(r"only available to teams with the \[([^\]]+)\]", rest):
            assert ours[name].only_for == (rule,), name
        cheaper = re.search(r"\(([\d,]+) gold pieces for teams with the \[([^\]]+)\]", rest)
        if cheaper and name != "Halfling Master Chef":
            assert ours[name].reduced_cost == {cheaper[2]: gold(cheaper[1])}, name


PAGE_NAMES = {
    "Josef Bugman": "Infamous Coaching Staff: Josef Bugman",
    "Biased Referee": "Biased Referee",
    "Bribe": "Bribes",
    "Hireling Sports-Wizard": "Wizard: Hireling Sports-Wizard",
    "Halfling Master Chef": "Halfling Master Chef",
}
"""A team page's name for an inducement -> the ruleset's line."""


def page_prices(team_page: str) -> dict[str, int]:
    """One team page's Inducements list (team_page_inducements.md), by our line name."""
    text = page("team_page_inducements.md")
    section = text.split(f"docs/bb2020/teams/{team_page}.md")[1].split("<!--")[0]
    found = re.finditer(r"^\* \[([^\]]+)\](?: \(\w+\))? - (\d+)K", section, re.M)
    return {PAGE_NAMES[m[1]]: int(m[2]) * 1000 for m in found if m[1] in PAGE_NAMES}


@pytest.mark.parametrize(
    ("team_page", "roster"),
    [("Human", "human"), ("Black_Orc", "black_orc"), ("Halfling", "halfling")],
)
def test_a_team_pays_what_its_page_lists(team_page: str, roster: str) -> None:
    """The team pages' Inducements lists: the named inducements, Bribes and the Master Chef
    at each team's price (Bribery and Corruption, Halfling teams)."""
    offer = BB2020.inducement_offer(
        TeamRow(league_id="l", team_id="t", name="T", coach="c", roster=roster)
    )
    listed = page_prices(team_page)
    assert {name: i.price for i in offer.values() if (name := i.name) in listed} == listed
    assert len(listed) >= 4


def test_the_cheaper_chef_is_for_halfling_teams_only() -> None:
    """The FAQ (marked on BBBase) gives the 100,000 Chef to Halfling teams, no longer to the
    Halfling Thimble Cup: a Gnome team, of the Thimble Cup, pays 300,000."""
    offer = BB2020.inducement_offer(
        TeamRow(league_id="l", team_id="t", name="T", coach="c", roster="gnome")
    )
    assert {i.name: i.price for i in offer.values()}["Halfling Master Chef"] == 300_000


# --- the Skill table ------------------------------------------------------------------------


def test_the_skill_table_is_the_printed_one_in_its_order() -> None:
    """'Skill Categories': the 2D6 random selection reads the table in this order."""
    columns = {"A": 2, "G": 3, "M": 4, "P": 5, "S": 6}
    printed_rows = rows(page("skills_and_traits.md"), r"\d\u2011\d")
    ours = BB2020.catalogue.skills()
    for category, index in columns.items():
        printed = [re.sub(r"[\[\]*]", "", r[index]).strip() for r in printed_rows]
        assert [s.name for s in ours if s.category == category] == printed, category


def test_season_2_has_no_devious_skills_and_no_elite_skills() -> None:
    assert {s.category for s in BB2020.catalogue.skills()} == {"A", "G", "M", "P", "S", "T"}
    assert not any(s.elite for s in BB2020.catalogue.skills())


def test_the_sideline_a_team_may_buy_is_season_2s() -> None:
    """Re-rolls at the list's price (0-8), Dedicated Fans at 10,000 up to 6 while drafting,
    and the staff of 'Hiring Sideline Staff' (an Apothecary only where the list allows)."""
    team = TeamRow(league_id="l", team_id="t", name="T", coach="c", roster="dwarf")
    items = {k: (v.price, v.max) for k, v in BB2020.sideline_items(team).items()}
    staff = {k: (v.price, v.max) for k, v in tables().sideline.items()}
    fans = tables().dedicated_fans
    assert items == {
        "reroll": (50_000, tables().max_rerolls),
        "dedicated_fans": (fans.price, fans.draft_max),
        **staff,
    }
    undead = team.model_copy(update={"roster": "shambling_undead"})
    assert "apothecary" not in BB2020.sideline_items(undead)


class DearerStaff(Season2):
    """Season 2 with a Cheerleader at 15,000: a table the 2025 file does not have."""

    @classmethod
    def tables(cls) -> Tables:
        cheap = tables().sideline["cheerleader"]
        dearer = {**tables().sideline, "cheerleader": cheap.model_copy(update={"price": 15_000})}
        return tables().model_copy(update={"sideline": dearer})


def test_a_variant_sells_its_sideline_from_its_own_tables_not_2025s() -> None:
    team = TeamRow(league_id="l", team_id="t", name="T", coach="c", roster="dwarf")
    assert DearerStaff().sideline_items(team)["cheerleader"].price == 15_000
    assert BB2020.sideline_items(team)["cheerleader"].price == 10_000
