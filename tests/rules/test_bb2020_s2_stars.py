"""Every Season 2 Star Player against his source page: price, profile, skills, teams.

The pages are kept as the source stores them in tests/rules/data/bb2020_s2/stars (BBBase,
docs/bb2020/starplayers; repository, path and commit in SOURCES.yaml). A pair (Dribl &
Drull, Grak & Crumbleberry, the Swift Twins) is one page with one price: the ruleset puts
the price on the first star and 0 on his partner.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from ledger.rules import find_ruleset
from ledger.rules.schema import StarPlayer

SOURCE = Path(__file__).parent / "data" / "bb2020_s2" / "stars"
PAGES = sorted(SOURCE.glob("*.md"))
BB2020 = find_ruleset("bb2020")
PAIRS = {
    "dribl_and_drull": ("dribl", "drull"),
    "grak_and_crumbleberry": ("grak", "crumbleberry"),
    "the_swift_twins": ("lucien_swift", "valen_swift"),
}
RENAMED = {
    "gretchen_wachter_the_blood_bowl_widow": "gretchen_wachter",
    "grombrindal_the_white_dwarf": "grombrindal",
    "guffle_pussmaw": "guffle_pusmaw",
    "kreek_the_verminator_rustgouger": "kreek_rustgouger",
    "mighty_zug": "the_mighty_zug",
}
"""Pages whose star keeps the id bb2025 gives him (the what-if maps stars by id)."""


@dataclass(frozen=True)
class Printed:
    cost: int
    profile: tuple[int | None, ...]
    skills: tuple[str, ...]
    teams: frozenset[str]


def target(cell: str) -> int | None:
    return None if cell.strip() in ("-", "--", "") else int(cell.strip().rstrip("+"))


def profile(block: str) -> tuple[int | None, ...]:
    """The first table row holding a target number ('2+'): MA ST AG PA AV."""
    row = next(line for line in block.splitlines() if line.startswith("|") and "+" in line)
    cells = [c for c in re.split(r"[|\t]", row) if c.strip()]
    return tuple(target(c) for c in cells[-5:])


def skills(block: str) -> tuple[str, ...]:
    found = re.finditer(r"^\* \[([^\]]+)\]\s*(\([^)]*\))?", block, re.M)
    return tuple(f"{m[1]} {m[2]}" if m[2] else m[1] for m in found)


def teams(page: str) -> frozenset[str]:
    by_name = {team.name: team_id for team_id, team in BB2020.catalogue.team_lists().items()}
    listed = re.findall(r"^\* \[([^\]]+)\]", page.split("play for...")[1], re.M)
    return frozenset(by_name[name] for name in listed)


def price(text: str) -> int:
    found = re.search(r"(\d+)\s?K", re.sub(r"<[^>]+>", "", text))
    assert found is not None
    return int(found[1]) * 1000


def printed_stars(path: Path) -> dict[str, Printed]:
    page = path.read_text(encoding="utf-8")
    before_rules = page.split("\n### ")[0]
    if path.stem not in PAIRS:
        head = next(line for line in page.splitlines() if "| MA" in line)
        star = Printed(price(head), profile(page), skills(before_rules), teams(page))
        return {RENAMED.get(path.stem, path.stem): star}
    halves = re.split(r"^#### ", page.split("\n### ")[0], flags=re.M)[1:]
    first, second = PAIRS[path.stem]
    cost = price(re.search(r"\*\*\d+K\*\*", page)[0])  # type: ignore[index]
    return {
        star_id: Printed(cost if star_id == first else 0, profile(half), skills(half), teams(page))
        for star_id, half in zip((first, second), halves, strict=True)
    }


def printed_all() -> dict[str, Printed]:
    return {star_id: star for path in PAGES for star_id, star in printed_stars(path).items()}


def ours(star: StarPlayer) -> Printed:
    shown = (star.ma, star.st, star.ag, star.pa, star.av)
    return Printed(star.cost, shown, star.skills, frozenset(star.plays_for))


def test_every_star_of_the_source_is_listed_and_no_other() -> None:
    assert sorted(BB2020.catalogue.stars()) == sorted(printed_all())
    assert len(PAGES) == 64


@pytest.mark.parametrize("star_id", sorted(printed_all()))
def test_price_profile_skills_and_teams_match_the_source(star_id: str) -> None:
    printed, star = printed_all()[star_id], ours(BB2020.catalogue.stars()[star_id])
    assert (star.cost, star.profile, star.teams) == (printed.cost, printed.profile, printed.teams)
    assert [s.casefold() for s in star.skills] == [s.casefold() for s in printed.skills]


@pytest.mark.parametrize(("first", "second"), PAIRS.values())
def test_a_pair_is_hired_together_and_priced_once(first: str, second: str) -> None:
    stars = BB2020.catalogue.stars()
    assert (stars[first].pair_with, stars[second].pair_with) == (second, first)
    assert stars[second].cost == 0
