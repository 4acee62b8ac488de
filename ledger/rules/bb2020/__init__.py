"""Blood Bowl 2020, Second Season: see ruleset.py."""

from ledger.rules.bb2020.ruleset import BB2020

__all__ = ["BB2020"]
