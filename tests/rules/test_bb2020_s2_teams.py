"""Every Season 2 team list against the source it was taken from, position by position.

The source pages are kept as the source stores them in tests/rules/data/bb2020_s2/teams
(BBBase, the community rules site's Blood Bowl 2020 pages; repository, path and commit of
each in SOURCES.yaml). The test reads the printed tables itself, so a figure typed wrongly
into ledger/rules/bb2020/data/teams fails here, never twice in agreement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from ledger.rules import find_ruleset
from ledger.rules.schema import Position, TeamList

SOURCE = Path(__file__).parent / "data" / "bb2020_s2" / "teams"
PAGES = sorted(SOURCE.glob("*.md"))
BB2020 = find_ruleset("bb2020")
NO_VALUE = ("-", "\\-", "—", "")


@dataclass(frozen=True)
class Printed:
    """One row of a page's Positionals table, as printed."""

    max: int
    name: str
    ma: int
    st: int
    ag: int | None
    pa: int | None
    av: int | None
    skills: tuple[str, ...]
    primary: frozenset[str]
    secondary: frozenset[str]
    cost: int


def target(cell: str) -> int | None:
    """'3+' is 3; a dash is no value."""
    return None if cell in NO_VALUE else int(cell.rstrip("+"))


def skill_names(cell: str) -> tuple[str, ...]:
    """'• [Loner] (4+) <br /> • [Mighty Blow] (+1)' -> ('Loner (4+)', 'Mighty Blow (+1)')."""
    found = re.finditer(r"\[([^\]]+)\]\s*(\([^)]*\))?", cell)
    return tuple(f"{m[1]} {m[2]}" if m[2] else m[1] for m in found)


def printed_row(line: str) -> Printed:
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    qty, name, ma, st, ag, pa, av, skills, primary, secondary, cost = cells
    return Printed(
        max=int(qty.replace("\u2011", "-").split("-")[1]),
        name=name.replace("\\*", "").rstrip("*").strip(),
        ma=int(ma),
        st=int(st),
        ag=target(ag),
        pa=target(pa),
        av=target(av),
        skills=skill_names(skills),
        primary=frozenset(primary.split()) - {"-"},
        secondary=frozenset(secondary.split()),
        cost=int(re.sub(r"<[^>]+>", "", cost).strip().rstrip("K")) * 1000,
    )


def printed_rows(page: str) -> list[Printed]:
    return [printed_row(line) for line in page.splitlines() if re.match(r"\|\s*0", line)]


def section(page: str, title: str) -> str:
    return page.split(f"### {title}")[1].split("###")[0]


def team_of(path: Path) -> TeamList:
    return BB2020.catalogue.team_list(path.stem.lower())


def same_skills(ours: tuple[str, ...], printed: tuple[str, ...]) -> bool:
    """Spelling as the Skill table has it ('Jump Up' for a page's 'Jump up')."""
    return [s.casefold() for s in ours] == [s.casefold() for s in printed]


def position_differences(ours: Position, printed: Printed) -> list[str]:
    fields = ("name", "max", "cost", "ma", "st", "ag", "pa", "av")
    wrong = [f for f in fields if getattr(ours, f) != getattr(printed, f)]
    if not same_skills(ours.skills, printed.skills):
        wrong.append("skills")
    if frozenset(ours.primary) != printed.primary:
        wrong.append("primary")
    if frozenset(ours.secondary) != printed.secondary:
        wrong.append("secondary")
    return [f"{ours.id}: {f}" for f in wrong]


def test_every_season_2_team_of_the_source_is_a_team_list_and_no_other() -> None:
    assert sorted(BB2020.catalogue.team_lists()) == sorted(p.stem.lower() for p in PAGES)
    assert len(PAGES) == 29


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_positions_prices_limits_profiles_skills_and_access_match_the_source(page: Path) -> None:
    printed = printed_rows(page.read_text(encoding="utf-8"))
    ours = team_of(page).positions
    assert len(ours) == len(printed)
    problems = [d for o, p in zip(ours, printed, strict=True) for d in position_differences(o, p)]
    assert problems == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_reroll_price_apothecary_and_special_rules_match_the_source(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    staff = section(text, "Staff")
    reroll = re.search(r"\[Re-roll\] - (\d+)K", staff)
    assert reroll is not None
    rules = re.findall(r"^\* \[([^\]]+)\]", section(text, "Special Rules"), re.M)
    team = team_of(page)
    assert team.reroll_cost == int(reroll[1]) * 1000
    assert team.apothecary == ("[Apothecary]" in staff)
    assert list(team.special_rules) == rules


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_the_lineman_positions_are_the_0_12_and_0_16_lines(page: Path) -> None:
    """Rules and Regulations, 'Player Positions': "All teams will have a player type that
    they are permitted to take 0-12 or 0-16 of ... this Player type is the team's 'Lineman'
    positional" (Journeymen are taken from it)."""
    printed = {p.name: p.max for p in printed_rows(page.read_text(encoding="utf-8"))}
    linemen = {p.name for p in team_of(page).positions if "lineman" in p.keywords}
    assert linemen == {name for name, most in printed.items() if most in (12, 16)}
    assert linemen
