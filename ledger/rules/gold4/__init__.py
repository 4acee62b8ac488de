"""Blood Bowl 4th edition "Gold" rules: see ruleset.py."""

from ledger.rules.gold4.ruleset import Gold4

__all__ = ["Gold4"]
