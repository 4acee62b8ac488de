"""4th edition "Gold", ruleset id ``gold4`` (seed 002 on the 3rd edition books). Skeleton."""

from __future__ import annotations

from pathlib import Path

from ledger.rules.base import BaseRuleset


class Gold4(BaseRuleset):
    id = "gold4"
    name = 'Blood Bowl 4th edition "Gold"'
    source = "seed 002 (4th edition Gold rules) on the 3rd edition Handbook and Death Zone"
    aliases = ("bb4", "4th", "gold", "fourth")
    data_dir = Path(__file__).parent.parent / "classic3" / "data"
    value_labels = {"tr": "TR"}
    rating_key = "tr"
