"""The ruleset registry names each edition by its class's own id, and loads only what is asked."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ledger.errors import UnknownRuleset
from ledger.rules import REGISTRY, RULESETS, ruleset_class


def test_each_entry_is_its_class_id() -> None:
    assert [cls.id for cls in RULESETS] == list(REGISTRY)


@pytest.mark.parametrize("cls", RULESETS, ids=lambda cls: cls.id)
def test_ids_and_aliases_find_their_class(cls: type) -> None:
    for name in (cls.id, *cls.aliases, cls.id.upper()):  # type: ignore[attr-defined]
        assert ruleset_class(name) is cls


def test_an_unknown_name_is_refused_with_the_known_ids() -> None:
    with pytest.raises(UnknownRuleset, match="unknown ruleset 'bb1987' \\(known: bb2025, bb2020,"):
        ruleset_class("bb1987")


def test_a_league_under_one_ruleset_imports_no_other() -> None:
    """A recorded league names its ruleset by id: only that edition's module is imported."""
    editions = sorted(where.split(":")[0] for where in REGISTRY.values())
    code = (
        "import sys; from ledger.rules import find_ruleset; find_ruleset('dz3');"
        f"print(sorted(m for m in sys.modules if m in {editions!r}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['ledger.rules.dz3']"
