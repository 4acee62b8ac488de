"""The sentences the rules and the commands refuse with are said alike to the CLI, the API
and the pages: they name what is wrong and what to give in the league's words (a roll's
purpose, a match's inducements), never a command line's option or command, which a coach
on a web form has no way to type. Read from the source, so a new sentence is held to it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import ledger

ROOT = Path(ledger.__file__).parent
SAID = [
    *sorted((ROOT / "rules").rglob("*.py")),
    *(ROOT / "application" / f"{name}.py" for name in (
        "matches", "submissions", "corrections", "seasons", "grants", "teams",
        "inducements", "redrafts", "reports", "amendments", "closing", "match_facts",
        "mistakes", "registration",
    )),
]  # fmt: skip
COMMAND_LINE = re.compile(r"(?:^|[\s(])--[a-z]|'ledger |PURPOSE=")


def sentences(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module that are not docstrings."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


@pytest.mark.parametrize("path", SAID, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_sentence_names_a_command_line_option(path: Path) -> None:
    found = [f"{line}: {text}" for line, text in sentences(path) if COMMAND_LINE.search(text)]
    assert found == []


def test_the_check_finds_what_it_looks_for() -> None:
    """The sentences this test was written against, as they were."""
    for old in (
        " as its category (--category), not 'x'",
        "(enter them, or let the ledger roll with --roll): ",
        "close it first (its match page, or 'ledger match close m1')",
        " (give each as PURPOSE=VALUES, or TEAM:PURPOSE=VALUES for one team's own,",
        " he does not play (run 'ledger match fees ",
    ):
        assert COMMAND_LINE.search(old), old
