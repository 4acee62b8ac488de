"""Blood Bowl 2025 (Third Season Edition): see ruleset.py."""

from ledger.rules.bb2025.ruleset import BB2025

__all__ = ["BB2025"]
