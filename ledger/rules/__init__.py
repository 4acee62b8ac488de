"""Rulesets by stable id, with aliases; an unknown name is a clear error.

The registry is explicit (python-chess's ``VARIANTS`` list): adding an edition means
adding it here, never discovering it by import side effects. It names where each
ruleset lives rather than importing it: a command imports only the edition its league
uses (importing every edition's module and data cost about a third of a second on every
start). ``RULESETS``, the classes themselves, imports them all when first asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from ledger.errors import UnknownRuleset

if TYPE_CHECKING:
    from ledger.rules.base import BaseRuleset
    from ledger.rules.protocol import Ruleset


REGISTRY: dict[str, str] = {
    "bb2025": "ledger.rules.bb2025:BB2025",
    "bb2020": "ledger.rules.bb2020:BB2020",
    "lrb6": "ledger.rules.lrb6:LRB6",
    "lrb6-zal": "ledger.rules.lrb6_zal:LRB6ZAL",
    "gold4": "ledger.rules.gold4:Gold4",
    "dz3": "ledger.rules.dz3:DZ3",
}
"""Each ruleset's id and where its class is (``module:class``). The aliases are the
classes' own: a recorded league names its ruleset by id, which loads that one alone; a
name typed by hand that is no id loads them all to look for it."""


@cache
def loaded(where: str) -> type[BaseRuleset[Any]]:
    module, name = where.split(":")
    found: type[BaseRuleset[Any]] = getattr(importlib.import_module(module), name)
    return found


def ruleset_class(name: str) -> type[BaseRuleset[Any]]:
    wanted = name.strip().lower()
    if wanted in REGISTRY:
        return loaded(REGISTRY[wanted])
    every = all_rulesets()
    for cls in every:
        if wanted in cls.aliases:
            return cls
    raise UnknownRuleset(
        f"unknown ruleset '{name[:40]}' (known: {', '.join(REGISTRY)})",
        given=wanted,
        known=(name for cls in every for name in (cls.id, *cls.aliases)),
    )


def all_rulesets() -> tuple[type[BaseRuleset[Any]], ...]:
    return tuple(loaded(where) for where in REGISTRY.values())


def find_ruleset(name: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset registered under ``name`` (an id or alias), with its options checked."""
    ruleset: Ruleset = ruleset_class(name)(options)
    return ruleset


def __getattr__(name: str) -> Any:
    """``RULESETS``: every ruleset class, in the registry's order (imports them all)."""
    if name == "RULESETS":
        return all_rulesets()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["REGISTRY", "RULESETS", "Ruleset", "find_ruleset", "ruleset_class"]
