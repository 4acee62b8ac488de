"""Blood Bowl Living Rulebook 6 league rules: see ruleset.py."""

from ledger.rules.lrb6.ruleset import LRB6

__all__ = ["LRB6"]
