"""docs/rulesets.md, the commissioners' entry point to the editions, stays true to the code.

Its option tables are ``ledger rulesets --markdown`` (generated from the Options models and
their attribute docstrings), so an option added, renamed or re-documented in a ruleset
fails here until the page is regenerated; every registered ruleset, alias and option is
named on the page, and each older edition's own page is linked and exists.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cli.league import markdown_options, ruleset_entries
from ledger.rules import RULESETS
from ledger.rules.base import BaseRuleset

DOCS = Path(__file__).parents[2] / "docs"
PAGE = (DOCS / "rulesets.md").read_text(encoding="utf-8")
BEGIN = "<!-- options:begin (generated: ledger rulesets --markdown) -->\n"
END = "<!-- options:end -->"


def test_the_option_tables_are_the_generated_ones() -> None:
    block = PAGE[PAGE.index(BEGIN) + len(BEGIN) : PAGE.index(END)].strip()
    expected = "\n\n".join(markdown_options(entry) for entry in ruleset_entries())
    assert block == expected, "regenerate the block with: ledger rulesets --markdown"


@pytest.mark.parametrize("cls", RULESETS, ids=[cls.id for cls in RULESETS])
def test_the_page_names_every_ruleset_alias_and_option(cls: type[BaseRuleset[Any]]) -> None:
    index = PAGE[PAGE.index("## The editions") : PAGE.index("## Options")]
    row = next(line for line in index.splitlines() if line.startswith(f"| `{cls.id}` |"))
    assert all(f"`{alias}`" in row for alias in cls.aliases)
    options = PAGE[PAGE.index(f"### `{cls.id}`") :]
    for name, field in cls.Options.model_fields.items():
        assert f"| `{name}` |" in options, f"{cls.id} option {name} is not on the page"
        assert " ".join((field.description or "").split()) in options


def test_each_older_edition_has_its_page_linked() -> None:
    linked = set(re.findall(r"\]\((rulesets/[\w-]+\.md)\)", PAGE))
    assert linked == {
        "rulesets/bb2020.md",
        "rulesets/lrb6.md",
        "rulesets/lrb6-zal.md",
        "rulesets/gold4.md",
        "rulesets/dz3.md",
    }
    assert all((DOCS / page).is_file() for page in linked)
