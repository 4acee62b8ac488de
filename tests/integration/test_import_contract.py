"""Every package and top-level module of ``ledger`` (and ``cli``) has its place in the
import-linter layers contract (pyproject.toml): a module left out could import anything,
and ``lint-imports`` would not say so."""

from __future__ import annotations

import pkgutil
import re
import tomllib
from pathlib import Path

import ledger

PYPROJECT = Path(__file__).parents[2] / "pyproject.toml"


def layered() -> set[str]:
    """The modules the layers contracts name (``a | b`` and ``a : b`` share a layer)."""
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = [layer for c in contracts if c["type"] == "layers" for layer in c["layers"]]
    return {name.strip() for layer in layers for name in re.split(r"[|:]", layer)}


def test_every_package_of_the_ledger_is_in_the_import_contract() -> None:
    modules = {f"ledger.{found.name}" for found in pkgutil.iter_modules(ledger.__path__)}
    assert {"ledger.errors", "ledger.persistence"} <= modules
    assert modules | {"cli"} <= layered()
