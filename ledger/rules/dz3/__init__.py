"""3rd edition Death Zone with the OBERWALD rulings: see ruleset.py."""

from ledger.rules.dz3.ruleset import DZ3

__all__ = ["DZ3"]
