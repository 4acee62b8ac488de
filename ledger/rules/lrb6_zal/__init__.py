"""LRB6 with the Zürchheim Alchemists' League Season 5 rules: see ruleset.py."""

from ledger.rules.lrb6_zal.ruleset import LRB6ZAL

__all__ = ["LRB6ZAL"]
