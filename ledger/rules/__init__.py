"""Rulesets by stable id, with aliases; an unknown name is a clear error.

The registry is explicit (python-chess's ``VARIANTS`` list): adding an edition means
adding it here, never discovering it by import side effects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.errors import UnknownRuleset
from ledger.rules.base import BaseRuleset
from ledger.rules.bb2020 import BB2020
from ledger.rules.bb2025 import BB2025
from ledger.rules.dz3 import DZ3
from ledger.rules.gold4 import Gold4
from ledger.rules.lrb6 import LRB6
from ledger.rules.lrb6_zal import LRB6ZAL
from ledger.rules.protocol import Ruleset

RULESETS: tuple[type[BaseRuleset], ...] = (BB2025, BB2020, LRB6, LRB6ZAL, Gold4, DZ3)


def ruleset_class(name: str) -> type[BaseRuleset]:
    wanted = name.strip().lower()
    for cls in RULESETS:
        if wanted == cls.id or wanted in cls.aliases:
            return cls
    known = ", ".join(cls.id for cls in RULESETS)
    raise UnknownRuleset(
        f"unknown ruleset '{name}' (known: {known})",
        given=wanted,
        known=(name for cls in RULESETS for name in (cls.id, *cls.aliases)),
    )


def find_ruleset(name: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset registered under ``name`` (an id or alias), with its options checked."""
    ruleset: Ruleset = ruleset_class(name)(options)
    return ruleset


__all__ = ["RULESETS", "Ruleset", "find_ruleset", "ruleset_class"]
